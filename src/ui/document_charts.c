#include "config.h"
#include "ui/document.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Helpers for the charts a table view draws above its tables: columns are
 * looked up by HTA's names, so a missing column just leaves a chart out. */

struct table *ui_doc_find_table(const struct ui_doc *d, const char *name)
{
    for (size_t t = 0; t < d->ntables; t++)
        if (strcmp(d->tables[t]->name, name) == 0)
            return d->tables[t];
    return NULL;
}

double ui_doc_num(const struct table *t, size_t row, int col)
{
    return col < 0 ? NAN : cell_as_double(table_cell(t, row, (size_t)col));
}

const char *ui_doc_rank_label(struct ui_doc *d, const struct table *t, size_t row, int rank_col,
                              int stream_col)
{
    char buf[64];
    double r = ui_doc_num(t, row, rank_col), s = ui_doc_num(t, row, stream_col);

    if (stream_col >= 0)
        snprintf(buf, sizeof buf, "r%.0f s%.0f", r, s);
    else
        snprintf(buf, sizeof buf, "rank %.0f", r);
    return arena_strndup(&d->arena, buf, strlen(buf));
}

static int cmp_bar(const void *a, const void *b)
{
    const struct ui_chart_row *x = a, *y = b;
    return (x->v[0] < y->v[0]) - (x->v[0] > y->v[0]);
}

#define BARS_MAX 12
#define BARS_LABELS 256

int ui_doc_bars(struct ui_doc *d, const char *table, const char *label_col,
                const char *value_col, const char *title, double max, const char *unit,
                bool by_value)
{
    struct table *t = ui_doc_find_table(d, table);
    if (!t || t->nrows == 0)
        return 0;
    int lc = table_col_index(t, label_col), vc = table_col_index(t, value_col);
    int rc = table_col_index(t, "rank");
    if (vc < 0)
        return 0;
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_BARS, title, BARS_LABELS);
    if (!c)
        return ERR_NOMEM;
    c->max = max;
    c->unit = unit;
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        const struct cell *l = lc >= 0 ? table_cell(t, r, (size_t)lc) : NULL;
        const char *label = l && l->type == CELL_STR && l->v.s
                                ? l->v.s
                                : ui_doc_rank_label(d, t, r, lc >= 0 ? lc : rc, -1);
        double v = ui_doc_num(t, r, vc);
        size_t k = 0;
        if (!label[0])
            label = "(none)";
        while (k < n && strcmp(c->rows[k].label, label) != 0)
            k++;
        if (k == n && n == BARS_LABELS)
            continue;
        if (k == n)
            c->rows[n++].label = label;
        c->rows[k].v[0] += isfinite(v) ? v : 0;
    }
    if (by_value)
        qsort(c->rows, n, sizeof *c->rows, cmp_bar);
    c->nrows = n > BARS_MAX ? BARS_MAX : n;
    return 0;
}

