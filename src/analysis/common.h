#ifndef HTX_ANALYSIS_COMMON_H
#define HTX_ANALYSIS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Building blocks shared by the analyses (spec notation section and §2).
 * Ownership, unless a comment below says otherwise: each function borrows
 * its arguments until it returns and hands back nothing to free (names it
 * returns are static strings). */

/* Sorting row positions by a key with only a strict "less" test.
 * perm holds the positions to sort (the caller fills it, usually with
 * argsort_identity); less(keys, perm[i], perm[j]) compares two of them. The
 * input order of perm is the "input order" that decides ties.
 * hta_argsort is numpy 1.24's introsort argsort (unstable; the tie order
 * HTA's numbers depend on, spec notation section); hta_argsort_desc is
 * pandas' descending form (reverse, sort, reverse). stable_argsort(_desc)
 * keep ties in input order (merge sort; ERR_NOMEM when its buffer cannot be
 * allocated, perm untouched). sort_argsort(_desc) pick one by `unstable`
 * (pass m->sem.unstable_sort). Keys with NaN: pandas moves NaN rows out
 * before sorting; callers that need that must do it themselves.
 * Borrows keys until return; allocates nothing but the merge buffer. */
typedef bool (*sort_less_fn)(const void *keys, size_t a, size_t b);
void hta_argsort(size_t *perm, size_t n, const void *keys, sort_less_fn less);
void hta_argsort_desc(size_t *perm, size_t n, const void *keys, sort_less_fn less);
int stable_argsort(size_t *perm, size_t n, const void *keys, sort_less_fn less);
int stable_argsort_desc(size_t *perm, size_t n, const void *keys, sort_less_fn less);
int sort_argsort(bool unstable, size_t *perm, size_t n, const void *keys, sort_less_fn less);
int sort_argsort_desc(bool unstable, size_t *perm, size_t n, const void *keys,
                      sort_less_fn less);
void argsort_identity(size_t *perm, size_t n);           /* perm[i] = i */
bool less_i64(const void *keys, size_t a, size_t b);     /* keys: const int64_t[] */
bool less_double(const void *keys, size_t a, size_t b);  /* keys: const double[], NaN last */
bool less_str(const void *keys, size_t a, size_t b);     /* keys: const char *const[], code point */

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

/* pandas describe(): NaNs ignored, sample std, linear percentiles. Sorts
 * values in place. count = 0 gives NaN for everything else. */
struct describe {
    double count, mean, std, min, p25, p50, p75, max;
};
void describe_values(double *values, size_t n, struct describe *out);

/* Interval union (§2.3): touching intervals merge; a new group starts when a
 * start is strictly after the largest end so far. iv is sorted by start in
 * place and the k merged groups are written back into iv[0..k); returns k.
 * Inverted intervals (end < start, HTA's negative durations) take part as
 * they are, and then the order of equal starts matters:
 * intervals_merge_ordered sorts by start only, with the introsort when
 * `unstable` (HTA's sort_values) or stably, from iv's current order (pass the
 * filtered-table order); ERR_NOMEM on allocation failure. */
struct interval { int64_t start, end; };
size_t intervals_merge(struct interval *iv, size_t n);
int intervals_merge_ordered(struct interval *iv, size_t n, bool unstable, size_t *k);
int64_t intervals_busy(const struct interval *merged, size_t k);
/* Total length where both merged sets are active. */
int64_t intervals_intersection(const struct interval *a, size_t na,
                               const struct interval *b, size_t nb);

/* §2.1 kernel classification. hta_rules: HTA's exact rules (pass
 * m->sem.hta_kernel_classes). Otherwise htx's: nccl/rccl/hccl prefixes and
 * ncclKernel/ncclDevKernel/rcclKernel anywhere, and expert-parallel all-to-all
 * kernels (DeepEP deep_ep::/…::ep:: intranode/internode/internode_ll, mori
 * EpDispatch/EpCombine, pplx dispatch/combine, nvshmem_/nvshmemi_/nvshmemx_
 * device code) are COMMUNICATION; Memcpy,
 * Memset, hipMemcpy, hipMemset, dma prefixes are MEMORY; the sync events
 * (Stream Sync, Stream Wait Event, Event Sync, Context Sync), cuda*LaunchKernel,
 * hip runtime API names (hip + uppercase) and MTIA executors are OTHER;
 * everything else (hip compute kernels, fused_adamax...) is COMPUTATION.
 * kernel_classify_with first tries the user's comma-separated name prefixes
 * (NULL = none) for COMMUNICATION, then MEMORY. Borrows its strings. */
enum kernel_class { KC_COMPUTATION = 0, KC_COMMUNICATION, KC_MEMORY, KC_OTHER };
enum kernel_class kernel_classify(const char *name, bool hta_rules);
enum kernel_class kernel_classify_with(const char *name, bool hta_rules,
                                       const char *comm_patterns, const char *memory_patterns);
const char *kernel_class_name(enum kernel_class k);

/* §2.2 short names. Writes into out (size outsz, always NUL-terminated). */
void shorten_name(const char *name, char *out, size_t outsz);

/* §2.4 top-N aggregation with the "others" row (implemented in topn.c).
 * Items are (name, value) pairs; items with the same name id form one group
 * whose sum (Kahan, as pandas), max, min, mean and sample std (0 for one
 * value) are computed in input order. When there are more than num_kernels
 * groups, the groups sorted by sum descending (numpy introsort when
 * unstable_sort, else stably, from name order) past num_kernels or past the
 * duration_ratio quantile of the cumulative sums become "others", unless
 * their name contains one of the allow-list substrings. With
 * top_n_loses_stats (HTA) every row is then re-aggregated from the per-name
 * sums, so kept rows get max = min = mean = sum and std 0, and "others" gets
 * the statistics of its members' sums; otherwise kept rows keep their own
 * statistics and "others" those of all its members' values. Rows come out
 * in name order (code point), "others" among them. */
struct topn_item {
    uint32_t name;        /* string id in the strtab passed to topn_aggregate */
    double value;         /* e.g. a duration in us */
};
struct topn_opts {
    int num_kernels;
    double duration_ratio;
    const char *const *allow; /* literal substrings kept out of "others"; may be NULL */
    size_t nallow;
    bool unstable_sort;       /* m->sem.unstable_sort */
    bool top_n_loses_stats;   /* m->sem.top_n_loses_stats */
};
struct topn_row {
    uint32_t name;        /* string id, or STRTAB_NONE for "others" */
    const char *text;     /* the name (borrowed from the strtab) or "others" */
    double sum, max, min, std, mean;
    size_t count;         /* items aggregated into this row */
};
/* Borrows names and items until return. On success *rows (caller frees with
 * free(); NULL when n is 0) holds *nrows rows. Returns 0 or ERR_NOMEM. */
int topn_aggregate(const struct strtab *names, const struct topn_item *items, size_t n,
                   const struct topn_opts *o, struct topn_row **rows, size_t *nrows);

#endif
