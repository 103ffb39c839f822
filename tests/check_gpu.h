#ifndef HTX_TESTS_CHECK_GPU_H
#define HTX_TESTS_CHECK_GPU_H

#include <check.h>

#include "analysis/analysis.h"
#include "model/model.h"

/* Shared by the gpu analysis tests (check_gpu*.c). */

/* Loads one JSON document as file "t.json"; fails the test on error. */
struct model *gpu_load_doc(const char *doc, enum semantics_mode mode);
/* The table of that name in l; fails the test when absent. */
const struct table *gpu_find_table(const struct table_list *l, const char *name);
double gpu_num(const struct table *t, size_t row, const char *col);
const char *gpu_text(const struct table *t, size_t row, const char *col);
/* Runs fn with o (NULL = defaults), tables in a, into l; fails on error. */
void gpu_run(analysis_fn fn, const struct model *m, const struct analysis_opts *o,
             struct arena *a, struct table_list *l);

Suite *gpu_counters_suite(void);
Suite *gpu_oracle_suite(void);

#endif
