#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/argsort.h"
#include "breakdown_test.h"
#include "model/model.h"

/* Tests of the temporal, kernel, overlap and idle analyses: hand-computed
 * tiny traces (the spec's worked examples and each htx fix) here, generated
 * traces in breakdown_props.c, HTA's outputs in breakdown_oracle.c. */

/* The spec's synthetic trace (§3.1-§3.4): stream 7 runs sgemm [10,40], a
 * memcpy [45,50], elementwise [70,80] and [90,95], sgemm [120,130]; stream
 * 20 runs an NCCL kernel [20,60]. Launches at 5, 14, 50, 60, 110 (and 15). */
#define SYNTH_EVENTS                                                                 \
    CPU_OP(0, 200)                                                                   \
    LAUNCH(5, 1) LAUNCH(14, 2) LAUNCH(15, 6) LAUNCH(50, 3) LAUNCH(60, 4) LAUNCH(110, 5) \
    KERNEL("sgemm_128x128", 7, 10, 30, 1)                                            \
    X("gpu_memcpy", "Memcpy DtoD (Device -> Device)", 7, 45, 5,                      \
      "\"stream\":7,\"correlation\":2")                                              \
    KERNEL("ncclKernel_AllReduce", 20, 20, 40, 6)                                    \
    KERNEL("elementwise_kernel", 7, 70, 10, 3)                                       \
    KERNEL("elementwise_kernel", 7, 90, 5, 4)                                        \
    KERNEL("sgemm_128x128", 7, 120, 10, 5)

/* ---- temporal (§3.1) -------------------------------------------------------- */

static void check_synth_temporal(enum semantics_mode mode)
{
    struct model *m = bd_load(SYNTH_EVENTS, mode);
    struct table *t = bd_run(temporal_run, m, NULL, "temporal_breakdown");
    ck_assert_uint_eq(t->nrows, 1);
    ASSERT_NUM(t, 0, "rank", 0);
    ASSERT_NUM(t, 0, "idle_time(us)", 45);
    ASSERT_NUM(t, 0, "compute_time(us)", 55);
    ASSERT_NUM(t, 0, "non_compute_time(us)", 20);
    ASSERT_NUM(t, 0, "kernel_time(us)", 120);
    ASSERT_NUM(t, 0, "idle_time_pctg", 37.5);
    ASSERT_NUM(t, 0, "compute_time_pctg", 45.83);
    ASSERT_NUM(t, 0, "non_compute_time_pctg", 16.67);
    model_free(m);
}

START_TEST(temporal_should_match_the_worked_example)
{
    check_synth_temporal(SEMANTICS_HTA);
    check_synth_temporal(SEMANTICS_HTX);
}
END_TEST

#define SYNC_EVENT X("cuda_sync", "Stream Sync", 7, 100, 10, "\"stream\":7,\"correlation\":9")

START_TEST(temporal_should_count_sync_as_busy_only_under_hta)
{
    struct model *m = bd_load(SYNTH_EVENTS SYNC_EVENT, SEMANTICS_HTA);
    struct table *t = bd_run(temporal_run, m, NULL, "temporal_breakdown");
    ASSERT_NUM(t, 0, "idle_time(us)", 35);
    ASSERT_NUM(t, 0, "non_compute_time(us)", 30);
    model_free(m);

    /* the one flag alone fixes it, even with HTA's "stream != -1" */
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTA);
    sem.sync_is_gpu_busy = false;
    m = bd_load_with(SYNTH_EVENTS SYNC_EVENT, &sem);
    t = bd_run(temporal_run, m, NULL, "temporal_breakdown");
    ASSERT_NUM(t, 0, "idle_time(us)", 45);
    ASSERT_NUM(t, 0, "non_compute_time(us)", 20);
    model_free(m);

    m = bd_load(SYNTH_EVENTS SYNC_EVENT, SEMANTICS_HTX);
    t = bd_run(temporal_run, m, NULL, "temporal_breakdown");
    ASSERT_NUM(t, 0, "idle_time(us)", 45);
    ASSERT_NUM(t, 0, "compute_time(us)", 55);
    ASSERT_NUM(t, 0, "non_compute_time(us)", 20);
    model_free(m);
}
END_TEST

