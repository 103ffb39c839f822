#include "config.h"
#include "analysis/diff_triage.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

static double num(const struct table *t, size_t row, int col)
{
    return col < 0 ? NAN : cell_as_double(table_cell(t, row, (size_t)col));
}

static const char *time_marker(double pct)
{
    if (isnan(pct))
        return NULL;
    if (pct > DIFF_TIME_CHANGE_PCT)
        return "slower";
    if (pct < -DIFF_TIME_CHANGE_PCT)
        return "faster";
    return "=";
}

struct table *diff_triage_table(const struct table *t, struct arena *a)
{
    int cm = table_col_index(t, "Control_mean_duration");
    int tm = table_col_index(t, "Test_mean_duration");
    if (cm < 0 || tm < 0)
        return NULL;
    struct table_col *cols = arena_alloc(a, (t->ncols + 2) * sizeof *cols);
    if (!cols)
        return NULL;
    memcpy(cols, t->cols, t->ncols * sizeof *cols);
    cols[t->ncols] = (struct table_col){"diff_mean_change", "%", 0};
    cols[t->ncols + 1] = (struct table_col){"time_change_categories", NULL, 0};
    struct table *out = table_new(a, t->name, t->title, cols, t->ncols + 2);
    if (!out)
        return NULL;
    for (size_t r = 0; r < t->nrows; r++) {
        struct cell *row = table_add_row(out);
        if (!row)
            return NULL;
        for (size_t c = 0; c < t->ncols; c++) {
            const struct cell *src = table_cell(t, r, c);
            row[c] = src->type == CELL_STR ? cell_str(out, src->v.s) : *src;
        }
        double before = num(t, r, cm), after = num(t, r, tm);
        double pct = before > 0 && !isnan(after) ? 100.0 * (after / before - 1.0) : NAN;
        /* one decimal is what a reader compares */
        row[t->ncols] = isnan(pct) ? cell_null() : cell_double(round(pct * 10.0) / 10.0);
        const char *m = time_marker(pct);
        row[t->ncols + 1] = m ? cell_str(out, m) : cell_null();
    }
    if (t->nrows == 0 && t->note)
        table_set_note(out, "%s", t->note);
    else
        table_set_note(out, "%s", DIFF_MARKER_LEGEND);
    return out;
}

struct delta_key {
    double abs_delta;
    size_t row;
};

static int cmp_delta(const void *a, const void *b)
{
    const struct delta_key *x = a, *y = b;
    if (x->abs_delta != y->abs_delta)
        return x->abs_delta > y->abs_delta ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

int diff_sort_by_delta(struct table *t, size_t top)
{
    int dc = table_col_index(t, "diff_duration");
    if (dc < 0 || t->nrows == 0)
        return 0;
    struct delta_key *k = malloc(t->nrows * sizeof *k);
    struct cell *cells = malloc(t->nrows * t->ncols * sizeof *cells);
    if (!k || !cells) {
        free(k);
        free(cells);
        return ERR_NOMEM;
    }
    for (size_t r = 0; r < t->nrows; r++) {
        double d = fabs(num(t, r, dc));
        k[r] = (struct delta_key){isnan(d) ? -1.0 : d, r};
    }
    qsort(k, t->nrows, sizeof *k, cmp_delta);
    for (size_t r = 0; r < t->nrows; r++)
        memcpy(&cells[r * t->ncols], table_cell(t, k[r].row, 0), t->ncols * sizeof *cells);
    memcpy(t->cells, cells, t->nrows * t->ncols * sizeof *cells);
    if (top > 0 && top < t->nrows)
        t->nrows = top;
    free(k);
    free(cells);
    return 0;
}
