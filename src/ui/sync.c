#include "config.h"
#include "ui/sync.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/tiles.h"
#include "ui/actions.h"
#include "ui/views/annotation_tree.h"
#include "ui/views/docs.h"
#include "ui/screen.h"
#include "ui/views/timeline_lanes.h"

#define BUSY_SAMPLES 240

/* Share of each included rank's span with a GPU stream busy, sampled over
 * a fixed number of cells (for the left pane's busy bars). */
static void ui_busy_compute(struct ui_state *st, const struct model *m)
{
    struct ui_pick picks[BUSY_SAMPLES];
    bool busy[BUSY_SAMPLES];

    for (size_t r = 0; r < m->nranks && r < st->nranks; r++) {
        const struct rank_model *rm = &m->ranks[r];
        st->ranks[r].busy = 0;
        if (!rm->selected || rm->end_ns <= rm->start_ns)
            continue;
        if (rm->summary_only && st->job && r < st->job->n) {   // its GPU's busy time, from its tiles
            const struct tiles *t = &st->job->ranks[r].tiles;
            const struct tile_lane *gpu = tiles_find_lane(t, TILE_LANE_GPU, -1);
            int64_t ns = gpu ? tiles_sum(&gpu->runs[TILE_BUSY], t->first, t->first + t->count)
                             : 0;
            st->ranks[r].busy = (double)ns / (double)(rm->end_ns - rm->start_ns);
            continue;
        }
        struct ui_timescale ts = {rm->start_ns, rm->end_ns, BUSY_SAMPLES};
        if (ts.t1 - ts.t0 < BUSY_SAMPLES)
            ts.t1 = ts.t0 + BUSY_SAMPLES;
        memset(busy, 0, sizeof busy);
        for (size_t s = 0; s < rm->nstreams; s++) {
            ui_bucket_stream(&rm->streams[s], rm->events, &ts, picks);
            for (int c = 0; c < BUSY_SAMPLES; c++)
                busy[c] |= picks[c].pos != MODEL_NONE;
        }
        int n = 0;
        for (int c = 0; c < BUSY_SAMPLES; c++)
            n += busy[c];
        st->ranks[r].busy = (double)n / BUSY_SAMPLES;
    }
}

/* The streams switched off in the left pane, for struct selection. */
static struct rank_stream *streams_off(const struct ui_state *st, size_t *n)
{
    size_t total = 0;
    for (size_t r = 0; r < st->nranks; r++)
        total += st->ranks[r].nstreams;
    struct rank_stream *off = calloc(total ? total : 1, sizeof *off);
    *n = 0;
    for (size_t r = 0; off && r < st->nranks; r++)
        for (size_t s = 0; s < st->ranks[r].nstreams; s++)
            if (!st->ranks[r].stream_on[s])
                off[(*n)++] = (struct rank_stream){st->ranks[r].number, st->ranks[r].streams[s]};
    return off;
}

static int reselect(struct ui_state *st, struct model *m, struct err *e)
{
    int64_t *ranks = calloc(st->nranks ? st->nranks : 1, sizeof *ranks), iter[1];
    struct selection sel;
    size_t noff = 0;
    struct rank_stream *off = streams_off(st, &noff);

    if (!ranks || !off) {
        free(ranks);
        free(off);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    ui_state_selection(st, m, ranks, iter, &sel);
    sel.streams_off = off;
    sel.nstreams_off = noff;
    int rc = model_select(m, &sel, e);
    free(ranks);
    free(off);
    ui_state_invalidate(st);
    st->njumps = 0;  // positions stay valid, but they may be outside the selection
    if (rc != 0)
        return rc;
    ui_busy_compute(st, m);
    return 0;
}

static void rebuild_tables(struct ui_state *st)
{
    for (size_t v = 0; v < UI_VIEW_COUNT; v++)
        if (st->docs[v].valid)
            ui_doc_rebuild_views(st, &st->docs[v]);
}

int ui_sync(struct ui_state *st, struct model *m, unsigned flags, struct err *e)
{
    int rc = 0;

    if (flags & UI_RESELECT)
        rc = reselect(st, m, e);
    if (rc == 0 && (flags & (UI_RESELECT | UI_RELANE)))
        rc = ui_lanes_build(st, m);
    if (rc == 0 && (flags & UI_RELANE) && !(flags & UI_RESELECT))
        rebuild_tables(st);
    ui_screen_layout(st);
    // The annotation tree picks its columns for the pane's width.
    if (rc == 0 && st->atree.table && st->atree.width != st->layout.body.w &&
        st->docs[UI_VIEW_ANNOTATIONS].valid && ui_atree_reflatten(st, ui_atree_cursor(st)))
        rc = err_set(e, ERR_NOMEM, "out of memory");
    ui_timeline_extent(st, m);
    if (rc == 0 && ui_view_is_doc(st->view) && !st->docs[st->view].valid)
        rc = ui_doc_refresh(st, m, st->view, e);
    if (rc == 0 && ui_view_is_doc(st->view))
        ui_doc_fit_names(st, &st->docs[st->view]);
    if (rc == 0 && st->view == UI_VIEW_DIFF && st->diff_view && st->diff_view->refresh)
        rc = st->diff_view->refresh(st, m, e);
    if (rc != 0)
        ui_state_message(st, true, "%s", e->msg);
    return rc;
}

unsigned ui_step(struct ui_state *st, struct model *m, int key)
{
    struct err e = {0, ""};
    unsigned flags = ui_dispatch(st, m, key);

    ui_sync(st, m, flags, &e);
    return flags;
}
