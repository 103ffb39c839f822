#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/series.h"
#include "analysis/weighted.h"
#include "model/model.h"
#include "trace/counters_write.h"

#include "check_gpu.h"

/* Launch statistics, queue length, memory bandwidth and the counters writer:
 * hand-computed tiny traces here; the writer in check_gpu_counters.c and
 * HTA's own outputs in check_gpu_oracle.c. */

/* ---- helpers ---- */

struct model *gpu_load_doc(const char *doc, enum semantics_mode mode)
{
    struct semantics sem;
    semantics_init(&sem, mode);
    const char *names[] = {"t.json"};
    const void *bufs[] = {doc};
    size_t lens[] = {strlen(doc)};
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, bufs, lens, 1, &sem, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    return m;
}

const struct table *gpu_find_table(const struct table_list *l, const char *name)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->tables[i]->name, name) == 0)
            return l->tables[i];
    ck_abort_msg("no table %s", name);
    return NULL;
}

double gpu_num(const struct table *t, size_t row, const char *col)
{
    int c = table_col_index(t, col);
    ck_assert_msg(c >= 0, "%s: no column %s", t->name, col);
    ck_assert_uint_lt(row, t->nrows);
    return cell_as_double(table_cell(t, row, (size_t)c));
}

const char *gpu_text(const struct table *t, size_t row, const char *col)
{
    int c = table_col_index(t, col);
    ck_assert_msg(c >= 0, "%s: no column %s", t->name, col);
    const struct cell *cell = table_cell(t, row, (size_t)c);
    ck_assert_int_eq(cell->type, CELL_STR);
    return cell->v.s;
}

/* Runs one analysis with default options (or o) into l, in arena a. */
void gpu_run(analysis_fn fn, const struct model *m, const struct analysis_opts *o,
             struct arena *a, struct table_list *l)
{
    struct analysis_opts def;
    analysis_opts_default(&def);
    struct err e = {0, ""};
    memset(l, 0, sizeof *l);
    int rc = fn(m, o ? o : &def, a, l, &e);
    ck_assert_msg(rc == 0, "analysis failed: %s", e.msg);
}

void gpu_case_run(struct gpu_case *c, const char *doc, enum semantics_mode mode, analysis_fn fn,
                  const struct analysis_opts *o)
{
    c->m = gpu_load_doc(doc, mode);
    arena_init(&c->a, 0);
    gpu_run(fn, c->m, o, &c->a, &c->l);
}

void gpu_case_fini(struct gpu_case *c)
{
    arena_fini(&c->a);
    model_free(c->m);
}

#define EV(cat, name, pid, tid, ts, dur, args)                                         \
    "{\"ph\":\"X\",\"cat\":\"" cat "\",\"name\":\"" name "\",\"pid\":" #pid ",\"tid\":" #tid \
    ",\"ts\":" #ts ",\"dur\":" #dur ",\"args\":{" args "}}"

/* ---- launch statistics (§3.5) ---- */

static const char *launch_doc =
    "{\"traceEvents\":["
    EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 2, 5, "\"correlation\":1") ","
    EV("kernel", "k", 0, 7, 10, 4, "\"stream\":7,\"correlation\":1") ","
    EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 20, 60, "\"correlation\":2") ","
    EV("kernel", "k", 0, 7, 70, 100, "\"stream\":7,\"correlation\":2") ","
    EV("cuda_runtime", "cudaMemcpyAsync", 1, 1, 100, 3, "\"correlation\":3") ","
    EV("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 0, 7, 300, 2,
       "\"stream\":7,\"correlation\":3") ","
    EV("cuda_runtime", "hipLaunchKernel", 1, 1, 400, 5, "\"correlation\":4") ","
    EV("kernel", "hk", 0, 7, 410, 1, "\"stream\":7,\"correlation\":4")
    "]}";

static void check_launch_row(const struct table *t, size_t row, int64_t corr, double cpu,
                             double gpu, double delay)
{
    ck_assert_int_eq((int64_t)gpu_num(t, row, "correlation"), corr);
    ck_assert_double_eq_tol(gpu_num(t, row, "cpu_duration"), cpu, 1e-9);
    ck_assert_double_eq_tol(gpu_num(t, row, "gpu_duration"), gpu, 1e-9);
    ck_assert_double_eq_tol(gpu_num(t, row, "launch_delay"), delay, 1e-9);
}

