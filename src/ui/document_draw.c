#include "config.h"
#include "ui/document.h"

#include <stdio.h>
#include <string.h>

#include "ui/widgets/columns.h"
#include "ui/widgets/text.h"

/* The table document on screen: column widths for the pane, its lines
 * drawn, and the view ops the table views share. */

/* ---- drawing ---- */

/* The columns of table t of d on w cells (ui/widgets/columns.h), from
 * the table's scroll position. */
static void layout(const struct ui_doc *d, size_t t, int w, struct ui_cols *out)
{
    ui_cols_layout(&d->tv[t], d->lead, d->nlead, w, d->hcol[t], out);
}

/* The header's marks: columns hidden to the left (before the first
 * scrolled one) and to the right (the last cell). */
static void draw_more_marks(const struct ui_cols *c, struct ui_grid *g, int y, int x, int w)
{
    if (c->more_left && c->frozen < c->n && c->at[c->frozen].x > 0)
        ui_grid_text(g, y, x + c->at[c->frozen].x - 1, 1, g->ascii ? "<" : "\u2039",
                     UI_STYLE_HEADER, UI_TRUNC_END);
    if (c->more_right)
        ui_grid_text(g, y, x + w - 1, 1, g->ascii ? ">" : "\u203A", UI_STYLE_HEADER,
                     UI_TRUNC_END);
}

static void draw_cell(const struct ui_tview *v, long row, size_t c, int cw, enum ui_style style,
                      struct ui_grid *g, int y, int x)
{
    char buf[512];
    const struct cell *cell = table_cell(v->t, v->rows[row], c);
    if (v->fitted && (int)c == ui_tview_name_col(v->t) && v->fit_width == cw &&
        v->rows[row] < v->nfitted && v->fitted[v->rows[row]]) {
        ui_grid_text(g, y, x, cw, v->fitted[v->rows[row]], style, UI_TRUNC_END);
    } else if (cell->type == CELL_STR) {
        ui_grid_text(g, y, x, cw, cell->v.s ? cell->v.s : "", style, UI_TRUNC_MIDDLE);
    } else {
        ui_tview_cell_text(v, v->rows[row], c, buf, sizeof buf);
        ui_grid_text_right(g, y, x, cw, buf, style);
    }
}

static void draw_table_row(const struct ui_doc *d, size_t t, long row, enum ui_style style,
                           struct ui_grid *g, int y, int x, int w)
{
    const struct ui_tview *v = &d->tv[t];
    struct ui_cols cols;
    char buf[512];

    layout(d, t, w, &cols);
    for (size_t i = 0; i < cols.n; i++) {
        size_t c = cols.at[i].col;
        int cx = cols.at[i].x, cw = cols.at[i].w;
        if (row >= 0) {
            draw_cell(v, row, c, cw, style, g, y, x + cx);
            continue;
        }
        const char *mark = "";
        if (v->sort_col == (int)c)
            mark = v->sort_desc ? (g->ascii ? "v" : "\u25BC") : (g->ascii ? "^" : "\u25B2");
        char head[160];
        ui_tview_header(v->t, c, head, sizeof head);
        snprintf(buf, sizeof buf, "%s%s", head, mark);
        ui_grid_text(g, y, x + cx, cw, buf, style, UI_TRUNC_END);
    }
    if (row < 0)
        draw_more_marks(&cols, g, y, x, w);
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
    struct ui_cols cols;
    for (size_t t = 0; t < d->ntables; t++) {
        struct ui_tview *v = &d->tv[t];
        int c = v->t ? ui_tview_name_col(v->t) : -1;
        if (c < 0)
            continue;
        layout(d, t, st->layout.body.w, &cols);
        int w = ui_cols_width(&cols, (size_t)c);
        if (w > 0 && ui_tview_fit_names(v, w) != 0)
            return;   // out of memory: the names are cut when drawn instead
    }
}

bool ui_doc_scroll_columns(struct ui_state *st, int dir)
{
    struct ui_doc *d = &st->docs[st->view];
    struct ui_cols cols;
    if (d->ntables == 0)
        return false;
    layout(d, d->cur, st->layout.body.w, &cols);
    if (dir > 0 && cols.more_right)
        d->hcol[d->cur] = cols.first + 1;
    else if (dir < 0 && cols.more_left)
        d->hcol[d->cur] = cols.first - 1;
    else
        return false;
    return true;
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
    struct ui_cols cols;
    layout(d, d->cur, st->layout.body.w, &cols);
    snprintf(buf, n, "%s · row %zu/%zu%s", d->tables[d->cur]->name,
             v->nrows ? d->row[d->cur] + 1 : 0, v->nrows,
             cols.more_left || cols.more_right ? " · < > columns" : "");
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