/* ts 10.2 + dur 0.5: HTA rounds to [11, 10] (dur -1); htx keeps [10.2, 10.7]. */
#define FLOAT_TS_EVENTS                                                           \
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":0,\"tid\":1,"   \
    "\"ts\":0.0,\"dur\":50},"                                                     \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sgemm\",\"pid\":0,\"tid\":7,"      \
    "\"ts\":10.2,\"dur\":0.5,\"args\":{\"stream\":7}},"                           \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sgemm\",\"pid\":0,\"tid\":7,"      \
    "\"ts\":20,\"dur\":10,\"args\":{\"stream\":7}},"

START_TEST(temporal_should_avoid_negative_durations_under_htx)
{
    struct model *m = bd_load(FLOAT_TS_EVENTS, SEMANTICS_HTA);
    struct table *t = bd_run(temporal_run, m, NULL, "temporal_breakdown");
    /* groups [11,10] (busy -1) and [20,30]: span 19, busy 9 */
    ASSERT_NUM(t, 0, "kernel_time(us)", 19);
    ASSERT_NUM(t, 0, "idle_time(us)", 10);
    ASSERT_NUM(t, 0, "compute_time(us)", 9);
    model_free(m);

    m = bd_load(FLOAT_TS_EVENTS, SEMANTICS_HTX);
    t = bd_run(temporal_run, m, NULL, "temporal_breakdown");
    ck_assert_double_eq_tol(bd_num(t, 0, "kernel_time(us)"), 19.8, 1e-6);
    ck_assert_double_eq_tol(bd_num(t, 0, "idle_time(us)"), 9.3, 1e-6);
    ck_assert_double_eq_tol(bd_num(t, 0, "compute_time(us)"), 10.5, 1e-6);
    model_free(m);
}
END_TEST

START_TEST(breakdowns_should_note_a_rank_without_gpu_events)
{
    for (int mode = SEMANTICS_HTX; mode <= SEMANTICS_HTA; mode++) {
        struct model *m = bd_load(CPU_OP(0, 10) LAUNCH(2, 1), (enum semantics_mode)mode);
        struct table *t = bd_run(temporal_run, m, NULL, "temporal_breakdown");
        ck_assert_uint_eq(t->nrows, 0);
        ck_assert_ptr_nonnull(t->note);
        ck_assert_str_eq(t->note, "rank 0 has no GPU events, so no row");
        t = bd_run(idle_run, m, NULL, "idle_time_breakdown");
        ck_assert_uint_eq(t->nrows, 0);
        ck_assert_ptr_nonnull(t->note);
        t = bd_run(overlap_run, m, NULL, "comm_comp_overlap");
        ck_assert_uint_eq(t->nrows, 1);
        ck_assert(isnan(bd_num(t, 0, "comp_comm_overlap_pctg")));
        t = bd_run(kernels_run, m, NULL, "kernel_type_breakdown");
        ck_assert_uint_eq(t->nrows, 0);
        ck_assert_ptr_nonnull(t->note);
        t = bd_run(kernels_run, m, NULL, "kernel_breakdown");
        ck_assert_uint_eq(t->nrows, 0);
        model_free(m);
    }
}
END_TEST

/* ---- kernels (§3.2, §2.4) ------------------------------------------------- */

static void check_synth_kernel_types(enum semantics_mode mode)
{
    struct model *m = bd_load(SYNTH_EVENTS, mode);
    struct table *t = bd_run(kernels_run, m, NULL, "kernel_type_breakdown");
    static const char *const labels[] = {"COMPUTATION", "COMPUTATION overlapping COMMUNICATION",
                                         "COMMUNICATION", "COMMUNICATION overlapping MEMORY"};
    static const double sums[] = {35, 20, 15, 5}, pct[] = {46.7, 26.7, 20.0, 6.7};
    ck_assert_uint_eq(t->nrows, 4);
    for (size_t i = 0; i < 4; i++) {
        ck_assert_str_eq(bd_str(t, i, "kernel_type"), labels[i]);
        ASSERT_NUM(t, i, "sum", sums[i]);
        ASSERT_NUM(t, i, "percentage", pct[i]);
    }
    t = bd_run(kernels_run, m, NULL, "kernel_breakdown");
    ck_assert_uint_eq(t->nrows, 4);
    ck_assert_str_eq(bd_str(t, 0, "name"), "ncclKernel_AllReduce");
    ck_assert_str_eq(bd_str(t, 0, "kernel_type"), "COMMUNICATION");
    ck_assert_str_eq(bd_str(t, 1, "name"), "elementwise_kernel");
    ASSERT_NUM(t, 1, "sum (us)", 15);
    ASSERT_NUM(t, 1, "max (us)", 10);
    ASSERT_NUM(t, 1, "min (us)", 5);
    ASSERT_NUM(t, 1, "mean (us)", 7.5);
    ck_assert_double_eq_tol(bd_num(t, 1, "stddev"), sqrt(12.5), 1e-9);
    ck_assert_str_eq(bd_str(t, 2, "name"), "sgemm_128x128");
    ASSERT_NUM(t, 2, "sum (us)", 40);
    ck_assert_str_eq(bd_str(t, 3, "kernel_type"), "MEMORY");
    ASSERT_NUM(t, 3, "rank", 0);
    model_free(m);
}

