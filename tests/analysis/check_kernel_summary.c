/* kernel_summary.c: triage order of kernel_breakdown, the one-row-per-kernel
 * summary over ranks and the per-rank rows behind a summary row. */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "analysis/kernel_summary.h"

static const struct table_col bd_cols[] = {
    {"name", NULL, COL_KEY}, {"sum (us)", "us", 0}, {"max (us)", "us", 0},
    {"min (us)", "us", 0}, {"stddev", "us", 0}, {"mean (us)", "us", 0},
    {"kernel_type", NULL, COL_KEY}, {"rank", NULL, COL_KEY},
};

static void add(struct table *t, const char *name, double sum, const char *type, int64_t rank)
{
    struct cell *row = table_add_row(t);
    ck_assert_ptr_nonnull(row);
    row[0] = cell_str(t, name);
    row[1] = cell_double(sum);
    row[6] = cell_str(t, type);
    row[7] = cell_int(rank);
}

/* HTA's order: by type, then name, then rank ("others" among the names). */
static struct table *breakdown(struct arena *a)
{
    struct table *t = table_new(a, "kernel_breakdown", "Kernel breakdown", bd_cols, 8);
    ck_assert_ptr_nonnull(t);
    add(t, "nccl_allreduce", 60, "COMMUNICATION", 0);
    add(t, "nccl_allreduce", 90, "COMMUNICATION", 1);
    add(t, "gemm", 80, "COMPUTATION", 0);
    add(t, "gemm", 45, "COMPUTATION", 1);
    add(t, "others", 500, "COMPUTATION", 0);
    add(t, "softmax", 12, "COMPUTATION", 1);
    add(t, "Memset (Device)", 3, "MEMORY", 0);
    add(t, "Memset (Device)", 10, "MEMORY", 1);
    return t;
}

static const char *name_at(const struct table *t, size_t r)
{
    return table_cell(t, r, 0)->v.s;
}

START_TEST(sort_should_put_time_first_and_others_last)
{
    struct arena a;
    arena_init(&a, 1 << 12);
    struct table *t = breakdown(&a);
    ck_assert_int_eq(kernel_breakdown_sort_by_time(t), 0);
    static const char *const want[] = {"nccl_allreduce", "gemm", "nccl_allreduce", "gemm",
                                       "softmax", "Memset (Device)", "Memset (Device)", "others"};
    static const int64_t ranks[] = {1, 0, 0, 1, 1, 1, 0, 0};
    ck_assert_uint_eq(t->nrows, 8);
    for (size_t r = 0; r < 8; r++) {
        ck_assert_str_eq(name_at(t, r), want[r]);
        ck_assert_int_eq(table_cell(t, r, 7)->v.i, ranks[r]);
    }
    /* other tables are left alone */
    struct table *other = table_new(&a, "idle_time_breakdown", "x", bd_cols, 8);
    add(other, "b", 1, "X", 0);
    add(other, "a", 2, "X", 0);
    ck_assert_int_eq(kernel_breakdown_sort_by_time(other), 0);
    ck_assert_str_eq(name_at(other, 0), "b");
    arena_fini(&a);
}
END_TEST

START_TEST(summary_should_give_one_row_per_kernel_with_spread_over_ranks)
{
    struct arena a;
    arena_init(&a, 1 << 12);
    struct table *t = breakdown(&a), *s = NULL;
    ck_assert_int_eq(kernel_summary_table(t, &a, &s), 0);
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s->name, "kernel_summary");
    ck_assert_uint_eq(s->nrows, 5);
    /* 800 us in all; others (500) last although it is the largest */
    static const char *const names[] = {"nccl_allreduce", "gemm", "Memset (Device)", "softmax",
                                        "others"};
    static const double sums[] = {150, 125, 13, 12, 500}, pct[] = {18.8, 15.6, 1.6, 1.5, 62.5};
    static const int64_t nranks[] = {2, 2, 2, 1, 1}, slowest[] = {1, 0, 1, 1, 0};
    static const double mins[] = {60, 45, 3, 12, 500}, means[] = {75, 62.5, 6.5, 12, 500},
                        maxs[] = {90, 80, 10, 12, 500};
    for (size_t r = 0; r < 5; r++) {
        ck_assert_str_eq(name_at(s, r), names[r]);
        ck_assert_double_eq_tol(table_cell(s, r, 2)->v.d, sums[r], 1e-9);
        ck_assert_double_eq_tol(table_cell(s, r, 3)->v.d, pct[r], 1e-9);
        ck_assert_int_eq(table_cell(s, r, 4)->v.i, nranks[r]);
        ck_assert_double_eq_tol(table_cell(s, r, 5)->v.d, mins[r], 1e-9);
        ck_assert_double_eq_tol(table_cell(s, r, 6)->v.d, means[r], 1e-9);
        ck_assert_double_eq_tol(table_cell(s, r, 7)->v.d, maxs[r], 1e-9);
        ck_assert_int_eq(table_cell(s, r, 8)->v.i, slowest[r]);
    }
    ck_assert_str_eq(table_cell(s, 1, 1)->v.s, "COMPUTATION");

    /* the rows behind a summary row, slowest first, capped */
    size_t rows[4];
    ck_assert_uint_eq(kernel_summary_rank_rows(t, s, 0, rows, 4), 2);
    ck_assert_uint_eq(rows[0], 1);
    ck_assert_uint_eq(rows[1], 0);
    ck_assert_uint_eq(kernel_summary_rank_rows(t, s, 1, rows, 1), 2);
    ck_assert_uint_eq(rows[0], 2);
    ck_assert_uint_eq(kernel_summary_rank_rows(t, s, 4, rows, 4), 1);
    ck_assert_uint_eq(rows[0], 4);
    ck_assert_uint_eq(kernel_summary_rank_rows(t, s, 5, rows, 4), 0);
    ck_assert_uint_eq(kernel_summary_rank_rows(t, s, 0, rows, 0), 2);

    /* not a kernel_breakdown: no summary */
    struct table *other = table_new(&a, "idle_time_breakdown", "x", bd_cols, 8), *none = s;
    ck_assert_int_eq(kernel_summary_table(other, &a, &none), 0);
    ck_assert_ptr_null(none);
    /* an empty breakdown: an empty summary */
    struct table *empty = table_new(&a, "kernel_breakdown", "x", bd_cols, 8);
    ck_assert_int_eq(kernel_summary_table(empty, &a, &none), 0);
    ck_assert_ptr_nonnull(none);
    ck_assert_uint_eq(none->nrows, 0);
    arena_fini(&a);
}
END_TEST

static Suite *kernel_summary_suite(void)
{
    Suite *s = suite_create("kernel_summary");
    TCase *tc = tcase_create("triage");
    tcase_add_test(tc, sort_should_put_time_first_and_others_last);
    tcase_add_test(tc, summary_should_give_one_row_per_kernel_with_spread_over_ranks);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(kernel_summary_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