START_TEST(launch_should_measure_delay_from_the_end_of_the_launch)
{
    struct gpu_case c;
    gpu_case_run(&c, launch_doc, SEMANTICS_HTA, launch_run, NULL);
    const struct table *t = gpu_find_table(&c.l, "cuda_kernel_launch_stats");
    ck_assert_uint_eq(t->nrows, 3);
    ck_assert_int_eq((int64_t)gpu_num(t, 0, "rank"), 0);
    check_launch_row(t, 0, 1, 5, 4, 3);     /* the spec's example: 10 - 2 - 5 */
    check_launch_row(t, 1, 2, 60, 100, 0);  /* kernel starts before the launch ends */
    check_launch_row(t, 2, 3, 3, 2, 197);
    gpu_case_fini(&c);
}
END_TEST

START_TEST(launch_should_list_short_kernels_and_outliers_with_hta_cutoffs)
{
    struct gpu_case c;
    gpu_case_run(&c, launch_doc, SEMANTICS_HTA, launch_run, NULL);
    const struct table *sk = gpu_find_table(&c.l, "short_kernels");
    ck_assert_uint_eq(sk->nrows, 2);
    ck_assert_int_eq((int64_t)gpu_num(sk, 0, "correlation"), 1);
    ck_assert_int_eq((int64_t)gpu_num(sk, 1, "correlation"), 3);
    const struct table *ro = gpu_find_table(&c.l, "runtime_outliers");
    ck_assert_uint_eq(ro->nrows, 1);
    ck_assert_int_eq((int64_t)gpu_num(ro, 0, "correlation"), 2);
    const struct table *lo = gpu_find_table(&c.l, "launch_delay_outliers");
    ck_assert_uint_eq(lo->nrows, 1);
    ck_assert_int_eq((int64_t)gpu_num(lo, 0, "correlation"), 3);
    const struct table *s = gpu_find_table(&c.l, "launch_stats_summary");
    ck_assert_uint_eq(s->nrows, 3);
    ck_assert_str_eq(gpu_text(s, 2, "metric"), "launch_delay");
    ck_assert_double_eq_tol(gpu_num(s, 2, "mean"), 200.0 / 3, 1e-9);
    ck_assert_double_eq_tol(gpu_num(s, 2, "max"), 197, 1e-9);
    gpu_case_fini(&c);
}
END_TEST

