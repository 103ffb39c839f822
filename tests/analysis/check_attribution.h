#ifndef HTX_TESTS_CHECK_ATTRIBUTION_H
#define HTX_TESTS_CHECK_ATTRIBUTION_H

#include <check.h>

#include "analysis/analysis.h"

/* Helpers shared by the attribution suite's two files (check_attribution.c:
 * hand-computed traces; attribution_oracle.c: HTA's outputs). */

/* The table of l named name; fails the test when missing. */
const struct table *find_table(const struct table_list *l, const char *name);
/* The first row whose string column col equals s, or -1. */
long row_with(const struct table *t, const char *col, const char *s);
/* A numeric cell; fails when the column is missing. */
double num(const struct table *t, long row, const char *col);
/* Runs one analysis into tables allocated in a; fails the test on error. */
struct table_list run(const struct model *m, analysis_fn fn, const struct analysis_opts *o,
                      struct arena *a);

/* The oracle test case (one loop iteration per trace set). */
TCase *attribution_oracle_tcase(void);

#endif
