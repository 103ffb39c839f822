#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "model/model.h"
#include "../memcheck.h"

Suite *model_packed_suite(void);   /* check_model_packed.c */
Suite *model_split_suite(void);    /* check_model_split.c */
Suite *model_tail_suite(void);     /* check_model_tail.c */

/* Loads one document per name; names carry rank hints for file-name tests. */
static struct model *load_docs(const char *const *names, const char *const *docs, size_t n,
                               enum semantics_mode mode, struct err *e)
{
    struct semantics sem;
    semantics_init(&sem, mode);
    const void *bufs[8];
    size_t lens[8];
    for (size_t i = 0; i < n; i++) {
        bufs[i] = docs[i];
        lens[i] = strlen(docs[i]);
    }
    return model_load_buffers(names, bufs, lens, n, &sem, e);
}

static struct model *load_one(const char *doc, enum semantics_mode mode)
{
    const char *names[] = {"t.json"};
    struct err e = {0, ""};
    struct model *m = load_docs(names, &doc, 1, mode, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    return m;
}

static const struct event *find_event(const struct model *m, const struct rank_model *r,
                                      const char *name)
{
    for (size_t i = 0; i < r->nevents; i++)
        if (strcmp(model_str(m, r->events[i].name), name) == 0)
            return &r->events[i];
    return NULL;
}

static bool row_has(const struct model *m, const struct rank_model *r, const char *name)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (strcmp(model_str(m, r->events[r->rows[i]].name), name) == 0)
            return true;
    return false;
}

/* Two steps, a launch in each, and the kernels they launch. */
static const char *two_step_doc =
    "{\"distributedInfo\": {\"rank\": 2, \"world_size\": 4}, \"traceEvents\": ["
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#7\",\"pid\":1,\"tid\":1,"
    "\"ts\":1000,\"dur\":100},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":1010,\"dur\":5,\"args\":{\"correlation\":11}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k1\",\"pid\":0,\"tid\":7,\"ts\":1050,\"dur\":200,"
    "\"args\":{\"stream\":7,\"correlation\":11}},"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#8\",\"pid\":1,\"tid\":1,"
    "\"ts\":1100,\"dur\":100},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":1110,\"dur\":5,\"args\":{\"correlation\":12}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k2\",\"pid\":0,\"tid\":7,\"ts\":1260,\"dur\":10,"
    "\"args\":{\"stream\":7,\"correlation\":12}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k0\",\"pid\":0,\"tid\":0,\"ts\":1270,\"dur\":10,"
    "\"args\":{\"stream\":0,\"correlation\":11}},"
    "{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"PyTorch Profiler (0)\",\"pid\":1,\"tid\":1,"
    "\"ts\":900,\"dur\":1000},"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"main\"}}"
    "]}";

/* The loader's progress counts bytes and events (the progress box shows
 * them for one file). */
struct progress_seen {
    struct load_progress last;
    int calls;
};

static int seen_progress(void *ctx, const struct load_progress *p)
{
    struct progress_seen *s = ctx;
    ck_assert_uint_ge(p->events, s->last.events);
    ck_assert_uint_ge(p->bytes_read, s->last.bytes_read);
    s->last = *p;
    s->calls++;
    return 0;
}

START_TEST(loader_progress_should_count_bytes_and_events)
{
    char path[] = "/tmp/htx-progress-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(two_step_doc, f);
    fclose(f);
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct progress_seen s;
    memset(&s, 0, sizeof s);
    struct load_opts lo = {.threads = 1, .progress = seen_progress, .progress_ctx = &s};
    struct err e = {0, ""};
    const char *paths[] = {path};
    struct model *m = model_load(paths, 1, &sem, &lo, &e);
    ck_assert_msg(m != NULL, "%s", e.msg);
    ck_assert_int_gt(s.calls, 0);
    ck_assert_uint_eq(s.last.ranks_total, 1);
    ck_assert_uint_eq(s.last.ranks_done, 1);
    ck_assert_uint_eq(s.last.bytes_read, s.last.bytes_total);
    ck_assert_uint_eq(s.last.events, m->ranks[0].nevents);
    ck_assert_uint_gt(s.last.events, 0);
    model_free(m);
    unlink(path);
}
END_TEST

START_TEST(model_should_rebase_and_link_by_correlation)
{
    struct model *m = load_one(two_step_doc, SEMANTICS_HTX);
    ck_assert_uint_eq(m->nranks, 1);
    const struct rank_model *r = &m->ranks[0];
    ck_assert_int_eq(r->rank, 2);
    ck_assert_int_eq(r->rank_source, RANK_FROM_DISTRIBUTED_INFO);
    ck_assert_int_eq(r->world_size, 4);
    ck_assert_int_eq(m->origin_ns, 1000 * 1000);   /* the Trace span does not count */
    const struct event *k1 = find_event(m, r, "k1");
    ck_assert_ptr_nonnull(k1);
    ck_assert_int_eq(k1->ts, 50 * 1000);
    ck_assert_uint_ne(k1->partner, MODEL_NONE);
    const struct event *launch = &r->events[k1->partner];
    ck_assert_str_eq(model_str(m, launch->name), "cudaLaunchKernel");
    /* k1 (index 2) and k0 (index 6) share correlation 11: the last one wins */
    ck_assert_int_eq(model_index_correlation(r, launch), 6);
    ck_assert_int_eq(r->device, DEVICE_CUDA);
    ck_assert_uint_eq(r->complete_events, 8);
    ck_assert_uint_eq(r->complete_by_kind[EV_KIND_KERNEL], 3);
    ck_assert_uint_eq(r->niterations, 2);
    model_free(m);
}
END_TEST

