#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "../memcheck.h"
#include "model/model.h"
#include "summary/write.h"
#include "trace/pack.h"
#include "trace/pack_format.h"
#include "trace/read.h"
#include "trace/zbuf.h"
#include "util/summary_file.h"
#include "util/le.h"

/* One large file, plain or gzip, read on two threads (trace_read_file_split):
 * the model is the one a single thread reads, byte for byte, whether the
 * guessed middle is a real element start, lies inside a nested object, or
 * the second half warns; and a broken gzip file fails as it does read by one
 * thread. */

enum doc_kind { DOC_PLAIN, DOC_TRAP, DOC_WARN, DOC_GZIP, DOC_GZIP_TRAP, DOC_GZIP_WARN };

#define DOC_EVENTS 260000   /* about 45 MB: over the size the split starts at */
#define FLOW_LAG (64 * 2031)   /* near half the elements, a multiple of 64 */

/* Kineto-shaped elements, one a few lines, with what the builder keeps on
 * the side (flows, names, bandwidth, collective args) and strings, threads
 * and a category that only the second half has. */
static void write_event(FILE *f, size_t i, enum doc_kind kind)
{
    bool late = i >= DOC_EVENTS / 2;
    size_t ts = 1000 + 10 * i;
    if (i % 4 == 0)
        fprintf(f, "  {\n    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
                "\"cudaLaunchKernel\", \"pid\": 10, \"tid\": %d,\n    \"ts\": %zu, \"dur\": 4,\n"
                "    \"args\": {\"correlation\": %zu, \"External id\": %zu}\n  }",
                late ? 103 : 100, ts, i, i);
    else if (i % 64 == 5)   // an orphan kernel, linked by the flows below
        fprintf(f, "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"orphan\", \"pid\": 0, "
                "\"tid\": 7, \"ts\": %zu.%03zu, \"dur\": 6, \"args\": {\"stream\": 7}}",
                ts + 5, i % 1000);
    else if (i % 4 == 1)
        fprintf(f, "  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s_%zu\", \"pid\": 0,"
                " \"tid\": 7,\n    \"ts\": %zu.%03zu, \"dur\": 6,\n    \"args\": {\"stream\": 7, "
                "\"correlation\": %zu, \"grid\": [1, 2, 3]}\n  }",
                late ? "late_gemm" : "gemm", i % 13, ts + 5, i % 1000, i - 1);
    else if (i % 4 == 2)
        fprintf(f, "  {\n    \"ph\": \"X\", \"cat\": \"%s\", \"name\": \"aten::op_%zu\", "
                "\"pid\": 10, \"tid\": %zu,\n    \"ts\": %zu, \"dur\": %d,\n    \"args\": "
                "{\"Collective name\": \"allreduce\", \"Process Group Name\": \"%zu\", "
                "\"In msg nelems\": %zu}\n  }",
                late && i % 8 == 2 ? "late_cat" : "cpu_op", i % 50, 100 + i % 3, ts,
                kind == DOC_WARN && i == DOC_EVENTS * 3 / 4 + 2 ? -5 : 3, i % 5, i);
    else if (i % 64 == 19)   // the start of orphan kernel i - 14's launch
        fprintf(f, "  {\"ph\": \"s\", \"id\": %zu, \"pid\": 10, \"tid\": %d, \"ts\": %zu, "
                "\"cat\": \"ac2g\", \"name\": \"ac2g\"}", 1000000 + i - 15,
                i - 15 >= DOC_EVENTS / 2 ? 103 : 100, ts - 150);
    else if (i % 64 == 35 && i >= 30 + FLOW_LAG)   // its end, some half a file later
        fprintf(f, "  {\"ph\": \"f\", \"bp\": \"e\", \"id\": %zu, \"pid\": 0, \"tid\": 7, "
                "\"ts\": %zu.%03zu, \"cat\": \"ac2g\", \"name\": \"ac2g\"}",
                1000000 + i - 31 - FLOW_LAG, 1000 + 10 * (i - 30 - FLOW_LAG) + 5,
                (i - 30 - FLOW_LAG) % 1000);
    else if (i % 16 == 3)
        fprintf(f, "  {\"ph\": \"s\", \"id\": %zu, \"pid\": 10, \"tid\": 100, \"ts\": %zu, "
                "\"cat\": \"ac2g\", \"name\": \"ac2g\"}", i, ts);
    else if (i % 16 == 7)
        fprintf(f, "  {\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 10, \"tid\": %zu, "
                "\"args\": {\"name\": \"%s thread %zu\"}}", 100 + i % 4, late ? "late" : "early",
                i % 4);
    else
        fprintf(f, "  {\n    \"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", "
                "\"pid\": 0, \"tid\": 7,\n    \"ts\": %zu, \"dur\": 2,\n    \"args\": "
                "{\"stream\": 7, \"memory bandwidth (GB/s)\": %zu.5}\n  }", ts + 8, i % 97);
}

