#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/series.h"
#include "ui/views/annotation_tree.h"
#include "ui/views/kernels.h"
#include "ui/views/launch.h"
#include "ui/views/docs.h"
#include "ui/views/ranks.h"
#include "ui/widgets/text.h"

/* What each analysis view adds to its tables: a chart drawn with block
 * characters and, where a table alone does not answer the question, a
 * table derived from the analysis' own (never a second computation of an
 * HTA number). Columns are looked up by HTA's names, so a missing column
 * just leaves a chart out. */

static struct table *find_table(const struct ui_doc *d, const char *name)
{
    for (size_t t = 0; t < d->ntables; t++)
        if (strcmp(d->tables[t]->name, name) == 0)
            return d->tables[t];
    return NULL;
}

static double num(const struct table *t, size_t row, int col)
{
    return col < 0 ? NAN : cell_as_double(table_cell(t, row, (size_t)col));
}

static const char *rank_label(struct ui_doc *d, const struct table *t, size_t row, int rank_col,
                              int stream_col)
{
    char buf[64];
    double r = num(t, row, rank_col), s = num(t, row, stream_col);

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

static int overview(struct ui_doc *d)
{
    struct table *t = find_table(d, "temporal_breakdown");
    if (!t || t->nrows == 0)
        return 0;
    int rc = table_col_index(t, "rank");
    int cols[3] = {table_col_index(t, "idle_time_pctg"), table_col_index(t, "compute_time_pctg"),
                   table_col_index(t, "non_compute_time_pctg")};
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_STACKED, "Time per rank (%)", t->nrows);
    if (!c)
        return ERR_NOMEM;
    // Busy time first and idle last, drawn lightest, so the bars read left to right.
    static const int order[3] = {1, 2, 0};
    static const char *names[3] = {"idle", "compute", "non-compute"};
    static const uint8_t looks[3] = {0, 1, 3};
    for (int k = 0; k < 3; k++) {
        c->series[k] = names[order[k]];
        c->look[k] = looks[k];
    }
    c->nseries = 3;
    c->max = 100;
    c->unit = "%";
    c->value_first = true;
    for (size_t r = 0; r < t->nrows; r++) {
        c->rows[r].label = rank_label(d, t, r, rc, -1);
        for (int k = 0; k < 3; k++)
            c->rows[r].v[k] = num(t, r, cols[order[k]]);
    }
    return 0;
}

#define BARS_MAX 12
#define BARS_LABELS 256

/* One bar per distinct label (rows with the same label add up, so per-rank
 * rows give the selection's total), largest first when `by_value`. */
