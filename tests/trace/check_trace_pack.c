#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check_trace.h"
#include "event_log.h"
#include "trace/deflater.h"
#include "trace/pack.h"
#include "trace/pack_dict.h"
#include "trace/pack_format.h"
#include "trace/read.h"
#include "util/summary_file.h"
#include "util/le.h"
#include "../memcheck.h"

/* Packed traces (trace/pack.h): a replay gives the sink exactly the calls
 * the JSON reader gave, whatever the fields; a damaged pack is refused
 * (never read past its end, never half-replayed without an error). */

/* Every field the reader hands over, absent and present, odd values. */
static const char *rich_doc =
    "{\"distributedInfo\": {\"rank\": 3, \"world_size\": 8, \"backend\": \"nccl\"},"
    " \"baseTimeNanoseconds\": 1700000000000000000,"
    " \"deviceProperties\": [{\"name\": \"GPU \\u00e9\"}], \"displayTimeUnit\": \"ms\","
    " \"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\\u0000nul\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 1661203462598738, \"dur\": 5, \"args\": {\"stream\": 7, \"correlation\": 99,"
    " \"Collective name\": \"allreduce\", \"Process Group Name\": \"0\","
    " \"Process Group Ranks\": \"[0, 1]\", \"dtype\": \"Float\", \"Group size\": 2,"
    " \"In msg nelems\": 1024, \"Out msg nelems\": 2048, \"Seq\": 5, \"seq\": 6}},"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": \"host\", \"tid\": \"t1\","
    " \"ts\": 3541234567890.123456, \"dur\": 0.5},"
    "{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy\", \"pid\": 0, \"tid\": 7,"
    " \"ts\": 1.5e3, \"dur\": 2, \"args\": {\"bytes\": 4096, \"memory bandwidth (GB/s)\": 12.375,"
    " \"stream\": -3, \"correlation\": 1}},"
    "{\"ph\": \"s\", \"id\": 99, \"pid\": 1, \"tid\": 2, \"ts\": 10, \"cat\": \"ac2g\", \"name\": \"f\"},"
    "{\"ph\": \"f\", \"id\": 99, \"pid\": 0, \"tid\": 7, \"ts\": 12, \"bp\": \"e\", \"cat\": \"ac2g\"},"
    "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 2, \"args\": {\"name\": \"main\"}},"
    "{\"ph\": 5},"
    "[1, 2],"
    "{\"ph\": \"X\", \"name\": \"neg\", \"ts\": -4611686018427387, \"dur\": 4611686018427387},"
    "{\"ph\": \"i\", \"name\": \"\", \"cat\": \"\", \"ts\": 0},"
    "{}"
    "]}";

/* Loop tests run with _i 0 (the default inflater: ISA-L when built with it)
 * and 1 (HTX_INFLATE=zlib): packs and tables inflate through both. */
static void inflate_by(int i)
{
    if (i)
        setenv("HTX_INFLATE", "zlib", 1);
    else
        unsetenv("HTX_INFLATE");
}

static char *log_of_json(const char *doc, struct trace_pack *p)
{
    struct event_log log;
    struct trace_sink sink = event_log_sink(&log), tee;
    if (p) {
        trace_pack_sink(p, &sink, &tee);
        sink = tee;
    }
    struct err e = {0, ""};
    ck_assert_int_eq(trace_read_buffer("doc", doc, strlen(doc), &sink, NULL, &e), 0);
    ck_assert(!log.failed);
    return log.text;
}

static int replay_log(const uint8_t *pack, size_t len, char **text, struct err *e)
{
    struct event_log log;
    struct trace_sink sink = event_log_sink(&log);
    int rc = trace_unpack("pack", pack, len, NULL, &sink, NULL, e);
    *text = log.text;
    return rc;
}

START_TEST(pack_should_replay_what_the_reader_read)
{
    inflate_by(_i);
    char *plain = log_of_json(rich_doc, NULL);
    struct trace_pack *p = trace_pack_new("dir/rank-3.json");
    ck_assert_ptr_nonnull(p);
    char *recorded = log_of_json(rich_doc, p);
    ck_assert_str_eq(plain, recorded);   // the recorder passes every call on unchanged
    const uint8_t *pack;
    size_t len;
    struct err e = {0, ""};
    ck_assert_int_eq(trace_pack_finish(p, &pack, &len, &e), 0);
    char *replayed = NULL;
    ck_assert_int_eq(replay_log(pack, len, &replayed, &e), 0);
    ck_assert_str_eq(plain, replayed);
    ck_assert_ptr_nonnull(strstr(plain, "W "));   // the document has warnings and metadata
    ck_assert_ptr_nonnull(strstr(plain, "M 1/3 1/8"));
    size_t n;
    const char *src = trace_pack_source(pack, len, &n);
    ck_assert_int_eq((int)n, 15);
    ck_assert(memcmp(src, "dir/rank-3.json", n) == 0);
    free(plain);
    free(recorded);
    free(replayed);
    trace_pack_free(p);
}
END_TEST

/* The metadata of a replay names the trace the pack was made from. */
static int keep_meta(void *ctx, const struct trace_meta *m, struct err *e)
{
    (void)e;
    *(struct trace_meta *)ctx = *m;
    return 0;
}

static int ignore_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)ctx, (void)ev, (void)e;
    return 0;
}

static uint8_t *make_pack(const char *doc, size_t *len)
{
    struct trace_pack *p = trace_pack_new("dir/rank-3.json");
    free(log_of_json(doc, p));
    const uint8_t *pack;
    struct err e = {0, ""};
    ck_assert_int_eq(trace_pack_finish(p, &pack, len, &e), 0);
    uint8_t *copy = malloc(*len);
    memcpy(copy, pack, *len);
    trace_pack_free(p);
    return copy;
}

