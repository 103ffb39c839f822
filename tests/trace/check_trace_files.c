#include "config.h"

#include "check_trace.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/discover.h"
#include "trace/event.h"
#include "trace/source.h"
#include "../memcheck.h"

/* The reader on files: gzip by content, broken gzip, limits, progress,
 * discovery, and every real trace in ../shared checked against counts this
 * test computes on its own (zlib + whole-document cJSON). */

/* HTX_INFLATE=zlib makes a build with ISA-L inflate with zlib (both paths
 * tested); NULL: the default. */
static void inflate_with(const char *which)
{
    if (which)
        setenv("HTX_INFLATE", which, 1);
    else
        unsetenv("HTX_INFLATE");
}

static int read_data_file(const char *name, struct collect *c, const struct trace_limits *lim,
                          struct err *e)
{
    char rel[256];
    snprintf(rel, sizeof rel, "tests/data/trace/%s", name);
    char *path = srcdir_path(rel);
    struct trace_sink sink = collect_sink(c);
    int rc = trace_read_file(path, &sink, lim, e);
    free(path);
    return rc;
}

static void expect_small_trace(const struct collect *c)
{
    ck_assert_uint_eq(c->nevents, 8);
    ck_assert_uint_eq(c->nwarnings, 0);
    ck_assert_int_eq(c->meta_calls, 1);
    ck_assert_int_eq(c->meta.rank, 1);
    ck_assert_int_eq(c->meta.device_properties, 2);
    ck_assert_str_eq(c->events[2].name, "void gemm<float, \"x\">(int) [\xc3\xa9]");
    ck_assert_int_eq(c->events[0].ts.ns, INT64_C(1682725898236567123));
}

START_TEST(gzip_should_be_detected_by_content_not_name)
{
    static const char *const names[] = {"small.json", "small.json.gz", "gzip-content.json",
                                        "plain-content.json.gz", "concat.json.gz"};
    // Inflating in the reading thread and in a thread of its own ahead of
    // it, with ISA-L (when built with it) and with zlib.
    for (int mode = 0; mode < 4; mode++)
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            int ahead = mode & 1;
            inflate_with(mode & 2 ? "zlib" : NULL);
            struct collect c = {0};
            struct err e = {0};
            struct trace_limits lim = {.read_ahead = ahead};
            ck_assert_msg(read_data_file(names[i], &c, &lim, &e) == 0, "%s: %s", names[i], e.msg);
            expect_small_trace(&c);
            collect_fini(&c);
        }
    inflate_with(NULL);
}
END_TEST

static void expect_file_error_ahead(const char *name, int code, const char *fragment, bool ahead)
{
    struct collect c = {0};
    struct err e = {0};
    struct trace_limits lim = {.read_ahead = ahead};
    int rc = read_data_file(name, &c, &lim, &e);
    ck_assert_msg(rc == code, "%s: got %d (%s)", name, rc, e.msg);
    ck_assert_msg(strstr(e.msg, fragment) && strstr(e.msg, name), "%s: message \"%s\"", name,
                  e.msg);
    collect_fini(&c);
}

static void expect_file_error(const char *name, int code, const char *fragment)
{
    for (int zlib = 0; zlib < 2; zlib++) {
        inflate_with(zlib ? "zlib" : NULL);
        expect_file_error_ahead(name, code, fragment, false);
        expect_file_error_ahead(name, code, fragment, true);
    }
    inflate_with(NULL);
}

START_TEST(gzip_should_report_broken_files)
{
    expect_file_error("truncated.json.gz", ERR_PARSE, "truncated gzip");
    expect_file_error("badcrc.json.gz", ERR_PARSE, "CRC mismatch");
    expect_file_error("trailing.json.gz", ERR_PARSE, "trailing garbage");
    expect_file_error("missing.json", ERR_IO, "No such file");
    expect_file_error("", ERR_IO, "is a directory");
}
END_TEST

