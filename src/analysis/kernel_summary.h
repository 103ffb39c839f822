#ifndef HTX_ANALYSIS_KERNEL_SUMMARY_H
#define HTX_ANALYSIS_KERNEL_SUMMARY_H

#include <stddef.h>

#include "analysis/table.h"
#include "util/arena.h"

/* Triage order for the kernel tables, curses-free so the
 * report and the interface show the same thing. Both work on the
 * kernel_breakdown table kernels_run makes (columns found by name), so they
 * apply to its output under either semantics; the report uses them under
 * --semantics=htx only, so that HTA's tables stay HTA's under hta. */

/* Reorders kernel_breakdown's rows in place: total time descending, the
 * "others" rows last (themselves by time), ties by name then rank. Other
 * tables are left alone. 0, or ERR_NOMEM. */
int kernel_breakdown_sort_by_time(struct table *breakdown);

/* One row per (kernel name, kernel type) over the ranks of breakdown, in the
 * order above, named "kernel_summary" with the columns
 *   name, kernel_type, sum (us), percentage (%) [of all rows' time], ranks,
 *   rank min (us), rank mean (us), rank max (us) [the kernel's per-rank
 *   totals, over the ranks where it ran], slowest rank.
 * Made in arena a (which owns it); *out = NULL when breakdown is not a
 * kernel_breakdown. 0, or ERR_NOMEM. */
int kernel_summary_table(const struct table *breakdown, struct arena *a, struct table **out);

/* The per-rank rows behind summary row srow: indices of breakdown's rows
 * with the same name and type, slowest first, at most cap of them written
 * to rows; returns how many there are (may exceed cap). For an expandable
 * summary row in the interface. */
size_t kernel_summary_rank_rows(const struct table *breakdown, const struct table *summary,
                                size_t srow, size_t *rows, size_t cap);

#endif