START_TEST(kernels_should_match_the_worked_example)
{
    check_synth_kernel_types(SEMANTICS_HTA);
    check_synth_kernel_types(SEMANTICS_HTX);
}
END_TEST

START_TEST(kernels_should_leave_out_memory_when_asked)
{
    struct model *m = bd_load(SYNTH_EVENTS, SEMANTICS_HTA);
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.include_memory_kernels = false;
    struct table *t = bd_run(kernels_run, m, &o, "kernel_type_breakdown");
    ck_assert_uint_eq(t->nrows, 3);
    /* COMMUNICATION ([40, 60], no memcpy split) ties with the overlap
     * label at 20: name order decides */
    ck_assert_str_eq(bd_str(t, 1, "kernel_type"), "COMMUNICATION");
    ASSERT_NUM(t, 1, "sum", 20);
    ck_assert_str_eq(bd_str(t, 2, "kernel_type"), "COMPUTATION overlapping COMMUNICATION");
    ASSERT_NUM(t, 2, "sum", 20);
    t = bd_run(kernels_run, m, &o, "kernel_breakdown");
    ck_assert_uint_eq(t->nrows, 3);
    model_free(m);
}
END_TEST

/* §2.4 worked example: sums a = 30 (10 + 20), c = 30, b = 16 (5 + 5 + 6),
 * d = 2, e = 1, f = 1, with num_kernels = 3. */
#define TOPN_EVENTS                                                                 \
    CPU_OP(0, 1) KERNEL("a", 7, 0, 10, 1) KERNEL("a", 7, 10, 20, 2)                 \
    KERNEL("c", 7, 30, 30, 3) KERNEL("b", 7, 60, 5, 4) KERNEL("b", 7, 65, 5, 5)      \
    KERNEL("b", 7, 70, 6, 6) KERNEL("d", 7, 76, 2, 7) KERNEL("e", 7, 78, 1, 8)       \
    KERNEL("f", 7, 79, 1, 9)

static void assert_stats(const struct table *t, size_t row, const char *name, double sum,
                         double max, double min, double mean, double std)
{
    ck_assert_str_eq(bd_str(t, row, "name"), name);
    ck_assert_double_eq_tol(bd_num(t, row, "sum (us)"), sum, 1e-9);
    ck_assert_double_eq_tol(bd_num(t, row, "max (us)"), max, 1e-9);
    ck_assert_double_eq_tol(bd_num(t, row, "min (us)"), min, 1e-9);
    ck_assert_double_eq_tol(bd_num(t, row, "mean (us)"), mean, 1e-4);
    ck_assert_double_eq_tol(bd_num(t, row, "stddev"), std, 1e-4);
}

