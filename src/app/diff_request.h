#ifndef HTX_APP_DIFF_REQUEST_H
#define HTX_APP_DIFF_REQUEST_H

#include <stdbool.h>

#include "analysis/diff.h"
#include "app/options.h"

/* The diff request of one side (test = false: control) from the options:
 * --control-rank/--test-rank and --control-iteration/--test-iteration, or
 * --rank/--iteration when the side's own option is absent. Borrows opts'
 * lists; shared by `htx diff --report` and the TUI's diff view. */
void app_diff_request(const struct htx_options *opts, bool test, struct diff_request_side *out);

/* The semantics to load both sides with: --semantics, then TraceDiff's
 * parse-only loading under HTA (diff_semantics), then an explicit
 * --drop-last-step / --include-last-step. */
void app_diff_semantics(const struct htx_options *opts, struct semantics *out);

#endif