static int bars_of(struct ui_doc *d, const char *table, const char *label_col,
                   const char *value_col, const char *title, double max, const char *unit,
                   bool by_value)
{
    struct table *t = find_table(d, table);
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
        const char *label = l && l->type == CELL_STR && l->v.s ? l->v.s
                                                               : rank_label(d, t, r, lc >= 0 ? lc : rc, -1);
        double v = num(t, r, vc);
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

/* Per kernel name: on how many ranks it is a top kernel, and the min /
 * mean / max of its per-rank total time. */
struct spread {
    const char *name;
    size_t ranks;
    double min, max, sum;
};

static int cmp_spread(const void *a, const void *b)
{
    const struct spread *x = a, *y = b;
    if (x->max != y->max)
        return x->max < y->max ? 1 : -1;
    return strcmp(x->name, y->name);
}

static int add_spread_rows(struct table *out, struct spread *s, size_t n)
{
    qsort(s, n, sizeof *s, cmp_spread);
    for (size_t i = 0; i < n; i++) {
        struct cell *row = table_add_row(out);
        if (!row)
            return ERR_NOMEM;
        row[0] = cell_str(out, s[i].name);
        row[1] = cell_int((int64_t)s[i].ranks);
        row[2] = cell_double(s[i].min);
        row[3] = cell_double(s[i].sum / (double)s[i].ranks);
        row[4] = cell_double(s[i].max);
    }
    return 0;
}

static int kernel_spread(struct ui_doc *d)
{
    static const struct table_col cols[] = {
        {"name", NULL, COL_KEY}, {"ranks", NULL, 0}, {"min sum (us)", "us", 0},
        {"mean sum (us)", "us", 0}, {"max sum (us)", "us", 0},
    };
    struct table *t = find_table(d, "kernel_breakdown");
    if (!t || t->nrows == 0)
        return 0;
    int nc = table_col_index(t, "name"), sc = table_col_index(t, "sum (us)");
    if (nc < 0 || sc < 0)
        return 0;
    struct spread *s = calloc(t->nrows, sizeof *s);
    struct table *out = table_new(&d->arena, "kernel_spread", "Top kernels across ranks", cols, 5);
    size_t n = 0;
    if (!s || !out) {
        free(s);
        return ERR_NOMEM;
    }
    for (size_t r = 0; r < t->nrows; r++) {
        const struct cell *c = table_cell(t, r, (size_t)nc);
        const char *name = c->type == CELL_STR && c->v.s ? c->v.s : "";
        double v = num(t, r, sc);
        size_t k = 0;
        while (k < n && strcmp(s[k].name, name) != 0)
            k++;  // top-N tables are small: a linear search is enough
        if (k == n)
            s[n++] = (struct spread){name, 0, INFINITY, -INFINITY, 0};
        s[k].ranks++;
        s[k].min = v < s[k].min ? v : s[k].min;
        s[k].max = v > s[k].max ? v : s[k].max;
        s[k].sum += v;
    }
    int rc = add_spread_rows(out, s, n);
    free(s);
    return rc ? rc : ui_doc_add_table(d, out);
}

struct stream_key {
    double rank, stream;
    size_t first_row;
};

static int cmp_stream_key(const void *a, const void *b)
{
    const struct stream_key *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->stream > y->stream) - (x->stream < y->stream);
}

static int idle(struct ui_doc *d)
{
    static const char *cats[3] = {"host_wait", "kernel_wait", "other"};
    struct table *t = find_table(d, "idle_time_breakdown");
    if (!t || t->nrows == 0)
        return 0;
    int rc = table_col_index(t, "rank"), sc = table_col_index(t, "stream");
    int cc = table_col_index(t, "idle_category"), vc = table_col_index(t, "idle_time");
    if (rc < 0 || sc < 0 || cc < 0 || vc < 0)
        return 0;
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_STACKED, "Idle time per stream (us)",
                                          t->nrows);
    if (!c)
        return ERR_NOMEM;
    for (int k = 0; k < 3; k++) {
        c->series[k] = cats[k];
        c->look[k] = (uint8_t)(k + 1);
    }
    c->nseries = 3;
    c->unit = "us";
    // One bar per (rank, stream), in numeric order (the table keeps HTA's).
    struct stream_key *keys = arena_calloc(&d->arena, t->nrows, sizeof *keys);
    if (!keys)
        return ERR_NOMEM;
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double rank = num(t, r, rc), stream = num(t, r, sc);
        if (n == 0 || keys[n - 1].rank != rank || keys[n - 1].stream != stream)
            keys[n++] = (struct stream_key){rank, stream, r};
    }
    qsort(keys, n, sizeof *keys, cmp_stream_key);
    for (size_t i = 0; i < n; i++) {
        c->rows[i].label = rank_label(d, t, keys[i].first_row, rc, sc);
        if (!c->rows[i].label)
            return ERR_NOMEM;
    }
    for (size_t r = 0; r < t->nrows; r++) {
        struct stream_key k = {num(t, r, rc), num(t, r, sc), 0};
        struct stream_key *at = bsearch(&k, keys, n, sizeof *keys, cmp_stream_key);
        const struct cell *cat = table_cell(t, r, (size_t)cc);
        for (int s = 0; at && s < 3; s++)
            if (cat->type == CELL_STR && cat->v.s && strcmp(cat->v.s, cats[s]) == 0)
                c->rows[at - keys].v[s] += num(t, r, vc);
    }
    c->nrows = n;
    return 0;
}

