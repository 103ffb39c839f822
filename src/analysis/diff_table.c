#include "config.h"
#include "analysis/diff.h"

#include <math.h>
#include <string.h>

/* The tables of the diff (spec §3.10): HTA's compare_traces columns and
 * dtypes under --semantics=hta, plus mean durations per call under htx. */

#define NUM_HTA_COLS 7
#define NUM_MEAN_COLS 3

static const struct table_col hta_cols[NUM_HTA_COLS] = {
    {"Control_counts", NULL, 0},
    {"Control_total_duration", "us", 0},
    {"Test_counts", NULL, 0},
    {"Test_total_duration", "us", 0},
    {"diff_counts", NULL, 0},
    {"diff_duration", "us", 0},
    {"counts_change_categories", NULL, 0},
};

static const struct table_col mean_cols[NUM_MEAN_COLS] = {
    {"Control_mean_duration", "us", 0},
    {"Test_mean_duration", "us", 0},
    {"diff_mean_duration", "us", 0},
};

/* Builds the column list: `lead` key columns, the name, HTA's seven, and the
 * means unless hta_types. */
static struct table *new_table(const char *name, const char *title,
                               const struct table_col *lead, size_t nlead,
                               const struct diff_table_opts *o, struct arena *a)
{
    struct table_col cols[2 + 1 + NUM_HTA_COLS + NUM_MEAN_COLS];
    size_t n = 0;
    for (size_t i = 0; i < nlead && i < 2; i++)
        cols[n++] = lead[i];
    cols[n++] = (struct table_col){o->short_names ? "short_name" : "name", NULL, COL_KEY};
    for (size_t i = 0; i < NUM_HTA_COLS; i++)
        cols[n++] = hta_cols[i];
    if (!o->hta_types)
        for (size_t i = 0; i < NUM_MEAN_COLS; i++)
            cols[n++] = mean_cols[i];
    return table_new(a, name, title, cols, n);
}

static double us(int64_t ns)
{
    return (double)ns / 1000.0;
}

/* A count or a duration in µs, typed like HTA's DataFrame column: integers
 * while both sides have the same keys (and whole µs), floats otherwise. */
static struct cell hta_count(int64_t v, bool floats)
{
    return floats ? cell_double((double)v) : cell_int(v);
}

static struct cell hta_duration(int64_t ns, bool floats, bool whole_us)
{
    return floats || !whole_us ? cell_double(us(ns)) : cell_int(ns / 1000);
}

static struct cell mean_us(int64_t dur_ns, int64_t count)
{
    return count > 0 ? cell_double(us(dur_ns) / (double)count) : cell_null();
}

static const char *change_sign(int64_t diff)
{
    return diff > 0 ? "+" : diff < 0 ? "-" : "=";
}

/* Fills cells[0..) of one row from r's row i. */
static void fill_row(struct table *t, struct cell *cells, const struct diff_result *r,
                     size_t i, const struct diff_table_opts *o)
{
    const struct diff_row *row = &r->rows[i];
    bool floats = o->hta_types && !r->same_keys;
    bool whole = o->hta_types ? r->whole_us : false;
    int64_t dcount = row->test_count - row->control_count;
    cells[0] = cell_str(t, row->name);
    cells[1] = hta_count(row->control_count, floats);
    cells[2] = hta_duration(row->control_dur_ns, floats, whole);
    cells[3] = hta_count(row->test_count, floats);
    cells[4] = hta_duration(row->test_dur_ns, floats, whole);
    cells[5] = hta_count(dcount, floats);
    cells[6] = hta_duration(row->test_dur_ns - row->control_dur_ns, floats, whole);
    cells[7] = cell_str(t, change_sign(dcount));
    if (o->hta_types)
        return;
    cells[8] = mean_us(row->control_dur_ns, row->control_count);
    cells[9] = mean_us(row->test_dur_ns, row->test_count);
    cells[10] = row->control_count > 0 && row->test_count > 0
                    ? cell_double(us(row->test_dur_ns) / (double)row->test_count -
                                  us(row->control_dur_ns) / (double)row->control_count)
                    : cell_null();
}

struct table *diff_compare_traces_table(const struct diff_result *r,
                                        const struct diff_table_opts *o, struct arena *a)
{
    struct table *t = new_table("compare_traces", "Trace diff: control vs test", NULL, 0, o, a);
    if (!t)
        return NULL;
    for (size_t i = 0; i < r->nrows; i++) {
        struct cell *cells = table_add_row(t);
        if (!cells)
            return NULL;
        fill_row(t, cells, r, i, o);
    }
    if (r->nrows == 0)
        table_set_note(t, "no events selected on either side");
    return t;
}

static const struct table_col rank_cols[2] = {
    {"control_rank", NULL, COL_KEY},
    {"test_rank", NULL, COL_KEY},
};

struct table *diff_by_rank_table_new(const struct diff_table_opts *o, struct arena *a)
{
    return new_table("compare_traces_by_rank", "Trace diff per rank pair", rank_cols, 2, o, a);
}

int diff_by_rank_table_add(struct table *t, int64_t control_rank, int64_t test_rank,
                           const struct diff_result *r, const struct diff_table_opts *o)
{
    for (size_t i = 0; i < r->nrows; i++) {
        struct cell *cells = table_add_row(t);
        if (!cells)
            return ERR_NOMEM;
        cells[0] = cell_int(control_rank);
        cells[1] = cell_int(test_rank);
        fill_row(t, cells + 2, r, i, o);
    }
    return 0;
}

struct table *diff_ops_diff_table(const struct diff_result *r, struct arena *a)
{
    static const struct table_col cols[2] = {
        {"change", NULL, COL_KEY},
        {"name", NULL, COL_KEY},
    };
    struct table *t = table_new(a, "ops_diff", "Ops added, deleted, increased, decreased, unchanged",
                                cols, 2);
    if (!t)
        return NULL;
    for (int c = 0; c < DIFF_CHANGE_COUNT; c++) {
        for (size_t i = 0; i < r->nrows; i++) {
            if (r->rows[i].change != (enum diff_change)c)
                continue;
            struct cell *cells = table_add_row(t);
            if (!cells)
                return NULL;
            cells[0] = cell_str(t, diff_change_name((enum diff_change)c));
            cells[1] = cell_str(t, r->rows[i].name);
        }
    }
    return t;
}

struct table *diff_regressions_table(const struct diff_regression *r, size_t n,
                                     struct arena *a)
{
    static const struct table_col cols[5] = {
        {"kind", NULL, COL_KEY},
        {"name", NULL, COL_KEY},
        {"Control_total_duration", "us", 0},
        {"Test_total_duration", "us", 0},
        {"growth", "%", 0},
    };
    struct table *t = table_new(a, "regressions", "Regressions beyond the threshold", cols, 5);
    if (!t)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        struct cell *cells = table_add_row(t);
        if (!cells)
            return NULL;
        cells[0] = cell_str(t, r[i].is_total ? "total" : "kernel");
        cells[1] = cell_str(t, r[i].name);
        cells[2] = cell_double(us(r[i].control_ns));
        cells[3] = cell_double(us(r[i].test_ns));
        cells[4] = isinf(r[i].growth_pct) ? cell_null() : cell_double(r[i].growth_pct);
    }
    if (n == 0)
        table_set_note(t, "nothing grew beyond the threshold");
    return t;
}
