#include "config.h"
#include "ui/widgets/tables.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/format.h"
#include "app/name_fit.h"
#include "ui/widgets/text.h"
#include "util/outfile.h"

#define WIDTH_SAMPLE_ROWS 5000  /* widths from the first rows: bounded cost */
#define WIDTH_CAP_TEXT 60
#define WIDTH_CAP_NUMBER 18

/* Does row `row` of t contain needle in any cell (case-insensitive)? */
static bool ui_row_contains(const struct table *t, size_t row, const char *needle)
{
    char buf[64];

    if (!needle[0])
        return true;
    for (size_t c = 0; c < t->ncols; c++) {
        const struct cell *cell = table_cell(t, row, c);
        const char *text = buf;
        if (cell->type == CELL_STR)
            text = cell->v.s ? cell->v.s : "";
        else
            format_cell(cell, &FORMAT_CELL_VIEW, buf, sizeof buf);
        if (ui_text_contains(text, needle))
            return true;
    }
    return false;
}

static bool missing(const struct cell *c)
{
    return c->type == CELL_NULL || (c->type == CELL_DOUBLE && isnan(c->v.d));
}

/* Orders two present cells: numbers before strings. */
static int compare_values(const struct cell *a, const struct cell *b)
{
    bool as = a->type == CELL_STR, bs = b->type == CELL_STR;

    if (as != bs)
        return as ? 1 : -1;
    if (as)
        return strcmp(a->v.s ? a->v.s : "", b->v.s ? b->v.s : "");
    if (a->type == CELL_INT && b->type == CELL_INT)
        return (a->v.i > b->v.i) - (a->v.i < b->v.i);
    double x = cell_as_double(a), y = cell_as_double(b);
    if (a->type == CELL_BOOL)
        x = a->v.b;
    if (b->type == CELL_BOOL)
        y = b->v.b;
    return (x > y) - (x < y);
}

struct sort_ctx {
    const struct table *t;
    size_t col;
    bool desc;
};

static int compare_rows(const void *pa, const void *pb, void *arg)
{
    const struct sort_ctx *s = arg;
    size_t ra = *(const size_t *)pa, rb = *(const size_t *)pb;
    const struct cell *a = table_cell(s->t, ra, s->col), *b = table_cell(s->t, rb, s->col);
    bool ma = missing(a), mb = missing(b);
    int r;

    if (ma || mb)
        r = ma && mb ? 0 : (ma ? 1 : -1);  // empty cells last in both directions
    else
        r = s->desc ? -compare_values(a, b) : compare_values(a, b);
    if (r == 0)
        r = (ra > rb) - (ra < rb);  // stable: ties keep the analysis' order
    return r;
}

static int compare_index(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    return (a > b) - (a < b);
}

void ui_tview_sort(struct ui_tview *v)
{
    if (!v->t || v->nrows < 2)
        return;
    if (v->sort_col < 0 || (size_t)v->sort_col >= v->t->ncols) {
        qsort(v->rows, v->nrows, sizeof *v->rows, compare_index);  // the analysis' order
        return;
    }
    struct sort_ctx s = {v->t, (size_t)v->sort_col, v->sort_desc};
    qsort_r(v->rows, v->nrows, sizeof *v->rows, compare_rows, &s);
}

int ui_tview_name_col(const struct table *t)
{
    static const char *const names[] = {"name", "kernel name", "kernel_name", "s_name",
                                        "collective"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int c = table_col_index(t, names[i]);
        if (c >= 0)
            return c;
    }
    return -1;
}

static void free_fitted(struct ui_tview *v)
{
    for (size_t i = 0; v->fitted && i < v->nfitted; i++)
        free(v->fitted[i]);
    free(v->fitted);
    v->fitted = NULL;
    v->nfitted = 0;
    v->fit_width = 0;
}

int ui_tview_fit_names(struct ui_tview *v, int width)
{
    int c = v->t ? ui_tview_name_col(v->t) : -1;
    if (c < 0 || width <= 0 || v->t->nrows > UI_FIT_MAX_ROWS ||
        (v->fitted && v->fit_width == width))
        return 0;
    free_fitted(v);
    const struct table *t = v->t;
    const char **names = malloc((t->nrows ? t->nrows : 1) * sizeof *names);
    char **out = calloc(t->nrows ? t->nrows : 1, sizeof *out);
    if (!names || !out) {
        free(names);
        free(out);
        return ERR_NOMEM;
    }
    for (size_t r = 0; r < t->nrows; r++) {
        const struct cell *cell = table_cell(t, r, (size_t)c);
        names[r] = cell->type == CELL_STR && cell->v.s ? cell->v.s : "";
    }
    int rc = names_fit(names, t->nrows, (size_t)width, out);
    free(names);
    if (rc) {
        free(out);
        return rc;
    }
    v->fitted = out;
    v->nfitted = t->nrows;
    v->fit_width = width;
    return 0;
}

