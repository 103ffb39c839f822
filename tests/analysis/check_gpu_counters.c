#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <zlib.h>

#include "analysis/series.h"
#include "model/model.h"
#include "trace/counters_write.h"

#include "check_gpu.h"

/* `htx counters`: the writer (src/trace/counters_write.c) and the counter
 * tracks built from the series (src/analysis/counters.c). Outputs are read
 * back with zlib + cJSON, independently of htx's own reader, and with
 * model_load. */

static char tmpdir[256];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/htx-check-gpu-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tmpdir(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, strlen(text), f), strlen(text));
    ck_assert_int_eq(fclose(f), 0);
}

/* The whole (gzip or plain) file as a NUL-terminated string. */
static char *read_gz(const char *path)
{
    gzFile g = gzopen(path, "rb");
    ck_assert_ptr_nonnull(g);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    int n;
    while ((n = gzread(g, buf + len, (unsigned)(cap - len - 1))) > 0) {
        len += (size_t)n;
        if (cap - len < 2)
            buf = realloc(buf, cap *= 2);
        ck_assert_ptr_nonnull(buf);
    }
    ck_assert_int_eq(n, 0);
    gzclose(g);
    buf[len] = '\0';
    return buf;
}

static cJSON *parse_file(const char *path)
{
    char *text = read_gz(path);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    ck_assert_msg(doc != NULL, "%s: not JSON", path);
    return doc;
}

static const cJSON *events_of(const cJSON *doc)
{
    const cJSON *ev = cJSON_IsArray(doc) ? doc : cJSON_GetObjectItemCaseSensitive(doc, "traceEvents");
    ck_assert(cJSON_IsArray(ev));
    return ev;
}

static size_t count_counters(const cJSON *events, const char *name)
{
    size_t n = 0;
    const cJSON *el;
    cJSON_ArrayForEach(el, events) {
        const cJSON *ph = cJSON_GetObjectItemCaseSensitive(el, "ph");
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(el, "name");
        if (cJSON_IsString(ph) && strcmp(ph->valuestring, "C") == 0 && cJSON_IsString(nm) &&
            strcmp(nm->valuestring, name) == 0)
            n++;
    }
    return n;
}

START_TEST(counters_should_name_the_output_beside_the_input)
{
    char out[64];
    struct err e = {0, ""};
    ck_assert_int_eq(counters_output_path("d/r0.pt.trace.json.gz", out, sizeof out, &e), 0);
    ck_assert_str_eq(out, "d/r0.pt.trace_with_counters.json.gz");
    ck_assert_int_eq(counters_output_path("x.json", out, sizeof out, &e), 0);
    ck_assert_str_eq(out, "x_with_counters.json.gz");
    ck_assert_int_eq(counters_output_path("x.gz", out, sizeof out, &e), 0);
    ck_assert_str_eq(out, "x.gz_with_counters.json.gz");
    ck_assert_int_eq(counters_output_path("x.json", out, 10, &e), ERR_USAGE);
}
END_TEST

static const int64_t pts_ts[] = {1000000, 1000500, 1002001};
static const double pts_v[] = {1, 2, 0.25};

static void write_points(const char *src, const char *dst, size_t n)
{
    struct counter_series s = {"Memcpy HtoD", "memory_bw_gbps", "0", NULL, NULL,
                               pts_ts, pts_v, n, false};
    struct err e = {0, ""};
    int rc = counters_write_file(src, dst, false, NULL, 0, &s, 1, &e);
    ck_assert_msg(rc == 0, "write failed: %s", e.msg);
}

START_TEST(counters_should_append_to_any_events_array_shape)
{
    static const char *docs[] = {
        "{\"traceEvents\":[]}",
        "\n[ {\"ph\":\"X\",\"name\":\"a]\",\"ts\":1,\"dur\":1} ]\n",
        "{\"meta\":{\"traceEvents\":[1,[2]]},\"s\":\"\\\"traceEvents\\\"\","
        "\"traceEvents\" : [ {\"name\":\"x\\\\\",\"args\":{\"l\":[\"]\"]}} ],\"after\":[]}",
    };
    static const size_t before[] = {0, 1, 1};
    make_tmpdir();
    for (size_t i = 0; i < 3; i++) {
        char src[300], dst[300];
        snprintf(src, sizeof src, "%s/doc%zu.json", tmpdir, i);
        snprintf(dst, sizeof dst, "%s/out%zu.json.gz", tmpdir, i);
        write_text(src, docs[i]);
        write_points(src, dst, 3);
        cJSON *doc = parse_file(dst);
        const cJSON *ev = events_of(doc);
        ck_assert_int_eq(cJSON_GetArraySize(ev), (int)(before[i] + 3));
        ck_assert_uint_eq(count_counters(ev, "Memcpy HtoD"), 3);
        const cJSON *last = cJSON_GetArrayItem(ev, (int)before[i] + 2);
        const cJSON *ts = cJSON_GetObjectItemCaseSensitive(last, "ts");
        ck_assert_double_eq_tol(ts->valuedouble, 1002.001, 1e-9);
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(last, "args");
        ck_assert_double_eq(cJSON_GetObjectItemCaseSensitive(args, "memory_bw_gbps")->valuedouble,
                            0.25);
        cJSON_Delete(doc);
    }
    remove_tmpdir();
}
END_TEST