static int launch_histogram(struct ui_doc *d)
{
    static const char *labels[] = {"< 1 us", "1-10 us", "10-100 us", "0.1-1 ms", ">= 1 ms"};
    struct table *t = find_table(d, "cuda_kernel_launch_stats");
    if (!t || t->nrows == 0)
        return 0;
    int lc = table_col_index(t, "launch_delay");
    if (lc < 0)
        return 0;
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_BARS, "Launch delay histogram (launches)", 5);
    if (!c)
        return ERR_NOMEM;
    for (int k = 0; k < 5; k++)
        c->rows[k].label = labels[k];
    for (size_t r = 0; r < t->nrows; r++) {
        double v = num(t, r, lc);
        if (isnan(v))
            continue;
        int k = v < 1 ? 0 : v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : 4;
        c->rows[k].v[0] += 1;
    }
    return 0;
}

/* The stack tree with each annotation indented by its depth. */
static int annotation_tree(struct ui_doc *d)
{
    static const struct table_col cols[] = {
        {"rank", NULL, COL_KEY}, {"annotation", NULL, COL_KEY}, {"sum", "us", 0},
        {"count", NULL, 0}, {"self_sum", "us", 0},
    };
    struct table *t = find_table(d, "annotation_tree");
    if (!t)
        return 0;
    int rc = table_col_index(t, "rank"), dc = table_col_index(t, "depth");
    int ac = table_col_index(t, "annotation"), sc = table_col_index(t, "sum");
    int cc = table_col_index(t, "count"), fc = table_col_index(t, "self_sum");
    if (rc < 0 || dc < 0 || ac < 0)
        return 0;
    struct table *out = table_new(&d->arena, "annotation_tree", "Kernel time by annotation stack",
                                  cols, 5);
    if (!out)
        return ERR_NOMEM;
    out->note = t->note;
    for (size_t r = 0; r < t->nrows; r++) {
        struct cell *row = table_add_row(out);
        char buf[512];
        double depth = num(t, r, dc);
        int indent = isfinite(depth) && depth > 0 ? (int)(depth > 40 ? 40 : depth) : 0;
        const struct cell *a = table_cell(t, r, (size_t)ac);
        if (!row)
            return ERR_NOMEM;
        snprintf(buf, sizeof buf, "%*s%s", indent * 2, "",
                 a->type == CELL_STR && a->v.s ? a->v.s : "");
        row[0] = *table_cell(t, r, (size_t)rc);
        row[1] = cell_str(out, buf);
        row[2] = sc >= 0 ? *table_cell(t, r, (size_t)sc) : cell_null();
        row[3] = cc >= 0 ? *table_cell(t, r, (size_t)cc) : cell_null();
        row[4] = fc >= 0 ? *table_cell(t, r, (size_t)fc) : cell_null();
    }
    for (size_t i = 0; i < d->ntables; i++)
        if (d->tables[i] == t)
            d->tables[i] = out;
    return 0;
}

/* Upper bound on the sparklines of the selected ranks: one per stream for
 * queue length, one per copy kind (at most one per stream plus memset and
 * unknown) for bandwidth. */
static size_t max_series(const struct ui_state *st, const struct model *m)
{
    size_t total = 0;
    for (size_t r = 0; r < m->nranks; r++)
        if (m->ranks[r].selected && st->ranks[r].included)
            total += m->ranks[r].nstreams + 8;
    return total;
}

static void spark_row(struct ui_doc *d, struct ui_chart_row *row, const int64_t *ts,
                      const double *v, size_t n, int64_t lo, int64_t hi)
{
    row->spark = arena_calloc(&d->arena, UI_SPARK_BUCKETS, sizeof *row->spark);
    if (!row->spark)
        return;
    ui_chart_sample_steps(ts, v, n, lo, hi, row->spark);
    for (size_t i = 0; i < n; i++)
        row->spark_max = v[i] > row->spark_max ? v[i] : row->spark_max;
}

