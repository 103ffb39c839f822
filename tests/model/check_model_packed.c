#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "../memcheck.h"
#include "model/model.h"
#include "summary/write.h"
#include "trace/pack.h"
#include "trace/read.h"
#include "util/summary_file.h"
#include "util/summary_file_source.h"
#include "util/le.h"

/* The loader's pack and cache hooks (load_opts.packed, .cached): a trace
 * read through a pack gives the model the trace gives; a rank read from a
 * fresh summary keeps the trace's path; a summary that fails to replay is
 * never trusted: the trace is read instead. */

static const char *doc =
    "{\"distributedInfo\": {\"rank\": 4}, \"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1,"
    " \"tid\": 1, \"ts\": 10, \"dur\": 4, \"args\": {\"correlation\": 7}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 20, \"dur\": 30, \"args\": {\"stream\": 7, \"correlation\": 7}}]}";

struct hooks {
    char dir[64], trace[96], summary[96];
    uint8_t *pack;
    size_t pack_len;
    int packed_calls, cached_calls;
    bool offer;   /* cached() offers the summary */
    const char *refuse;   /* else cached() gives this reason, if any */
};

static int keep(void *ctx, const char *path, struct trace_pack *pack, struct err *e)
{
    struct hooks *h = ctx;
    ck_assert_str_eq(path, h->trace);
    const uint8_t *bytes;
    ck_assert_int_eq(trace_pack_finish(pack, &bytes, &h->pack_len, e), 0);
    h->pack = malloc(h->pack_len);
    memcpy(h->pack, bytes, h->pack_len);
    trace_pack_free(pack);
    h->packed_calls++;
    return 0;
}

static char *offer(void *ctx, const char *path, char *why, size_t n)
{
    struct hooks *h = ctx;
    ck_assert_str_eq(path, h->trace);
    h->cached_calls++;
    if (!h->offer && h->refuse)
        snprintf(why, n, "%s", h->refuse);
    return h->offer ? strdup(h->summary) : NULL;
}

/* A summary file holding events (as given) in a valid container. */
static void write_summary(const char *path, const uint8_t *events, size_t len)
{
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_begin_section(&w, SUMMARY_FILE_EVENTS);
    summary_file_put_bytes(&w, events, len);
    summary_file_end_section(&w);
    struct err e = {0, ""};
    ck_assert_msg(summary_file_writer_save(&w, path, true, &e) == 0, "%s", e.msg);
    summary_file_writer_fini(&w);
}

/* A summary file without events (htx summarize without --with-events): the
 * source record of the file at trace, as it is now. */
static void write_summary_of(const char *path, const char *trace)
{
    struct summary_file_source src;
    struct err e = {0, ""};
    ck_assert_msg(summary_file_source_of(&src, trace, &e) == 0, "%s", e.msg);
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_source_write(&w, &src);
    ck_assert_msg(summary_file_writer_save(&w, path, true, &e) == 0, "%s", e.msg);
    summary_file_writer_fini(&w);
}

static int count_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)ev, (void)e;
    ++*(int *)ctx;
    return 0;
}

/* trace_read_file of path into a sink counting events: its result, the
 * count in *events and the message in e. */
static int read_counting(const char *path, int *events, struct err *e)
{
    *events = 0;
    struct trace_sink sink = {.ctx = events, .event = count_event};
    return trace_read_file(path, &sink, NULL, e);
}