START_TEST(gzip_should_stop_a_bomb_at_the_limit)
{
    size_t n = 8u << 20;
    char *doc = malloc(n);
    ck_assert_ptr_nonnull(doc);
    memset(doc, ' ', n);
    memcpy(doc, "{\"traceEvents\": [", 17);
    memcpy(doc + n - 3, "]}\n", 3);
    size_t gz_len;
    unsigned char *gz = gzip_bytes(doc, n, &gz_len);
    ck_assert_uint_lt(gz_len, 64u << 10);
    struct collect c = {0};
    struct err e = {0};
    struct trace_limits lim = {.max_uncompressed = 1u << 20};
    ck_assert_int_eq(load_bytes(gz, gz_len, &c, &lim, 0, &e), ERR_LIMIT);
    ck_assert_ptr_nonnull(strstr(e.msg, "exceeds the limit of 1048576 bytes"));
    lim.max_uncompressed = n;
    ck_assert_int_eq(load_bytes(gz, gz_len, &c, &lim, 0, &e), 0);
    /* The largest limit is no limit (its "one byte more" must not wrap). */
    lim.max_uncompressed = UINT64_MAX;
    ck_assert_msg(load_bytes(gz, gz_len, &c, &lim, 0, &e) == 0, "%s", e.msg);
    free(gz);
    free(doc);
    collect_fini(&c);
}
END_TEST

/* A valid plain document of about size bytes: many small events. */
static char *many_events(size_t size, size_t *len)
{
    char *doc = malloc(size + 256);
    ck_assert_ptr_nonnull(doc);
    size_t n = (size_t)sprintf(doc, "{\"traceEvents\": [");
    for (int i = 0; n < size; i++)
        n += (size_t)sprintf(doc + n, "%s{\"ph\": \"X\", \"cat\": \"k\", \"ts\": %d, \"dur\": 1}",
                             i ? ", " : "", i);
    n += (size_t)sprintf(doc + n, "]}");
    *len = n;
    return doc;
}

struct progress_count {
    size_t events;
    int calls, cancel_at;
    uint64_t last;
};

static int count_only(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)ev;
    (void)e;
    ((struct progress_count *)ctx)->events++;
    return 0;
}

/* Stops the read at the cancel_at-th event. */
static int count_then_stop(void *ctx, const struct trace_event *ev, struct err *e)
{
    struct progress_count *p = ctx;
    (void)ev;
    p->events++;
    return (int)p->events == p->cancel_at ? err_set(e, ERR_CANCEL, "enough") : 0;
}

static int count_progress(void *ctx, uint64_t bytes)
{
    struct progress_count *p = ctx;
    ck_assert_uint_gt(bytes, p->last);
    p->last = bytes;
    return ++p->calls == p->cancel_at;
}

START_TEST(progress_should_be_reported_and_cancel)
{
    size_t len;
    char *doc = many_events(13u << 20, &len);
    struct progress_count pc = {0};
    struct trace_sink sink = {.ctx = &pc, .event = count_only, .progress = count_progress};
    struct err e = {0};
    ck_assert_int_eq(trace_read_buffer("big", doc, len, &sink, NULL, &e), 0);
    ck_assert_int_ge(pc.calls, 2);
    ck_assert_uint_le(pc.last, len);
    size_t all = pc.events;
    pc = (struct progress_count){.cancel_at = 1};
    ck_assert_int_eq(trace_read_buffer("big", doc, len, &sink, NULL, &e), ERR_CANCEL);
    ck_assert_str_eq(e.msg, "big: cancelled");
    ck_assert_uint_lt(pc.events, all);
    // gzip'd and inflated ahead (several blocks): every event; and a reader
    // that stops early leaves the inflating thread behind cleanly.
    size_t gz_len;
    unsigned char *gz = gzip_bytes(doc, len, &gz_len);
    struct trace_limits lim = {.read_ahead = true};
    sink.progress = NULL;
    for (int stop = 0; stop < 4; stop++) {
        inflate_with(stop & 2 ? "zlib" : NULL);
        pc = (struct progress_count){.cancel_at = stop & 1 ? 1000 : 0};
        sink.event = stop ? count_then_stop : count_only;
        int rc = trace_read_buffer("big.gz", gz, gz_len, &sink, &lim, &e);
        if (stop & 1) {
            ck_assert_int_ne(rc, 0);
            ck_assert_uint_eq(pc.events, 1000);
        } else {
            ck_assert_msg(rc == 0, "%s", e.msg);
            ck_assert_uint_eq(pc.events, all);
        }
    }
    sink.event = count_only;
    inflate_with(NULL);
    // A bomb stops at the limit there too.
    lim.max_uncompressed = 1u << 20;
    pc = (struct progress_count){0};
    ck_assert_int_eq(trace_read_buffer("big.gz", gz, gz_len, &sink, &lim, &e), ERR_LIMIT);
    ck_assert_ptr_nonnull(strstr(e.msg, "exceeds the limit"));
    free(gz);
    free(doc);
}
END_TEST

