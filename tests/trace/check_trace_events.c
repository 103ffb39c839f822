#include "config.h"

#include "check_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/fields.h"
#include "../memcheck.h"

/* The fields of events (both readers) and the document metadata. */

/* ---- fields of events ---- */

static struct collect load_ok(const char *elements)
{
    char *text = doc_with(elements);
    struct collect c = {0};
    struct err e = {0};
    ck_assert_msg(load_text(text, &c, NULL, 0, &e) == 0, "%s: %s", text, e.msg);
    free(text);
    return c;
}

START_TEST(event_should_read_every_field)
{
    struct collect c = load_ok(
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\\u00e9\\\"1\", \"pid\": 7, "
        "\"tid\": \"stream 7\", \"ts\": 1682725898236567.123, \"dur\": 12.0, "
        "\"args\": {\"stream\": 7, \"correlation\": 42, \"bytes\": 4096, "
        "\"memory bandwidth (GB/s)\": 2.5, \"name\": \"n\", \"grid\": [1, {\"x\": null}]}}");
    ck_assert_uint_eq(c.nevents, 1);
    struct kept_event *k = &c.events[0];
    ck_assert_int_eq(k->ph, TRACE_PH_X);
    ck_assert_str_eq(k->cat, "kernel");
    ck_assert_str_eq(k->name, "k\xc3\xa9\"1");
    ck_assert_str_eq(k->pid, "7");
    ck_assert(k->pid_is_num);
    ck_assert_str_eq(k->tid, "stream 7");
    ck_assert(!k->tid_is_num);
    ck_assert_int_eq(k->ts.ns, INT64_C(1682725898236567123));
    ck_assert_int_eq(k->dur.ns, 12000);
    ck_assert(k->dur.is_float);
    ck_assert(k->stream.present && k->stream.v == 7);
    ck_assert(k->correlation.present && k->correlation.v == 42);
    ck_assert(k->bytes.present && k->bytes.v == 4096);
    ck_assert(k->has_mem_bw && k->mem_bw_gbps == 2.5);
    ck_assert_str_eq(k->arg_name, "n");
    collect_fini(&c);
}
END_TEST

START_TEST(event_should_keep_only_numeric_streams)
{
    struct collect c = load_ok("{\"ph\": \"X\", \"args\": {\"stream\": \"0x0\"}},"
                               "{\"ph\": \"X\", \"args\": {\"stream\": 7.9}},"
                               "{\"ph\": \"X\", \"args\": {\"stream\": null,"
                               " \"correlation\": \"3\"}},"
                               "{\"ph\": \"X\", \"args\": \"none\"}");
    ck_assert_uint_eq(c.nevents, 4);
    ck_assert(!c.events[0].stream.present);
    ck_assert(c.events[1].stream.present && c.events[1].stream.v == 7);
    ck_assert(!c.events[2].stream.present);
    ck_assert(!c.events[2].correlation.present);
    ck_assert(!c.events[3].stream.present);
    collect_fini(&c);
}
END_TEST

START_TEST(event_should_pass_events_without_dur_or_cat)
{
    struct collect c = load_ok(
        "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 2,"
        " \"args\": {\"name\": \"t\"}},"
        "{\"ph\": \"s\", \"id\": 9, \"ts\": 1},"
        " {\"ph\": \"f\", \"id\": 9, \"ts\": 2, \"bp\": \"e\"},"
        "{}, {\"ph\": \"Q\"}, {\"name\": null, \"cat\": null, \"ts\": null}");
    ck_assert_uint_eq(c.nevents, 6);
    ck_assert_uint_eq(c.nwarnings, 0);
    ck_assert_int_eq(c.events[0].ph, TRACE_PH_M);
    ck_assert_str_eq(c.events[0].arg_name, "t");
    ck_assert(!c.events[0].dur.present && !c.events[0].has_cat);
    ck_assert_int_eq(c.events[1].ph, TRACE_PH_FLOW_S);
    ck_assert(c.events[1].flow_id.present && c.events[1].flow_id.v == 9);
    ck_assert(c.events[2].flow_bind_enclosing);
    ck_assert_int_eq(c.events[3].ph, TRACE_PH_NONE);
    ck_assert_int_eq(c.events[4].ph, TRACE_PH_OTHER);
    ck_assert(!c.events[5].has_name && !c.events[5].has_cat && !c.events[5].ts.present);
    for (size_t i = 0; i < 6; i++)
        ck_assert_uint_eq(c.events[i].index, i);
    collect_fini(&c);
}
END_TEST

