#include "config.h"
#include "ui/views/ranks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/collectives.h"
#include "analysis/ranks.h"
#include "analysis/tiles.h"
#include "app/format.h"
#include "app/summary_job.h"
#include "ui/actions.h"
#include "ui/views/docs.h"
#include "ui/views/timeline_lanes.h"

/* View R (Ranks) and view C (Collectives): table views (ui/views/docs.c)
 * over the rank overview and the collectives analysis, with an Enter of
 * their own: a rank opens its timeline, a collective shows its kernels on
 * every rank's lane, on one time axis, starting with the last arriver. */

#define STRIP_MAX 32   /* iterations shown in a rank's strip */

/* The rank's step times as a heat strip, one cell per iteration on one
 * scale for every rank (max = the longest step of all), so a slow rank or
 * step stands out in its row. */
static void strip_text(const struct table *steps, size_t first, size_t n, double max, bool ascii,
                       char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t k = 0; k < n && k < STRIP_MAX; k++) {
        const char *g = format_level(table_cell(steps, first + k, 2)->v.d, max, ascii);
        int w = snprintf(buf + len, size - len, "%s", g);
        if (w < 0 || (size_t)w >= size - len)
            break;
        len += (size_t)w;
    }
}

/* The overview with the strip column after the rank: the view's table. */
static struct table *with_strips(struct ui_state *st, const struct table *overview,
                                 const struct table *steps, struct arena *a)
{
    struct table_col cols[16];
    size_t nc = overview->ncols < 15 ? overview->ncols : 15;
    cols[0] = overview->cols[0];
    cols[1] = (struct table_col){"strip", NULL, 0};
    for (size_t c = 1; c < nc; c++)
        cols[c + 1] = overview->cols[c];
    struct table *t = table_new(a, overview->name, overview->title, cols, nc + 1);
    if (!t)
        return NULL;
    t->note = overview->note;
    double max = 0;
    for (size_t k = 0; k < steps->nrows; k++)
        max = fmax(max, table_cell(steps, k, 2)->v.d);
    size_t s = 0;
    for (size_t i = 0; i < overview->nrows; i++) {
        int64_t rank = table_cell(overview, i, 0)->v.i;
        while (s < steps->nrows && table_cell(steps, s, 0)->v.i != rank)
            s++;
        size_t first = s;
        while (s < steps->nrows && table_cell(steps, s, 0)->v.i == rank)
            s++;
        char strip[STRIP_MAX * 4 + 1];
        strip_text(steps, first, s - first, max, st->ascii, strip, sizeof strip);
        struct cell *row = table_add_row(t);
        if (!row)
            return NULL;
        row[0] = *table_cell(overview, i, 0);
        row[1] = cell_str(t, strip);
        for (size_t c = 1; c < nc; c++)
            row[c + 1] = *table_cell(overview, i, c);
    }
    return t;
}

/* The Ranks view's tables of a summary job, as with the events: each rank's
 * stored figures and steps, the blame from the collectives matched from
 * the records. ERR_EMPTY when the summaries predate the figures. */
static int summary_overview(struct ui_state *st, const struct model *m, struct table_list *tl,
                            struct ui_doc *d, struct err *e)
{
    bool *selected = summary_job_model_selection(m);
    if (!selected)
        return ERR_NOMEM;
    int rc = m->nranks == st->job->n
                 ? summary_job_rank_tables(st->job, selected, &d->arena, tl, e)
                 : ERR_EMPTY;
    free(selected);
    return rc;
}

/* A summary job (st->job) whose summaries predate the Ranks view's figures:
 * the blame comes from their collective records (the straggler ranking),
 * the utilization strips from their tiles; the steps need the events. */