START_TEST(pack_replay_should_name_its_source)
{
    size_t len;
    uint8_t *pack = make_pack(rich_doc, &len);
    struct trace_meta m;
    memset(&m, 0, sizeof m);
    struct trace_sink sink = {&m, ignore_event, NULL, keep_meta, NULL};
    struct err e = {0, ""};
    ck_assert_int_eq(trace_unpack("pack", pack, len, NULL, &sink, NULL, &e), 0);
    ck_assert_int_eq((int)m.source_path.len, 15);
    ck_assert(memcmp(m.source_path.s, "dir/rank-3.json", 15) == 0);
    ck_assert_str_eq(m.backend, "nccl");
    free(pack);
}
END_TEST

/* Every prefix of a pack is refused with an error, and so is a pack with
 * any one byte changed, unless the change leaves it valid (then it still
 * replays without reading out of bounds: ASan and valgrind watch). */
/* Deflated behind the recorder (on its own thread, through many ring
 * blocks; its first records deflated by zlib as they come or held while
 * the reading is busy) or all at finish, a pack is the same bytes: zlib's
 * stream does not depend on how its input was cut. */
enum deflating { AT_FINISH, BEHIND, BEHIND_BUSY };

static uint8_t *pack_of_many(size_t n, enum deflating how, size_t *len)
{
    struct trace_pack *p = trace_pack_new("many.json");
    ck_assert_ptr_nonnull(p);
    if (how != AT_FINISH)
        ck_assert_int_eq(trace_pack_deflate_behind(p, how == BEHIND_BUSY), 0);
    struct trace_sink next = {NULL, ignore_event, NULL, NULL, NULL}, tee;
    trace_pack_sink(p, &next, &tee);
    struct err e = {0, ""};
    char name[96];
    for (size_t i = 0; i < n; i++) {
        // a new name every event: ~90 raw bytes each, so 6 MB pass the ring
        int k = snprintf(name, sizeof name, "kernel_%08zu_<float, 4, at::native::Functor<%zu>>", i,
                         i * 2654435761u % 1000003);
        struct trace_event ev;
        memset(&ev, 0, sizeof ev);
        ev.index = i;
        ev.ph = TRACE_PH_X;
        ev.name = (struct trace_str){name, (size_t)k};
        ev.cat = (struct trace_str){"kernel", 6};
        ev.has_name = ev.has_cat = true;
        ev.pid = (struct trace_str){"0", 1};
        ev.tid = (struct trace_str){i % 3 ? "7" : "8", 1};
        ev.pid_is_num = ev.tid_is_num = true;
        ev.ts = (struct trace_time){(int64_t)(i * 1000 + i % 7), 0, true, false};
        ev.ts.us = (double)ev.ts.ns / 1000;
        ev.dur = (struct trace_time){(int64_t)(i % 5000), (double)(i % 5000) / 1000, true, false};
        ck_assert_int_eq(tee.event(tee.ctx, &ev, &e), 0);
    }
    const uint8_t *pack;
    ck_assert_int_eq(trace_pack_finish(p, &pack, len, &e), 0);
    uint8_t *copy = malloc(*len);
    memcpy(copy, pack, *len);
    trace_pack_free(p);
    return copy;
}

static int count_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)e;
    size_t *n = ctx;
    ck_assert_uint_eq(ev->index, *n);
    ck_assert_int_eq(ev->ts.ns, (int64_t)(*n * 1000 + *n % 7));
    ++*n;
    return 0;
}

START_TEST(pack_deflated_behind_should_be_the_same_pack)
{
    size_t n = 80000, at_finish_len, behind_len, small_len;
    // Within the hold (zlib's stream, made as the records come or at the end) and past it.
    const size_t small = 3000;
    uint8_t *small_at_finish = pack_of_many(small, AT_FINISH, &small_len);
    uint8_t *at_finish = pack_of_many(n, AT_FINISH, &at_finish_len);
    for (int how = BEHIND; how <= BEHIND_BUSY; how++) {
        size_t b_len;
        uint8_t *b = pack_of_many(small, (enum deflating)how, &b_len);
        ck_assert_uint_lt(le_load(b + 4, 8), TRACE_DEFLATER_HOLD);
        ck_assert_uint_eq(small_len, b_len);
        ck_assert(memcmp(small_at_finish, b, b_len) == 0);
        free(b);
        if (how == BEHIND)
            continue;   // (the pack below)
        b = pack_of_many(n, (enum deflating)how, &b_len);
        ck_assert_uint_eq(at_finish_len, b_len);
        ck_assert(memcmp(at_finish, b, b_len) == 0);
        free(b);
    }
    free(small_at_finish);
    uint8_t *behind = pack_of_many(n, BEHIND, &behind_len);
    ck_assert_uint_eq(at_finish_len, behind_len);
    ck_assert(memcmp(at_finish, behind, behind_len) == 0);
    ck_assert_uint_gt(le_load(behind + 4, 8), (uint64_t)5 << 20);   // several turns of the ring
    size_t seen = 0;
    struct trace_sink sink = {&seen, count_event, NULL, NULL, NULL};
    struct err e = {0, ""};
    ck_assert_int_eq(trace_unpack("pack", behind, behind_len, NULL, &sink, NULL, &e), 0);
    ck_assert_uint_eq(seen, n);
    free(at_finish);
    free(behind);

    // Freed before finish, the deflating thread is stopped (no leak, no hang).
    struct trace_pack *p = trace_pack_new("cut.json");
    ck_assert_int_eq(trace_pack_deflate_behind(p, false), 0);
    trace_pack_free(p);
}
END_TEST

