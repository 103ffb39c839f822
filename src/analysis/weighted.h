#ifndef HTX_ANALYSIS_WEIGHTED_H
#define HTX_ANALYSIS_WEIGHTED_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/stats.h"
#include "analysis/table.h"
#include "util/arena.h"

/* Statistics shared by the queue-length and memory-bandwidth analyses
 * (private to src/analysis/{queue,membw,launch}.c). */

/* Time-weighted summary of a step function (htx, semantics
 * .sample_weighted_summaries = false; spec §4.9). values[i] holds for
 * weights[i] >= 0 time units (the gap to the next sample of the series; 0 for
 * the last one and for samples overwritten at the same timestamp):
 *   count = n, the number of samples (as HTA's, so both modes read alike);
 *   mean  = sum(w*v) / W with W = sum(w);
 *   std   = sqrt(sum(w*(v-mean)^2) / W), the population deviation over time;
 *   min/max over the samples held for a positive time;
 *   p-quantile = the smallest value v such that the time spent at values
 *                <= v is at least p*W (a value the series really held).
 * When W = 0 (one sample, or all samples at one timestamp) every sample gets
 * weight 1. n = 0 gives count 0 and NaN for the rest, like describe().
 * Borrows values/weights; scratch memory comes from a. Returns 0 or ERR_NOMEM. */
int describe_time_weighted(const double *values, const double *weights, size_t n,
                           struct arena *a, struct describe *out);

/* The same summary of a step function of integer levels: levels[i] held
 * from ts[i] to ts[i + 1] (weights (double)(ts[i + 1] - ts[i]), none for
 * the last sample), bit for bit what describe_time_weighted gives on those
 * values and weights: the stable sort by value is a counting sort over the
 * levels, straight into the weights in level order (8 bytes a sample of
 * scratch, not 32 and the merge sort's, and no comparisons; a level's
 * value is its place) when they span fewer
 * values than there are samples. Returns 0 or ERR_NOMEM. */
int describe_levels_time_weighted(const int64_t *levels, const int64_t *ts, size_t n,
                                  struct arena *a, struct describe *out);

/* Writes count, mean, std, min, 25%, 50%, 75%, max into row[first..first+8)
 * (count as an integer, the rest as doubles; NaN stays NaN). Numbers only:
 * nothing is allocated. */
void describe_put_cells(struct cell *row, size_t first, const struct describe *d);

/* The eight describe() column definitions, with a unit for the value columns
 * (NULL for none). Writes into cols[0..8); the names are static strings and
 * unit is borrowed (table_new copies both). */
void describe_cols(struct table_col *cols, const char *unit);

#define DESCRIBE_NCOLS 8

#endif
