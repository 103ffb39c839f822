#ifndef HTX_UI_VIEWS_RANKS_H
#define HTX_UI_VIEWS_RANKS_H

#include "model/model.h"
#include "ui/state.h"

/* View R (Ranks): Enter on a rank selects it in the left pane and opens
 * its timeline (ui/bindings.c, UI_CTX_RANK_TABLE). */
unsigned ui_act_ranks_enter(struct ui_state *st, const struct model *m);

#endif