/* An event holds 32-bit correlation and stream: CUPTI's largest id links;
 * a value beyond those ranges is read as absent and said (hostile input,
 * not something a profiler writes). */
START_TEST(model_should_keep_32_bit_ids_and_warn_beyond)
{
    static const char *doc =
        "{\"traceEvents\": ["
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
        "\"tid\":1,\"ts\":10,\"dur\":5,\"args\":{\"correlation\":4294967295}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"big\",\"pid\":0,\"tid\":7,"
        "\"ts\":20,\"dur\":5,\"args\":{\"stream\":2147483647,\"correlation\":4294967295}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"wide\",\"pid\":0,\"tid\":7,"
        "\"ts\":30,\"dur\":5,\"args\":{\"stream\":2147483648,\"correlation\":4294967296}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"neg\",\"pid\":0,\"tid\":7,"
        "\"ts\":40,\"dur\":5,\"args\":{\"stream\":7,\"correlation\":-5}}]}";
    struct model *m = load_one(doc, SEMANTICS_HTX);
    const struct rank_model *r = &m->ranks[0];
    const struct event *big = find_event(m, r, "big"), *wide = find_event(m, r, "wide"),
                       *neg = find_event(m, r, "neg");
    ck_assert_int_eq(event_correlation(big), 4294967295);
    ck_assert_int_eq(big->stream, INT32_MAX);
    ck_assert_uint_ne(big->partner, MODEL_NONE);   // linked to its launch
    ck_assert_int_eq(event_correlation(wide), -1);
    ck_assert_int_eq(wide->stream, -1);
    ck_assert(!(wide->flags & EV_FLAG_HAS_STREAM));
    ck_assert_int_eq(event_correlation(neg), -1);
    ck_assert_int_eq(neg->stream, 7);
    ck_assert_uint_eq(r->nwarnings, 4);   // and no rank given
    ck_assert_ptr_nonnull(strstr(r->warning_texts[0], "correlation 4294967296 is not a 32-bit id"));
    ck_assert_ptr_nonnull(strstr(r->warning_texts[1], "stream 2147483648 is beyond 32 bits"));
    ck_assert_ptr_nonnull(strstr(r->warning_texts[2], "correlation -5"));
    model_free(m);
}
END_TEST

/* An event's category is 16-bit: events of categories beyond the first
 * 65536 distinct ones are skipped and said; the rest load. */
/* Correlation ids link launches and kernels whether they are dense (an
 * array indexed by id) or far apart (a hash map): the same partners, the
 * last of a side winning, unmatched kernels counted. */
START_TEST(model_should_link_dense_and_sparse_correlations_alike)
{
    static const char *const fmt =
        "{\"traceEvents\": ["
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
        "\"tid\":1,\"ts\":10,\"dur\":5,\"args\":{\"correlation\":%lu}},"
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
        "\"tid\":1,\"ts\":20,\"dur\":5,\"args\":{\"correlation\":%lu}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"a\",\"pid\":0,\"tid\":7,"
        "\"ts\":30,\"dur\":5,\"args\":{\"stream\":7,\"correlation\":%lu}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"b\",\"pid\":0,\"tid\":7,"
        "\"ts\":40,\"dur\":5,\"args\":{\"stream\":7,\"correlation\":%lu}},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"c\",\"pid\":0,\"tid\":7,"
        "\"ts\":50,\"dur\":5,\"args\":{\"stream\":7,\"correlation\":%lu}}]}";
    static const unsigned long ids[2][3] = {{5, 6, 9}, {5, 4000000000ul, 123456789}};
    for (int k = 0; k < 2; k++) {
        char doc[2048];
        const unsigned long *id = ids[k];
        // launches id0, id1; kernels a: id0, b: id1 (then the launch's partner), c: id2 (none)
        snprintf(doc, sizeof doc, fmt, id[0], id[1], id[0], id[1], id[2]);
        struct model *m = load_one(doc, SEMANTICS_HTX);
        const struct rank_model *r = &m->ranks[0];
        const struct event *a = find_event(m, r, "a"), *b = find_event(m, r, "b"),
                           *c = find_event(m, r, "c");
        ck_assert_uint_eq(a->partner, 0);
        ck_assert_uint_eq(b->partner, 1);
        ck_assert_uint_eq(c->partner, MODEL_NONE);
        ck_assert_uint_eq(r->events[0].partner, 2);
        ck_assert_uint_eq(r->events[1].partner, 3);
        ck_assert_uint_eq(r->unmatched_correlations, 1);
        model_free(m);
    }
}
END_TEST

