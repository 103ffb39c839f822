#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle_compare.h"
#include "trace_doc.h"
#include "analysis/idle.h"
#include "model/model.h"

/* The gaps behind idle_time_breakdown (the idle view's drill-down): each
 * category's gaps add up to the table's idle_time, on hand-made traces and
 * on ../shared/traces. */

/* For every row of idle_time_breakdown: the gaps of its (rank, stream,
 * category) sum to its idle_time (both rounded as the table is). */
static void check_sums(struct model *m)
{
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = {{0}, 0};
    struct err e = {0, ""};
    ck_assert_int_eq(idle_run(m, &o, &a, &l, &e), 0);
    const struct table *t = l.tables[0];
    ck_assert_str_eq(t->name, "idle_time_breakdown");
    for (size_t row = 0; row < t->nrows; row++) {
        int64_t rank = table_cell(t, row, 0)->v.i, stream = table_cell(t, row, 1)->v.i;
        const char *cat = table_cell(t, row, 2)->v.s;
        double want = table_cell(t, row, 3)->v.d;
        const struct rank_model *r = NULL;
        for (size_t i = 0; i < m->nranks; i++)
            if (m->ranks[i].rank == rank)
                r = &m->ranks[i];
        ck_assert_ptr_nonnull(r);
        struct idle_gap *g;
        size_t n;
        ck_assert_int_eq(idle_stream_gaps(m, &o, r, stream, &g, &n), 0);
        double sum = 0;
        for (size_t i = 0; i < n; i++) {
            if (strcmp(idle_category_name((enum idle_category)g[i].category), cat) == 0)
                sum += (double)g[i].len / 1000.0;
            ck_assert_int_eq(r->events[g[i].kernel].stream, stream);
            ck_assert_int_eq(r->events[g[i].kernel].ts, g[i].start + g[i].len);
            if (i)
                ck_assert_int_le(r->events[g[i - 1].kernel].ts, r->events[g[i].kernel].ts);
        }
        ck_assert_msg(fabs(round(sum * 100) / 100 - want) < 0.011,
                      "rank %lld stream %lld %s: gaps sum to %.2f us, the table says %.2f",
                      (long long)rank, (long long)stream, cat, sum, want);
        free(g);
    }
    arena_fini(&a);
}

START_TEST(gaps_should_be_categorised_as_the_table)
{
    struct doc d;
    doc_begin(&d);
    launch(&d, 1, 0, 10, 1);        /* kernel at 1000..1010 us */
    launch(&d, 1, 1500, 10, 2);     /* launched after the stream went idle: host_wait */
    launch(&d, 1, 1600, 10, 3);     /* launched early, queued: kernel 2600 after 2510 */
    ev(&d, "cpu_op", "aten::slow", 1, 1100, 300, -1, -1);
    struct model *m = load_doc(&d);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct idle_gap *g;
    size_t n;
    ck_assert_int_eq(idle_stream_gaps(m, &o, &m->ranks[0], 7, &g, &n), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(g[0].category, IDLE_HOST_WAIT);
    ck_assert_int_eq(g[0].start, 1010000);
    ck_assert_int_eq(g[0].len, 1490000);
    ck_assert_int_eq(g[1].start, 2510000);
    ck_assert_int_eq(g[1].len, 90000);
    ck_assert_int_ne(g[1].category, IDLE_HOST_WAIT);
    free(g);
    ck_assert_int_eq(idle_stream_gaps(m, &o, &m->ranks[0], 99, &g, &n), 0);
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(g);
    check_sums(m);
    model_free(m);
}
END_TEST

static void sums_ctx(struct model *m, void *ctx)
{
    (void)ctx;
    check_sums(m);
}

START_TEST(gaps_should_sum_to_the_table_on_shared_traces)
{
    static const char *const dirs[] = {"two_ranks", "amd_mi250", "nccl", "rank_non_gpu"};
    int n = oracle_each_trace("check_idle_gaps", dirs, sizeof dirs / sizeof dirs[0], true,
                              sums_ctx, NULL);
    ck_assert_msg(n != 0, "no trace of ../shared/traces loaded");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("idle_gaps");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gaps_should_be_categorised_as_the_table);
    tcase_add_test(tc, gaps_should_sum_to_the_table_on_shared_traces);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