START_TEST(launch_should_honour_cutoffs_and_memory_option)
{
    struct model *m = gpu_load_doc(launch_doc, SEMANTICS_HTA);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l;
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.include_memory_events = false;
    o.runtime_cutoff_ns = 4000;
    o.launch_delay_cutoff_ns = 2000;
    gpu_run(launch_run, m, &o, &a, &l);
    const struct table *t = gpu_find_table(&l, "cuda_kernel_launch_stats");
    ck_assert_uint_eq(t->nrows, 2);    /* the memcpy launch is gone */
    ck_assert_uint_eq(gpu_find_table(&l, "short_kernels")->nrows, 0);
    ck_assert_uint_eq(gpu_find_table(&l, "runtime_outliers")->nrows, 2);
    ck_assert_uint_eq(gpu_find_table(&l, "launch_delay_outliers")->nrows, 1);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(launch_should_count_hip_launches_under_htx_only)
{
    struct gpu_case c;
    gpu_case_run(&c, launch_doc, SEMANTICS_HTX, launch_run, NULL);
    const struct table *t = gpu_find_table(&c.l, "cuda_kernel_launch_stats");
    ck_assert_uint_eq(t->nrows, 4);
    check_launch_row(t, 3, 4, 5, 1, 5);
    gpu_case_fini(&c);
}
END_TEST

/* What the report's text shows: the largest rows only, ties in table
 * order, and how many rows they stand for. */
START_TEST(launch_should_keep_only_the_largest_rows_when_asked)
{
    struct model *m = gpu_load_doc(launch_doc, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l;
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.launch_top_rows = 2;
    gpu_run(launch_run, m, &o, &a, &l);
    const struct table *t = gpu_find_table(&l, "cuda_kernel_launch_stats");
    ck_assert_uint_eq(t->nrows, 2);
    ck_assert_uint_eq(t->nrows_total, 4);
    check_launch_row(t, 0, 3, 3, 2, 197);   /* by launch_delay, largest first */
    check_launch_row(t, 1, 4, 5, 1, 5);
    const struct table *sk = gpu_find_table(&l, "short_kernels");
    ck_assert_uint_eq(sk->nrows_total, 3);   /* cpu_duration 5, 3, 5: the tie in table order */
    ck_assert_int_eq((int64_t)gpu_num(sk, 0, "correlation"), 1);
    ck_assert_int_eq((int64_t)gpu_num(sk, 1, "correlation"), 4);
    const struct table *ro = gpu_find_table(&l, "runtime_outliers");
    ck_assert_uint_eq(ro->nrows, 1);
    ck_assert_uint_eq(ro->nrows_total, 1);
    const struct table *s = gpu_find_table(&l, "launch_stats_summary");
    ck_assert_double_eq_tol(gpu_num(s, 2, "max"), 197, 1e-9);   /* of every launch */
    ck_assert_double_eq_tol(gpu_num(s, 2, "mean"), 205.0 / 4, 1e-9);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(launch_should_give_an_empty_table_with_a_note_without_launches)
{
    static const char *doc = "{\"traceEvents\":["
        EV("cpu_op", "aten::add", 1, 1, 0, 10, "") "]}";
    struct gpu_case c;
    gpu_case_run(&c, doc, SEMANTICS_HTA, launch_run, NULL);
    const struct table *t = gpu_find_table(&c.l, "cuda_kernel_launch_stats");
    ck_assert_uint_eq(t->nrows, 0);
    ck_assert_ptr_nonnull(t->note);
    gpu_case_fini(&c);
}
END_TEST

/* ---- queue length (§3.6) ---- */

/* Stream 7: launches at 0, 1, 2 and their kernels at 5, 6, 7.
 * Stream 9: a launch at 3 and its kernel at 4. */
static const char *queue_doc =
    "{\"traceEvents\":["
    EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1, "\"correlation\":1") ","
    EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 1, 1, "\"correlation\":2") ","
    EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 2, 1, "\"correlation\":3") ","
    EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 3, 1, "\"correlation\":4") ","
    EV("kernel", "k", 0, 9, 4, 1, "\"stream\":9,\"correlation\":4") ","
    EV("kernel", "k", 0, 7, 5, 1, "\"stream\":7,\"correlation\":1") ","
    EV("kernel", "k", 0, 7, 6, 1, "\"stream\":7,\"correlation\":2") ","
    EV("kernel", "k", 0, 7, 7, 1, "\"stream\":7,\"correlation\":3")
    "]}";

/* The queue series of a document's only rank; the model and the arena
 * holding the series stay until queue_case_fini. */
struct queue_case {
    struct model *m;
    struct arena a;
    struct queue_series *qs;
    size_t n;
};

static void queue_case_build(struct queue_case *c, const char *doc, enum semantics_mode mode,
                             uint64_t *unpaired)
{
    c->m = gpu_load_doc(doc, mode);
    arena_init(&c->a, 0);
    struct err e = {0, ""};
    ck_assert_int_eq(queue_series_build(c->m, &c->m->ranks[0], &c->a, &c->qs, &c->n, unpaired, &e),
                     0);
}

static void queue_case_fini(struct queue_case *c)
{
    arena_fini(&c->a);
    model_free(c->m);
}

START_TEST(queue_should_build_the_running_count_per_stream)
{
    struct queue_case c;
    uint64_t unpaired = 99;
    queue_case_build(&c, queue_doc, SEMANTICS_HTA, &unpaired);
    struct model *m = c.m;
    struct queue_series *qs = c.qs;
    size_t n = c.n;
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(unpaired, 0);
    ck_assert_int_eq(qs[0].stream, 7);
    ck_assert_uint_eq(qs[0].n, 6);
    static const int64_t want_q[] = {1, 2, 3, 2, 1, 0};
    static const int64_t want_ts[] = {0, 1000, 2000, 5000, 6000, 7000};
    for (size_t i = 0; i < 6; i++) {
        ck_assert_int_eq(qs[0].queue_length[i], want_q[i]);
        ck_assert_int_eq(qs[0].ts[i], want_ts[i]);
    }
    ck_assert_int_eq(qs[1].stream, 9);
    ck_assert_uint_eq(qs[1].n, 2);
    ck_assert_str_eq(model_str(m, qs[1].tid), "9");
    queue_case_fini(&c);
}
END_TEST