START_TEST(event_should_warn_about_malformed_elements)
{
    const char *elements = "{\"ph\": \"X\", \"ts\": \"12\"},"   /* 0 */
                           "{\"ph\": \"X\", \"dur\": {}},"       /* 1 */
                           "1, \"x\", [], null,"                 /* 2..5 */
                           "{\"ph\": 5},"                         /* 6 */
                           "{\"name\": \"a\\qb\"},"               /* 7 */
                           "{\"pid\": [1]},"                      /* 8 */
                           "{\"ts\": 1e400},"                     /* 9 */
                           "{\"ph\": \"X\", \"ts\": 3}";          /* 10 */
    char *text = doc_with(elements);
    struct collect c = {0};
    struct err e = {0};
    ck_assert_int_eq(load_text(text, &c, NULL, 0, &e), 0);
    ck_assert_uint_eq(c.nevents, 1);
    ck_assert_uint_eq(c.events[0].index, 10);
    ck_assert_uint_eq(c.nwarnings, 10);
    ck_assert_str_eq(c.warnings[0].what, "\"ts\" is not a number");
    ck_assert_uint_eq(c.warnings[0].offset, 17);
    ck_assert_str_eq(c.warnings[1].what, "\"dur\" is not a number");
    for (size_t i = 2; i < 6; i++) {
        ck_assert_uint_eq(c.warnings[i].index, i);
        ck_assert_str_eq(c.warnings[i].what, "not a JSON object");
    }
    ck_assert_str_eq(c.warnings[6].what, "\"ph\" is not a string");
    ck_assert_str_eq(c.warnings[7].what, "invalid escape in a string");
    ck_assert_str_eq(c.warnings[8].what, "\"pid\" is not a string or a number");
    ck_assert_str_eq(c.warnings[9].what, "\"ts\" is out of range");
    ck_assert_uint_eq(c.warnings[9].index, 9);
    collect_fini(&c);
    free(text);
}
END_TEST

START_TEST(event_should_take_the_first_of_duplicate_keys)
{
    struct collect c = load_ok("{\"ts\": 1, \"ts\": \"x\", \"name\": \"a\", \"name\": \"b\","
                               " \"args\": {\"stream\": 1, \"stream\": 2},"
                               " \"args\": {\"stream\": 3}}");
    ck_assert_uint_eq(c.nevents, 1);
    ck_assert_int_eq(c.events[0].ts.ns, 1000);
    ck_assert_str_eq(c.events[0].name, "a");
    ck_assert_int_eq(c.events[0].stream.v, 1);
    collect_fini(&c);
}
END_TEST

START_TEST(event_should_match_keys_written_with_escapes)
{
    struct collect c = load_ok("{\"\\u0074s\": 4, \"args\": {\"memory bandwidth (GB\\/s)\": 1.5}}");
    ck_assert_int_eq(c.events[0].ts.ns, 4000);
    ck_assert(c.events[0].has_mem_bw && c.events[0].mem_bw_gbps == 1.5);
    collect_fini(&c);
}
END_TEST

static bool same_str(struct trace_str a, struct trace_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, a.len) == 0);
}

static bool same_int(struct trace_int a, struct trace_int b)
{
    return a.present == b.present && a.v == b.v;
}

/* The element t through the fast path and through cJSON: when the fast path
 * takes it, both must read the same fields, or both find it malformed (for
 * the same reason with same_reason: with two reasons, the paths may name
 * either). Returns whether the fast path took it. */
static bool check_both_paths(const char *t, size_t len, bool same_reason)
{
    size_t used = 0, at = 0;
    char s1[2048], s2[2048];
    ck_assert_uint_lt(len, sizeof s1 - TRACE_FIELDS_SLACK);
    struct trace_event a, b;
    const char *wa = NULL, *wb = NULL;
    void *tree = NULL;
    enum trace_fields_result ra = trace_fields_parse(t, len, s1, sizeof s1, 510, &a, &wa, &used);
    if (ra == TRACE_FIELDS_UNSUPPORTED)
        return false;
    enum trace_fields_result rb = trace_fields_parse_cjson(t, len, s2, &b, &wb, &at, &tree);
    ck_assert_msg(ra == rb, "%s: %d against %d", t, ra, rb);
    ck_assert_msg(used == len, "%s: %zu of %zu bytes", t, used, len);
    if (ra == TRACE_FIELDS_MALFORMED && same_reason)
        ck_assert_str_eq(wa, wb);
    bool same = a.ph == b.ph && same_str(a.name, b.name) && same_str(a.cat, b.cat) &&
                a.has_name == b.has_name && a.has_cat == b.has_cat && same_str(a.pid, b.pid) &&
                same_str(a.tid, b.tid) && a.pid_is_num == b.pid_is_num &&
                a.tid_is_num == b.tid_is_num && a.ts.present == b.ts.present &&
                a.ts.ns == b.ts.ns && a.ts.us == b.ts.us &&
                a.dur.present == b.dur.present && a.dur.ns == b.dur.ns &&
                same_int(a.stream, b.stream) && same_int(a.correlation, b.correlation) &&
                same_int(a.bytes, b.bytes) && a.has_mem_bw == b.has_mem_bw &&
                a.mem_bw_gbps == b.mem_bw_gbps && same_str(a.arg_name, b.arg_name) &&
                same_str(a.dtype, b.dtype) && same_int(a.group_size, b.group_size) &&
                same_int(a.seq, b.seq) && same_int(a.seq_lower, b.seq_lower) &&
                same_int(a.flow_id, b.flow_id) && a.flow_bind_enclosing == b.flow_bind_enclosing;
    ck_assert_msg(same || ra == TRACE_FIELDS_MALFORMED, "%s: the paths differ", t);
    trace_fields_free_tree(tree);
    return true;
}

