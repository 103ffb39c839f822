#include "config.h"
#include "ui/document.h"

#include <stdio.h>
#include <string.h>

#include "ui/jumps.h"
#include "ui/widgets/text.h"

/* The table document's keys (UI_CTX_DOC): moving through tables, sorting,
 * searching, filtering, exporting, and Enter from a row to its instances
 * on the timeline. */

static struct ui_doc *doc(struct ui_state *st)
{
    return &st->docs[st->view];
}

static size_t body_h(const struct ui_state *st)
{
    return st->layout.body.h > 2 ? (size_t)st->layout.body.h - 1 : 1;
}

void ui_doc_scroll(struct ui_state *st)
{
    struct ui_doc *d = doc(st);
    size_t h = body_h(st), lines = ui_doc_lines(d);

    d->follow = true;
    if (d->ntables && d->tv[d->cur].nrows) {
        size_t row = d->row[d->cur];
        size_t line = ui_doc_row_line(d, d->cur, row);
        // Entering a table from above: show its title and header too.
        size_t want = row == 0 ? ui_doc_table_line(d, d->cur) : line;
        if (want < d->top)
            d->top = want;
        if (line >= d->top + h)
            d->top = line - h + 1;
    } else if (d->ntables) {
        size_t title = ui_doc_table_line(d, d->cur);
        if (title < d->top || title >= d->top + h)
            d->top = title;
    }
    if (d->top + h > lines)
        d->top = lines > h ? lines - h : 0;
}

static long next_table_with_rows(const struct ui_doc *d, size_t from, int dir)
{
    for (long t = (long)from + dir; t >= 0 && t < (long)d->ntables; t += dir)
        if (d->tv[t].nrows)
            return t;
    return -1;
}

static unsigned scroll_text(struct ui_state *st, long delta)
{
    struct ui_doc *d = doc(st);
    size_t lines = ui_doc_lines(d), h = body_h(st);
    long top = (long)d->top + delta;
    long max = lines > h ? (long)(lines - h) : 0;

    d->top = (size_t)(top < 0 ? 0 : (top > max ? max : top));
    return UI_REDRAW;
}

unsigned ui_act_doc_down(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = doc(st);

    (void)m;
    if (d->ntables == 0)
        return scroll_text(st, 1);
    if (d->row[d->cur] + 1 < d->tv[d->cur].nrows) {
        d->row[d->cur]++;
    } else {
        long t = next_table_with_rows(d, d->cur, 1);
        if (t < 0)
            return scroll_text(st, 1);
        d->cur = (size_t)t;
        d->row[t] = 0;
    }
    ui_doc_scroll(st);
    return UI_REDRAW;
}

unsigned ui_act_doc_up(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = doc(st);

    (void)m;
    if (d->ntables == 0)
        return scroll_text(st, -1);
    if (d->row[d->cur] > 0 && d->tv[d->cur].nrows) {
        d->row[d->cur]--;
    } else {
        long t = next_table_with_rows(d, d->cur, -1);
        if (t < 0) {
            d->top = 0;  // at the first row: show what is above it
            return UI_REDRAW;
        }
        d->cur = (size_t)t;
        d->row[t] = d->tv[t].nrows - 1;
    }
    ui_doc_scroll(st);
    return UI_REDRAW;
}

static unsigned page(struct ui_state *st, int dir)
{
    struct ui_doc *d = doc(st);
    size_t h = body_h(st) > 3 ? body_h(st) - 2 : 1;

    if (d->ntables == 0 || d->tv[d->cur].nrows == 0)
        return scroll_text(st, dir * (long)h);
    size_t n = d->tv[d->cur].nrows, r = d->row[d->cur];
    d->row[d->cur] = dir > 0 ? (r + h < n ? r + h : n - 1) : (r > h ? r - h : 0);
    ui_doc_scroll(st);
    return UI_REDRAW;
}

unsigned ui_act_doc_page_down(struct ui_state *st, const struct model *m)
{
    (void)m;
    return page(st, 1);
}

