#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planted_job.h"
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

/* The findings of f that are problems, not hot spots. */
static size_t problems(const struct findings *f)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        n += !finding_kind_is_hot_spot(f->items[i].kind);
    return n;
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


/* One step of 1000 us, opened in d. */
static void one_step(struct doc *d)
{
    doc_begin(d);
    ev(d, "user_annotation", "ProfilerStep#1", 1, 0, 1000, -1, -1);
}

static void kernel_at(struct doc *d, int launch_ts, int launch_dur, int ts, int dur, int corr,
                      const char *name)
{
    ev(d, "cuda_runtime", "cudaLaunchKernel", 1, launch_ts, launch_dur, -1, corr);
    ev(d, "kernel", name, 9, ts, dur, 7, corr);
}

/* Runs the rules on d (closed and loaded) and checks that kind k alone
 * among the host rules fires, at cost_us on rank 0. */
static const struct finding *expect(struct doc *d, struct arena *a, struct findings *f,
                                    struct model **m, enum finding_kind k, double cost_us)
{
    *m = load_doc(d);
    run(*m, a, f);
    static const enum finding_kind host[] = {FINDING_HOST_BOUND, FINDING_LAUNCH_OVERHEAD,
                                             FINDING_SYNC, FINDING_STEP_GAP,
                                             FINDING_PAGEABLE_COPY};
    for (size_t i = 0; i < sizeof host / sizeof host[0]; i++)
        if (host[i] != k)
            ck_assert_msg(find(f, host[i]) == NULL, "%s fired: %s", finding_kind_name(host[i]),
                          find(f, host[i])->cause);
    const struct finding *x = find(f, k);
    ck_assert_msg(x != NULL, "%s did not fire", finding_kind_name(k));
    ck_assert_msg(fabs(x->cost_ns / 1e3 - cost_us) <= 0.05 * cost_us, "%s cost %.1f us, not %.1f",
                  finding_kind_name(k), x->cost_ns / 1e3, cost_us);
    ck_assert_str_eq(x->ranks, "0");
    ck_assert(x->title[0] && x->cause[0]);
    ck_assert(x->end_ns > x->start_ns);
    return x;
}

