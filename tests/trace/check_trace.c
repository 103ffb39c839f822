#include "config.h"

#include "check_trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "trace/jstring.h"
#include "trace/number.h"
#include "trace/read.h"
#include "trace/scan.h"
#include "trace/source.h"

/* ---- helpers ---- */

static char *dup_str(struct trace_str s)
{
    char *p = malloc(s.len + 1);
    ck_assert_ptr_nonnull(p);
    if (s.len)
        memcpy(p, s.s, s.len);
    p[s.len] = '\0';
    return p;
}

static int keep_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)e;
    struct collect *c = ctx;
    if (c->nevents == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 16;
        c->events = realloc(c->events, c->cap * sizeof *c->events);
        ck_assert_ptr_nonnull(c->events);
    }
    struct kept_event *k = &c->events[c->nevents++];
    memset(k, 0, sizeof *k);
    k->index = ev->index;
    k->ph = ev->ph;
    k->name = dup_str(ev->name);
    k->name_len = ev->name.len;
    k->cat = dup_str(ev->cat);
    k->pid = dup_str(ev->pid);
    k->tid = dup_str(ev->tid);
    k->arg_name = dup_str(ev->arg_name);
    k->has_name = ev->has_name;
    k->has_cat = ev->has_cat;
    k->pid_is_num = ev->pid_is_num;
    k->tid_is_num = ev->tid_is_num;
    k->ts = ev->ts;
    k->dur = ev->dur;
    k->stream = ev->stream;
    k->correlation = ev->correlation;
    k->bytes = ev->bytes;
    k->flow_id = ev->flow_id;
    k->mem_bw_gbps = ev->mem_bw_gbps;
    k->has_mem_bw = ev->has_mem_bw;
    k->flow_bind_enclosing = ev->flow_bind_enclosing;
    return 0;
}

static void keep_warning(void *ctx, const struct trace_warning *w)
{
    struct collect *c = ctx;
    if (c->nwarnings < sizeof c->warnings / sizeof c->warnings[0])
        c->warnings[c->nwarnings] = *w;
    c->nwarnings++;
}

static int keep_meta(void *ctx, const struct trace_meta *m, struct err *e)
{
    (void)e;
    struct collect *c = ctx;
    c->meta = *m;
    c->meta_calls++;
    return 0;
}

static int keep_progress(void *ctx, uint64_t bytes)
{
    struct collect *c = ctx;
    c->progress_calls++;
    ck_assert_uint_ge(bytes, c->last_progress);
    c->last_progress = bytes;
    return c->cancel_at_progress && c->progress_calls >= c->cancel_at_progress;
}

struct trace_sink collect_sink(struct collect *c)
{
    return (struct trace_sink){.ctx = c, .event = keep_event, .warning = keep_warning,
                               .meta = keep_meta, .progress = keep_progress};
}

void collect_fini(struct collect *c)
{
    for (size_t i = 0; i < c->nevents; i++) {
        struct kept_event *k = &c->events[i];
        free(k->name);
        free(k->cat);
        free(k->pid);
        free(k->tid);
        free(k->arg_name);
    }
    free(c->events);
    memset(c, 0, sizeof *c);
}

int load_bytes(const void *buf, size_t len, struct collect *c, const struct trace_limits *lim,
               size_t buf_size, struct err *e)
{
    struct trace_sink sink = collect_sink(c);
    struct trace_source_opts o = {.max_uncompressed = lim ? lim->max_uncompressed : 0,
                                  .progress = sink.progress, .progress_ctx = c};
    struct trace_source *src = trace_source_open_buffer(buf, len, &o, e);
    ck_assert_ptr_nonnull(src);
    int rc = trace_read_source(src, "test", &sink, lim, buf_size, e);
    trace_source_close(src);
    return rc;
}

int load_text(const char *text, struct collect *c, const struct trace_limits *lim,
              size_t buf_size, struct err *e)
{
    return load_bytes(text, strlen(text), c, lim, buf_size, e);
}