/* ---- discovery ---- */

struct tmpdir {
    char path[64];
};

static void tmpdir_make(struct tmpdir *t)
{
    snprintf(t->path, sizeof t->path, "/tmp/htx-check-trace-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(t->path));
}

static void touch(const struct tmpdir *t, const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", t->path, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{}", f);
    fclose(f);
}

static void tmpdir_remove(const struct tmpdir *t)
{
    DIR *d = opendir(t->path);
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", t->path, de->d_name);
        if (unlink(p) != 0)
            rmdir(p);
    }
    if (d)
        closedir(d);
    rmdir(t->path);
}

START_TEST(discover_should_list_trace_files_sorted)
{
    struct tmpdir t;
    tmpdir_make(&t);
    touch(&t, "rank-1.json");
    touch(&t, "rank-0.json.gz");
    touch(&t, "notes.txt");
    touch(&t, "rank-0_with_counters.json.gz");
    char sub[256], fifo[256];
    snprintf(sub, sizeof sub, "%s/sub.json", t.path);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    snprintf(fifo, sizeof fifo, "%s/fifo.json", t.path);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    const char *paths[] = {t.path};
    struct trace_file_list l;
    struct err e = {0};
    ck_assert_int_eq(trace_discover(paths, 1, &l, &e), 0);
    ck_assert_uint_eq(l.count, 2);
    ck_assert_ptr_nonnull(strstr(l.files[0].path, "/rank-0.json.gz"));
    ck_assert_ptr_nonnull(strstr(l.files[1].path, "/rank-1.json"));
    ck_assert_uint_eq(l.files[1].size, 2);
    ck_assert_ptr_nonnull(strstr(l.notes, "notes.txt: skipped (not a .json, .json.gz or .htxs file)"));
    ck_assert_ptr_nonnull(strstr(l.notes, "sub.json: skipped (a directory)"));
    ck_assert_ptr_nonnull(strstr(l.notes, "fifo.json: skipped (a FIFO)"));
    ck_assert_ptr_nonnull(strstr(l.notes, "rank-0_with_counters.json.gz: skipped (written by htx counters)"));
    trace_file_list_fini(&l);

    struct collect c = {0};
    struct trace_sink sink = collect_sink(&c);
    ck_assert_int_eq(trace_read_file(fifo, &sink, NULL, &e), ERR_IO);
    ck_assert_ptr_nonnull(strstr(e.msg, "fifo.json: not a regular file"));
    ck_assert_int_eq(trace_read_file(sub, &sink, NULL, &e), ERR_IO);
    ck_assert_ptr_nonnull(strstr(e.msg, "sub.json: is a directory"));

    const char *explicit_paths[] = {fifo};
    ck_assert_int_eq(trace_discover(explicit_paths, 1, &l, &e), ERR_IO);
    ck_assert_ptr_nonnull(strstr(e.msg, "fifo.json: is a FIFO"));
    explicit_paths[0] = sub;
    ck_assert_int_eq(trace_discover(explicit_paths, 1, &l, &e), ERR_IO);
    ck_assert_ptr_nonnull(strstr(e.msg, "sub.json: is a directory"));
    char txt[256];
    snprintf(txt, sizeof txt, "%s/notes.txt", t.path);
    explicit_paths[0] = txt;
    ck_assert_int_eq(trace_discover(explicit_paths, 1, &l, &e), 0);
    ck_assert_uint_eq(l.count, 1);
    trace_file_list_fini(&l);
    tmpdir_remove(&t);
}
END_TEST

