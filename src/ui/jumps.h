#ifndef HTX_UI_JUMPS_H
#define HTX_UI_JUMPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "ui/state.h"

/* The instances n/N step through on the timeline (st->jumps): what any view
 * hands to the timeline when Enter shows a row's events there. A view fills
 * st->jumps (itself or with ui_find_instances) and calls ui_jumps_show;
 * views never call the timeline view directly. */

/* Finds the events whose name contains `text` (case-insensitive) in the
 * included ranks, or equals it exactly when `exact`; rank_filter >= 0
 * limits them to one rank number. Sets st->jumps (by time) and returns how
 * many there are; st->jump_what describes them. */
size_t ui_find_instances(struct ui_state *st, const struct model *m, const char *text,
                         bool exact, int64_t rank_filter);

/* Moves to the next (dir 1) or previous (-1) instance, wrapping, and puts
 * it under the timeline's cursor. Returns the reaction flags. */
unsigned ui_jumps_step(struct ui_state *st, const struct model *m, int dir);

/* Opens the timeline on instance `at` of st->jumps (st->njumps > 0), the
 * view left behind as the one Esc returns to. Returns the reaction flags. */
unsigned ui_jumps_show(struct ui_state *st, const struct model *m, size_t at);

/* Opens the timeline on the window [t0, t1) of rank index r (t1 <= t0:
 * the window as it is) with event pos selected (MODEL_NONE: none; the
 * window then shows the lane of `stream`, -1 any, of r), the view left
 * behind as the one Esc returns to. Returns the reaction flags. */
unsigned ui_jumps_show_window(struct ui_state *st, const struct model *m, size_t r,
                              int64_t stream, uint32_t pos, int64_t t0, int64_t t1);

#endif