char *srcdir_path(const char *rel)
{
    const char *dir = getenv("HTX_SRCDIR");
    if (!dir)
        dir = "..";
    size_t n = strlen(dir) + strlen(rel) + 2;
    char *p = malloc(n);
    ck_assert_ptr_nonnull(p);
    snprintf(p, n, "%s/%s", dir, rel);
    return p;
}

unsigned char *gzip_bytes(const void *buf, size_t len, size_t *out_len)
{
    z_stream z = {0};
    ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&z, (uLong)len);
    unsigned char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    z.next_in = (unsigned char *)(uintptr_t)buf;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

char *doc_with(const char *elements)
{
    size_t n = strlen(elements) + 64;
    char *p = malloc(n);
    ck_assert_ptr_nonnull(p);
    snprintf(p, n, "{\"traceEvents\": [%s]}", elements);
    return p;
}

/* ---- numbers ---- */

static struct trace_time time_of(const char *s)
{
    struct trace_time t;
    ck_assert_msg(trace_number_time(s, strlen(s), &t), "%s should convert", s);
    return t;
}

START_TEST(number_should_keep_every_digit_of_a_timestamp)
{
    struct trace_time t = time_of("1682725898236567.123");
    ck_assert_int_eq(t.ns, INT64_C(1682725898236567123));
    ck_assert(t.is_float);
    ck_assert(t.present);
    ck_assert(t.us == strtod("1682725898236567.123", NULL));
    t = time_of("1682725898236567");
    ck_assert_int_eq(t.ns, INT64_C(1682725898236567000));
    ck_assert(!t.is_float);
    ck_assert(t.us == 1682725898236567.0);
}
END_TEST

START_TEST(number_should_apply_exponents_exactly)
{
    ck_assert_int_eq(time_of("1.5e3").ns, 1500000);
    ck_assert_int_eq(time_of("15E-1").ns, 1500);
    ck_assert_int_eq(time_of("1e-3").ns, 1);
    ck_assert_int_eq(time_of("1e+2").ns, 100000);
    ck_assert_int_eq(time_of("1.682725898236567123e15").ns, INT64_C(1682725898236567123));
    ck_assert_int_eq(time_of("0e999999999").ns, 0);
    ck_assert_int_eq(time_of("1e-400").ns, 0);
    ck_assert(time_of("1e2").is_float);
}
END_TEST

START_TEST(number_should_round_half_away_from_zero)
{
    ck_assert_int_eq(time_of("0.0005").ns, 1);
    ck_assert_int_eq(time_of("0.0004999999").ns, 0);
    ck_assert_int_eq(time_of("-0.0005").ns, -1);
    ck_assert_int_eq(time_of("-0.0015").ns, -2);
    ck_assert_int_eq(time_of("2.0004").ns, 2000);
    ck_assert_int_eq(time_of("5e-4").ns, 1);
    ck_assert_int_eq(time_of("4e-5").ns, 0);
}
END_TEST

START_TEST(number_should_handle_negatives_and_float_zero)
{
    struct trace_time t = time_of("-12");
    ck_assert_int_eq(t.ns, -12000);
    ck_assert(t.us == -12.0);
    t = time_of("123.0");
    ck_assert_int_eq(t.ns, 123000);
    ck_assert(t.is_float);
    t = time_of("-0");
    ck_assert_int_eq(t.ns, 0);
    ck_assert(signbit(t.us));
}
END_TEST