START_TEST(discover_should_name_missing_and_empty_paths)
{
    const char *paths[] = {"/nonexistent/htx/rank-0.json"};
    struct trace_file_list l;
    struct err e = {0};
    ck_assert_int_eq(trace_discover(paths, 1, &l, &e), ERR_IO);
    ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/htx/rank-0.json: No such file"));
    ck_assert_uint_eq(l.count, 0);
    struct tmpdir t;
    tmpdir_make(&t);
    touch(&t, "readme.md");
    paths[0] = t.path;
    ck_assert_int_eq(trace_discover(paths, 1, &l, &e), ERR_EMPTY);
    ck_assert_ptr_nonnull(strstr(e.msg, "no trace files (.json, .json.gz) or rank summaries"));
    tmpdir_remove(&t);
    ck_assert_int_eq(trace_discover(paths, 0, &l, &e), ERR_USAGE);
}
END_TEST

START_TEST(rank_should_come_from_the_file_name)
{
    ck_assert_int_eq(trace_rank_from_filename("rank-3.json"), 3);
    ck_assert_int_eq(trace_rank_from_filename("dir/RANK_12.pt.trace.json.gz"), 12);
    ck_assert_int_eq(trace_rank_from_filename("worker_rank3.json"), 3);
    ck_assert_int_eq(trace_rank_from_filename("sampled_rank-0.json.gz"), 0);
    ck_assert_int_eq(trace_rank_from_filename("rank-1_Rank-2.json"), 2);
    ck_assert_int_eq(trace_rank_from_filename("rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"), 34);
    ck_assert_int_eq(trace_rank_from_filename("ranked.json"), -1);
    ck_assert_int_eq(trace_rank_from_filename("rank-.json"), -1);
    ck_assert_int_eq(trace_rank_from_filename("rank-7/trace.json"), -1);
    ck_assert_int_eq(trace_rank_from_filename("rank99999999999999999999999.json"), -1);
    ck_assert_int_eq(trace_rank_from_filename(""), -1);
}
END_TEST

/* ---- every real trace against an independent count ---- */

#define MAX_CATS 64

struct cat_counts {
    char *cat[MAX_CATS];
    long n[MAX_CATS];
    int ncat;
};

static void count_cat(struct cat_counts *cc, const char *cat)
{
    for (int i = 0; i < cc->ncat; i++)
        if (strcmp(cc->cat[i], cat) == 0) {
            cc->n[i]++;
            return;
        }
    ck_assert_int_lt(cc->ncat, MAX_CATS);
    cc->cat[cc->ncat] = strdup(cat);
    cc->n[cc->ncat++] = 1;
}

static long cat_count(const struct cat_counts *cc, const char *cat)
{
    for (int i = 0; i < cc->ncat; i++)
        if (strcmp(cc->cat[i], cat) == 0)
            return cc->n[i];
    return 0;
}

static void cat_free(struct cat_counts *cc)
{
    for (int i = 0; i < cc->ncat; i++)
        free(cc->cat[i]);
}

static char *gunzip_file(const char *path, size_t *len)
{
    gzFile f = gzopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    size_t cap = 1u << 20, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        ck_assert_ptr_nonnull(buf);
        int got = gzread(f, buf + n, (unsigned)(cap - n));
        ck_assert_int_ge(got, 0);
        if (got == 0)
            break;
        n += (size_t)got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    gzclose(f);
    *len = n;
    return buf;
}

/* What the test computes alone: elements, X events per category, and each
 * element's ts as cJSON's double. */
