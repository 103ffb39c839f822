#include "config.h"
#include "analysis/kernel_summary.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* The row name topn.c gives the aggregate of the small kernels. */
static const char OTHERS[] = "others";

struct bd_cols {
    int name, type, sum, rank;
};

static bool find_cols(const struct table *t, struct bd_cols *c)
{
    c->name = table_col_index(t, "name");
    c->type = table_col_index(t, "kernel_type");
    c->sum = table_col_index(t, "sum (us)");
    c->rank = table_col_index(t, "rank");
    return c->name >= 0 && c->type >= 0 && c->sum >= 0 && c->rank >= 0;
}

static const char *str_at(const struct table *t, size_t row, int col)
{
    const struct cell *c = table_cell(t, row, (size_t)col);
    return c->type == CELL_STR && c->v.s ? c->v.s : "";
}

static double num_at(const struct table *t, size_t row, int col)
{
    double v = cell_as_double(table_cell(t, row, (size_t)col));
    return isnan(v) ? 0.0 : v;
}

static int64_t int_at(const struct table *t, size_t row, int col)
{
    const struct cell *c = table_cell(t, row, (size_t)col);
    return c->type == CELL_INT ? c->v.i : (int64_t)num_at(t, row, col);
}

/* "others" after every named kernel, then time descending, then name, then
 * a tie key (rank); returns <0 when a goes first. */
static int triage_cmp(const char *an, double as, int64_t ak, const char *bn, double bs,
                      int64_t bk)
{
    bool ao = strcmp(an, OTHERS) == 0, bo = strcmp(bn, OTHERS) == 0;
    if (ao != bo)
        return ao ? 1 : -1;
    if (as != bs)
        return as > bs ? -1 : 1;
    int d = strcmp(an, bn);
    return d ? d : (ak > bk) - (ak < bk);
}

/* ---- sorting kernel_breakdown in place ------------------------------------ */

/* A row's sort keys, copied out so that qsort needs no context. */
struct row_key {
    const char *name, *type;
    double sum;
    int64_t rank;
    size_t row;
};

static int cmp_row_keys(const void *a, const void *b)
{
    const struct row_key *x = a, *y = b;
    int d = triage_cmp(x->name, x->sum, x->rank, y->name, y->sum, y->rank);
    if (d == 0)
        d = strcmp(x->type, y->type);
    return d ? d : (x->row > y->row) - (x->row < y->row);
}

int kernel_breakdown_sort_by_time(struct table *t)
{
    struct bd_cols c;
    if (!t || t->nrows < 2 || strcmp(t->name, "kernel_breakdown") != 0 || !find_cols(t, &c))
        return 0;
    struct row_key *keys = malloc(t->nrows * sizeof *keys);
    struct cell *cells = malloc(t->nrows * t->ncols * sizeof *cells);
    if (!keys || !cells) {
        free(keys);
        free(cells);
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < t->nrows; i++)
        keys[i] = (struct row_key){str_at(t, i, c.name), str_at(t, i, c.type),
                                   num_at(t, i, c.sum), int_at(t, i, c.rank), i};
    qsort(keys, t->nrows, sizeof *keys, cmp_row_keys);
    for (size_t i = 0; i < t->nrows; i++)
        memcpy(&cells[i * t->ncols], table_cell(t, keys[i].row, 0), t->ncols * sizeof *cells);
    memcpy(t->cells, cells, t->nrows * t->ncols * sizeof *cells);
    free(keys);
    free(cells);
    return 0;
}

/* ---- the summary ----------------------------------------------------------- */

struct kagg {
    const char *name, *type;
    double sum, min, max;
    size_t ranks;
    int64_t slowest_rank;
    double slowest;
};

static int cmp_kagg(const void *a, const void *b)
{
    const struct kagg *x = a, *y = b;
    int d = triage_cmp(x->name, x->sum, 0, y->name, y->sum, 0);
    return d ? d : strcmp(x->type, y->type);
}

static const struct table_col summary_cols[] = {
    {"name", NULL, COL_KEY},
    {"kernel_type", NULL, COL_KEY},
    {"sum (us)", "us", 0},
    {"percentage (%)", "%", COL_PERCENT},
    {"ranks", NULL, 0},
    {"rank min (us)", "us", 0},
    {"rank mean (us)", "us", 0},
    {"rank max (us)", "us", 0},
    {"slowest rank", NULL, COL_KEY},
};

