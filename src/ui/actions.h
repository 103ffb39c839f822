#ifndef HTX_UI_ACTIONS_H
#define HTX_UI_ACTIONS_H

#include <stddef.h>

#include "model/model.h"
#include "ui/state.h"
#include "ui/view.h"

/* The key table and the actions it dispatches to (htop's
 * Action_setBindings). An action changes the plain ui_state and returns
 * enum ui_reaction flags; none touches curses, the terminal or the model
 * (the loop applies UI_RESELECT with model_select). The help overlay is
 * generated from the same table, so it cannot go out of date. */

/* Every binding, in the order the help overlay lists them. */
const struct ui_binding *ui_bindings(size_t *n);

/* Handles one key: the prompt or an overlay when one is open, else the
 * binding of the focused pane's context, then the active view's contexts
 * (struct ui_view_ops.contexts), then the global one (UI_CTX_ANY).
 * Unbound keys return 0. */
unsigned ui_dispatch(struct ui_state *st, const struct model *m, int key);

/* A mouse event at screen (y, x): button 1 press selects/moves the cursor
 * (a tab switches view), the wheel scrolls (UI_KEY_WHEEL_UP/DOWN). */
unsigned ui_mouse(struct ui_state *st, const struct model *m, int y, int x, int button);

/* Fills the help overlay's lines from the key table. */
int ui_help_lines(struct ui_state *st);

/* ---- actions (exported for the tests) ---- */
unsigned ui_act_quit(struct ui_state *st, const struct model *m);
unsigned ui_act_help(struct ui_state *st, const struct model *m);
unsigned ui_act_escape(struct ui_state *st, const struct model *m);
unsigned ui_act_back(struct ui_state *st, const struct model *m);
unsigned ui_act_forward(struct ui_state *st, const struct model *m);
unsigned ui_act_redraw(struct ui_state *st, const struct model *m);
unsigned ui_act_focus_next(struct ui_state *st, const struct model *m);
unsigned ui_act_toggle_left(struct ui_state *st, const struct model *m);
unsigned ui_act_copy_name(struct ui_state *st, const struct model *m);
unsigned ui_act_focus_prev(struct ui_state *st, const struct model *m);
unsigned ui_act_iter_next(struct ui_state *st, const struct model *m);
unsigned ui_act_iter_prev(struct ui_state *st, const struct model *m);
unsigned ui_act_search(struct ui_state *st, const struct model *m);
unsigned ui_act_filter(struct ui_state *st, const struct model *m);

/* Switches to view id (the number keys, i and d). */
unsigned ui_act_view(struct ui_state *st, const struct model *m, enum ui_view_id id);

/* left pane (ui/rank_pane.c) */
unsigned ui_act_item_down(struct ui_state *st, const struct model *m);
unsigned ui_act_item_up(struct ui_state *st, const struct model *m);
unsigned ui_act_item_page_down(struct ui_state *st, const struct model *m);
unsigned ui_act_item_page_up(struct ui_state *st, const struct model *m);
unsigned ui_act_item_first(struct ui_state *st, const struct model *m);
unsigned ui_act_item_last(struct ui_state *st, const struct model *m);
unsigned ui_act_item_expand(struct ui_state *st, const struct model *m);
unsigned ui_act_item_collapse(struct ui_state *st, const struct model *m);
unsigned ui_act_item_toggle(struct ui_state *st, const struct model *m);
unsigned ui_act_item_all(struct ui_state *st, const struct model *m);
unsigned ui_act_item_only(struct ui_state *st, const struct model *m);

/* Applies a finished prompt: hands its text to the active view. */
unsigned ui_prompt_apply(struct ui_state *st, const struct model *m);

#endif
