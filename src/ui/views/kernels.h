#ifndef HTX_UI_KERNELS_H
#define HTX_UI_KERNELS_H

#include <stdbool.h>

#include "model/model.h"
#include "ui/state.h"

/* View 3 under htx: kernel_breakdown in triage order (by time, "others"
 * last) and before it the kernel summary, one row per kernel over the
 * selected ranks with its share, min/mean/max over ranks and slowest rank,
 * expandable into its per-rank rows. Under --semantics=hta, HTA's tables. */

/* Keys of the summary (ui/bindings.c, UI_CTX_KERNEL_TABLE). */
unsigned ui_act_kernels_expand(struct ui_state *st, const struct model *m);
unsigned ui_act_kernels_collapse(struct ui_state *st, const struct model *m);
unsigned ui_act_kernels_enter(struct ui_state *st, const struct model *m);

#endif