/* The trap: an element at the middle whose args hold a 4 MB array of
 * objects, so the guess lands on one of them: a start of an object after
 * "}, " that is not a traceEvents element. (Inside a string the guess
 * cannot land: a string holds no unescaped quote.) For gzip, where the guess
 * is made past the middle of the document, 12 MB of numbers that do not
 * deflate well, so that most of the file is the trap. */
static void write_trap(FILE *f, bool gzip)
{
    fputs("  {\"ph\": \"i\", \"name\": \"trap\", \"pid\": 10, \"tid\": 100, \"ts\": 5, "
          "\"args\": {\"list\": [{\"x\": 0}", f);
    uint64_t x = 88172645463325252u;
    for (int k = 0; k < (gzip ? 12 << 20 : 4 << 20) / (gzip ? 20 : 12); k++) {
        if (!gzip) {
            fputs(", {\"x\": 1}", f);
            continue;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        fprintf(f, ", {\"x\": %llu}", (unsigned long long)(100000000u + x % 900000000u));
    }
    fputs("]}},\n", f);
}

static bool is_gzip_kind(enum doc_kind kind)
{
    return kind >= DOC_GZIP;
}

/* The plain kind a gzip one writes. */
static enum doc_kind plain_kind(enum doc_kind kind)
{
    return is_gzip_kind(kind) ? (enum doc_kind)(kind - DOC_GZIP) : kind;
}

/* Replaces the plain file at path by its gzip, of level 1 (fast to make). */
static void gzip_in_place(const char *path)
{
    FILE *in = fopen(path, "rb");
    ck_assert_ptr_nonnull(in);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.gz", path);
    gzFile out = gzopen(tmp, "wb1");
    ck_assert_ptr_nonnull(out);
    static char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ck_assert_int_eq(gzwrite(out, buf, (unsigned)n), (int)n);
    fclose(in);
    ck_assert_int_eq(gzclose(out), Z_OK);
    ck_assert_int_eq(rename(tmp, path), 0);
}

/* Bytes of a member written after traceEvents (0: none). */
static size_t doc_padding;

/* Writes the document; returns its length (before any gzip). */
static long write_doc(const char *path, enum doc_kind gz_kind)
{
    enum doc_kind kind = plain_kind(gz_kind);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{\n  \"schemaVersion\": 1,\n  \"distributedInfo\": {\"rank\": 3, \"world_size\": 8},\n"
          "  \"traceEvents\": [\n", f);
    for (size_t i = 0; i < DOC_EVENTS; i++) {
        if (kind == DOC_TRAP && i == DOC_EVENTS / 2)
            write_trap(f, is_gzip_kind(gz_kind));
        write_event(f, i, kind);
        fputs(i + 1 < DOC_EVENTS ? ",\n" : "\n", f);
    }
    fputs("  ],\n", f);
    if (doc_padding) {
        fputs("  \"padding\": \"", f);
        for (size_t k = 0; k < doc_padding; k++)
            fputc('a' + (int)(k * 7919 % 26), f);
        fputs("\",\n", f);
    }
    fputs("  \"traceName\": \"split.json\",\n  \"baseTimeNanoseconds\": 1700000000000000000\n}\n",
          f);
    long length = ftell(f);
    ck_assert_int_eq(fclose(f), 0);
    if (is_gzip_kind(gz_kind))
        gzip_in_place(path);
    return length;
}

static struct model *load(const char *path, int threads)
{
    struct load_opts o = {.threads = threads};
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct err e = {0, ""};
    const char *paths[] = {path};
    struct model *m = model_load(paths, 1, &sem, &o, &e);
    ck_assert_msg(m != NULL, "%s", e.msg);
    return m;
}

static void check_same_model(const struct model *a, const struct model *b)
{
    ck_assert_uint_eq(strtab_count(&a->strings), strtab_count(&b->strings));
    for (size_t i = 0; i < strtab_count(&a->strings); i++)
        ck_assert_str_eq(strtab_str(&a->strings, (uint32_t)i), strtab_str(&b->strings, (uint32_t)i));
    ck_assert_uint_eq(a->npidtids, b->npidtids);
    ck_assert_int_eq(memcmp(a->pidtids, b->pidtids, a->npidtids * sizeof *a->pidtids), 0);
    ck_assert_uint_eq(a->ncats, b->ncats);
    ck_assert_int_eq(memcmp(a->cats, b->cats, a->ncats * sizeof *a->cats), 0);
    ck_assert_uint_eq(a->nranks, 1);
    ck_assert_uint_eq(b->nranks, 1);
    const struct rank_model *x = &a->ranks[0], *y = &b->ranks[0];
    ck_assert_int_eq(x->rank, 3);
    ck_assert_int_eq(y->rank, 3);
    ck_assert_uint_eq(x->nevents, y->nevents);
    ck_assert_int_eq(memcmp(x->events, y->events, x->nevents * sizeof *x->events), 0);
    ck_assert_uint_eq(x->elements, y->elements);
    ck_assert_uint_eq(x->complete_events, y->complete_events);
    ck_assert_int_eq(x->has_float_ts, y->has_float_ts);
    ck_assert_uint_eq(x->nbw, y->nbw);
    for (size_t i = 0; i < x->nbw; i++) {
        ck_assert_uint_eq(x->bw[i].pos, y->bw[i].pos);
        ck_assert(x->bw[i].gbps == y->bw[i].gbps);
    }
    ck_assert_uint_eq(x->ncomm, y->ncomm);
    for (size_t i = 0; i < x->ncomm; i++) {
        ck_assert_uint_eq(x->comm[i].pos, y->comm[i].pos);
        ck_assert_uint_eq(x->comm[i].pg_name, y->comm[i].pg_name);
        ck_assert_int_eq(x->comm[i].in_nelems, y->comm[i].in_nelems);
    }
    ck_assert_uint_eq(x->nnames, y->nnames);
    for (size_t i = 0; i < x->nnames; i++) {
        ck_assert_uint_eq(x->names[i].tid, y->names[i].tid);
        ck_assert_uint_eq(x->names[i].name, y->names[i].name);
    }
    ck_assert_uint_eq(x->nwarnings, y->nwarnings);
    ck_assert_uint_eq(x->nwarning_texts, y->nwarning_texts);
    for (size_t i = 0; i < x->nwarning_texts; i++)
        ck_assert_str_eq(x->warning_texts[i], y->warning_texts[i]);
    ck_assert_uint_eq(x->unmatched_correlations, y->unmatched_correlations);
    ck_assert_uint_eq(x->nrows, y->nrows);
}

/* Counting sinks: who got which elements, and where the halves met. */
struct tally {
    uint64_t events, first_index, last_index;
    bool ordered;
    unsigned first_delay_us;   /* slept at the first element */
};

static int count_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)e;
    struct tally *t = ctx;
    if (!t->events && t->first_delay_us)
        usleep(t->first_delay_us);
    if (t->events && ev->index != t->last_index + 1)
        t->ordered = false;
    if (!t->events)
        t->first_index = ev->index;
    t->last_index = ev->index;
    t->events++;
    return 0;
}

