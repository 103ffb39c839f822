#include "config.h"
#include "ui/state.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/view.h"
#include "util/sort.h"
#include "util/vec.h"

static int capture_rank(struct ui_rank *ur, const struct rank_model *r)
{
    ur->number = r->rank;
    ur->included = true;
    ur->expanded = false;
    ur->nstreams = r->nstreams;
    ur->nthreads = r->nthreads;
    ur->streams = calloc(r->nstreams ? r->nstreams : 1, sizeof *ur->streams);
    ur->stream_on = calloc(r->nstreams ? r->nstreams : 1, sizeof *ur->stream_on);
    ur->threads = calloc(r->nthreads ? r->nthreads : 1, sizeof *ur->threads);
    ur->thread_on = calloc(r->nthreads ? r->nthreads : 1, sizeof *ur->thread_on);
    if (!ur->streams || !ur->stream_on || !ur->threads || !ur->thread_on)
        return ERR_NOMEM;
    for (size_t i = 0; i < r->nstreams; i++) {
        ur->streams[i] = r->streams[i].stream;
        ur->stream_on[i] = true;
    }
    for (size_t i = 0; i < r->nthreads; i++) {
        ur->threads[i].pid = r->threads[i].pid;
        ur->threads[i].tid = r->threads[i].tid;
        ur->threads[i].name = r->threads[i].name;
        // A rank without GPU streams (a CPU-only trace) shows its threads.
        ur->thread_on[i] = r->nstreams == 0;
    }
    return 0;
}

static int capture_iterations(struct ui_state *st, const struct model *m)
{
    size_t total = 0, k = 0;

    for (size_t r = 0; r < m->nranks; r++)
        total += m->ranks[r].niterations;
    st->iterations = calloc(total ? total : 1, sizeof *st->iterations);
    if (!st->iterations)
        return ERR_NOMEM;
    for (size_t r = 0; r < m->nranks; r++)
        for (size_t i = 0; i < m->ranks[r].niterations; i++)
            st->iterations[k++] = m->ranks[r].iterations[i].number;
    st->niterations = sort_unique_i64(st->iterations, k);
    st->iteration = -1;
    return 0;
}

int ui_state_init(struct ui_state *st, const struct model *m, int rows, int cols)
{
    memset(st, 0, sizeof *st);
    st->rows = rows;
    st->cols = cols;
    st->focus = UI_FOCUS_MAIN;
    st->view = UI_VIEW_TIMELINE;
    st->export_dir = ".";
    st->title = "";
    analysis_opts_default(&st->aopts);
    arena_init(&st->overlay_arena, 16384);
    for (int id = 0; id < UI_VIEW_COUNT; id++) {
        const struct ui_view_ops *v = ui_view_get(st, (enum ui_view_id)id);
        if (v && v->init && v->init(st) != 0)
            return ERR_NOMEM;
    }
    for (size_t v = 0; v < UI_VIEW_COUNT; v++) {
        arena_init(&st->docs[v].arena, 65536);
        for (size_t t = 0; t < UI_DOC_TABLES; t++)
            st->docs[v].tv[t].sort_col = -1;
    }
    st->nranks = m->nranks;
    st->ranks = calloc(m->nranks ? m->nranks : 1, sizeof *st->ranks);
    if (!st->ranks)
        return ERR_NOMEM;
    for (size_t r = 0; r < m->nranks; r++)
        if (capture_rank(&st->ranks[r], &m->ranks[r]) != 0)
            return ERR_NOMEM;
    if (m->nranks == 1)
        st->ranks[0].expanded = true;
    if (capture_iterations(st, m) != 0)
        return ERR_NOMEM;
    st->nname_class = strtab_count(&m->strings);
    st->name_class = calloc(st->nname_class ? st->nname_class : 1, 1);
    if (!st->name_class)
        return ERR_NOMEM;
    return ui_state_items(st);
}

static void doc_fini(struct ui_doc *d)
{
    for (size_t t = 0; t < UI_DOC_TABLES; t++)
        ui_tview_fini(&d->tv[t]);
    arena_fini(&d->arena);
}

void ui_state_fini(struct ui_state *st)
{
    for (size_t r = 0; r < st->nranks && st->ranks; r++) {
        free(st->ranks[r].streams);
        free(st->ranks[r].stream_on);
        free(st->ranks[r].threads);
        free(st->ranks[r].thread_on);
    }
    free(st->ranks);
    free(st->items);
    free(st->iterations);
    for (size_t i = 0; i < st->nlanes && st->lanes; i++)
        free(st->lanes[i].ts);
    free(st->lanes);
    free(st->name_class);
    free(st->jumps);
    free(st->copy);
    for (size_t v = 0; v < UI_VIEW_COUNT; v++)
        doc_fini(&st->docs[v]);
    for (int id = 0; id < UI_VIEW_COUNT; id++) {
        const struct ui_view_ops *v = ui_view_get(st, (enum ui_view_id)id);
        if (v && v->fini)
            v->fini(st);
    }
    arena_fini(&st->overlay_arena);
    memset(st, 0, sizeof *st);
}

void ui_state_message(struct ui_state *st, bool error, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(st->message, sizeof st->message, fmt, ap);
    va_end(ap);
    st->message_is_error = error;
}

