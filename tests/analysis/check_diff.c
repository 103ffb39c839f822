#include "config.h"

#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "model/model.h"

/* ---- tiny traces ----------------------------------------------------------- */

/* One event of a hand-written trace; stream/corr < 0 leave the arg out. */
struct tev {
    const char *cat, *name;
    int ts, dur, stream, corr;
};

#define STEP(n, ts) {"user_annotation", "ProfilerStep#" #n, ts, 100, -1, -1}
#define OP(name, ts, dur) {"cpu_op", name, ts, dur, -1, -1}
#define LAUNCH(ts, corr) {"cuda_runtime", "cudaLaunchKernel", ts, 2, -1, corr}
#define KERNEL(name, ts, dur, corr) {"kernel", name, ts, dur, 7, corr}

/* Writes a Kineto document for one rank into a heap string. */
static char *make_doc(int rank, const struct tev *ev, size_t n)
{
    size_t cap = 256 + n * 256, len = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    len += (size_t)snprintf(s + len, cap - len,
                            "{\"distributedInfo\": {\"rank\": %d}, \"traceEvents\": [", rank);
    for (size_t i = 0; i < n; i++) {
        bool gpu = ev[i].stream >= 0;
        len += (size_t)snprintf(s + len, cap - len,
                                "%s{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":%d,"
                                "\"tid\":%d,\"ts\":%d,\"dur\":%d,\"args\":{",
                                i ? "," : "", ev[i].cat, ev[i].name, gpu ? 0 : 1,
                                gpu ? ev[i].stream : 1, ev[i].ts, ev[i].dur);
        if (ev[i].stream >= 0)
            len += (size_t)snprintf(s + len, cap - len, "\"stream\":%d%s", ev[i].stream,
                                    ev[i].corr >= 0 ? "," : "");
        if (ev[i].corr >= 0)
            len += (size_t)snprintf(s + len, cap - len, "\"correlation\":%d", ev[i].corr);
        len += (size_t)snprintf(s + len, cap - len, "}}");
    }
    snprintf(s + len, cap - len, "]}");
    return s;
}

/* Loads ranks 0..n-1, one doc each, with the diff semantics of `mode`. */
static struct model *load_side(char **docs, size_t n, enum semantics_mode mode)
{
    struct semantics user, sem;
    semantics_init(&user, mode);
    diff_semantics(&user, &sem);
    const char *names[4] = {"r0.json", "r1.json", "r2.json", "r3.json"};
    const void *bufs[4];
    size_t lens[4];
    ck_assert_uint_le(n, 4);
    for (size_t i = 0; i < n; i++) {
        bufs[i] = docs[i];
        lens[i] = strlen(docs[i]);
    }
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, bufs, lens, n, &sem, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    for (size_t i = 0; i < n; i++)
        free(docs[i]);
    return m;
}

#define LOAD1(mode, evs) load_side((char *[]){make_doc(0, evs, sizeof evs / sizeof evs[0])}, 1, mode)

/* Control: two steps; A x2, B, C, D x3, a launch and k<int> in step 1. */
static const struct tev control_ev[] = {
    STEP(1, 0), STEP(2, 100),
    OP("aten::A", 10, 5), OP("aten::A", 20, 5), OP("aten::B", 30, 4), OP("aten::C", 40, 3),
    OP("aten::D", 50, 1), OP("aten::D", 60, 1), OP("aten::D", 70, 1),
    LAUNCH(80, 1), KERNEL("void k<int>(int)", 90, 6, 1),
    OP("aten::A", 110, 5),
};

/* Test: A x3 (slower), C, D x1, E (new), a launch and k<float> in step 1. */
static const struct tev test_ev[] = {
    STEP(1, 0), STEP(2, 100),
    OP("aten::A", 10, 7), OP("aten::A", 20, 7), OP("aten::A", 30, 7), OP("aten::C", 40, 3),
    OP("aten::D", 50, 2), OP("aten::E", 60, 9),
    LAUNCH(80, 1), KERNEL("void k<float>(float)", 90, 8, 1),
    OP("aten::B", 150, 4),
};

/* ---- running a diff -------------------------------------------------------- */

struct run {
    struct model *c, *t;
    struct arena a;
    struct diff_plan cp, tp;
    struct diff_output out;
};

static int run_diff(struct run *r, const struct diff_request_side *creq,
                    const struct diff_request_side *treq, enum diff_device dev, bool short_names,
                    struct err *e)
{
    static const struct diff_request_side none = {0};
    int rc = diff_resolve_side(r->c, creq ? creq : &none, "control", &r->a, &r->cp, e);
    if (!rc)
        rc = diff_resolve_side(r->t, treq ? treq : &none, "test", &r->a, &r->tp, e);
    if (rc)
        return rc;
    struct selection cs, ts;
    diff_plan_selection(&r->cp, &cs);
    diff_plan_selection(&r->tp, &ts);
    ck_assert_int_eq(model_select(r->c, &cs, e), 0);
    ck_assert_int_eq(model_select(r->t, &ts, e), 0);
    struct diff_run_opts o = {dev, short_names, &r->cp, &r->tp, true, false};
    return diff_run(r->c, r->t, &o, &r->a, &r->out, e);
}

static void run_init(struct run *r, struct model *c, struct model *t)
{
    memset(r, 0, sizeof *r);
    r->c = c;
    r->t = t;
    arena_init(&r->a, 1 << 16);
}

