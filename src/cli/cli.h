#ifndef HTX_CLI_CLI_H
#define HTX_CLI_CLI_H

#include <stdbool.h>

#include "app/options.h"

/* Whether opts names a headless command (help, version, info, report,
 * counters, diff --report) rather than the TUI. */
bool cli_is_headless(const struct htx_options *opts);

/* Runs the headless command opts names and returns the process exit status
 * (0 ok, 1 bad input, 2 bad usage, 3 diff regression gate). Borrows opts
 * until return. Only for opts where cli_is_headless is true. */
int cli_run(const struct htx_options *opts);

#endif
