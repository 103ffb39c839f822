#include "config.h"
#include "ui/jumps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/views/timeline_lanes.h"
#include "ui/widgets/text.h"

/* A name's instances are capped so that a search for "a" in a large trace
 * stays a bounded allocation. */
#define UI_MAX_JUMPS 1000000

unsigned ui_jumps_step(struct ui_state *st, const struct model *m, int dir)
{
    if (st->njumps == 0) {
        ui_state_message(st, false, "nothing to step through: / searches, Enter on a table row "
                                    "lists instances");
        return UI_REDRAW;
    }
    st->jump = dir > 0 ? (st->jump + 1) % st->njumps : (st->jump + st->njumps - 1) % st->njumps;
    const struct ui_jump *j = &st->jumps[st->jump];
    if (ui_timeline_goto(st, m, j->rank, j->pos) != 0)
        ui_state_message(st, true, "instance %zu/%zu is not on a shown lane", st->jump + 1,
                         st->njumps);
    else
        ui_state_message(st, false, "%zu/%zu %s", st->jump + 1, st->njumps, st->jump_what);
    return UI_REDRAW | UI_RELANE;
}

unsigned ui_jumps_show(struct ui_state *st, const struct model *m, size_t at)
{
    struct ui_place from;
    ui_state_place(st, &from);
    st->view = UI_VIEW_TIMELINE;
    st->focus = UI_FOCUS_MAIN;
    st->jump = (at + st->njumps - 1) % st->njumps;   // the step lands on `at`
    unsigned f = ui_jumps_step(st, m, 1);
    ui_state_moved(st, &from);
    return f;
}

/* The first lane of rank index r on `stream` (-1: any), or SIZE_MAX. */
static size_t lane_of(const struct ui_state *st, size_t r, int64_t stream)
{
    for (size_t i = 0; i < st->nlanes; i++)
        if (st->lanes[i].rank == r && (stream < 0 || (st->lanes[i].kind == UI_LANE_STREAM &&
                                                      st->lanes[i].stream == stream)))
            return i;
    return SIZE_MAX;
}

/* The window [t0, t1), the cursor on time `at` when it lies inside (keep),
 * else on the window's first column. */
static void set_window(struct ui_state *st, int64_t t0, int64_t t1, bool keep, int64_t at)
{
    keep = keep && at >= t0 && at < t1;
    st->tl.t0 = t0;
    st->tl.t1 = t1;
    ui_pan(&st->tl.t0, &st->tl.t1, 0, st->tl.lo, st->tl.hi);
    struct ui_timescale ts;
    ui_timeline_scale(st, &ts);
    int col = keep ? ui_time_col(&ts, at) : 0;
    st->tl.cursor = col < 0 ? 0 : (col >= ts.cols ? ts.cols - 1 : col);
    st->tl.has_at = keep;
    st->tl.at = at;
}

unsigned ui_jumps_show_window(struct ui_state *st, const struct model *m, size_t r,
                              int64_t stream, uint32_t pos, int64_t t0, int64_t t1)
{
    struct ui_place from;
    ui_state_place(st, &from);
    st->view = UI_VIEW_TIMELINE;
    st->focus = UI_FOCUS_MAIN;
    bool placed = r < m->nranks && pos != MODEL_NONE && ui_timeline_goto(st, m, (uint32_t)r, pos) == 0;
    size_t lane = placed ? st->tl.lane : lane_of(st, r, stream);
    if (!placed && lane != SIZE_MAX) {
        st->tl.lane = lane;
        if (st->tl.lane < st->tl.lane_top || st->tl.lane >= st->tl.lane_top + ui_timeline_lane_rows(st))
            st->tl.lane_top = st->tl.lane;
    }
    if (t1 > t0) {
        const struct event *ev = placed ? &m->ranks[r].events[pos] : NULL;
        set_window(st, t0, t1, placed, ev ? ev->ts + (ev->dur > 0 ? ev->dur : 0) / 2 : 0);
    }
    ui_state_moved(st, &from);
    if (r < m->nranks && lane == SIZE_MAX)
        ui_state_message(st, true, "rank %lld has no lane: include it in the left pane",
                         (long long)m->ranks[r].rank);
    return UI_REDRAW | UI_RELANE;
}

/* ---- finding instances ---- */

static int cmp_jump(const void *a, const void *b, void *ctx)
{
    const struct model *m = ctx;
    const struct ui_jump *x = a, *y = b;
    int64_t tx = m->ranks[x->rank].events[x->pos].ts;
    int64_t ty = m->ranks[y->rank].events[y->pos].ts;
    if (tx != ty)
        return tx < ty ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}
/* Which string ids are names to look for: one id, or every id whose text
 * contains `text`. Caller frees. */
static uint8_t *match_ids(const struct model *m, const char *text, bool exact)
{
    size_t n = strtab_count(&m->strings);
    uint8_t *ids = calloc(n ? n : 1, 1);

    if (!ids)
        return NULL;
    if (exact) {
        uint32_t id = strtab_find(&m->strings, text, strlen(text));
        if (id != STRTAB_NONE && id < n)
            ids[id] = 1;
        return ids;
    }
    for (size_t i = 1; i < n; i++)
        ids[i] = ui_text_contains(strtab_str(&m->strings, (uint32_t)i), text);
    return ids;
}

static int collect(struct ui_state *st, const struct model *m, const uint8_t *ids,
                   int64_t rank_filter, size_t *cap)
{
    for (size_t r = 0; r < m->nranks; r++) {
        const struct rank_model *rm = &m->ranks[r];
        if (!rm->selected || !st->ranks[r].included || (rank_filter >= 0 && rm->rank != rank_filter))
            continue;
        for (size_t i = 0; i < rm->nrows && st->njumps < UI_MAX_JUMPS; i++) {
            uint32_t p = rm->rows[i];
            if (p >= rm->nevents || rm->events[p].name >= strtab_count(&m->strings) ||
                !ids[rm->events[p].name])
                continue;
            if (st->njumps == *cap) {
                size_t nc = *cap ? *cap * 2 : 256;
                struct ui_jump *j = realloc(st->jumps, nc * sizeof *j);
                if (!j)
                    return ERR_NOMEM;
                st->jumps = j;
                *cap = nc;
            }
            st->jumps[st->njumps++] = (struct ui_jump){(uint32_t)r, p};
        }
    }
    return 0;
}

size_t ui_find_instances(struct ui_state *st, const struct model *m, const char *text,
                         bool exact, int64_t rank_filter)
{
    size_t cap = 0;
    uint8_t *ids = match_ids(m, text, exact);

    free(st->jumps);
    st->jumps = NULL;
    st->njumps = st->jump = 0;
    if (!ids || collect(st, m, ids, rank_filter, &cap) != 0) {
        free(ids);
        free(st->jumps);
        st->jumps = NULL;
        st->njumps = 0;
        ui_state_message(st, true, "out of memory");
        return 0;
    }
    free(ids);
    if (st->njumps)   /* jumps is NULL when nothing matched */
        qsort_r(st->jumps, st->njumps, sizeof *st->jumps, cmp_jump, (void *)m);
    // Rows repeat an event under HTA's duplication: keep each once.
    size_t u = 0;
    for (size_t i = 0; i < st->njumps; i++)
        if (u == 0 || st->jumps[u - 1].rank != st->jumps[i].rank ||
            st->jumps[u - 1].pos != st->jumps[i].pos)
            st->jumps[u++] = st->jumps[i];
    st->njumps = u;
    snprintf(st->jump_what, sizeof st->jump_what, "%s\"%s\"", exact ? "" : "~ ", text);
    return st->njumps;
}