static void run_fini(struct run *r)
{
    arena_fini(&r->a);
    model_free(r->c);
    if (r->t != r->c)
        model_free(r->t);
}

static void run_ok(struct run *r, enum diff_device dev, bool short_names)
{
    struct err e = {0, ""};
    int rc = run_diff(r, NULL, NULL, dev, short_names, &e);
    ck_assert_msg(rc == 0, "diff failed: %s", e.msg);
}

static const struct diff_row *find_row(const struct diff_result *res, const char *name)
{
    for (size_t i = 0; i < res->nrows; i++)
        if (strcmp(res->rows[i].name, name) == 0)
            return &res->rows[i];
    return NULL;
}

static void assert_row(const struct diff_result *res, const char *name, int64_t cc, int64_t cus,
                       int64_t tc, int64_t tus, enum diff_change ch)
{
    const struct diff_row *row = find_row(res, name);
    ck_assert_msg(row != NULL, "no row %s", name);
    ck_assert_int_eq(row->control_count, cc);
    ck_assert_int_eq(row->control_dur_ns, cus * 1000);
    ck_assert_int_eq(row->test_count, tc);
    ck_assert_int_eq(row->test_dur_ns, tus * 1000);
    ck_assert_str_eq(diff_change_name(row->change), diff_change_name(ch));
}

static void assert_order(const struct diff_result *res, const char *const *names, size_t n)
{
    ck_assert_uint_eq(res->nrows, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(strcmp(res->rows[i].name, names[i]) == 0, "row %zu: got %s, want %s", i,
                      res->rows[i].name, names[i]);
}

/* ---- categories and order -------------------------------------------------- */

START_TEST(diff_should_put_every_op_in_its_category)
{
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTA, control_ev), LOAD1(SEMANTICS_HTA, test_ev));
    run_ok(&r, DIFF_DEVICE_ALL, false);
    const struct diff_result *res = &r.out.result;
    assert_row(res, "aten::A", 2, 10, 3, 21, DIFF_INCREASED);
    assert_row(res, "aten::B", 1, 4, 0, 0, DIFF_DELETED);
    assert_row(res, "aten::C", 1, 3, 1, 3, DIFF_UNCHANGED);
    assert_row(res, "aten::D", 3, 3, 1, 2, DIFF_DECREASED);
    assert_row(res, "aten::E", 0, 0, 1, 9, DIFF_ADDED);
    assert_row(res, "ProfilerStep#1", 1, 100, 1, 100, DIFF_UNCHANGED);
    assert_row(res, "void k<float>(float)", 0, 0, 1, 8, DIFF_ADDED);
    ck_assert_uint_eq(res->counts[DIFF_ADDED], 2);
    ck_assert_uint_eq(res->counts[DIFF_DELETED], 2);
    ck_assert_uint_eq(res->counts[DIFF_INCREASED], 1);
    ck_assert_uint_eq(res->counts[DIFF_DECREASED], 1);
    ck_assert_uint_eq(res->counts[DIFF_UNCHANGED], 3);
    ck_assert(!res->same_keys);
    run_fini(&r);
}
END_TEST

START_TEST(diff_should_list_control_keys_first_under_hta)
{
    static const char *const want[] = {
        "ProfilerStep#1", "aten::A", "aten::B", "aten::C", "aten::D", "cudaLaunchKernel",
        "void k<int>(int)", "aten::E", "void k<float>(float)",
    };
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTA, control_ev), LOAD1(SEMANTICS_HTA, test_ev));
    run_ok(&r, DIFF_DEVICE_ALL, false);
    assert_order(&r.out.result, want, sizeof want / sizeof want[0]);
    run_fini(&r);
}
END_TEST

START_TEST(diff_should_sort_the_union_under_htx)
{
    /* htx default: every iteration, so step 2 and its ops count too */
    static const char *const want[] = {
        "ProfilerStep#1", "ProfilerStep#2", "aten::A", "aten::B", "aten::C", "aten::D",
        "aten::E", "cudaLaunchKernel", "void k<float>(float)", "void k<int>(int)",
    };
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTX, control_ev), LOAD1(SEMANTICS_HTX, test_ev));
    run_ok(&r, DIFF_DEVICE_ALL, false);
    assert_order(&r.out.result, want, sizeof want / sizeof want[0]);
    assert_row(&r.out.result, "aten::A", 3, 15, 3, 21, DIFF_UNCHANGED);
    assert_row(&r.out.result, "aten::B", 1, 4, 1, 4, DIFF_UNCHANGED);
    run_fini(&r);
}
END_TEST

static void assert_list(const struct table *t, const char *change, const char *const *names,
                        size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        if (strcmp(table_cell(t, i, 0)->v.s, change) != 0)
            continue;
        ck_assert_uint_lt(k, n);
        ck_assert_str_eq(table_cell(t, i, 1)->v.s, names[k]);
        k++;
    }
    ck_assert_uint_eq(k, n);
}

