#include "config.h"
#include "ui/document.h"

#include <stdio.h>
#include <string.h>

#include "ui/widgets/text.h"

/* The table document on screen: column widths for the pane, its lines
 * drawn, and the view ops the table views share. */

/* ---- drawing ---- */

#define COL_GAP 2
#define MIN_TEXT_COL 12
#define NAME_KEEP 24   /* the name column's width kept before headers are cut */

static bool is_text_col(const struct table *t, size_t c)
{
    for (size_t r = 0; r < t->nrows && r < 50; r++) {
        enum cell_type ty = table_cell(t, r, c)->type;
        if (ty == CELL_STR)
            return true;
        if (ty != CELL_NULL)
            return false;
    }
    return false;
}

/* Narrows the text columns (all but the first, or the first too) down to
 * floor columns, widest first, until the row fits w. */
static void shrink_text(const struct table *t, size_t first_text, bool first_too, int floor,
                        int w, int *out, int *total)
{
    while (*total > w) {
        size_t widest = SIZE_MAX;
        for (size_t c = 0; c < t->ncols; c++)
            if (is_text_col(t, c) && (first_too || c != first_text) && out[c] > floor &&
                (widest == SIZE_MAX || out[c] > out[widest]))
                widest = c;
        if (widest == SIZE_MAX)
            return;
        int cut = *total - w, room = out[widest] - floor;
        out[widest] -= cut < room ? cut : room;
        *total -= cut < room ? cut : room;
    }
}

/* Column widths for this screen width. Every column starts at its header's
 * width; when the row is too wide, the other text columns narrow first,
 * then the first (the row's name) down to NAME_KEEP, then number columns
 * give up header width their cells do not need, and then the name
 * narrows further. */
static void fit_columns(const struct ui_tview *v, int w, int *out)
{
    const struct table *t = v->t;
    int total = 0;
    size_t first_text = SIZE_MAX;

    for (size_t c = 0; c < t->ncols; c++) {
        out[c] = v->widths ? v->widths[c] : 8;
        total += out[c] + (c ? COL_GAP : 0);
        if (first_text == SIZE_MAX && is_text_col(t, c))
            first_text = c;
    }
    shrink_text(t, first_text, false, MIN_TEXT_COL, w, out, &total);
    shrink_text(t, first_text, true, NAME_KEEP, w, out, &total);
    for (size_t c = 0; c < t->ncols && total > w; c++) {
        int keep = v->content_widths ? v->content_widths[c] + 1 : out[c];
        keep = keep < 4 ? 4 : keep;
        if (is_text_col(t, c) || out[c] <= keep)
            continue;
        int cut = total - w < out[c] - keep ? total - w : out[c] - keep;
        out[c] -= cut;
        total -= cut;
    }
    shrink_text(t, first_text, true, MIN_TEXT_COL, w, out, &total);
    // Room to spare: the name column takes it, up to its longest name.
    int nc = ui_tview_name_col(t);
    if (nc >= 0 && total < w && v->content_widths && v->content_widths[nc] > out[nc]) {
        int grow = v->content_widths[nc] - out[nc];
        out[nc] += grow < w - total ? grow : w - total;
    }
}

static void draw_table_row(const struct ui_doc *d, size_t t, long row, enum ui_style style,
                           struct ui_grid *g, int y, int x, int w)
{
    const struct ui_tview *v = &d->tv[t];
    const struct table *tb = v->t;
    int widths[64], cx = 0;
    char buf[512];

    if (!tb || tb->ncols > 64)
        return;
    fit_columns(v, w, widths);
    for (size_t c = 0; c < tb->ncols && cx < w; c++) {
        int cw = widths[c] < w - cx ? widths[c] : w - cx;
        if (row < 0) {
            const char *mark = "";
            if (v->sort_col == (int)c)
                mark = v->sort_desc ? (g->ascii ? "v" : "\u25BC") : (g->ascii ? "^" : "\u25B2");
            char head[160];
            ui_tview_header(tb, c, head, sizeof head);
            snprintf(buf, sizeof buf, "%s%s", head, mark);
            ui_grid_text(g, y, x + cx, cw, buf, style, UI_TRUNC_END);
        } else {
            const struct cell *cell = table_cell(tb, v->rows[row], c);
            if (v->fitted && (int)c == ui_tview_name_col(tb) && v->fit_width == cw &&
                v->rows[row] < v->nfitted && v->fitted[v->rows[row]]) {
                ui_grid_text(g, y, x + cx, cw, v->fitted[v->rows[row]], style, UI_TRUNC_END);
            } else if (cell->type == CELL_STR) {
                ui_grid_text(g, y, x + cx, cw, cell->v.s ? cell->v.s : "", style,
                             UI_TRUNC_MIDDLE);
            } else {
                ui_tview_cell_text(v, v->rows[row], c, buf, sizeof buf);
                ui_grid_text_right(g, y, x + cx, cw, buf, style);
            }
        }
        cx += cw + COL_GAP;
    }
}

