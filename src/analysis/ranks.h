#ifndef HTX_ANALYSIS_RANKS_H
#define HTX_ANALYSIS_RANKS_H

#include "analysis/analysis.h"

/* The Ranks view's tables, over the model's current selection:
 * rank_overview, one row per selected rank by blame descending (ties: rank
 * ascending): the wait the rank inflicted on the others at collectives
 * (blame) and suffered (collectives.h), its median step against the median
 * over the ranks (%), idle and communication shares of its GPU time span
 * (first GPU activity to last, as the temporal breakdown), the steps the
 * selection keeps, and its median and longest step (us); rank_steps,
 * the step time of every kept iteration of every rank, in the same rank
 * order. Same contract as the analyses of analysis.h: tables in `a`,
 * returns 0 or an ERR_* with e set. */
int ranks_overview_run(const struct model *m, const struct analysis_opts *o, struct arena *a,
                       struct table_list *out, struct err *e);

/* ranks_overview_run in two steps, so that a job's Ranks view can be made
 * from what each rank's summary stores: each rank's figures and
 * steps (its part), then with the blame of the job's collectives. */
#define RANKS_PART_FIGURES "rank_figures"
/* The part of the ranks m selects: RANKS_PART_FIGURES (rank, steps, step
 * median and max, idle and comm shares) and rank_steps, in rank order. */
int ranks_parts_run(const struct model *m, const struct analysis_opts *o, struct arena *a,
                    struct table_list *out, struct err *e);
/* The tables of ranks_overview_run from the parts of disjoint sets of ranks
 * and the job's collectives (cr, NULL: no blame). ERR_PARSE when a part is
 * not one, ERR_NOMEM. */
struct coll_result;
int ranks_reduce(const struct table_list *const *parts, size_t nparts,
                 const struct coll_result *cr, struct arena *a, struct table_list *out,
                 struct err *e);

#endif
