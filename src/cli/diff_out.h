#ifndef HTX_CLI_DIFF_OUT_H
#define HTX_CLI_DIFF_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/diff.h"
#include "analysis/table.h"
#include "analysis/trust.h"
#include "app/format.h"
#include "app/options.h"

/* Writing `htx diff --report` (DESIGN.md "Report formats"): the same shapes
 * as `htx report`, with both sides in "inputs" and ops_diff as HTA's object
 * of five name lists. */

struct diff_out_side {
    const char *label;            /* "control" or "test" */
    const char *path;             /* as given on the command line */
    const struct model *m;
    const struct diff_plan *plan; /* the ranks and iterations compared */
    const struct trust_report *trust;   /* its job's checks (analysis/trust.h), or NULL */
};

/* Writes the tables of tl as text, CSV or JSON, with each side's trust
 * checks (text: lines under the sides that have some; JSON: "trust", an
 * object of the two sides' rows, always; CSV: a "# trust" table with a
 * side column when a check fired). Returns 0 or -1 on a write
 * error. Borrows everything until return. */
int diff_write(FILE *f, enum htx_format fmt, const struct format_opts *fo,
               const struct diff_out_side sides[2], const struct table_list *tl, bool hta);

#endif