START_TEST(kernels_should_apply_top_n_as_hta_and_keep_stats_under_htx)
{
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.num_kernels = 3;
    struct model *m = bd_load(TOPN_EVENTS, SEMANTICS_HTA);
    struct table *t = bd_run(kernels_run, m, &o, "kernel_breakdown");
    ck_assert_uint_eq(t->nrows, 4);
    assert_stats(t, 0, "a", 30, 30, 30, 30, 0);
    assert_stats(t, 1, "b", 16, 16, 16, 16, 0);
    assert_stats(t, 2, "c", 30, 30, 30, 30, 0);
    assert_stats(t, 3, "others", 4, 2, 1, 1.3333, 0.57735);
    model_free(m);

    m = bd_load(TOPN_EVENTS, SEMANTICS_HTX);
    t = bd_run(kernels_run, m, &o, "kernel_breakdown");
    ck_assert_uint_eq(t->nrows, 4);
    assert_stats(t, 0, "a", 30, 20, 10, 15, 7.0711);
    assert_stats(t, 1, "b", 16, 6, 5, 5.3333, 0.57735);
    assert_stats(t, 2, "c", 30, 30, 30, 30, 0);
    assert_stats(t, 3, "others", 4, 2, 1, 1.3333, 0.57735);
    model_free(m);

    /* n <= num_kernels: a keeps its statistics under HTA too */
    m = bd_load(TOPN_EVENTS, SEMANTICS_HTA);
    o.num_kernels = 10;
    t = bd_run(kernels_run, m, &o, "kernel_breakdown");
    ck_assert_uint_eq(t->nrows, 6);
    assert_stats(t, 0, "a", 30, 20, 10, 15, 7.0711);
    model_free(m);
}
END_TEST

/* 20 kernels k00..k19 of 1 us each: all sums tie, so which 10 survive the
 * top-N cut is decided by the sort's tie order. */
static const char *tie_events(void)
{
    static char buf[8192];
    size_t len = (size_t)snprintf(buf, sizeof buf, "%s", CPU_OP(0, 1));
    for (int i = 0; i < 20; i++)
        len += (size_t)snprintf(buf + len, sizeof buf - len,
                                "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k%02d\",\"pid\":0,"
                                "\"tid\":7,\"ts\":%d,\"dur\":1,\"args\":{\"stream\":7}},",
                                i, 10 * i);
    return buf;
}

static bool survives(const struct table *t, const char *name)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (strcmp(bd_str(t, i, "name"), name) == 0)
            return true;
    return false;
}

START_TEST(kernels_should_break_ties_stably_under_htx)
{
    /* HTA: the survivors are the first 10 of numpy's descending argsort of
     * 20 equal sums in name order. */
    double sums[20];
    size_t perm[20];
    for (int i = 0; i < 20; i++)
        sums[i] = 1.0;
    argsort_identity(perm, 20);
    hta_argsort_desc(perm, 20, sums, less_double);
    bool hta_keeps[20] = {false}, differs = false;
    for (int i = 0; i < 10; i++)
        hta_keeps[perm[i]] = true;
    for (int i = 0; i < 10; i++)
        differs |= !hta_keeps[i];
    ck_assert_msg(differs, "the tie order should not be the input order here");

    struct model *m = bd_load(tie_events(), SEMANTICS_HTA);
    struct table *t = bd_run(kernels_run, m, NULL, "kernel_breakdown");
    ck_assert_uint_eq(t->nrows, 11);
    char name[8];
    for (int i = 0; i < 20; i++) {
        snprintf(name, sizeof name, "k%02d", i);
        ck_assert_msg(survives(t, name) == hta_keeps[i], "HTA: %s", name);
    }
    model_free(m);

    m = bd_load(tie_events(), SEMANTICS_HTX);
    t = bd_run(kernels_run, m, NULL, "kernel_breakdown");
    ck_assert_uint_eq(t->nrows, 11);
    for (int i = 0; i < 20; i++) {
        snprintf(name, sizeof name, "k%02d", i);
        ck_assert_msg(survives(t, name) == (i < 10), "htx: %s", name);
    }
    model_free(m);
}
END_TEST