/* A rank's streams in ascending order with their own points, however many
 * (up to 64 they are found without sorting every point's, past that by the
 * sort) and in whatever order the kernels come: nstreams streams, stream s
 * with s + 1 kernels (launched one after another, each stream's kernels
 * interleaved with the others'). */
START_TEST(queue_should_find_every_stream_in_order)
{
    static const size_t counts[] = {1, 63, 64, 65, 70};
    size_t nstreams = counts[_i];
    size_t cap = 1 << 20, len = 0;
    char *doc = malloc(cap);
    ck_assert_ptr_nonnull(doc);
    len += (size_t)snprintf(doc + len, cap - len, "{\"traceEvents\":[");
    size_t corr = 1;
    for (size_t round = 0; round < nstreams; round++)
        for (size_t k = 0; k < nstreams; k++) {
            size_t s = (k * 37 + 11) % nstreams;   // scrambled
            if (round > s)
                continue;
            len += (size_t)snprintf(doc + len, cap - len, "%s" EV("cuda_runtime", "cudaLaunchKernel",
                                    1, 1, %zu, 1, "\"correlation\":%zu") "," EV("kernel", "k", 0,
                                    %zu, %zu, 1, "\"stream\":%zu,\"correlation\":%zu"),
                                    corr > 1 ? "," : "", 10 * corr, corr, 100 + s, 10 * corr + 5,
                                    100 + s, corr);
            corr++;
        }
    len += (size_t)snprintf(doc + len, cap - len, "]}");
    ck_assert_uint_lt(len, cap);
    struct queue_case c;
    queue_case_build(&c, doc, SEMANTICS_HTX, NULL);
    const struct queue_series *qs = c.qs;
    ck_assert_uint_eq(c.n, nstreams);
    for (size_t s = 0; s < nstreams; s++) {
        ck_assert_int_eq(qs[s].stream, (int64_t)(100 + s));
        ck_assert_uint_eq(qs[s].n, 2 * (s + 1));   // each kernel: +1 at its launch, -1 at itself
        for (size_t i = 1; i < qs[s].n; i++)
            ck_assert_int_le(qs[s].ts[i - 1], qs[s].ts[i]);
    }
    queue_case_fini(&c);
    free(doc);
}
END_TEST

/* A kernel whose correlation's last CPU event is not its launch (another
 * runtime call of that correlation comes later) is still the launch's. */
START_TEST(queue_should_find_a_launch_that_is_not_the_partner)
{
    static const char *doc =
        "{\"traceEvents\":["
        EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1, "\"correlation\":1") ","
        EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 1, 1, "\"correlation\":2") ","
        EV("cuda_runtime", "cudaEventRecord", 1, 1, 2, 1, "\"correlation\":1") ","
        EV("kernel", "k", 0, 7, 5, 1, "\"stream\":7,\"correlation\":1") ","
        EV("kernel", "k", 0, 7, 6, 1, "\"stream\":7,\"correlation\":2")
        "]}";
    for (int mode = 0; mode < 2; mode++) {
        struct queue_case c;
        queue_case_build(&c, doc, mode ? SEMANTICS_HTA : SEMANTICS_HTX, NULL);
        ck_assert_uint_eq(c.n, 1);
        ck_assert_uint_eq(c.qs[0].n, 4);
        static const int64_t want_q[] = {1, 2, 1, 0};
        for (size_t i = 0; i < 4; i++)
            ck_assert_int_eq(c.qs[0].queue_length[i], want_q[i]);
        queue_case_fini(&c);
    }
}
END_TEST

START_TEST(queue_should_summarise_each_change_point_once_under_hta)
{
    struct gpu_case c;
    gpu_case_run(&c, queue_doc, SEMANTICS_HTA, queue_run, NULL);
    const struct table *t = gpu_find_table(&c.l, "queue_length_summary");
    ck_assert_uint_eq(t->nrows, 2);
    ck_assert_int_eq((int64_t)gpu_num(t, 0, "stream"), 7);
    ck_assert_int_eq((int64_t)gpu_num(t, 0, "count"), 6);
    ck_assert_double_eq_tol(gpu_num(t, 0, "mean"), 1.5, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "std"), sqrt(1.1), 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "25%"), 1, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "50%"), 1.5, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "75%"), 2, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "min"), 0, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "max"), 3, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 1, "std"), sqrt(0.5), 1e-12);
    gpu_case_fini(&c);
}
END_TEST

