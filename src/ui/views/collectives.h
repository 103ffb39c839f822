#ifndef HTX_UI_VIEWS_COLLECTIVES_H
#define HTX_UI_VIEWS_COLLECTIVES_H

#include "model/model.h"
#include "ui/state.h"

/* View C (Collectives): Enter on a collective shows its kernels on every
 * rank's lane, one time axis, the last arriver first (n/N step through
 * the ranks; ui/bindings.c, UI_CTX_COLL_TABLE). */
unsigned ui_act_collectives_enter(struct ui_state *st, const struct model *m);

#endif