START_TEST(number_should_agree_between_plain_and_exponent_forms)
{
    static const char *const pairs[][2] = {
        {"12345.6785", "1234567.85e-2"}, {"4458676523262.001", "4.458676523262001e12"},
        {"-0.0015", "-15e-4"}, {"0.0004999999999999999999", "4.999999999999999999e-4"},
        {"1682725898236567.5", "16827258982365675E-1"}, {"99.9995", "999995e-4"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        struct trace_time a = time_of(pairs[i][0]), b = time_of(pairs[i][1]);
        ck_assert_msg(a.ns == b.ns, "%s: %lld != %lld", pairs[i][0], (long long)a.ns,
                      (long long)b.ns);
        ck_assert(a.us == b.us);
        ck_assert(a.us == strtod(pairs[i][0], NULL));
    }
    ck_assert_int_eq(time_of("99.9995").ns, 100000);
    ck_assert_int_eq(time_of("4458676523262.001").ns, INT64_C(4458676523262001));
}
END_TEST

START_TEST(number_should_report_overflow)
{
    struct trace_time t;
    ck_assert(!trace_number_time("9223372036854775.808", 20, &t));
    ck_assert(!t.present);
    ck_assert(trace_number_time("9223372036854775.807", 20, &t));
    ck_assert_int_eq(t.ns, INT64_MAX);
    ck_assert(trace_number_time("-9223372036854775.808", 21, &t));
    ck_assert_int_eq(t.ns, INT64_MIN);
    ck_assert(!trace_number_time("1e400", 5, &t));
    ck_assert(!trace_number_time("99999999999999999999", 20, &t));
    int64_t v;
    ck_assert(!trace_number_scaled("9223372036854775808", 19, 0, false, &v, NULL));
    ck_assert(trace_number_scaled("-9223372036854775808", 20, 0, false, &v, NULL));
    ck_assert_int_eq(v, INT64_MIN);
}
END_TEST

START_TEST(number_should_scan_only_strict_json)
{
    ck_assert_uint_eq(trace_number_scan("01", 2), 1);
    ck_assert_uint_eq(trace_number_scan("1.", 2), 0);
    ck_assert_uint_eq(trace_number_scan(".5", 2), 0);
    ck_assert_uint_eq(trace_number_scan("-", 1), 0);
    ck_assert_uint_eq(trace_number_scan("1e", 2), 0);
    ck_assert_uint_eq(trace_number_scan("1e+5,", 5), 4);
    ck_assert_uint_eq(trace_number_scan("-0.25E-3}", 9), 8);
    ck_assert_uint_eq(trace_number_scan("+1", 2), 0);
}
END_TEST

START_TEST(number_should_truncate_integers_and_tell_exactness)
{
    int64_t v;
    bool exact;
    ck_assert(trace_number_scaled("7.9", 3, 0, false, &v, &exact));
    ck_assert_int_eq(v, 7);
    ck_assert(!exact);
    ck_assert(trace_number_scaled("-7.9", 4, 0, false, &v, &exact));
    ck_assert_int_eq(v, -7);
    ck_assert(trace_number_scaled("3.0e2", 5, 0, false, &v, &exact));
    ck_assert_int_eq(v, 300);
    ck_assert(exact);
    ck_assert(trace_number_scaled("0.001", 5, 0, false, &v, &exact));
    ck_assert_int_eq(v, 0);
    ck_assert(!exact);
}
END_TEST

START_TEST(number_should_write_canonical_text)
{
    char out[32];
    size_t n = trace_number_canonical("3.0e2", 5, out, sizeof out);
    ck_assert_int_eq((int)n, 3);
    ck_assert(memcmp(out, "300", 3) == 0);
    n = trace_number_canonical("1.5", 3, out, sizeof out);
    ck_assert(n == 3 && memcmp(out, "1.5", 3) == 0);
    n = trace_number_canonical("-0", 2, out, sizeof out);
    ck_assert(n == 1 && out[0] == '0');
    ck_assert(trace_number_is_canonical("3113936", 7));
    ck_assert(!trace_number_is_canonical("03", 2));
    ck_assert(!trace_number_is_canonical("-0", 2));
    ck_assert(!trace_number_is_canonical("1.0", 3));
}
END_TEST

START_TEST(number_should_give_the_double_strtod_gives)
{
    static const char *const samples[] = {
        "0", "1", "-1", "0.1", "1661203462598738", "1682725898236567.123", "12.5",
        "2.048", "9007199254740993", "1e22", "1e23", "123456789012345678", "4.35",
        "0.000001", "1712195495505543.2", "-3.5e-7", "17976931348623157e292",
    };
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        double want = strtod(samples[i], NULL);
        double got = trace_number_double(samples[i], strlen(samples[i]));
        ck_assert_msg(got == want, "%s: %.17g != %.17g", samples[i], got, want);
    }
}
END_TEST

