#include "config.h"
#include "analysis/weighted.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/err.h"
#include "util/sort.h"

struct wpoint {
    double v, w;
};

static inline bool wpoint_less(const struct wpoint *a, const struct wpoint *b)
{
    return a->v < b->v;
}

/* Stable, as the glibc qsort this replaced: the sums below run in this
 * order, so ties must keep theirs for the same rounding. NaNs were left out. */
SORT_DEFINE_STABLE(sort_wpoints, struct wpoint, wpoint_less)

/* The samples in value order (ties in sample order): sorted points, or a
 * step function's integer levels through their counting order (idx). */
struct wseq {
    const struct wpoint *pts;
    const uint32_t *idx;
    const int64_t *levels, *ts;
    size_t n;
    bool unit;             /* levels: every weight 1 */
};

/* The weight of a level held from ts[i] to ts[i + 1] (none for the last). */
static double level_weight(const struct wseq *s, size_t i)
{
    double w = i + 1 < s->n ? (double)(s->ts[i + 1] - s->ts[i]) : 0.0;
    return w > 0.0 ? w : 0.0;
}

static struct wpoint seq_at(const struct wseq *s, size_t k)
{
    if (s->pts)
        return s->pts[k];
    size_t i = s->idx[k];
    return (struct wpoint){(double)s->levels[i], s->unit ? 1.0 : level_weight(s, i)};
}

/* Smallest value whose cumulative weight reaches p * total. */
static double weighted_quantile(const struct wseq *s, double total, double p)
{
    double target = p * total, acc = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        struct wpoint pt = seq_at(s, i);
        if (pt.w <= 0.0)
            continue;
        acc += pt.w;
        if (acc >= target)
            return pt.v;
    }
    /* Rounding left acc a hair below target: the largest held value. */
    for (size_t i = s->n; i-- > 0;) {
        struct wpoint pt = seq_at(s, i);
        if (pt.w > 0.0)
            return pt.v;
    }
    return NAN;
}

/* The summary of samples in value order whose weights sum to total (> 0):
 * every sum runs in that order, so that both orders give the same bits. */
static void describe_sorted(const struct wseq *s, double total, struct describe *out)
{
    double sum = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        struct wpoint pt = seq_at(s, i);
        sum += pt.w * pt.v;
    }
    double mean = sum / total, var = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        struct wpoint pt = seq_at(s, i);
        var += pt.w * (pt.v - mean) * (pt.v - mean);
    }
    out->mean = mean;
    out->std = sqrt(var / total);
    out->p25 = weighted_quantile(s, total, 0.25);
    out->p50 = weighted_quantile(s, total, 0.5);
    out->p75 = weighted_quantile(s, total, 0.75);
    for (size_t i = 0; i < s->n; i++) {
        struct wpoint pt = seq_at(s, i);
        if (pt.w <= 0.0)
            continue;
        if (isnan(out->min))
            out->min = pt.v;
        out->max = pt.v;
    }
}

int describe_time_weighted(const double *values, const double *weights, size_t n,
                           struct arena *a, struct describe *out)
{
    *out = (struct describe){0, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    size_t m = 0;
    struct wpoint *pts = arena_calloc(a, n ? n : 1, sizeof *pts);
    if (!pts)
        return ERR_NOMEM;
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(values[i]))
            continue;
        pts[m].v = values[i];
        pts[m].w = weights[i] > 0.0 ? weights[i] : 0.0;
        total += pts[m].w;
        m++;
    }
    out->count = (double)m;
    if (m == 0)
        return 0;
    if (total <= 0.0) {
        for (size_t i = 0; i < m; i++)
            pts[i].w = 1.0;
        total = (double)m;
    }
    if (sort_wpoints(pts, m))
        return ERR_NOMEM;
    struct wseq s = {.pts = pts, .n = m};
    describe_sorted(&s, total, out);
    return 0;
}

int describe_levels_time_weighted(const int64_t *levels, const int64_t *ts, size_t n,
                                  struct arena *a, struct describe *out)
{
    *out = (struct describe){(double)n, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
    if (n == 0)
        return 0;
    int64_t lo = levels[0], hi = levels[0];
    for (size_t i = 1; i < n; i++) {
        lo = levels[i] < lo ? levels[i] : lo;
        hi = levels[i] > hi ? levels[i] : hi;
    }
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    if (span >= n || n > UINT32_MAX) {   // too sparse to count: the sort
        double *v = arena_alloc(a, n * sizeof *v), *w = arena_alloc(a, n * sizeof *w);
        if (!v || !w)
            return ERR_NOMEM;
        struct wseq s = {.levels = levels, .ts = ts, .n = n};
        for (size_t i = 0; i < n; i++) {
            v[i] = (double)levels[i];
            w[i] = level_weight(&s, i);
        }
        return describe_time_weighted(v, w, n, a, out);
    }
    size_t *start = arena_calloc(a, (size_t)span + 2, sizeof *start);
    uint32_t *idx = arena_alloc(a, n * sizeof *idx);
    if (!start || !idx)
        return ERR_NOMEM;
    struct wseq s = {.idx = idx, .levels = levels, .ts = ts, .n = n};
    double total = 0.0;   // in sample order, as describe_time_weighted sums it
    for (size_t i = 0; i < n; i++) {
        total += level_weight(&s, i);
        start[(uint64_t)levels[i] - (uint64_t)lo + 1]++;
    }
    for (size_t k = 0; k <= span; k++)
        start[k + 1] += start[k];
    for (size_t i = 0; i < n; i++)   // a stable counting sort: ties keep sample order
        idx[start[(uint64_t)levels[i] - (uint64_t)lo]++] = (uint32_t)i;
    if (total <= 0.0) {
        s.unit = true;
        total = (double)n;
    }
    describe_sorted(&s, total, out);
    return 0;
}

void describe_put_cells(struct cell *row, size_t first, const struct describe *d)
{
    row[first] = cell_int((int64_t)d->count);
    row[first + 1] = cell_double(d->mean);
    row[first + 2] = cell_double(d->std);
    row[first + 3] = cell_double(d->min);
    row[first + 4] = cell_double(d->p25);
    row[first + 5] = cell_double(d->p50);
    row[first + 6] = cell_double(d->p75);
    row[first + 7] = cell_double(d->max);
}

void describe_cols(struct table_col *cols, const char *unit)
{
    static const char *const names[DESCRIBE_NCOLS] = {"count", "mean", "std", "min",
                                                      "25%", "50%", "75%", "max"};
    for (size_t i = 0; i < DESCRIBE_NCOLS; i++) {
        cols[i].name = names[i];
        cols[i].unit = i == 0 ? NULL : unit;
        cols[i].flags = 0;
    }
}
