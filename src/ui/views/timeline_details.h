#ifndef HTX_UI_DETAILS_H
#define HTX_UI_DETAILS_H

#include <stdint.h>

#include "model/model.h"
#include "ui/state.h"

/* The event details overlay (Enter on the timeline): name in full, kind,
 * rank/stream/thread, start, duration, correlation id, iteration, the
 * launching CPU op and the launch delay (or, for a launch, the GPU work it
 * started), and the annotation stacks. Lines go into st->overlay_lines
 * (st->overlay_arena); the overlay wraps long lines when it draws them.
 * Returns 0 or ERR_NOMEM. */
int ui_details_build(struct ui_state *st, const struct model *m, uint32_t rank, uint32_t pos);

/* The measure between two marks [a, b), lane by lane (M on the timeline):
 * each lane's events there and the time they keep it busy. Lines as
 * above. Returns 0 or ERR_NOMEM. */
int ui_details_measure(struct ui_state *st, const struct model *m, int64_t a, int64_t b);

#endif
