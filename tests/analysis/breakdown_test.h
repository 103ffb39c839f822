#ifndef HTX_TESTS_BREAKDOWN_TEST_H
#define HTX_TESTS_BREAKDOWN_TEST_H

#include <check.h>

#include "analysis/analysis.h"
#include "model/model.h"

/* Helpers shared by the breakdown analyses' Check suite (check_breakdown.c,
 * breakdown_props.c, breakdown_oracle.c, breakdown_tiles.c, breakdown_kernel_parts.c):
 * tiny traces written inline. */

#define X(cat, name, tid, ts, dur, args)                                                    \
    "{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":0,\"tid\":" #tid \
    ",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{" args "}},"
#define KERNEL(name, stream, ts, dur, corr) \
    X("kernel", name, stream, ts, dur, "\"stream\":" #stream ",\"correlation\":" #corr)
#define LAUNCH(ts, corr) X("cuda_runtime", "cudaLaunchKernel", 1, ts, 1, "\"correlation\":" #corr)
#define CPU_OP(ts, dur) X("cpu_op", "aten::mm", 1, ts, dur, "")

/* Scratch arena for analysis results, set up and torn down per test. */
extern struct arena bd_scratch;
void bd_setup(void);
void bd_teardown(void);

/* Loads one rank from trace events (a list of JSON objects, each followed by
 * a comma). Caller frees with model_free. Aborts the test on failure. */
struct model *bd_load_with(const char *events, const struct semantics *sem);
struct model *bd_load(const char *events, enum semantics_mode mode);

/* Runs an analysis (o NULL = defaults) and returns its table called name. */
struct table *bd_run(analysis_fn fn, const struct model *m, const struct analysis_opts *o,
                     const char *name);
double bd_num(const struct table *t, size_t row, const char *col);
const char *bd_str(const struct table *t, size_t row, const char *col);
#define ASSERT_NUM(t, row, col, want) ck_assert_double_eq_tol(bd_num(t, row, col), want, 1e-9)

TCase *breakdown_props_tcase(void);
TCase *breakdown_oracle_tcase(void);
TCase *breakdown_tiles_tcase(void);
TCase *breakdown_kernel_parts_tcase(void);

#endif
