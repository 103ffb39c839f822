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

/* A document loaded and one analysis run over it, the shape of most tests:
 * gpu_case_run loads doc under mode and runs fn with o (NULL = defaults),
 * failing the test on error; gpu_case_fini releases the model and tables. */
struct gpu_case {
    struct model *m;
    struct arena a;
    struct table_list l;
};
void gpu_case_run(struct gpu_case *c, const char *doc, enum semantics_mode mode, analysis_fn fn,
                  const struct analysis_opts *o);
void gpu_case_fini(struct gpu_case *c);

Suite *gpu_counters_suite(void);
Suite *gpu_oracle_suite(void);

#endif