START_TEST(ops_diff_should_group_names_in_hta_list_order)
{
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTA, control_ev), LOAD1(SEMANTICS_HTA, test_ev));
    run_ok(&r, DIFF_DEVICE_ALL, false);
    const struct table *ops = r.out.tables.tables[r.out.tables.count - 1];
    ck_assert_str_eq(ops->name, "ops_diff");
    ck_assert_uint_eq(ops->nrows, 9);
    ck_assert_str_eq(table_cell(ops, 0, 0)->v.s, "added");
    ck_assert_str_eq(table_cell(ops, ops->nrows - 1, 0)->v.s, "unchanged");
    assert_list(ops, "added", (const char *[]){"aten::E", "void k<float>(float)"}, 2);
    assert_list(ops, "deleted", (const char *[]){"aten::B", "void k<int>(int)"}, 2);
    assert_list(ops, "increased", (const char *[]){"aten::A"}, 1);
    assert_list(ops, "decreased", (const char *[]){"aten::D"}, 1);
    assert_list(ops, "unchanged",
                (const char *[]){"ProfilerStep#1", "aten::C", "cudaLaunchKernel"}, 3);
    run_fini(&r);
}
END_TEST

/* ---- tables and types ------------------------------------------------------ */

START_TEST(compare_traces_should_use_hta_columns_and_floats_when_keys_differ)
{
    static const char *const cols[] = {
        "name", "Control_counts", "Control_total_duration", "Test_counts", "Test_total_duration",
        "diff_counts", "diff_duration", "counts_change_categories",
    };
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTA, control_ev), LOAD1(SEMANTICS_HTA, test_ev));
    run_ok(&r, DIFF_DEVICE_ALL, false);
    ck_assert_uint_eq(r.out.tables.count, 2);   /* no per-rank table under HTA */
    const struct table *t = r.out.tables.tables[0];
    ck_assert_str_eq(t->name, "compare_traces");
    ck_assert_uint_eq(t->ncols, 8);
    for (size_t i = 0; i < 8; i++)
        ck_assert_str_eq(t->cols[i].name, cols[i]);
    /* row 1 = aten::A: 2 calls 10 us -> 3 calls 21 us */
    ck_assert_str_eq(table_cell(t, 1, 0)->v.s, "aten::A");
    ck_assert_int_eq(table_cell(t, 1, 1)->type, CELL_DOUBLE);
    ck_assert_double_eq(table_cell(t, 1, 2)->v.d, 10.0);
    ck_assert_double_eq(table_cell(t, 1, 5)->v.d, 1.0);
    ck_assert_double_eq(table_cell(t, 1, 6)->v.d, 11.0);
    ck_assert_str_eq(table_cell(t, 1, 7)->v.s, "+");
    ck_assert_str_eq(table_cell(t, 4, 7)->v.s, "-");   /* aten::D */
    run_fini(&r);
}
END_TEST

START_TEST(compare_traces_should_keep_integers_when_keys_match)
{
    struct model *m = LOAD1(SEMANTICS_HTA, control_ev);
    struct run r;
    run_init(&r, m, m);
    run_ok(&r, DIFF_DEVICE_ALL, false);
    const struct table *t = r.out.tables.tables[0];
    ck_assert(r.out.result.same_keys);
    for (size_t i = 0; i < t->nrows; i++) {
        for (size_t c = 1; c <= 6; c++)
            ck_assert_int_eq(table_cell(t, i, c)->type, CELL_INT);
        ck_assert_str_eq(table_cell(t, i, 7)->v.s, "=");
    }
    ck_assert_int_eq(table_cell(t, 0, 2)->v.i, 100);   /* ProfilerStep#1, us */
    run_fini(&r);
}
END_TEST

START_TEST(compare_traces_should_add_means_and_integer_counts_under_htx)
{
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTX, control_ev), LOAD1(SEMANTICS_HTX, test_ev));
    run_ok(&r, DIFF_DEVICE_ALL, false);
    const struct table *t = r.out.tables.tables[0];
    ck_assert_uint_eq(t->ncols, 11);
    ck_assert_str_eq(t->cols[8].name, "Control_mean_duration");
    ck_assert_str_eq(t->cols[10].name, "diff_mean_duration");
    ck_assert_str_eq(table_cell(t, 2, 0)->v.s, "aten::A");
    ck_assert_int_eq(table_cell(t, 2, 1)->type, CELL_INT);
    ck_assert_int_eq(table_cell(t, 2, 1)->v.i, 3);
    ck_assert_double_eq(table_cell(t, 2, 8)->v.d, 5.0);
    ck_assert_double_eq(table_cell(t, 2, 9)->v.d, 7.0);
    ck_assert_double_eq(table_cell(t, 2, 10)->v.d, 2.0);
    /* aten::E exists only in test: no control mean, no diff of means */
    ck_assert_str_eq(table_cell(t, 6, 0)->v.s, "aten::E");
    ck_assert_int_eq(table_cell(t, 6, 8)->type, CELL_NULL);
    ck_assert_int_eq(table_cell(t, 6, 10)->type, CELL_NULL);
    run_fini(&r);
}
END_TEST

/* ---- names and devices ----------------------------------------------------- */

START_TEST(diff_should_merge_names_that_shorten_alike)
{
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTA, control_ev), LOAD1(SEMANTICS_HTA, test_ev));
    run_ok(&r, DIFF_DEVICE_ALL, true);
    assert_row(&r.out.result, "k", 1, 6, 1, 8, DIFF_UNCHANGED);
    ck_assert_ptr_null(find_row(&r.out.result, "void k<int>(int)"));
    ck_assert_str_eq(r.out.tables.tables[0]->cols[0].name, "short_name");
    /* HTA's ops_diff ignores use_short_name */
    ck_assert_ptr_nonnull(find_row(&r.out.ops, "void k<int>(int)"));
    ck_assert_ptr_null(find_row(&r.out.ops, "k"));
    run_fini(&r);
}
END_TEST