/* ---- strings ---- */

static long decode(const char *s, char *out)
{
    return trace_jstring_decode(s, strlen(s), out);
}

START_TEST(jstring_should_decode_escapes)
{
    char out[64];
    long n = decode("a\\\"b\\\\c\\/d\\n\\t\\b\\f\\r", out);
    ck_assert_int_eq(n, 12);
    ck_assert(memcmp(out, "a\"b\\c/d\n\t\b\f\r", 12) == 0);
    n = decode("caf\\u00e9 \\u20AC", out);
    ck_assert_int_eq(n, 9);
    ck_assert(memcmp(out, "caf\xc3\xa9 \xe2\x82\xac", 9) == 0);
    n = decode("\\ud83d\\ude00", out);
    ck_assert_int_eq(n, 4);
    ck_assert(memcmp(out, "\xf0\x9f\x98\x80", 4) == 0);
    n = decode("nul\\u0000x", out);
    ck_assert_int_eq(n, 6);
    ck_assert(memcmp(out, "nul\xc0\x80x", 6) == 0);
}
END_TEST

START_TEST(jstring_should_reject_invalid_escapes)
{
    char out[64];
    ck_assert_int_lt(decode("\\x41", out), 0);
    ck_assert_int_lt(decode("\\u12G4", out), 0);
    ck_assert_int_lt(decode("\\u12", out), 0);
    ck_assert_int_lt(decode("\\ud83d", out), 0);
    ck_assert_int_lt(decode("\\ud83dx\\ude00", out), 0);
    ck_assert_int_lt(decode("\\ude00\\ud83d", out), 0);
    ck_assert_int_lt(decode("\\ud83d\\u0041", out), 0);
    ck_assert_int_lt(decode("ab\\", out), 0);
}
END_TEST

START_TEST(jstring_should_find_the_closing_quote)
{
    const char *s = "ab\\\"c\\\\\" rest";
    bool esc = false;
    const char *q = trace_jstring_end(s, s + strlen(s), &esc);
    ck_assert_ptr_eq(q, s + 7);
    ck_assert(esc);
    s = "plain text that is longer than eight bytes\" x";
    q = trace_jstring_end(s, s + strlen(s), &esc);
    ck_assert_ptr_eq(q, s + 42);
    ck_assert(!esc);
    s = "no end \\\"";
    ck_assert_ptr_null(trace_jstring_end(s, s + strlen(s), &esc));
    s = "ends in a backslash \\";
    ck_assert_ptr_null(trace_jstring_end(s, s + strlen(s), &esc));
}
END_TEST

/* ---- the splitter and the document scanner ---- */

static enum trace_split_result split_all(const char *text, int max_depth, size_t *len)
{
    struct trace_split sp;
    trace_split_init(&sp, max_depth);
    enum trace_split_result r = trace_split_run(&sp, text, strlen(text), true);
    *len = sp.pos;
    return r;
}

START_TEST(split_should_respect_strings_and_escapes)
{
    const char *text = "{\"a\": \"}]\\\"{[\", \"b\": [\"\\\\\", {}]} , 1";
    size_t len;
    ck_assert_int_eq(split_all(text, 512, &len), TRACE_SPLIT_DONE);
    ck_assert_uint_eq(len, strlen(text) - 4);
    ck_assert_int_eq(split_all("\"x\\\"]\" ,", 512, &len), TRACE_SPLIT_DONE);
    ck_assert_uint_eq(len, 6);
    ck_assert_int_eq(split_all("-12.5e3]", 512, &len), TRACE_SPLIT_DONE);
    ck_assert_uint_eq(len, 7);
    ck_assert_int_eq(split_all(",", 512, &len), TRACE_SPLIT_BAD);
    ck_assert_int_eq(split_all("[[[1]]]", 2, &len), TRACE_SPLIT_DEPTH);
    ck_assert_uint_eq(len, 2);
}
END_TEST