unsigned ui_act_doc_page_up(struct ui_state *st, const struct model *m)
{
    (void)m;
    return page(st, -1);
}

unsigned ui_act_doc_first(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = doc(st);

    (void)m;
    d->top = 0;
    if (d->ntables) {
        long t = d->tv[0].nrows ? 0 : next_table_with_rows(d, 0, 1);
        d->cur = t < 0 ? 0 : (size_t)t;
        d->row[d->cur] = 0;
    }
    ui_doc_scroll(st);
    d->top = 0;
    return UI_REDRAW;
}

unsigned ui_act_doc_last(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = doc(st);

    (void)m;
    if (d->ntables == 0)
        return scroll_text(st, (long)ui_doc_lines(d));
    long t = d->tv[d->ntables - 1].nrows ? (long)d->ntables - 1
                                          : next_table_with_rows(d, d->ntables - 1, -1);
    if (t >= 0) {
        d->cur = (size_t)t;
        d->row[t] = d->tv[t].nrows - 1;
    }
    ui_doc_scroll(st);
    return UI_REDRAW;
}

static unsigned table_step(struct ui_state *st, int dir)
{
    struct ui_doc *d = doc(st);
    long t = (long)d->cur + dir;

    if (t < 0 || t >= (long)d->ntables)
        return 0;
    d->cur = (size_t)t;
    ui_doc_scroll(st);
    return UI_REDRAW;
}

unsigned ui_act_doc_next_table(struct ui_state *st, const struct model *m)
{
    (void)m;
    return table_step(st, 1);
}

unsigned ui_act_doc_prev_table(struct ui_state *st, const struct model *m)
{
    (void)m;
    return table_step(st, -1);
}

static unsigned scroll_columns(struct ui_state *st, int dir)
{
    if (!ui_doc_scroll_columns(st, dir))
        ui_state_message(st, false, "no more columns to the %s", dir > 0 ? "right" : "left");
    return UI_REDRAW;
}

unsigned ui_act_doc_columns_right(struct ui_state *st, const struct model *m)
{
    (void)m;
    return scroll_columns(st, 1);
}

unsigned ui_act_doc_columns_left(struct ui_state *st, const struct model *m)
{
    (void)m;
    return scroll_columns(st, -1);
}

static bool text_column(const struct table *t, int c)
{
    for (size_t r = 0; r < t->nrows && r < 50; r++) {
        enum cell_type ty = table_cell(t, r, (size_t)c)->type;
        if (ty != CELL_NULL)
            return ty == CELL_STR;
    }
    return false;
}

/* Sorts v, the selected row staying selected wherever it lands. */
static unsigned sorted_message(struct ui_state *st, struct ui_tview *v)
{
    size_t *row = &doc(st)->row[doc(st)->cur];
    size_t keep = *row < v->nrows ? v->rows[*row] : SIZE_MAX;
    ui_tview_sort(v);
    *row = 0;
    for (size_t i = 0; i < v->nrows; i++)
        if (v->rows[i] == keep)
            *row = i;
    ui_doc_scroll(st);
    if (v->sort_col < 0)
        ui_state_message(st, false, "in the analysis' order");
    else
        ui_state_message(st, false, "sorted by %s, %s", v->t->cols[v->sort_col].name,
                         v->sort_desc ? "descending" : "ascending");
    return UI_REDRAW;
}

unsigned ui_act_doc_sort(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = doc(st);

    (void)m;
    if (d->ntables == 0 || !d->tv[d->cur].t)
        return 0;
    struct ui_tview *v = &d->tv[d->cur];
    do   // the next column on screen (columns without values are not)
        v->sort_col = v->sort_col + 1 >= (int)v->t->ncols ? -1 : v->sort_col + 1;
    while (v->sort_col >= 0 && ui_tview_col_hidden(v, (size_t)v->sort_col));
    // Numbers read best largest first, names alphabetically.
    v->sort_desc = v->sort_col >= 0 && !text_column(v->t, v->sort_col);
    return sorted_message(st, v);
}

