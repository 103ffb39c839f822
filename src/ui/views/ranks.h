#ifndef HTX_UI_VIEWS_RANKS_H
#define HTX_UI_VIEWS_RANKS_H

#include "model/model.h"
#include "ui/state.h"

/* View R (Ranks): the rank overview (analysis/ranks.h) with a heat strip of
 * each rank's step times after its number, and the step times per
 * iteration, built into the view's doc (ui/views/docs.c calls it).
 * Returns 0 or ERR_NOMEM. */
int ui_ranks_decorate(struct ui_state *st, const struct model *m, struct ui_doc *d);

/* Enter on a rank: selects it in the left pane and opens its timeline. */
unsigned ui_act_ranks_enter(struct ui_state *st, const struct model *m);

/* Enter on a collective (view C): its kernels on every rank's lane, one time
 * axis, the last arriver first (n/N step through the ranks). */
unsigned ui_act_collectives_enter(struct ui_state *st, const struct model *m);

#endif
