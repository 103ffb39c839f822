#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/clocks.h"
#include "analysis/trust.h"
#include "model/model.h"
#include "model/semantics.h"

/* The job's checks (analysis/trust.c): each one fires on the facts that
 * plant its problem, names the ranks, and stays silent on a sound job. */

#define MIN_NS ((int64_t)60 * 1000000000)

static const struct trace_pg PG_0_8 = {"0", 8, 0x1234};

/* n ranks 0..n-1 of one job of world size `world`, starting together. */
static void job(struct trust_rank *r, size_t n, int64_t world)
{
    for (size_t i = 0; i < n; i++)
        r[i] = (struct trust_rank){.rank = (int64_t)i, .world_size = world, .has_start = true,
                                   .start_ns = 1700000000 * (int64_t)1000000000 + (int64_t)i * 1000,
                                   .pgs = &PG_0_8, .npgs = 1};
}

static const struct trust_finding *find(const struct trust_report *t, enum trust_check c)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->findings[i].check == c)
            return &t->findings[i];
    return NULL;
}

START_TEST(trust_check_should_raise_nothing_on_a_whole_job)
{
    struct trust_rank r[8];
    job(r, 8, 8);
    struct trust_report t;
    trust_check(r, 8, &t);
    ck_assert_uint_eq(t.n, 0);
    ck_assert_int_eq(t.world_size, 8);
    ck_assert(!trust_severe(&t));
    // a job whose files say no world size cannot miss a rank
    for (size_t i = 0; i < 8; i++)
        r[i].world_size = -1;
    trust_check(r, 3, &t);
    ck_assert_uint_eq(t.n, 0);
}
END_TEST

START_TEST(trust_check_should_name_the_missing_ranks)
{
    struct trust_rank r[8];
    job(r, 8, 8);
    r[3] = r[7];   // rank 3's file absent: ranks 0-2, 4-7
    struct trust_report t;
    trust_check(r, 7, &t);
    const struct trust_finding *f = find(&t, TRUST_MISSING_RANKS);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->text, "7 of 8 ranks: rank 3 missing");
    ck_assert_uint_eq(f->count, 1);
    ck_assert(f->severe);
    ck_assert_ptr_null(find(&t, TRUST_MIXED_JOB));
    // runs shortened, and the ranks past the last file counted
    job(r, 2, 128);
    trust_check(r, 2, &t);
    ck_assert_str_eq(find(&t, TRUST_MISSING_RANKS)->text, "2 of 128 ranks: ranks 2-127 missing");
    ck_assert_uint_eq(find(&t, TRUST_MISSING_RANKS)->count, 126);
    job(r, 5, 6);
    r[1].rank = 5;
    r[3].rank = 7;   // outside the world: of another job, and 1 and 3 missing
    trust_check(r, 5, &t);
    ck_assert_str_eq(find(&t, TRUST_MISSING_RANKS)->text, "4 of 6 ranks: ranks 1, 3 missing");
    ck_assert_str_eq(find(&t, TRUST_MIXED_JOB)->text,
                     "rank 7 is of another job: rank 7 outside world size 6");
}
END_TEST

START_TEST(trust_check_should_cut_a_long_list_of_ranks)
{
    struct trust_rank r[1];
    job(r, 1, 100000);
    r[0].rank = 1;
    struct trust_rank all[400];
    for (size_t i = 0; i < 400; i++) {
        all[i] = r[0];
        all[i].rank = (int64_t)i * 2;   // every odd rank missing: a list too long to show
    }
    struct trust_report t;
    trust_check(all, 400, &t);
    const struct trust_finding *f = find(&t, TRUST_MISSING_RANKS);
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(f->count, 100000 - 400);
    ck_assert_msg(strstr(f->ranks, "...") != NULL, "ranks: %s", f->ranks);
    ck_assert_uint_lt(strlen(f->ranks), sizeof f->ranks);
}
END_TEST

