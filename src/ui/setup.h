#ifndef HTX_UI_SETUP_H
#define HTX_UI_SETUP_H

/* The TUI's state as the options ask for it (app.c, load.c). */

#include <stddef.h>

#include "app/summary_job.h"
#include "model/model.h"
#include "ui/app.h"
#include "ui/state.h"
#include "util/err.h"

/* The title: the path, "CONTROL vs TEST", or "N paths" (in buf). */
const char *ui_config_title(const struct ui_config *c, char *buf, size_t n);

/* st made for m (and the diff view over m and test when c names a diff),
 * with c's ranks, iterations, window and first view; job: the summary job
 * m shows (NULL: m has its events). 0, ERR_USAGE for a rank or iteration
 * the job lacks, or ERR_NOMEM; st is then still to be let go. */
int ui_setup_state(struct ui_state *st, struct model *m, const struct model *test,
                   const struct ui_config *c, const struct summary_job *job, int rows, int cols,
                   struct err *e);

#endif
