#ifndef HTX_ANALYSIS_STATS_H
#define HTX_ANALYSIS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Numbers as numpy and pandas compute them: rounding, pairwise sums,
 * quantiles, describe(), and saturating sums of nanoseconds. */

/* a + b clamped to the int64 range. The model bounds each duration (below
 * 2^61 ns), not their sum: sums over a hostile trace's kernels would
 * overflow, which C leaves undefined. */
static inline int64_t add_ns_sat(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

/* numpy round: rint(x * 10^d) / 10^d (half to even on the binary double). */
double hta_round(double x, int d);

/* numpy's pairwise float sum (np.sum / pandas sum of a float column). */
double sum_pairwise(const double *v, size_t n);

/* np.percentile(sorted, q * 100, method="linear") on ascending, NaN-free
 * values (pandas Series.quantile(q)); NaN when n = 0. */
double quantile_linear(const double *sorted, size_t n, double q);

/* v[0..n) (no NaN) ascending, equal values (0.0 and -0.0) in input order:
 * a stable merge sort, or by 16-bit digits when n is large. 0, or
 * ERR_NOMEM with v untouched. */
int stats_sort_values(double *v, size_t n);

/* pandas describe(): NaNs ignored, sample std, linear percentiles. Sorts
 * values in place. count = 0 gives NaN for everything else. */
struct describe {
    double count, mean, std, min, p25, p50, p75, max;
};
void describe_values(double *values, size_t n, struct describe *out);

#endif