START_TEST(trust_check_should_flag_a_rank_of_another_job)
{
    struct trust_rank r[4];
    struct trust_report t;
    // another world size
    job(r, 4, 4);
    r[2].world_size = 16;
    trust_check(r, 4, &t);
    const struct trust_finding *f = find(&t, TRUST_MIXED_JOB);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->text, "rank 2 is of another job: world size 16, not 4");
    ck_assert_str_eq(f->ranks, "2");
    ck_assert(f->severe);
    // a process group listing other ranks (or of another size)
    job(r, 4, 4);
    struct trace_pg other = PG_0_8;
    other.ranks_hash = 0x999;
    r[1].pgs = &other;
    trust_check(r, 4, &t);
    ck_assert_str_eq(find(&t, TRUST_MIXED_JOB)->text,
                     "rank 1 is of another job: process group \"0\" differs");
    // groups only some ranks know are no conflict
    job(r, 4, 4);
    struct trace_pg two[2] = {PG_0_8, {"sub", 2, 77}};
    r[0].pgs = two;
    r[0].npgs = 2;
    trust_check(r, 4, &t);
    ck_assert_uint_eq(t.n, 0);
    // a trace started a day after the others
    job(r, 4, 4);
    r[3].start_ns += 24 * 60 * MIN_NS;
    trust_check(r, 4, &t);
    ck_assert_str_eq(find(&t, TRUST_MIXED_JOB)->text,
                     "rank 3 is of another job: starts 24.0 h after the others");
    // ... but not one a few minutes late
    job(r, 4, 4);
    r[3].start_ns += 5 * MIN_NS;
    trust_check(r, 4, &t);
    ck_assert_uint_eq(t.n, 0);
    // two of them: counted and listed
    job(r, 4, 4);
    r[1].world_size = 2;
    r[2].world_size = 2;
    trust_check(r, 4, &t);
    f = find(&t, TRUST_MIXED_JOB);
    ck_assert_uint_eq(f->count, 2);
    ck_assert_str_eq(f->ranks, "1, 2");
}
END_TEST

START_TEST(trust_check_should_count_dropped_and_repaired_events)
{
    struct trust_rank r[4];
    job(r, 4, 4);
    struct trust_report t;
    trust_check(r, 4, &t);
    ck_assert_ptr_null(find(&t, TRUST_DROPPED_EVENTS));
    r[1].dropped = 2;
    r[3].repaired = 1;
    trust_check(r, 4, &t);
    const struct trust_finding *f = find(&t, TRUST_DROPPED_EVENTS);
    ck_assert_ptr_nonnull(f);
    ck_assert(!f->severe);
    ck_assert_uint_eq(f->count, 3);
    ck_assert_str_eq(f->ranks, "1, 3");
    ck_assert_str_eq(f->text, "2 events dropped (malformed or out of range) and 1 repaired "
                              "(a field read as absent) at load: ranks 1, 3");
    r[3].repaired = 0;
    trust_check(r, 4, &t);
    ck_assert_str_eq(find(&t, TRUST_DROPPED_EVENTS)->text,
                     "2 events dropped (malformed or out of range) at load: rank 1");
}
END_TEST

START_TEST(trust_check_should_count_overlapping_events)
{
    struct trust_rank r[3];
    job(r, 3, 3);
    struct trust_report t;
    trust_check(r, 3, &t);
    ck_assert_ptr_null(find(&t, TRUST_OVERLAPPING_EVENTS));
    r[2].overlapping = 5;
    trust_check(r, 3, &t);
    const struct trust_finding *f = find(&t, TRUST_OVERLAPPING_EVENTS);
    ck_assert_ptr_nonnull(f);
    ck_assert(!f->severe);
    ck_assert_uint_eq(f->count, 5);
    ck_assert_str_eq(f->text, "5 GPU events overlapping the one before on their stream (kept): "
                              "rank 2");
}
END_TEST

