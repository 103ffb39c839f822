#include "config.h"

#include <stdbool.h>

#include "ui/document.h"

/* View 9 (Sequences): HTA's frequent kernel sequences, and above them a
 * bar per pattern of how often it occurs. */

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    (void)st;
    (void)m;
    return ui_doc_bars(d, "frequent_kernel_sequences", "pattern", "count",
                       "Most frequent kernel sequences (count)", 0, NULL, true);
}

static const enum analysis_id analyses[] = {ANALYSIS_SEQUENCES};

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    return ui_doc_refresh(st, m, UI_VIEW_SEQUENCES, analyses, 1, build, e);
}

const struct ui_view_ops ui_view_sequences = {
    .id = UI_VIEW_SEQUENCES,
    .key = '9',
    .name = "Sequences",
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
