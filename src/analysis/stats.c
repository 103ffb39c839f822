#include "config.h"
#include "analysis/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/sort.h"

/* ---- numbers ------------------------------------------------------------- */

double hta_round(double x, int d)
{
    /* numpy: y = x * 10**d; rint(y) / 10**d. 10**d is exact for d <= 22. */
    if (d >= 0) {
        double f = pow(10.0, d);
        return rint(x * f) / f;
    }
    double f = pow(10.0, -d);
    return rint(x / f) * f;
}

double sum_pairwise(const double *v, size_t n)
{
    /* numpy's pairwise_sum: 8 accumulators up to 128 values, halving above. */
    if (n < 8) {
        double res = 0.;
        for (size_t i = 0; i < n; i++)
            res += v[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        size_t i;
        for (int j = 0; j < 8; j++)
            r[j] = v[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += v[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += v[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return sum_pairwise(v, n2) + sum_pairwise(v + n2, n - n2);
}

static inline bool double_less(const double *a, const double *b)
{
    return *a < *b;
}

SORT_DEFINE_STABLE(sort_doubles, double, double_less)

/* The order of doubles (no NaN) as unsigned integers, 0.0 and -0.0 one key
 * (they compare equal, so a stable sort keeps them in input order). */
static inline uint64_t double_key(double d)
{
    if (d == 0.0)
        d = 0.0;
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

#define RADIX_BITS 16
#define RADIX_PASSES (64 / RADIX_BITS)
#define RADIX_BUCKETS ((size_t)1 << RADIX_BITS)
/* Below this a radix sort's counting costs more than the merge sort. */
#define RADIX_MIN ((size_t)1 << 16)

/* The stable sort of v[0..n) (no NaN) by least significant digits first, a
 * pass a 16-bit digit that is not the same in every key: the order of the
 * stable merge sort (sort_doubles) in a few passes over the values. 0, or
 * ERR_NOMEM with v untouched. */
static int radix_sort_doubles(double *v, size_t n)
{
    double *tmp = malloc(n * sizeof *tmp);
    uint32_t *count = calloc(RADIX_PASSES * RADIX_BUCKETS, sizeof *count);
    if (!tmp || !count || n > UINT32_MAX) {
        free(tmp);
        free(count);
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t k = double_key(v[i]);
        for (int p = 0; p < RADIX_PASSES; p++)
            count[(size_t)p * RADIX_BUCKETS + (k >> (p * RADIX_BITS) & (RADIX_BUCKETS - 1))]++;
    }
    double *src = v, *dst = tmp;
    for (int p = 0; p < RADIX_PASSES; p++) {
        uint32_t *c = count + (size_t)p * RADIX_BUCKETS;
        if (c[double_key(src[0]) >> (p * RADIX_BITS) & (RADIX_BUCKETS - 1)] == n)
            continue;   // one digit everywhere: the pass would not move anything
        uint32_t at = 0;
        for (size_t d = 0; d < RADIX_BUCKETS; d++) {
            uint32_t here = c[d];
            c[d] = at;
            at += here;
        }
        for (size_t i = 0; i < n; i++)
            dst[c[double_key(src[i]) >> (p * RADIX_BITS) & (RADIX_BUCKETS - 1)]++] = src[i];
        double *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
    free(tmp);
    free(count);
    return 0;
}

int stats_sort_values(double *v, size_t n)
{
    if (n >= RADIX_MIN && radix_sort_doubles(v, n) == 0)
        return 0;
    return sort_doubles(v, n);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double quantile_linear(const double *sorted, size_t n, double q)
{
    if (n == 0)
        return NAN;
    /* pandas passes q * 100 to np.percentile, which divides by 100 again. */
    double qq = (q * 100.0) / 100.0;
    double virt = (double)(n - 1) * qq;
    if (!(virt > 0))
        return sorted[0];
    if (virt >= (double)(n - 1))
        return sorted[n - 1];
    double prev = floor(virt);
    size_t i = (size_t)prev;
    double t = virt - prev;
    double a = sorted[i], b = sorted[i + 1];
    double diff = b - a;
    /* numpy 1.24 _lerp: from the nearer end, to stay monotonic. */
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

static void describe_sorted(const double *values, size_t k, struct describe *out)
{
    out->min = values[0];
    out->max = values[k - 1];
    out->p25 = quantile_linear(values, k, 0.25);
    out->p50 = quantile_linear(values, k, 0.5);
    out->p75 = quantile_linear(values, k, 0.75);
}

void describe_values(double *values, size_t n, struct describe *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(values[i]))
            values[k++] = values[i];
    out->count = (double)k;
    if (k == 0) {
        out->mean = out->std = out->min = out->p25 = out->p50 = out->p75 = out->max = NAN;
        return;
    }
    out->mean = sum_pairwise(values, k) / (double)k;
    if (k > 1) {
        /* pandas nanvar: two passes, ddof = 1. */
        double ss = 0;
        for (size_t i = 0; i < k; i++)
            ss += (values[i] - out->mean) * (values[i] - out->mean);
        out->std = sqrt(ss / (double)(k - 1));
    } else {
        out->std = NAN;
    }
    if (stats_sort_values(values, k) == 0) {
        describe_sorted(values, k, out);
        return;
    }
    /* no memory for the merge buffer: qsort needs none, and only equal
     * values (0.0 and -0.0) can come out in another order */
    qsort(values, k, sizeof *values, cmp_double);
    describe_sorted(values, k, out);
}