START_TEST(diff_should_merge_short_names_within_one_side)
{
    static const struct tev ev[] = {
        STEP(1, 0), LAUNCH(10, 1), LAUNCH(20, 2),
        KERNEL("void f<1>(int)", 30, 4, 1), KERNEL("void f<2>(long)", 40, 6, 2),
    };
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTX, ev), LOAD1(SEMANTICS_HTX, ev));
    run_ok(&r, DIFF_DEVICE_GPU, true);
    ck_assert_uint_eq(r.out.result.nrows, 1);
    assert_row(&r.out.result, "f", 2, 10, 2, 10, DIFF_UNCHANGED);
    run_fini(&r);
}
END_TEST

START_TEST(diff_should_split_cpu_and_gpu)
{
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTA, control_ev), LOAD1(SEMANTICS_HTA, test_ev));
    run_ok(&r, DIFF_DEVICE_GPU, false);
    assert_order(&r.out.result, (const char *[]){"void k<int>(int)", "void k<float>(float)"}, 2);
    run_fini(&r);

    run_init(&r, LOAD1(SEMANTICS_HTA, control_ev), LOAD1(SEMANTICS_HTA, test_ev));
    run_ok(&r, DIFF_DEVICE_CPU, false);
    ck_assert_uint_eq(r.out.result.nrows, 7);
    ck_assert_ptr_null(find_row(&r.out.result, "void k<int>(int)"));
    ck_assert_ptr_nonnull(find_row(&r.out.result, "cudaLaunchKernel"));
    run_fini(&r);
}
END_TEST

/* ---- selection -------------------------------------------------------------- */

static const struct tev rank0_ev[] = {STEP(1, 0), STEP(2, 100), OP("a", 10, 1), OP("b", 110, 1)};
static const struct tev rank1_ev[] = {STEP(3, 0), STEP(4, 100), OP("c", 10, 1), OP("d", 110, 1)};

static struct model *two_ranks(enum semantics_mode mode)
{
    char *docs[2] = {make_doc(0, rank0_ev, 4), make_doc(1, rank1_ev, 4)};
    return load_side(docs, 2, mode);
}

START_TEST(diff_should_default_to_lowest_rank_and_smallest_iteration_under_hta)
{
    struct run r;
    run_init(&r, two_ranks(SEMANTICS_HTA), two_ranks(SEMANTICS_HTA));
    run_ok(&r, DIFF_DEVICE_ALL, false);
    ck_assert_uint_eq(r.cp.nranks, 1);
    ck_assert_int_eq(r.cp.ranks[0], 0);
    ck_assert_uint_eq(r.cp.niterations, 1);
    ck_assert_int_eq(r.cp.iterations[0], 1);
    assert_order(&r.out.result, (const char *[]){"ProfilerStep#1", "a"}, 2);
    run_fini(&r);
}
END_TEST

START_TEST(diff_should_take_iterations_from_every_rank_under_hta)
{
    /* iteration 3 exists only on rank 1, yet HTA accepts it for rank 0 */
    int64_t it = 3;
    struct diff_request_side req = {.iterations = &it, .niterations = 1};
    struct run r;
    run_init(&r, two_ranks(SEMANTICS_HTA), two_ranks(SEMANTICS_HTA));
    struct err e = {0, ""};
    ck_assert_int_eq(run_diff(&r, &req, &req, DIFF_DEVICE_ALL, false, &e), 0);
    ck_assert_uint_eq(r.out.result.nrows, 0);
    ck_assert_ptr_nonnull(r.out.tables.tables[0]->note);
    run_fini(&r);

    /* htx checks the iteration against the selected ranks */
    run_init(&r, two_ranks(SEMANTICS_HTX), two_ranks(SEMANTICS_HTX));
    int64_t rank0 = 0;
    req.ranks = &rank0;
    req.nranks = 1;
    ck_assert_int_eq(run_diff(&r, &req, &req, DIFF_DEVICE_ALL, false, &e), ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "iteration 3"));
    run_fini(&r);
}
END_TEST

START_TEST(diff_should_reject_unknown_ranks)
{
    int64_t rank = 5;
    struct diff_request_side req = {.ranks = &rank, .nranks = 1};
    struct run r;
    run_init(&r, two_ranks(SEMANTICS_HTA), two_ranks(SEMANTICS_HTA));
    struct err e = {0, ""};
    ck_assert_int_eq(run_diff(&r, NULL, &req, DIFF_DEVICE_ALL, false, &e), ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "test: no rank 5"));
    run_fini(&r);
}
END_TEST

START_TEST(diff_should_pool_all_ranks_and_iterations_on_request)
{
    struct diff_request_side all = {.all_ranks = true, .all_iterations = true};
    struct run r;
    run_init(&r, two_ranks(SEMANTICS_HTA), two_ranks(SEMANTICS_HTA));
    struct err e = {0, ""};
    ck_assert_int_eq(run_diff(&r, &all, &all, DIFF_DEVICE_ALL, false, &e), 0);
    /* four steps and four ops; TraceDiff keeps the last step (no filter) */
    ck_assert_uint_eq(r.out.result.nrows, 8);
    assert_row(&r.out.result, "d", 1, 1, 1, 1, DIFF_UNCHANGED);
    run_fini(&r);
}
END_TEST