START_TEST(host_bound_should_cost_the_gap_before_a_late_launch)
{
    struct doc d;
    one_step(&d);
    kernel_at(&d, 10, 2, 100, 100, 1, "k1");
    ev(&d, "cpu_op", "aten::slow", 1, 250, 350, -1, -1);
    kernel_at(&d, 600, 2, 610, 290, 2, "k2");   // idle 200..610
    struct arena a;
    arena_init(&a, 0);
    struct findings f;
    struct model *m;
    const struct finding *x = expect(&d, &a, &f, &m, FINDING_HOST_BOUND, 410);
    ck_assert_ptr_nonnull(strstr(x->cause, "aten::slow"));
    ck_assert_int_eq(x->start_ns, 200000);
    ck_assert_int_eq(x->end_ns, 610000);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(sync_should_cost_the_drained_queue_after_a_synchronize)
{
    struct doc d;
    one_step(&d);
    ev(&d, "cpu_op", "aten::item", 1, 40, 270, -1, -1);
    kernel_at(&d, 10, 2, 100, 200, 1, "k1");
    ev(&d, "cuda_runtime", "cudaStreamSynchronize", 1, 50, 255, -1, -1);
    kernel_at(&d, 400, 2, 450, 250, 2, "k2");   // idle 300..450
    struct arena a;
    arena_init(&a, 0);
    struct findings f;
    struct model *m;
    const struct finding *x = expect(&d, &a, &f, &m, FINDING_SYNC, 150);
    ck_assert_ptr_nonnull(strstr(x->cause, "cudaStreamSynchronize"));
    ck_assert_ptr_nonnull(strstr(x->cause, "aten::item"));
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(launch_overhead_should_cost_the_gaps_between_short_kernels)
{
    struct doc d;
    one_step(&d);
    for (int i = 0; i < 20; i++)   // 20 us launches of 5 us kernels: 19 gaps of 15 us
        kernel_at(&d, 10 + 20 * i, 20, 25 + 20 * i, 5, i + 1, "tiny");
    struct arena a;
    arena_init(&a, 0);
    struct findings f;
    struct model *m;
    const struct finding *x = expect(&d, &a, &f, &m, FINDING_LAUNCH_OVERHEAD, 285);
    ck_assert_ptr_nonnull(strstr(x->cause, "tiny"));
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(step_gap_should_cost_the_idle_between_iterations)
{
    struct doc d;
    doc_begin(&d);
    ev(&d, "user_annotation", "ProfilerStep#1", 1, 0, 1000, -1, -1);
    ev(&d, "user_annotation", "ProfilerStep#2", 1, 1000, 1000, -1, -1);
    kernel_at(&d, 10, 2, 100, 200, 1, "k1");
    ev(&d, "cpu_op", "enumerate(DataLoader)#_next_", 1, 1002, 90, -1, -1);
    kernel_at(&d, 1095, 2, 1100, 800, 2, "k2");   // idle 300..1100 over 2 steps
    struct arena a;
    arena_init(&a, 0);
    struct findings f;
    struct model *m;
    const struct finding *x = expect(&d, &a, &f, &m, FINDING_STEP_GAP, 400);
    ck_assert_ptr_nonnull(strstr(x->cause, "DataLoader"));
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(pageable_copy_should_cost_its_copies)
{
    struct doc d;
    one_step(&d);
    kernel_at(&d, 10, 2, 100, 400, 1, "k1");
    ev(&d, "cpu_op", "aten::to", 1, 15, 20, -1, -1);
    ev(&d, "cuda_runtime", "cudaMemcpyAsync", 1, 20, 5, -1, 2);
    ev(&d, "gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 9, 500, 100, 7, 2);
    kernel_at(&d, 30, 2, 600, 390, 3, "k2");
    struct arena a;
    arena_init(&a, 0);
    struct findings f;
    struct model *m;
    const struct finding *x = expect(&d, &a, &f, &m, FINDING_PAGEABLE_COPY, 100);
    ck_assert_ptr_nonnull(strstr(x->cause, "aten::to"));
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(host_rules_should_stay_silent_on_a_busy_gpu)
{
    struct doc d;
    one_step(&d);
    for (int i = 0; i < 9; i++)   // launched well ahead, back to back
        kernel_at(&d, 1 + i, 2, 100 + 100 * i, 100, i + 1, "k");
    struct model *m = load_doc(&d);
    struct arena a;
    arena_init(&a, 0);
    struct findings f;
    run(m, &a, &f);
    ck_assert_uint_eq(problems(&f), 0);
    ck_assert_ptr_nonnull(find(&f, FINDING_HOT_KERNEL));   // "k" is all the GPU does
    arena_fini(&a);
    model_free(m);
}
END_TEST


/* ---- the generator's planted problems (tests/gen/gen_plant.c) ---- */

struct planted_case {
    unsigned plant;
    int straggler;               /* -1 none */
    enum finding_kind kind;      /* FINDING_KIND_COUNT: none expected */
    const char *ranks;
    double cost_us;              /* per iteration, from gen_coll.h's constants */
    enum finding_kind also;      /* a second kind the plant makes true, or FINDING_KIND_COUNT */
};

/* 4 ranks, 4 iterations of 3 collectives: slots of 4 ms (gen_plant.c). */
static const struct planted_case planted[] = {
    {GEN_PLANT_DENSE, -1, FINDING_KIND_COUNT, NULL, 0, FINDING_KIND_COUNT},
    {GEN_PLANT_EXPOSED, -1, FINDING_EXPOSED_COMM, "0-3", 100 + 150 + 200, FINDING_KIND_COUNT},
    {GEN_PLANT_HOST_BOUND, -1, FINDING_HOST_BOUND, "0-3", 3 * GEN_PLANT_HOST_US,
     FINDING_KIND_COUNT},
    {GEN_PLANT_LAUNCH, -1, FINDING_LAUNCH_OVERHEAD, "0-3", 3 * (GEN_PLANT_TINY - 1) * 15,
     FINDING_KIND_COUNT},
    {GEN_PLANT_SYNC, -1, FINDING_SYNC, "0-3", 3 * GEN_PLANT_SYNC_US, FINDING_KIND_COUNT},
    {GEN_PLANT_PAGEABLE, -1, FINDING_PAGEABLE_COPY, "0-3", 3 * GEN_PLANT_PAGEABLE_US,
     FINDING_KIND_COUNT},
    {GEN_PLANT_STEP_GAP, -1, FINDING_STEP_GAP, "0-3", GEN_PLANT_STEP_GAP_US * 3.0 / 4.0,
     FINDING_KIND_COUNT},
    {GEN_PLANT_SLOW_KERNEL, -1, FINDING_SLOW_KERNEL, "1", 3 * GEN_PLANT_SLOW_US, FINDING_STRAGGLER},
    {GEN_PLANT_SLOW_COLLECTIVE, -1, FINDING_BANDWIDTH_OUTLIER, "0-3",
     100.0 * (GEN_PLANT_SLOW_XFER - 1) / 4, FINDING_KIND_COUNT},
    {GEN_PLANT_IMBALANCE, -1, FINDING_IMBALANCE, "2", 3 * 4000 / 10, FINDING_KIND_COUNT},
    {0, 2, FINDING_STRAGGLER, "2", 12000 / 4, FINDING_SLOW_KERNEL},
};

START_TEST(each_rule_should_find_its_planted_problem)
{
    const struct planted_case *pc = &planted[_i];
    struct gen_coll_cfg cfg = {.world = 4, .iterations = 4, .first_step = 1, .per_step = 3,
                               .seq = 1, .straggler = pc->straggler, .step = 2, .coll = 1,
                               .delay_us = 12000, .plant = GEN_PLANT_DENSE | pc->plant,
                               .slow_rank = 1, .imbalance_rank = 2, .slow_step = 2,
                               .slow_coll = 0};
    struct planted_job j;
    planted_job_make(&j, &cfg);
    struct arena a;
    arena_init(&a, 0);
    struct findings f;
    run(j.m, &a, &f);
    for (size_t i = 0; i < f.n; i++) {
        const struct finding *x = &f.items[i];
        ck_assert_msg(finding_kind_is_hot_spot(x->kind) || x->kind == pc->kind ||
                          x->kind == pc->also,
                      "case %d: %s fired: %s %s", _i, finding_kind_name(x->kind), x->title,
                      x->cause);
        ck_assert_msg(x->evidence.kind == FINDING_EVIDENCE_VIEW || x->end_ns > x->start_ns,
                      "case %d: %s has no evidence", _i, finding_kind_name(x->kind));
    }
    if (pc->kind < FINDING_KIND_COUNT) {
        const struct finding *x = find(&f, pc->kind);
        ck_assert_msg(x != NULL, "case %d: %s not found", _i, finding_kind_name(pc->kind));
        ck_assert_str_eq(x->ranks, pc->ranks);
        ck_assert_msg(fabs(x->cost_ns / 1e3 - pc->cost_us) <= 0.05 * pc->cost_us,
                      "case %d: %s costs %.1f us, planted %.1f", _i, finding_kind_name(pc->kind),
                      x->cost_ns / 1e3, pc->cost_us);
        ck_assert(x->confidence > 0 && x->confidence <= 1);
    }
    arena_fini(&a);
    planted_job_remove(&j);
}
END_TEST


/* ---- from what summaries hold ---- */

static struct table *facts_table(struct arena *a, const char *name, const char *const *cols,
                                 size_t ncols, const double *cells, size_t nrows)
{
    struct table_col tc[9];
    for (size_t i = 0; i < ncols; i++)
        tc[i] = (struct table_col){cols[i], NULL, 0};
    struct table *t = table_new(a, name, name, tc, ncols);
    ck_assert_ptr_nonnull(t);
    for (size_t r = 0; r < nrows; r++) {
        struct cell *row = table_add_row(t);
        for (size_t i = 0; i < ncols; i++)
            row[i] = cell_double(cells[r * ncols + i]);
    }
    return t;
}

START_TEST(findings_of_facts_should_answer_from_summary_tables)
{
    struct arena a;
    arena_init(&a, 0);
    // ranks 0-2, two steps each; rank 2's steps are 1500 us against 1000
    static const char *const step_cols[] = {"rank", "iteration", "step_time (us)"};
    static const double steps[] = {0, 1, 1000, 0, 2, 1000, 1, 1, 1000, 1, 2, 1000,
                                   2, 1, 1500, 2, 2, 1500};
    static const char *const ov_cols[] = {"rank", "blame (us)", "suffered (us)", "vs_median (%)",
                                          "idle (%)", "comm (%)", "steps", "step_median (us)",
                                          "step_max (us)"};
    static const double ov[] = {0, 0, 0, 0, 0, 20, 2, 1000, 1000, 1, 0, 0, 0, 0, 0, 2, 1000, 1000,
                                2, 0, 0, 0, 0, 0, 2, 1500, 1500};
    static const char *const tmp_cols[] = {"rank", "kernel_time(us)"};
    static const double tmp[] = {0, 2000, 1, 2000, 2, 3000};
    static const char *const lap_cols[] = {"rank", "comp_comm_overlap_pctg"};
    static const double lap[] = {0, 50, 1, 50, 2, 50};
    static const int64_t ranks[] = {0, 1, 2};
    struct findings_facts facts = {
        .rank_steps = facts_table(&a, "rank_steps", step_cols, 3, steps, 6),
        .rank_overview = facts_table(&a, "rank_overview", ov_cols, 9, ov, 3),
        .temporal = facts_table(&a, "temporal_breakdown", tmp_cols, 2, tmp, 3),
        .overlap = facts_table(&a, "comm_comp_overlap", lap_cols, 2, lap, 3),
        .ranks = ranks, .nranks = 3};
    struct findings f;
    struct err e = {0, ""};
    ck_assert_int_eq(findings_of_facts(&facts, NULL, &a, &f, &e), 0);
    ck_assert_double_eq_tol(f.iteration_ns, 3500e3 / 3, 1);
    // rank 0: 20% of 2000 us, half hidden: 200 us over 2 steps, 100 us a step
    const struct finding *x = find(&f, FINDING_EXPOSED_COMM);
    ck_assert_ptr_nonnull(x);
    ck_assert_str_eq(x->ranks, "0");
    ck_assert_double_eq_tol(x->cost_ns, 100e3, 1);
    x = find(&f, FINDING_IMBALANCE);
    ck_assert_ptr_nonnull(x);
    ck_assert_str_eq(x->ranks, "2");
    ck_assert_double_eq_tol(x->cost_ns, 500e3, 1);
    ck_assert_int_eq(x->evidence.kind, FINDING_EVIDENCE_VIEW);
    ck_assert_str_eq(x->evidence.row, "rank=2 iteration=1");
    ck_assert_ptr_nonnull(strstr(f.needs_events, "host_bound"));
    ck_assert_ptr_null(strstr(f.needs_events, "exposed_communication"));
    arena_fini(&a);
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
    tcase_add_test(tc, host_bound_should_cost_the_gap_before_a_late_launch);
    tcase_add_test(tc, sync_should_cost_the_drained_queue_after_a_synchronize);
    tcase_add_test(tc, launch_overhead_should_cost_the_gaps_between_short_kernels);
    tcase_add_test(tc, step_gap_should_cost_the_idle_between_iterations);
    tcase_add_test(tc, pageable_copy_should_cost_its_copies);
    tcase_add_test(tc, host_rules_should_stay_silent_on_a_busy_gpu);
    tcase_add_test(tc, findings_of_facts_should_answer_from_summary_tables);
    tcase_add_loop_test(tc, each_rule_should_find_its_planted_problem, 0,
                        (int)(sizeof planted / sizeof planted[0]));
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
