#include "config.h"

#include "check_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/fields.h"

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
    for (size_t i = 0; i < sizeof elements / sizeof elements[0]; i++) {
        const char *t = elements[i];
        size_t len = strlen(t), used = 0, at = 0;
        char s1[512], s2[512];
        struct trace_event a, b;
        const char *wa = NULL, *wb = NULL;
        void *tree = NULL;
        enum trace_fields_result ra =
            trace_fields_parse(t, len, s1, sizeof s1, 510, &a, &wa, &used);
        enum trace_fields_result rb = trace_fields_parse_cjson(t, len, s2, &b, &wb, &at, &tree);
        ck_assert_int_eq(ra, rb);
        ck_assert_uint_eq(used, len);
        if (ra == TRACE_FIELDS_MALFORMED)
            ck_assert_str_eq(wa, wb);
        ck_assert_int_eq(a.ph, b.ph);
        ck_assert_uint_eq(a.name.len, b.name.len);
        ck_assert(a.name.len == 0 || memcmp(a.name.s, b.name.s, a.name.len) == 0);
        ck_assert_uint_eq(a.pid.len, b.pid.len);
        ck_assert(a.pid.len == 0 || memcmp(a.pid.s, b.pid.s, a.pid.len) == 0);
        ck_assert_uint_eq(a.tid.len, b.tid.len);
        ck_assert(a.tid.len == 0 || memcmp(a.tid.s, b.tid.s, a.tid.len) == 0);
        ck_assert(a.ts.present == b.ts.present && a.ts.ns == b.ts.ns && a.ts.us == b.ts.us);
        ck_assert(a.dur.present == b.dur.present && a.dur.ns == b.dur.ns);
        ck_assert(a.stream.present == b.stream.present && a.stream.v == b.stream.v);
        ck_assert(a.correlation.present == b.correlation.present);
        ck_assert(a.correlation.v == b.correlation.v && a.bytes.v == b.bytes.v);
        ck_assert(a.has_mem_bw == b.has_mem_bw && a.mem_bw_gbps == b.mem_bw_gbps);
        ck_assert(a.flow_id.v == b.flow_id.v && a.flow_bind_enclosing == b.flow_bind_enclosing);
        ck_assert_uint_eq(a.arg_name.len, b.arg_name.len);
        trace_fields_free_tree(tree);
    }
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
    tcase_add_test(t, event_should_accept_what_cjson_accepts);
    suite_add_tcase(s, t);
    t = tcase_create("meta");
    tcase_add_test(t, meta_should_be_read_before_or_after_trace_events);
    tcase_add_test(t, meta_should_be_empty_without_top_level_facts);
    suite_add_tcase(s, t);
    return s;
}
