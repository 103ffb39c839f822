#include "config.h"
#include "ui/views/idle.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/idle.h"
#include "ui/document.h"
#include "ui/jumps.h"

/* View 4 (Idle): Enter on a row of the idle tables (a rank, a stream, a
 * category) lists that category's largest gaps on that stream, each with
 * the kernel after it, when its launch came, and the CPU op the launching
 * thread was in just before; Enter on a gap shows it on the timeline
 * (n/N: the other gaps, largest first). */

#define GAPS_TABLE "largest_idle_gaps"
#define GAPS_MAX 100

static int by_length(const void *a, const void *b)
{
    const struct idle_gap *x = a, *y = b;
    if (x->len != y->len)
        return x->len > y->len ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

/* The last CPU op of the launching thread to end at or before the
 * launch's start: what the host was doing just before it launched. */
static const struct event *op_before(const struct model *m, const struct rank_model *r,
                                     const struct event *launch)
{
    uint32_t pid = model_event_pid(m, launch), tid = model_event_tid(m, launch);
    for (size_t t = 0; t < r->nthreads; t++) {
        const struct thread_index *th = &r->threads[t];
        if (th->pid != pid || th->tid != tid)
            continue;
        // Binary search: the first event starting after the launch.
        size_t lo = 0, hi = th->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (r->events[th->pos[mid]].ts <= launch->ts)
                lo = mid + 1;
            else
                hi = mid;
        }
        const struct event *best = NULL;
        for (size_t i = lo, steps = 0; i-- > 0 && steps < 4096; steps++) {
            const struct event *ev = &r->events[th->pos[i]];
            if (ev->kind == EV_KIND_CPU_OP && ev->ts + ev->dur <= launch->ts &&
                (!best || ev->ts + ev->dur > best->ts + best->dur))
                best = ev;
        }
        return best;
    }
    return NULL;
}

static const struct table_col gap_cols[] = {
    {"rank", NULL, COL_KEY},          {"stream", NULL, COL_KEY},
    {"idle_category", NULL, COL_KEY}, {"start (us)", "us", 0},
    {"length (us)", "us", 0},         {"kernel after", NULL, 0},
    {"launch after start (us)", "us", 0}, {"CPU op before the launch", NULL, 0},
};

static int add_gap_row(const struct model *m, const struct rank_model *r, int64_t stream,
                       const struct idle_gap *gp, struct table *t)
{
    struct cell *row = table_add_row(t);
    if (!row)
        return ERR_NOMEM;
    const struct event *k = &r->events[gp->kernel];
    bool launched = k->partner != MODEL_NONE && k->partner < r->nevents;
    const struct event *launch = launched ? &r->events[k->partner] : NULL;
    const struct event *op = launch ? op_before(m, r, launch) : NULL;
    row[0] = cell_int(r->rank);
    row[1] = cell_int(stream);
    row[2] = cell_str(t, idle_category_name((enum idle_category)gp->category));
    row[3] = cell_double((double)gp->start / 1000.0);
    row[4] = cell_double((double)gp->len / 1000.0);
    row[5] = cell_str(t, model_str(m, k->name));
    row[6] = launch ? cell_double((double)(launch->ts - gp->start) / 1000.0)
                    : (struct cell){.type = CELL_NULL};
    row[7] = op ? cell_str(t, model_str(m, op->name)) : (struct cell){.type = CELL_NULL};
    return 0;
}

/* The table of the largest gaps of (rank, stream, category), in d. */
static int gaps_table(struct ui_state *st, const struct model *m, struct ui_doc *d, size_t ri,
                      int64_t stream, const char *category, struct table **out)
{
    const struct rank_model *r = &m->ranks[ri];
    struct idle_gap *gaps;
    size_t n;
    if (idle_stream_gaps(m, &st->aopts, r, stream, &gaps, &n))
        return ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(idle_category_name((enum idle_category)gaps[i].category), category) == 0)
            gaps[k++] = gaps[i];
    qsort(gaps, k, sizeof *gaps, by_length);
    char title[160];
    snprintf(title, sizeof title, "Largest %s gaps of rank %lld stream %lld (%zu of %zu)",
             category, (long long)r->rank, (long long)stream, k < GAPS_MAX ? k : GAPS_MAX, k);
    struct table *t = table_new(&d->arena, GAPS_TABLE, NULL, gap_cols,
                                sizeof gap_cols / sizeof gap_cols[0]);
    int rc = t ? 0 : ERR_NOMEM;
    if (t)
        t->title = arena_strndup(&d->arena, title, strlen(title));
    for (size_t i = 0; i < k && i < GAPS_MAX && rc == 0; i++)
        rc = add_gap_row(m, r, stream, &gaps[i], t);
    if (rc == 0)
        table_set_note(t, "start: ns from the trace's origin, in us; Enter: the gap on the "
                          "timeline, n/N the others");
    free(gaps);
    *out = t;
    return rc;
}