static int queue_sparks(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    size_t n = max_series(st, m), k = 0;
    if (n == 0)
        return 0;
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_SPARK, "Queue length over time", n);
    if (!c)
        return ERR_NOMEM;
    for (size_t r = 0; r < m->nranks && k < n; r++) {
        struct queue_series *qs;
        size_t ns = 0;
        if (!m->ranks[r].selected || !st->ranks[r].included ||
            queue_series_build(m, &m->ranks[r], &d->arena, &qs, &ns, NULL, NULL) != 0)
            continue;
        for (size_t s = 0; s < ns && k < n; s++, k++) {
            char buf[64];
            double *v = arena_calloc(&d->arena, qs[s].n ? qs[s].n : 1, sizeof *v);
            if (!v)
                return ERR_NOMEM;
            for (size_t i = 0; i < qs[s].n; i++)
                v[i] = (double)qs[s].queue_length[i];
            snprintf(buf, sizeof buf, "r%lld s%lld", (long long)m->ranks[r].rank,
                     (long long)qs[s].stream);
            c->rows[k].label = arena_strndup(&d->arena, buf, strlen(buf));
            spark_row(d, &c->rows[k], qs[s].ts, v, qs[s].n, st->tl.lo, st->tl.hi);
        }
    }
    c->nrows = k;
    if (k == 0)
        d->ncharts--;
    return 0;
}

static int membw_sparks(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    size_t n = max_series(st, m), k = 0;
    if (n == 0)
        return 0;
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_SPARK, "Memory bandwidth over time", n);
    if (!c)
        return ERR_NOMEM;
    c->unit = "GB/s";
    for (size_t r = 0; r < m->nranks && k < n; r++) {
        struct membw_series *bs;
        size_t ns = 0;
        if (!m->ranks[r].selected || !st->ranks[r].included ||
            membw_series_build(m, &m->ranks[r], &d->arena, &bs, &ns, NULL) != 0)
            continue;
        for (size_t s = 0; s < ns && k < n; s++, k++) {
            char buf[96];
            snprintf(buf, sizeof buf, "r%lld %s", (long long)m->ranks[r].rank, bs[s].label);
            c->rows[k].label = arena_strndup(&d->arena, buf, strlen(buf));
            spark_row(d, &c->rows[k], bs[s].ts, bs[s].bw_gbps, bs[s].n, st->tl.lo, st->tl.hi);
        }
    }
    c->nrows = k;
    if (k == 0)
        d->ncharts--;
    return 0;
}

int ui_doc_decorate(struct ui_state *st, const struct model *m, enum ui_view_id v,
                    struct ui_doc *d)
{
    switch (v) {
    case UI_VIEW_OVERVIEW:
        return overview(d);
    case UI_VIEW_KERNELS: {
        int rc = bars_of(d, "kernel_type_breakdown", "kernel_type", "percentage",
                         "Kernel time by type (%)", 100, "%", false);
        rc = rc ? rc : ui_kernels_decorate(st, m, d);
        // The summary, when there is one, says across ranks what the spread table did.
        return rc || st->kernels.table ? rc : kernel_spread(d);
    }
    case UI_VIEW_IDLE:
        return idle(d);
    case UI_VIEW_OVERLAP:
        return bars_of(d, "comm_comp_overlap", "rank", "comp_comm_overlap_pctg",
                       "Communication overlapped by computation (%)", 100, "%", false);
    case UI_VIEW_LAUNCH:
        return launch_histogram(d) ? ERR_NOMEM : ui_launch_decorate(st, m, d);
    case UI_VIEW_ANNOTATIONS: {
        // Under htx the tree, with bars of its own, comes first.
        int rc = m->sem.hta_annotations_only
                     ? bars_of(d, "kernels_by_annotation", "s_user_annotation", "sum",
                               "Kernel time by innermost annotation (us)", 0, "us", true)
                     : 0;
        rc = rc ? rc : annotation_tree(d);
        return rc ? rc : ui_atree_decorate(st, m, d);
    }
    case UI_VIEW_COUNTERS: {
        int rc = queue_sparks(st, m, d);
        return rc ? rc : membw_sparks(st, m, d);
    }
    case UI_VIEW_RANKS:
        return ui_ranks_decorate(st, m, d);
    case UI_VIEW_SEQUENCES:
        return bars_of(d, "frequent_kernel_sequences", "pattern", "count",
                       "Most frequent kernel sequences (count)", 0, NULL, true);
    default:
        return 0;
    }
}
