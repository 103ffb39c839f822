#ifndef HTX_UI_VIEWS_FINDINGS_H
#define HTX_UI_VIEWS_FINDINGS_H

#include <stdbool.h>

#include "model/model.h"
#include "ui/state.h"
#include "util/err.h"

/* View ! (Findings): what is wrong with the job (analysis/findings.h), one
 * row a finding with a cost bar, its title, ranks and cost, and under the
 * table the selected finding's cause, where it is and how far to trust
 * it. Enter jumps to its evidence (ui/bindings.c, UI_CTX_FINDINGS). */
unsigned ui_act_findings_enter(struct ui_state *st, const struct model *m);

/* Computes the findings of m's current selection into the view's document
 * and says whether one of them, a problem and not a hot spot, costs more
 * than max_cost_pct percent of the iteration (the TUI then opens on the
 * view). 0 or ERR_NOMEM with e set. */
int ui_findings_worth_opening(struct ui_state *st, const struct model *m, double max_cost_pct,
                              bool *worth, struct err *e);

#endif