START_TEST(event_should_read_the_same_fields_on_both_paths)
{
    static const char *const elements[] = {
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": \"s 7\","
        " \"ts\": 1661203462598738, \"dur\": 19, \"args\": {\"stream\": 7, \"correlation\": 42,"
        " \"bytes\": 8, \"memory bandwidth (GB/s)\": 0.25, \"name\": \"x\"}}",
        "{\"ph\": \"f\", \"id\": 3, \"bp\": \"e\", \"pid\": -4, \"tid\": 3e2, \"ts\": 12.5}",
        "{\"ph\": \"X\", \"ts\": \"no\"}",
        "{\"ph\": \"M\", \"name\": null, \"args\": {\"stream\": \"0x0\", \"name\": 1}}",
    };
    for (size_t i = 0; i < sizeof elements / sizeof elements[0]; i++)
        ck_assert(check_both_paths(elements[i], strlen(elements[i]), true));
}
END_TEST

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

#define PICK(x, list) (list)[next_random(x) % (sizeof(list) / sizeof(list)[0])]

/* Elements made of the keys the reader looks for, keys that look like them,
 * values of every kind, and the spacing writers use around ':' and ','.
 * (Not numbers of more than 15 digits, nor is_float: cJSON's doubles keep
 * fewer digits and no "1e3", event.h.) */
START_TEST(event_should_read_random_elements_as_cjson_does)
{
    static const char *const keys[] = {
        "ph", "ts", "dur", "cat", "name", "pid", "tid", "id", "bp", "p", "t", "tsx", "nam",
        "\\u0074s", "d\\u0075r", "External id", "pidd", "Ph", "args", "args"};
    static const char *const arg_keys[] = {
        "stream", "correlation", "bytes", "name", "External id", "Input Dims", "Seq", "seq",
        "dtype", "Group size", "Ev Idx", "memory bandwidth (GB/s)", "strea\\u006d", "Stream"};
    static const char *const values[] = {
        "1", "-7", "123456789012", "3541265256876", "0", "-0", "1.5", "12.250", "1e3", "-2E-2",
        "123456789012345", "-123456789012345", "1234567890123456", "0.0005",
        "\"X\"", "\"i\"", "\"s\"", "\"a\\\"b\"", "\"\\u00e9\"", "\"\"", "[]", "[[1, 2], []]",
        "{}", "{\"a\": [true, null]}", "null", "false", "true", "[\"float\", \"\"]",
        "[1,2,-30]", "[\"a\",\"b\\\"\", 7, [8, \"x\"], {\"k\": 1}, 0.5]", "[1, ]", "[1 , 2]",
        "[1,\n 2]", "[, 1]", "[1 2]", "[\"a\" \"b\"]", "[12345678901,1e5, -0]"};
    static const char *const spaces[] = {"", " ", "\n    ", " \n  "};
    uint64_t x = 88172645463325252u;
    int taken = 0, rounds = memcheck_rounds(20000);
    for (int round = 0; round < rounds; round++) {
        char t[1024];
        size_t n = 0;
        int members = (int)(next_random(&x) % 7);
        n += (size_t)snprintf(t + n, sizeof t - n, "{%s", PICK(&x, spaces));
        for (int m = 0; m < members; m++) {
            const char *key = PICK(&x, keys);
            n += (size_t)snprintf(t + n, sizeof t - n, "%s\"%s\"%s:%s", m ? "," : "", key,
                                  PICK(&x, spaces), PICK(&x, spaces));
            if (strcmp(key, "args") == 0) {
                int am = (int)(next_random(&x) % 4);
                n += (size_t)snprintf(t + n, sizeof t - n, "{");
                for (int k = 0; k < am; k++)
                    n += (size_t)snprintf(t + n, sizeof t - n, "%s%s\"%s\": %s", k ? "," : "",
                                          PICK(&x, spaces), PICK(&x, arg_keys),
                                          PICK(&x, values));
                n += (size_t)snprintf(t + n, sizeof t - n, "}");
            } else {
                n += (size_t)snprintf(t + n, sizeof t - n, "%s", PICK(&x, values));
            }
            n += (size_t)snprintf(t + n, sizeof t - n, "%s", PICK(&x, spaces));
        }
        n += (size_t)snprintf(t + n, sizeof t - n, "}");
        ck_assert_uint_lt(n, sizeof t);
        taken += check_both_paths(t, n, false);
    }
    ck_assert_int_gt(taken, rounds / 2);   /* the fast path takes most */
}
END_TEST