START_TEST(trust_table_should_have_a_row_per_finding)
{
    struct trust_rank r[3];
    job(r, 3, 4);
    struct trust_report t;
    trust_check(r, 3, &t);
    struct arena a;
    arena_init(&a, 0);
    struct table *tab = trust_table(&t, &a);
    ck_assert_ptr_nonnull(tab);
    ck_assert_str_eq(tab->name, "trust");
    ck_assert_uint_eq(tab->nrows, 1);
    ck_assert_str_eq(table_cell(tab, 0, 0)->v.s, "missing_ranks");
    ck_assert_int_eq(table_cell(tab, 0, 2)->v.i, 1);
    ck_assert_str_eq(table_cell(tab, 0, 3)->v.s, "3");
    arena_fini(&a);
}
END_TEST

/* A rank file with a distributedInfo; start is its one kernel's ts (µs). */
static char *doc(int rank, int world, const char *pg_ranks, long long start)
{
    char *buf = malloc(1024);
    snprintf(buf, 1024,
             "{\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, \"world_size\": %d, "
             "\"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", \"pg_size\": %d, "
             "\"ranks\": %s}]}, \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", "
             "\"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": %lld, \"dur\": 5, "
             "\"args\": {\"stream\": 7, \"correlation\": 1}}]}",
             rank, world, world, pg_ranks, start);
    return buf;
}

static struct model *load(char **docs, size_t n)
{
    const char *names[4] = {"a.json", "b.json", "c.json", "d.json"};
    const void *bufs[4];
    size_t lens[4];
    for (size_t i = 0; i < n; i++) {
        bufs[i] = docs[i];
        lens[i] = strlen(docs[i]);
    }
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, bufs, lens, n, &sem, &e);
    ck_assert_msg(m != NULL, "%s", e.msg);
    for (size_t i = 0; i < n; i++)
        free(docs[i]);
    return m;
}

START_TEST(trust_of_model_should_read_what_each_file_says)
{
    char *d[3] = {doc(0, 4, "[0, 1, 2, 3]", 1000), doc(1, 4, "[0, 1, 2, 3]", 1010),
                  doc(3, 4, "[0, 1, 2, 3]", 1020)};
    struct model *m = load(d, 3);
    ck_assert_int_eq(m->ranks[0].npgs, 1);
    ck_assert_str_eq(m->ranks[0].pgs[0].name, "0");
    ck_assert_int_eq(m->ranks[0].pgs[0].size, 4);
    struct trust_report t;
    ck_assert_int_eq(trust_of_model(m, &t), 0);
    ck_assert_uint_eq(t.n, 1);
    ck_assert_str_eq(t.findings[0].text, "3 of 4 ranks: rank 2 missing");
    model_free(m);
    // the process group's ranks tell jobs of one world size apart
    char *e[3] = {doc(0, 3, "[0, 1, 2]", 1000), doc(1, 3, "[0, 1, 2]", 1010),
                  doc(2, 3, "[4, 5, 6]", 1020)};
    m = load(e, 3);
    ck_assert_int_eq(trust_of_model(m, &t), 0);
    ck_assert_uint_eq(t.n, 1);
    ck_assert_str_eq(t.findings[0].text, "rank 2 is of another job: process group \"0\" differs");
    model_free(m);
}
END_TEST

/* One rank whose events are: a good kernel, one without a numeric ts,
 * one with a negative dur (both dropped), one whose correlation is not a
 * 32-bit id (repaired: read as none). */
START_TEST(trust_of_model_should_count_what_the_load_dropped)
{
    const char *text =
        "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 1}, \"traceEvents\": ["
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 10, \"dur\": 5, \"args\": {\"stream\": 7, \"correlation\": 1}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": \"x\", \"dur\": 5},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 20, \"dur\": -5},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 30, \"dur\": 5, \"args\": {\"stream\": 7, \"correlation\": 99999999999}}]}";
    char *d[1] = {strdup(text)};
    struct model *m = load(d, 1);
    ck_assert_uint_eq(m->ranks[0].events_dropped, 2);
    ck_assert_uint_eq(m->ranks[0].events_repaired, 1);
    struct trust_report t;
    ck_assert_int_eq(trust_of_model(m, &t), 0);
    ck_assert_uint_eq(t.n, 1);
    ck_assert_uint_eq(t.findings[0].count, 3);
    model_free(m);
}
END_TEST

