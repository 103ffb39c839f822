#ifndef HTX_UI_DOCS_H
#define HTX_UI_DOCS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "ui/widgets/grid.h"
#include "ui/state.h"
#include "util/err.h"

/* A document view (2-9 and i) is a column of blocks: charts, free text,
 * then tables, each table as a title line, a header line and its visible
 * rows. These functions map between lines and (table, row), draw lines,
 * and recompute a view's content from the analyses. No curses. */

enum ui_doc_line_kind {
    UI_DOC_BLANK = 0,
    UI_DOC_CHART,      /* index = chart, sub = line within it */
    UI_DOC_TEXT,       /* index = text line */
    UI_DOC_TITLE,      /* index = table */
    UI_DOC_HEADER,
    UI_DOC_ROW,        /* index = table, sub = visible row */
    UI_DOC_EMPTY,      /* a table without rows: its note */
    UI_DOC_NOTE,       /* a table's note below its rows */
    UI_DOC_FULL_NAME,  /* the focused table's cursor row's whole name */
};

struct ui_doc_line {
    enum ui_doc_line_kind kind;
    size_t index, sub;
};

/* Total lines of d. */
size_t ui_doc_lines(const struct ui_doc *d);

/* What line `line` of d shows. */
struct ui_doc_line ui_doc_locate(const struct ui_doc *d, size_t line);

/* First line of table t (its title), and the line of its visible row r. */
size_t ui_doc_table_line(const struct ui_doc *d, size_t t);
size_t ui_doc_row_line(const struct ui_doc *d, size_t t, size_t r);

/* Recomputes view v's content for the model's current selection: runs its
 * analyses (st->analyses), builds charts and derived tables, and applies
 * the filter and sort. An analysis error is kept in d->error and shown;
 * the other tables still appear. Returns 0 or ERR_NOMEM. */
int ui_doc_refresh(struct ui_state *st, const struct model *m, enum ui_view_id v, struct err *e);

/* Fits each table's name column to the width it gets on this screen
 * (ui/widgets/tables.h, ui_tview_fit_names); ui_sync calls it. */
void ui_doc_fit_names(struct ui_state *st, struct ui_doc *d);

/* Re-applies filter, hidden streams and sort to every table of d. */
int ui_doc_rebuild_views(struct ui_state *st, struct ui_doc *d);

/* Diagnostics text (view i), built into d (ui/diag.c). */
int ui_diag_build(struct ui_state *st, const struct model *m, struct ui_doc *d);

/* Per-view charts and derived tables (ui/doc_views.c), called by
 * ui_doc_refresh after the analysis tables are in d. */
int ui_doc_decorate(struct ui_state *st, const struct model *m, enum ui_view_id v,
                    struct ui_doc *d);

/* Adds a text line to d (copied into d's arena, printf-style). */
int ui_doc_text(struct ui_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Adds a table / chart slot to d (the chart is zeroed, rows in the arena). */
int ui_doc_add_table(struct ui_doc *d, struct table *t);
struct ui_chart *ui_doc_add_chart(struct ui_doc *d, enum ui_chart_kind kind, const char *title,
                                  size_t nrows);

#endif
