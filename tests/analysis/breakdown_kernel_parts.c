#include "config.h"
#include "breakdown_test.h"

#include <stdint.h>
#include <string.h>

#include "analysis/kernels.h"

/* The kernel breakdown's per-rank parts and their reduce (analysis/kernels.h):
 * what a summary stores for the kernel tables of a job it cannot load.
 * The reports from summaries and from traces are compared byte for byte
 * in tests/summary/summarize.sh; here, the reduce itself, and a part that
 * is not one (a damaged summary). */

static const struct table_col type_ns_cols[] = {{"kernel_type", NULL, 0}, {"ns", "ns", 0}};
static const struct table_col kernel_cols[] = {
    {"name", NULL, 0}, {"sum (us)", "us", 0}, {"max (us)", "us", 0}, {"min (us)", "us", 0},
    {"stddev", "us", 0}, {"mean (us)", "us", 0}, {"kernel_type", NULL, 0}, {"rank", NULL, 0},
};

static struct table *part_types(struct table_list *l)
{
    struct table *t = table_new(&bd_scratch, KERNELS_PART_TYPES, NULL, type_ns_cols, 2);
    ck_assert_int_eq(table_list_add(l, t), 0);
    return t;
}

static void add_type(struct table *t, const char *label, int64_t ns)
{
    struct cell *row = table_add_row(t);
    row[0] = cell_str(t, label);
    row[1] = cell_int(ns);
}

static struct table *part_kernels(struct table_list *l)
{
    struct table *t = table_new(&bd_scratch, "kernel_breakdown", NULL, kernel_cols, 8);
    ck_assert_int_eq(table_list_add(l, t), 0);
    return t;
}

static void add_kernel(struct table *t, const char *name, double sum, const char *type,
                       int64_t rank)
{
    struct cell *row = table_add_row(t);
    row[0] = cell_str(t, name);
    for (int c = 1; c < 6; c++)
        row[c] = cell_double(sum / c);
    row[6] = cell_str(t, type);
    row[7] = cell_int(rank);
}

static int reduce(const struct table_list *a, const struct table_list *b, struct table_list *out)
{
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    const struct table_list *parts[2] = {a, b};
    struct err e = {0, ""};
    int rc = kernels_reduce(&sem, parts, b ? 2 : 1, &bd_scratch, out, &e);
    ck_assert(rc == 0 || e.msg[0]);
    return rc;
}

