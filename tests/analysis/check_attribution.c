#include "config.h"

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/annotations.h"
#include "analysis/callgraph.h"
#include "analysis/argsort.h"
#include "analysis/topn.h"
#include "model/model.h"
#include "check_attribution.h"

/* Tests of the attribution analyses: kernel <-> annotation (§3.8), the
 * call graph and frequent kernel sequences (§3.9), top-N aggregation (§2.4).
 * Tiny traces are written here event by event; the oracle tests compare with
 * HTA's outputs in ../shared/oracle. */

/* ---- building tiny traces ----------------------------------------------- */

struct doc {
    char text[16384];
    size_t len;
    int n;
};

static void doc_begin(struct doc *d)
{
    d->len = (size_t)snprintf(d->text, sizeof d->text, "{\"traceEvents\": [");
    d->n = 0;
}

static void doc_raw(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void doc_raw(struct doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(d->text + d->len, sizeof d->text - d->len, fmt, ap);
    va_end(ap);
    ck_assert_msg(k > 0 && (size_t)k < sizeof d->text - d->len, "test document too long");
    d->len += (size_t)k;
}

/* One complete event; stream/corr < 0 leave the arg out. ts and dur are
 * written as given (a "%g"-style number keeps fractions when there are any). */
static void ev(struct doc *d, const char *cat, const char *name, int pid, int tid, double ts,
               double dur, int stream, int corr)
{
    doc_raw(d, "%s{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,"
               "\"ts\":%.17g,\"dur\":%.17g,\"args\":{",
            d->n++ ? "," : "", cat, name, pid, tid, ts, dur);
    if (stream >= 0)
        doc_raw(d, "\"stream\":%d%s", stream, corr >= 0 ? "," : "");
    if (corr >= 0)
        doc_raw(d, "\"correlation\":%d", corr);
    doc_raw(d, "}}");
}

static const char *doc_end(struct doc *d)
{
    doc_raw(d, "]}");
    return d->text;
}

static struct model *load_doc(const char *text, enum semantics_mode mode)
{
    struct semantics sem;
    semantics_init(&sem, mode);
    const char *names[] = {"rank0.json"};
    const void *bufs[] = {text};
    size_t lens[] = {strlen(text)};
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, bufs, lens, 1, &sem, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    return m;
}

static uint32_t find_pos(const struct model *m, const struct rank_model *r, const char *name)
{
    for (size_t i = 0; i < r->nevents; i++)
        if (strcmp(model_str(m, r->events[i].name), name) == 0)
            return (uint32_t)i;
    ck_abort_msg("event %s not found", name);
    return MODEL_NONE;
}

static size_t find_row(const struct model *m, const struct rank_model *r, const char *name)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (strcmp(model_str(m, r->events[r->rows[i]].name), name) == 0)
            return i;
    ck_abort_msg("row %s not found", name);
    return 0;
}

const struct table *find_table(const struct table_list *l, const char *name)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->tables[i]->name, name) == 0)
            return l->tables[i];
    ck_abort_msg("table %s missing", name);
    return NULL;
}

/* The row whose column col holds the string s, or -1. */
long row_with(const struct table *t, const char *col, const char *s)
{
    int c = table_col_index(t, col);
    ck_assert_int_ge(c, 0);
    for (size_t i = 0; i < t->nrows; i++) {
        const struct cell *x = table_cell(t, i, (size_t)c);
        if (x->type == CELL_STR && strcmp(x->v.s, s) == 0)
            return (long)i;
    }
    return -1;
}

double num(const struct table *t, long row, const char *col)
{
    int c = table_col_index(t, col);
    ck_assert_int_ge(c, 0);
    ck_assert_int_ge(row, 0);
    return cell_as_double(table_cell(t, (size_t)row, (size_t)c));
}

static const char *str(const struct table *t, long row, const char *col)
{
    int c = table_col_index(t, col);
    ck_assert_int_ge(c, 0);
    const struct cell *x = table_cell(t, (size_t)row, (size_t)c);
    ck_assert_int_eq(x->type, CELL_STR);
    return x->v.s;
}

static void near_or_fail(double got, double want, const char *what)
{
    ck_assert_msg(fabs(got - want) <= 1e-9 + 1e-9 * fabs(want), "%s = %.12g, want %.12g", what,
                  got, want);
}
#define ck_near(a, b) near_or_fail((double)(a), (double)(b), #a)

/* Runs one analysis with HTA's defaults (plus tweaks by the caller). */
struct table_list run(const struct model *m, analysis_fn fn, const struct analysis_opts *o,
                             struct arena *a)
{
    struct table_list l = {{0}, 0};
    struct err e = {0, ""};
    ck_assert_msg(fn(m, o, a, &l, &e) == 0, "analysis failed: %s", e.msg);
    return l;
}

/* ---- kernels and annotations -------------------------------------------- */