START_TEST(queue_should_weight_by_time_under_htx)
{
    struct gpu_case c;
    gpu_case_run(&c, queue_doc, SEMANTICS_HTX, queue_run, NULL);
    const struct table *t = gpu_find_table(&c.l, "queue_length_summary");
    ck_assert_uint_eq(t->nrows, 2);
    /* 1 for 1 us, 2 for 1 us, 3 for 3 us, 2 for 1 us, 1 for 1 us. */
    ck_assert_int_eq((int64_t)gpu_num(t, 0, "count"), 6);
    ck_assert_double_eq_tol(gpu_num(t, 0, "mean"), 15.0 / 7, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "std"), sqrt(34.0) / 7, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "min"), 1, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "25%"), 1, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "50%"), 2, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "75%"), 3, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "max"), 3, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 1, "mean"), 1, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 1, "std"), 0, 1e-12);
    gpu_case_fini(&c);
}
END_TEST

START_TEST(queue_should_report_time_blocked_per_stream)
{
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.max_queue_length = 2;
    struct arena a;
    arena_init(&a, 0);
    struct table_list l;
    struct model *hta = gpu_load_doc(queue_doc, SEMANTICS_HTA);
    gpu_run(queue_run, hta, &o, &a, &l);
    const struct table *t = gpu_find_table(&l, "queue_length_blocked");
    ck_assert_uint_eq(t->nrows, 1);    /* HTA: the highest stream overwrites */
    ck_assert_int_eq((int64_t)gpu_num(t, 0, "stream"), 9);
    ck_assert_double_eq_tol(gpu_num(t, 0, "duration_at_max_queue_length"), 0, 1e-12);
    struct model *htx = gpu_load_doc(queue_doc, SEMANTICS_HTX);
    gpu_run(queue_run, htx, &o, &a, &l);
    t = gpu_find_table(&l, "queue_length_blocked");
    ck_assert_uint_eq(t->nrows, 2);
    ck_assert_int_eq((int64_t)gpu_num(t, 0, "stream"), 7);
    /* >= 2 from 1 to 6 us; the rank's events start from 0 to 7 us. */
    ck_assert_double_eq_tol(gpu_num(t, 0, "duration_at_max_queue_length"), 5, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "relative_duration_at_max_queue_length"), 5.0 / 7,
                            1e-12);
    arena_fini(&a);
    model_free(hta);
    model_free(htx);
}
END_TEST

START_TEST(queue_should_not_fail_when_two_launches_share_a_correlation)
{
    /* HTA's row-count assertion fails here (spec §4.6). */
    static const char *doc = "{\"traceEvents\":["
        EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 1, "\"correlation\":1") ","
        EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 1, 1, "\"correlation\":1") ","
        EV("kernel", "k", 0, 7, 5, 1, "\"stream\":7,\"correlation\":1") "]}";
    struct gpu_case c;
    gpu_case_run(&c, doc, SEMANTICS_HTA, queue_run, NULL);
    const struct table *t = gpu_find_table(&c.l, "queue_length_summary");
    ck_assert_uint_eq(t->nrows, 1);
    ck_assert_int_eq((int64_t)gpu_num(t, 0, "count"), 2);
    ck_assert_double_eq_tol(gpu_num(t, 0, "max"), 1, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "min"), 0, 1e-12);
    ck_assert_ptr_nonnull(strstr(t->note, "share a correlation"));
    gpu_case_fini(&c);
}
END_TEST

START_TEST(queue_should_put_a_launch_before_its_kernel_at_equal_ts)
{
    static const char *doc = "{\"traceEvents\":["
        EV("cuda_runtime", "cudaLaunchKernel", 1, 1, 10, 1, "\"correlation\":5") ","
        EV("kernel", "k", 0, 7, 10, 1, "\"stream\":7,\"correlation\":5") "]}";
    struct queue_case c;
    queue_case_build(&c, doc, SEMANTICS_HTA, NULL);
    ck_assert_uint_eq(c.n, 1);
    ck_assert_uint_eq(c.qs[0].n, 2);
    ck_assert_int_eq(c.qs[0].queue_length[0], 1);
    ck_assert_int_eq(c.qs[0].queue_length[1], 0);
    queue_case_fini(&c);
}
END_TEST