/* Three kernels on stream 7: the second starts inside the first, the third
 * after both; one on stream 9 inside the first's time (another stream: no
 * overlap). */
START_TEST(trust_of_model_should_count_overlaps_on_a_stream)
{
    const char *text =
        "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 1}, \"traceEvents\": ["
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 10, \"dur\": 10, \"args\": {\"stream\": 7, \"correlation\": 1}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"b\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 15, \"dur\": 10, \"args\": {\"stream\": 7, \"correlation\": 2}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"c\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 25, \"dur\": 10, \"args\": {\"stream\": 7, \"correlation\": 3}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"d\", \"pid\": 0, \"tid\": 9, "
        "\"ts\": 12, \"dur\": 10, \"args\": {\"stream\": 9, \"correlation\": 4}}]}";
    char *d[1] = {strdup(text)};
    struct model *m = load(d, 1);
    struct trust_report t;
    ck_assert_int_eq(trust_of_model(m, &t), 0);
    ck_assert_uint_eq(t.n, 1);
    ck_assert_int_eq(t.findings[0].check, TRUST_OVERLAPPING_EVENTS);
    ck_assert_uint_eq(t.findings[0].count, 1);
    model_free(m);
}
END_TEST

/* The same three kernels on stream 7 written out of time order (the last
 * first): the count is over each stream's events by start time. */
START_TEST(trust_of_model_should_count_overlaps_by_start_time)
{
    const char *text =
        "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 1}, \"traceEvents\": ["
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"c\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 25, \"dur\": 10, \"args\": {\"stream\": 7, \"correlation\": 3}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"a\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 10, \"dur\": 10, \"args\": {\"stream\": 7, \"correlation\": 1}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"b\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 15, \"dur\": 10, \"args\": {\"stream\": 7, \"correlation\": 2}}]}";
    char *d[1] = {strdup(text)};
    struct model *m = load(d, 1);
    struct trust_report t;
    ck_assert_int_eq(trust_of_model(m, &t), 0);
    ck_assert_uint_eq(t.n, 1);
    ck_assert_int_eq(t.findings[0].check, TRUST_OVERLAPPING_EVENTS);
    ck_assert_uint_eq(t.findings[0].count, 1);
    model_free(m);
}
END_TEST

START_TEST(trust_check_should_count_graph_kernels_as_information)
{
    struct trust_rank r[2];
    job(r, 2, 2);
    struct trust_report t;
    trust_check(r, 2, &t);
    ck_assert_ptr_null(find(&t, TRUST_GRAPH_LAUNCHES));
    r[1].graph_kernels = 8;
    r[1].graph_launches = 2;
    trust_check(r, 2, &t);
    const struct trust_finding *f = find(&t, TRUST_GRAPH_LAUNCHES);
    ck_assert_ptr_nonnull(f);
    ck_assert(!f->severe);
    ck_assert(!trust_severe(&t));
    ck_assert_uint_eq(f->count, 8);
    ck_assert_str_eq(f->text, "8 GPU events from 2 CUDA/HIP graph launches (launch delays are "
                              "the graph's): rank 1");
}
END_TEST

/* One cudaGraphLaunch (correlation 5) and its three kernels; one
 * cudaLaunchKernel (6) and its kernel; one hipLaunchKernel (7) linked to
 * two kernels (the shape of a graph whatever the call's name). */