static void count_with_cjson(const char *path, size_t *elements, struct cat_counts *cc,
                             double **ts)
{
    size_t len;
    char *text = gunzip_file(path, &len);
    cJSON *doc = cJSON_ParseWithLength(text, len);
    ck_assert_msg(doc != NULL, "%s: cJSON cannot parse it", path);
    const cJSON *evs = cJSON_GetObjectItemCaseSensitive(doc, "traceEvents");
    ck_assert(cJSON_IsArray(evs));
    *elements = (size_t)cJSON_GetArraySize(evs);
    *ts = calloc(*elements + 1, sizeof **ts);
    size_t i = 0;
    const cJSON *ev;
    cJSON_ArrayForEach(ev, evs) {
        const cJSON *ph = cJSON_GetObjectItemCaseSensitive(ev, "ph");
        const cJSON *cat = cJSON_GetObjectItemCaseSensitive(ev, "cat");
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(ev, "ts");
        if (cJSON_IsString(ph) && strcmp(ph->valuestring, "X") == 0 && cJSON_IsString(cat))
            count_cat(cc, cat->valuestring);
        (*ts)[i++] = cJSON_IsNumber(t) ? t->valuedouble : NAN;
    }
    cJSON_Delete(doc);
    free(text);
}

static void check_trace_file(const char *path)
{
    size_t elements;
    struct cat_counts want = {0}, got = {0};
    double *ts;
    count_with_cjson(path, &elements, &want, &ts);
    struct collect c = {0};
    struct trace_sink sink = collect_sink(&c);
    struct err e = {0};
    ck_assert_msg(trace_read_file(path, &sink, NULL, &e) == 0, "%s", e.msg);
    ck_assert_msg(c.nevents + c.nwarnings == elements, "%s: %zu events + %zu warnings != %zu",
                  path, c.nevents, c.nwarnings, elements);
    ck_assert_uint_eq(c.nwarnings, 0);
    for (size_t i = 0; i < c.nevents; i++) {
        const struct kept_event *k = &c.events[i];
        if (k->ph == TRACE_PH_X && k->has_cat)
            count_cat(&got, k->cat);
        double t = ts[k->index];
        ck_assert_msg(k->ts.present == !isnan(t), "%s: element %zu ts presence", path, i);
        if (k->ts.present) {
            ck_assert(k->ts.us == t);
            /* Exact digits and cJSON's double agree to within the double's ulp. */
            ck_assert_msg(fabs((double)k->ts.ns / 1000.0 - t) <= 0.5, "%s: element %zu", path, i);
        }
    }
    ck_assert_int_eq(got.ncat, want.ncat);
    for (int i = 0; i < want.ncat; i++)
        ck_assert_msg(cat_count(&got, want.cat[i]) == want.n[i], "%s: category %s: %ld != %ld",
                      path, want.cat[i], cat_count(&got, want.cat[i]), want.n[i]);
    printf("%s: %zu elements, %d categories of X events: match\n", path, elements, want.ncat);
    cat_free(&want);
    cat_free(&got);
    free(ts);
    collect_fini(&c);
}

/* Calls check_trace_file on every regular .json/.json.gz under dir. */
static int walk_traces(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(p, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode) && depth < 4) {
            n += walk_traces(p, depth + 1);
        } else if (S_ISREG(st.st_mode) && (strstr(de->d_name, ".json") != NULL)) {
            if (under_memcheck() && st.st_size > MEMCHECK_TRACE_BYTES)
                continue;   // as tests/hostile/valgrind.sh's sample
            check_trace_file(p);
            n++;
        }
    }
    closedir(d);
    return n;
}

START_TEST(shared_traces_should_load_with_independent_counts)
{
    char *dir = srcdir_path("../shared/traces");
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("../shared not found: skipping the real-trace loading test (%s)\n", dir);
        free(dir);
        return;
    }
    int n = walk_traces(dir, 0);
    ck_assert_int_gt(n, 0);
    printf("%d real traces checked\n", n);
    free(dir);
}
END_TEST

/* ---- gzip edge cases, limits and files that change ---- */

