#ifndef HTX_ANALYSIS_TOPN_H
#define HTX_ANALYSIS_TOPN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strtab.h"

/* Top-N aggregation with the "others" row (spec §2.4). */

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
 * free(); NULL when n is 0) holds *nrows rows. Returns 0 or ERR_NOMEM (also
 * for more than UINT32_MAX items). */
int topn_aggregate(const struct strtab *names, const struct topn_item *items, size_t n,
                   const struct topn_opts *o, struct topn_row **rows, size_t *nrows);

#endif