START_TEST(model_should_recognise_graph_launches)
{
    const char *text =
        "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 1}, \"traceEvents\": ["
        "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaGraphLaunch\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": 10, \"dur\": 5, \"args\": {\"correlation\": 5}},"
        "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": 20, \"dur\": 5, \"args\": {\"correlation\": 6}},"
        "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"hipLaunchKernel\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": 30, \"dur\": 5, \"args\": {\"correlation\": 7}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"g1\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 100, \"dur\": 5, \"args\": {\"stream\": 7, \"correlation\": 5}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"g2\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 110, \"dur\": 5, \"args\": {\"stream\": 7, \"correlation\": 5}},"
        "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"g3\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 120, \"dur\": 5, \"args\": {\"stream\": 7, \"correlation\": 5}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 130, \"dur\": 5, \"args\": {\"stream\": 7, \"correlation\": 6}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"h1\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 140, \"dur\": 5, \"args\": {\"stream\": 7, \"correlation\": 7}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"h2\", \"pid\": 0, \"tid\": 7, "
        "\"ts\": 150, \"dur\": 5, \"args\": {\"stream\": 7, \"correlation\": 7}}]}";
    char *d[1] = {strdup(text)};
    struct model *m = load(d, 1);
    const struct rank_model *r = &m->ranks[0];
    ck_assert_uint_eq(r->ngraph_launches, 2);
    ck_assert_uint_eq(r->graph_kernels, 5);
    ck_assert(model_is_graph_launch(r, 0));
    ck_assert(!model_is_graph_launch(r, 1));
    ck_assert(model_is_graph_launch(r, 2));
    ck_assert(model_is_graph_work(r, &r->events[5]));    // the memcpy of the graph
    ck_assert(!model_is_graph_work(r, &r->events[6]));   // an ordinary launch
    ck_assert(model_is_graph_work(r, &r->events[8]));
    ck_assert(!model_is_graph_work(r, &r->events[0]));   // the call itself
    struct trust_report t;
    ck_assert_int_eq(trust_of_model(m, &t), 0);
    ck_assert_ptr_nonnull(find(&t, TRUST_GRAPH_LAUNCHES));
    ck_assert_uint_eq(find(&t, TRUST_GRAPH_LAUNCHES)->count, 5);
    model_free(m);
}
END_TEST

START_TEST(trust_check_should_name_a_skewed_clock)
{
    struct trust_rank r[3];
    job(r, 3, 3);
    struct trust_report t;
    trust_check(r, 3, &t);
    ck_assert_ptr_null(find(&t, TRUST_CLOCK_SKEW));
    r[2] = (struct trust_rank){.rank = 2, .world_size = 3, .clock_skewed = true,
                               .clock_reference = 0, .clock_skew_ns = -5000000,
                               .clock_allowance_ns = 100000, .clock_collectives = 12};
    trust_check(r, 3, &t);
    const struct trust_finding *f = find(&t, TRUST_CLOCK_SKEW);
    ck_assert_ptr_nonnull(f);
    ck_assert(!f->severe);
    ck_assert_uint_eq(f->count, 1);
    ck_assert_str_eq(f->ranks, "2");
    ck_assert_str_eq(f->text, "rank 2's clock is 5.00 ms behind rank 0's (median over 12 matched "
                              "collectives; one allows 100 us): --align=collectives aligns the "
                              "clocks");
    r[2].clock_aligned = true;
    trust_check(r, 3, &t);
    ck_assert_ptr_nonnull(strstr(find(&t, TRUST_CLOCK_SKEW)->text,
                                 ": aligned by --align=collectives"));
}
END_TEST

/* An all-reduce of ranks 0..n-1 whose kernels end at end[k] after
 * starting at start[k]. */
static struct collective coll_of(struct coll_instance *inst, size_t n, const int64_t *start,
                                 const int64_t *end)
{
    for (size_t k = 0; k < n; k++)
        inst[k] = (struct coll_instance){.rank = (int64_t)k, .rank_index = (uint32_t)k,
                                         .arrival = start[k], .end = end[k]};
    return (struct collective){.inst = inst, .ninst = n, .kind = COLL_KIND_ALLREDUCE};
}

/* Three ranks over five collectives: rank 1's clock 5 ms ahead (one
 * collective where its end is far off: the median ignores it), rank 2's
 * within what a collective allows (10 us, under its 100 us kernels). */
