#ifndef HTX_CLI_DIFF_CMD_H
#define HTX_CLI_DIFF_CMD_H

#include <stdbool.h>

#include "analysis/diff.h"
#include "cli/options.h"

/* `htx diff --report [OPTIONS] CONTROL TEST`: loads both sides, runs the
 * diff (spec §3.10) and writes compare_traces and ops_diff as text, CSV or
 * JSON to stdout; with --fail-on-regression also the regressions table.
 *
 * Returns the process exit status: 0 ok, 1 bad input, 2 bad usage, 3 when
 * --fail-on-regression found something that grew beyond the threshold.
 * Without --report the diff is the UI's job: returns -1 and cli.c calls
 * ui_main instead. Borrows opts until return. */
int cli_diff_main(const struct htx_options *opts);

/* The diff request of one side (test = false: control) from the options:
 * --control-rank/--test-rank and --control-iteration/--test-iteration, or
 * --rank/--iteration when the side's own option is absent. Borrows opts'
 * lists; shared with the UI's diff view. */
void cli_diff_request(const struct htx_options *opts, bool test, struct diff_request_side *out);

/* The semantics to load both sides with: --semantics, then TraceDiff's
 * parse-only loading under HTA (diff_semantics), then an explicit
 * --drop-last-step / --include-last-step. */
void cli_diff_semantics(const struct htx_options *opts, struct semantics *out);

#endif