START_TEST(kernel_parts_should_reduce_to_the_job_tables)
{
    struct table_list r1 = {.count = 0}, r0 = {.count = 0}, out = {.count = 0};
    struct table *t = part_types(&r1);
    add_type(t, "COMPUTATION", 1000);
    add_type(t, "COMMUNICATION", 500);
    struct table *k = part_kernels(&r1);
    add_kernel(k, "b", 3, "COMPUTATION", 1);
    add_kernel(k, "a", 2, "COMPUTATION", 1);
    t = part_types(&r0);
    add_type(t, "COMPUTATION", 1500);
    add_type(t, "COMPUTATION overlapping COMMUNICATION", 7);
    k = part_kernels(&r0);
    add_kernel(k, "n", 5, "COMMUNICATION", 0);
    add_kernel(k, "a", 4, "COMPUTATION", 0);
    ck_assert_int_eq(reduce(&r1, &r0, &out), 0);
    ck_assert_uint_eq(out.count, 2);
    const struct table *types = out.tables[0], *kernels = out.tables[1];
    ck_assert_str_eq(types->name, "kernel_type_breakdown");
    ck_assert_uint_eq(types->nrows, 3);   // by sum, descending: the labels' ns added
    ck_assert_str_eq(bd_str(types, 0, "kernel_type"), "COMPUTATION");
    ASSERT_NUM(types, 0, "sum", 2.5);
    ck_assert_str_eq(bd_str(types, 1, "kernel_type"), "COMMUNICATION");
    ASSERT_NUM(types, 1, "sum", 0.5);
    ASSERT_NUM(types, 2, "sum", 0.007);
    ASSERT_NUM(types, 0, "percentage", 83.1);   // of 3.007 us
    ck_assert_str_eq(kernels->name, "kernel_breakdown");
    ck_assert_uint_eq(kernels->nrows, 4);   // type, then name, then rank
    static const char *const order[4][2] = {
        {"n", "0"}, {"a", "0"}, {"a", "1"}, {"b", "1"}};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_str_eq(bd_str(kernels, i, "name"), order[i][0]);
        ASSERT_NUM(kernels, i, "rank", order[i][1][0] - '0');
    }
    ASSERT_NUM(kernels, 1, "sum (us)", 4);
    ASSERT_NUM(kernels, 1, "min (us)", 4 / 3.0);

    /* One part: the same tables as kernels_run on the events. */
    struct model *m = bd_load(KERNEL("sgemm", 7, 10, 30, 1) KERNEL("ncclKernel_x", 8, 20, 40, 2)
                                  CPU_OP(0, 100), SEMANTICS_HTX);
    struct table_list parts = {.count = 0}, one = {.count = 0}, two = {.count = 0};
    struct err e = {0, ""};
    struct analysis_opts o;
    analysis_opts_default(&o);
    ck_assert_int_eq(kernels_parts_run(m, &o, &bd_scratch, &parts, &e), 0);
    ck_assert_int_eq(reduce(&parts, NULL, &one), 0);
    struct table *run = bd_run(kernels_run, m, NULL, "kernel_type_breakdown");
    ck_assert_uint_eq(one.tables[0]->nrows, run->nrows);
    for (size_t i = 0; i < run->nrows; i++) {
        ck_assert_str_eq(bd_str(one.tables[0], i, "kernel_type"), bd_str(run, i, "kernel_type"));
        ASSERT_NUM(one.tables[0], i, "sum", bd_num(run, i, "sum"));
    }
    /* Twice the same part: every label's time doubled, each row twice. */
    ck_assert_int_eq(reduce(&parts, &parts, &two), 0);
    for (size_t i = 0; i < run->nrows; i++)
        ASSERT_NUM(two.tables[0], i, "sum", 2 * bd_num(run, i, "sum"));
    ck_assert_uint_eq(two.tables[1]->nrows, 2 * one.tables[1]->nrows);
    model_free(m);
}
END_TEST

/* A part from a damaged summary is refused, never read past. */
START_TEST(kernel_parts_should_refuse_what_is_not_a_part)
{
    for (int c = 0; c < 7; c++) {
        struct table_list p = {.count = 0}, out = {.count = 0};
        struct table *t = part_types(&p);
        add_type(t, c == 0 ? "COMPUTATION and more" : "COMPUTATION",
                 c == 1 ? -1 : c == 2 ? INT64_MAX : 10);
        if (c == 2) {   // the sum overflows
            add_type(t, "MEMORY", 0);
            add_type(t, "COMPUTATION", 1);
        }
        if (c == 3) {
            p.count = 1;   // no kernel rows
        } else if (c == 4) {
            p.tables[p.count++] = table_new(&bd_scratch, "kernel_breakdown", NULL, kernel_cols, 7);
        } else {
            struct table *k = part_kernels(&p);
            add_kernel(k, "a", 1, "COMPUTATION", 0);
            if (c == 5)
                table_cell(k, 0, 0)->v.s = NULL;   // a name that is not a string
            if (c == 6)
                *table_cell(k, 0, 7) = cell_double(0.5);   // a rank that is not one
        }
        ck_assert_msg(reduce(&p, NULL, &out) == ERR_PARSE, "case %d was taken as a part", c);
    }
}
END_TEST

TCase *breakdown_kernel_parts_tcase(void)
{
    TCase *tc = tcase_create("kernel parts");
    tcase_add_checked_fixture(tc, bd_setup, bd_teardown);
    tcase_add_test(tc, kernel_parts_should_reduce_to_the_job_tables);
    tcase_add_test(tc, kernel_parts_should_refuse_what_is_not_a_part);
    return tc;
}
