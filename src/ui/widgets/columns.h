#ifndef HTX_UI_COLUMNS_H
#define HTX_UI_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/widgets/tables.h"

/* Where a table's columns go on a pane w cells wide. Columns with no value
 * in any row are left out (ui_tview_col_hidden); the view's lead columns
 * (by name) come first, the others follow in the table's order. When they
 * all fit, narrowed within limits (text to UI_COLS_MIN_TEXT, headers of
 * numbers to UI_COLS_HEAD_KEEP), every column is shown, and the name
 * column (else the first text column) takes the room left, up to its
 * longest text. Otherwise the
 * row's identity (its leading key columns, through the name column, at
 * least the first) stays
 * at the left, the name given up to a third of the pane, and the rest
 * show whole from the scroll position `first`, one column at a time, with
 * marks saying more lie left or right. Curses-free. */

#define UI_COLS_MAX 64        /* tables with more columns are not drawn */
#define UI_COLS_GAP 2
#define UI_COLS_MIN_TEXT 12
#define UI_COLS_NAME_KEEP 24  /* the name column's width kept before headers are cut */
#define UI_COLS_HEAD_KEEP 9   /* a number column's header is cut no shorter */

struct ui_col_place {
    size_t col;               /* column of the table */
    int x, w;                 /* from the pane's left edge */
};

struct ui_cols {
    struct ui_col_place at[UI_COLS_MAX];
    size_t n;                 /* columns on screen, left to right */
    size_t frozen;            /* the first `frozen` of them stay when scrolled */
    size_t first;             /* the scroll position, clamped (0 .. nscroll - 1) */
    size_t nscroll;           /* columns that scroll; 0 when every column fits */
    bool more_left, more_right;
};

/* Lays out v's columns on w cells from scroll position first. lead lists
 * column names shown first (absent ones are skipped; NULL with nlead 0:
 * none). Nothing is placed for a table over UI_COLS_MAX columns. Borrows
 * v and lead until return. */
void ui_cols_layout(const struct ui_tview *v, const char *const *lead, size_t nlead, int w,
                    size_t first, struct ui_cols *out);

/* The width column col gets in c, or -1 when it is not on screen. */
int ui_cols_width(const struct ui_cols *c, size_t col);

#endif
