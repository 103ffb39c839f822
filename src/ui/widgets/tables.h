#ifndef HTX_UI_TABLES_H
#define HTX_UI_TABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/table.h"
#include "app/format.h"
#include "util/err.h"

/* A table as a view shows it: the rows left after the filter, in the chosen
 * sort order, with column widths measured once. The table itself is never
 * changed (it belongs to the analysis' scratch arena); only `rows` is.
 * Sorting is stable (ties keep the analysis' order), numbers sort
 * numerically with NaN and empty cells last, strings by byte order. */

struct ui_tview {
    const struct table *t;
    size_t *rows;          /* visible rows, as indices into t's rows */
    size_t nrows;
    int sort_col;          /* -1: the analysis' order */
    bool sort_desc;
    int *widths;           /* display width per column: max(header, cells capped) */
    int *content_widths;   /* the cells' alone, uncapped (a column narrower cuts its
                              header only; a name column grows to it when room is spare) */
    int *decimals;         /* per number column: one format for all its cells */
    bool *empty;           /* per column: no row of the table has a value in it */
    /* The name column's texts fitted to fit_width (app/name_fit.h), one
     * per table row; NULL until ui_tview_fit_names. */
    char **fitted;
    size_t nfitted;        /* entries of fitted (its own count: the table may be gone) */
    int fit_width;
};

/* Fits the name column (ui_tview_name_col) of v's table to width columns,
 * keeping names that differ apart; a no-op when already fitted to that
 * width, or for tables over UI_FIT_MAX_ROWS rows (they are cut in the
 * middle when drawn). 0 or ERR_NOMEM. */
#define UI_FIT_MAX_ROWS 200000
int ui_tview_fit_names(struct ui_tview *v, int width);

/* Column c's header as views show it: the name, and its unit when the
 * name does not say it ("idle_time (us)"). CSV keeps HTA's names. */
void ui_tview_header(const struct table *t, size_t c, char *buf, size_t n);

/* Is column c of v's table left off the screen: a table with rows, none of
 * which has a value in c (null, NaN or "")? CSV export keeps it. */
bool ui_tview_col_hidden(const struct ui_tview *v, size_t c);

/* The column holding kernel or op names ("name", "kernel name",
 * "collective", ...), -1. */
int ui_tview_name_col(const struct table *t);

/* The text of a cell of v's table in its column's one format. */
void ui_tview_cell_text(const struct ui_tview *v, size_t row, size_t c, char *buf, size_t n);

/* Hides rows whose `stream` column holds a stream the user switched off
 * (hidden(ctx, rank, stream) returns true); rank is -1 when the table has
 * no rank column. NULL = hide nothing. */
struct ui_row_filter {
    bool (*hidden)(void *ctx, int64_t rank, int64_t stream);
    void *ctx;
    /* Any other rule of the view's (the diff's change filter): hides row
     * `row` of the table when it returns true. May be NULL. */
    bool (*hidden_row)(void *ctx, size_t row);
};

/* (Re)builds v->rows for table t: rows containing `filter` (case-insensitive,
 * in any cell; "" keeps all) and not hidden by rf, sorted by v->sort_col.
 * v->sort_col/sort_desc are kept; everything else is replaced. v owns rows
 * and widths (free with ui_tview_fini). Returns 0 or ERR_NOMEM. */
int ui_tview_build(struct ui_tview *v, const struct table *t, const char *filter,
                   const struct ui_row_filter *rf);
void ui_tview_fini(struct ui_tview *v);

/* Sorts the visible rows by v->sort_col / v->sort_desc (stable). */
void ui_tview_sort(struct ui_tview *v);

/* Next visible row index (into v->rows) at or after `from` (wrapping, in
 * direction dir = +1 or -1) whose cells contain needle; -1 when none. */
long ui_tview_search(const struct ui_tview *v, size_t from, int dir, const char *needle);

/* Writes the visible rows, in their order, as CSV to a new file named
 * dir/htx-<table>.csv (or htx-<table>-N.csv: an existing file is never
 * overwritten). The chosen path goes into path (size n). Returns 0 or an
 * ERR_* with e set. */
int ui_tview_export_csv(const struct ui_tview *v, const char *dir, char *path, size_t n,
                        struct err *e);

#endif