START_TEST(kernels_should_classify_hip_and_nccl_names_under_htx)
{
#define NAMES_EVENTS                                                              \
    CPU_OP(0, 1) KERNEL("hip_fused_gemm", 0, 0, 10, 1)                            \
    KERNEL("ncclDevKernel_AllGather_RING_LL", 3, 5, 10, 2)                         \
    KERNEL("void multi_dma_kernel<float>", 0, 20, 10, 3)
    struct model *m = bd_load(NAMES_EVENTS, SEMANTICS_HTA);
    struct table *t = bd_run(kernels_run, m, NULL, "kernel_breakdown");
    ck_assert_uint_eq(t->nrows, 2);   /* the dma name is OTHER */
    ck_assert_str_eq(bd_str(t, 0, "name"), "hip_fused_gemm");
    ck_assert_str_eq(bd_str(t, 0, "kernel_type"), "COMMUNICATION");
    ck_assert_str_eq(bd_str(t, 1, "kernel_type"), "COMMUNICATION");
    model_free(m);

    m = bd_load(NAMES_EVENTS, SEMANTICS_HTX);
    t = bd_run(kernels_run, m, NULL, "kernel_breakdown");
    ck_assert_uint_eq(t->nrows, 3);
    ck_assert_str_eq(bd_str(t, 0, "name"), "ncclDevKernel_AllGather_RING_LL");
    ck_assert_str_eq(bd_str(t, 0, "kernel_type"), "COMMUNICATION");
    ck_assert_str_eq(bd_str(t, 1, "name"), "hip_fused_gemm");
    ck_assert_str_eq(bd_str(t, 1, "kernel_type"), "COMPUTATION");
    ck_assert_str_eq(bd_str(t, 2, "kernel_type"), "COMPUTATION");
    t = bd_run(overlap_run, m, NULL, "comm_comp_overlap");
    ASSERT_NUM(t, 0, "comp_comm_overlap_pctg", 50.0);   /* [5,10] of [5,15] */

    /* a user pattern overrides the built-in rules */
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.comm_patterns = "hip_fused";
    t = bd_run(kernels_run, m, &o, "kernel_breakdown");
    ck_assert_str_eq(bd_str(t, 0, "name"), "hip_fused_gemm");
    ck_assert_str_eq(bd_str(t, 0, "kernel_type"), "COMMUNICATION");
    model_free(m);
#undef NAMES_EVENTS
}
END_TEST

/* ---- overlap (§3.3) ------------------------------------------------------- */

START_TEST(overlap_should_match_the_worked_example)
{
    for (int mode = SEMANTICS_HTX; mode <= SEMANTICS_HTA; mode++) {
        struct model *m = bd_load(SYNTH_EVENTS, (enum semantics_mode)mode);
        struct table *t = bd_run(overlap_run, m, NULL, "comm_comp_overlap");
        ck_assert_uint_eq(t->nrows, 1);
        ASSERT_NUM(t, 0, "rank", 0);
        ASSERT_NUM(t, 0, "comp_comm_overlap_pctg", 50.0);
        model_free(m);
    }
}
END_TEST

/* ---- idle (§3.4) ---------------------------------------------------------- */

static void assert_idle_row(const struct table *t, size_t row, double stream, const char *cat,
                            double time, double ratio)
{
    ASSERT_NUM(t, row, "rank", 0);
    ASSERT_NUM(t, row, "stream", stream);
    ck_assert_str_eq(bd_str(t, row, "idle_category"), cat);
    ASSERT_NUM(t, row, "idle_time", time);
    if (isnan(ratio))
        ck_assert(isnan(bd_num(t, row, "idle_time_ratio")));
    else
        ASSERT_NUM(t, row, "idle_time_ratio", ratio);
}

static void check_synth_idle(enum semantics_mode mode)
{
    struct model *m = bd_load(SYNTH_EVENTS, mode);
    struct table *t = bd_run(idle_run, m, NULL, "idle_time_breakdown");
    ck_assert_uint_eq(t->nrows, 4);
    assert_idle_row(t, 0, 7, "host_wait", 25, 0.42);
    assert_idle_row(t, 1, 7, "kernel_wait", 35, 0.58);
    assert_idle_row(t, 2, 7, "other", 0, 0.0);
    assert_idle_row(t, 3, 20, "other", 0, NAN);

    t = bd_run(idle_run, m, NULL, "idle_interval_stats");
    ck_assert_uint_eq(t->nrows, 4);
    ck_assert_str_eq(bd_str(t, 1, "idle_category"), "kernel_wait");
    ASSERT_NUM(t, 1, "count", 3);
    ASSERT_NUM(t, 1, "mean", 11.67);
    ASSERT_NUM(t, 1, "std", 7.64);
    ASSERT_NUM(t, 1, "min", 5);
    ASSERT_NUM(t, 1, "25%", 7.5);
    ASSERT_NUM(t, 1, "50%", 10);
    ASSERT_NUM(t, 1, "75%", 15);
    ASSERT_NUM(t, 1, "max", 20);
    ASSERT_NUM(t, 0, "count", 1);
    ck_assert(isnan(bd_num(t, 0, "std")));
    ASSERT_NUM(t, 2, "count", 0);   /* only the first kernel's NaN gap */
    ck_assert(isnan(bd_num(t, 2, "mean")));
    model_free(m);
}