START_TEST(diff_should_keep_the_last_step_under_hta)
{
    struct semantics user, sem;
    semantics_init(&user, SEMANTICS_HTA);
    diff_semantics(&user, &sem);
    ck_assert(!sem.drop_last_step);
    ck_assert(sem.ns_rounding);
    int64_t it = 2;
    struct diff_request_side req = {.iterations = &it, .niterations = 1};
    struct run r;
    run_init(&r, two_ranks(SEMANTICS_HTA), two_ranks(SEMANTICS_HTA));
    struct err e = {0, ""};
    ck_assert_int_eq(run_diff(&r, &req, &req, DIFF_DEVICE_ALL, false, &e), 0);
    assert_order(&r.out.result, (const char *[]){"ProfilerStep#2", "b"}, 2);
    run_fini(&r);
}
END_TEST

START_TEST(diff_should_pair_ranks_by_position_under_htx)
{
    struct run r;
    run_init(&r, two_ranks(SEMANTICS_HTX), two_ranks(SEMANTICS_HTX));
    run_ok(&r, DIFF_DEVICE_ALL, false);
    ck_assert_uint_eq(r.out.tables.count, 3);
    const struct table *t = r.out.tables.tables[1];
    ck_assert_str_eq(t->name, "compare_traces_by_rank");
    ck_assert_str_eq(t->cols[0].name, "control_rank");
    ck_assert_str_eq(t->cols[2].name, "name");
    ck_assert_uint_eq(t->nrows, 8);   /* 4 names per rank pair */
    ck_assert_int_eq(table_cell(t, 0, 0)->v.i, 0);
    ck_assert_int_eq(table_cell(t, 7, 1)->v.i, 1);
    ck_assert_str_eq(table_cell(t, 7, 2)->v.s, "d");
    /* the aggregate pools both ranks */
    ck_assert_uint_eq(r.out.result.nrows, 8);
    run_fini(&r);
}
END_TEST

/* Control numbers its steps 1, 2; test (a resumed run) 11, 12, 13. */
static const struct tev steps_control_ev[] = {STEP(1, 0), STEP(2, 100), OP("a", 10, 1)};
static const struct tev steps_test_ev[] = {STEP(11, 0), STEP(12, 100), STEP(13, 200),
                                           OP("a", 10, 1)};

START_TEST(diff_should_pair_steps_by_position_under_htx)
{
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTX, steps_control_ev), LOAD1(SEMANTICS_HTX, steps_test_ev));
    run_ok(&r, DIFF_DEVICE_ALL, false);
    static const char *const want[] = {"ProfilerStep#1 vs #11", "ProfilerStep#13",
                                       "ProfilerStep#2 vs #12", "a"};
    assert_order(&r.out.result, want, sizeof want / sizeof want[0]);
    assert_row(&r.out.result, "ProfilerStep#1 vs #11", 1, 100, 1, 100, DIFF_UNCHANGED);
    assert_row(&r.out.result, "ProfilerStep#13", 0, 0, 1, 100, DIFF_ADDED);
    ck_assert_uint_eq(r.out.result.counts[DIFF_DELETED], 0);
    run_fini(&r);
}
END_TEST

START_TEST(diff_should_match_steps_by_name_under_hta)
{
    struct diff_request_side all = {.all_iterations = true};
    struct run r;
    run_init(&r, LOAD1(SEMANTICS_HTA, steps_control_ev), LOAD1(SEMANTICS_HTA, steps_test_ev));
    struct err e = {0, ""};
    ck_assert_int_eq(run_diff(&r, &all, &all, DIFF_DEVICE_ALL, false, &e), 0);
    assert_row(&r.out.result, "ProfilerStep#1", 1, 100, 0, 0, DIFF_DELETED);
    assert_row(&r.out.result, "ProfilerStep#11", 0, 0, 1, 100, DIFF_ADDED);
    run_fini(&r);
}
END_TEST

START_TEST(diff_pair_steps_should_keep_equal_numbers_and_order_by_number)
{
    struct diff_entry c[] = {{"ProfilerStep#10", 15, 1, 5}, {"ProfilerStep#9", 14, 1, 4},
                             {"x", 1, 1, 1}};
    struct diff_entry t[] = {{"ProfilerStep#10", 15, 1, 7}, {"ProfilerStep#12", 15, 1, 6}};
    struct diff_summary cs = {c, 3, true}, ts = {t, 2, true};
    struct arena a;
    bool renamed = false;
    arena_init(&a, 4096);
    ck_assert_int_eq(diff_pair_steps(&cs, &ts, &a, &renamed), 0);
    /* step order 9, 10 against 10, 12: no pair keeps its number */
    ck_assert(renamed);
    ck_assert_str_eq(c[1].key, "ProfilerStep#9 vs #10");
    ck_assert_str_eq(t[0].key, "ProfilerStep#9 vs #10");
    ck_assert_str_eq(c[0].key, "ProfilerStep#10 vs #12");
    ck_assert_uint_eq(c[0].len, strlen(c[0].key));
    ck_assert_str_eq(c[2].key, "x");
    char buf[64];
    ck_assert(diff_step_side(c[0].key, c[0].len, true, buf, sizeof buf));
    ck_assert_str_eq(buf, "ProfilerStep#12");
    ck_assert(diff_step_side(c[0].key, c[0].len, false, buf, sizeof buf));
    ck_assert_str_eq(buf, "ProfilerStep#10");
    ck_assert(!diff_step_side("a vs #3", 7, true, buf, sizeof buf));
    struct diff_summary same = {c + 2, 1, true};
    ck_assert_int_eq(diff_pair_steps(&same, &same, &a, &renamed), 0);
    ck_assert(!renamed);
    arena_fini(&a);
}
END_TEST

