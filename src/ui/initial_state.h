#ifndef HTX_UI_INITIAL_STATE_H
#define HTX_UI_INITIAL_STATE_H

/* The TUI's first state, made from the options (ui/run.c, ui/load.c). */

#include <stddef.h>

#include "app/summary_job.h"
#include "model/model.h"
#include "ui/run.h"
#include "ui/state.h"
#include "util/err.h"

/* The title: the path, "CONTROL vs TEST", or "N paths" (in buf). */
const char *ui_inputs_title(const struct ui_inputs *in, char *buf, size_t n);

/* st made for m (and the diff view over m and test when in names a diff),
 * with the options' ranks, iterations, window and first view (unless
 * in->whole); job: the summary job m shows (NULL: m has its events).
 * 0, ERR_USAGE for a rank or iteration the job lacks, or ERR_NOMEM; st is
 * then still to be let go. */
int ui_initial_state(struct ui_state *st, struct model *m, const struct model *test,
                     const struct ui_inputs *in, const struct summary_job *job, int rows,
                     int cols, struct err *e);

#endif