START_TEST(queue_should_give_empty_tables_with_a_note_on_cpu_only_traces)
{
    static const char *doc = "{\"traceEvents\":["
        EV("cpu_op", "aten::add", 1, 1, 0, 10, "") "]}";
    struct gpu_case c;
    gpu_case_run(&c, doc, SEMANTICS_HTA, queue_run, NULL);
    ck_assert_uint_eq(c.l.count, 2);
    for (size_t i = 0; i < c.l.count; i++) {
        ck_assert_uint_eq(c.l.tables[i]->nrows, 0);
        ck_assert_ptr_nonnull(c.l.tables[i]->note);
    }
    gpu_case_fini(&c);
}
END_TEST

/* ---- memory bandwidth (§3.7) ---- */

static const char *membw_doc =
    "{\"traceEvents\":["
    EV("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 0, 7, 0, 10,
       "\"stream\":7,\"correlation\":1,\"memory bandwidth (GB/s)\":5") ","
    EV("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 0, 7, 5, 20,
       "\"stream\":7,\"correlation\":2,\"memory bandwidth (GB/s)\":3") ","
    EV("gpu_memset", "Memset (Device)", 0, 7, 30, 0,
       "\"stream\":7,\"correlation\":3,\"memory bandwidth (GB/s)\":2") ","
    EV("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", 0, 7, 40, 4,
       "\"stream\":7,\"correlation\":4")
    "]}";

START_TEST(membw_should_build_series_per_copy_kind)
{
    struct model *m = gpu_load_doc(membw_doc, SEMANTICS_HTA);
    struct arena a;
    arena_init(&a, 0);
    struct membw_series *s;
    size_t n;
    struct err e = {0, ""};
    ck_assert_int_eq(membw_series_build(m, &m->ranks[0], &a, &s, &n, &e), 0);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(s[0].label, "Memcpy DtoH");
    ck_assert_str_eq(s[1].label, "Memcpy HtoD");
    ck_assert_str_eq(s[2].label, "Memset");
    ck_assert_uint_eq(s[0].with_bw, 0);
    ck_assert_uint_eq(s[1].n, 4);
    static const double want[] = {5, 8, 3, 0};
    static const int64_t want_ts[] = {0, 5000, 10000, 25000};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_double_eq_tol(s[1].bw_gbps[i], want[i], 1e-12);
        ck_assert_int_eq(s[1].ts[i], want_ts[i]);
    }
    ck_assert_int_eq(s[2].ts[1] - s[2].ts[0], 1000);   /* a 0 duration counts as 1 us */
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(membw_should_summarise_positive_samples_under_hta)
{
    struct gpu_case c;
    gpu_case_run(&c, membw_doc, SEMANTICS_HTA, membw_run, NULL);
    const struct table *t = gpu_find_table(&c.l, "memory_bw_summary");
    ck_assert_uint_eq(t->nrows, 2);   /* DtoH has no bandwidth value: no row */
    ck_assert_str_eq(gpu_text(t, 0, "name"), "Memcpy HtoD");
    ck_assert_int_eq((int64_t)gpu_num(t, 0, "count"), 3);
    ck_assert_double_eq_tol(gpu_num(t, 0, "mean"), 16.0 / 3, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "std"), sqrt(19.0 / 3), 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "25%"), 4, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "75%"), 6.5, 1e-12);
    ck_assert_str_eq(gpu_text(t, 1, "name"), "Memset");
    ck_assert(isnan(gpu_num(t, 1, "std")));
    ck_assert_ptr_nonnull(strstr(t->note, "Memcpy DtoH"));
    gpu_case_fini(&c);
}
END_TEST

START_TEST(membw_should_weight_by_time_under_htx)
{
    struct gpu_case c;
    gpu_case_run(&c, membw_doc, SEMANTICS_HTX, membw_run, NULL);
    const struct table *t = gpu_find_table(&c.l, "memory_bw_summary");
    ck_assert_uint_eq(t->nrows, 2);
    /* 5 GB/s for 5 us, 8 for 5 us, 3 for 15 us. */
    ck_assert_double_eq_tol(gpu_num(t, 0, "mean"), 4.4, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "std"), sqrt(3.84), 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "50%"), 3, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "75%"), 5, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 0, "max"), 8, 1e-12);
    ck_assert_double_eq_tol(gpu_num(t, 1, "std"), 0, 1e-12);
    gpu_case_fini(&c);
}
END_TEST