START_TEST(model_should_skip_categories_beyond_the_first_65536)
{
    size_t n = MODEL_MAX_CATS + 2, cap = n * 96 + 64, len = 0;
    char *doc = malloc(cap);
    ck_assert_ptr_nonnull(doc);
    len += (size_t)snprintf(doc + len, cap - len, "{\"traceEvents\": [");
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(doc + len, cap - len,
                                "%s{\"ph\":\"X\",\"cat\":\"c%zu\",\"name\":\"e\",\"pid\":1,"
                                "\"tid\":%zu,\"ts\":%zu,\"dur\":1}",
                                i ? "," : "", i, i % 3, i);
    snprintf(doc + len, cap - len, "]}");
    struct model *m = load_one(doc, SEMANTICS_HTX);
    const struct rank_model *r = &m->ranks[0];
    ck_assert_uint_eq(r->nevents, MODEL_MAX_CATS);
    ck_assert_uint_eq(m->ncats, MODEL_MAX_CATS);
    ck_assert_uint_eq(m->npidtids, 3);
    const struct event *last = &r->events[r->nevents - 1];
    ck_assert_str_eq(model_str(m, model_event_cat(m, last)), "c65535");
    ck_assert_str_eq(model_str(m, model_event_tid(m, last)), "0");   // 65535 % 3
    ck_assert_ptr_nonnull(strstr(r->warning_texts[0], "event 65536: a category beyond"));
    ck_assert_uint_eq(r->nwarnings, 3);   // two events, and no rank given
    model_free(m);
    free(doc);
}
END_TEST

START_TEST(model_should_give_kernels_their_launchers_iteration)
{
    struct model *m = load_one(two_step_doc, SEMANTICS_HTX);
    const struct rank_model *r = &m->ranks[0];
    ck_assert_int_eq(find_event(m, r, "k1")->iteration, 7);   /* runs past step 7's end */
    ck_assert_int_eq(find_event(m, r, "k2")->iteration, 8);
    ck_assert_int_eq(find_event(m, r, "k0")->iteration, 7);   /* stream 0: htx links it */
    model_free(m);
    m = load_one(two_step_doc, SEMANTICS_HTA);
    ck_assert_int_eq(find_event(m, m->ranks, "k0")->iteration, MODEL_ITER_NAN);
    model_free(m);
}
END_TEST

START_TEST(model_should_drop_last_step_only_under_hta)
{
    struct model *m = load_one(two_step_doc, SEMANTICS_HTA);
    const struct rank_model *r = &m->ranks[0];
    ck_assert(row_has(m, r, "k1"));
    ck_assert(!row_has(m, r, "k2"));
    ck_assert(!row_has(m, r, "ProfilerStep#8"));
    ck_assert(row_has(m, r, "ProfilerStep#7"));
    ck_assert(!row_has(m, r, "PyTorch Profiler (0)"));
    /* GPU kernels come first in HTA's filtered table */
    ck_assert(model_is_gpu_kernel_pred(m, &r->events[r->rows[0]]));
    ck_assert_uint_eq(r->nrows, 4);   /* k1, k0, step 7, launch 11 */
    model_free(m);
    m = load_one(two_step_doc, SEMANTICS_HTX);
    ck_assert(row_has(m, m->ranks, "k2"));
    ck_assert_uint_eq(m->ranks[0].nrows, 7);   /* all but the Trace span */
    model_free(m);
}
END_TEST

START_TEST(model_should_round_fractional_ts_like_hta)
{
    const char *doc = "{\"traceEvents\":["
                      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
                      "\"ts\":10.2,\"dur\":0.5},"
                      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":1,"
                      "\"ts\":20,\"dur\":3}]}";
    struct model *m = load_one(doc, SEMANTICS_HTA);
    const struct rank_model *r = &m->ranks[0];
    ck_assert_int_eq(m->origin_ns, 11000);
    ck_assert_int_eq(find_event(m, r, "a")->dur, -1000);
    model_free(m);
    m = load_one(doc, SEMANTICS_HTX);
    r = &m->ranks[0];
    ck_assert_int_eq(m->origin_ns, 10200);
    ck_assert_int_eq(find_event(m, r, "a")->dur, 500);
    ck_assert_int_eq(find_event(m, r, "b")->ts, 9800);
    model_free(m);
}
END_TEST

/* a and b hold the same events, steps, rows and stream indices (an HTA model
 * has no thread indices; one that shares its model's events keeps the GPU
 * side's iterations and overlap marks of that model). */