static int summary_ranks(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    struct table_list blame = {.count = 0}, busy = {.count = 0};
    struct err e = {0, ""};
    int rc = summary_job_model_tables(st->job, m, ANALYSIS_STRAGGLERS, &d->arena, &blame, &e);
    if (rc == ERR_NOMEM)
        return rc;
    if (rc == 0 && ui_doc_add_table(d, blame.tables[0]))
        return ERR_NOMEM;
    if (rc && ui_doc_text(d, "Blame needs the events: %s", e.msg))
        return ERR_NOMEM;
    rc = summary_job_model_tables(st->job, m, ANALYSIS_UTILIZATION, &d->arena, &busy, &e);
    if (rc)
        return rc == ERR_NOMEM ? ERR_NOMEM : ui_doc_text(d, "utilization failed: %s", e.msg);
    struct table *strips = format_utilization_strips(busy.tables[0], st->ascii, &d->arena);
    if (!strips || ui_doc_add_table(d, strips))
        return ERR_NOMEM;
    return ui_doc_text(d, "Steps need the events, which are not loaded "
                          "(--events=load loads them).");
}

int ui_ranks_decorate(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    struct table_list tl = {.count = 0};
    struct err e = {0, ""};
    int rc = st->job ? summary_overview(st, m, &tl, d, &e)
                     : ranks_overview_run(m, &st->aopts, &d->arena, &tl, &e);
    if (st->job && rc == ERR_EMPTY)
        return summary_ranks(st, m, d);
    if (rc != 0) {
        snprintf(d->error, sizeof d->error, "ranks: %.200s", e.msg);
        return e.code == ERR_NOMEM ? ERR_NOMEM : ui_doc_text(d, "ranks failed: %s", e.msg);
    }
    struct table *t = with_strips(st, tl.tables[0], tl.tables[1], &d->arena);
    if (!t || ui_doc_add_table(d, t) || ui_doc_add_table(d, tl.tables[1]))
        return ERR_NOMEM;
    /* where in time each rank's GPU was busy, one line a rank */
    struct table_list busy = {.count = 0};
    if ((st->job ? summary_job_model_tables(st->job, m, ANALYSIS_UTILIZATION, &d->arena, &busy,
                                            &e)
                 : utilization_run(m, &st->aopts, &d->arena, &busy, &e)) != 0)
        return e.code == ERR_NOMEM ? ERR_NOMEM : ui_doc_text(d, "utilization failed: %s", e.msg);
    struct table *strips = format_utilization_strips(busy.tables[0], st->ascii, &d->arena);
    if (!strips || ui_doc_add_table(d, strips))
        return ERR_NOMEM;
    return 0;
}

/* The cursor row of the focused table, or SIZE_MAX. */
static size_t cursor_row(const struct ui_state *st, const char *table)
{
    const struct ui_doc *d = &st->docs[st->view];
    if (d->ntables == 0 || d->tv[d->cur].nrows == 0 || strcmp(d->tables[d->cur]->name, table))
        return SIZE_MAX;
    return d->tv[d->cur].rows[d->row[d->cur]];
}

unsigned ui_act_ranks_enter(struct ui_state *st, const struct model *m)
{
    const struct ui_doc *d = &st->docs[st->view];
    size_t row = cursor_row(st, "rank_overview");
    if (row == SIZE_MAX)
        row = cursor_row(st, "gpu_utilization_over_time");   // its strips: one row a rank
    if (row == SIZE_MAX)
        row = cursor_row(st, "straggler_ranking");   // a summary job's
    if (row == SIZE_MAX)
        return ui_act_doc_enter(st, m);   // the per-iteration table: its rows' ranks
    int64_t rank = table_cell(d->tables[d->cur], row, 0)->v.i;
    size_t r = model_rank_index(m, rank);
    for (size_t i = 0; r != SIZE_MAX && i < st->nitems; i++)
        if (st->items[i].rank == r && st->items[i].kind == UI_ITEM_RANK)
            st->item = i;
    size_t lane = SIZE_MAX;
    for (size_t i = 0; i < st->nlanes && lane == SIZE_MAX; i++)
        if (st->lanes[i].rank == r)
            lane = i;
    if (lane == SIZE_MAX) {
        ui_state_message(st, true, "rank %lld has no lane: include it in the left pane",
                         (long long)rank);
        return UI_REDRAW;
    }
    st->prev_view = st->view;
    st->view = UI_VIEW_TIMELINE;
    st->focus = UI_FOCUS_MAIN;
    st->tl.lane = st->tl.lane_top = lane;
    ui_state_message(st, false, "rank %lld", (long long)rank);
    return UI_REDRAW | UI_RELANE;
}