struct halves {
    struct tally head, tail;
    int adopted;
    uint64_t at;
    int answer;   /* what adopt says */
};

static int adopt(void *ctx, uint64_t first_index, struct err *e)
{
    (void)e;
    struct halves *h = ctx;
    h->adopted++;
    h->at = first_index;
    return h->answer;
}

static void read_split(const char *path, struct halves *h)
{
    struct trace_sink head = {.ctx = &h->head, .event = count_event};
    struct trace_sink tail = {.ctx = &h->tail, .event = count_event};
    struct trace_split_opts split = {&tail, adopt, h};
    h->head.ordered = h->tail.ordered = true;
    // A gzip half starts once its thread has inflated past the middle:
    // on a real trace long before the first thread gets there, on this
    // 45 MB one only if the first thread waits a little (on a loaded
    // machine it could pass the middle first and read on alone).
    h->head.first_delay_us = 200 * 1000;
    struct err e = {0, ""};
    ck_assert_msg(trace_read_file_split(path, &head, &split, NULL, &e) == 0, "%s", e.msg);
}

START_TEST(split_read_should_hand_the_second_half_over_where_it_starts)
{
    char path[] = "/tmp/htx-split-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    bool gzip = _i == 1;
    write_doc(path, gzip ? DOC_GZIP : DOC_PLAIN);
    struct halves h = {.answer = 0};
    read_split(path, &h);
    ck_assert_int_eq(h.adopted, 1);
    ck_assert(h.head.ordered && h.tail.ordered);
    ck_assert_uint_eq(h.head.first_index, 0);
    ck_assert_uint_eq(h.at, h.head.events);           /* the tail goes on from there */
    ck_assert_uint_eq(h.tail.first_index, 0);         /* numbered from 0 by its thread */
    ck_assert_uint_eq(h.head.events + h.tail.events, DOC_EVENTS);
    ck_assert_uint_gt(h.tail.events, DOC_EVENTS / 3);
    h = (struct halves){.answer = 1};                 /* refused: read by one thread */
    read_split(path, &h);
    ck_assert_int_eq(h.adopted, 1);
    ck_assert(h.head.ordered);
    ck_assert_uint_eq(h.head.events, DOC_EVENTS);
    write_doc(path, gzip ? DOC_GZIP_TRAP : DOC_TRAP);   /* the guess inside an element */
    h = (struct halves){.answer = 0};
    read_split(path, &h);
    ck_assert_int_eq(h.adopted, 0);
    ck_assert_uint_eq(h.head.events, DOC_EVENTS + 1);
    unlink(path);
}
END_TEST