START_TEST(idle_should_match_the_worked_example)
{
    check_synth_idle(SEMANTICS_HTA);
    check_synth_idle(SEMANTICS_HTX);
}
END_TEST

START_TEST(idle_should_honour_the_consecutive_kernel_delay)
{
    struct model *m = bd_load(SYNTH_EVENTS, SEMANTICS_HTA);
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.consecutive_kernel_delay_ns = 15000;   /* the 20 us gap becomes "other" */
    struct table *t = bd_run(idle_run, m, &o, "idle_time_breakdown");
    ck_assert_uint_eq(t->nrows, 4);
    assert_idle_row(t, 0, 7, "host_wait", 25, 0.42);
    assert_idle_row(t, 1, 7, "kernel_wait", 15, 0.25);
    assert_idle_row(t, 2, 7, "other", 20, 0.33);
    model_free(m);
}
END_TEST

/* Kernels with a correlation but no launch in the trace, and a
 * CPU op as the first event (later in time than two of the kernels). HTA
 * takes that op's start as every such kernel's launch time. */
#define NO_LAUNCH_EVENTS                                                                      \
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,"                \
    "\"ts\":200,\"dur\":1},"                                                                  \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k1\",\"pid\":0,\"tid\":7,\"ts\":100,"           \
    "\"dur\":10,\"args\":{\"stream\":7,\"correlation\":5}},"                                   \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k2\",\"pid\":0,\"tid\":7,\"ts\":115,"           \
    "\"dur\":5,\"args\":{\"stream\":7,\"correlation\":6}},"                                    \
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k3\",\"pid\":0,\"tid\":7,\"ts\":300,"           \
    "\"dur\":5,\"args\":{\"stream\":7,\"correlation\":7}},"

START_TEST(idle_should_take_row_0_as_the_missing_launch_only_under_hta)
{
    struct model *m = bd_load(NO_LAUNCH_EVENTS, SEMANTICS_HTA);
    struct table *t = bd_run(idle_run, m, NULL, "idle_time_breakdown");
    ck_assert_uint_eq(t->nrows, 2);
    assert_idle_row(t, 0, 7, "host_wait", 185, 1.0);   /* 200 > both previous ends */
    assert_idle_row(t, 1, 7, "other", 0, 0.0);
    model_free(m);

    m = bd_load(NO_LAUNCH_EVENTS, SEMANTICS_HTX);
    t = bd_run(idle_run, m, NULL, "idle_time_breakdown");
    ck_assert_uint_eq(t->nrows, 2);
    assert_idle_row(t, 0, 7, "kernel_wait", 5, 0.03);   /* no launch: never host_wait */
    assert_idle_row(t, 1, 7, "other", 180, 0.97);
    model_free(m);
}
END_TEST

static Suite *breakdown_suite(void)
{
    Suite *s = suite_create("breakdown");
    TCase *hand = tcase_create("hand");
    tcase_add_checked_fixture(hand, bd_setup, bd_teardown);
    tcase_add_test(hand, temporal_should_match_the_worked_example);
    tcase_add_test(hand, temporal_should_count_sync_as_busy_only_under_hta);
    tcase_add_test(hand, temporal_should_avoid_negative_durations_under_htx);
    tcase_add_test(hand, breakdowns_should_note_a_rank_without_gpu_events);
    tcase_add_test(hand, kernels_should_match_the_worked_example);
    tcase_add_test(hand, kernels_should_leave_out_memory_when_asked);
    tcase_add_test(hand, kernels_should_apply_top_n_as_hta_and_keep_stats_under_htx);
    tcase_add_test(hand, kernels_should_break_ties_stably_under_htx);
    tcase_add_test(hand, kernels_should_classify_hip_and_nccl_names_under_htx);
    tcase_add_test(hand, overlap_should_match_the_worked_example);
    tcase_add_test(hand, idle_should_take_row_0_as_the_missing_launch_only_under_hta);
    tcase_add_test(hand, idle_should_match_the_worked_example);
    tcase_add_test(hand, idle_should_honour_the_consecutive_kernel_delay);
    suite_add_tcase(s, hand);
    suite_add_tcase(s, breakdown_props_tcase());
    suite_add_tcase(s, breakdown_oracle_tcase());
    suite_add_tcase(s, breakdown_tiles_tcase());
    suite_add_tcase(s, breakdown_kernel_parts_tcase());
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(breakdown_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