START_TEST(split_should_resume_byte_by_byte)
{
    const char *text = "{\"k\\\\\": [\"a\\\"b\", {\"c\": \"]\"}], \"z\": 1} tail";
    size_t total = strlen(text);
    struct trace_split sp;
    trace_split_init(&sp, 512);
    enum trace_split_result r = TRACE_SPLIT_MORE;
    size_t n = 0;
    while (r == TRACE_SPLIT_MORE && n < total)
        r = trace_split_run(&sp, text, ++n, false);
    ck_assert_int_eq(r, TRACE_SPLIT_DONE);
    ck_assert_uint_eq(sp.pos, total - 5);
}
END_TEST

START_TEST(scan_should_read_elements_split_across_refills)
{
    char *path = srcdir_path("tests/data/trace/small.json");
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    free(path);
    text[n] = '\0';
    struct collect ref = {0};
    struct err e = {0};
    ck_assert_int_eq(load_text(text, &ref, NULL, 0, &e), 0);
    ck_assert_uint_eq(ref.nevents, 8);
    for (size_t bs = 1; bs < 40; bs++) {
        struct collect c = {0};
        ck_assert_msg(load_text(text, &c, NULL, bs, &e) == 0, "buffer %zu: %s", bs, e.msg);
        ck_assert_uint_eq(c.nevents, ref.nevents);
        for (size_t i = 0; i < c.nevents; i++) {
            ck_assert_str_eq(c.events[i].name, ref.events[i].name);
            ck_assert_int_eq(c.events[i].ts.ns, ref.events[i].ts.ns);
            ck_assert_int_eq(c.events[i].correlation.v, ref.events[i].correlation.v);
        }
        ck_assert_int_eq(c.meta.rank, 1);
        collect_fini(&c);
    }
    collect_fini(&ref);
}
END_TEST

static void expect_error(const char *text, int code, const char *fragment)
{
    struct collect c = {0};
    struct err e = {0};
    int rc = load_text(text, &c, NULL, 0, &e);
    ck_assert_msg(rc == code, "%s: got %d (%s), want %d", text, rc, e.msg, code);
    ck_assert_msg(strstr(e.msg, fragment), "message \"%s\" lacks \"%s\"", e.msg, fragment);
    ck_assert_msg(strncmp(e.msg, "test: ", 6) == 0, "message \"%s\" lacks the name", e.msg);
    collect_fini(&c);
}

START_TEST(scan_should_reject_documents_that_are_not_traces)
{
    expect_error("", ERR_PARSE, "empty");
    expect_error("   \n", ERR_PARSE, "empty");
    expect_error("hello", ERR_PARSE, "byte 0: not a JSON object");
    expect_error("[{\"traceEvents\": []}]", ERR_PARSE, "not a JSON object");
    expect_error("{\"schemaVersion\": 1}", ERR_PARSE, "no \"traceEvents\"");
    expect_error("{}", ERR_PARSE, "no \"traceEvents\"");
    expect_error("{\"traceEvents\": []} x", ERR_PARSE, "byte 20: unexpected data after");
    expect_error("{\"traceEvents\": []}{}", ERR_PARSE, "unexpected data after");
    expect_error("{\"traceEvents\": {}}", ERR_PARSE, "byte 16: \"traceEvents\" is not an array");
    expect_error("{\"traceEvents\": [], \"traceEvents\": []}", ERR_PARSE, "second");
    expect_error("{\"traceEvents\": [{\"ph\": \"X\"}", ERR_PARSE, "truncated");
    expect_error("{\"traceEvents\": [{\"ph\": \"X", ERR_PARSE, "truncated");
    expect_error("{\"traceEvents\": [1,]}", ERR_PARSE, "byte 19: expected a JSON value");
    expect_error("{\"traceEvents\": [1 2]}", ERR_PARSE, "byte 19: expected ',' or ']'");
    expect_error("{\"traceEvents\": [] \"a\": 1}", ERR_PARSE, "expected ',' or '}'");
    expect_error("{\"traceEvents\" []}", ERR_PARSE, "expected ':'");
    expect_error("{1: 2}", ERR_PARSE, "expected a key");
}
END_TEST

