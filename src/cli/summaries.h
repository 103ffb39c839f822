#ifndef HTX_CLI_SUMMARIES_H
#define HTX_CLI_SUMMARIES_H

#include <stdbool.h>

#include "analysis/analysis.h"
#include "app/options.h"
#include "summary/tables.h"

/* Per-rank summaries: `htx summarize` makes them; every command
 * reads them as the traces they were made from (their packed events,
 * trace/pack.h), so every analysis is answered exactly.
 *
 * A summary also holds, under htx's semantics, the result tables of the
 * analyses whose job tables are the concatenation of each rank's alone
 * (measured on ../shared and the generated jobs): temporal, idle and
 * overlap; the kernel breakdown's per-rank parts (analysis/kernels.h); the
 * collective records (summary/colls_io.h) and the tiles
 * (summary/tiles_io.h). A report asking only for what those answer
 * (temporal, kernels, idle, overlap, collectives, stragglers, utilization)
 * reads them and no event, through the functions that answer them on a
 * trace, which is what lets it run over a job too big to load on one
 * machine. Under --semantics=hta it replays the events, as for every other
 * analysis. */

int cli_summarize_main(const struct htx_options *opts);

/* `htx report`: from the summaries' tables when the paths name only
 * summaries (*.htxs files, or directories with at least one *.htxs and no
 * trace file), the semantics is htx's and every analysis asked for is in
 * the tables (unless --events=load); otherwise by loading (cli_report_main),
 * which reads summaries as their traces, unless --events=skip, which then
 * refuses, saying why. */
int cli_report_paths(const struct htx_options *opts);

/* `htx check`: as cli_report_paths with the findings alone: from the
 * summaries when the paths name only summaries (unless --events=load),
 * else cli_check_main. */
int cli_check_paths(const struct htx_options *opts);

/* The findings table (analysis/findings.h) of a summary job's selected
 * ranks (NULL: all), from what the summaries hold (summary_job_findings,
 * which says what summary_job_open must read for it), in a. With crossed,
 * also how many problems cost more than pct percent (check_over_threshold).
 * 0, or ERR_NOMEM. */
struct summary_job;
int report_findings_tables(const struct summary_job *l, const bool *selected, struct arena *a,
                           struct table_list *out, size_t *crossed, double pct, struct err *e);

#endif