START_TEST(membw_should_drop_float_residue_under_htx_only)
{
    /* 0.1 + 0.2 - 0.1 - 0.2 leaves 2.8e-17 in double arithmetic. */
    static const char *doc = "{\"traceEvents\":["
        EV("gpu_memcpy", "Memcpy DtoD (Device -> Device)", 0, 7, 0, 10,
           "\"stream\":7,\"correlation\":1,\"memory bandwidth (GB/s)\":0.1") ","
        EV("gpu_memcpy", "Memcpy DtoD (Device -> Device)", 0, 7, 1, 10,
           "\"stream\":7,\"correlation\":2,\"memory bandwidth (GB/s)\":0.2") "]}";
    struct arena a;
    arena_init(&a, 0);
    struct table_list l;
    struct model *hta = gpu_load_doc(doc, SEMANTICS_HTA);
    gpu_run(membw_run, hta, NULL, &a, &l);
    ck_assert_int_eq((int64_t)gpu_num(gpu_find_table(&l, "memory_bw_summary"), 0, "count"), 4);
    struct model *htx = gpu_load_doc(doc, SEMANTICS_HTX);
    gpu_run(membw_run, htx, NULL, &a, &l);
    ck_assert_int_eq((int64_t)gpu_num(gpu_find_table(&l, "memory_bw_summary"), 0, "count"), 3);
    arena_fini(&a);
    model_free(hta);
    model_free(htx);
}
END_TEST

START_TEST(membw_should_give_an_empty_table_when_no_transfer_has_bandwidth)
{
    static const char *doc = "{\"traceEvents\":["
        EV("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 0, 7, 0, 10,
           "\"stream\":7,\"correlation\":1") "]}";
    struct gpu_case c;
    gpu_case_run(&c, doc, SEMANTICS_HTA, membw_run, NULL);
    const struct table *t = gpu_find_table(&c.l, "memory_bw_summary");
    ck_assert_uint_eq(t->nrows, 0);
    ck_assert_ptr_nonnull(strstr(t->note, "memory bandwidth"));
    gpu_case_fini(&c);
}
END_TEST

/* ---- the time-weighted describe (htx summaries) ---- */

START_TEST(weighted_should_fall_back_to_equal_weights_and_handle_empty_input)
{
    struct arena a;
    arena_init(&a, 0);
    struct describe d;
    ck_assert_int_eq(describe_time_weighted(NULL, NULL, 0, &a, &d), 0);
    ck_assert(d.count == 0 && isnan(d.mean) && isnan(d.max));
    static const double v[] = {4, 2, NAN}, zero[] = {0, 0, 0};
    ck_assert_int_eq(describe_time_weighted(v, zero, 3, &a, &d), 0);
    ck_assert_double_eq(d.count, 2);    /* NaN ignored, like describe() */
    ck_assert_double_eq_tol(d.mean, 3, 1e-12);
    ck_assert_double_eq_tol(d.std, 1, 1e-12);
    ck_assert_double_eq(d.min, 2);
    ck_assert_double_eq(d.p50, 2);
    ck_assert_double_eq(d.max, 4);
    arena_fini(&a);
}
END_TEST

/* Bit for bit what the doubles' summary gives, whether the levels are
 * counted (a few values, ties, negative levels, zero and equal times) or
 * too sparse and sorted. */
static void check_levels_like_doubles(const int64_t *levels, const int64_t *ts, size_t n)
{
    struct arena a;
    arena_init(&a, 0);
    double *v = malloc((n ? n : 1) * sizeof *v), *w = malloc((n ? n : 1) * sizeof *w);
    ck_assert(v && w);
    for (size_t i = 0; i < n; i++) {
        v[i] = (double)levels[i];
        w[i] = i + 1 < n ? (double)(ts[i + 1] - ts[i]) : 0.0;
    }
    struct describe want, got;
    ck_assert_int_eq(describe_time_weighted(v, w, n, &a, &want), 0);
    ck_assert_int_eq(describe_levels_time_weighted(levels, ts, n, &a, &got), 0);
    const double x[] = {want.count, want.mean, want.std, want.min,
                        want.p25,   want.p50,  want.p75, want.max};
    const double y[] = {got.count, got.mean, got.std, got.min,
                        got.p25,   got.p50,  got.p75, got.max};
    for (size_t k = 0; k < sizeof x / sizeof x[0]; k++)
        ck_assert_msg(memcmp(&x[k], &y[k], sizeof x[k]) == 0 || (isnan(x[k]) && isnan(y[k])),
                      "field %zu of %zu levels: %.17g, not %.17g", k, n, y[k], x[k]);
    free(v);
    free(w);
    arena_fini(&a);
}