START_TEST(event_should_accept_what_cjson_accepts)
{
    /* "01" and a control byte as space are not strict JSON; cJSON reads them. */
    struct collect c = load_ok("{\"ph\": \"X\", \"ts\": 01, \"args\": {\x01\"stream\": 2}}");
    ck_assert_uint_eq(c.nevents, 1);
    ck_assert_int_eq(c.events[0].ts.ns, 1000);
    ck_assert_int_eq(c.events[0].stream.v, 2);
    collect_fini(&c);
}
END_TEST

/* ---- metadata ---- */

static void check_meta(const struct collect *c)
{
    ck_assert_int_eq(c->meta_calls, 1);
    ck_assert(c->meta.has_rank);
    ck_assert_int_eq(c->meta.rank, 3);
    ck_assert(c->meta.has_world_size);
    ck_assert_int_eq(c->meta.world_size, 8);
    ck_assert_str_eq(c->meta.backend, "nccl");
    ck_assert(c->meta.has_base_time);
    ck_assert_int_eq(c->meta.base_time_ns, INT64_C(1712195479000000123));
    ck_assert_str_eq(c->meta.display_time_unit, "ns");
    ck_assert_int_eq(c->meta.device_properties, 2);
    ck_assert_str_eq(c->meta.device_name, "GPU \"A\"");
}

START_TEST(meta_should_be_read_before_or_after_trace_events)
{
    const char *meta = "\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3,"
                       " \"world_size\": 8},"
                       "\"baseTimeNanoseconds\": 1712195479000000123, \"displayTimeUnit\": \"ns\","
                       "\"deviceProperties\": [{\"name\": \"GPU \\\"A\\\"\"}, {\"name\": \"B\"}]";
    char text[1024];
    struct err e = {0};
    snprintf(text, sizeof text, "{%s, \"traceEvents\": [{\"ph\": \"X\"}]}", meta);
    struct collect c = {0};
    ck_assert_int_eq(load_text(text, &c, NULL, 0, &e), 0);
    check_meta(&c);
    collect_fini(&c);
    snprintf(text, sizeof text, "{\"traceEvents\": [{\"ph\": \"X\"}], %s, \"distributedInfo\": {"
             "\"rank\": 5}}", meta);
    ck_assert_int_eq(load_text(text, &c, NULL, 7, &e), 0);
    check_meta(&c);
    ck_assert_uint_eq(c.nevents, 1);
    collect_fini(&c);
}
END_TEST

START_TEST(meta_should_be_empty_without_top_level_facts)
{
    struct collect c = {0};
    struct err e = {0};
    ck_assert_int_eq(load_text("{\"traceEvents\": [], \"distributedInfo\": {\"rank\": \"2\"}}", &c,
                               NULL, 0, &e), 0);
    ck_assert_int_eq(c.meta_calls, 1);
    ck_assert(!c.meta.has_rank);
    ck_assert(!c.meta.has_base_time);
    ck_assert_int_eq(c.meta.device_properties, 0);
    ck_assert_str_eq(c.meta.backend, "");
    collect_fini(&c);
}
END_TEST

Suite *trace_events_suite(void)
{
    Suite *s = suite_create("trace events");
    TCase *t = tcase_create("event");
    tcase_add_test(t, event_should_read_every_field);
    tcase_add_test(t, event_should_keep_only_numeric_streams);
    tcase_add_test(t, event_should_pass_events_without_dur_or_cat);
    tcase_add_test(t, event_should_warn_about_malformed_elements);
    tcase_add_test(t, event_should_take_the_first_of_duplicate_keys);
    tcase_add_test(t, event_should_match_keys_written_with_escapes);
    tcase_add_test(t, event_should_read_the_same_fields_on_both_paths);
    tcase_add_test(t, event_should_read_random_elements_as_cjson_does);
    tcase_add_test(t, event_should_accept_what_cjson_accepts);
    suite_add_tcase(s, t);
    t = tcase_create("meta");
    tcase_add_test(t, meta_should_be_read_before_or_after_trace_events);
    tcase_add_test(t, meta_should_be_empty_without_top_level_facts);
    suite_add_tcase(s, t);
    return s;
}