/* Sums breakdown's rows into one kagg per (name, type); *n of them. */
static int aggregate(const struct table *t, const struct bd_cols *c, struct kagg *k, size_t *n)
{
    *n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        const char *name = str_at(t, r, c->name), *type = str_at(t, r, c->type);
        double v = num_at(t, r, c->sum);
        int64_t rank = int_at(t, r, c->rank);
        size_t i = 0;
        /* a top-N table: tens of rows per rank, so a linear search will do */
        while (i < *n && (strcmp(k[i].name, name) != 0 || strcmp(k[i].type, type) != 0))
            i++;
        if (i == *n)
            k[(*n)++] = (struct kagg){name, type, 0, INFINITY, -INFINITY, 0, rank, -INFINITY};
        k[i].sum += v;
        k[i].ranks++;
        k[i].min = fmin(k[i].min, v);
        k[i].max = fmax(k[i].max, v);
        if (v > k[i].slowest || (v == k[i].slowest && rank < k[i].slowest_rank)) {
            k[i].slowest = v;
            k[i].slowest_rank = rank;
        }
    }
    return 0;
}

int kernel_summary_table(const struct table *t, struct arena *a, struct table **out)
{
    *out = NULL;
    struct bd_cols c;
    if (!t || strcmp(t->name, "kernel_breakdown") != 0 || !find_cols(t, &c))
        return 0;
    struct table *s = table_new(a, "kernel_summary", "Kernels across ranks (by total time)",
                                summary_cols, sizeof summary_cols / sizeof summary_cols[0]);
    struct kagg *k = malloc((t->nrows ? t->nrows : 1) * sizeof *k);
    if (!s || !k) {
        free(k);
        return ERR_NOMEM;
    }
    size_t n = 0;
    aggregate(t, &c, k, &n);
    qsort(k, n, sizeof *k, cmp_kagg);
    double total = 0;
    for (size_t i = 0; i < n; i++)
        total += k[i].sum;
    for (size_t i = 0; i < n; i++) {
        struct cell *row = table_add_row(s);
        if (!row) {
            free(k);
            return ERR_NOMEM;
        }
        row[0] = cell_str(s, k[i].name);
        row[1] = cell_str(s, k[i].type);
        row[2] = cell_double(k[i].sum);
        /* one decimal, as the kernel type breakdown */
        row[3] = cell_double(total > 0 ? round(1000.0 * k[i].sum / total) / 10.0 : 0.0);
        row[4] = cell_int((int64_t)k[i].ranks);
        row[5] = cell_double(k[i].min);
        row[6] = cell_double(k[i].sum / (double)k[i].ranks);
        row[7] = cell_double(k[i].max);
        row[8] = cell_int(k[i].slowest_rank);
    }
    free(k);
    if (t->nrows == 0 && t->note)
        table_set_note(s, "%s", t->note);
    *out = s;
    return 0;
}

size_t kernel_summary_rank_rows(const struct table *t, const struct table *summary, size_t srow,
                                size_t *rows, size_t cap)
{
    struct bd_cols c;
    int sn = table_col_index(summary, "name"), st = table_col_index(summary, "kernel_type");
    if (!t || !find_cols(t, &c) || sn < 0 || st < 0 || srow >= summary->nrows)
        return 0;
    const char *name = str_at(summary, srow, sn), *type = str_at(summary, srow, st);
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        if (strcmp(str_at(t, r, c.name), name) != 0 || strcmp(str_at(t, r, c.type), type) != 0)
            continue;
        /* insertion into the slowest-first prefix that fits in rows */
        size_t at = n < cap ? n : cap;
        double v = num_at(t, r, c.sum);
        while (at > 0 && num_at(t, rows[at - 1], c.sum) < v)
            at--;
        if (at < cap) {
            size_t last = n < cap ? n : cap - 1;
            memmove(&rows[at + 1], &rows[at], (last - at) * sizeof *rows);
            rows[at] = r;
        }
        n++;
    }
    return n;
}