START_TEST(scan_should_give_the_offset_of_invalid_json_in_an_element)
{
    /* The element starts at byte 17; cJSON stops at "tru", its byte 15. */
    expect_error("{\"traceEvents\": [{\"ts\": 1, \"x\": tru}]}", ERR_PARSE,
                 "byte 32: invalid JSON in traceEvents element 0");
    expect_error("{\"traceEvents\": [{}, {\"a\" 1}]}", ERR_PARSE, "traceEvents element 1");
    expect_error("{\"traceEvents\": [], \"x\": [1 2]}", ERR_PARSE, "invalid JSON in a top-level");
}
END_TEST

START_TEST(scan_should_enforce_the_nesting_limit)
{
    char text[4096];
    int depth = 600;
    size_t n = (size_t)snprintf(text, sizeof text, "{\"traceEvents\": [{\"a\": ");
    for (int i = 0; i < depth; i++)
        text[n++] = '[';
    for (int i = 0; i < depth; i++)
        text[n++] = ']';
    snprintf(text + n, sizeof text - n, "}]}");
    expect_error(text, ERR_LIMIT, "nests deeper than the limit of 512");
    struct collect c = {0};
    struct err e = {0};
    struct trace_limits lim = {.max_depth = 4};
    ck_assert_int_eq(load_text("{\"traceEvents\": [{\"args\": {\"a\": 1}}]}", &c, &lim, 0, &e), 0);
    ck_assert_int_eq(load_text("{\"traceEvents\": [{\"args\": {\"a\": [1]}}]}", &c, &lim, 0, &e),
                     ERR_LIMIT);
    ck_assert_int_eq(load_text("{\"traceEvents\": [], \"m\": [[[[1]]]]}", &c, &lim, 0, &e),
                     ERR_LIMIT);
    collect_fini(&c);
}
END_TEST

START_TEST(scan_should_take_deep_elements_through_cjson)
{
    /* Deeper than the fast path follows, within the limit: cJSON reads it. */
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "{\"traceEvents\": [{\"ph\": \"X\", \"args\": {\"deep\": ");
    for (int i = 0; i < 100; i++)
        text[n++] = '[';
    for (int i = 0; i < 100; i++)
        text[n++] = ']';
    snprintf(text + n, sizeof text - n, ", \"stream\": 3}, \"ts\": 5}]}");
    struct collect c = {0};
    struct err e = {0};
    ck_assert_int_eq(load_text(text, &c, NULL, 0, &e), 0);
    ck_assert_uint_eq(c.nevents, 1);
    ck_assert_int_eq(c.events[0].stream.v, 3);
    ck_assert_int_eq(c.events[0].ts.ns, 5000);
    collect_fini(&c);
}
END_TEST

START_TEST(scan_should_bound_element_size)
{
    size_t big = 3u << 20;
    char *text = malloc(big + 128);
    ck_assert_ptr_nonnull(text);
    size_t n = (size_t)sprintf(text, "{\"traceEvents\": [{\"ph\": \"X\", \"args\": {\"s\": \"");
    memset(text + n, 'x', big);
    n += big;
    sprintf(text + n, "\"}, \"ts\": 1}]}");
    struct collect c = {0};
    struct err e = {0};
    ck_assert_int_eq(load_text(text, &c, NULL, 4096, &e), 0);
    ck_assert_uint_eq(c.nevents, 1);
    struct trace_limits lim = {.max_event_bytes = 1u << 20};
    ck_assert_int_eq(load_text(text, &c, &lim, 4096, &e), ERR_LIMIT);
    ck_assert_ptr_nonnull(strstr(e.msg, "longer than the limit"));
    ck_assert_int_eq(load_text(text, &c, &lim, 0, &e), ERR_LIMIT);
    collect_fini(&c);
    free(text);
}
END_TEST