static void assert_same_result(const struct diff_result *a, const struct diff_result *b)
{
    ck_assert_uint_eq(a->nrows, b->nrows);
    for (size_t i = 0; i < a->nrows; i++) {
        ck_assert_str_eq(a->rows[i].name, b->rows[i].name);
        ck_assert_int_eq(a->rows[i].control_count, b->rows[i].control_count);
        ck_assert_int_eq(a->rows[i].test_dur_ns, b->rows[i].test_dur_ns);
    }
}

/* The TUI reads the plan from the events without model_select. */
static void check_from_events(enum semantics_mode mode, const struct diff_request_side *req)
{
    struct run r;
    run_init(&r, two_ranks(mode), two_ranks(mode));
    struct err e = {0, ""};
    ck_assert_int_eq(run_diff(&r, req, req, DIFF_DEVICE_ALL, false, &e), 0);
    /* select something else, so that rows no longer match the plans */
    ck_assert_int_eq(model_select(r.c, NULL, &e), 0);
    ck_assert_int_eq(model_select(r.t, NULL, &e), 0);
    struct diff_run_opts o = {DIFF_DEVICE_ALL, false, &r.cp, &r.tp, false, true};
    struct diff_output out;
    ck_assert_int_eq(diff_run(r.c, r.t, &o, &r.a, &out, &e), 0);
    assert_same_result(&r.out.result, &out.result);
    run_fini(&r);
}

START_TEST(diff_should_read_the_same_rows_from_events)
{
    int64_t rank1 = 1, iter2 = 2;
    struct diff_request_side one = {.ranks = &rank1, .nranks = 1};
    struct diff_request_side it2 = {.iterations = &iter2, .niterations = 1};
    struct diff_request_side all = {.all_ranks = true, .all_iterations = true};
    check_from_events(SEMANTICS_HTA, NULL);
    check_from_events(SEMANTICS_HTA, &all);
    check_from_events(SEMANTICS_HTX, NULL);
    check_from_events(SEMANTICS_HTX, &one);
    check_from_events(SEMANTICS_HTX, &it2);
}
END_TEST

/* A job's summaries hold each rank's part (diff_parts_run): the diff of
 * whole ranks from the parts alone is the diff from the events, for every
 * device and both key kinds; a part that is not one is named. */
static void check_from_parts(const struct diff_request_side *req, enum diff_device dev,
                             bool short_names)
{
    struct run r;
    run_init(&r, two_ranks(SEMANTICS_HTX), two_ranks(SEMANTICS_HTX));
    struct err e = {0, ""};
    ck_assert_int_eq(run_diff(&r, req, req, dev, short_names, &e), 0);
    struct table_list cp = {.count = 0}, tp = {.count = 0};
    ck_assert_int_eq(model_select(r.c, NULL, &e), 0);
    ck_assert_int_eq(model_select(r.t, NULL, &e), 0);
    ck_assert_int_eq(diff_parts_run(r.c, NULL, &r.a, &cp, &e), 0);
    ck_assert_int_eq(diff_parts_run(r.t, NULL, &r.a, &tp, &e), 0);
    ck_assert_ptr_null(diff_parts_check(cp.tables[0]));
    struct diff_side c = {NULL, cp.tables[0]}, t = {NULL, tp.tables[0]};
    struct diff_run_opts o = {dev, short_names, &r.cp, &r.tp, true, false};
    struct diff_output out;
    ck_assert_int_eq(diff_run_sides(&c, &t, &o, &r.a, &out, &e), 0);
    assert_same_result(&r.out.result, &out.result);
    ck_assert_uint_eq(r.out.tables.count, out.tables.count);
    for (size_t k = 0; k < out.tables.count; k++)
        ck_assert_uint_eq(r.out.tables.tables[k]->nrows, out.tables.tables[k]->nrows);
    /* not a part: a negative count, ranks out of order, another table */
    struct table *bad = cp.tables[0];
    int64_t keep = table_cell(bad, 0, 2)->v.i;
    table_cell(bad, 0, 2)->v.i = -1;
    ck_assert_ptr_nonnull(diff_parts_check(bad));
    table_cell(bad, 0, 2)->v.i = keep;
    if (bad->nrows > 1) {
        table_cell(bad, 0, 0)->v.i = 99;
        ck_assert_ptr_nonnull(diff_parts_check(bad));
    }
    ck_assert_ptr_nonnull(diff_parts_check(r.out.tables.tables[0]));
    run_fini(&r);
}

START_TEST(diff_should_read_whole_ranks_from_their_parts)
{
    int64_t rank1 = 1;
    struct diff_request_side one = {.ranks = &rank1, .nranks = 1};
    check_from_parts(NULL, DIFF_DEVICE_ALL, false);
    check_from_parts(NULL, DIFF_DEVICE_GPU, true);
    check_from_parts(&one, DIFF_DEVICE_CPU, false);
}
END_TEST

/* ---- regression gate -------------------------------------------------------- */

