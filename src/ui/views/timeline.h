#ifndef HTX_UI_VIEWS_TIMELINE_H
#define HTX_UI_VIEWS_TIMELINE_H

#include "model/model.h"
#include "ui/state.h"

/* View 1 (Timeline): its keys (ui/views/timeline_actions.c), bound in
 * ui/bindings.c under UI_CTX_TIMELINE, and its prompt. */

unsigned ui_act_tl_left(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_right(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_pan_left(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_pan_right(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_up(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_down(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_page_up(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_page_down(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_first(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_last(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_zoom_in(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_zoom_out(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_fit(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_details(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_window(struct ui_state *st, const struct model *m);
/* Navigation (ui/views/timeline_nav.c): the next or previous event on the
 * cursor's lane (past the cursor's cell) and of the same name (those
 * become the instances n/N step through), from a kernel to its launch and
 * back, going to a time (the prompt),
 * zooming to the event under the cursor, its rank's iteration or the
 * marked range, and marking the two ends of a measure. */
unsigned ui_act_tl_next_event(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_prev_event(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_same_next(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_same_prev(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_partner(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_goto(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_zoom_event(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_zoom_iteration(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_zoom_marks(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_mark(struct ui_state *st, const struct model *m);
unsigned ui_act_tl_measure_lanes(struct ui_state *st, const struct model *m);

/* Applies the go-to prompt's text ("12.5ms", "+3us", "-1s"). */
unsigned ui_tl_goto_apply(struct ui_state *st, const struct model *m, const char *text);

/* What lies between the two marks on the cursor's lane ("marked 1.2 ms ·
 * r0 s7: 3 events, busy 0.5 ms (42%)") into buf; "" unless two are set. */
void ui_tl_measure_text(const struct ui_state *st, const struct model *m, char *buf, size_t n);

unsigned ui_act_jump_next(struct ui_state *st, const struct model *m);
unsigned ui_act_jump_prev(struct ui_state *st, const struct model *m);

/* Applies a timeline search: the matching events become the instances
 * that n/N step through, starting at the cursor. */
unsigned ui_tl_search_apply(struct ui_state *st, const struct model *m, const char *text);

/* The timeline's prompt: search and go to a time. */
const char *ui_tl_prompt_initial(const struct ui_state *st, enum ui_prompt p);
unsigned ui_tl_prompt_apply(struct ui_state *st, const struct model *m, enum ui_prompt p,
                            const char *text);

#endif