/* GPU annotations A ⊃ B and C overlapping A's end, on pid 1 / tid 7. */
static const char *nested_doc(struct doc *d)
{
    doc_begin(d);
    ev(d, "gpu_user_annotation", "A", 1, 7, 0, 100, -1, -1);
    ev(d, "gpu_user_annotation", "ns::B<int>(x)", 1, 7, 10, 40, -1, -1);
    ev(d, "gpu_user_annotation", "C", 1, 7, 60, 60, -1, -1);
    ev(d, "kernel", "k1", 1, 7, 20, 10, 7, 1);   /* A > B */
    ev(d, "kernel", "k2", 1, 7, 55, 3, 7, 2);    /* A */
    ev(d, "kernel", "k3", 1, 7, 90, 20, 7, 3);   /* A (partly) and C: C is shorter */
    ev(d, "kernel", "k4", 1, 7, 200, 10, 7, 4);  /* none */
    ev(d, "kernel", "k5", 1, 7, 10, 0, 7, 5);    /* zero length on B's start: A only */
    ev(d, "kernel", "k6", 1, 8, 20, 5, 8, 6);    /* other stream: none */
    return doc_end(d);
}

static void check_nested_innermost(const struct table *t)
{
    ck_assert_uint_eq(t->nrows, 4);
    /* by sum descending */
    ck_assert_str_eq(str(t, 0, "s_user_annotation"), "C");
    ck_assert_str_eq(str(t, 1, "s_user_annotation"), "");
    ck_assert_str_eq(str(t, 2, "s_user_annotation"), "ns::B");
    ck_assert_str_eq(str(t, 3, "s_user_annotation"), "A");
    ck_near(num(t, 0, "sum"), 20);
    ck_near(num(t, 1, "sum"), 15);
    ck_near(num(t, 1, "count"), 2);
    ck_near(num(t, 2, "sum"), 10);
    ck_near(num(t, 3, "sum"), 3);
    ck_near(num(t, 3, "count"), 2);
    ck_near(num(t, 0, "rank"), 0);
}

START_TEST(annotations_should_attribute_kernels_to_the_innermost_annotation)
{
    struct doc d;
    for (int mode = 0; mode < 2; mode++) {
        struct model *m = load_doc(nested_doc(&d), mode ? SEMANTICS_HTA : SEMANTICS_HTX);
        struct analysis_opts o;
        analysis_opts_default(&o);
        struct arena a;
        arena_init(&a, 0);
        struct table_list l = run(m, annotations_run, &o, &a);
        check_nested_innermost(find_table(&l, "kernels_by_annotation"));
        arena_fini(&a);
        model_free(m);
    }
}
END_TEST