/* ---- view C --------------------------------------------------------------------- */

/* Instances of a collective, latest arrival first (ties: rank order). */
static int by_arrival_desc(const void *a, const void *b)
{
    const struct coll_instance *x = *(const struct coll_instance *const *)a;
    const struct coll_instance *y = *(const struct coll_instance *const *)b;
    if (x->arrival != y->arrival)
        return x->arrival > y->arrival ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* A summary job: the instances need the events; Enter loads the last
 * arriver's from its summary (ui/load.c's drill). */
static unsigned summary_collective_enter(struct ui_state *st, const struct model *m, size_t row)
{
    struct arena a;
    struct strtab strings;
    struct coll_result r;
    struct err e = {0, ""};
    bool *selected = summary_job_model_selection(m);
    arena_init(&a, 1 << 16);
    unsigned flags = UI_REDRAW;
    int rc = selected && strtab_init(&strings) == 0 ? 0 : ERR_NOMEM;
    if (rc == 0) {
        rc = summary_job_coll_result(st->job, selected, &strings, &a, &r, &e);
        if (rc == 0 && row < r.ncolls) {
            const struct collective *c = &r.colls[row];
            char why[160];
            snprintf(why, sizeof why, "last at %s", strtab_str(&strings, c->name));
            flags = ui_state_open_summary_rank(st, c->inst[c->last].rank_index, why);
        } else {
            ui_state_message(st, true, "%s", rc ? e.msg : "the collective is gone");
        }
        strtab_fini(&strings);
    } else {
        ui_state_message(st, true, "out of memory");
    }
    free(selected);
    arena_fini(&a);
    return flags;
}

unsigned ui_act_collectives_enter(struct ui_state *st, const struct model *m)
{
    size_t row = cursor_row(st, "collectives");
    if (row == SIZE_MAX)
        return ui_act_doc_enter(st, m);
    if (st->job)
        return summary_collective_enter(st, m, row);
    struct arena a;
    struct coll_result r;
    struct err e = {0, ""};
    arena_init(&a, 1 << 16);
    if (coll_analyze(m, &st->aopts, &a, &r, &e) != 0 || row >= r.ncolls) {
        ui_state_message(st, true, "%s", e.msg[0] ? e.msg : "the collective is gone");
        arena_fini(&a);
        return UI_REDRAW;
    }
    const struct collective *c = &r.colls[row];   // the table lists colls in order
    struct ui_jump *j = realloc(st->jumps, (c->ninst ? c->ninst : 1) * sizeof *j);
    const struct coll_instance **order = malloc((c->ninst ? c->ninst : 1) * sizeof *order);
    if (j)
        st->jumps = j;
    if (!j || !order) {
        free(order);
        arena_fini(&a);
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    st->njumps = c->ninst;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < c->ninst; i++) {
        order[i] = &c->inst[i];
        lo = c->inst[i].arrival < lo ? c->inst[i].arrival : lo;
        hi = c->inst[i].end > hi ? c->inst[i].end : hi;
    }
    qsort(order, c->ninst, sizeof *order, by_arrival_desc);
    for (size_t i = 0; i < c->ninst; i++)
        j[i] = (struct ui_jump){order[i]->rank_index, order[i]->pos};
    free(order);
    snprintf(st->jump_what, sizeof st->jump_what, "%s: rank %lld arrived last, %.1f us after rank %lld",
             model_str(m, c->name), (long long)c->inst[c->last].rank,
             (double)c->skew / 1000.0, (long long)c->inst[c->first].rank);
    arena_fini(&a);
    // One time axis for every lane: the whole collective, a margin each side.
    int64_t pad = (hi - lo) / 10 + 1000;
    st->tl.t0 = lo - pad;
    st->tl.t1 = hi + pad;
    st->prev_view = st->view;
    st->view = UI_VIEW_TIMELINE;
    st->focus = UI_FOCUS_MAIN;
    st->jump = st->njumps - 1;   // the step wraps to the last arriver
    return ui_act_jump_next(st, m);
}
