#ifndef HTX_UI_REFRESH_H
#define HTX_UI_REFRESH_H

#include "model/model.h"
#include "ui/state.h"
#include "util/err.h"

/* Brings the derived data up to date after actions ran (the one place, with
 * the loader, where the UI changes the model): UI_RESELECT runs model_select
 * with the state's ranks/iteration/window; UI_RESELECT or UI_RELANE rebuild
 * lanes and table rows; the layout follows st->rows/cols; the active view's
 * refresh runs (its analyses, when its content is stale). No curses. Returns 0, or an ERR_*
 * with e set (the state stays usable: the error is also the status
 * message). */
int ui_refresh(struct ui_state *st, struct model *m, unsigned flags, struct err *e);

/* One key through the key table, then ui_refresh. Returns the reaction flags. */
unsigned ui_refresh_key(struct ui_state *st, struct model *m, int key);

#endif