/* More than two 256 KiB read chunks, with escapes and brackets inside
 * strings everywhere, then the gzip output used as input again. */
START_TEST(counters_should_stream_large_and_gzip_inputs)
{
    enum { N = 12000 };
    static const char *el = "{\"ph\":\"X\",\"name\":\"a\\\"]\\\\\",\"args\":{\"s\":\"[{\"}},";
    size_t len = strlen(el);
    char *doc = malloc(N * len + 64);
    ck_assert_ptr_nonnull(doc);
    char *p = doc + sprintf(doc, "{\"traceEvents\":[");
    for (int i = 0; i < N; i++, p += len)
        memcpy(p, el, len);
    strcpy(p - 1, "]}");
    make_tmpdir();
    char src[300], mid[300], dst[300];
    snprintf(src, sizeof src, "%s/big.json", tmpdir);
    snprintf(mid, sizeof mid, "%s/big_with_counters.json.gz", tmpdir);
    snprintf(dst, sizeof dst, "%s/again.json.gz", tmpdir);
    write_text(src, doc);
    free(doc);
    write_points(src, mid, 3);
    write_points(mid, dst, 3);
    cJSON *out = parse_file(dst);
    const cJSON *ev = events_of(out);
    ck_assert_int_eq(cJSON_GetArraySize(ev), N + 6);
    ck_assert_uint_eq(count_counters(ev, "Memcpy HtoD"), 6);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(ev, N - 1), "name");
    ck_assert_str_eq(name->valuestring, "a\"]\\");
    cJSON_Delete(out);
    remove_tmpdir();
}
END_TEST

START_TEST(counters_should_refuse_to_overwrite_without_force)
{
    make_tmpdir();
    char src[300], dst[300];
    snprintf(src, sizeof src, "%s/t.json", tmpdir);
    snprintf(dst, sizeof dst, "%s/t_with_counters.json.gz", tmpdir);
    write_text(src, "{\"traceEvents\":[]}");
    write_points(src, dst, 1);
    struct counter_series s = {"Q", "q", "0", NULL, NULL, pts_ts, pts_v, 3, true};
    struct err e = {0, ""};
    ck_assert_int_eq(counters_write_file(src, dst, false, NULL, 0, &s, 1, &e), ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "--force"));
    ck_assert_int_eq(counters_write_file(src, src, true, NULL, 0, &s, 1, &e), ERR_USAGE);
    char *text = read_gz(src);
    ck_assert_str_eq(text, "{\"traceEvents\":[]}");   /* the input is untouched */
    free(text);
    ck_assert_int_eq(counters_write_file(src, dst, true, NULL, 0, &s, 1, &e), 0);
    cJSON *doc = parse_file(dst);
    ck_assert_uint_eq(count_counters(events_of(doc), "Q"), 3);
    cJSON_Delete(doc);
    remove_tmpdir();
}
END_TEST

START_TEST(counters_should_reject_documents_without_trace_events)
{
    make_tmpdir();
    char src[300], dst[300];
    snprintf(src, sizeof src, "%s/t.json", tmpdir);
    snprintf(dst, sizeof dst, "%s/out.json.gz", tmpdir);
    write_text(src, "{\"events\":[1,2]}");
    struct counter_series s = {"Q", "q", "0", NULL, NULL, pts_ts, pts_v, 3, true};
    struct err e = {0, ""};
    ck_assert_int_eq(counters_write_file(src, dst, false, NULL, 0, &s, 1, &e), ERR_PARSE);
    ck_assert_int_ne(access(dst, F_OK), 0);   /* nothing left behind */
    remove_tmpdir();
}
END_TEST

/* The queue document of check_gpu.c plus one copy with a bandwidth, and
 * metadata that the model drops but the copy must keep. */