static void assert_same_model(const struct model *a, const struct model *b)
{
    ck_assert_int_eq(a->origin_ns, b->origin_ns);
    ck_assert_uint_eq(a->nranks, b->nranks);
    for (size_t k = 0; k < a->nranks; k++) {
        const struct rank_model *x = &a->ranks[k], *y = &b->ranks[k];
        ck_assert_int_eq(x->rank, y->rank);
        ck_assert_int_eq(x->device, y->device);
        ck_assert_uint_eq(x->nevents, y->nevents);
        for (size_t i = 0; i < x->nevents; i++) {
            const struct event *p = &x->events[i], *q = &y->events[i];
            ck_assert_str_eq(model_str(a, p->name), model_str(b, q->name));
            ck_assert_int_eq(p->ts, q->ts);
            ck_assert_int_eq(p->dur, q->dur);
            bool kept = x->shares_events && p->stream >= 0;
            if (!kept)
                ck_assert_int_eq(p->iteration, q->iteration);
            ck_assert_uint_eq(p->partner, q->partner);
            ck_assert_int_eq(p->stream, q->stream);
            uint8_t mask = kept ? (uint8_t)~EV_FLAG_OVERLAPS : 0xff;
            ck_assert_uint_eq(p->flags & mask, q->flags & mask);
        }
        ck_assert_uint_eq(x->niterations, y->niterations);
        for (size_t i = 0; i < x->niterations; i++) {
            const struct iteration *p = &x->iterations[i], *q = &y->iterations[i];
            ck_assert(p->number == q->number && p->ts == q->ts && p->dur == q->dur &&
                      p->pos == q->pos);
        }
        ck_assert_uint_eq(x->nrows, y->nrows);
        if (x->nrows)
            ck_assert_mem_eq(x->rows, y->rows, x->nrows * sizeof *x->rows);
        ck_assert_uint_eq(x->nstreams, y->nstreams);
        for (size_t i = 0; i < x->nstreams; i++) {
            ck_assert_uint_eq(x->streams[i].n, y->streams[i].n);
            ck_assert_mem_eq(x->streams[i].pos, y->streams[i].pos,
                             x->streams[i].n * sizeof *x->streams[i].pos);
        }
        ck_assert_int_eq(x->start_ns, y->start_ns);
        ck_assert_int_eq(x->end_ns, y->end_ns);
        ck_assert_uint_eq(x->nwarnings, y->nwarnings);
    }
}

/* The HTA model of a model loaded under htx's semantics is the model
 * loaded under HTA's: the steps dropped, the times rounded, stream 0's
 * kernels without iteration, MTIA's filter, over one rank and two. */
static void assert_hta_model_is_hta_load(const char *const *names, const char *const *docs, size_t n,
                                         bool shares)
{
    struct err e = {0, ""};
    struct model *htx = load_docs(names, docs, n, SEMANTICS_HTX, &e);
    struct model *hta = load_docs(names, docs, n, SEMANTICS_HTA, &e);
    ck_assert(htx && hta);
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTA);
    struct model *hta_model = model_hta_new(htx, &sem, &e);
    ck_assert_msg(hta_model != NULL, "hta_model failed: %s", e.msg);
    assert_same_model(hta_model, hta);
    ck_assert_uint_eq(hta_model->ranks[0].nthreads, 0);
    ck_assert(hta_model->ranks[0].shares_events == shares);
    ck_assert(shares == (hta_model->ranks[0].events == htx->ranks[0].events));
    // The HTA model leaves its model as it was: a second one is the same.
    struct model *again = model_hta_new(htx, &sem, &e);
    ck_assert(again != NULL);
    assert_same_model(again, hta);
    model_hta_free(again);
    model_hta_free(hta_model);
    model_free(hta);
    model_free(htx);
}

START_TEST(hta_model_should_be_the_model_loaded_under_hta)
{
    const char *frac = "{\"traceEvents\":["
                       "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\","
                       "\"pid\":1,\"tid\":1,\"ts\":10.2,\"dur\":20.5},"
                       "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\","
                       "\"pid\":1,\"tid\":1,\"ts\":30.7,\"dur\":20},"
                       "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
                       "\"ts\":10.4,\"dur\":0.5,\"args\":{\"correlation\":3}},"
                       "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
                       "\"ts\":12.9,\"dur\":3.3,\"args\":{\"stream\":7,\"correlation\":3}}]}";
    const char *one[] = {"t.json"};
    assert_hta_model_is_hta_load(one, &two_step_doc, 1, true);
    assert_hta_model_is_hta_load(one, &frac, 1, false);
    const char *names[] = {"a_rank-0.json", "b_rank-1.json"};
    const char *docs[] = {frac, two_step_doc};
    assert_hta_model_is_hta_load(names, docs, 2, false);   // (one rank rounded: all copied)
    const char *whole = "{\"traceEvents\":["
                        "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\","
                        "\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":20},"
                        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":0,"
                        "\"ts\":12,\"dur\":3,\"args\":{\"stream\":0,\"correlation\":3}}]}";
    const char *ints[] = {whole, two_step_doc};
    const char *int_names[] = {"a_rank-0.json", "b.json"};
    assert_hta_model_is_hta_load(int_names, ints, 2, true);
}
END_TEST

START_TEST(hta_model_should_refuse_flows_at_fractional_times)
{
    const char *doc = "{\"traceEvents\":["
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,"
        "\"ts\":100.5,\"dur\":5},"
        "{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":42,\"pid\":1,\"tid\":2,\"ts\":100.5},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":120,\"dur\":9,"
        "\"args\":{\"stream\":7}},"
        "{\"ph\":\"f\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":42,\"pid\":0,\"tid\":7,\"ts\":120,"
        "\"bp\":\"e\"}]}";
    struct model *m = load_one(doc, SEMANTICS_HTX);
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTA);
    struct err e = {0, ""};
    ck_assert_ptr_null(model_hta_new(m, &sem, &e));
    ck_assert_int_eq(e.code, ERR_EMPTY);
    ck_assert_ptr_nonnull(strstr(e.msg, "linked by flows at fractional times"));
    // Under htx's semantics again, nothing is rounded: the HTA model is made.
    semantics_init(&sem, SEMANTICS_HTX);
    struct model *hta_model = model_hta_new(m, &sem, &e);
    ck_assert_ptr_nonnull(hta_model);
    assert_same_model(hta_model, m);
    model_hta_free(hta_model);
    model_free(m);
}
END_TEST