START_TEST(split_load_should_build_the_model_one_thread_builds)
{
    char path[] = "/tmp/htx-split-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    write_doc(path, (enum doc_kind)_i);
    struct model *two = load(path, 2), *one = load(path, 1);
    check_same_model(two, one);
    size_t linked = 0;   // by flows whose ends the two halves hold
    for (size_t i = 0; i < one->ranks[0].nevents; i++)
        linked += (one->ranks[0].events[i].flags & EV_FLAG_FLOW_LINKED) != 0;
    if (plain_kind((enum doc_kind)_i) == DOC_PLAIN)
        ck_assert_uint_gt(linked, 1000);
    if (plain_kind((enum doc_kind)_i) == DOC_WARN)
        ck_assert_uint_gt(one->ranks[0].nwarnings, 0);
    model_free(two);
    model_free(one);
    unlink(path);
}
END_TEST

/* Packed as it is read (summarize, the cache), by two threads: the pack
 * holds the second half's blocks (version 5), and replays, on one thread or
 * two, into the model one thread reads from the trace. */
static int keep_pack(void *ctx, const char *path, struct trace_pack *pack, struct err *e)
{
    (void)path;
    const uint8_t *bytes;
    size_t len;
    ck_assert_int_eq(trace_pack_finish(pack, &bytes, &len, e), 0);
    struct summary_file_writer w;   // a rank summary holding only the events
    summary_file_writer_init(&w);
    summary_file_begin_section(&w, SUMMARY_FILE_EVENTS);
    summary_file_put_bytes(&w, bytes, len);
    summary_file_end_section(&w);
    ck_assert_int_eq(summary_file_writer_save(&w, ctx, 0, e), 0);
    summary_file_writer_fini(&w);
    trace_pack_free(pack);
    return 0;
}

/* How many of the summary's pack's blocks hold a second half's records
 * (pack_format.h: their header says so). */
