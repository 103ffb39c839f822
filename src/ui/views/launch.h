#ifndef HTX_UI_LAUNCH_H
#define HTX_UI_LAUNCH_H

#include "model/model.h"
#include "ui/state.h"

/* View 6 (Launch): the launch tables gain the launched GPU event's name
 * (from the correlation id), and Enter shows that event on the timeline,
 * n/N the other rows in the order shown. */

/* Enter in view 6 (ui/bindings.c, UI_CTX_LAUNCH_TABLE). */
unsigned ui_act_launch_enter(struct ui_state *st, const struct model *m);

#endif