START_TEST(regressions_should_report_growth_beyond_threshold_above_floor)
{
    struct diff_row rows[] = {
        {"a", 1, 1, 1, 1000, 1500, DIFF_UNCHANGED},
        {"b", 1, 1, 1, 100, 1000, DIFF_UNCHANGED},
        {"c", 1, 0, 1, 0, 500, DIFF_ADDED},
        {"d", 1, 1, 1, 2000, 1000, DIFF_UNCHANGED},
    };
    struct diff_result res = {rows, 4, false, true, {0}};
    struct arena a;
    arena_init(&a, 4096);
    struct diff_regression *rg;
    size_t n;
    ck_assert_int_eq(diff_find_regressions(&res, 40.0, 600, &a, &rg, &n, NULL), 0);
    ck_assert_uint_eq(n, 2);   /* total 3100 -> 4000 is +29%: below 40 */
    ck_assert_str_eq(rg[0].name, "b");
    ck_assert_double_eq_tol(rg[0].growth_pct, 900.0, 1e-9);
    ck_assert_str_eq(rg[1].name, "a");
    ck_assert_int_eq(diff_find_regressions(&res, 20.0, 0, &a, &rg, &n, NULL), 0);
    ck_assert_uint_eq(n, 4);   /* total, then c (new: infinite), b, a */
    ck_assert(rg[0].is_total);
    ck_assert_str_eq(rg[1].name, "c");
    ck_assert(isinf(rg[1].growth_pct));
    const struct table *t = diff_regressions_table(rg, n, &a);
    ck_assert_uint_eq(t->nrows, 4);
    ck_assert_str_eq(table_cell(t, 0, 0)->v.s, "total");
    ck_assert_int_eq(table_cell(t, 1, 4)->type, CELL_NULL);
    ck_assert_int_eq(diff_find_regressions(&res, 1000.0, 0, &a, &rg, &n, NULL), 0);
    ck_assert_uint_eq(n, 1);   /* only the new kernel */
    arena_fini(&a);
}
END_TEST

START_TEST(diff_valid_iterations_should_read_step_numbers)
{
    static const struct tev ev[] = {
        STEP(12, 0), STEP(3, 100), {"user_annotation", "ProfilerStep#", 200, 5, -1, -1},
        {"user_annotation", "ProfilerStepX", 300, 5, -1, -1}, STEP(12, 400),
    };
    struct model *m = LOAD1(SEMANTICS_HTA, ev);
    struct arena a;
    arena_init(&a, 4096);
    int64_t *v;
    size_t n;
    ck_assert_int_eq(diff_valid_iterations(m, &a, &v, &n, NULL), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_int_eq(v[0], 3);
    ck_assert_int_eq(v[1], 12);
    arena_fini(&a);
    model_free(m);
}
END_TEST

/* ---- oracle ------------------------------------------------------------------ */

static char *shared_dir(void)
{
    const char *src = getenv("HTX_SRCDIR");
    static char path[4096];
    snprintf(path, sizeof path, "%s/../shared", src ? src : ".");
    FILE *f = NULL;
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/oracle/README.md", path);
    f = fopen(probe, "r");
    if (!f)
        return NULL;
    fclose(f);
    return path;
}

static cJSON *read_json(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    ck_assert_ptr_nonnull(buf);
    ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
    buf[len] = '\0';
    fclose(f);
    cJSON *j = cJSON_Parse(buf);
    free(buf);
    ck_assert_msg(j != NULL, "bad JSON in %s", path);
    return j;
}

static bool close_enough(double got, double want)
{
    double diff = fabs(got - want);
    return diff <= 1e-3 || diff <= 1e-6 * fabs(want);
}

/* Compares compare_traces with the DataFrame in split form. */
static void check_compare_traces(const struct table *t, const cJSON *split, const char *what)
{
    const cJSON *index = cJSON_GetObjectItem(split, "index");
    const cJSON *data = cJSON_GetObjectItem(split, "data");
    const cJSON *cols = cJSON_GetObjectItem(split, "columns");
    ck_assert_uint_eq(t->nrows, (size_t)cJSON_GetArraySize(index));
    ck_assert_uint_eq(t->ncols, (size_t)cJSON_GetArraySize(cols) + 1);
    for (size_t c = 0; c + 1 < t->ncols; c++)
        ck_assert_str_eq(t->cols[c + 1].name, cJSON_GetArrayItem(cols, (int)c)->valuestring);
    for (size_t i = 0; i < t->nrows; i++) {
        const char *want = cJSON_GetArrayItem(index, (int)i)->valuestring;
        ck_assert_msg(strcmp(table_cell(t, i, 0)->v.s, want) == 0, "%s row %zu: got %s, want %s",
                      what, i, table_cell(t, i, 0)->v.s, want);
        const cJSON *row = cJSON_GetArrayItem(data, (int)i);
        for (size_t c = 0; c < 6; c++) {
            double w = cJSON_GetArrayItem(row, (int)c)->valuedouble;
            double g = cell_as_double(table_cell(t, i, c + 1));
            ck_assert_msg(close_enough(g, w), "%s row %zu (%s) col %s: got %.17g, want %.17g",
                          what, i, want, t->cols[c + 1].name, g, w);
        }
        ck_assert_str_eq(table_cell(t, i, 7)->v.s, cJSON_GetArrayItem(row, 6)->valuestring);
    }
}

static void check_ops_diff(const struct table *t, const cJSON *lists, const char *what)
{
    size_t row = 0;
    for (int c = 0; c < DIFF_CHANGE_COUNT; c++) {
        const char *key = diff_change_name((enum diff_change)c);
        const cJSON *list = cJSON_GetObjectItem(lists, key);
        ck_assert_ptr_nonnull(list);
        for (int i = 0; i < cJSON_GetArraySize(list); i++, row++) {
            ck_assert_msg(row < t->nrows, "%s: %s has too few rows", what, key);
            ck_assert_str_eq(table_cell(t, row, 0)->v.s, key);
            ck_assert_msg(strcmp(table_cell(t, row, 1)->v.s,
                                 cJSON_GetArrayItem(list, i)->valuestring) == 0,
                          "%s %s[%d]: got %s, want %s", what, key, i,
                          table_cell(t, row, 1)->v.s, cJSON_GetArrayItem(list, i)->valuestring);
        }
    }
    ck_assert_uint_eq(row, t->nrows);
}

static struct model *load_dir(const char *dir)
{
    struct semantics user, sem;
    semantics_init(&user, SEMANTICS_HTA);
    diff_semantics(&user, &sem);
    struct err e = {0, ""};
    const char *paths[] = {dir};
    struct model *m = model_load(paths, 1, &sem, NULL, &e);
    ck_assert_msg(m != NULL, "cannot load %s: %s", dir, e.msg);
    return m;
}

static void check_oracle_set(const char *set)
{
    char *shared = shared_dir();
    if (!shared) {
        printf("../shared not found: skipping the %s diff oracle test\n", set);
        return;
    }
    static const char *const devs[] = {"default", "GPU", "CPU"};
    static const enum diff_device devv[] = {DIFF_DEVICE_ALL, DIFF_DEVICE_GPU, DIFF_DEVICE_CPU};
    char cdir[4400], tdir[4400], path[4500];
    snprintf(cdir, sizeof cdir, "%s/traces/%s/control", shared, set);
    snprintf(tdir, sizeof tdir, "%s/traces/%s/test", shared, set);
    struct model *c = load_dir(cdir), *t = load_dir(tdir);
    for (int d = 0; d < 3; d++) {
        struct run r;
        run_init(&r, c, t);
        run_ok(&r, devv[d], false);
        char what[64];
        snprintf(what, sizeof what, "%s/%s", set, devs[d]);
        snprintf(path, sizeof path, "%s/oracle/%s/pair/compare_traces_%s.json", shared, set,
                 devs[d]);
        cJSON *j = read_json(path);
        const cJSON *split = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "result"), "split");
        check_compare_traces(r.out.tables.tables[0], split, what);
        cJSON_Delete(j);
        snprintf(path, sizeof path, "%s/oracle/%s/pair/ops_diff_%s.json", shared, set, devs[d]);
        j = read_json(path);
        check_ops_diff(r.out.tables.tables[r.out.tables.count - 1],
                       cJSON_GetObjectItem(j, "result"), what);
        cJSON_Delete(j);
        arena_fini(&r.a);
    }
    model_free(c);
    model_free(t);
}

