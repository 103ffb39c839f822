#ifndef HTX_ANALYSIS_DIFF_TRIAGE_H
#define HTX_ANALYSIS_DIFF_TRIAGE_H

#include <stddef.h>

#include "analysis/table.h"
#include "util/arena.h"

/* What a reader of a diff wants first, curses-free and
 * beside HTA's tables rather than in them: HTA's counts_change_categories
 * follows call counts only, so a 4.7x slower op with the same count reads
 * "=". Works on the compare_traces / compare_traces_by_rank tables of
 * diff_run made without hta_types (they have the mean columns). */

/* Per-call change beyond which time_change_categories says slower/faster. */
#define DIFF_TIME_CHANGE_PCT 10.0

/* The legend of the two marker columns, for a table note or a help line. */
#define DIFF_MARKER_LEGEND                                                                  \
    "counts_change_categories (HTA): + more calls, - fewer, = same count; "                \
    "time_change_categories: slower/faster = time per call changed by more than 10%, "     \
    "= within 10%, null (-) when a side lacks the op"

/* A copy of t (same name and title, in a) with two more columns:
 * diff_mean_change (%) = test mean per call over control's, minus 100 %
 * (null when a side has no call or control's mean is 0), and
 * time_change_categories (slower, faster, =, or null). Its note is the
 * legend. NULL on ENOMEM, or when t lacks the mean columns. */
struct table *diff_triage_table(const struct table *t, struct arena *a);

/* Orders t's rows by |diff_duration| descending (ties: name order kept) and
 * keeps the first `top` (0 = all). 0, or ERR_NOMEM. */
int diff_sort_by_delta(struct table *t, size_t top);

#endif