START_TEST(annotations_should_build_the_stack_tree)
{
    struct doc d;
    struct model *m = load_doc(nested_doc(&d), SEMANTICS_HTA);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = run(m, annotations_run, &o, &a);
    const struct table *t = find_table(&l, "annotation_tree");
    ck_assert_uint_eq(t->nrows, 4);
    const char *paths[] = {"", "A", "A > C", "A > ns::B"};
    const double sums[] = {15, 33, 20, 10}, counts[] = {2, 4, 1, 1}, selfs[] = {15, 3, 20, 10};
    for (long i = 0; i < 4; i++) {
        ck_assert_str_eq(str(t, i, "annotation_path"), paths[i]);
        ck_near(num(t, i, "sum"), sums[i]);
        ck_near(num(t, i, "count"), counts[i]);
        ck_near(num(t, i, "self_sum"), selfs[i]);
        ck_near(num(t, i, "depth"), i == 0 ? 0 : i == 1 ? 1 : 2);
    }
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(annotations_should_give_one_event_its_stack)
{
    struct doc d;
    struct model *m = load_doc(nested_doc(&d), SEMANTICS_HTA);
    const struct rank_model *r = &m->ranks[0];
    uint32_t out[4];
    size_t len = 99;
    struct err e = {0, ""};
    ck_assert_int_eq(annotation_stack(m, r, find_pos(m, r, "k3"), true, out, 4, &len, &e), 0);
    ck_assert_uint_eq(len, 2);
    ck_assert_uint_eq(out[0], find_pos(m, r, "A"));
    ck_assert_uint_eq(out[1], find_pos(m, r, "C"));
    /* a short buffer keeps the innermost */
    ck_assert_int_eq(annotation_stack(m, r, find_pos(m, r, "k1"), true, out, 1, &len, &e), 0);
    ck_assert_uint_eq(len, 2);
    ck_assert_uint_eq(out[0], find_pos(m, r, "ns::B<int>(x)"));

    struct arena a;
    arena_init(&a, 0);
    struct annot_index *x = annot_index_new(m, r, true, &a, &e);
    ck_assert_ptr_nonnull(x);
    ck_assert_uint_eq(annot_index_count(x), 3);
    ck_assert_uint_eq(annot_innermost(x, find_pos(m, r, "k5")), find_pos(m, r, "A"));
    ck_assert_uint_eq(annot_innermost(x, find_pos(m, r, "k4")), MODEL_NONE);
    ck_assert_uint_eq(annot_innermost(x, find_pos(m, r, "k6")), MODEL_NONE);
    ck_assert_uint_eq(annot_innermost(x, (uint32_t)r->nevents + 5), MODEL_NONE);
    ck_assert_uint_eq(annot_stack(x, UINT32_MAX, out, 4), 0);
    ck_assert_uint_eq(annot_entry_pos(x, 99), MODEL_NONE);
    ck_assert_uint_eq(annot_stack(x, find_pos(m, r, "k2"), out, 4), 1);
    ck_assert_uint_eq(out[0], find_pos(m, r, "A"));
    /* k1's stack (A, B) holds for starts from 20 until B ends at 50, while
     * the annotations starting before the end stay A and B */
    struct annot_span span;
    uint32_t entries[3];
    ck_assert_uint_eq(annot_stack_entries_span(x, find_pos(m, r, "k1"), entries, &span), 2);
    ck_assert(annot_span_holds(x, find_pos(m, r, "k1"), &span));
    ck_assert(!annot_span_holds(x, find_pos(m, r, "k2"), &span));   /* starts after 50 */
    ck_assert(!annot_span_holds(x, find_pos(m, r, "k5"), &span));   /* B starts at its end */
    ck_assert(!annot_span_holds(x, find_pos(m, r, "k6"), &span));   /* another stream */
    ck_assert(!annot_span_holds(x, UINT32_MAX, &span));
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(annotations_should_let_the_later_of_equal_annotations_win)
{
    struct doc d;
    doc_begin(&d);
    ev(&d, "gpu_user_annotation", "X", 1, 7, 0, 50, -1, -1);
    ev(&d, "gpu_user_annotation", "Y", 1, 7, 0, 50, -1, -1);
    ev(&d, "kernel", "k", 1, 7, 10, 5, 7, 1);
    ev(&d, "kernel", "edge", 1, 7, 50, 5, 7, 2);   /* starts at the annotations' end */
    struct model *m = load_doc(doc_end(&d), SEMANTICS_HTA);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = run(m, annotations_run, &o, &a);
    const struct table *t = find_table(&l, "kernels_by_annotation");
    ck_assert_uint_eq(t->nrows, 2);
    ck_assert_int_ge(row_with(t, "s_user_annotation", "Y"), 0);
    ck_assert_int_eq(row_with(t, "s_user_annotation", "X"), -1);
    ck_near(num(t, row_with(t, "s_user_annotation", ""), "sum"), 5);
    arena_fini(&a);
    model_free(m);
}
END_TEST

/* With more than 16 annotations of equal length, HTA's tie order is numpy's
 * introsort's: the innermost is the overlapping one that comes last in
 * hta_argsort_desc; htx sorts stably, so the last overlapping annotation in
 * the trace wins. Annotations 0, 1 and 19 lie elsewhere. */
START_TEST(annotations_should_break_ties_by_the_semantics_sort)
{
    enum { N = 20 };
    struct doc d;
    doc_begin(&d);
    for (int i = 0; i < N; i++) {
        char name[16];
        snprintf(name, sizeof name, "a%02d", i);
        bool away = i < 2 || i == N - 1;
        ev(&d, "gpu_user_annotation", name, 1, 7, away ? 1000 : 0, 100, -1, -1);
    }
    ev(&d, "kernel", "k", 1, 7, 10, 5, 7, 1);
    const char *text = doc_end(&d);
    size_t perm[N];
    int64_t durs[N];
    for (size_t i = 0; i < N; i++)
        durs[i] = 100;
    argsort_identity(perm, N);
    hta_argsort_desc(perm, N, durs, less_i64);
    size_t last = N;
    while (perm[last - 1] < 2 || perm[last - 1] == N - 1)
        last--;
    for (int mode = 0; mode < 2; mode++) {
        struct model *m = load_doc(text, mode ? SEMANTICS_HTA : SEMANTICS_HTX);
        struct analysis_opts o;
        analysis_opts_default(&o);
        struct arena a;
        arena_init(&a, 0);
        struct table_list l = run(m, annotations_run, &o, &a);
        char want[16];
        snprintf(want, sizeof want, "a%02zu", mode ? perm[last - 1] : (size_t)N - 2);
        const struct table *t = find_table(&l, "kernels_by_annotation");
        ck_assert_uint_eq(t->nrows, 1);
        ck_assert_str_eq(str(t, 0, "s_user_annotation"), want);
        ck_assert_str_eq(want, mode ? "a02" : "a18");   /* the two orders differ here */
        arena_fini(&a);
        model_free(m);
    }
}
END_TEST

START_TEST(annotations_should_use_the_launcher_on_the_cpu_side)
{
    struct doc d;
    doc_begin(&d);
    ev(&d, "user_annotation", "outer", 2, 2, 0, 100, -1, -1);
    ev(&d, "user_annotation", "inner", 2, 2, 10, 20, -1, -1);
    ev(&d, "cuda_runtime", "cudaLaunchKernel", 2, 2, 15, 2, -1, 1);
    ev(&d, "cuda_runtime", "cudaLaunchKernel", 2, 2, 50, 2, -1, 2);
    ev(&d, "kernel", "k1", 1, 7, 40, 5, 7, 1);
    ev(&d, "kernel", "k2", 1, 7, 60, 7, 7, 2);
    struct model *m = load_doc(doc_end(&d), SEMANTICS_HTX);
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.use_gpu_annotation = false;
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = run(m, annotations_run, &o, &a);
    const struct table *t = find_table(&l, "kernels_by_annotation");
    ck_assert_uint_eq(t->nrows, 2);
    ck_near(num(t, row_with(t, "s_user_annotation", "inner"), "sum"), 5);
    ck_near(num(t, row_with(t, "s_user_annotation", "outer"), "sum"), 7);
    const struct table *tree = find_table(&l, "annotation_tree");
    ck_near(num(tree, row_with(tree, "annotation_path", "outer > inner"), "sum"), 5);
    ck_near(num(tree, row_with(tree, "annotation_path", "outer"), "sum"), 12);
    const struct table *b = find_table(&l, "user_annotation_breakdown");
    ck_assert_uint_eq(b->nrows, 2);
    ck_assert_str_eq(str(b, 0, "name"), "inner");
    ck_near(num(b, 0, "sum (us)"), 20);
    ck_near(num(b, 1, "max (us)"), 100);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(annotations_should_give_empty_tables_without_annotations)
{
    struct doc d;
    doc_begin(&d);
    ev(&d, "kernel", "k1", 1, 7, 40, 5, 7, 1);
    struct model *m = load_doc(doc_end(&d), SEMANTICS_HTA);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = run(m, annotations_run, &o, &a);
    ck_assert_uint_eq(l.count, 3);
    for (size_t i = 0; i < l.count; i++) {
        ck_assert_uint_eq(l.tables[i]->nrows, 0);
        ck_assert_ptr_nonnull(l.tables[i]->note);
    }
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(annotations_should_break_down_annotation_time)
{
    struct doc d;
    struct model *m = load_doc(nested_doc(&d), SEMANTICS_HTA);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = run(m, annotations_run, &o, &a);
    const struct table *t = find_table(&l, "user_annotation_breakdown");
    ck_assert_uint_eq(t->nrows, 3);
    ck_assert_str_eq(str(t, 0, "name"), "A");
    ck_assert_str_eq(str(t, 1, "name"), "C");
    ck_assert_str_eq(str(t, 2, "name"), "ns::B<int>(x)");
    ck_near(num(t, 1, "sum (us)"), 60);
    ck_near(num(t, 2, "mean (us)"), 40);
    ck_near(num(t, 0, "stddev"), 0);
    ck_near(num(t, 0, "rank"), 0);
    arena_fini(&a);
    model_free(m);
}
END_TEST

/* ---- top-N aggregation (§2.4) ------------------------------------------- */

/* The spec's worked example: a = 10 + 20, c = 30, b = 5 + 5 + 6, d = 1 + 1,
 * e = 1, f = 1. */
static size_t example_items(struct strtab *s, struct topn_item *it)
{
    const char *names[] = {"a", "a", "c", "b", "b", "b", "d", "d", "e", "f"};
    const double v[] = {10, 20, 30, 5, 5, 6, 1, 1, 1, 1};
    for (size_t i = 0; i < 10; i++)
        it[i] = (struct topn_item){strtab_intern(s, names[i], 1), v[i]};
    return 10;
}

static void check_row(const struct topn_row *r, const char *name, double sum, double max,
                      double min, double mean, double std)
{
    ck_assert_str_eq(r->text, name);
    ck_near(r->sum, sum);
    ck_near(r->max, max);
    ck_near(r->min, min);
    ck_assert_msg(fabs(r->mean - mean) < 1e-4, "%s mean %g", name, r->mean);
    ck_assert_msg(fabs(r->std - std) < 1e-4, "%s std %g", name, r->std);
}

START_TEST(topn_should_aggregate_like_hta)
{
    struct strtab s;
    ck_assert_int_eq(strtab_init(&s), 0);
    struct topn_item it[10];
    size_t n = example_items(&s, it);
    struct topn_opts o = {3, 0.8, NULL, 0, true, true};
    struct topn_row *rows;
    size_t nrows;
    ck_assert_int_eq(topn_aggregate(&s, it, n, &o, &rows, &nrows), 0);
    ck_assert_uint_eq(nrows, 4);
    check_row(&rows[0], "a", 30, 30, 30, 30, 0);
    check_row(&rows[1], "b", 16, 16, 16, 16, 0);
    check_row(&rows[2], "c", 30, 30, 30, 30, 0);
    check_row(&rows[3], "others", 4, 2, 1, 4.0 / 3, 0.57735);
    free(rows);

    o.num_kernels = 10;   /* no aggregation: real statistics */
    ck_assert_int_eq(topn_aggregate(&s, it, n, &o, &rows, &nrows), 0);
    ck_assert_uint_eq(nrows, 6);
    check_row(&rows[0], "a", 30, 20, 10, 15, 7.0711);
    free(rows);
    strtab_fini(&s);
}
END_TEST

START_TEST(topn_should_keep_statistics_under_htx)
{
    struct strtab s;
    ck_assert_int_eq(strtab_init(&s), 0);
    struct topn_item it[10];
    size_t n = example_items(&s, it);
    struct topn_opts o = {3, 0.8, NULL, 0, false, false};
    struct topn_row *rows;
    size_t nrows;
    ck_assert_int_eq(topn_aggregate(&s, it, n, &o, &rows, &nrows), 0);
    ck_assert_uint_eq(nrows, 4);
    check_row(&rows[0], "a", 30, 20, 10, 15, 7.0711);
    check_row(&rows[1], "b", 16, 6, 5, 16.0 / 3, 0.57735);
    check_row(&rows[3], "others", 4, 1, 1, 1, 0);
    ck_assert_uint_eq(rows[3].count, 4);
    free(rows);
    strtab_fini(&s);
}
END_TEST

START_TEST(topn_should_keep_allow_listed_names)
{
    struct strtab s;
    ck_assert_int_eq(strtab_init(&s), 0);
    struct topn_item it[10];
    size_t n = example_items(&s, it);
    const char *allow[] = {"f"};
    struct topn_opts o = {3, 0.8, allow, 1, true, true};
    struct topn_row *rows;
    size_t nrows;
    ck_assert_int_eq(topn_aggregate(&s, it, n, &o, &rows, &nrows), 0);
    ck_assert_uint_eq(nrows, 5);
    check_row(&rows[3], "f", 1, 1, 1, 1, 0);
    check_row(&rows[4], "others", 3, 2, 1, 1.5, 0.70711);
    free(rows);
    ck_assert_int_eq(topn_aggregate(&s, it, 0, &o, &rows, &nrows), 0);
    ck_assert_uint_eq(nrows, 0);
    strtab_fini(&s);
}
END_TEST

/* ---- call graph and frequent sequences (§3.9) --------------------------- */

/* An op at t0 launching kernels named by names[] at GPU times gpu[] (each
 * 10 us for Ka, 5 us otherwise), through an aten::addmm child; corr0 is the
 * first correlation id. */
static void linear_call(struct doc *d, const char *op, double t0, double dur, int nk,
                        const char *const *names, const double *gpu, int corr0)
{
    ev(d, "cpu_op", op, 100, 100, t0, dur, -1, -1);
    ev(d, "cpu_op", "aten::t", 100, 100, t0 + 5, 5, -1, -1);
    ev(d, "cpu_op", "aten::addmm", 100, 100, t0 + 10, dur - 20, -1, -1);
    for (int i = 0; i < nk; i++) {
        ev(d, "cuda_runtime", "cudaLaunchKernel", 100, 100, t0 + 20 + 10 * i, 5, -1, corr0 + i);
        ev(d, "kernel", names[i], 1, 7, gpu[i], strcmp(names[i], "Ka") ? 5 : 10, 7, corr0 + i);
    }
}

static const char *sequences_doc(struct doc *d)
{
    static const char *const abc[] = {"Ka", "Kb", "Kc"};
    static const double g1[] = {50, 62, 70}, g2[] = {250, 262, 270}, g3[] = {430, 445};
    static const double g4[] = {650, 662, 655}, g5[] = {850, 862, 870};
    doc_begin(d);
    linear_call(d, "aten::linear", 0, 100, 3, abc, g1, 1);
    linear_call(d, "aten::linear", 200, 100, 3, abc, g2, 11);
    linear_call(d, "aten::linear", 400, 50, 2, abc, g3, 21);    /* only 2 kernels */
    linear_call(d, "aten::linear", 600, 100, 3, abc, g4, 31);   /* Kc runs before Kb */
    ev(d, "cpu_op", "outer", 100, 100, 800, 200, -1, -1);       /* a deeper call */
    linear_call(d, "aten::linear", 810, 100, 3, abc, g5, 41);
    return doc_end(d);
}

START_TEST(callgraph_should_nest_ops_and_hang_kernels_under_launchers)
{
    struct doc d;
    struct model *m = load_doc(sequences_doc(&d), SEMANTICS_HTA);
    const struct rank_model *r = &m->ranks[0];
    struct callgraph cg;
    struct err e = {0, ""};
    ck_assert_int_eq(callgraph_build(m, r, &cg, &e), 0);
    size_t lin = find_row(m, r, "aten::linear"), ka = find_row(m, r, "Ka");
    size_t addmm = find_row(m, r, "aten::addmm");
    ck_assert_int_eq(cg.depth[lin], 0);
    ck_assert_int_eq(cg.depth[addmm], 1);
    ck_assert_uint_eq(cg.parent[addmm], lin);
    ck_assert_int_eq(cg.depth[ka], 3);
    ck_assert(callgraph_counts_as_kernel(m, &r->events[r->rows[ka]]));
    ck_assert(!callgraph_counts_as_kernel(m, &r->events[r->rows[addmm]]));
    uint32_t *top = malloc(r->nrows * sizeof *top);
    for (int32_t depth = 0; depth <= 1; depth++) {   /* linear's subtree, then addmm's */
        uint32_t root = depth ? (uint32_t)addmm : (uint32_t)lin;
        ck_assert_int_eq(callgraph_label_subtrees(&cg, depth, &root, 1, top), 0);
        ck_assert_uint_eq(top[ka], 0);
        ck_assert_uint_eq(top[addmm], 0);
        ck_assert_uint_eq(top[lin], depth ? CALLGRAPH_NONE : 0);
    }
    free(top);
    uint32_t root = (uint32_t)addmm;   /* in place of the depths */
    ck_assert_int_eq(callgraph_label_subtrees(&cg, 1, &root, 1, (uint32_t *)cg.depth), 0);
    ck_assert_uint_eq((uint32_t)cg.depth[ka], 0);
    ck_assert_uint_eq((uint32_t)cg.depth[lin], CALLGRAPH_NONE);
    ck_assert_uint_eq(cg.hta_conflicts, 0);
    callgraph_fini(&cg);
    model_free(m);
}
END_TEST

static void check_two_patterns(const struct table *t, const char *op, double cpu)
{
    char p1[64], p2[64];
    snprintf(p1, sizeof p1, "%s|Ka|Kb|Kc", op);
    snprintf(p2, sizeof p2, "%s|Ka|Kc|Kb", op);
    ck_assert_uint_eq(t->nrows, 2);
    ck_assert_str_eq(str(t, 0, "pattern"), p1);
    ck_assert_str_eq(str(t, 1, "pattern"), p2);
    ck_near(num(t, 0, "count"), 2);
    ck_near(num(t, 0, "GPU kernel duration (us)"), 40);
    ck_near(num(t, 0, "CPU op duration (us)"), 2 * cpu);
    ck_near(num(t, 1, "count"), 1);
    ck_near(num(t, 1, "GPU kernel duration (us)"), 20);
    ck_near(num(t, 0, "rank"), 0);
}

START_TEST(sequences_should_count_kernel_patterns_under_the_shallowest_ops)
{
    struct doc d;
    for (int mode = 0; mode < 2; mode++) {
        struct model *m = load_doc(sequences_doc(&d), mode ? SEMANTICS_HTA : SEMANTICS_HTX);
        struct analysis_opts o;
        analysis_opts_default(&o);
        struct arena a;
        arena_init(&a, 0);
        struct table_list l = run(m, sequences_run, &o, &a);
        check_two_patterns(find_table(&l, "frequent_kernel_sequences"), "aten::linear", 100);
        o.operator_name = "addmm";   /* a substring; depth 1 here */
        l = run(m, sequences_run, &o, &a);
        check_two_patterns(find_table(&l, "frequent_kernel_sequences"), "aten::addmm", 80);
        o.operator_name = "aten::nothing";
        l = run(m, sequences_run, &o, &a);
        const struct table *t = find_table(&l, "frequent_kernel_sequences");
        ck_assert_uint_eq(t->nrows, 0);
        ck_assert_ptr_nonnull(t->note);
        o.min_pattern_len = 4;
        o.operator_name = "aten::linear";
        l = run(m, sequences_run, &o, &a);
        ck_assert_uint_eq(find_table(&l, "frequent_kernel_sequences")->nrows, 0);
        arena_fini(&a);
        model_free(m);
    }
}
END_TEST

/* The parent of the named row, by name ("" for a thread's top level). */
static const char *parent_name(const struct model *m, const struct rank_model *r,
                               const struct callgraph *cg, const char *name)
{
    uint32_t p = cg->parent[find_row(m, r, name)];
    if (p == CALLGRAPH_ROOT)
        return "";
    ck_assert_uint_lt(p, r->nrows);
    return model_str(m, r->events[r->rows[p]].name);
}

START_TEST(callgraph_should_order_endpoints_like_hta)
{
    struct doc d;
    doc_begin(&d);
    const struct { const char *name; double ts, dur; } evs[] = {
        {"A", 0, 10}, {"B", 10, 10}, {"Z", 10, 0},      /* A ends, B starts: Z in A */
        {"C", 30, 10}, {"Z2", 30, 0},                   /* only an open: Z2 in C */
        {"D", 50, 10}, {"Z3", 60, 0},                   /* only a close: Z3 in D */
        {"Z4", 70, 0}, {"Z5", 70, 0},                   /* zero-length: lower index outside */
        {"E", 80, 10}, {"F", 90, 10},                   /* close before open */
        {"G", 100, 20}, {"H", 100, 10},                 /* longer first */
        {"I", 130, 10}, {"J", 130, 10},                 /* equal: lower index first */
    };
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
        ev(&d, "cpu_op", evs[i].name, 100, 100, evs[i].ts, evs[i].dur, -1, -1);
    struct model *m = load_doc(doc_end(&d), SEMANTICS_HTA);
    const struct rank_model *r = &m->ranks[0];
    struct callgraph cg;
    struct err e = {0, ""};
    ck_assert_int_eq(callgraph_build(m, r, &cg, &e), 0);
    ck_assert_str_eq(parent_name(m, r, &cg, "Z"), "A");
    ck_assert_str_eq(parent_name(m, r, &cg, "B"), "");
    ck_assert_str_eq(parent_name(m, r, &cg, "Z2"), "C");
    ck_assert_str_eq(parent_name(m, r, &cg, "Z3"), "D");
    ck_assert_str_eq(parent_name(m, r, &cg, "Z4"), "");
    ck_assert_str_eq(parent_name(m, r, &cg, "Z5"), "Z4");
    ck_assert_str_eq(parent_name(m, r, &cg, "F"), "");
    ck_assert_str_eq(parent_name(m, r, &cg, "H"), "G");
    ck_assert_str_eq(parent_name(m, r, &cg, "J"), "I");
    ck_assert_int_eq(cg.depth[find_row(m, r, "Z5")], 1);
    ck_assert_uint_eq(cg.cyclic_points, 1);
    callgraph_fini(&cg);
    model_free(m);
}
END_TEST

/* Messy threads: nested calls, partial overlaps, equal intervals,
 * zero-length events and (from fractional times) negative durations. */
static const char *random_threads_doc(struct doc *d, unsigned *seed)
{
    doc_begin(d);
    for (int i = 0; i < 60; i++) {
        *seed = *seed * 1103515245u + 12345u;
        unsigned r = *seed >> 8;
        static const double durs[] = {0, 0, 1, 2, 5, 10, 20, 40, 0.3};
        double ts = (double)(r % 50), dur = durs[(r >> 6) % 9];
        if ((r >> 10) % 7 == 0)
            ts += 0.6;   /* with dur 0.3: ts rounds up, the end down */
        char name[16];
        snprintf(name, sizeof name, "e%d", i);
        ev(d, "cpu_op", name, 100, 100 + (int)((r >> 13) % 2), ts, dur, -1, -1);
    }
    return doc_end(d);
}

START_TEST(callgraph_should_give_the_sorted_result_without_the_sort)
{
    size_t merged = 0, sorted = 0;
    unsigned seed = 12;
    for (int round = 0; round < 200; round++) {
        struct doc d;
        struct model *m = load_doc(random_threads_doc(&d, &seed),
                                   round % 2 ? SEMANTICS_HTA : SEMANTICS_HTX);
        const struct rank_model *r = &m->ranks[0];
        struct callgraph fast, slow;
        struct err e = {0, ""};
        ck_assert_int_eq(callgraph_build(m, r, &fast, &e), 0);
        /* Without the model's thread index every thread is sorted. */
        struct rank_model unindexed = *r;
        unindexed.nthreads = 0;
        ck_assert_int_eq(callgraph_build(m, &unindexed, &slow, &e), 0);
        ck_assert_uint_eq(slow.merged_threads, 0);
        merged += fast.merged_threads;
        sorted += fast.sorted_threads;
        for (size_t i = 0; i < r->nrows; i++) {
            ck_assert_msg(fast.parent[i] == slow.parent[i], "round %d, row %zu: parent %u, "
                          "sorted %u", round, i, fast.parent[i], slow.parent[i]);
            ck_assert_int_eq(fast.depth[i], slow.depth[i]);
        }
        ck_assert_uint_eq(fast.cyclic_points, slow.cyclic_points);
        ck_assert_uint_eq(fast.hta_conflicts, slow.hta_conflicts);
        callgraph_fini(&fast);
        callgraph_fini(&slow);
        model_free(m);
    }
    ck_assert_uint_gt(merged, 100);   /* both ways were taken */
    ck_assert_uint_gt(sorted, 0);
}
END_TEST

static const char *backward_doc(struct doc *d, bool second_bwd)
{
    doc_begin(d);
    ev(d, "user_annotation", "ProfilerStep#1", 100, 100, 0, 1000, -1, -1);
    ev(d, "user_annotation", "## backward ##", 100, 100, 500, 400, -1, -1);
    ev(d, "cpu_op", "autograd::engine::evaluate_function: MmBackward0", 100, 101, 550, 100,
       -1, -1);
    ev(d, "cpu_op", "aten::mm", 100, 101, 560, 80, -1, -1);
    ev(d, "cpu_op", "late", 100, 101, 950, 200, -1, -1);
    if (second_bwd)
        ev(d, "cpu_op", "autograd::other", 100, 102, 600, 10, -1, -1);
    return doc_end(d);
}

START_TEST(callgraph_should_move_the_backward_thread_under_the_main_thread)
{
    struct doc d;
    for (int variant = 0; variant < 2; variant++) {
        struct model *m = load_doc(backward_doc(&d, variant == 1), SEMANTICS_HTA);
        const struct rank_model *r = &m->ranks[0];
        struct callgraph cg;
        struct err e = {0, ""};
        ck_assert_int_eq(callgraph_build(m, r, &cg, &e), 0);
        size_t bwd = find_row(m, r, "autograd::engine::evaluate_function: MmBackward0");
        if (variant == 0) {
            ck_assert_str_eq(parent_name(m, r, &cg, "autograd::engine::evaluate_function: "
                                                    "MmBackward0"), "## backward ##");
            ck_assert_int_eq(cg.depth[bwd], 2);
            ck_assert_int_eq(cg.depth[find_row(m, r, "aten::mm")], 3);
        } else {   /* two autograd threads: nothing moves */
            ck_assert_int_eq(cg.depth[bwd], 0);
        }
        ck_assert_int_eq(cg.depth[find_row(m, r, "late")], 0);   /* not inside */
        callgraph_fini(&cg);
        model_free(m);
    }
}
END_TEST

START_TEST(sequences_should_note_where_hta_raises)
{
    struct doc d;
    doc_begin(&d);
    ev(&d, "cpu_op", "N", 100, 100, 9.6, 0.3, -1, -1);   /* becomes ts 10, dur -1 */
    ev(&d, "cpu_op", "Z", 100, 100, 10, 0, -1, -1);
    ev(&d, "cpu_op", "W", 100, 100, 5, 20, -1, -1);
    struct model *m = load_doc(doc_end(&d), SEMANTICS_HTA);
    const struct rank_model *r = &m->ranks[0];
    ck_assert_int_eq(r->events[find_pos(m, r, "N")].dur, -1000);
    struct callgraph cg;
    struct err e = {0, ""};
    ck_assert_int_eq(callgraph_build(m, r, &cg, &e), 0);
    ck_assert_uint_eq(cg.hta_conflicts, 1);
    callgraph_fini(&cg);
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.operator_name = "W";
    o.min_pattern_len = 0;
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = run(m, sequences_run, &o, &a);
    const struct table *t = find_table(&l, "frequent_kernel_sequences");
    ck_assert_ptr_nonnull(t->note);
    ck_assert_ptr_nonnull(strstr(t->note, "ValueError"));
    ck_assert_uint_eq(t->nrows, 1);
    ck_assert_str_eq(str(t, 0, "pattern"), "W");
    arena_fini(&a);
    model_free(m);
}
END_TEST

/* Ten kernels of 2e18 ns each: their sums pass INT64_MAX. The model bounds
 * each duration, not a sum, so the sums saturate instead of overflowing
 * (undefined in C; negative garbage in practice). */
START_TEST(sums_should_saturate_instead_of_overflowing)
{
    const double big = 2e15;   /* us */
    const double sat = (double)INT64_MAX / 1000.0;
    struct doc d;
    doc_begin(&d);
    ev(&d, "gpu_user_annotation", "A", 1, 7, 0, 2.1e15, -1, -1);
    ev(&d, "cpu_op", "aten::linear", 1, 1, 0, 100, -1, -1);
    for (int i = 0; i < 10; i++) {
        ev(&d, "cuda_runtime", "cudaLaunchKernel", 1, 1, 1 + i, 1, -1, i + 1);
        ev(&d, "kernel", "k", 1, 7, 20 + i, big, 7, i + 1);
    }
    doc_end(&d);
    for (int mode = 0; mode < 2; mode++) {
        struct model *m = load_doc(d.text, mode ? SEMANTICS_HTA : SEMANTICS_HTX);
        struct analysis_opts o;
        analysis_opts_default(&o);
        struct arena a;
        arena_init(&a, 0);
        struct table_list l = run(m, annotations_run, &o, &a);
        const struct table *t = find_table(&l, "kernels_by_annotation");
        ck_near(num(t, row_with(t, "s_user_annotation", "A"), "sum"), sat);
        t = find_table(&l, "annotation_tree");
        ck_near(num(t, row_with(t, "annotation_path", "A"), "sum"), sat);
        l = run(m, sequences_run, &o, &a);
        t = find_table(&l, "frequent_kernel_sequences");
        ck_assert_uint_eq(t->nrows, 1);
        ck_near(num(t, 0, "GPU kernel duration (us)"), sat);
        arena_fini(&a);
        model_free(m);
    }
}
END_TEST

static Suite *attribution_suite(void)
{
    Suite *s = suite_create("attribution");
    TCase *tc = tcase_create("annotations");
    tcase_add_test(tc, annotations_should_attribute_kernels_to_the_innermost_annotation);
    tcase_add_test(tc, annotations_should_build_the_stack_tree);
    tcase_add_test(tc, annotations_should_give_one_event_its_stack);
    tcase_add_test(tc, annotations_should_let_the_later_of_equal_annotations_win);
    tcase_add_test(tc, annotations_should_break_ties_by_the_semantics_sort);
    tcase_add_test(tc, annotations_should_use_the_launcher_on_the_cpu_side);
    tcase_add_test(tc, annotations_should_give_empty_tables_without_annotations);
    tcase_add_test(tc, annotations_should_break_down_annotation_time);
    suite_add_tcase(s, tc);
    tc = tcase_create("topn");
    tcase_add_test(tc, topn_should_aggregate_like_hta);
    tcase_add_test(tc, topn_should_keep_statistics_under_htx);
    tcase_add_test(tc, topn_should_keep_allow_listed_names);
    suite_add_tcase(s, tc);
    tc = tcase_create("sequences");
    tcase_add_test(tc, callgraph_should_nest_ops_and_hang_kernels_under_launchers);
    tcase_add_test(tc, callgraph_should_order_endpoints_like_hta);
    tcase_add_test(tc, callgraph_should_give_the_sorted_result_without_the_sort);
    tcase_add_test(tc, callgraph_should_move_the_backward_thread_under_the_main_thread);
    tcase_add_test(tc, sequences_should_count_kernel_patterns_under_the_shallowest_ops);
    tcase_add_test(tc, sequences_should_note_where_hta_raises);
    tcase_add_test(tc, sums_should_saturate_instead_of_overflowing);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, attribution_oracle_tcase());
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(attribution_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
