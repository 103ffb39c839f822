#ifndef HTX_UI_GRID_H
#define HTX_UI_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ui/widgets/layout.h"

/* The screen as plain data: rows x cols cells of (code point, style).
 * Panes fill a grid; ui/draw.c paints it with curses, and the tests read it
 * back as text. A wide character takes its cell plus the next one, which
 * is marked as a continuation. Every text call escapes what it is given
 * (ui/text.h), so nothing in a grid can be a terminal control sequence. */

enum ui_style {
    UI_STYLE_NORMAL = 0,
    UI_STYLE_TITLE,        /* title bar */
    UI_STYLE_STATUS,       /* status line */
    UI_STYLE_BORDER,
    UI_STYLE_BORDER_FOCUS, /* box of the focused pane */
    UI_STYLE_TAB,
    UI_STYLE_TAB_ACTIVE,
    UI_STYLE_SELECTED,     /* cursor row */
    UI_STYLE_HEADER,       /* table header */
    UI_STYLE_DIM,          /* secondary text */
    UI_STYLE_COMPUTE,      /* timeline kinds */
    UI_STYLE_COMM,
    UI_STYLE_MEMORY,
    UI_STYLE_OTHER,
    UI_STYLE_CPU,
    UI_STYLE_IDLE,
    UI_STYLE_CURSOR,       /* timeline cursor cell */
    UI_STYLE_MARK,         /* marked window / search match */
    UI_STYLE_WARN,
    UI_STYLE_GOOD,         /* diff: better / added */
    UI_STYLE_BAD,          /* diff: worse / removed */
    UI_STYLE_BAR,          /* chart bars */
    UI_STYLE_COUNT
};

struct ui_cell {
    uint32_t ch;      /* code point; 0 in the right half of a wide character */
    uint8_t style;    /* enum ui_style */
};

struct ui_grid {
    int rows, cols;
    bool ascii;       /* draw boxes, bars and ellipses in ASCII */
    struct ui_cell *cells;
};

/* Allocates a blank grid; returns 0 or ERR_NOMEM. The grid owns its cells
 * until ui_grid_fini. */
int ui_grid_init(struct ui_grid *g, int rows, int cols, bool ascii);
void ui_grid_fini(struct ui_grid *g);
/* Reallocates for a new size (contents cleared). */
int ui_grid_resize(struct ui_grid *g, int rows, int cols);

void ui_grid_clear(struct ui_grid *g, enum ui_style style);

static inline struct ui_cell *ui_grid_at(struct ui_grid *g, int y, int x)
{
    return &g->cells[(size_t)y * (size_t)g->cols + (size_t)x];
}

/* Sets one cell (ignored outside the grid). */
void ui_grid_put(struct ui_grid *g, int y, int x, uint32_t ch, enum ui_style style);

/* Fills w cells from (y, x) with ch. */
void ui_grid_fill(struct ui_grid *g, int y, int x, int w, uint32_t ch, enum ui_style style);

/* Restyles w cells from (y, x), keeping their characters. */
void ui_grid_style(struct ui_grid *g, int y, int x, int w, enum ui_style style);

enum ui_trunc { UI_TRUNC_END = 0, UI_TRUNC_MIDDLE };

/* Writes UTF-8 text at (y, x) in at most w columns, escaped and truncated
 * with an ellipsis; returns the columns used. Borrows s until return. */
int ui_grid_text(struct ui_grid *g, int y, int x, int w, const char *s, enum ui_style style,
                 enum ui_trunc trunc);

/* The same for s[0..len). */
int ui_grid_textn(struct ui_grid *g, int y, int x, int w, const char *s, size_t len,
                  enum ui_style style, enum ui_trunc trunc);

/* Text right-aligned so that it ends at column x + w. */
int ui_grid_text_right(struct ui_grid *g, int y, int x, int w, const char *s,
                       enum ui_style style);

/* Draws a box border over r with an optional title in the top edge. */
void ui_grid_box(struct ui_grid *g, struct ui_rect r, enum ui_style style, const char *title);

/* Writes row y as UTF-8 (right half of wide characters skipped, trailing
 * spaces trimmed) into out (size n, always terminated); returns its length. */
size_t ui_grid_row_text(const struct ui_grid *g, int y, char *out, size_t n);

/* Box-drawing characters for this grid's mode. */
enum ui_glyph {
    UI_G_HLINE, UI_G_VLINE, UI_G_TL, UI_G_TR, UI_G_BL, UI_G_BR,
    UI_G_ELLIPSIS, UI_G_EXPANDED, UI_G_COLLAPSED, UI_G_BLOCK_FULL, UI_G_BLOCK_EMPTY,
    UI_G_CURSOR_MARK, UI_G_COUNT
};
uint32_t ui_glyph(const struct ui_grid *g, enum ui_glyph which);

#endif
