#include "config.h"
#include "analysis/weighted.h"

#include <math.h>
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

/* The weight of a level held from ts[i] to ts[i + 1] (none for the last). */
static double level_weight(const int64_t *ts, size_t n, size_t i)
{
    double w = i + 1 < n ? (double)(ts[i + 1] - ts[i]) : 0.0;
    return w > 0.0 ? w : 0.0;
}

/* Smallest value whose cumulative weight reaches p * total. */
static double weighted_quantile(const struct wpoint *pts, size_t n, double total, double p)
{
    double target = p * total, acc = 0.0;
    for (size_t i = 0; i < n; i++) {
        if (pts[i].w <= 0.0)
            continue;
        acc += pts[i].w;
        if (acc >= target)
            return pts[i].v;
    }
    /* Rounding left acc a hair below target: the largest held value. */
    for (size_t i = n; i-- > 0;)
        if (pts[i].w > 0.0)
            return pts[i].v;
    return NAN;
}

/* The summary of points in value order (ties in sample order) whose
 * weights sum to total (> 0): every sum runs in that order. */
static void describe_sorted(const struct wpoint *pts, size_t m, double total,
                            struct describe *out)
{
    double sum = 0.0;
    for (size_t i = 0; i < m; i++)
        sum += pts[i].w * pts[i].v;
    double mean = sum / total, var = 0.0;
    for (size_t i = 0; i < m; i++)
        var += pts[i].w * (pts[i].v - mean) * (pts[i].v - mean);
    out->mean = mean;
    out->std = sqrt(var / total);
    out->p25 = weighted_quantile(pts, m, total, 0.25);
    out->p50 = weighted_quantile(pts, m, total, 0.5);
    out->p75 = weighted_quantile(pts, m, total, 0.75);
    for (size_t i = 0; i < m; i++) {
        if (pts[i].w <= 0.0)
            continue;
        if (isnan(out->min))
            out->min = pts[i].v;
        out->max = pts[i].v;
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
    describe_sorted(pts, m, total, out);
    return 0;
}

/* Weights in level order (ties in sample order), 8 bytes a sample: the
 * levels lo, lo + 1, ... end at end[0], end[1], ... (the value of a weight
 * is its level's). */
struct levels_sorted {
    const double *w;
    const size_t *end;
    int64_t lo;
    size_t nlevels;
};

static double level_value(const struct levels_sorted *s, size_t k)
{
    return (double)(int64_t)((uint64_t)s->lo + k);
}

/* weighted_quantile over levels. */
static double levels_quantile(const struct levels_sorted *s, double total, double p)
{
    double target = p * total, acc = 0.0;
    for (size_t k = 0, i = 0; k < s->nlevels; k++)
        for (; i < s->end[k]; i++) {
            if (s->w[i] <= 0.0)
                continue;
            acc += s->w[i];
            if (acc >= target)
                return level_value(s, k);
        }
    for (size_t k = s->nlevels; k-- > 0;)
        for (size_t i = s->end[k]; i-- > (k ? s->end[k - 1] : 0);)
            if (s->w[i] > 0.0)
                return level_value(s, k);
    return NAN;
}

/* describe_sorted over levels: the same sums in the same order. */
static void describe_levels_sorted(const struct levels_sorted *s, double total,
                                   struct describe *out)
{
    double sum = 0.0;
    for (size_t k = 0, i = 0; k < s->nlevels; k++)
        for (double v = level_value(s, k); i < s->end[k]; i++)
            sum += s->w[i] * v;
    double mean = sum / total, var = 0.0;
    for (size_t k = 0, i = 0; k < s->nlevels; k++)
        for (double v = level_value(s, k); i < s->end[k]; i++)
            var += s->w[i] * (v - mean) * (v - mean);
    out->mean = mean;
    out->std = sqrt(var / total);
    out->p25 = levels_quantile(s, total, 0.25);
    out->p50 = levels_quantile(s, total, 0.5);
    out->p75 = levels_quantile(s, total, 0.75);
    for (size_t k = 0, i = 0; k < s->nlevels; k++)
        for (; i < s->end[k]; i++) {
            if (s->w[i] <= 0.0)
                continue;
            if (isnan(out->min))
                out->min = level_value(s, k);
            out->max = level_value(s, k);
        }
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
    if (span >= n) {   // too sparse to count: the sort
        double *v = arena_alloc(a, n * sizeof *v), *w = arena_alloc(a, n * sizeof *w);
        if (!v || !w)
            return ERR_NOMEM;
        for (size_t i = 0; i < n; i++) {
            v[i] = (double)levels[i];
            w[i] = level_weight(ts, n, i);
        }
        return describe_time_weighted(v, w, n, a, out);
    }
    size_t *start = arena_calloc(a, (size_t)span + 2, sizeof *start);
    double *w = arena_alloc(a, n * sizeof *w);
    if (!start || !w)
        return ERR_NOMEM;
    double total = 0.0;   // in sample order, as describe_time_weighted sums it
    for (size_t i = 0; i < n; i++) {
        total += level_weight(ts, n, i);
        start[(uint64_t)levels[i] - (uint64_t)lo + 1]++;
    }
    for (size_t k = 0; k <= span; k++)
        start[k + 1] += start[k];
    for (size_t i = 0; i < n; i++)   // a stable counting sort: ties keep sample order
        w[start[(uint64_t)levels[i] - (uint64_t)lo]++] = level_weight(ts, n, i);
    if (total <= 0.0) {
        for (size_t i = 0; i < n; i++)
            w[i] = 1.0;
        total = (double)n;
    }
    // start[k] is now where level lo + k ends
    describe_levels_sorted(&(struct levels_sorted){w, start, lo, (size_t)span + 1}, total, out);
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