bool ui_state_stream_on(const struct ui_state *st, size_t r, int64_t stream)
{
    if (r >= st->nranks)
        return true;
    const struct ui_rank *ur = &st->ranks[r];
    for (size_t i = 0; i < ur->nstreams; i++)
        if (ur->streams[i] == stream)
            return ur->stream_on[i];
    return true;
}

int ui_state_items(struct ui_state *st)
{
    size_t n = 0, cap = 0;
    struct ui_item *items = NULL;

    for (size_t r = 0; r < st->nranks; r++) {
        const struct ui_rank *ur = &st->ranks[r];
        size_t need = n + 1 + (ur->expanded ? ur->nstreams + ur->nthreads : 0);
        if (vec_reserve((void **)&items, &cap, sizeof *items, need) != 0) {
            free(items);
            return ERR_NOMEM;
        }
        items[n++] = (struct ui_item){UI_ITEM_RANK, (uint32_t)r, 0};
        for (size_t s = 0; ur->expanded && s < ur->nstreams; s++)
            items[n++] = (struct ui_item){UI_ITEM_STREAM, (uint32_t)r, (uint32_t)s};
        for (size_t t = 0; ur->expanded && t < ur->nthreads; t++)
            items[n++] = (struct ui_item){UI_ITEM_THREAD, (uint32_t)r, (uint32_t)t};
    }
    free(st->items);
    st->items = items;
    st->nitems = n;
    if (st->item >= n)
        st->item = n ? n - 1 : 0;
    return 0;
}

void ui_state_selection(const struct ui_state *st, const struct model *m, int64_t *ranks_buf,
                        int64_t *iter_buf, struct selection *sel)
{
    size_t k = 0;

    memset(sel, 0, sizeof *sel);
    for (size_t r = 0; r < st->nranks && r < m->nranks; r++)
        if (st->ranks[r].included)
            ranks_buf[k++] = m->ranks[r].rank;
    // All ranks included is "no rank filter": the model's fast path.
    if (k < m->nranks) {
        sel->ranks = ranks_buf;
        sel->nranks = k;
    }
    if (st->iteration >= 0 && (size_t)st->iteration < st->niterations) {
        iter_buf[0] = st->iterations[st->iteration];
        sel->iterations = iter_buf;
        sel->niterations = 1;
    } else if (st->iteration == UI_ITER_LIST && st->niter_list) {
        sel->iterations = st->iter_list;
        sel->niterations = st->niter_list;
    }
    sel->has_window = st->has_window;
    sel->window_start = st->window_start;
    sel->window_end = st->window_end;
}

void ui_state_place(const struct ui_state *st, struct ui_place *out)
{
    *out = (struct ui_place){(int)st->view, st->tl.t0, st->tl.t1, st->tl.cursor, st->tl.lane,
                             st->tl.lane_top};
}

static bool same_place(const struct ui_place *a, const struct ui_place *b)
{
    return a->view == b->view && a->t0 == b->t0 && a->t1 == b->t1 && a->cursor == b->cursor &&
           a->lane == b->lane && a->lane_top == b->lane_top;
}

void ui_state_moved(struct ui_state *st, const struct ui_place *from)
{
    struct ui_place here;
    ui_state_place(st, &here);
    if (!same_place(from, &here))
        ui_history_visit(&st->history, from, &here);
}

void ui_state_show_view(struct ui_state *st, enum ui_view_id id)
{
    struct ui_place from;
    ui_state_place(st, &from);
    st->view = id;
    ui_state_moved(st, &from);
}

bool ui_state_history_step(struct ui_state *st, int dir)
{
    struct ui_place here, to;
    ui_state_place(st, &here);
    if (!ui_history_step(&st->history, &here, dir, &to))
        return false;
    if (to.view >= 0 && to.view < UI_VIEW_COUNT && ui_view_get(st, (enum ui_view_id)to.view))
        st->view = (enum ui_view_id)to.view;
    st->tl.t0 = to.t0;
    st->tl.t1 = to.t1;
    st->tl.cursor = to.cursor;
    // the lanes may have changed since: ui_refresh keeps the window on the data
    st->tl.lane = to.lane < st->nlanes ? to.lane : (st->nlanes ? st->nlanes - 1 : 0);
    st->tl.lane_top = to.lane_top <= st->tl.lane ? to.lane_top : st->tl.lane;
    return true;
}

void ui_state_invalidate(struct ui_state *st)
{
    for (size_t v = 0; v < UI_VIEW_COUNT; v++)
        st->docs[v].valid = false;
}

unsigned ui_state_open_summary_rank(struct ui_state *st, size_t r, const char *why)
{
    const struct summary_job_rank *lr = &st->job->ranks[r];
    st->open_summary = lr->file;
    st->open_rank = (long long)lr->rank.rank;
    st->open_test_summary = NULL;
    ui_state_message(st, false, "events not loaded: htx %s shows rank %lld's%s%s%s", lr->file,
                     (long long)lr->rank.rank, why ? " (" : "", why ? why : "", why ? ")" : "");
    return UI_REDRAW | UI_OPEN_RANK;
}
