#ifndef HTX_UI_DOCUMENT_H
#define HTX_UI_DOCUMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "ui/state.h"
#include "ui/view.h"
#include "ui/widgets/grid.h"
#include "util/err.h"

/* The table document (struct ui_doc, prefix ui_doc_): a column of blocks,
 * charts, free text, then tables, each table as a title line, a header
 * line and its visible rows. It is a library the table views (2-9, R, C,
 * i) call: to build their content from the analyses' tables, and for the
 * parts of struct ui_view_ops they share (drawing, scrolling, the prompt,
 * the filter, Enter). It knows no view: each view passes its analyses and
 * its own charts and derived tables (ui/views/<view>.c). No curses.
 *
 * The functions below work on the active view's document,
 * st->docs[st->view], unless they take a struct ui_doc. */

/* ---- content ---- */

/* A view's own content, added after its analyses' tables are in d. */
typedef int (*ui_doc_build_fn)(struct ui_state *st, const struct model *m, struct ui_doc *d);

/* The refresh of a table view (struct ui_view_ops.refresh): when view v's
 * document is stale, runs its analyses (st->analyses, or a summary job's
 * stored tables) and then build (may be NULL), and applies the filter and
 * sort; then fits the name columns to the pane's width. An analysis error
 * is kept in d->error and shown, the other tables still appear. Returns 0
 * or ERR_NOMEM (with e set). */
int ui_doc_refresh(struct ui_state *st, const struct model *m, enum ui_view_id v,
                   const enum analysis_id *analyses, size_t nanalyses, ui_doc_build_fn build,
                   struct err *e);

/* Is the active view's document waiting to be computed? (ui_view_ops.stale) */
bool ui_doc_stale(const struct ui_state *st);

/* Adds a text line to d (copied into d's arena, printf-style). */
int ui_doc_text(struct ui_doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Adds a table / chart slot to d (the chart is zeroed, rows in the arena). */
int ui_doc_add_table(struct ui_doc *d, struct table *t);
struct ui_chart *ui_doc_add_chart(struct ui_doc *d, enum ui_chart_kind kind, const char *title,
                                  size_t nrows);

/* Re-applies filter, hidden streams and sort to every table of d. */
int ui_doc_rebuild_views(struct ui_state *st, struct ui_doc *d);

/* The same for every computed document (streams switched on or off). */
void ui_doc_rebuild_all(struct ui_state *st);

/* ---- charts from tables (ui/document_charts.c) ---- */

/* d's table named `name`, or NULL. */
struct table *ui_doc_find_table(const struct ui_doc *d, const char *name);

/* Cell (row, col) as a number; NaN when col < 0. */
double ui_doc_num(const struct table *t, size_t row, int col);

/* "rank N", or "rN sM" with a stream column, in d's arena. */
const char *ui_doc_rank_label(struct ui_doc *d, const struct table *t, size_t row, int rank_col,
                              int stream_col);

/* A bar chart of table's value_col: one bar per distinct label_col value
 * (rows with the same label add up, so per-rank rows give the selection's
 * total), largest first when `by_value`. Nothing when the table or the
 * value column is missing. 0 or ERR_NOMEM. */
int ui_doc_bars(struct ui_doc *d, const char *table, const char *label_col,
                const char *value_col, const char *title, double max, const char *unit,
                bool by_value);

/* ---- lines ---- */

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

/* Fits each table's name column to the width it gets on this screen
 * (ui/widgets/tables.h, ui_tview_fit_names). */
void ui_doc_fit_names(struct ui_state *st, struct ui_doc *d);

/* Scrolls the focused table's columns one step right (dir > 0) or left,
 * when some lie that way on this screen; false when none do. */
bool ui_doc_scroll_columns(struct ui_state *st, int dir);

/* ---- the view ops a table view shares (ui/document_draw.c) ---- */

/* The status bar's key hints of a table view. */
#define UI_DOC_HINTS \
    " ? help  Tab table  s sort  f filter  / search  e export  Enter timeline  q quit"

size_t ui_doc_rows(const struct ui_state *st, const struct model *m);
size_t ui_doc_top(const struct ui_state *st, const struct model *m, int height);
void ui_doc_row(const struct ui_state *st, const struct model *m, size_t i, struct ui_grid *g,
                int y, int x, int w);
size_t ui_doc_pinned(const struct ui_state *st, const struct model *m);
void ui_doc_pinned_row(const struct ui_state *st, const struct model *m, size_t i,
                       struct ui_grid *g, int y, int x, int w);
void ui_doc_status(const struct ui_state *st, const struct model *m, char *buf, size_t n);

/* The tables' keys (UI_CTX_DOC), for a view with no keys of its own. */
size_t ui_doc_contexts(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS]);

/* A click at screen (y, x) in the body: the row under it gets the cursor. */
unsigned ui_doc_click(struct ui_state *st, const struct model *m, int y, int x);

/* The whole name in the cursor row of the focused table, or NULL. */
const char *ui_doc_cursor_name(const struct ui_state *st, const struct model *m);

/* The row of the focused table under the cursor (an index into its table)
 * when that table is named `table`, else SIZE_MAX. */
size_t ui_doc_cursor_row(const struct ui_state *st, const char *table);

/* ---- actions (ui/document_actions.c) ---- */

/* Keeps the cursor row visible after a move (body height from st->layout). */
void ui_doc_scroll(struct ui_state *st);

/* Esc: clears the filter through the view's own prompt_apply when there is
 * one and the main pane has the focus (ui_view_ops.escape). */
bool ui_doc_escape(struct ui_state *st, const struct model *m);

/* The prompt: the search and filter texts of the document. */
const char *ui_doc_prompt_initial(const struct ui_state *st, enum ui_prompt p);
unsigned ui_doc_prompt_apply(struct ui_state *st, const struct model *m, enum ui_prompt p,
                             const char *text);

unsigned ui_act_doc_down(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_up(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_page_down(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_page_up(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_first(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_last(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_next_table(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_prev_table(struct ui_state *st, const struct model *m);
/* > and <: the focused table's columns scrolled one column. */
unsigned ui_act_doc_columns_right(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_columns_left(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_sort(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_sort_reverse(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_export(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_search_next(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_search_prev(struct ui_state *st, const struct model *m);
/* Tab and Shift-Tab: the next (previous) table, then the left pane. */
unsigned ui_act_doc_focus_next(struct ui_state *st, const struct model *m);
unsigned ui_act_doc_focus_prev(struct ui_state *st, const struct model *m);
/* Enter: the cursor row's name on the timeline (ui/jumps.h); in a summary
 * job's view whose tables need the events, the left pane's rank loaded. */
unsigned ui_act_doc_enter(struct ui_state *st, const struct model *m);

#endif
