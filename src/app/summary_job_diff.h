#ifndef HTX_APP_SUMMARY_JOB_DIFF_H
#define HTX_APP_SUMMARY_JOB_DIFF_H

/* A diff's two sides from their rank summaries without their events:
 * `htx diff --report` and the TUI's diff view compare the ranks'
 * stored parts (analysis/diff.h), which give what the events give for
 * whole ranks under htx's semantics. */

#include <stdbool.h>
#include <stdint.h>

#include "analysis/diff.h"
#include "app/summary_job.h"
#include "app/options.h"
#include "model/model.h"
#include "util/arena.h"
#include "util/err.h"

struct summary_job_diff {
    struct summary_job job[2];   /* control, test */
    struct model *m[2];          /* their models from the summaries (ranks, for plans and headers);
                                    the caller may take them (and set NULL) */
    struct diff_side src[2];     /* their parts, in arena */
    struct arena arena;
};

/* Why the summaries alone cannot answer the diff opts asks for (under sem),
 * or NULL: another semantics, a window, chosen iterations, or paths that
 * name traces. */
const char *app_diff_needs_events(const struct htx_options *opts, const struct semantics *sem);

/* Opens both sides (opts->paths[0] and [1]): the control with want
 * (SUMMARY_JOB_*; the diff's parts are always read), the test with what the
 * diff needs; their tiles share tiles_budget (summary_job_open). 0;
 * ERR_EMPTY when a summary predates the parts (the events answer
 * instead); or an error naming the file. Release d with
 * summary_job_diff_fini, also after a failure. */
int summary_job_diff_open(const struct htx_options *opts, unsigned want, bool warn_stale,
                          size_t tiles_budget, struct summary_job_diff *d, struct err *e);

/* Whether the TUI diffs without the events: 1 with d open (--events=skip,
 * or auto and the two sides' events would take more than memory_limit
 * bytes), 0 with d empty (load them), or an error: ERR_USAGE when skip
 * meets a diff that needs them, or those of summary_job_diff_open. */
int summary_job_diff_choose(const struct htx_options *opts, const struct semantics *sem,
                            uint64_t memory_limit, struct summary_job_diff *d, struct err *e);

void summary_job_diff_fini(struct summary_job_diff *d);

#endif