static struct model *load_on(struct hooks *h, bool pack, bool cache, int threads)
{
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.threads = threads;
    if (pack) {
        lo.packed = keep;
        lo.packed_ctx = h;
    }
    if (cache) {
        lo.cached = offer;
        lo.cached_ctx = h;
    }
    const char *paths[] = {h->trace};
    struct err e = {0, ""};
    struct model *m = model_load(paths, 1, &sem, &lo, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    return m;
}

static struct model *load(struct hooks *h, bool pack, bool cache)
{
    return load_on(h, pack, cache, 1);
}

static void setup_files_with(struct hooks *h, const char *text)
{
    memset(h, 0, sizeof *h);
    snprintf(h->dir, sizeof h->dir, "/tmp/htx-packed-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(h->dir));
    snprintf(h->trace, sizeof h->trace, "%s/rank-4.json", h->dir);
    snprintf(h->summary, sizeof h->summary, "%s/cached.htxs", h->dir);
    FILE *f = fopen(h->trace, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void setup_files(struct hooks *h)
{
    setup_files_with(h, doc);
}

static void remove_files(struct hooks *h)
{
    unlink(h->trace);
    unlink(h->summary);
    rmdir(h->dir);
    free(h->pack);
}

static void same_rank(const struct model *a, const struct model *b)
{
    ck_assert_uint_eq(a->nranks, 1);
    ck_assert_uint_eq(b->nranks, 1);
    const struct rank_model *x = &a->ranks[0], *y = &b->ranks[0];
    ck_assert_int_eq(x->rank, y->rank);
    ck_assert_str_eq(x->path, y->path);
    ck_assert_uint_eq(x->nevents, y->nevents);
    for (size_t i = 0; i < x->nevents; i++) {
        ck_assert_int_eq(x->events[i].ts, y->events[i].ts);
        ck_assert_int_eq(x->events[i].dur, y->events[i].dur);
        ck_assert_uint_eq(x->events[i].partner, y->events[i].partner);
        ck_assert_str_eq(model_str(a, x->events[i].name), model_str(b, y->events[i].name));
    }
}

START_TEST(loader_should_pack_and_read_back_from_the_cache)
{
    struct hooks h;
    setup_files(&h);
    struct model *plain = load(&h, false, false);
    struct model *packed = load(&h, true, true);   // nothing offered: read and packed
    ck_assert_int_eq(h.packed_calls, 1);
    ck_assert_int_eq(h.cached_calls, 1);
    ck_assert(!packed->ranks[0].from_cache);
    same_rank(plain, packed);
    write_summary(h.summary, h.pack, h.pack_len);
    h.offer = true;
    struct model *cached = load(&h, true, true);
    ck_assert(cached->ranks[0].from_cache);
    ck_assert_ptr_null(cached->ranks[0].summary_path);   // the cache is not a summary the user named
    ck_assert_int_eq(h.packed_calls, 1);                  // read from the cache: not packed again
    same_rank(plain, cached);
    model_free(plain);
    model_free(packed);
    model_free(cached);
    remove_files(&h);
}
END_TEST

START_TEST(loader_should_warn_of_a_refused_cache_entry)
{
    struct hooks h;
    setup_files(&h);
    struct model *quiet = load(&h, false, true);
    ck_assert_uint_eq(quiet->ranks[0].nwarnings, 0);
    h.refuse = "cache entry /x/e.htxs not used: owned by uid 0";
    struct model *m = load(&h, false, true);
    ck_assert(!m->ranks[0].from_cache);
    ck_assert_uint_eq(m->ranks[0].nwarnings, 1);
    ck_assert_uint_eq(m->ranks[0].nwarning_texts, 1);
    ck_assert_str_eq(m->ranks[0].warning_texts[0], h.refuse);
    same_rank(quiet, m);
    model_free(quiet);
    model_free(m);
    remove_files(&h);
}
END_TEST

START_TEST(loader_should_not_trust_a_cached_summary_that_fails)
{
    struct hooks h;
    setup_files(&h);
    struct model *plain = load(&h, false, false);
    const uint8_t garbage[] = {1, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9, 0, 0, 0, 0, 0x78, 0x9c, 1};
    write_summary(h.summary, garbage, sizeof garbage);
    h.offer = true;
    struct model *m = load(&h, true, true);
    ck_assert_int_eq(h.cached_calls, 1);
    ck_assert(!m->ranks[0].from_cache);
    ck_assert_int_eq(h.packed_calls, 1);   // read from the trace, and packed to be rewritten
    ck_assert_uint_eq(m->nfailed, 0);
    same_rank(plain, m);
    model_free(plain);
    model_free(m);
    remove_files(&h);
}
END_TEST

/* A summary without its events is read as its trace while that is the file
 * summarized (the model the trace gives, on one thread or two); a trace
 * changed since, gone, or itself a summary is refused, naming both files. */
START_TEST(summary_without_events_should_read_its_trace_while_fresh)
{
    struct hooks h;
    setup_files(&h);
    struct model *plain = load(&h, false, false);
    write_summary_of(h.summary, h.trace);
    for (int threads = 1; threads <= 2; threads++) {
        struct semantics sem;
        semantics_init(&sem, SEMANTICS_HTX);
        struct load_opts lo;
        memset(&lo, 0, sizeof lo);
        lo.threads = threads;
        const char *paths[] = {h.summary};
        struct err e = {0, ""};
        struct model *m = model_load(paths, 1, &sem, &lo, &e);
        ck_assert_msg(m != NULL && m->nfailed == 0, "%s", e.msg);
        same_rank(plain, m);   // the rank is named after the trace, as from a summary's events
        ck_assert(!m->ranks[0].summary_stale);
        model_free(m);
    }
    int events;
    struct err e = {0, ""};
    ck_assert_int_eq(read_counting(h.summary, &events, &e), 0);
    ck_assert_int_eq(events, 2);

    char loop[128];   // a summary of a summary (htx summarize refuses to make one)
    snprintf(loop, sizeof loop, "%s/loop.htxs", h.dir);
    write_summary_of(loop, h.summary);
    ck_assert_int_eq(read_counting(loop, &events, &e), ERR_PARSE);
    ck_assert_msg(strstr(e.msg, "loop.htxs: its trace") && strstr(e.msg, "cached.htxs is a rank summary"),
                  "%s", e.msg);
    unlink(loop);

    FILE *f = fopen(h.trace, "a");
    ck_assert_ptr_nonnull(f);
    fputs(" ", f);
    fclose(f);
    ck_assert_int_eq(read_counting(h.summary, &events, &e), ERR_PARSE);
    ck_assert_int_eq(events, 0);
    ck_assert_msg(strstr(e.msg, "cached.htxs: made without its events") &&
                      strstr(e.msg, "rank-4.json changed since"),
                  "%s", e.msg);
    unlink(h.trace);
    ck_assert_int_eq(read_counting(h.summary, &events, &e), ERR_PARSE);
    ck_assert_msg(strstr(e.msg, "its trace is not found (tried /tmp/htx-packed-") &&
                      strstr(e.msg, "rank-4.json)"),
                  "%s", e.msg);
    model_free(plain);
    remove_files(&h);
}
END_TEST

/* A trace whose packed records pass 1 MiB (replayed on two threads): n
 * launches and their kernels, the metadata after the events, and, when
 * warn, an element that is no object late in the array. */
static char *big_doc(size_t n, bool warn)
{
    size_t cap = n * 400 + 256, at = 0;
    char *d = malloc(cap);
    at += (size_t)snprintf(d + at, cap - at, "{\"traceEvents\": [");
    for (size_t i = 0; i < n; i++) {
        if (warn && i == n - n / 8)
            at += (size_t)snprintf(d + at, cap - at, ",[%zu]", i);   // i > 0: after an element
        at += (size_t)snprintf(
            d + at, cap - at,
            "%s{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\","
            " \"pid\": 1, \"tid\": %zu, \"ts\": %zu, \"dur\": 4, \"args\": {\"correlation\": %zu}},"
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_%zu\", \"pid\": 0, \"tid\": 7,"
            " \"ts\": %zu, \"dur\": 30, \"args\": {\"stream\": %zu, \"correlation\": %zu}}",
            i ? "," : "", 1 + i % 3, 10 + i * 50, i + 1, i % 5000, 20 + i * 50, 7 + i % 2, i + 1);
    }
    snprintf(d + at, cap - at, "], \"distributedInfo\": {\"rank\": 4}}");
    return d;
}

START_TEST(loader_should_read_a_large_cached_summary_on_two_threads)
{
    for (int warn = 0; warn <= !under_memcheck(); warn++) {
        char *text = big_doc(40000, warn);
        struct hooks h;
        setup_files_with(&h, text);
        free(text);
        struct model *plain = load(&h, false, false);
        struct model *packed = load(&h, true, true);
        ck_assert_uint_gt(le_load(h.pack + 4, 8), (uint64_t)1 << 20);
        write_summary(h.summary, h.pack, h.pack_len);
        h.offer = true;
        struct model *one = load_on(&h, false, true, 1);
        struct model *two = load_on(&h, false, true, 2);
        ck_assert(one->ranks[0].from_cache && two->ranks[0].from_cache);
        ck_assert_int_eq(two->ranks[0].rank, 4);   // the metadata came after the events
        same_rank(plain, one);
        same_rank(plain, two);
        ck_assert_uint_eq(plain->ranks[0].nwarnings, two->ranks[0].nwarnings);
        ck_assert_uint_eq(two->ranks[0].nwarnings, (size_t)warn);
        model_free(plain), model_free(packed), model_free(one), model_free(two);
        remove_files(&h);
    }
}
END_TEST

/* The level FLEVEL of the pack's zlib header names: 3 for 9, 2 for 6. */
static int pack_level(const struct hooks *h)
{
    size_t z = TRACE_PACK_HEADER_FIXED + le_load(h->pack + 12, 4);
    ck_assert_uint_gt(h->pack_len, z + 2);
    ck_assert_uint_eq(h->pack[z], 0x78);
    return h->pack[z + 1] >> 6;
}

static void gzip_file(const char *path, const char *text)
{
    gzFile g = gzopen(path, "wb");
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(gzwrite(g, text, (unsigned)strlen(text)), (int)strlen(text));
    ck_assert_int_eq(gzclose(g), Z_OK);
}

/* A trace of at most 4 MiB of JSON (a gzip file's by its trailer) is packed
 * at zlib's level 9, a larger one at 6: the same records either way. */
START_TEST(loader_should_pack_a_small_trace_at_level_9)
{
    char *big = big_doc(16000, false);
    ck_assert_uint_gt(strlen(big), (size_t)4 << 20);
    const char *texts[] = {doc, big};
    for (int k = 0; k < 4; k++) {
        bool small = k % 2 == 0, gzip = k >= 2;
        struct hooks h;
        setup_files_with(&h, texts[!small]);
        if (gzip)
            gzip_file(h.trace, texts[!small]);
        ck_assert(trace_file_size_of(h.trace).small == small);
        struct model *m = load(&h, true, false);
        ck_assert_int_eq(pack_level(&h), small ? 3 : 2);
        model_free(m);
        remove_files(&h);
    }
    free(big);
    ck_assert(!trace_file_size_of("/nonexistent/rank-0.json").small);
    ck_assert(!trace_file_size_of("/tmp").small);
}
END_TEST

Suite *model_packed_suite(void);

Suite *model_packed_suite(void)
{
    Suite *s = suite_create("model_packed");
    TCase *tc = tcase_create("hooks");
    tcase_add_test(tc, loader_should_pack_and_read_back_from_the_cache);
    tcase_add_test(tc, loader_should_not_trust_a_cached_summary_that_fails);
    tcase_add_test(tc, loader_should_warn_of_a_refused_cache_entry);
    tcase_add_large_test(tc, loader_should_read_a_large_cached_summary_on_two_threads);
    tcase_add_test(tc, loader_should_pack_a_small_trace_at_level_9);
    tcase_add_test(tc, summary_without_events_should_read_its_trace_while_fresh);
    tcase_set_timeout(tc, 120);   // the large trace is read five times (slow under sanitizers)
    suite_add_tcase(s, tc);
    return s;
}