static size_t second_half_blocks(const char *summary)
{
    struct summary_file_doc doc;
    struct err e = {0, ""};
    ck_assert_int_eq(summary_file_load_file(&doc, summary, &e), 0);
    const struct summary_file_section *events = summary_file_find(&doc, SUMMARY_FILE_EVENTS);
    ck_assert_ptr_nonnull(events);
    ck_assert_uint_eq(le_load(events->data, 4), TRACE_PACK_VERSION);
    uint64_t raw_len = le_load(events->data + 4, 8);
    size_t z = 16 + le_load(events->data + 12, 4);
    uint8_t *raw = NULL;
    ck_assert_int_eq(trace_inflate_exact(summary, "pack", events->data + z, events->len - z,
                                         raw_len, &raw, &e), 0);
    struct summary_file_cur c = {raw, raw + raw_len, 0};
    size_t second = 0;
    while (c.p < c.end && !c.bad) {
        second += summary_file_get_varint(&c) == (PACK_NCOLS | PACK_BLOCK_SECOND);
        uint64_t total = 0;
        for (int k = 0; k < PACK_NCOLS; k++)
            total += summary_file_get_varint(&c);
        ck_assert(!c.bad && total <= (uint64_t)(c.end - c.p));
        c.p += total;
    }
    ck_assert(!c.bad);
    free(raw);
    summary_file_doc_fini(&doc);
    return second;
}

START_TEST(split_pack_should_replay_the_model_one_thread_reads)
{
    enum doc_kind kind = _i == 0 ? DOC_PLAIN : DOC_GZIP;
    char path[] = "/tmp/htx-split-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    write_doc(path, kind);
    char summary[64], one_summary[64];
    snprintf(summary, sizeof summary, "%s.htxs", path);
    snprintf(one_summary, sizeof one_summary, "%s-1.htxs", path);
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    const char *paths[] = {path};
    for (int threads = 2; threads >= 1; threads--) {
        struct load_opts o = {.threads = threads, .packed = keep_pack,
                              .packed_ctx = threads == 2 ? summary : one_summary};
        o.pack_behind = threads == 2;
        struct err e = {0, ""};
        struct model *m = model_load(paths, 1, &sem, &o, &e);
        ck_assert_msg(m != NULL, "%s", e.msg);
        model_free(m);
    }
    ck_assert_uint_gt(second_half_blocks(summary), 0);   // a second half adopted
    ck_assert_uint_eq(second_half_blocks(one_summary), 0);
    struct model *trace = load(path, 1);
    const char *summaries[] = {summary, one_summary};
    for (int k = 0; k < 2; k++)
        for (int threads = 1; threads <= 2; threads++) {   // replayed on one thread and on two
            struct load_opts o = {.threads = threads};
            struct err e = {0, ""};
            struct model *m = model_load(&summaries[k], 1, &sem, &o, &e);
            ck_assert_msg(m != NULL, "%s", e.msg);
            check_same_model(m, trace);
            model_free(m);
        }
    model_free(trace);
    unlink(summary);
    unlink(one_summary);
    unlink(path);
}
END_TEST

/* A gzip file broken after its middle, where only the first thread's read
 * (or the second's read of what follows the array) meets the damage: the
 * last with 6 MB after the array, so that the second thread reads all of
 * its elements before it meets the bad CRC. */
enum gzip_break {
    BREAK_TRUNCATED, BREAK_CRC, BREAK_GARBAGE, BREAK_LIMIT, BREAK_CRC_AFTER_A_LONG_TAIL,
    BREAK_COUNT
};

static char *load_error(const char *path, int threads, uint64_t max_uncompressed, int how)
{
    struct load_opts o = {.threads = threads};
    o.limits.max_uncompressed = max_uncompressed;
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct err e = {0, ""};
    const char *paths[] = {path};
    struct model *m = model_load(paths, 1, &sem, &o, &e);
    ck_assert_msg(m == NULL, "break %d: loaded with %d thread(s)", how, threads);
    ck_assert_int_ne(e.code, 0);
    return strdup(e.msg);
}

START_TEST(broken_gzip_split_should_fail_as_one_thread_fails)
{
    char path[] = "/tmp/htx-split-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    doc_padding = _i == BREAK_CRC_AFTER_A_LONG_TAIL ? (size_t)6 << 20 : 0;
    long length = write_doc(path, DOC_GZIP);
    doc_padding = 0;
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    long size = ftell(f);
    uint64_t limit = 0;
    if (_i == BREAK_TRUNCATED) {
        ck_assert_int_eq(ftruncate(fileno(f), size - 1000), 0);
    } else if (_i == BREAK_CRC || _i == BREAK_CRC_AFTER_A_LONG_TAIL) {
        ck_assert_int_eq(fseek(f, size - 8, SEEK_SET), 0);   // the trailer's CRC-32
        int c = fgetc(f);
        ck_assert_int_eq(fseek(f, size - 8, SEEK_SET), 0);
        fputc(c ^ 0x55, f);
    } else if (_i == BREAK_GARBAGE) {
        fputs("not gzip", f);
    } else {
        limit = (uint64_t)length / 8 * 7;   // met past the middle
    }
    ck_assert_int_eq(fclose(f), 0);
    char *two = load_error(path, 2, limit, _i), *one = load_error(path, 1, limit, _i);
    ck_assert_str_eq(two, one);
    free(two);
    free(one);
    unlink(path);
}
END_TEST