unsigned ui_act_doc_sort_reverse(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = doc(st);

    (void)m;
    if (d->ntables == 0 || !d->tv[d->cur].t)
        return 0;
    struct ui_tview *v = &d->tv[d->cur];
    if (v->sort_col < 0) {
        ui_state_message(st, true, "press s to choose a sort column first");
        return UI_REDRAW;
    }
    v->sort_desc = !v->sort_desc;
    return sorted_message(st, v);
}

unsigned ui_act_doc_export(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = doc(st);
    char path[1024];
    struct err e = {0, ""};

    (void)m;
    if (d->ntables == 0) {
        ui_state_message(st, true, "no table on screen to export");
        return UI_REDRAW;
    }
    if (ui_tview_export_csv(&d->tv[d->cur], st->export_dir, path, sizeof path, &e) != 0)
        ui_state_message(st, true, "export failed: %s", e.msg);
    else
        ui_state_message(st, false, "wrote %zu rows to %s", d->tv[d->cur].nrows, path);
    return UI_REDRAW;
}

static unsigned search_step(struct ui_state *st, int dir)
{
    struct ui_doc *d = doc(st);

    if (!d->search[0]) {
        ui_state_message(st, false, "/ starts a search");
        return UI_REDRAW;
    }
    for (size_t k = 0; k <= d->ntables; k++) {
        size_t t = dir > 0 ? (d->cur + k) % (d->ntables ? d->ntables : 1)
                           : (d->cur + d->ntables * 2 - k) % (d->ntables ? d->ntables : 1);
        const struct ui_tview *v = &d->tv[t];
        if (!v->t || v->nrows == 0)
            continue;
        size_t from = d->row[t];
        if (k == 0)
            from = dir > 0 ? from + 1 : from + v->nrows - 1;
        else
            from = dir > 0 ? 0 : v->nrows - 1;
        long hit = ui_tview_search(v, from % v->nrows, dir, d->search);
        if (hit >= 0) {
            d->cur = t;
            d->row[t] = (size_t)hit;
            ui_doc_scroll(st);
            return UI_REDRAW;
        }
    }
    ui_state_message(st, true, "no row contains \"%s\"", d->search);
    return UI_REDRAW;
}

unsigned ui_act_doc_search_next(struct ui_state *st, const struct model *m)
{
    (void)m;
    return search_step(st, 1);
}

unsigned ui_act_doc_search_prev(struct ui_state *st, const struct model *m)
{
    (void)m;
    return search_step(st, -1);
}

/* ---- Enter: a row's instances on the timeline ---- */

static int name_column(const struct table *t)
{
    static const char *prefer[] = {"name", "s_name", "kernel name", "s_user_annotation",
                                   "annotation", "pattern"};
    for (size_t i = 0; i < sizeof prefer / sizeof prefer[0]; i++) {
        int c = table_col_index(t, prefer[i]);
        if (c >= 0)
            return c;
    }
    for (size_t c = 0; c < t->ncols; c++)
        if (text_column(t, (int)c))
            return (int)c;
    return -1;
}

/* The name a row stands for: leading indentation dropped, and for a
 * kernel sequence pattern ("op|k1|k2") the operator. */
static void row_name(const struct table *t, size_t row, int col, char *out, size_t n)
{
    const struct cell *c = table_cell(t, row, (size_t)col);
    const char *s = c->type == CELL_STR && c->v.s ? c->v.s : "";

    while (*s == ' ')
        s++;
    size_t len = strlen(s);
    if (strcmp(t->cols[col].name, "pattern") == 0 && strchr(s, '|'))
        len = (size_t)(strchr(s, '|') - s);
    snprintf(out, n, "%.*s", (int)len, s);
}

