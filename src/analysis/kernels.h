#ifndef HTX_ANALYSIS_KERNELS_H
#define HTX_ANALYSIS_KERNELS_H

#include <stddef.h>

#include "analysis/table.h"
#include "model/model.h"
#include "util/arena.h"
#include "util/err.h"

/* kernels_run (analysis.h) in two steps, so that a job's kernel tables can
 * be made from what each rank's summary stores, without the events:
 * the job's tables are not the ranks' tables one after the
 * other (the type breakdown's percentages are of the job's time), but they
 * are a function of exact per-rank parts. */

/* The part's table of wall-clock nanoseconds per kernel-type label
 * (kernel_type, ns), beside its kernel_breakdown rows. */
#define KERNELS_PART_TYPES "kernel_type_ns"

/* The part of the ranks m selects: KERNELS_PART_TYPES (the labels present,
 * with their exact ns over those ranks) and their kernel_breakdown rows (as
 * kernels_run makes them, in no particular order). What a summary stores
 * for ANALYSIS_KERNELS. 0, or ERR_NOMEM with e set. */
int kernels_parts_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                      struct table_list *out, struct err *e);

/* kernels_run's tables from the parts of disjoint sets of ranks, made in a
 * under sem: the labels' times added, the rows in the job's order. Made
 * from the parts of a job's ranks, they are what kernels_run makes on the
 * job. ERR_PARSE when a part is not one (a damaged summary), ERR_NOMEM. */
int kernels_reduce(const struct semantics *sem, const struct table_list *const *parts, size_t n,
                   struct arena *a, struct table_list *out, struct err *e);

#endif
