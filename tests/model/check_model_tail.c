#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/build.h"
#include "trace/event.h"

/* What a load does once its files are read: the builder's events array made
 * at once from a guess (rank_builder_expect) and fitted afterwards
 * (rank_builder_fit_events) holds the events a builder growing its array
 * holds, and a second half joins as if one builder had read it all. */

Suite *model_tail_suite(void);

/* A trace of n complete events on two threads, with correlations. */
static char *tail_doc(size_t n, size_t *len)
{
    size_t cap = 160 * n + 64;
    char *doc = malloc(cap);
    ck_assert_ptr_nonnull(doc);
    size_t at = (size_t)snprintf(doc, cap, "{\"traceEvents\": [");
    for (size_t i = 0; i < n; i++)
        at += (size_t)snprintf(doc + at, cap - at,
                               "%s{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"op%zu\",\"pid\":1,"
                               "\"tid\":%zu,\"ts\":%zu,\"dur\":3,\"args\":{\"correlation\":%zu}}",
                               i ? "," : "", i % 3 ? "cpu_op" : "kernel", i % 7, i % 2, 10 * i,
                               i / 2);
    at += (size_t)snprintf(doc + at, cap - at, "]}");
    *len = at;
    return doc;
}

static void build(struct rank_builder *b, uint64_t expect, const char *doc, size_t len)
{
    ck_assert_int_eq(rank_builder_init(b), 0);
    rank_builder_expect(b, expect);
    struct trace_sink sink;
    rank_builder_sink(b, &sink);
    struct err e = {0, ""};
    ck_assert_msg(trace_read_buffer("tail.json", doc, len, &sink, NULL, &e) == 0, "%s", e.msg);
}

START_TEST(builder_should_hold_the_same_events_whatever_it_expected)
{
    const size_t n = 200000;
    size_t len;
    char *doc = tail_doc(n, &len);
    // none, fewer than the file holds (the array grows past the guess), more
    static const uint64_t guesses[] = {0, 100000, 400000};
    struct rank_builder grown;
    build(&grown, 0, doc, len);
    ck_assert_uint_eq(grown.nevents, n);
    for (size_t g = 0; g < sizeof guesses / sizeof guesses[0]; g++) {
        struct rank_builder b;
        build(&b, guesses[g], doc, len);
        ck_assert_uint_ge(b.events_cap, n);
        rank_builder_fit_events(&b);
        ck_assert_uint_eq(b.nevents, n);
        ck_assert_uint_eq(b.events_cap, n);
        ck_assert_int_eq(memcmp(b.events, grown.events, n * sizeof *b.events), 0);
        rank_builder_fini(&b);
    }
    rank_builder_fini(&grown);
    free(doc);
}
END_TEST

/* Elements [from, to) of a trace whose every tenth element is a flow end,
 * on threads and with names that change along the file. */
static char *elements_doc(size_t from, size_t to, size_t *len)
{
    size_t cap = 200 * (to - from) + 64;
    char *doc = malloc(cap);
    ck_assert_ptr_nonnull(doc);
    size_t at = (size_t)snprintf(doc, cap, "{\"traceEvents\": [");
    for (size_t i = from; i < to; i++) {
        const char *sep = i > from ? "," : "";
        size_t tid = (i / 5000) % 7, ts = 10 * i;
        if (i % 10 == 9)
            at += (size_t)snprintf(doc + at, cap - at,
                                   "%s{\"ph\":\"%s\",\"id\":%zu,\"pid\":1,\"tid\":%zu,"
                                   "\"ts\":%zu,\"cat\":\"ac2g\",\"name\":\"f\"}",
                                   sep, i % 20 == 9 ? "s" : "f", i / 20, tid, ts);
        else
            at += (size_t)snprintf(doc + at, cap - at,
                                   "%s{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"op%zu\","
                                   "\"pid\":1,\"tid\":%zu,\"ts\":%zu,\"dur\":3,"
                                   "\"args\":{\"correlation\":%zu}}",
                                   sep, i % 3 ? "cpu_op" : "kernel", (i / 3000) % 11, tid, ts, i / 2);
    }
    at += (size_t)snprintf(doc + at, cap - at, "]}");
    *len = at;
    return doc;
}

static void build_elements(struct rank_builder *b, size_t from, size_t to)
{
    size_t len;
    char *doc = elements_doc(from, to, &len);
    build(b, 0, doc, len);
    free(doc);
}