START_TEST(diff_should_match_hta_on_diff_small)
{
    check_oracle_set("diff_small");
}
END_TEST

START_TEST(diff_should_match_hta_on_diff)
{
    check_oracle_set("diff");
}
END_TEST

static Suite *diff_suite(void)
{
    Suite *s = suite_create("diff");
    TCase *tc = tcase_create("categories");
    tcase_add_test(tc, diff_should_put_every_op_in_its_category);
    tcase_add_test(tc, diff_should_list_control_keys_first_under_hta);
    tcase_add_test(tc, diff_should_sort_the_union_under_htx);
    tcase_add_test(tc, ops_diff_should_group_names_in_hta_list_order);
    suite_add_tcase(s, tc);
    tc = tcase_create("tables");
    tcase_add_test(tc, compare_traces_should_use_hta_columns_and_floats_when_keys_differ);
    tcase_add_test(tc, compare_traces_should_keep_integers_when_keys_match);
    tcase_add_test(tc, compare_traces_should_add_means_and_integer_counts_under_htx);
    suite_add_tcase(s, tc);
    tc = tcase_create("names");
    tcase_add_test(tc, diff_should_merge_names_that_shorten_alike);
    tcase_add_test(tc, diff_should_merge_short_names_within_one_side);
    tcase_add_test(tc, diff_should_split_cpu_and_gpu);
    suite_add_tcase(s, tc);
    tc = tcase_create("selection");
    tcase_add_test(tc, diff_should_default_to_lowest_rank_and_smallest_iteration_under_hta);
    tcase_add_test(tc, diff_should_take_iterations_from_every_rank_under_hta);
    tcase_add_test(tc, diff_should_reject_unknown_ranks);
    tcase_add_test(tc, diff_should_pool_all_ranks_and_iterations_on_request);
    tcase_add_test(tc, diff_should_keep_the_last_step_under_hta);
    tcase_add_test(tc, diff_should_pair_ranks_by_position_under_htx);
    tcase_add_test(tc, diff_should_pair_steps_by_position_under_htx);
    tcase_add_test(tc, diff_should_match_steps_by_name_under_hta);
    tcase_add_test(tc, diff_pair_steps_should_keep_equal_numbers_and_order_by_number);
    tcase_add_test(tc, diff_valid_iterations_should_read_step_numbers);
    tcase_add_test(tc, diff_should_read_the_same_rows_from_events);
    tcase_add_test(tc, diff_should_read_whole_ranks_from_their_parts);
    suite_add_tcase(s, tc);
    tc = tcase_create("regressions");
    tcase_add_test(tc, regressions_should_report_growth_beyond_threshold_above_floor);
    suite_add_tcase(s, tc);
    tc = tcase_create("oracle");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, diff_should_match_hta_on_diff_small);
    tcase_add_test(tc, diff_should_match_hta_on_diff);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(diff_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