/* What load_opts.spans was handed: every span, and whether each span's
 * thread was named before it. */
struct spans_seen {
    pthread_mutex_t lock;
    uint64_t n;
    int64_t dur;
    bool unnamed;
    bool named[4096];
};

static void count_spans(void *ctx, const struct load_batch *b)
{
    struct spans_seen *s = ctx;
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < b->nthreads; i++)
        if (b->threads[i].index < 4096)
            s->named[b->threads[i].index] = true;
    for (size_t i = 0; i < b->nspans; i++) {
        const struct load_span *sp = &b->spans[i];
        s->unnamed |= !sp->gpu && (sp->lane < 0 || sp->lane >= 4096 || !s->named[sp->lane]);
        s->n++;
        s->dur += sp->end - sp->ts;
    }
    pthread_mutex_unlock(&s->lock);
}

/* The lanes of a file still loading (the TUI's loading screen) get every
 * kept event with a duration once, on two threads as on one, each
 * thread named before its events. */
START_TEST(load_spans_should_hand_every_kept_event_once)
{
    char path[] = "/tmp/htx-split-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    write_doc(path, _i == 0 ? DOC_PLAIN : DOC_GZIP);
    for (int threads = 1; threads <= 2; threads++) {
        struct spans_seen *seen = calloc(1, sizeof *seen);
        ck_assert_ptr_nonnull(seen);
        pthread_mutex_init(&seen->lock, NULL);
        struct load_opts o = {.threads = threads, .spans = count_spans, .spans_ctx = seen};
        struct semantics sem;
        semantics_init(&sem, SEMANTICS_HTX);
        struct err e = {0, ""};
        const char *paths[] = {path};
        struct model *m = model_load(paths, 1, &sem, &o, &e);
        ck_assert_msg(m != NULL, "%s", e.msg);
        uint64_t n = 0;
        int64_t dur = 0;
        for (size_t i = 0; i < m->ranks[0].nevents; i++) {
            const struct event *ev = &m->ranks[0].events[i];
            if (ev->dur > 0 && ev->kind != EV_KIND_TRACE_SPAN) {
                n++;
                dur += ev->dur;
            }
        }
        ck_assert_uint_gt(n, 0);
        ck_assert_uint_eq(seen->n, n);
        ck_assert_int_eq(seen->dur, dur);
        ck_assert(!seen->unnamed);
        model_free(m);
        pthread_mutex_destroy(&seen->lock);
        free(seen);
    }
    unlink(path);
}
END_TEST

Suite *model_split_suite(void);

Suite *model_split_suite(void)
{
    Suite *s = suite_create("model_split");
    TCase *tc = tcase_create("two threads");
    tcase_set_timeout(tc, 120);
    // under memcheck, the plain text's case of each (ASan's build runs all)
    int kinds = under_memcheck() ? 1 : 2;
    tcase_add_large_loop_test(tc, split_read_should_hand_the_second_half_over_where_it_starts, 0, kinds);
    tcase_add_large_loop_test(tc, split_load_should_build_the_model_one_thread_builds, DOC_PLAIN,
                        under_memcheck() ? DOC_PLAIN + 1 : DOC_GZIP_WARN + 1);
    tcase_add_large_loop_test(tc, broken_gzip_split_should_fail_as_one_thread_fails, 0, BREAK_COUNT);
    tcase_add_large_loop_test(tc, split_pack_should_replay_the_model_one_thread_reads, 0, kinds);
    tcase_add_large_loop_test(tc, load_spans_should_hand_every_kept_event_once, 0, kinds);
    suite_add_tcase(s, tc);
    return s;
}