START_TEST(model_should_take_rank_from_file_name_then_default)
{
    const char *names[] = {"job_rank-5.json", "other.json", "x_rank3.json"};
    const char *docs[] = {
        "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]}",
        "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1}]}",
        "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1}]}",
    };
    struct err e = {0, ""};
    struct model *m = load_docs(names, docs, 3, SEMANTICS_HTX, &e);
    ck_assert_msg(m != NULL, "%s", e.msg);
    ck_assert_uint_eq(m->nranks, 3);
    ck_assert_int_eq(m->ranks[0].rank, 0);
    ck_assert_int_eq(m->ranks[0].rank_source, RANK_DEFAULTED);
    ck_assert_str_eq(m->ranks[0].path, "other.json");
    ck_assert_uint_ge(m->ranks[0].nwarnings, 1);
    ck_assert_int_eq(m->ranks[1].rank, 3);
    ck_assert_int_eq(m->ranks[2].rank, 5);
    ck_assert_int_eq(m->ranks[2].rank_source, RANK_FROM_FILE_NAME);
    model_free(m);
}
END_TEST

START_TEST(model_should_refuse_two_files_with_one_rank)
{
    const char *names[] = {"a.json", "b.json"};
    const char *doc = "{\"distributedInfo\":{\"rank\":1},\"traceEvents\":["
                      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]}";
    const char *docs[] = {doc, doc};
    struct err e = {0, ""};
    struct model *m = load_docs(names, docs, 2, SEMANTICS_HTX, &e);
    ck_assert_ptr_null(m);
    ck_assert_ptr_nonnull(strstr(e.msg, "a.json"));
    ck_assert_ptr_nonnull(strstr(e.msg, "b.json"));
    ck_assert_ptr_nonnull(strstr(e.msg, "rank 1"));
}
END_TEST

START_TEST(model_should_keep_loading_when_one_rank_is_broken)
{
    const char *names[] = {"rank0.json", "rank1.json"};
    const char *docs[] = {
        "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]}",
        "{\"traceEvents\":[{\"ph\":\"X\",",
    };
    struct err e = {0, ""};
    struct model *m = load_docs(names, docs, 2, SEMANTICS_HTX, &e);
    ck_assert_msg(m != NULL, "%s", e.msg);
    ck_assert_uint_eq(m->nranks, 1);
    ck_assert_uint_eq(m->nfailed, 1);
    ck_assert_str_eq(m->failed[0].path, "rank1.json");
    model_free(m);
}
END_TEST

START_TEST(model_should_find_stream_events_in_a_window)
{
    struct model *m = load_one(two_step_doc, SEMANTICS_HTX);
    const struct rank_model *r = &m->ranks[0];
    const struct stream_index *s7 = NULL;
    for (size_t i = 0; i < r->nstreams; i++)
        if (r->streams[i].stream == 7)
            s7 = &r->streams[i];
    ck_assert_ptr_nonnull(s7);
    ck_assert_uint_eq(s7->n, 2);
    size_t first;
    /* k1 spans [50, 250) us, k2 [260, 270) us */
    size_t end = model_stream_window(s7, r->events, 200 * 1000, 255 * 1000, &first);
    ck_assert_uint_eq(first, 0);
    ck_assert_uint_eq(end, 1);
    end = model_stream_window(s7, r->events, 255 * 1000, 300 * 1000, &first);
    ck_assert_uint_eq(first, 1);
    ck_assert_uint_eq(end, 2);
    model_free(m);
}
END_TEST

START_TEST(model_should_nest_cpu_events_per_thread)
{
    struct model *m = load_one(two_step_doc, SEMANTICS_HTX);
    const struct rank_model *r = &m->ranks[0];
    const struct thread_index *t = NULL;
    for (size_t i = 0; i < r->nthreads; i++)
        if (r->threads[i].n == 4)
            t = &r->threads[i];
    ck_assert_ptr_nonnull(t);
    ck_assert_str_eq(model_str(m, t->name), "main");
    ck_assert_uint_eq(t->parent[0], MODEL_NONE);   /* ProfilerStep#7 */
    ck_assert_uint_eq(t->parent[1], 0);            /* its launch */
    ck_assert_uint_eq(t->parent[2], MODEL_NONE);   /* ProfilerStep#8 */
    model_free(m);
}
END_TEST

