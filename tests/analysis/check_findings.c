#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_doc.h"
#include "analysis/findings.h"
#include "model/model.h"

/* The findings (analysis/findings*.c): each rule finds the problem planted
 * in a hand-made trace with the right ranks and cost, and raises nothing on
 * a trace without it. */

/* Runs the rules on m into f (items in a). */
static void run(struct model *m, struct arena *a, struct findings *f)
{
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct err e = {0, ""};
    ck_assert_msg(findings_of_model(m, &o, NULL, a, f, &e) == 0, "%s", e.msg);
    for (size_t i = 0; i < f->n; i++) {
        ck_assert(f->items[i].cost_ns <= f->iteration_ns);
        ck_assert(f->items[i].cost_share >= 0 && f->items[i].cost_share <= 1);
    }
}

static const struct finding *find(const struct findings *f, enum finding_kind k)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->items[i].kind == k)
            return &f->items[i];
    return NULL;
}

/* Two steps of 1000 us; in each a computation kernel on stream 7 and a
 * collective on stream 8 starting at comm_at (us into the step) for 300 us. */
static void two_steps(struct doc *d, int comm_at)
{
    doc_begin(d);
    for (int s = 0; s < 2; s++) {
        int t = s * 1000;
        char step[32];
        snprintf(step, sizeof step, "ProfilerStep#%d", s + 1);
        ev(d, "user_annotation", step, 1, t, 1000, -1, -1);
        ev(d, "cuda_runtime", "cudaLaunchKernel", 1, t + 10, 2, -1, 10 * s + 1);
        ev(d, "kernel", "gemm", 9, t + 100, 500, 7, 10 * s + 1);
        ev(d, "cuda_runtime", "cudaLaunchKernel", 1, t + 20, 2, -1, 10 * s + 2);
        ev(d, "kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 10, t + comm_at, 300, 8,
           10 * s + 2);
    }
}

START_TEST(exposed_comm_should_cost_what_computation_does_not_hide)
{
    struct doc d;
    two_steps(&d, 500);   // 500..800 beside gemm's 100..600: 200 us exposed a step
    struct model *m = load_doc(&d);
    struct arena a;
    arena_init(&a, 0);
    struct findings f;
    run(m, &a, &f);
    ck_assert_double_eq_tol(f.iteration_ns, 1000e3, 1);
    const struct finding *x = find(&f, FINDING_EXPOSED_COMM);
    ck_assert_ptr_nonnull(x);
    ck_assert_double_eq_tol(x->cost_ns, 200e3, 1);
    ck_assert_double_eq_tol(x->cost_share, 0.2, 1e-9);
    ck_assert_str_eq(x->ranks, "0");
    ck_assert_int_eq(x->evidence.rank, 0);
    ck_assert_int_eq(x->evidence.stream, 8);
    ck_assert_str_eq(x->evidence.row, "rank=0");
    ck_assert_int_le(x->start_ns, 600000);
    ck_assert_int_ge(x->end_ns, 800000);
    ck_assert_ptr_nonnull(strstr(x->cause, "ncclDevKernel"));
    ck_assert_double_eq_tol(x->confidence, 1.0, 1e-9);
    struct table *t = findings_table(&f, &a);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(t->ncols, 11);
    ck_assert_str_eq(table_cell(t, 0, 0)->v.s, "exposed_communication");
    ck_assert_double_eq_tol(table_cell(t, 0, 3)->v.d, 200.0, 1e-9);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(exposed_comm_should_stay_silent_when_computation_hides_it)
{
    struct doc d;
    two_steps(&d, 200);   // 200..500 inside gemm's 100..600
    struct model *m = load_doc(&d);
    struct arena a;
    arena_init(&a, 0);
    struct findings f;
    run(m, &a, &f);
    ck_assert_ptr_null(find(&f, FINDING_EXPOSED_COMM));
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(findings_should_lower_confidence_when_trust_fires)
{
    struct doc d;
    two_steps(&d, 500);
    struct model *m = load_doc(&d);
    struct arena a;
    arena_init(&a, 0);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct trust_report t = {.n = 1, .world_size = 2};
    t.findings[0] = (struct trust_finding){.check = TRUST_MISSING_RANKS, .severe = true, .count = 1};
    snprintf(t.findings[0].ranks, sizeof t.findings[0].ranks, "1");
    struct findings f;
    struct err e = {0, ""};
    ck_assert_int_eq(findings_of_model(m, &o, &t, &a, &f, &e), 0);
    ck_assert_double_eq_tol(find(&f, FINDING_EXPOSED_COMM)->confidence, 0.5, 1e-9);
    // dropped events on another rank leave it alone
    t.findings[0] = (struct trust_finding){.check = TRUST_DROPPED_EVENTS, .count = 3};
    snprintf(t.findings[0].ranks, sizeof t.findings[0].ranks, "1-3");
    ck_assert_int_eq(findings_of_model(m, &o, &t, &a, &f, &e), 0);
    ck_assert_double_eq_tol(find(&f, FINDING_EXPOSED_COMM)->confidence, 1.0, 1e-9);
    snprintf(t.findings[0].ranks, sizeof t.findings[0].ranks, "0, 2");
    ck_assert_int_eq(findings_of_model(m, &o, &t, &a, &f, &e), 0);
    ck_assert_double_eq_tol(find(&f, FINDING_EXPOSED_COMM)->confidence, 0.8, 1e-9);
    arena_fini(&a);
    model_free(m);
}
END_TEST

static Suite *findings_suite(void)
{
    Suite *s = suite_create("findings");
    TCase *tc = tcase_create("rules");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, exposed_comm_should_cost_what_computation_does_not_hide);
    tcase_add_test(tc, exposed_comm_should_stay_silent_when_computation_hides_it);
    tcase_add_test(tc, findings_should_lower_confidence_when_trust_fires);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(findings_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