/* Events a sink was given, in order: their indices, times, and a line of
 * their strings, times and correlation (indices count from the first the
 * sink was given: a second thread's from 0). */
struct seen {
    uint64_t *index;
    int64_t *ts;
    char **line;
    size_t n, cap;
};

static int see_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)e;
    struct seen *s = ctx;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->index = realloc(s->index, s->cap * sizeof *s->index);
        s->ts = realloc(s->ts, s->cap * sizeof *s->ts);
        s->line = realloc(s->line, s->cap * sizeof *s->line);
        ck_assert(s->index && s->ts && s->line);
    }
    char buf[512];
    snprintf(buf, sizeof buf, "%.*s|%.*s|%.*s|%.*s|%lld|%lld|%lld", (int)ev->name.len,
             ev->name.s ? ev->name.s : "", (int)ev->cat.len, ev->cat.s ? ev->cat.s : "",
             (int)ev->pid.len, ev->pid.s ? ev->pid.s : "", (int)ev->tid.len,
             ev->tid.s ? ev->tid.s : "", (long long)ev->ts.ns, (long long)ev->dur.ns,
             (long long)ev->correlation.v);
    s->line[s->n] = strdup(buf);
    s->index[s->n] = ev->index;
    s->ts[s->n++] = ev->ts.ns;
    return 0;
}

static void seen_fini(struct seen *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->line[i]);
    free(s->line);
    free(s->index);
    free(s->ts);
}

struct adoption {
    int answer;        /* what adopt says */
    int calls;
    uint64_t first;
};

static int adopt_answer(void *ctx, uint64_t first_index, struct err *e)
{
    struct adoption *a = ctx;
    a->calls++;
    a->first = first_index;
    return a->answer < 0 ? err_set(e, ERR_NOMEM, "no room to adopt") : a->answer;
}

START_TEST(pack_should_replay_on_two_threads_as_on_one)
{
    size_t n = 100000, len;
    uint8_t *pack = pack_of_many(n, true, &len);
    ck_assert_uint_gt(le_load(pack + 4, 8), (uint64_t)1 << 20);   // records enough to split
    for (int answer = -1; answer <= 1; answer++) {
        struct seen head = {0}, tail = {0};
        struct trace_sink head_sink = {&head, see_event, NULL, NULL, NULL};
        struct trace_sink tail_sink = {&tail, see_event, NULL, NULL, NULL};
        struct adoption a = {answer, 0, 0};
        struct trace_split_opts split = {&tail_sink, adopt_answer, &a};
        struct err e = {0, ""};
        int rc = trace_unpack_split("pack", pack, len, NULL, &head_sink, &split, NULL, &e);
        ck_assert_int_eq(a.calls, 1);
        if (answer < 0) {   // adopt failed: so does the replay, with its error
            ck_assert_int_eq(rc, ERR_NOMEM);
            ck_assert_ptr_nonnull(strstr(e.msg, "adopt"));
        } else {
            ck_assert_msg(rc == 0, "%s", e.msg);
            // adopted: the head has the elements before it, the tail the rest
            // numbered from 0; refused: the head has them all
            size_t in_head = answer == 0 ? (size_t)a.first : n;
            ck_assert_uint_gt(a.first, n / 4);
            ck_assert_uint_lt(a.first, 3 * n / 4);
            ck_assert_uint_eq(head.n, in_head);
            ck_assert_uint_eq(tail.n, n - (size_t)a.first);
            for (size_t i = 0; i < head.n; i++) {
                ck_assert_uint_eq(head.index[i], i);
                ck_assert_int_eq(head.ts[i], (int64_t)(i * 1000 + i % 7));
            }
            for (size_t i = 0; i < tail.n; i++) {
                size_t k = (size_t)a.first + i;
                ck_assert_uint_eq(tail.index[i], i);
                ck_assert_int_eq(tail.ts[i], (int64_t)(k * 1000 + k % 7));
            }
        }
        seen_fini(&head), seen_fini(&tail);
    }
    /* Damage in the second half fails the replay as on one thread. */
    pack[len - 9] ^= 0x20;
    struct seen head = {0}, tail = {0};
    struct trace_sink head_sink = {&head, see_event, NULL, NULL, NULL};
    struct trace_sink tail_sink = {&tail, see_event, NULL, NULL, NULL};
    struct adoption a = {0, 0, 0};
    struct trace_split_opts split = {&tail_sink, adopt_answer, &a};
    struct err e = {0, ""}, e1 = {0, ""};
    int rc = trace_unpack_split("pack", pack, len, NULL, &head_sink, &split, NULL, &e);
    struct seen one = {0};
    struct trace_sink one_sink = {&one, see_event, NULL, NULL, NULL};
    ck_assert_int_eq(rc, trace_unpack("pack", pack, len, NULL, &one_sink, NULL, &e1));
    ck_assert_int_ne(rc, 0);
    seen_fini(&head), seen_fini(&tail), seen_fini(&one);
    free(pack);
}
END_TEST

START_TEST(pack_should_refuse_damage)
{
    inflate_by(_i);
    size_t len;
    uint8_t *pack = make_pack(rich_doc, &len);
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t *prefix = malloc(cut ? cut : 1);
        memcpy(prefix, pack, cut);
        char *text = NULL;
        struct err e = {0, ""};
        ck_assert_int_ne(replay_log(prefix, cut, &text, &e), 0);
        ck_assert_ptr_nonnull(strstr(e.msg, "pack"));
        free(text);
        free(prefix);
    }
    for (size_t at = 0; at < len; at++) {
        pack[at] ^= 0x5a;
        char *text = NULL;
        struct err e = {0, ""};
        (void)replay_log(pack, len, &text, &e);
        free(text);
        pack[at] ^= 0x5a;
    }
    free(pack);
}
END_TEST