void ui_tview_header(const struct table *t, size_t c, char *buf, size_t n)
{
    const struct table_col *col = &t->cols[c];
    // HTA's names say the unit for some columns ("sum (us)") and not others.
    if (col->unit && col->unit[0] && !strchr(col->name, '('))
        snprintf(buf, n, "%s (%s)", col->name, col->unit);
    else
        snprintf(buf, n, "%s", col->name);
}

/* One format per column: whole numbers when every sampled value is one,
 * else two decimals, or four when a value is too small to show in two. */
static int column_decimals(const struct ui_tview *v, size_t c)
{
    int decimals = 0;
    for (size_t i = 0; i < v->nrows && i < WIDTH_SAMPLE_ROWS; i++) {
        const struct cell *cell = table_cell(v->t, v->rows[i], c);
        if (cell->type != CELL_DOUBLE || !isfinite(cell->v.d))
            continue;
        double d = fabs(cell->v.d);
        if (d != 0 && d < 0.005)
            return 4;
        if (d < 1e15 && d != rint(d))
            decimals = 2;
    }
    return decimals;
}

void ui_tview_cell_text(const struct ui_tview *v, size_t row, size_t c, char *buf, size_t n)
{
    const struct cell *cell = table_cell(v->t, row, c);
    struct cell_style style = FORMAT_CELL_VIEW;
    if (v->decimals)
        style.decimals = v->decimals[c];
    format_cell(cell, &style, buf, n);
}

static void measure(struct ui_tview *v)
{
    const struct table *t = v->t;
    char buf[256];

    for (size_t c = 0; c < t->ncols; c++) {
        v->decimals[c] = column_decimals(v, c);
        ui_tview_header(t, c, buf, sizeof buf);
        // + 1: room for the sort mark after the name
        int head = ui_text_width(buf, strlen(buf), false) + 1, w = 0;
        bool text = false;
        for (size_t i = 0; i < v->nrows && i < WIDTH_SAMPLE_ROWS; i++) {
            const struct cell *cell = table_cell(t, v->rows[i], c);
            const char *s = buf;
            if (cell->type == CELL_STR) {
                s = cell->v.s ? cell->v.s : "";
                text = true;
            } else {
                ui_tview_cell_text(v, v->rows[i], c, buf, sizeof buf);
            }
            int cw = ui_text_width(s, strlen(s), false);
            if (cw > w)
                w = cw;
        }
        int cap = text ? WIDTH_CAP_TEXT : WIDTH_CAP_NUMBER;
        v->content_widths[c] = w;   // uncapped: a name column may grow to it
        w = w > cap ? cap : w;
        // The header gets its width when there is room (ui/document_draw.c fits the columns).
        v->widths[c] = w > head ? w : head;
    }
}

static bool no_value(const struct cell *c)
{
    return missing(c) || (c->type == CELL_STR && (!c->v.s || !c->v.s[0]));
}

/* Which columns have no value in any row of the table (all of them are
 * kept when it has no row: its header says what it would hold). */
static void find_empty(struct ui_tview *v)
{
    const struct table *t = v->t;
    for (size_t c = 0; c < t->ncols; c++) {
        bool empty = t->nrows > 0;
        for (size_t r = 0; r < t->nrows && empty; r++)
            empty = no_value(table_cell(t, r, c));
        v->empty[c] = empty;
    }
}

bool ui_tview_col_hidden(const struct ui_tview *v, size_t c)
{
    return v->empty && v->t && c < v->t->ncols && v->empty[c];
}

static int find_col(const struct table *t, const char *name)
{
    return t ? table_col_index(t, name) : -1;
}

static bool row_hidden(const struct table *t, size_t row, int rank_col, int stream_col,
                       const struct ui_row_filter *rf)
{
    if (rf && rf->hidden_row && rf->hidden_row(rf->ctx, row))
        return true;
    if (!rf || !rf->hidden || stream_col < 0)
        return false;
    const struct cell *s = table_cell(t, row, (size_t)stream_col);
    if (s->type != CELL_INT)
        return false;
    int64_t rank = -1;
    if (rank_col >= 0 && table_cell(t, row, (size_t)rank_col)->type == CELL_INT)
        rank = table_cell(t, row, (size_t)rank_col)->v.i;
    return rf->hidden(rf->ctx, rank, s->v.i);
}