static void draw_title(const struct ui_doc *d, size_t t, struct ui_grid *g, int y, int x, int w)
{
    const struct table *tb = d->tables[t];
    const struct ui_tview *v = &d->tv[t];
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%s  (%zu of %zu rows", tb->title ? tb->title : tb->name,
                     v->nrows, tb->nrows);

    if (d->filter[0] && n > 0 && (size_t)n < sizeof buf)
        n += snprintf(buf + n, sizeof buf - (size_t)n, ", filter \"%s\"", d->filter);
    if (n > 0 && (size_t)n < sizeof buf)
        snprintf(buf + n, sizeof buf - (size_t)n, ")");
    ui_grid_text(g, y, x, w, buf, t == d->cur ? UI_STYLE_HEADER : UI_STYLE_DIM, UI_TRUNC_END);
}

/* Draws one line of d at (y, x), w columns; `cursor` highlights the
 * doc's cursor row when the main pane has the focus. */
static void draw_line(const struct ui_doc *d, size_t line, bool cursor, struct ui_grid *g, int y,
                      int x, int w)
{
    struct ui_doc_line l = ui_doc_locate(d, line);
    const char *note;

    switch (l.kind) {
    case UI_DOC_CHART:
        ui_chart_line(&d->charts[l.index], l.sub, g, y, x, w);
        break;
    case UI_DOC_TEXT:
        ui_grid_text(g, y, x, w, d->text[l.index], UI_STYLE_NORMAL, UI_TRUNC_END);
        break;
    case UI_DOC_TITLE:
        draw_title(d, l.index, g, y, x, w);
        break;
    case UI_DOC_HEADER:
        draw_table_row(d, l.index, -1, UI_STYLE_HEADER, g, y, x, w);
        break;
    case UI_DOC_ROW: {
        bool sel = cursor && l.index == d->cur && l.sub == d->row[d->cur];
        if (sel)
            ui_grid_fill(g, y, x, w, ' ', UI_STYLE_SELECTED);
        draw_table_row(d, l.index, (long)l.sub, sel ? UI_STYLE_SELECTED : UI_STYLE_NORMAL, g, y,
                       x, w);
        break;
    }
    case UI_DOC_EMPTY:
        note = d->tables[l.index]->note;
        if (d->tables[l.index]->nrows > 0)
            note = "no row matches the filter";
        ui_grid_text(g, y, x, w, note && note[0] ? note : "(no rows)", UI_STYLE_DIM,
                     UI_TRUNC_END);
        break;
    case UI_DOC_NOTE:
        ui_grid_text(g, y, x, w, d->tables[l.index]->note, UI_STYLE_DIM, UI_TRUNC_END);
        break;
    case UI_DOC_FULL_NAME: {
        const struct ui_tview *v = &d->tv[l.index];
        const struct cell *c = table_cell(v->t, v->rows[d->row[l.index]],
                                          (size_t)ui_tview_name_col(v->t));
        char text[1200];
        snprintf(text, sizeof text, "%s %s", g->ascii ? ">" : "\u25B8",
                 c->type == CELL_STR && c->v.s ? c->v.s : "");
        ui_grid_text(g, y, x, w, text, UI_STYLE_DIM, UI_TRUNC_MIDDLE);
        break;
    }
    default:
        break;
    }
}

void ui_doc_fit_names(struct ui_state *st, struct ui_doc *d)
{
    int widths[64];
    for (size_t t = 0; t < d->ntables; t++) {
        struct ui_tview *v = &d->tv[t];
        int c = v->t ? ui_tview_name_col(v->t) : -1;
        if (c < 0 || v->t->ncols > 64)
            continue;
        fit_columns(v, st->layout.body.w, widths);
        if (ui_tview_fit_names(v, widths[c]) != 0)
            return;   // out of memory: the names are cut when drawn instead
    }
}

/* ---- the view ops ---- */