START_TEST(model_should_select_iterations_and_windows)
{
    struct model *m = load_one(two_step_doc, SEMANTICS_HTX);
    int64_t iters[] = {8};
    struct selection sel = {.iterations = iters, .niterations = 1};
    struct err e = {0, ""};
    ck_assert_int_eq(model_select(m, &sel, &e), 0);
    const struct rank_model *r = &m->ranks[0];
    ck_assert(row_has(m, r, "k2"));
    ck_assert(!row_has(m, r, "k1"));
    struct selection win = {.has_window = true, .window_start = 0, .window_end = 60 * 1000};
    ck_assert_int_eq(model_select(m, &win, &e), 0);
    ck_assert(row_has(m, r, "k1"));
    ck_assert(!row_has(m, r, "k2"));
    struct rank_stream off[] = {{2, 7}};
    struct selection no_s7 = {.streams_off = off, .nstreams_off = 1};
    ck_assert_int_eq(model_select(m, &no_s7, &e), 0);
    ck_assert(!row_has(m, r, "k1"));
    ck_assert(row_has(m, r, "k0"));
    ck_assert(row_has(m, r, "cudaLaunchKernel"));
    ck_assert_uint_eq(r->nstreams, 1);
    int64_t ranks[] = {9};
    struct selection other_rank = {.ranks = ranks, .nranks = 1};
    ck_assert_int_eq(model_select(m, &other_rank, &e), 0);
    ck_assert(!m->ranks[0].selected);
    model_free(m);
}
END_TEST


/* A selection keeping every row leaves the indices as they are; any other
 * builds them again, and so does the next one keeping every row. */
START_TEST(model_select_should_rebuild_indices_only_when_the_rows_change)
{
    struct model *m = load_one(two_step_doc, SEMANTICS_HTX);
    const struct rank_model *r = &m->ranks[0];
    struct err e = {0, ""};
    const uint32_t *rows = r->rows;
    size_t nrows = r->nrows, nstreams = r->nstreams;
    ck_assert_int_eq(model_select(m, NULL, &e), 0);
    ck_assert_ptr_eq(r->rows, rows);
    struct selection win = {.has_window = true, .window_start = 0, .window_end = 60 * 1000};
    ck_assert_int_eq(model_select(m, &win, &e), 0);
    ck_assert(!row_has(m, r, "k2"));
    int64_t ranks[] = {9};
    struct selection other_rank = {.ranks = ranks, .nranks = 1};
    ck_assert_int_eq(model_select(m, &other_rank, &e), 0);
    ck_assert(!r->selected);
    ck_assert(row_has(m, r, "k2"));
    ck_assert_uint_eq(r->nrows, nrows);
    ck_assert_uint_eq(r->nstreams, nstreams);
    ck_assert_int_eq(model_select(m, NULL, &e), 0);
    ck_assert(r->selected);
    model_free(m);
}
END_TEST

/* htx info's load: rows and their span, no stream or thread index, under
 * any selection. */
