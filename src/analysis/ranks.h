#ifndef HTX_ANALYSIS_RANKS_H
#define HTX_ANALYSIS_RANKS_H

#include "analysis/analysis.h"

/* The Ranks view's tables (issue 13), over the model's current selection:
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

#endif
