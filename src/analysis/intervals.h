#ifndef HTX_ANALYSIS_INTERVALS_H
#define HTX_ANALYSIS_INTERVALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Interval unions and intersections (spec §2.3). */

/* Interval union (§2.3): touching intervals merge; a new group starts when a
 * start is strictly after the largest end so far. iv is sorted by start in
 * place and the k merged groups are written back into iv[0..k); returns k.
 * Inverted intervals (end < start, HTA's negative durations) take part as
 * they are, and then the order of equal starts matters:
 * intervals_merge_ordered sorts by start only, with the introsort when
 * `unstable` (HTA's sort_values) and some interval is inverted (else any
 * order of equal starts gives the same groups), or stably, from iv's current
 * order (pass the filtered-table order); ERR_NOMEM on allocation failure. */
struct interval { int64_t start, end; };
size_t intervals_merge(struct interval *iv, size_t n);
int intervals_merge_ordered(struct interval *iv, size_t n, bool unstable, size_t *k);
int64_t intervals_busy(const struct interval *merged, size_t k);
/* Total length where both merged sets are active. */
int64_t intervals_intersection(const struct interval *a, size_t na,
                               const struct interval *b, size_t nb);

#endif