START_TEST(clock_estimate_should_recover_a_planted_offset)
{
    struct coll_instance inst[6][3];
    struct collective colls[6];
    for (int i = 0; i < 6; i++) {
        int64_t t = 1000000 * (int64_t)i;
        int64_t start[3] = {t, t + 5000000 - 300000, t + 5};
        int64_t end[3] = {t + 100000, t + 5000000 + 100000 + (i == 3 ? 900000 : 0), t + 100010};
        colls[i] = coll_of(inst[i], 3, start, end);
    }
    colls[5].kind = COLL_KIND_BROADCAST;   // its root may end first: not used
    struct coll_result r = {.colls = colls, .ncolls = 6};
    struct clock_estimate c;
    struct err e = {0, ""};
    ck_assert_int_eq(clock_estimate_of(&r, 3, &c, &e), 0);
    ck_assert_int_eq(c.reference, 0);
    ck_assert_uint_eq(c.ranks[1].collectives, 5);
    ck_assert_int_eq(c.ranks[1].offset_ns, 5000000);
    ck_assert_int_eq(c.ranks[1].allowance_ns, 400000);   // its kernels: the longer
    ck_assert(c.ranks[1].skewed);
    ck_assert_int_eq(c.ranks[2].offset_ns, 10);
    ck_assert(!c.ranks[2].skewed);
    ck_assert(!c.ranks[0].skewed);
    ck_assert(clock_any_skew(&c));
    clock_estimate_fini(&c);
}
END_TEST

START_TEST(model_shift_clocks_should_move_a_rank_and_keep_time_zero)
{
    char *d[2] = {doc(0, 2, "[0, 1]", 1000), doc(1, 2, "[0, 1]", 1010)};
    struct model *m = load(d, 2);
    int64_t origin = m->origin_ns;
    ck_assert_int_eq(m->ranks[0].events[0].ts, 0);
    ck_assert_int_eq(m->ranks[1].events[0].ts, 10000);
    int64_t shift[2] = {0, 25000};   // rank 1 back by 25 us: now first
    struct err e = {0, ""};
    ck_assert_int_eq(model_shift_clocks(m, shift, &e), 0);
    ck_assert_int_eq(m->ranks[1].events[0].ts, 0);
    ck_assert_int_eq(m->ranks[0].events[0].ts, 15000);
    ck_assert_int_eq(m->origin_ns, origin - 15000);
    ck_assert_int_eq(m->ranks[1].clock_shift_ns, 25000);
    int64_t huge[2] = {0, INT64_C(1) << 61};
    ck_assert_int_eq(model_shift_clocks(m, huge, &e), ERR_LIMIT);
    ck_assert_int_eq(m->ranks[1].events[0].ts, 0);
    model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trust");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, trust_check_should_raise_nothing_on_a_whole_job);
    tcase_add_test(tc, trust_check_should_name_the_missing_ranks);
    tcase_add_test(tc, trust_check_should_cut_a_long_list_of_ranks);
    tcase_add_test(tc, trust_check_should_flag_a_rank_of_another_job);
    tcase_add_test(tc, trust_check_should_count_dropped_and_repaired_events);
    tcase_add_test(tc, trust_check_should_count_overlapping_events);
    tcase_add_test(tc, trust_table_should_have_a_row_per_finding);
    tcase_add_test(tc, trust_of_model_should_read_what_each_file_says);
    tcase_add_test(tc, trust_of_model_should_count_what_the_load_dropped);
    tcase_add_test(tc, trust_of_model_should_count_overlaps_on_a_stream);
    tcase_add_test(tc, trust_of_model_should_count_overlaps_by_start_time);
    tcase_add_test(tc, trust_check_should_count_graph_kernels_as_information);
    tcase_add_test(tc, model_should_recognise_graph_launches);
    tcase_add_test(tc, trust_check_should_name_a_skewed_clock);
    tcase_add_test(tc, clock_estimate_should_recover_a_planted_offset);
    tcase_add_test(tc, model_shift_clocks_should_move_a_rank_and_keep_time_zero);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