/* A pack of that version around hand-made raw records (the header, then zlib). */
static uint8_t *pack_of_raw_v(uint32_t version, const uint8_t *raw, size_t raw_len,
                              uint64_t declared, size_t *len)
{
    uLongf zlen = compressBound(raw_len);
    uint8_t *out = malloc(16 + 1 + zlen);
    ck_assert_int_eq(compress(out + 17, &zlen, raw, raw_len), Z_OK);
    uint64_t v[3] = {version, declared, 1};
    int widths[3] = {4, 8, 4};
    size_t at = 0;
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < widths[k]; i++)
            out[at++] = (uint8_t)(v[k] >> (8 * i));
    out[16] = 'x';
    *len = 17 + zlen;
    return out;
}

/* A pack's raw records, inflated by zlib with the dictionary its stream
 * asks for (it must ask). */
static uint8_t *records_of(const uint8_t *pack, size_t len, uint64_t *raw_len)
{
    size_t dict_len;
    const unsigned char *dict = trace_pack_dictionary(&dict_len);
    size_t z = 16 + le_load(pack + 12, 4);
    *raw_len = le_load(pack + 4, 8);
    uint8_t *raw = malloc(*raw_len);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    ck_assert_int_eq(inflateInit(&zs), Z_OK);
    zs.next_in = (Bytef *)pack + z;
    zs.avail_in = (uInt)(len - z);
    zs.next_out = raw;
    zs.avail_out = (uInt)*raw_len;
    ck_assert_int_eq(inflate(&zs, Z_FINISH), Z_NEED_DICT);
    ck_assert_int_eq(inflateSetDictionary(&zs, dict, (uInt)dict_len), Z_OK);
    ck_assert_int_eq(inflate(&zs, Z_FINISH), Z_STREAM_END);
    inflateEnd(&zs);
    return raw;
}

/* Hand-made records are easiest in rows, the format up to version 3. */
static uint8_t *pack_of_raw(const uint8_t *raw, size_t raw_len, uint64_t declared, size_t *len)
{
    return pack_of_raw_v(3, raw, raw_len, declared, len);   // records in rows: still read
}

static void expect_refused(const uint8_t *raw, size_t raw_len, uint64_t declared, const char *why)
{
    size_t len;
    uint8_t *pack = pack_of_raw(raw, raw_len, declared, &len);
    char *text = NULL;
    struct err e = {0, ""};
    ck_assert_int_eq(replay_log(pack, len, &text, &e), ERR_PARSE);
    ck_assert_msg(strstr(e.msg, why) != NULL, "expected '%s' in '%s'", why, e.msg);
    free(text);
    free(pack);
}

/* Replays hand-made version 4 raw records: refused with `why`, or (NULL)
 * replayed without a word. */
static void expect_columns(const uint8_t *raw, size_t raw_len, const char *why)
{
    size_t len;
    uint8_t *pack = pack_of_raw_v(TRACE_PACK_VERSION, raw, raw_len, raw_len, &len);
    char *text = NULL;
    struct err e = {0, ""};
    int rc = replay_log(pack, len, &text, &e);
    if (why) {
        ck_assert_int_eq(rc, ERR_PARSE);
        ck_assert_msg(strstr(e.msg, why) != NULL, "expected '%s' in '%s'", why, e.msg);
    } else {
        ck_assert_msg(rc == 0, "%s", e.msg);
        ck_assert(!text || !text[0]);   // nothing replayed
    }
    free(text);
    free(pack);
}

START_TEST(pack_should_refuse_bad_records)
{
    inflate_by(_i);
    // An event: op 1, mask (name present), ph X, index delta 0, then a string id.
    const uint8_t bad_id[] = {1, 0x04, 1, 0, 7};
    expect_refused(bad_id, sizeof bad_id, sizeof bad_id, "string id out of range");
    const uint8_t long_string[] = {1, 0x04, 1, 0, 1, 100, 'a'};
    expect_refused(long_string, sizeof long_string, sizeof long_string, "string past the end");
    const uint8_t long_varint[] = {1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1};
    expect_refused(long_varint, sizeof long_varint, sizeof long_varint, "varint too long");
    const uint8_t unknown_op[] = {9, 0};
    expect_refused(unknown_op, sizeof unknown_op, sizeof unknown_op, "unknown record");
    const uint8_t no_end[] = {2, 0, 0, 0};
    expect_refused(no_end, sizeof no_end, sizeof no_end, "no end record");
    const uint8_t after_end[] = {0, 0};
    expect_refused(after_end, sizeof after_end, sizeof after_end, "bytes after the end");
    const uint8_t end[] = {0};
    expect_refused(end, sizeof end, 2, "length does not match");
    expect_refused(end, sizeof end, (uint64_t)1 << 40, "impossible length");
    const uint8_t bad_mask[] = {1, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 0, 0};
    expect_refused(bad_mask, sizeof bad_mask, sizeof bad_mask, "unknown event fields");
}
END_TEST