START_TEST(levels_summary_should_equal_the_doubles_summary)
{
    enum { N = 5000 };
    int64_t *levels = malloc(N * sizeof *levels), *ts = malloc(N * sizeof *ts);
    ck_assert(levels && ts);
    uint64_t seed = 12345;
    for (int shape = 0; shape < 5; shape++) {
        int64_t t = -1000;
        for (size_t i = 0; i < N; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            uint32_t r = (uint32_t)(seed >> 33);
            levels[i] = shape == 0 ? (int64_t)(r % 7)                   // few levels, many ties
                        : shape == 1 ? (int64_t)(r % 40) - 20          // negative ones too
                        : shape == 2 ? (int64_t)r * 1000003            // sparse: the sort
                        : shape == 3 ? 3                               // one level
                                     : (int64_t)(i % 3);
            t += shape == 4 ? 0 : (int64_t)(r % 5 == 0 ? 0 : r % 997);   // equal times too
            ts[i] = t;
        }
        for (size_t n = 0; n <= N; n = n ? n * 4 : 1)
            check_levels_like_doubles(levels, ts, n);
        check_levels_like_doubles(levels, ts, N);
    }
    free(levels);
    free(ts);
}
END_TEST

Suite *gpu_suite(void);

Suite *gpu_suite(void)
{
    Suite *s = suite_create("gpu");
    TCase *tc = tcase_create("launch");
    tcase_add_test(tc, launch_should_measure_delay_from_the_end_of_the_launch);
    tcase_add_test(tc, launch_should_list_short_kernels_and_outliers_with_hta_cutoffs);
    tcase_add_test(tc, launch_should_honour_cutoffs_and_memory_option);
    tcase_add_test(tc, launch_should_count_hip_launches_under_htx_only);
    tcase_add_test(tc, launch_should_keep_only_the_largest_rows_when_asked);
    tcase_add_test(tc, launch_should_give_an_empty_table_with_a_note_without_launches);
    suite_add_tcase(s, tc);
    tc = tcase_create("queue");
    tcase_add_test(tc, queue_should_build_the_running_count_per_stream);
    tcase_add_loop_test(tc, queue_should_find_every_stream_in_order, 0, 5);
    tcase_add_test(tc, queue_should_find_a_launch_that_is_not_the_partner);
    tcase_add_test(tc, queue_should_summarise_each_change_point_once_under_hta);
    tcase_add_test(tc, queue_should_weight_by_time_under_htx);
    tcase_add_test(tc, queue_should_report_time_blocked_per_stream);
    tcase_add_test(tc, queue_should_not_fail_when_two_launches_share_a_correlation);
    tcase_add_test(tc, queue_should_put_a_launch_before_its_kernel_at_equal_ts);
    tcase_add_test(tc, queue_should_give_empty_tables_with_a_note_on_cpu_only_traces);
    suite_add_tcase(s, tc);
    tc = tcase_create("membw");
    tcase_add_test(tc, membw_should_build_series_per_copy_kind);
    tcase_add_test(tc, membw_should_summarise_positive_samples_under_hta);
    tcase_add_test(tc, membw_should_weight_by_time_under_htx);
    tcase_add_test(tc, membw_should_drop_float_residue_under_htx_only);
    tcase_add_test(tc, membw_should_give_an_empty_table_when_no_transfer_has_bandwidth);
    tcase_add_test(tc, weighted_should_fall_back_to_equal_weights_and_handle_empty_input);
    tcase_add_test(tc, levels_summary_should_equal_the_doubles_summary);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(gpu_suite());
    srunner_add_suite(sr, gpu_counters_suite());
    srunner_add_suite(sr, gpu_oracle_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
