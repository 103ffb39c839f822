#include "config.h"
#include "ui/views/ranks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ranks.h"
#include "analysis/tiles.h"
#include "app/format.h"
#include "app/summary_job.h"
#include "ui/document.h"

/* View R (Ranks): the rank overview (analysis/ranks.h) with a heat strip
 * of each rank's step times after its number, the step times per
 * iteration, and where in time each rank's GPU was busy. Enter on a rank
 * selects it in the left pane and opens its timeline. */

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

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
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

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    return ui_doc_refresh(st, m, UI_VIEW_RANKS, NULL, 0, build, e);
}

unsigned ui_act_ranks_enter(struct ui_state *st, const struct model *m)
{
    const struct ui_doc *d = &st->docs[st->view];
    size_t row = ui_doc_cursor_row(st, "rank_overview");
    if (row == SIZE_MAX)
        row = ui_doc_cursor_row(st, "gpu_utilization_over_time");   // its strips: one row a rank
    if (row == SIZE_MAX)
        row = ui_doc_cursor_row(st, "straggler_ranking");   // a summary job's
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
    struct ui_place from;
    ui_state_place(st, &from);
    st->view = UI_VIEW_TIMELINE;
    st->focus = UI_FOCUS_MAIN;
    st->tl.lane = st->tl.lane_top = lane;
    ui_state_moved(st, &from);
    ui_state_message(st, false, "rank %lld", (long long)rank);
    return UI_REDRAW | UI_RELANE;
}

static size_t contexts(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS])
{
    (void)st;
    ctx[0] = UI_CTX_RANK_TABLE;
    ctx[1] = UI_CTX_DOC;
    return 2;
}

const struct ui_view_ops ui_view_ranks = {
    .id = UI_VIEW_RANKS,
    .key = 'R',
    .name = "Ranks",
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