/* A document whose events carry these process group ranks. */
static char *ranks_doc(const char *const *ranks, size_t n)
{
    size_t cap = 1 << 16, at = 0;
    char *doc = malloc(cap);
    at += (size_t)snprintf(doc + at, cap - at, "{\"traceEvents\": [");
    for (size_t i = 0; i < n; i++)
        at += (size_t)snprintf(doc + at, cap - at,
                               "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"nccl\", "
                               "\"pid\": 0, \"tid\": 7, \"ts\": %zu, \"dur\": 1, "
                               "\"args\": {\"Process Group Ranks\": \"%s\"}}",
                               i ? "," : "", i, ranks[i]);
    snprintf(doc + at, cap - at, "]}");
    return doc;
}

static char *run_of(uint64_t first, uint64_t step, uint64_t count, uint64_t last_off)
{
    char *s = malloc(count * 24 + 3);
    size_t at = 0;
    s[at++] = '[';
    for (uint64_t i = 0; i < count; i++)
        at += (size_t)sprintf(s + at, "%s%llu", i ? ", " : "",
                              (unsigned long long)(first + i * step + (i + 1 == count ? last_off : 0)));
    s[at++] = ']';
    s[at] = '\0';
    return s;
}

START_TEST(pack_should_write_runs_of_ranks_and_replay_them)
{
    char *world = run_of(0, 1, 1024, 0), *near = run_of(0, 1, 1024, 1);
    char *strided = run_of(3, 8, 128, 0), *big = run_of(((uint64_t)1 << 50) - 41, 10, 4, 0);
    const char *const ranks[] = {
        world, strided, big, "[0, 1, 2, 3]",
        "[0, 1, 2]", "[0,1,2,3]", "[00, 1, 2, 3]", "[3, 2, 1, 0]", "[0, 1, 2, 4]",
        "[0, 1, 2, 3] ", "[0, 1, 2, 3", "[1, 1, 1, 1]", "[]", "[-1, 0, 1, 2]", "[0, 1, , 3]",
    };
    size_t n = sizeof ranks / sizeof ranks[0];
    char *doc = ranks_doc(ranks, n);
    char *plain = log_of_json(doc, NULL);
    size_t len;
    uint8_t *pack = make_pack(doc, &len);
    char *replayed = NULL;
    struct err e = {0, ""};
    ck_assert_int_eq(replay_log(pack, len, &replayed, &e), 0);
    ck_assert_str_eq(plain, replayed);
    ck_assert_ptr_nonnull(strstr(plain, "pgr='5b332c203131"));   /* "[3, 11" (the log is hex) */
    /* the world's ranks as a run, against the same text one value off */
    const char *const one[] = {world}, *const other[] = {near};
    char *d1 = ranks_doc(one, 1), *d2 = ranks_doc(other, 1);
    size_t l1, l2;
    uint8_t *p1 = make_pack(d1, &l1), *p2 = make_pack(d2, &l2);
    ck_assert_uint_lt(l1 + 1000, l2);
    free(d1), free(d2), free(p1), free(p2);
    free(doc), free(plain), free(replayed), free(pack);
    free(world), free(near), free(strided), free(big);
}
END_TEST

/* Many events over several blocks: new strings, threads, args, warnings
 * (elements that are no objects) and the metadata. */
static char *blocks_doc(size_t n)
{
    size_t cap = n * 256 + 256, at = 0;
    char *doc = malloc(cap);
    at += (size_t)snprintf(doc + at, cap - at,
                           "{\"distributedInfo\": {\"rank\": 5}, \"traceEvents\": [");
    for (size_t i = 0; i < n; i++) {
        if (i % 997 == 0)
            at += (size_t)snprintf(doc + at, cap - at, "%s[%zu]", i ? "," : "", i);
        at += (size_t)snprintf(doc + at, cap - at,
                               "%s{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"op%zu\", "
                               "\"pid\": %zu, \"tid\": %zu, \"ts\": %zu.%03zu, \"dur\": %zu",
                               ",", i % 3 ? "cpu_op" : "kernel", i % 6000, i % 2,
                               i % 5, 1000 + i * 3, i % 1000, i % 11);
        if (i % 3 == 0)
            at += (size_t)snprintf(doc + at, cap - at,
                                   ", \"args\": {\"stream\": %zu, \"correlation\": %zu}",
                                   7 + i % 2, i);
        at += (size_t)snprintf(doc + at, cap - at, "}");
    }
    snprintf(doc + at, cap - at, "]}");
    return doc;
}

/* blocks_doc(n) read through a new pack: the pack (finished, of the
 * version written: p owns it) and what the reader read. */
static struct trace_pack *blocks_pack(size_t n, char **doc, char **read, const uint8_t **pack,
                                      size_t *len)
{
    *doc = blocks_doc(n);
    struct trace_pack *p = trace_pack_new("blocks.json");
    *read = log_of_json(*doc, p);
    struct err e = {0, ""};
    ck_assert_int_eq(trace_pack_finish(p, pack, len, &e), 0);
    ck_assert_uint_eq(le_load(*pack, 4), TRACE_PACK_VERSION);
    return p;
}

