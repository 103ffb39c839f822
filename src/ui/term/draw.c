#include "config.h"
#include "ui/term/draw.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui/term/curses.h"
#include "util/err.h"

static attr_t style_attr[UI_STYLE_COUNT];
static short style_pair[UI_STYLE_COUNT];

struct style_def {
    short fg256, bg256, fg8, bg8;
    attr_t color_attr;  /* with colours */
    attr_t mono_attr;   /* without: everything must still read */
};

/* -1 is the terminal's default colour (use_default_colors). */
static const struct style_def defs[UI_STYLE_COUNT] = {
    [UI_STYLE_NORMAL] = {-1, -1, -1, -1, A_NORMAL, A_NORMAL},
    [UI_STYLE_TITLE] = {231, 24, COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE},
    [UI_STYLE_STATUS] = {252, 236, COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
    [UI_STYLE_BORDER] = {242, -1, COLOR_WHITE, -1, A_NORMAL, A_NORMAL},
    [UI_STYLE_BORDER_FOCUS] = {75, -1, COLOR_CYAN, -1, A_BOLD, A_BOLD},
    [UI_STYLE_TAB] = {250, -1, COLOR_WHITE, -1, A_NORMAL, A_NORMAL},
    [UI_STYLE_TAB_ACTIVE] = {231, 24, COLOR_WHITE, COLOR_BLUE, A_BOLD, A_REVERSE | A_BOLD},
    [UI_STYLE_SELECTED] = {231, 238, COLOR_BLACK, COLOR_WHITE, A_BOLD, A_REVERSE},
    [UI_STYLE_HEADER] = {180, -1, COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_UNDERLINE},
    [UI_STYLE_DIM] = {244, -1, COLOR_WHITE, -1, A_NORMAL, A_DIM},
    [UI_STYLE_COMPUTE] = {42, -1, COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
    [UI_STYLE_COMM] = {214, -1, COLOR_YELLOW, -1, A_NORMAL, A_NORMAL},
    [UI_STYLE_MEMORY] = {75, -1, COLOR_BLUE, -1, A_NORMAL, A_NORMAL},
    [UI_STYLE_OTHER] = {141, -1, COLOR_MAGENTA, -1, A_NORMAL, A_NORMAL},
    [UI_STYLE_CPU] = {110, -1, COLOR_CYAN, -1, A_NORMAL, A_NORMAL},
    [UI_STYLE_IDLE] = {-1, -1, -1, -1, A_NORMAL, A_NORMAL},
    [UI_STYLE_CURSOR] = {16, 226, COLOR_BLACK, COLOR_YELLOW, A_BOLD, A_REVERSE | A_BOLD},
    [UI_STYLE_MARK] = {231, 58, COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_UNDERLINE},
    [UI_STYLE_WARN] = {203, -1, COLOR_RED, -1, A_BOLD, A_BOLD},
    [UI_STYLE_GOOD] = {42, -1, COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
    [UI_STYLE_BAD] = {203, -1, COLOR_RED, -1, A_NORMAL, A_BOLD},
    [UI_STYLE_BAR] = {73, -1, COLOR_CYAN, -1, A_NORMAL, A_NORMAL},
};

void ui_draw_styles(enum ui_colors colors)
{
    for (int s = 0; s < UI_STYLE_COUNT; s++) {
        const struct style_def *d = &defs[s];
        style_pair[s] = 0;
        if (colors == UI_COLORS_NONE) {
            style_attr[s] = d->mono_attr;
            continue;
        }
        short fg = colors == UI_COLORS_256 ? d->fg256 : d->fg8;
        short bg = colors == UI_COLORS_256 ? d->bg256 : d->bg8;
        style_attr[s] = d->color_attr;
        if (fg == -1 && bg == -1)
            continue;
        if (init_pair((short)(s + 1), fg, bg) == OK)
            style_pair[s] = (short)(s + 1);
        else
            style_attr[s] = d->mono_attr;
    }
}

static void put_cell(int y, int x, wchar_t ch, int style)
{
    wchar_t w[2] = {ch, 0};
    cchar_t cc;

    if (style < 0 || style >= UI_STYLE_COUNT)
        style = UI_STYLE_NORMAL;
    if (setcchar(&cc, w, style_attr[style], style_pair[style], NULL) == OK)
        mvadd_wch(y, x, &cc);
}

void ui_draw_grid(const struct ui_grid *g, bool clear)
{
    int rows, cols;

    getmaxyx(stdscr, rows, cols);
    if (clear)
        clearok(curscr, TRUE);
    for (int y = 0; y < g->rows && y < rows; y++) {
        bool prev_wide = false;
        for (int x = 0; x < g->cols && x < cols; x++) {
            const struct ui_cell *c = &g->cells[(size_t)y * (size_t)g->cols + (size_t)x];
            if (c->ch == 0 && prev_wide) {
                prev_wide = false;  // right half of the wide character just drawn
                continue;
            }
            wchar_t ch = c->ch ? (wchar_t)c->ch : L' ';
            // A wide character that would not fit in the last column.
            prev_wide = wcwidth(ch) == 2;
            if (prev_wide && x + 1 >= cols)
                ch = L' ', prev_wide = false;
            put_cell(y, x, ch, c->style);
        }
    }
    wnoutrefresh(stdscr);
    doupdate();
}

int ui_draw_dump(FILE *f, int rows, int cols)
{
    size_t n = (size_t)cols * 8 + 1;
    char *buf = malloc(n);

    if (!buf)
        return ERR_NOMEM;
    for (int y = 0; y < rows; y++) {
        int len = mvwinnstr(stdscr, y, 0, buf, (int)n - 1);
        if (len < 0)
            len = 0;
        buf[len] = 0;
        while (len > 0 && buf[len - 1] == ' ')
            buf[--len] = 0;
        fprintf(f, "%s\n", buf);
    }
    free(buf);
    return ferror(f) ? ERR_IO : 0;
}
