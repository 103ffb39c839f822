#ifndef HTX_ANALYSIS_COMMON_H
#define HTX_ANALYSIS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Building blocks shared by the analyses (spec notation section and §2). */

/* Sorting row positions by a key with only a strict "less" test.
 * hta_argsort is numpy 1.24's introsort argsort (unstable; the tie order
 * HTA's numbers depend on). stable_argsort keeps ties in input order.
 * sort_argsort picks one by semantics.unstable_sort. */
typedef bool (*sort_less_fn)(const void *keys, size_t a, size_t b);
void hta_argsort(size_t *perm, size_t n, const void *keys, sort_less_fn less);
void hta_argsort_desc(size_t *perm, size_t n, const void *keys, sort_less_fn less);
int stable_argsort(size_t *perm, size_t n, const void *keys, sort_less_fn less);
bool less_i64(const void *keys, size_t a, size_t b);     /* keys: const int64_t[] */
bool less_double(const void *keys, size_t a, size_t b);  /* keys: const double[] */

/* numpy round: rint(x * 10^d) / 10^d. */
double hta_round(double x, int d);

/* pandas describe(): NaNs ignored, sample std, linear percentiles. Sorts
 * values in place. count = 0 gives NaN for everything else. */
struct describe {
    double count, mean, std, min, p25, p50, p75, max;
};
void describe_values(double *values, size_t n, struct describe *out);

/* Interval union (§2.3): touching intervals merge. starts/ends are sorted by
 * start in place; returns the number of merged groups written back into
 * starts[0..k), ends[0..k). */
struct interval { int64_t start, end; };
size_t intervals_merge(struct interval *iv, size_t n);
int64_t intervals_busy(const struct interval *merged, size_t k);
/* Total length where both merged sets are active. */
int64_t intervals_intersection(const struct interval *a, size_t na,
                               const struct interval *b, size_t nb);

/* §2.1 kernel classification. */
enum kernel_class { KC_COMPUTATION = 0, KC_COMMUNICATION, KC_MEMORY, KC_OTHER };
enum kernel_class kernel_classify(const char *name, bool hta_rules);
const char *kernel_class_name(enum kernel_class k);

/* §2.2 short names. Writes into out (size outsz, always NUL-terminated). */
void shorten_name(const char *name, char *out, size_t outsz);

#endif