static const struct ui_doc *active_doc(const struct ui_state *st)
{
    return &st->docs[st->view < UI_VIEW_COUNT ? st->view : UI_VIEW_OVERVIEW];
}

size_t ui_doc_rows(const struct ui_state *st, const struct model *m)
{
    (void)m;
    return ui_doc_lines(active_doc(st));
}

size_t ui_doc_top(const struct ui_state *st, const struct model *m, int height)
{
    const struct ui_doc *d = active_doc(st);
    size_t lines = ui_doc_lines(d), top = d->top;
    size_t h = height > 1 ? (size_t)height - 1 : 1;  // a line for the pinned header

    (void)m;
    if (d->follow && d->ntables && d->tv[d->cur].nrows) {
        size_t cl = ui_doc_row_line(d, d->cur, d->row[d->cur]);
        if (cl < top)
            top = cl;
        if (cl >= top + h)
            top = cl - h + 1;
    }
    if (top + h > lines)
        top = lines > h ? lines - h : 0;
    return top;
}

size_t ui_doc_pinned(const struct ui_state *st, const struct model *m)
{
    const struct ui_doc *d = active_doc(st);

    if (!d->ntables || st->layout.body.h < 4)
        return 0;
    size_t top = ui_doc_top(st, m, st->layout.body.h);
    size_t header = ui_doc_table_line(d, d->cur) + 1;
    size_t last = ui_doc_table_line(d, d->cur) + 2 + d->tv[d->cur].nrows;
    return header < top && top < last ? 1 : 0;
}

void ui_doc_pinned_row(const struct ui_state *st, const struct model *m, size_t i,
                           struct ui_grid *g, int y, int x, int w)
{
    const struct ui_doc *d = active_doc(st);

    (void)m;
    (void)i;
    draw_table_row(d, d->cur, -1, UI_STYLE_HEADER, g, y, x, w);
}

void ui_doc_row(const struct ui_state *st, const struct model *m, size_t i,
                    struct ui_grid *g, int y, int x, int w)
{
    (void)m;
    draw_line(active_doc(st), i, st->focus == UI_FOCUS_MAIN, g, y, x, w);
}

void ui_doc_status(const struct ui_state *st, const struct model *m, char *buf, size_t n)
{
    const struct ui_doc *d = active_doc(st);

    (void)m;
    if (d->ntables == 0) {
        snprintf(buf, n, "%s", d->error[0] ? d->error : "");
        return;
    }
    const struct ui_tview *v = &d->tv[d->cur];
    snprintf(buf, n, "%s · row %zu/%zu", d->tables[d->cur]->name,
             v->nrows ? d->row[d->cur] + 1 : 0, v->nrows);
}

size_t ui_doc_contexts(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS])
{
    (void)st;
    ctx[0] = UI_CTX_DOC;
    return 1;
}

unsigned ui_doc_click(struct ui_state *st, const struct model *m, int y, int x)
{
    struct ui_rect b = st->layout.body;
    size_t pinned = ui_doc_pinned(st, m);
    size_t top = ui_doc_top(st, m, b.h);

    (void)x;
    if ((size_t)(y - b.y) < pinned)
        return UI_REDRAW;
    struct ui_doc *d = &st->docs[st->view];
    struct ui_doc_line l = ui_doc_locate(d, top + (size_t)(y - b.y) - pinned);
    if (l.kind == UI_DOC_ROW) {
        d->cur = l.index;
        d->row[l.index] = l.sub;
    }
    return UI_REDRAW;
}

const char *ui_doc_cursor_name(const struct ui_state *st, const struct model *m)
{
    const struct ui_doc *d = active_doc(st);

    (void)m;
    if (d->ntables == 0 || d->tv[d->cur].nrows == 0)
        return NULL;
    const struct ui_tview *v = &d->tv[d->cur];
    int c = ui_tview_name_col(v->t);
    const struct cell *cell = c >= 0 ? table_cell(v->t, v->rows[d->row[d->cur]], (size_t)c) : NULL;
    return cell && cell->type == CELL_STR ? cell->v.s : NULL;
}

size_t ui_doc_cursor_row(const struct ui_state *st, const char *table)
{
    const struct ui_doc *d = active_doc(st);
    if (d->ntables == 0 || d->tv[d->cur].nrows == 0 || strcmp(d->tables[d->cur]->name, table))
        return SIZE_MAX;
    return d->tv[d->cur].rows[d->row[d->cur]];
}