static const char *trace_doc =
    "{\"schemaVersion\":1,\"traceEvents\":[\n"
    "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"tid\":0,\"args\":{\"name\":\"gpu\"}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":1000,\"dur\":1,\"args\":{\"correlation\":1}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":1001,\"dur\":1,\"args\":{\"correlation\":2}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":1005,\"dur\":1,"
    "\"args\":{\"stream\":7,\"correlation\":1}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":1006,\"dur\":1,"
    "\"args\":{\"stream\":7,\"correlation\":2}},\n"
    "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pinned -> Device)\",\"pid\":0,"
    "\"tid\":7,\"ts\":1010,\"dur\":4,\"args\":{\"stream\":7,\"correlation\":3,"
    "\"memory bandwidth (GB/s)\":2.5}},\n"
    "{\"ph\":\"f\",\"id\":1,\"pid\":0,\"tid\":7,\"ts\":1005,\"cat\":\"ac2g\",\"name\":\"ac2g\"}\n"
    "],\"deviceProperties\":[]}";

static struct model *load_path(const char *path, struct err *e)
{
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct load_opts lo = {.threads = 1};
    return model_load(&path, 1, &sem, &lo, e);
}

START_TEST(counters_should_add_queue_and_bandwidth_tracks_and_keep_the_rest)
{
    make_tmpdir();
    char src[300], dst[300];
    snprintf(src, sizeof src, "%s/trace.json", tmpdir);
    write_text(src, trace_doc);
    struct err e = {0, ""};
    struct model *m = load_path(src, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    struct arena a;
    arena_init(&a, 0);
    struct counter_series *cs;
    size_t n;
    ck_assert_int_eq(series_counters_build(m, &m->ranks[0], &a, &cs, &n, &e), 0);
    ck_assert_uint_eq(n, 2);   /* stream 7's queue, Memcpy HtoD */
    ck_assert_str_eq(cs[0].name, "Queue Length");
    ck_assert_str_eq(cs[0].id, "7");
    ck_assert_uint_eq(cs[0].n, 4);
    ck_assert_int_eq(cs[0].ts_ns[0], 1000000);   /* absolute again */
    ck_assert_int_eq(counters_output_path(src, dst, sizeof dst, &e), 0);
    ck_assert_int_eq(counters_write_file(src, dst, false, NULL, 0, cs, n, &e), 0);

    struct model *back = load_path(dst, &e);
    ck_assert_msg(back != NULL, "reload failed: %s", e.msg);
    ck_assert_uint_eq(back->ranks[0].elements, m->ranks[0].elements + 4 + 2);
    ck_assert_uint_eq(back->ranks[0].nevents, m->ranks[0].nevents);

    cJSON *orig = parse_file(src), *out = parse_file(dst);
    const cJSON *oe = events_of(orig), *ne = events_of(out);
    int no = cJSON_GetArraySize(oe);
    for (int i = 0; i < no; i++)
        ck_assert(cJSON_Compare(cJSON_GetArrayItem(oe, i), cJSON_GetArrayItem(ne, i), true));
    ck_assert_uint_eq(count_counters(ne, "Queue Length"), 4);
    ck_assert_uint_eq(count_counters(ne, "Memcpy HtoD"), 2);
    const cJSON *q = cJSON_GetArrayItem(ne, no + 1);   /* second queue sample: 2 at 1001 us */
    ck_assert_double_eq(cJSON_GetObjectItemCaseSensitive(q, "ts")->valuedouble, 1001);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(q, "pid")->valueint, 0);
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(q, "tid")->valueint, 7);
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(q, "args");
    ck_assert_int_eq(cJSON_GetObjectItemCaseSensitive(args, "queue_length")->valueint, 2);
    ck_assert(cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(out, "deviceProperties")));
    cJSON_Delete(orig);
    cJSON_Delete(out);
    model_free(back);
    arena_fini(&a);
    model_free(m);
    remove_tmpdir();
}
END_TEST

Suite *gpu_counters_suite(void)
{
    Suite *s = suite_create("gpu counters");
    TCase *tc = tcase_create("writer");
    tcase_add_test(tc, counters_should_name_the_output_beside_the_input);
    tcase_add_test(tc, counters_should_append_to_any_events_array_shape);
    tcase_add_test(tc, counters_should_stream_large_and_gzip_inputs);
    tcase_add_test(tc, counters_should_refuse_to_overwrite_without_force);
    tcase_add_test(tc, counters_should_reject_documents_without_trace_events);
    tcase_add_test(tc, counters_should_add_queue_and_bandwidth_tracks_and_keep_the_rest);
    suite_add_tcase(s, tc);
    return s;
}
