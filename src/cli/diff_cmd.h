#ifndef HTX_CLI_DIFF_CMD_H
#define HTX_CLI_DIFF_CMD_H

#include <stdbool.h>

#include "analysis/diff.h"
#include "app/options.h"

/* `htx diff --report [OPTIONS] CONTROL TEST`: loads both sides, runs the
 * diff (spec §3.10) and writes compare_traces and ops_diff as text, CSV or
 * JSON to stdout; with --fail-on-regression also the regressions table.
 *
 * Returns the process exit status: 0 ok, 1 bad input, 2 bad usage, 3 when
 * --fail-on-regression found something that grew beyond the threshold.
 * Without --report the diff is the TUI's job (see cli_is_headless).
 * Borrows opts until return. */
int cli_diff_main(const struct htx_options *opts);

#endif