static void write_bytes(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

static int read_path(const char *path, const struct trace_limits *lim, struct err *e)
{
    struct progress_count pc = {0};
    struct trace_sink sink = {.ctx = &pc, .event = count_only};
    return trace_read_file(path, &sink, lim, e);
}

START_TEST(gzip_should_accept_zero_padding_after_the_last_member)
{
    static const char doc[] = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"k\", \"ts\": 1, "
                              "\"dur\": 2}]}";
    size_t gz_len;
    unsigned char *gz = gzip_bytes(doc, sizeof doc - 1, &gz_len);
    size_t pad = (2u << 20) + 7;   /* past one input block */
    unsigned char *padded = calloc(gz_len + pad + 1, 1);
    ck_assert_ptr_nonnull(padded);
    memcpy(padded, gz, gz_len);
    struct collect c = {0};
    struct err e = {0};
    ck_assert_msg(load_bytes(padded, gz_len + pad, &c, NULL, 0, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(c.nevents, 1);
    char path[] = "/tmp/htx-check-pad-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    write_bytes(path, padded, gz_len + pad);
    ck_assert_msg(read_path(path, NULL, &e) == 0, "%s", e.msg);
    padded[gz_len + pad] = 'x';   /* zeros, then something else: garbage */
    write_bytes(path, padded, gz_len + pad + 1);
    ck_assert_int_eq(read_path(path, NULL, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "trailing garbage"));
    unlink(path);
    collect_fini(&c);
    free(padded);
    free(gz);
}
END_TEST

/* Forward seeks in gzip (the second thread of a split read starts mid
 * document; the first skips what it read): the bytes after the seek are
 * the document's, with and without the inflating thread, with either
 * inflater; backward, or past the end, is an error. */
START_TEST(gzip_should_seek_forward_only)
{
    inflate_with(_i & 2 ? "zlib" : NULL);
    size_t n = (3u << 20) + 333;
    char *doc = malloc(n);
    ck_assert_ptr_nonnull(doc);
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        doc[i] = (char)('a' + x % 16);   // deflates, but not to nothing
    }
    size_t gz_len;
    unsigned char *gz = gzip_bytes(doc, n, &gz_len);
    struct trace_source_opts o = {.read_ahead = (_i & 1) != 0};
    struct err e = {0, ""};
    struct trace_source *src = trace_source_open_buffer(gz, gz_len, &o, &e);
    ck_assert_ptr_nonnull(src);
    char buf[100];
    size_t got;
    ck_assert_int_eq(trace_source_seek(src, 5, &e), 0);   // before the first read
    ck_assert_int_eq(trace_source_read(src, buf, sizeof buf, &got, &e), 0);
    ck_assert_uint_eq(got, sizeof buf);
    ck_assert_int_eq(memcmp(buf, doc + 5, got), 0);
    static const uint64_t to[] = {105, 1u << 20, (2u << 20) + 17, (3u << 20) + 233};
    for (size_t k = 0; k < sizeof to / sizeof to[0]; k++) {
        ck_assert_msg(trace_source_seek(src, to[k], &e) == 0, "%s", e.msg);
        ck_assert_uint_eq(trace_source_doc_bytes(src), to[k]);
        ck_assert_uint_le(trace_source_input_bytes(src), gz_len);
        ck_assert_int_eq(trace_source_read(src, buf, sizeof buf, &got, &e), 0);
        ck_assert_uint_eq(got, sizeof buf);
        ck_assert_int_eq(memcmp(buf, doc + to[k], got), 0);
    }
    ck_assert_int_eq(trace_source_seek(src, 1000, &e), ERR_INTERNAL);
    ck_assert_int_eq(trace_source_seek(src, n + 1, &e), ERR_PARSE);
    trace_source_close(src);
    free(gz);
    free(doc);
    inflate_with(NULL);
}
END_TEST

START_TEST(gz_name_without_gzip_data_should_say_not_gzip)
{
    static const char doc[] = "{\"traceEvents\": []}";
    unsigned char z[128];
    uLongf zlen = sizeof z;
    ck_assert_int_eq(compress(z, &zlen, (const Bytef *)doc, sizeof doc - 1), Z_OK);
    char path[] = "/tmp/htx-check-zlib-XXXXXX.json.gz";
    int fd = mkstemps(path, 8);
    ck_assert_int_ge(fd, 0);
    close(fd);
    write_bytes(path, z, zlen);
    struct err e = {0};
    ck_assert_int_eq(read_path(path, NULL, &e), ERR_PARSE);
    ck_assert_msg(strstr(e.msg, "not gzip data") != NULL, "%s", e.msg);
    /* Plain JSON named .gz is still read (gzip is found by content). */
    write_bytes(path, doc, sizeof doc - 1);
    ck_assert_msg(read_path(path, NULL, &e) == 0, "%s", e.msg);
    unlink(path);
}
END_TEST

START_TEST(plain_file_over_the_limit_should_stop_before_reading)
{
    size_t len;
    char *doc = many_events(3u << 20, &len);
    char path[] = "/tmp/htx-check-limit-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    write_bytes(path, doc, len);
    struct trace_limits lim = {.max_uncompressed = 1u << 20};
    struct progress_count pc = {0};
    struct trace_sink sink = {.ctx = &pc, .event = count_only};
    struct err e = {0};
    ck_assert_int_eq(trace_read_file(path, &sink, &lim, &e), ERR_LIMIT);
    ck_assert_msg(strstr(e.msg, "over the limit of 1048576 bytes") != NULL, "%s", e.msg);
    ck_assert_uint_eq(pc.events, 0);   /* stopped before any event was parsed */
    unlink(path);
    free(doc);
}
END_TEST

struct shrinker {
    const char *path;
    size_t events;
};

/* Truncates the file under the reader at its first event. */
static int shrink_at_first(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)ev;
    (void)e;
    struct shrinker *s = ctx;
    if (s->events++ == 0)
        ck_assert_int_eq(truncate(s->path, 4096), 0);
    return 0;
}

START_TEST(file_changed_while_read_should_be_named)
{
    size_t len;
    char *doc = many_events(12u << 20, &len);
    char path[] = "/tmp/htx-check-shrink-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    write_bytes(path, doc, len);
    struct shrinker sh = {path, 0};
    struct trace_sink sink = {.ctx = &sh, .event = shrink_at_first};
    struct err e = {0};
    int rc = trace_read_file(path, &sink, NULL, &e);
    ck_assert_int_ne(rc, 0);
    ck_assert_msg(strstr(e.msg, "the file changed while it was read") != NULL, "%s", e.msg);
    unlink(path);
    free(doc);
}
END_TEST

Suite *trace_files_suite(void)
{
    Suite *s = suite_create("trace files");
    TCase *t = tcase_create("gzip");
    tcase_add_test(t, gzip_should_be_detected_by_content_not_name);
    tcase_add_test(t, gzip_should_report_broken_files);
    tcase_add_test(t, gzip_should_stop_a_bomb_at_the_limit);
    tcase_add_large_test(t, progress_should_be_reported_and_cancel);
    tcase_add_test(t, gzip_should_accept_zero_padding_after_the_last_member);
    tcase_add_test(t, gz_name_without_gzip_data_should_say_not_gzip);
    tcase_add_large_loop_test(t, gzip_should_seek_forward_only, 0, 4);
    tcase_add_test(t, plain_file_over_the_limit_should_stop_before_reading);
    tcase_add_test(t, file_changed_while_read_should_be_named);
    suite_add_tcase(s, t);
    t = tcase_create("discover");
    tcase_add_test(t, discover_should_list_trace_files_sorted);
    tcase_add_test(t, discover_should_name_missing_and_empty_paths);
    tcase_add_test(t, rank_should_come_from_the_file_name);
    suite_add_tcase(s, t);
    t = tcase_create("shared");
    tcase_set_timeout(t, 300);
    tcase_add_large_test(t, shared_traces_should_load_with_independent_counts);
    suite_add_tcase(s, t);
    return s;
}
