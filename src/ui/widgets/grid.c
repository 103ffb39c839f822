#include "config.h"
#include "ui/widgets/grid.h"

#include <stdlib.h>
#include <string.h>

#include "ui/widgets/text.h"
#include "util/err.h"

int ui_grid_init(struct ui_grid *g, int rows, int cols, bool ascii)
{
    g->rows = g->cols = 0;
    g->cells = NULL;
    g->ascii = ascii;
    return ui_grid_resize(g, rows, cols);
}

void ui_grid_fini(struct ui_grid *g)
{
    free(g->cells);
    g->cells = NULL;
    g->rows = g->cols = 0;
}

int ui_grid_resize(struct ui_grid *g, int rows, int cols)
{
    if (rows < 1)
        rows = 1;
    if (cols < 1)
        cols = 1;
    struct ui_cell *c = calloc((size_t)rows * (size_t)cols, sizeof *c);
    if (!c)
        return ERR_NOMEM;
    free(g->cells);
    g->cells = c;
    g->rows = rows;
    g->cols = cols;
    ui_grid_clear(g, UI_STYLE_NORMAL);
    return 0;
}

void ui_grid_clear(struct ui_grid *g, enum ui_style style)
{
    size_t n = (size_t)g->rows * (size_t)g->cols;
    for (size_t i = 0; i < n; i++)
        g->cells[i] = (struct ui_cell){' ', (uint8_t)style};
}

void ui_grid_put(struct ui_grid *g, int y, int x, uint32_t ch, enum ui_style style)
{
    if (y < 0 || y >= g->rows || x < 0 || x >= g->cols)
        return;
    *ui_grid_at(g, y, x) = (struct ui_cell){ch, (uint8_t)style};
}

void ui_grid_fill(struct ui_grid *g, int y, int x, int w, uint32_t ch, enum ui_style style)
{
    for (int i = 0; i < w; i++)
        ui_grid_put(g, y, x + i, ch, style);
}

void ui_grid_style(struct ui_grid *g, int y, int x, int w, enum ui_style style)
{
    if (y < 0 || y >= g->rows)
        return;
    for (int i = x < 0 ? 0 : x; i < x + w && i < g->cols; i++)
        ui_grid_at(g, y, i)->style = (uint8_t)style;
}

static int put_units(struct ui_grid *g, int y, int x, int limit, const struct ui_unit *u,
                     size_t n, enum ui_style style)
{
    int used = 0;

    for (size_t i = 0; i < n; i++) {
        if (used + u[i].width > limit)
            break;
        if (u[i].ncp == 2) {
            ui_grid_put(g, y, x + used, u[i].cp[0], style);
            ui_grid_put(g, y, x + used + 1, u[i].cp[1], style);
        } else {
            ui_grid_put(g, y, x + used, u[i].cp[0], style);
            if (u[i].width == 2)
                ui_grid_put(g, y, x + used + 1, 0, style);
        }
        used += u[i].width;
    }
    return used;
}

int ui_grid_textn(struct ui_grid *g, int y, int x, int w, const char *s, size_t len,
                  enum ui_style style, enum ui_trunc trunc)
{
    struct ui_unit small[256], *u = small;
    size_t n, head, tail;
    int used;

    if (w <= 0 || y < 0 || y >= g->rows)
        return 0;
    n = ui_text_units(s, len, g->ascii, small, 256);
    if (n > 256) {
        u = malloc(n * sizeof *u);
        if (!u)
            return 0;
        ui_text_units(s, len, g->ascii, u, n);
    }
    bool ell = ui_text_fit(u, n, w, trunc == UI_TRUNC_MIDDLE, &head, &tail);
    used = put_units(g, y, x, w, u, head, style);
    if (ell) {
        ui_grid_put(g, y, x + used, ui_glyph(g, UI_G_ELLIPSIS), style);
        used++;
        used += put_units(g, y, x + used, w - used, u + n - tail, tail, style);
    }
    if (u != small)
        free(u);
    return used;
}

int ui_grid_text(struct ui_grid *g, int y, int x, int w, const char *s, enum ui_style style,
                 enum ui_trunc trunc)
{
    return ui_grid_textn(g, y, x, w, s, strlen(s), style, trunc);
}

int ui_grid_text_right(struct ui_grid *g, int y, int x, int w, const char *s,
                       enum ui_style style)
{
    int tw = ui_text_width(s, strlen(s), g->ascii);
    if (tw > w)
        tw = w;
    return ui_grid_text(g, y, x + w - tw, tw, s, style, UI_TRUNC_END);
}

void ui_grid_box(struct ui_grid *g, struct ui_rect r, enum ui_style style, const char *title)
{
    if (r.w < 2 || r.h < 2)
        return;
    int bottom = r.y + r.h - 1, right = r.x + r.w - 1;
    ui_grid_fill(g, r.y, r.x + 1, r.w - 2, ui_glyph(g, UI_G_HLINE), style);
    ui_grid_fill(g, bottom, r.x + 1, r.w - 2, ui_glyph(g, UI_G_HLINE), style);
    for (int y = r.y + 1; y < bottom; y++) {
        ui_grid_put(g, y, r.x, ui_glyph(g, UI_G_VLINE), style);
        ui_grid_put(g, y, right, ui_glyph(g, UI_G_VLINE), style);
    }
    ui_grid_put(g, r.y, r.x, ui_glyph(g, UI_G_TL), style);
    ui_grid_put(g, r.y, right, ui_glyph(g, UI_G_TR), style);
    ui_grid_put(g, bottom, r.x, ui_glyph(g, UI_G_BL), style);
    ui_grid_put(g, bottom, right, ui_glyph(g, UI_G_BR), style);
    if (title && title[0] && r.w > 4) {
        int used = ui_grid_text(g, r.y, r.x + 2, r.w - 4, title, style, UI_TRUNC_END);
        ui_grid_put(g, r.y, r.x + 1, ' ', style);
        if (r.x + 2 + used < right)
            ui_grid_put(g, r.y, r.x + 2 + used, ' ', style);
    }
}

size_t ui_grid_row_text(const struct ui_grid *g, int y, char *out, size_t n)
{
    size_t len = 0, keep = 0;

    if (n == 0)
        return 0;
    for (int x = 0; y >= 0 && y < g->rows && x < g->cols; x++) {
        uint32_t ch = g->cells[(size_t)y * (size_t)g->cols + (size_t)x].ch;
        char buf[4];
        if (ch == 0)
            continue;
        size_t k = utf8_encode(ch, buf);
        if (len + k >= n)
            break;
        memcpy(out + len, buf, k);
        len += k;
        if (ch != ' ')
            keep = len;
    }
    out[keep] = 0;
    return keep;
}

uint32_t ui_glyph(const struct ui_grid *g, enum ui_glyph which)
{
    static const uint32_t utf8[UI_G_COUNT] = {
        0x2500, 0x2502, 0x250C, 0x2510, 0x2514, 0x2518,
        UI_CP_ELLIPSIS, 0x25BE, 0x25B8, 0x25A0, 0x25A1, 0x25BC,
    };
    static const uint32_t ascii[UI_G_COUNT] = {
        '-', '|', '+', '+', '+', '+', '~', 'v', '>', '#', '-', 'v',
    };
    return g->ascii ? ascii[which] : utf8[which];
}