START_TEST(model_should_build_rows_alone_when_loaded_rows_only)
{
    const char *names[] = {"t.json"};
    const void *bufs[] = {two_step_doc};
    size_t lens[] = {strlen(two_step_doc)};
    struct load_opts opts = {.threads = 1, .rows_only = true};
    struct err e = {0, ""};
    struct model *m = model_load_buffers_opts(names, bufs, lens, 1, NULL, &opts, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    const struct rank_model *r = &m->ranks[0];
    ck_assert(row_has(m, r, "k2"));
    ck_assert_uint_eq(r->nstreams + r->nthreads, 0);
    ck_assert_int_gt(r->end_ns, r->start_ns);
    struct selection win = {.has_window = true, .window_start = 0, .window_end = 60 * 1000};
    ck_assert_int_eq(model_select(m, &win, &e), 0);
    ck_assert(!row_has(m, r, "k2"));
    ck_assert_uint_eq(r->nstreams + r->nthreads, 0);
    model_free(m);
}
END_TEST

#define OVERLAP_EV(cat, name, ts, dur, stream)                                             \
    "{\"ph\": \"X\", \"cat\": \"" cat "\", \"name\": \"" name "\", \"pid\": 0, "       \
    "\"tid\": 7, \"ts\": " #ts ", \"dur\": " #dur ", \"args\": {\"stream\": " #stream "}}"

/* Out of file order on stream 7: by ts, y holds w, t (tied with w: after
 * it) and the memcpy; the sync is no GPU work; g holds h on stream 9,
 * and e starts as g ends; no stream holds n and o. Counted in file order
 * instead it would be 6. */
START_TEST(model_stream_work_overlaps_should_count_in_time_order_per_stream)
{
    const char *doc =
        "{\"traceEvents\": ["
        OVERLAP_EV("kernel", "x", 100, 1, 7) "," OVERLAP_EV("kernel", "y", 0, 50, 7) ","
        OVERLAP_EV("kernel", "z", 60, 1, 7) "," OVERLAP_EV("kernel", "w", 20, 5, 7) ","
        OVERLAP_EV("kernel", "t", 20, 1, 7) "," OVERLAP_EV("cuda_sync", "s", 10, 1, 7) ","
        OVERLAP_EV("gpu_memcpy", "c", 30, 1, 7) "," OVERLAP_EV("kernel", "g", 12, 100, 9) ","
        OVERLAP_EV("kernel", "h", 20, 1, 9) "," OVERLAP_EV("kernel", "e", 112, 1, 9) ","
        OVERLAP_EV("kernel", "n", 20, 1, -1) "," OVERLAP_EV("kernel", "o", 20, 1, -1) "]}";
    struct model *m = load_one(doc, SEMANTICS_HTX);
    struct rank_model *r = &m->ranks[0];
    uint64_t n = 99;
    ck_assert(r->work_overlaps_known);   // counted as the streams were indexed
    ck_assert_int_eq(model_stream_work_overlaps(m, r, &n), 0);
    ck_assert_uint_eq(n, 4);
    r->work_overlaps_known = false;   // counted again over every event
    ck_assert_int_eq(model_stream_work_overlaps(m, r, &n), 0);
    ck_assert_uint_eq(n, 4);
    // A window keeps some rows only: the count is still of the whole trace.
    struct selection win = {.has_window = true, .window_start = 0, .window_end = 25 * 1000};
    struct err e = {0, ""};
    ck_assert_int_eq(model_select(m, &win, &e), 0);
    ck_assert(!r->work_overlaps_known);
    ck_assert_int_eq(model_stream_work_overlaps(m, r, &n), 0);
    ck_assert_uint_eq(n, 4);
    model_free(m);
}
END_TEST

START_TEST(model_should_link_by_flows_when_correlation_is_missing)
{
    const char *doc = "{\"traceEvents\":["
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,"
        "\"ts\":100,\"dur\":5},"
        "{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":42,\"pid\":1,\"tid\":2,\"ts\":100},"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":120,\"dur\":9,"
        "\"args\":{\"stream\":7}},"
        "{\"ph\":\"f\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":42,\"pid\":0,\"tid\":7,\"ts\":120,"
        "\"bp\":\"e\"}]}";
    struct model *m = load_one(doc, SEMANTICS_HTX);
    const struct rank_model *r = &m->ranks[0];
    const struct event *k = find_event(m, r, "k");
    ck_assert_uint_ne(k->partner, MODEL_NONE);
    ck_assert(k->flags & EV_FLAG_FLOW_LINKED);
    ck_assert_str_eq(model_str(m, r->events[k->partner].name), "cudaLaunchKernel");
    model_free(m);
}
END_TEST


START_TEST(model_should_apply_htas_mtia_step_filter)
{
    const char *doc = "{\"distributedInfo\":{\"rank\":0,\"backend\":\"mtia:hccl\"},\"traceEvents\":["
        "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":100},"
        "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,\"ts\":200,\"dur\":100},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":150,\"dur\":10},"
        "{\"ph\":\"X\",\"cat\":\"mtia_runtime\",\"name\":\"runFunction - job_prep_and_submit_for_execution\","
        "\"pid\":1,\"tid\":1,\"ts\":160,\"dur\":5,\"args\":{\"correlation\":6}},"
        "{\"ph\":\"X\",\"cat\":\"mtia_ccp_events\",\"name\":\"kept_kernel\",\"pid\":2,\"tid\":3,\"ts\":170,"
        "\"dur\":5,\"args\":{\"correlation\":6,\"stream\":3}},"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"late_op\",\"pid\":1,\"tid\":1,\"ts\":350,\"dur\":5,"
        "\"args\":{\"correlation\":99}},"
        "{\"ph\":\"X\",\"cat\":\"mtia_ccp_events\",\"name\":\"late_kernel\",\"pid\":2,\"tid\":3,\"ts\":360,"
        "\"dur\":5,\"args\":{\"correlation\":99,\"stream\":3}},"
        "{\"ph\":\"X\",\"cat\":\"mtia_dma\",\"name\":\"dma_xfer\",\"pid\":2,\"tid\":12,\"ts\":250,\"dur\":5},"
        "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"py\",\"pid\":1,\"tid\":1,\"ts\":150,\"dur\":5}"
        "]}";
    struct model *m = load_one(doc, SEMANTICS_HTA);
    const struct rank_model *r = &m->ranks[0];
    ck_assert_int_eq(r->device, DEVICE_MTIA);
    ck_assert(row_has(m, r, "aten::mm"));
    ck_assert(row_has(m, r, "kept_kernel"));
    ck_assert(row_has(m, r, "ProfilerStep#2"));
    ck_assert(!row_has(m, r, "late_op"));
    ck_assert(!row_has(m, r, "late_kernel"));
    ck_assert(!row_has(m, r, "py"));
    ck_assert(row_has(m, r, "dma_xfer"));
    const struct event *dma = find_event(m, r, "dma_xfer");
    ck_assert_int_eq(dma->iteration, 2);
    ck_assert_int_eq(dma->stream, 12);
    model_free(m);
}
END_TEST