/* A document with a 5 MiB top-level value or element: a list of numbers,
 * strict JSON or (with lenient "01" items) not. */
static char *big_doc(bool in_element, bool strict)
{
    size_t items = (5u << 20) / 4, n = 0;
    char *text = malloc(items * 4 + 128);
    ck_assert_ptr_nonnull(text);
    n += (size_t)sprintf(text, in_element ? "{\"traceEvents\": [{\"a\": [" : "{\"x\": [");
    for (size_t i = 0; i < items; i++) {
        memcpy(text + n, strict ? "10, " : "01, ", 4);
        n += 4;
    }
    sprintf(text + n, in_element ? "1]}]}" : "1], \"traceEvents\": []}");
    return text;
}

START_TEST(scan_should_not_give_cjson_large_values)
{
    struct collect c = {0};
    struct err e = {0};
    for (int in_element = 0; in_element < 2; in_element++) {
        char *text = big_doc(in_element, true);
        ck_assert_msg(load_text(text, &c, NULL, 0, &e) == 0, "%s", e.msg);
        free(text);
        text = big_doc(in_element, false);
        ck_assert_int_eq(load_text(text, &c, NULL, 0, &e), ERR_LIMIT);
        ck_assert_msg(strstr(e.msg, "too large"), "%s", e.msg);
        free(text);
    }
    ck_assert_uint_eq(c.nevents, 1);
    collect_fini(&c);
}
END_TEST

static Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *t = tcase_create("number");
    tcase_add_test(t, number_should_keep_every_digit_of_a_timestamp);
    tcase_add_test(t, number_should_apply_exponents_exactly);
    tcase_add_test(t, number_should_round_half_away_from_zero);
    tcase_add_test(t, number_should_handle_negatives_and_float_zero);
    tcase_add_test(t, number_should_agree_between_plain_and_exponent_forms);
    tcase_add_test(t, number_should_report_overflow);
    tcase_add_test(t, number_should_scan_only_strict_json);
    tcase_add_test(t, number_should_truncate_integers_and_tell_exactness);
    tcase_add_test(t, number_should_write_canonical_text);
    tcase_add_test(t, number_should_give_the_double_strtod_gives);
    suite_add_tcase(s, t);
    t = tcase_create("jstring");
    tcase_add_test(t, jstring_should_decode_escapes);
    tcase_add_test(t, jstring_should_reject_invalid_escapes);
    tcase_add_test(t, jstring_should_find_the_closing_quote);
    suite_add_tcase(s, t);
    t = tcase_create("scan");
    tcase_add_test(t, split_should_respect_strings_and_escapes);
    tcase_add_test(t, split_should_resume_byte_by_byte);
    tcase_add_test(t, scan_should_read_elements_split_across_refills);
    tcase_add_test(t, scan_should_reject_documents_that_are_not_traces);
    tcase_add_test(t, scan_should_give_the_offset_of_invalid_json_in_an_element);
    tcase_add_test(t, scan_should_enforce_the_nesting_limit);
    tcase_add_test(t, scan_should_take_deep_elements_through_cjson);
    tcase_add_test(t, scan_should_bound_element_size);
    tcase_add_test(t, scan_should_not_give_cjson_large_values);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(trace_suite());
    srunner_add_suite(sr, trace_events_suite());
    srunner_add_suite(sr, trace_files_suite());
    srunner_add_suite(sr, trace_pack_suite());
    srunner_add_suite(sr, trace_deflater_suite());
    srunner_add_suite(sr, trace_bytescan_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
