#include "config.h"

#include <stdbool.h>

#include "ui/document.h"

/* View 5 (Overlap): HTA's communication/computation overlap per rank, and
 * above it a bar per rank of the share overlapped. */

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    (void)st;
    (void)m;
    return ui_doc_bars(d, "comm_comp_overlap", "rank", "comp_comm_overlap_pctg",
                       "Communication overlapped by computation (%)", 100, "%", false);
}

static const enum analysis_id analyses[] = {ANALYSIS_OVERLAP};

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    return ui_doc_refresh(st, m, UI_VIEW_OVERLAP, analyses, 1, build, e);
}

const struct ui_view_ops ui_view_overlap = {
    .id = UI_VIEW_OVERLAP,
    .key = '5',
    .name = "Overlap",
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