START_TEST(pack_should_read_columns_in_blocks_and_refuse_bad_blocks)
{
    char *doc, *read;
    const uint8_t *pack;
    size_t len;
    struct trace_pack *p = blocks_pack(3 * 8192 + 123, &doc, &read, &pack, &len);
    struct err e = {0, ""};
    char *replayed = NULL;
    ck_assert_int_eq(replay_log(pack, len, &replayed, &e), 0);
    ck_assert_str_eq(replayed, read);
    ck_assert_ptr_nonnull(strstr(read, "name='6f7035393939"));   // "op5999", a late new string
    ck_assert_ptr_nonnull(strstr(read, "W "));
    free(replayed), free(read), free(doc);
    trace_pack_free(p);

    /* Hand-made blocks (version 4): the column count, then 17 lengths. */
    uint8_t raw[64];
    size_t at;
#define BLOCK(...)                                                       \
    do {                                                                 \
        const uint8_t b_[] = {__VA_ARGS__};                              \
        memcpy(raw + at, b_, sizeof b_);                                 \
        at += sizeof b_;                                                 \
    } while (0)
    /* Only the end record, in the first column. */
    at = 0;
    BLOCK(17, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    expect_columns(raw, at, NULL);
    /* Other column counts, lengths past the end, unread columns, two ends. */
    at = 0;
    BLOCK(18, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    expect_columns(raw, at, "unknown block");
    at = 0;
    BLOCK(17, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    expect_columns(raw, at, "block past the end");
    at = 0;
    BLOCK(17, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5);
    expect_columns(raw, at, "block with unread fields");
    at = 0;
    BLOCK(17, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5);
    expect_columns(raw, at, "bytes after the end");
    at = 0;
    BLOCK(17, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    BLOCK(17, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    expect_columns(raw, at, "bytes after the end");
    /* A warning (op 2) whose index and offset are in their columns but
     * whose text id is missing: the column ends inside the record. */
    at = 0;
    BLOCK(17, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0);
    expect_columns(raw, at, "truncated record");
    at = 0;
    expect_columns(raw, at, "no end record");
#undef BLOCK
}
END_TEST

/* Version 6 stores a block's string columns first. Its records, moved back
 * to the columns' enum order and called version 5, replay the same: the
 * order is the version's. */
START_TEST(pack_should_read_the_column_order_of_its_version)
{
    ck_assert_uint_eq(TRACE_PACK_VERSION, PACK_STRINGS_FIRST_VERSION);
    char *doc, *read;
    const uint8_t *pack;
    size_t len;
    struct trace_pack *p = blocks_pack(2 * 8192 + 5, &doc, &read, &pack, &len);
    struct err e = {0, ""};
    uint64_t raw_len;
    uint8_t *raw = records_of(pack, len, &raw_len), *v5 = malloc(raw_len);
    struct summary_file_cur c = {raw, raw + raw_len, 0};
    size_t blocks = 0;
    while (c.p < c.end) {
        const uint8_t *head = c.p;
        ck_assert_uint_eq(summary_file_get_varint(&c), PACK_NCOLS);
        uint64_t col_len[PACK_NCOLS], at[PACK_NCOLS], total = 0;
        for (int k = 0; k < PACK_NCOLS; k++)
            col_len[k] = summary_file_get_varint(&c);
        for (int i = 0; i < PACK_NCOLS; i++) {
            int k = pack_column_at(PACK_STRINGS_FIRST_VERSION, i);
            at[k] = total;
            total += col_len[k];
        }
        ck_assert(!c.bad && total <= (uint64_t)(c.end - c.p));
        if (blocks == 0)   // the first block adds the names (op0 to op5999)
            ck_assert_uint_gt(col_len[C_STRBYTES], 1000);
        uint8_t *out = v5 + (head - raw);
        memcpy(out, head, (size_t)(c.p - head));
        out += c.p - head;
        for (int k = 0; k < PACK_NCOLS; k++) {
            memcpy(out, c.p + at[k], col_len[k]);
            out += col_len[k];
        }
        c.p += total;
        blocks++;
    }
    ck_assert_uint_eq(blocks, 3);
    ck_assert(memcmp(raw, v5, raw_len) != 0);
    for (uint32_t version = 5; version <= 6; version++) {
        size_t vlen;
        uint8_t *vpack = pack_of_raw_v(version, version == 5 ? v5 : raw, raw_len, raw_len, &vlen);
        char *replayed = NULL;
        ck_assert_int_eq(replay_log(vpack, vlen, &replayed, &e), 0);
        ck_assert_str_eq(replayed, read);
        free(replayed), free(vpack);
    }
    free(raw), free(v5), free(read), free(doc);
    trace_pack_free(p);
}
END_TEST

START_TEST(pack_should_read_version_1_strings_and_refuse_bad_runs)
{
    /* A warning (op 2: index delta 0, offset 0) whose text is new string 1,
     * "abc", then the end: version 1 writes its length as is. */
    const uint8_t v1[] = {2, 0, 0, 1, 3, 'a', 'b', 'c', 0};
    size_t len;
    uint8_t *pack = pack_of_raw_v(1, v1, sizeof v1, sizeof v1, &len);
    char *text = NULL;
    struct err e = {0, ""};
    ck_assert_int_eq(replay_log(pack, len, &text, &e), 0);
    ck_assert_str_eq(text, "W 0 0 abc\n");
    free(text), free(pack);
    /* The same bytes in version 2: an odd length is a run (first 1, step
     * 'a', count 'b'), and 'c' is then no record. */
    expect_refused(v1, sizeof v1, sizeof v1, "unknown record");
    /* runs: step 0, 3 values, past the top */
    const uint8_t step0[] = {2, 0, 0, 1, 1, 0, 4, 0};
    expect_refused(step0, sizeof step0, sizeof step0, "bad run");
    const uint8_t three[] = {2, 0, 0, 1, 1, 1, 3, 0};
    expect_refused(three, sizeof three, sizeof three, "bad run");
    const uint8_t high[] = {2, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x03, 1, 4, 0};
    expect_refused(high, sizeof high, sizeof high, "bad run");
    /* a good run: [5, 7, 9, 11] */
    const uint8_t good[] = {2, 0, 0, 1, 11, 2, 4, 0};
    pack = pack_of_raw(good, sizeof good, sizeof good, &len);
    ck_assert_int_eq(replay_log(pack, len, &text, &e), 0);
    ck_assert_str_eq(text, "W 0 0 [5, 7, 9, 11]\n");
    free(text), free(pack);
}
END_TEST

START_TEST(pack_should_refuse_another_version)
{
    size_t len;
    uint8_t *pack = make_pack(rich_doc, &len);
    pack[0] = TRACE_PACK_VERSION_MAX + 1;
    char *text = NULL;
    struct err e = {0, ""};
    ck_assert_int_eq(replay_log(pack, len, &text, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "another version"));
    free(text);
    free(pack);
}
END_TEST

/* A file read by two threads (trace_read_file_split) is packed by two
 * recorders: the first thread's takes the elements before index k, the
 * second's (trace_pack_mark_second) those from k on, numbered from 0, and
 * trace_pack_adopt joins them before the metadata. The replay is the one
 * reader's, whatever k: strings new to either half or known to both, several
 * blocks a half, warnings in either. */
struct halves {
    struct trace_pack *first, *second;
    struct trace_sink to_first, to_second;
    uint64_t k;
    bool adopted;
};

static int route_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    struct halves *h = ctx;
    if (ev->index < h->k)
        return h->to_first.event(h->to_first.ctx, ev, e);
    struct trace_event moved = *ev;
    moved.index -= h->k;
    return h->to_second.event(h->to_second.ctx, &moved, e);
}

static void route_warning(void *ctx, const struct trace_warning *w)
{
    struct halves *h = ctx;
    struct trace_warning moved = *w;
    if (w->index >= h->k)
        moved.index -= h->k;
    (w->index < h->k ? &h->to_first : &h->to_second)->warning(
        (w->index < h->k ? &h->to_first : &h->to_second)->ctx, &moved);
}

static int route_meta(void *ctx, const struct trace_meta *m, struct err *e)
{
    struct halves *h = ctx;
    ck_assert_int_eq(trace_pack_adopt(h->first, h->second, h->k), 0);
    h->adopted = true;
    return h->to_first.meta(h->to_first.ctx, m, e);
}

/* Many elements (several blocks), names new and repeated, and malformed
 * ones (warnings) on both sides of any k tried. */
static char *many_elements(size_t n)
{
    size_t cap = n * 200 + 256, len = 0;
    char *doc = malloc(cap);
    ck_assert_ptr_nonnull(doc);
    len += (size_t)snprintf(doc + len, cap - len, "{\"traceEvents\": [");
    for (size_t i = 0; i < n; i++) {
        if (i % 997 == 5)
            len += (size_t)snprintf(doc + len, cap - len, "{\"ph\": 5},");
        else
            len += (size_t)snprintf(doc + len, cap - len,
                                    "{\"ph\": \"X\", \"cat\": \"c%zu\", \"name\": \"n%zu\", "
                                    "\"pid\": %zu, \"tid\": %zu, \"ts\": %zu, \"dur\": 3, "
                                    "\"args\": {\"correlation\": %zu}},",
                                    i % 3, i % 1500 + (i > n / 2 ? i : 0), i % 2, i % 5, 10 * i,
                                    i);
    }
    len += (size_t)snprintf(doc + len, cap - len,
                            "{}], \"distributedInfo\": {\"rank\": 2}, \"displayTimeUnit\": "
                            "\"late unit\"}");
    return doc;
}

START_TEST(pack_of_two_halves_should_replay_as_one_reader)
{
    inflate_by(_i);
    size_t n = 8 * 8192 + 77;   // past the 1 MiB of records a replay on two threads needs
    char *doc = many_elements(n);
    struct trace_pack *whole = trace_pack_new("doc");
    char *expected = log_of_json(doc, whole);
    trace_pack_free(whole);
    static const uint64_t ks[] = {0, 1, 4000, 8192, 45000};
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        struct event_log log;
        struct trace_sink logged = event_log_sink(&log);
        struct halves h = {0};
        h.first = trace_pack_new("doc");
        h.second = trace_pack_new("doc");
        h.k = ks[t];
        ck_assert_ptr_nonnull(h.first);
        ck_assert_ptr_nonnull(h.second);
        trace_pack_mark_second(h.second);
        trace_pack_sink(h.first, &logged, &h.to_first);
        trace_pack_sink(h.second, &logged, &h.to_second);
        struct trace_sink route = {&h, route_event, route_warning, route_meta, NULL};
        struct err e = {0, ""};
        ck_assert_int_eq(trace_read_buffer("doc", doc, strlen(doc), &route, NULL, &e), 0);
        ck_assert(h.adopted);
        event_log_fini(&log);
        const uint8_t *pack;
        size_t len;
        ck_assert_int_eq(trace_pack_finish(h.first, &pack, &len, &e), 0);
        ck_assert_uint_eq(le_load(pack, 4), TRACE_PACK_VERSION);
        char *text = NULL;
        ck_assert_msg(replay_log(pack, len, &text, &e) == 0, "k %llu: %s",
                      (unsigned long long)h.k, e.msg);
        ck_assert_str_eq(text, expected);
        free(text);
        // and on two threads, the second starting at a middle block (which
        // may be the second half's): every element as one thread gives it
        struct seen one = {0}, head = {0}, tail = {0};
        struct trace_sink one_sink = {&one, see_event, NULL, NULL, NULL};
        ck_assert_int_eq(trace_unpack("pack", pack, len, NULL, &one_sink, NULL, &e), 0);
        struct trace_sink head_sink = {&head, see_event, NULL, NULL, NULL};
        struct trace_sink tail_sink = {&tail, see_event, NULL, NULL, NULL};
        struct adoption a = {0, 0, 0};
        struct trace_split_opts split = {&tail_sink, adopt_answer, &a};
        ck_assert_int_eq(trace_unpack_split("pack", pack, len, NULL, &head_sink, &split, NULL, &e),
                         0);
        ck_assert_int_eq(a.calls, 1);
        ck_assert_uint_eq(head.n + tail.n, one.n);
        for (size_t i = 0; i < one.n; i++)
            ck_assert_str_eq(i < head.n ? head.line[i] : tail.line[i - head.n], one.line[i]);
        seen_fini(&one), seen_fini(&head), seen_fini(&tail);
        trace_pack_free(h.first);
        trace_pack_free(h.second);
    }
    free(expected);
    free(doc);
    inflate_by(0);
}
END_TEST

START_TEST(pack_should_deflate_with_the_frozen_dictionary)
{
    inflate_by(_i);
    /* The dictionary is part of the format: the bytes every pack of version
     * 3 and every summary of format 1.2 was made with. */
    size_t dict_len;
    const unsigned char *dict = trace_pack_dictionary(&dict_len);
    ck_assert_uint_eq(dict_len, 29116);
    uLong id = adler32(adler32(0L, Z_NULL, 0), dict, (uInt)dict_len);
    ck_assert_uint_eq(id, 0x7366751cUL);
    ck_assert_ptr_nonnull(memmem(dict, dict_len, "\naten::mm\n", 10));

    /* A pack's zlib stream names it (FDICT and its Adler-32 after the two
     * header bytes), and replays. */
    size_t len;
    uint8_t *pack = make_pack(rich_doc, &len);
    size_t path_len = le_load(pack + 12, 4), z = 16 + path_len;
    ck_assert(pack[z + 1] & 0x20);
    ck_assert_uint_eq(((uLong)pack[z + 2] << 24) | ((uLong)pack[z + 3] << 16) |
                          ((uLong)pack[z + 4] << 8) | pack[z + 5], id);
    char *text = NULL;
    struct err e = {0, ""};
    ck_assert_int_eq(replay_log(pack, len, &text, &e), 0);
    free(text);

    /* A stream made with another dictionary is refused, naming the pack. */
    uint64_t raw_len;
    uint8_t *raw = records_of(pack, len, &raw_len);
    z_stream zs;
    uint8_t *other = malloc(z + compressBound((uLong)raw_len) + 16);
    memcpy(other, pack, z);
    memset(&zs, 0, sizeof zs);
    ck_assert_int_eq(deflateInit(&zs, 6), Z_OK);
    ck_assert_int_eq(deflateSetDictionary(&zs, (const Bytef *)"aten::mm", 8), Z_OK);
    zs.next_in = raw;
    zs.avail_in = (uInt)raw_len;
    zs.next_out = other + z;
    zs.avail_out = (uInt)(compressBound((uLong)raw_len) + 16);
    ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
    size_t other_len = z + zs.total_out;
    deflateEnd(&zs);
    ck_assert_int_eq(replay_log(other, other_len, &text, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "pack"));
    ck_assert_ptr_nonnull(strstr(e.msg, "unknown dictionary"));
    free(text);
    free(other);

    /* The names Kineto traces repeat cost a few bytes each, not their text:
     * the same records deflated without it are larger. */
    uLongf plain = compressBound((uLong)raw_len);
    uint8_t *zb = malloc(plain);
    ck_assert_int_eq(compress2(zb, &plain, raw, (uLong)raw_len, 6), Z_OK);
    free(raw), free(zb), free(pack);
    static const char *common =
        "{\"traceEvents\": ["
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::linear\", \"ts\": 1, \"dur\": 9},"
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::addmm\", \"ts\": 2, \"dur\": 7},"
        "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"ts\": 3,"
        " \"dur\": 2},"
        "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"Optimizer.step#AdamW.step\","
        " \"ts\": 5, \"dur\": 4}]}";
    pack = make_pack(common, &len);
    z = 16 + le_load(pack + 12, 4);
    ck_assert_int_eq(replay_log(pack, len, &text, &e), 0);
    free(text);
    raw = records_of(pack, len, &raw_len);
    plain = compressBound((uLong)raw_len);
    zb = malloc(plain);
    ck_assert_int_eq(compress2(zb, &plain, raw, (uLong)raw_len, 6), Z_OK);
    ck_assert_uint_lt(len - z + 40, plain);
    free(raw), free(zb), free(pack);
}
END_TEST

Suite *trace_pack_suite(void)
{
    Suite *s = suite_create("trace_pack");
    TCase *t = tcase_create("pack");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, pack_should_replay_what_the_reader_read, 0, 2);
    tcase_add_test(t, pack_replay_should_name_its_source);
    tcase_add_loop_test(t, pack_should_refuse_damage, 0, 2);
    tcase_add_large_test(t, pack_deflated_behind_should_be_the_same_pack);
    tcase_add_large_test(t, pack_should_replay_on_two_threads_as_on_one);
    tcase_add_loop_test(t, pack_should_refuse_bad_records, 0, 2);
    tcase_add_test(t, pack_should_write_runs_of_ranks_and_replay_them);
    tcase_add_test(t, pack_should_read_version_1_strings_and_refuse_bad_runs);
    tcase_add_large_test(t, pack_should_read_columns_in_blocks_and_refuse_bad_blocks);
    tcase_add_large_test(t, pack_should_read_the_column_order_of_its_version);
    tcase_add_test(t, pack_should_refuse_another_version);
    tcase_add_large_loop_test(t, pack_of_two_halves_should_replay_as_one_reader, 0, 2);
    tcase_add_loop_test(t, pack_should_deflate_with_the_frozen_dictionary, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
