#ifndef HTX_CLI_SUMMARIES_H
#define HTX_CLI_SUMMARIES_H

#include <stdbool.h>

#include "analysis/analysis.h"
#include "app/options.h"
#include "summary/tables.h"

/* Per-rank summaries (issue 12): `htx summarize` makes them, `htx report`
 * reads a directory of them as it reads traces.
 *
 * What a summary answers (v1): the analyses whose tables, for a job, are
 * the concatenation of each rank's alone (measured on ../shared and the
 * generated jobs): temporal, idle and overlap, under both semantics. The
 * others (kernels, launch, annotations, ...) need a cross-rank reduce or
 * the events; report says they are not in the summaries. */

#define SUMMARY_NANALYSES 3
extern const enum analysis_id summary_analyses[SUMMARY_NANALYSES];
bool summary_has(enum analysis_id id);

int cli_summarize_main(const struct htx_options *opts);

/* `htx report`: over summaries when the paths name only summaries (*.htxs
 * files, or directories with at least one *.htxs and no trace file), else
 * over the traces (cli_report_main). */
int cli_report_paths(const struct htx_options *opts);

#endif