/* The event of stream `stream` starting at ts (within 1 ns: the table has
 * it in us), found by binary search in the stream's time order; MODEL_NONE. */
static uint32_t stream_event_at(const struct rank_model *r, int64_t stream, int64_t ts)
{
    for (size_t s = 0; s < r->nstreams; s++) {
        const struct stream_index *x = &r->streams[s];
        if (x->stream != stream)
            continue;
        size_t lo = 0, hi = x->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (r->events[x->pos[mid]].ts < ts - 1)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < x->n && r->events[x->pos[lo]].ts <= ts + 1)
            return x->pos[lo];
    }
    return MODEL_NONE;
}

/* Enter on a gap: the kernel after each listed gap, from this row on. */
static unsigned show_gaps(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    const struct ui_tview *v = &d->tv[d->cur];
    struct ui_jump *j = realloc(st->jumps, (v->nrows ? v->nrows : 1) * sizeof *j);
    if (!j) {
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    st->jumps = j;
    size_t n = 0, at = SIZE_MAX;
    for (size_t i = 0; i < v->nrows; i++) {
        const struct cell *rank = table_cell(v->t, v->rows[i], 0);
        const struct cell *start = table_cell(v->t, v->rows[i], 3);
        const struct cell *len = table_cell(v->t, v->rows[i], 4);
        size_t ri = rank->type == CELL_INT ? model_rank_index(m, rank->v.i) : SIZE_MAX;
        if (ri == SIZE_MAX || start->type != CELL_DOUBLE || len->type != CELL_DOUBLE)
            continue;
        // The kernel that ends the gap: on the row's stream, starting at start + len.
        const struct rank_model *r = &m->ranks[ri];
        int64_t stream = table_cell(v->t, v->rows[i], 1)->v.i;
        int64_t ts = (int64_t)((start->v.d + len->v.d) * 1000.0 + 0.5);
        uint32_t pos = stream_event_at(r, stream, ts);
        if (pos == MODEL_NONE)
            continue;
        if (i == d->row[d->cur])
            at = n;
        j[n++] = (struct ui_jump){(uint32_t)ri, pos};
    }
    st->njumps = n;
    if (at == SIZE_MAX) {
        st->njumps = 0;
        ui_state_message(st, true, "this gap's kernel is not in the selection");
        return UI_REDRAW;
    }
    snprintf(st->jump_what, sizeof st->jump_what, "idle gaps, largest first");
    return ui_jumps_show(st, m, at);
}

unsigned ui_act_idle_enter(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = &st->docs[st->view];
    if (d->ntables == 0 || d->tv[d->cur].nrows == 0)
        return 0;
    const struct ui_tview *v = &d->tv[d->cur];
    if (strcmp(v->t->name, GAPS_TABLE) == 0)
        return show_gaps(st, m, d);
    int rc = table_col_index(v->t, "rank"), sc = table_col_index(v->t, "stream");
    int cc = table_col_index(v->t, "idle_category");
    if (rc < 0 || sc < 0 || cc < 0)
        return ui_act_doc_enter(st, m);
    size_t row = v->rows[d->row[d->cur]];
    const struct cell *rank = table_cell(v->t, row, (size_t)rc);
    const struct cell *stream = table_cell(v->t, row, (size_t)sc);
    const struct cell *cat = table_cell(v->t, row, (size_t)cc);
    size_t ri = rank->type == CELL_INT ? model_rank_index(m, rank->v.i) : SIZE_MAX;
    if (ri == SIZE_MAX || stream->type != CELL_INT || cat->type != CELL_STR || !cat->v.s)
        return 0;
    struct table *t;
    if (gaps_table(st, m, d, ri, stream->v.i, cat->v.s, &t)) {
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    // One drill-down at a time: it replaces the previous one.
    size_t at = d->ntables;
    for (size_t i = 0; i < d->ntables; i++)
        if (strcmp(d->tables[i]->name, GAPS_TABLE) == 0)
            at = i;
    if (at == UI_DOC_TABLES) {
        ui_state_message(st, true, "no room for another table in this view");
        return UI_REDRAW;
    }
    d->tables[at] = t;
    if (at == d->ntables)
        d->ntables++;
    d->tv[at].sort_col = -1;
    if (ui_doc_rebuild_views(st, d)) {
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    d->cur = at;
    d->row[at] = 0;
    ui_doc_scroll(st);
    ui_state_message(st, false, "%zu gaps listed: Enter shows one on the timeline", t->nrows);
    return UI_REDRAW;
}

/* ---- the chart: idle time per stream, by category ---- */

struct stream_key {
    double rank, stream;
    size_t first_row;
};

static int cmp_stream_key(const void *a, const void *b)
{
    const struct stream_key *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->stream > y->stream) - (x->stream < y->stream);
}

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    (void)st;
    (void)m;
    static const char *cats[3] = {"host_wait", "kernel_wait", "other"};
    struct table *t = ui_doc_find_table(d, "idle_time_breakdown");
    if (!t || t->nrows == 0)
        return 0;
    int rc = table_col_index(t, "rank"), sc = table_col_index(t, "stream");
    int cc = table_col_index(t, "idle_category"), vc = table_col_index(t, "idle_time");
    if (rc < 0 || sc < 0 || cc < 0 || vc < 0)
        return 0;
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_STACKED, "Idle time per stream (us)",
                                          t->nrows);
    if (!c)
        return ERR_NOMEM;
    for (int k = 0; k < 3; k++) {
        c->series[k] = cats[k];
        c->look[k] = (uint8_t)(k + 1);
    }
    c->nseries = 3;
    c->unit = "us";
    // One bar per (rank, stream), in numeric order (the table keeps HTA's).
    struct stream_key *keys = arena_calloc(&d->arena, t->nrows, sizeof *keys);
    if (!keys)
        return ERR_NOMEM;
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double rank = ui_doc_num(t, r, rc), stream = ui_doc_num(t, r, sc);
        if (n == 0 || keys[n - 1].rank != rank || keys[n - 1].stream != stream)
            keys[n++] = (struct stream_key){rank, stream, r};
    }
    qsort(keys, n, sizeof *keys, cmp_stream_key);
    for (size_t i = 0; i < n; i++) {
        c->rows[i].label = ui_doc_rank_label(d, t, keys[i].first_row, rc, sc);
        if (!c->rows[i].label)
            return ERR_NOMEM;
    }
    for (size_t r = 0; r < t->nrows; r++) {
        struct stream_key k = {ui_doc_num(t, r, rc), ui_doc_num(t, r, sc), 0};
        struct stream_key *at = bsearch(&k, keys, n, sizeof *keys, cmp_stream_key);
        const struct cell *cat = table_cell(t, r, (size_t)cc);
        for (int s = 0; at && s < 3; s++)
            if (cat->type == CELL_STR && cat->v.s && strcmp(cat->v.s, cats[s]) == 0)
                c->rows[at - keys].v[s] += ui_doc_num(t, r, vc);
    }
    c->nrows = n;
    return 0;
}

static const enum analysis_id analyses[] = {ANALYSIS_IDLE};

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    return ui_doc_refresh(st, m, UI_VIEW_IDLE, analyses, 1, build, e);
}

static size_t contexts(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS])
{
    size_t n = 0;
    if (st->focus == UI_FOCUS_MAIN)
        ctx[n++] = UI_CTX_IDLE_TABLE;
    ctx[n++] = UI_CTX_DOC;
    return n;
}

const struct ui_view_ops ui_view_idle = {
    .id = UI_VIEW_IDLE,
    .key = '4',
    .name = "Idle",
    .hints = UI_DOC_HINTS,
    .refresh = refresh,
    .stale = ui_doc_stale,
    .contexts = contexts,
    .rows = ui_doc_rows,
    .top = ui_doc_top,
    .row = ui_doc_row,
    .pinned = ui_doc_pinned,
    .pinned_row = ui_doc_pinned_row,
    .status = ui_doc_status,
    .prompt_initial = ui_doc_prompt_initial,
    .prompt_apply = ui_doc_prompt_apply,
    .escape = ui_doc_escape,
    .click = ui_doc_click,
    .cursor_name = ui_doc_cursor_name,
};
