#ifndef HTX_UI_IDLE_H
#define HTX_UI_IDLE_H

#include "model/model.h"
#include "ui/state.h"

/* View 4 (Idle): Enter on a (rank, stream, category) row lists that
 * category's largest gaps on the stream as a table of the view; Enter on
 * a gap shows the kernel after it on the timeline, n/N the other gaps.
 * (ui/bindings.c, UI_CTX_IDLE_TABLE.) */
unsigned ui_act_idle_enter(struct ui_state *st, const struct model *m);

#endif