/* ---- real traces against HTA's trace_info.json ---- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

static const char *shared_dir(void)
{
    static char path[4096];
    const char *src = getenv("HTX_SRCDIR");
    snprintf(path, sizeof path, "%s/../shared", src ? src : "..");
    return path;
}

static const char *const oracle_sets[] = {"two_ranks", "nccl", "amd_mi250", "cpu_only",
                                          "rank_non_gpu", "diff/control", "diff/test"};

static void check_against_trace_info(const char *set)
{
    char trace_dir[4200], info_path[4200];
    snprintf(trace_dir, sizeof trace_dir, "%s/traces/%s", shared_dir(), set);
    snprintf(info_path, sizeof info_path, "%s/oracle/%s/trace_info.json", shared_dir(), set);
    char *text = slurp(info_path);
    if (!text) {
        printf("../shared not found (%s): skipping the trace_info check of %s\n", info_path, set);
        return;
    }
    cJSON *doc = cJSON_Parse(text);
    free(text);
    ck_assert_ptr_nonnull(doc);
    const cJSON *res = cJSON_GetObjectItem(doc, "result");
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTA);
    const char *paths[] = {trace_dir};
    struct err e = {0, ""};
    struct load_opts opts = {.threads = 2};
    struct model *m = model_load(paths, 1, &sem, &opts, &e);
    ck_assert_msg(m != NULL, "%s: %s", set, e.msg);
    const cJSON *ranks = cJSON_GetObjectItem(res, "ranks");
    ck_assert_int_eq(cJSON_GetArraySize(ranks), (int)m->nranks);
    ck_assert_msg(cJSON_GetObjectItem(res, "min_ts")->valuedouble * 1000 == (double)m->origin_ns,
                  "%s: origin %lld", set, (long long)m->origin_ns);
    for (size_t k = 0; k < m->nranks; k++) {
        const struct rank_model *r = &m->ranks[k];
        char key[32];
        snprintf(key, sizeof key, "%lld", (long long)r->rank);
        const cJSON *rows = cJSON_GetObjectItem(cJSON_GetObjectItem(res, "rows_per_rank"), key);
        ck_assert_msg(rows != NULL, "%s: rank %s not in oracle", set, key);
        ck_assert_msg((size_t)rows->valuedouble == r->nrows, "%s rank %s: %zu rows, HTA %g", set,
                      key, r->nrows, rows->valuedouble);
        int64_t lo = 0, hi = 0;
        for (size_t i = 0; i < r->nrows; i++) {
            int64_t ts = r->events[r->rows[i]].ts;
            lo = i == 0 || ts < lo ? ts : lo;
            hi = i == 0 || ts > hi ? ts : hi;
        }
        const cJSON *dur = cJSON_GetObjectItem(cJSON_GetObjectItem(res, "trace_duration_per_rank"), key);
        ck_assert_msg(dur->valuedouble * 1000 == (double)(hi - lo), "%s rank %s: duration %lld", set,
                      key, (long long)(hi - lo));
        const cJSON *iters = cJSON_GetObjectItem(cJSON_GetObjectItem(res, "iterations_per_rank"), key);
        const cJSON *it;
        cJSON_ArrayForEach(it, iters) {
            bool found = false;
            for (size_t i = 0; i < r->nrows && !found; i++)
                found = r->events[r->rows[i]].iteration == (int32_t)it->valuedouble;
            ck_assert_msg(found, "%s rank %s: iteration %g missing", set, key, it->valuedouble);
        }
    }
    model_free(m);
    cJSON_Delete(doc);
}

START_TEST(model_should_match_hta_rows_on_shared_traces)
{
    check_against_trace_info(oracle_sets[_i]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("tiny");
    tcase_add_test(tc, model_should_rebase_and_link_by_correlation);
    tcase_add_test(tc, model_should_keep_32_bit_ids_and_warn_beyond);
    tcase_add_large_test(tc, model_should_skip_categories_beyond_the_first_65536);
    tcase_add_test(tc, model_should_link_dense_and_sparse_correlations_alike);
    tcase_add_test(tc, model_should_give_kernels_their_launchers_iteration);
    tcase_add_test(tc, model_should_drop_last_step_only_under_hta);
    tcase_add_test(tc, model_should_round_fractional_ts_like_hta);
    tcase_add_test(tc, model_should_take_rank_from_file_name_then_default);
    tcase_add_test(tc, model_should_refuse_two_files_with_one_rank);
    tcase_add_test(tc, model_should_keep_loading_when_one_rank_is_broken);
    tcase_add_test(tc, model_should_find_stream_events_in_a_window);
    tcase_add_test(tc, model_should_nest_cpu_events_per_thread);
    tcase_add_test(tc, model_should_select_iterations_and_windows);
    tcase_add_test(tc, model_select_should_rebuild_indices_only_when_the_rows_change);
    tcase_add_test(tc, model_stream_work_overlaps_should_count_in_time_order_per_stream);
    tcase_add_test(tc, model_should_build_rows_alone_when_loaded_rows_only);
    tcase_add_test(tc, model_should_link_by_flows_when_correlation_is_missing);
    tcase_add_test(tc, model_should_apply_htas_mtia_step_filter);
    tcase_add_test(tc, hta_model_should_be_the_model_loaded_under_hta);
    tcase_add_test(tc, hta_model_should_refuse_flows_at_fractional_times);
    tcase_add_test(tc, loader_progress_should_count_bytes_and_events);
    suite_add_tcase(s, tc);
    TCase *real = tcase_create("shared");
    tcase_set_timeout(real, 120);
    tcase_add_large_loop_test(real, model_should_match_hta_rows_on_shared_traces, 0,
                        (int)(sizeof oracle_sets / sizeof oracle_sets[0]));
    suite_add_tcase(s, real);
    SRunner *sr = srunner_create(s);
    srunner_add_suite(sr, model_packed_suite());
    srunner_add_suite(sr, model_split_suite());
    srunner_add_suite(sr, model_tail_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