/* The join of a second half (rank_builder_adopt), whose events move in
 * slices on two threads and whose flows keep their own threads, gives the
 * events and flows one builder reading the whole file has, wherever the
 * file is cut: nothing after, a few events, events across many slices. */
START_TEST(builder_join_should_give_what_one_builder_reads)
{
    const size_t n = 300000;   /* 13 MB of events: several slices */
    static const size_t cuts[] = {300000, 299990, 150001, 7};
    struct rank_builder whole;
    build_elements(&whole, 0, n);
    for (size_t c = 0; c < sizeof cuts / sizeof cuts[0]; c++) {
        struct rank_builder b, t;
        build_elements(&b, 0, cuts[c]);
        build_elements(&t, cuts[c], n);
        struct err e = {0, ""};
        ck_assert_int_eq(rank_builder_adopt(&b, &t, cuts[c], &e), 0);
        ck_assert_uint_eq(b.nevents, whole.nevents);
        ck_assert_int_eq(memcmp(b.events, whole.events, b.nevents * sizeof *b.events), 0);
        ck_assert_uint_eq(rank_builder_nflows(&b), rank_builder_nflows(&whole));
        for (size_t i = 0; i < rank_builder_nflows(&b); i++) {
            struct flow_rec x = rank_builder_flow(&b, i), y = rank_builder_flow(&whole, i);
            ck_assert(x.id == y.id && x.ts == y.ts && x.thread == y.thread &&
                      x.is_start == y.is_start);
        }
        rank_builder_fini(&t);
        rank_builder_fini(&b);
    }
    rank_builder_fini(&whole);
}
END_TEST

/* model_finish, whose passes run over chunks of events on every core, sets
 * the origin a serial pass finds and shifts every event by it: ranks of
 * several chunks, one of none, trace spans earlier than every event. */
START_TEST(model_finish_should_shift_by_the_smallest_kept_ts)
{
    static const size_t counts[] = {1300000, 0, 7};
    struct rank_model ranks[3];
    memset(ranks, 0, sizeof ranks);
    int64_t origin = INT64_MAX;
    uint64_t seed = 12345;
    for (size_t k = 0; k < 3; k++) {
        ranks[k].nevents = counts[k];
        ranks[k].events = calloc(counts[k] ? counts[k] : 1, sizeof *ranks[k].events);
        ck_assert_ptr_nonnull(ranks[k].events);
        for (size_t i = 0; i < counts[k]; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            struct event *ev = &ranks[k].events[i];
            ev->ts = 1000000 + (int64_t)(seed >> 40) - (int64_t)(k * 77);
            ev->kind = i % 1000 == 3 ? EV_KIND_TRACE_SPAN : EV_KIND_CPU_OP;
            if (ev->kind == EV_KIND_TRACE_SPAN)
                ev->ts -= 500000;
            else if (ev->ts < origin)
                origin = ev->ts;
        }
    }
    struct iteration step = {1, 2000000, 10, 0};
    ranks[0].iterations = &step;
    ranks[0].niterations = 1;
    int64_t *before[3];
    for (size_t k = 0; k < 3; k++) {
        before[k] = malloc((counts[k] ? counts[k] : 1) * sizeof *before[k]);
        ck_assert_ptr_nonnull(before[k]);
        for (size_t i = 0; i < counts[k]; i++)
            before[k][i] = ranks[k].events[i].ts;
    }
    struct model m;
    memset(&m, 0, sizeof m);
    m.ranks = ranks;
    m.nranks = 3;
    struct err e = {0, ""};
    ck_assert_int_eq(model_finish(&m, &e), 0);
    ck_assert(m.has_origin);
    ck_assert_int_eq(m.origin_ns, origin);
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < counts[k]; i++)
            ck_assert_int_eq(ranks[k].events[i].ts, before[k][i] - origin);
    ck_assert_int_eq(step.ts, 2000000 - origin);
    for (size_t k = 0; k < 3; k++) {
        free(ranks[k].events);
        free(before[k]);
    }
}
END_TEST

Suite *model_tail_suite(void)
{
    Suite *s = suite_create("model_tail");
    TCase *tc = tcase_create("tail");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, builder_should_hold_the_same_events_whatever_it_expected);
    tcase_add_test(tc, builder_join_should_give_what_one_builder_reads);
    tcase_add_test(tc, model_finish_should_shift_by_the_smallest_kept_ts);
    suite_add_tcase(s, tc);
    return s;
}