unsigned ui_act_doc_enter(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = doc(st);
    char name[UI_TEXT_MAX];

    if (st->job && d->ntables == 0 && st->nitems)     // a view the summaries do not answer
        return ui_state_open_summary_rank(st, st->items[st->item < st->nitems ? st->item : 0].rank,
                                          NULL);
    if (d->ntables == 0 || d->tv[d->cur].nrows == 0)
        return 0;
    const struct ui_tview *v = &d->tv[d->cur];
    size_t row = v->rows[d->row[d->cur]];
    int nc = name_column(v->t), rc = table_col_index(v->t, "rank");
    if (nc < 0) {
        ui_state_message(st, true, "this table has no names to look for");
        return UI_REDRAW;
    }
    row_name(v->t, row, nc, name, sizeof name);
    const struct cell *rank = rc >= 0 ? table_cell(v->t, row, (size_t)rc) : NULL;
    int64_t rank_filter = rank && rank->type == CELL_INT ? rank->v.i : -1;
    size_t n = name[0] ? ui_find_instances(st, m, name, true, rank_filter) : 0;
    if (n == 0 && name[0])
        n = ui_find_instances(st, m, name, false, rank_filter);
    if (n == 0) {
        ui_state_message(st, true, "no instance of \"%s\" in the selection", name);
        return UI_REDRAW;
    }
    return ui_jumps_show(st, m, 0);
}

/* ---- Tab and Esc ---- */

unsigned ui_act_doc_focus_next(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = doc(st);

    (void)m;
    if (st->focus == UI_FOCUS_RANKS) {
        st->focus = UI_FOCUS_MAIN;
        d->cur = 0;
    } else if (d->cur + 1 < d->ntables) {
        d->cur++;
    } else if (st->layout.left.w > 0) {
        st->focus = UI_FOCUS_RANKS;
    } else {
        d->cur = 0;
    }
    ui_doc_scroll(st);
    return UI_REDRAW;
}

unsigned ui_act_doc_focus_prev(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = doc(st);

    (void)m;
    if (st->focus == UI_FOCUS_RANKS) {
        st->focus = UI_FOCUS_MAIN;
        d->cur = d->ntables ? d->ntables - 1 : 0;
    } else if (d->cur > 0) {
        d->cur--;
    } else if (st->layout.left.w > 0) {
        st->focus = UI_FOCUS_RANKS;
    } else {
        d->cur = d->ntables ? d->ntables - 1 : 0;
    }
    ui_doc_scroll(st);
    return UI_REDRAW;
}

bool ui_doc_escape(struct ui_state *st, const struct model *m)
{
    if (!doc(st)->filter[0] || st->focus != UI_FOCUS_MAIN)
        return false;
    ui_view_get(st, st->view)->prompt_apply(st, m, UI_PROMPT_FILTER, "");
    ui_state_message(st, false, "filter cleared");
    return true;
}

/* ---- prompt ---- */

const char *ui_doc_prompt_initial(const struct ui_state *st, enum ui_prompt p)
{
    const struct ui_doc *d = &st->docs[st->view];
    return p == UI_PROMPT_SEARCH ? d->search : d->filter;
}

unsigned ui_doc_prompt_apply(struct ui_state *st, const struct model *m, enum ui_prompt p,
                             const char *text)
{
    struct ui_doc *d = doc(st);

    (void)m;
    if (p == UI_PROMPT_SEARCH) {
        snprintf(d->search, sizeof d->search, "%s", text);
        if (d->ntables && d->tv[d->cur].nrows)
            d->row[d->cur] = d->row[d->cur] ? d->row[d->cur] - 1 : d->tv[d->cur].nrows - 1;
        return search_step(st, 1);
    }
    snprintf(d->filter, sizeof d->filter, "%s", text);
    if (ui_doc_rebuild_views(st, d) != 0) {
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    size_t rows = 0;
    for (size_t t = 0; t < d->ntables; t++) {
        rows += d->tv[t].nrows;
        d->row[t] = 0;
    }
    d->top = 0;
    ui_doc_scroll(st);
    if (d->filter[0])
        ui_state_message(st, false, "%zu rows contain \"%s\" (Esc clears)", rows, d->filter);
    return UI_REDRAW;
}
