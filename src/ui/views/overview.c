#include "config.h"

#include <stdint.h>

#include "ui/document.h"

/* View 2 (Overview): HTA's temporal breakdown, and above it each rank's
 * time as one stacked bar of compute, non-compute and idle. */

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    (void)st;
    (void)m;
    struct table *t = ui_doc_find_table(d, "temporal_breakdown");
    if (!t || t->nrows == 0)
        return 0;
    int rc = table_col_index(t, "rank");
    int cols[3] = {table_col_index(t, "idle_time_pctg"), table_col_index(t, "compute_time_pctg"),
                   table_col_index(t, "non_compute_time_pctg")};
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_STACKED, "Time per rank (%)", t->nrows);
    if (!c)
        return ERR_NOMEM;
    // Busy time first and idle last, drawn lightest, so the bars read left to right.
    static const int order[3] = {1, 2, 0};
    static const char *names[3] = {"idle", "compute", "non-compute"};
    static const uint8_t looks[3] = {0, 1, 3};
    for (int k = 0; k < 3; k++) {
        c->series[k] = names[order[k]];
        c->look[k] = looks[k];
    }
    c->nseries = 3;
    c->max = 100;
    c->unit = "%";
    c->value_first = true;
    for (size_t r = 0; r < t->nrows; r++) {
        c->rows[r].label = ui_doc_rank_label(d, t, r, rc, -1);
        for (int k = 0; k < 3; k++)
            c->rows[r].v[k] = ui_doc_num(t, r, cols[order[k]]);
    }
    return 0;
}

static const enum analysis_id analyses[] = {ANALYSIS_TEMPORAL};

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    return ui_doc_refresh(st, m, UI_VIEW_OVERVIEW, analyses, 1, build, e);
}

const struct ui_view_ops ui_view_overview = {
    .id = UI_VIEW_OVERVIEW,
    .key = '2',
    .name = "Overview",
    .hints = UI_DOC_HINTS,
    .refresh = refresh,
    .stale = ui_doc_stale,
    .contexts = ui_doc_contexts,
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