int ui_tview_build(struct ui_tview *v, const struct table *t, const char *filter,
                   const struct ui_row_filter *rf)
{
    size_t *rows = malloc((t->nrows ? t->nrows : 1) * sizeof *rows);
    size_t nc = t->ncols ? t->ncols : 1;
    int *widths = malloc(nc * sizeof *widths), *content = malloc(nc * sizeof *content);
    int *decimals = malloc(nc * sizeof *decimals);
    bool *empty = malloc(nc * sizeof *empty);
    int rank_col = find_col(t, "rank"), stream_col = find_col(t, "stream");

    if (!rows || !widths || !content || !decimals || !empty) {
        free(rows);
        free(widths);
        free(content);
        free(decimals);
        free(empty);
        return ERR_NOMEM;
    }
    free_fitted(v);
    free(v->rows);
    free(v->widths);
    free(v->content_widths);
    free(v->decimals);
    free(v->empty);
    v->t = t;
    v->rows = rows;
    v->widths = widths;
    v->content_widths = content;
    v->decimals = decimals;
    v->empty = empty;
    find_empty(v);
    v->nrows = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (!row_hidden(t, r, rank_col, stream_col, rf) && ui_row_contains(t, r, filter))
            v->rows[v->nrows++] = r;
    ui_tview_sort(v);
    measure(v);
    return 0;
}

void ui_tview_fini(struct ui_tview *v)
{
    free_fitted(v);
    free(v->rows);
    free(v->widths);
    free(v->content_widths);
    free(v->decimals);
    free(v->empty);
    v->empty = NULL;
    v->rows = NULL;
    v->widths = NULL;
    v->content_widths = NULL;
    v->decimals = NULL;
    v->nrows = 0;
    v->t = NULL;
}

long ui_tview_search(const struct ui_tview *v, size_t from, int dir, const char *needle)
{
    if (!v->t || v->nrows == 0 || !needle[0])
        return -1;
    for (size_t k = 0; k < v->nrows; k++) {
        size_t i = dir >= 0 ? (from + k) % v->nrows : (from + v->nrows - k % v->nrows) % v->nrows;
        if (ui_row_contains(v->t, v->rows[i], needle))
            return (long)i;
    }
    return -1;
}

/* Starts dir/htx-<name>[-N].csv through the one output writer: the first
 * name that does not exist yet, so nothing is ever overwritten. */
static int create_new(const char *dir, const char *name, char *path, size_t n,
                      struct outfile *o, struct err *e)
{
    for (int k = 0; k < 1000; k++) {
        if (k == 0)
            snprintf(path, n, "%s/htx-%s.csv", dir, name);
        else
            snprintf(path, n, "%s/htx-%s-%d.csv", dir, name, k);
        int rc = outfile_begin(o, path, false, NULL, 0, e);
        if (rc == 0 || !o->existed)
            return rc;
    }
    return err_set(e, ERR_IO, "%s/htx-%s-*.csv: too many files already", dir, name);
}

int ui_tview_export_csv(const struct ui_tview *v, const char *dir, char *path, size_t n,
                        struct err *e)
{
    struct table copy;
    struct format_opts fo;

    if (!v->t)
        return err_set(e, ERR_EMPTY, "no table on screen");
    copy = *v->t;
    copy.nrows = v->nrows;
    copy.cells = malloc((v->nrows ? v->nrows : 1) * (v->t->ncols ? v->t->ncols : 1) *
                        sizeof *copy.cells);
    if (!copy.cells)
        return err_set(e, ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < v->nrows; i++)
        memcpy(&copy.cells[i * copy.ncols], table_cell(v->t, v->rows[i], 0),
               copy.ncols * sizeof *copy.cells);
    struct outfile out;
    int rc = create_new(dir, v->t->name ? v->t->name : "table", path, n, &out, e);
    FILE *f = rc ? NULL : outfile_stream(&out, e);
    if (!f) {
        if (!rc)
            outfile_abort(&out);
        free(copy.cells);
        return e->code ? e->code : ERR_IO;
    }
    format_opts_default(&fo);
    rc = format_table_csv(f, &copy, &fo);
    free(copy.cells);
    if (rc != 0) {
        outfile_abort(&out);
        err_set(e, ERR_IO, "%s: cannot write", path);
    } else {
        rc = outfile_commit(&out, e);
    }
    return rc;
}
