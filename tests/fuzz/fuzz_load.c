#include "config.h"
#include "fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <zlib.h>

#include "analysis/analysis.h"
#include "cli/format.h"
#include "model/model.h"
#include "trace/read.h"
#include "trace/source.h"
#include "util/arena.h"

/* The loader fuzz target: one input is up to FUZZ_MAX_RANKS trace documents
 * (plain or gzip) separated by FUZZ_RANK_SEPARATOR. Each document is read
 * several ways that must agree (a large and a tiny scan buffer, plain and
 * gzip, one gzip member or two), gzip damage must be reported, and tight
 * limits must hold. Then the documents become a model, which is checked,
 * selected in a few ways and run through every analysis and every output
 * format; text output must never carry a raw ESC byte and JSON output must
 * parse. Any disagreement aborts, so the fuzzer reports it like a crash. */

/* Documents larger than this skip the gzip variants (they cost a deflate). */
#define FUZZ_GZIP_MAX ((size_t)256 << 10)

#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "fuzz_load: check failed at %s:%d: %s\n", __FILE__,  \
                    __LINE__, #cond);                                            \
            abort();                                                             \
        }                                                                        \
    } while (0)

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* ---- reading a document several ways ---------------------------------------- */

/* What a read delivered, summed up so two reads can be compared. */
struct digest {
    uint64_t h;
    uint64_t events, warnings;
    int rc;
};

static uint64_t mix_str(uint64_t h, const struct trace_str *s)
{
    CHECK(s->len == 0 || s->s != NULL);
    h = fnv(h, &s->len, sizeof s->len);
    return s->len ? fnv(h, s->s, s->len) : h;
}

static uint64_t mix_time(uint64_t h, const struct trace_time *t)
{
    h = fnv(h, &t->present, sizeof t->present);
    return t->present ? fnv(h, &t->ns, sizeof t->ns) : h;
}

static uint64_t mix_int(uint64_t h, const struct trace_int *v)
{
    h = fnv(h, &v->present, sizeof v->present);
    return v->present ? fnv(h, &v->v, sizeof v->v) : h;
}

static int digest_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)e;
    struct digest *d = ctx;
    uint64_t h = fnv(d->h, &ev->index, sizeof ev->index);
    int ph = (int)ev->ph;
    h = fnv(h, &ph, sizeof ph);
    h = mix_str(mix_str(h, &ev->name), &ev->cat);
    h = mix_str(mix_str(h, &ev->pid), &ev->tid);
    h = mix_time(mix_time(h, &ev->ts), &ev->dur);
    h = mix_int(mix_int(h, &ev->stream), &ev->correlation);
    h = mix_int(mix_int(h, &ev->bytes), &ev->flow_id);
    h = mix_str(h, &ev->arg_name);
    d->h = h;
    d->events++;
    return 0;
}

static void digest_warning(void *ctx, const struct trace_warning *w)
{
    struct digest *d = ctx;
    CHECK(w->what != NULL);
    d->h = fnv(d->h, &w->index, sizeof w->index);
    d->warnings++;
}

static int digest_meta(void *ctx, const struct trace_meta *m, struct err *e)
{
    (void)e;
    struct digest *d = ctx;
    CHECK(memchr(m->backend, 0, sizeof m->backend) != NULL);
    CHECK(memchr(m->display_time_unit, 0, sizeof m->display_time_unit) != NULL);
    CHECK(memchr(m->device_name, 0, sizeof m->device_name) != NULL);
    d->h = fnv(d->h, &m->rank, sizeof m->rank);
    d->h = fnv(d->h, &m->base_time_ns, sizeof m->base_time_ns);
    return 0;
}

static struct digest read_doc(const void *buf, size_t len, const struct trace_limits *lim,
                              size_t buf_size)
{
    struct digest d = {.h = 0xcbf29ce484222325ull};
    struct trace_sink sink = {.ctx = &d, .event = digest_event, .warning = digest_warning,
                              .meta = digest_meta};
    struct err e = {0, ""};
    struct trace_source_opts so = {.max_uncompressed = lim ? lim->max_uncompressed : 0};
    struct trace_source *src = trace_source_open_buffer(buf, len, &so, &e);
    CHECK(src != NULL);
    d.rc = trace_read_source(src, "fuzz.json", &sink, lim, buf_size, &e);
    trace_source_close(src);
    CHECK(d.rc <= 0);
    CHECK(d.rc == 0 || (e.code == d.rc && e.msg[0] != '\0'));
    CHECK(memchr(e.msg, 0, sizeof e.msg) != NULL);
    return d;
}

static bool same(const struct digest *a, const struct digest *b)
{
    return a->rc == b->rc && a->h == b->h && a->events == b->events && a->warnings == b->warnings;
}

/* Appends one gzip member holding len bytes at p; false when out of memory. */
static bool gzip_append(const void *p, size_t len, int level, unsigned char **out, size_t *outlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return false;
    size_t cap = deflateBound(&z, (uLong)len) + 32;
    unsigned char *grown = realloc(*out, *outlen + cap);
    if (!grown) {
        deflateEnd(&z);
        return false;
    }
    *out = grown;
    z.next_in = (unsigned char *)(uintptr_t)p;
    z.avail_in = (uInt)len;
    z.next_out = grown + *outlen;
    z.avail_out = (uInt)cap;
    int ret = deflate(&z, Z_FINISH);
    *outlen += cap - z.avail_out;
    deflateEnd(&z);
    return ret == Z_STREAM_END;
}

/* The same document through the gzip path: whole, in two members, cut short
 * and with a broken CRC. */
static void check_gzip(const unsigned char *doc, size_t len, uint64_t h,
                       const struct digest *plain)
{
    unsigned char *gz = NULL;
    size_t gzlen = 0;
    if (!gzip_append(doc, len, 1, &gz, &gzlen)) {
        free(gz);
        return;
    }
    struct digest d = read_doc(gz, gzlen, NULL, 0);
    CHECK(same(&d, plain));

    size_t cut = gzlen > 1 ? 1 + (size_t)(h % (gzlen - 1)) : 0;
    if (cut) {
        d = read_doc(gz, cut, NULL, 0);
        CHECK(d.rc != 0);
    }
    gz[gzlen - 8] ^= 0x5a;   /* the trailer is CRC-32 then length */
    d = read_doc(gz, gzlen, NULL, 0);
    CHECK(d.rc != 0);

    gzlen = 0;
    size_t split = len ? (size_t)((h >> 17) % (len + 1)) : 0;
    if (gzip_append(doc, split, 6, &gz, &gzlen) &&
        gzip_append(doc + split, len - split, 0, &gz, &gzlen)) {
        d = read_doc(gz, gzlen, NULL, 1 + (size_t)((h >> 9) % 200));
        CHECK(same(&d, plain));
    }
    free(gz);
}

static void check_reader(const unsigned char *doc, size_t len, uint64_t h)
{
    bool is_gzip = len >= 2 && doc[0] == 0x1f && doc[1] == 0x8b;
    struct digest plain = read_doc(doc, len, NULL, 0);
    struct digest tiny = read_doc(doc, len, NULL, 1 + (size_t)(h % 97));
    /* Broken gzip fails wherever the damage is met, after however many
     * events the buffer size let through; anything else must agree. */
    if (is_gzip && (plain.rc || tiny.rc))
        CHECK(plain.rc && tiny.rc);
    else
        CHECK(same(&plain, &tiny));

    if (!is_gzip && len <= FUZZ_GZIP_MAX)
        check_gzip(doc, len, h, &plain);

    /* Tight limits: any error is fine, a document larger than the limit
     * must fail, and nothing may crash. */
    struct trace_limits lim = {
        .max_uncompressed = len / 2 + 1,
        .max_event_bytes = 16 + (size_t)(h % 512),
        .max_meta_bytes = 8 + (size_t)((h >> 11) % 256),
        .max_depth = 1 + (int)((h >> 23) % 8),
    };
    struct digest d = read_doc(doc, len, &lim, 1 + (size_t)((h >> 29) % 300));
    if (!is_gzip && len > lim.max_uncompressed)
        CHECK(d.rc != 0);
}

/* ---- the model ----------------------------------------------------------------- */

static void check_stream(const struct stream_index *s, const struct rank_model *r, uint64_t h)
{
    for (size_t i = 0; i < s->n; i++) {
        CHECK(s->pos[i] < r->nevents);
        if (i > 0) {
            CHECK(r->events[s->pos[i - 1]].ts <= r->events[s->pos[i]].ts);
            CHECK(s->max_end[i - 1] <= s->max_end[i]);
        }
    }
    if (s->n == 0)
        return;
    int64_t t0 = r->events[s->pos[(size_t)(h % s->n)]].ts;
    int64_t t1 = t0 + (int64_t)((h >> 20) % 100000);
    size_t first = 0;
    size_t end = model_stream_window(s, r->events, t0, t1, &first);
    CHECK(first <= end && end <= s->n);
}

static void check_rank(const struct rank_model *r, uint64_t h)
{
    CHECK(r->path != NULL);
    for (size_t i = 0; i < r->nrows; i++)
        CHECK(r->rows[i] < r->nevents);
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        CHECK(ev->partner == MODEL_NONE || ev->partner < r->nevents);
        CHECK(ev->kind < EV_KIND_COUNT);
    }
    for (size_t i = 0; i < r->niterations; i++)
        CHECK(r->iterations[i].pos < r->nevents);
    for (size_t i = 0; i < r->nstreams; i++)
        check_stream(&r->streams[i], r, h >> i);
    for (size_t t = 0; t < r->nthreads; t++) {
        const struct thread_index *ti = &r->threads[t];
        for (size_t i = 0; i < ti->n; i++) {
            CHECK(ti->pos[i] < r->nevents);
            CHECK(ti->parent[i] == MODEL_NONE || ti->parent[i] < ti->n);
        }
    }
    CHECK(r->nwarning_texts <= MODEL_MAX_WARNING_TEXTS);
}

/* Writes t in every format; text must hold no raw ESC (a trace name must never
 * reach the terminal as an escape sequence) and JSON must parse. */
static void check_formats(const struct table *t)
{
    struct format_opts fo;
    format_opts_default(&fo);
    fo.bar_width = 10;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    format_table_text(f, t, &fo);
    fflush(f);
    CHECK(memchr(buf, 0x1b, len) == NULL);
    rewind(f);
    len = 0;
    format_table_csv(f, t, &fo);
    fflush(f);
    CHECK(memchr(buf, 0x1b, len) == NULL);
    rewind(f);
    len = 0;
    struct jsonw w;
    jsonw_init(&w, f, 1);
    format_table_json_rows(&w, t);
    jsonw_finish(&w);
    fclose(f);
    cJSON *doc = cJSON_ParseWithLength(buf, len);
    CHECK(doc != NULL);
    cJSON_Delete(doc);
    free(buf);
}

/* Runs every analysis; with_formats also writes each table (the costliest
 * part, so only for the first selection). */
static void run_analyses(const struct model *m, const struct analysis_opts *o,
                         struct arena *scratch, bool with_formats)
{
    size_t n = 0;
    const struct analysis_info *list = analysis_list(&n);
    for (size_t i = 0; i < n; i++) {
        struct table_list out;
        memset(&out, 0, sizeof out);
        struct err e = {0, ""};
        int rc = list[i].run(m, o, scratch, &out, &e);
        CHECK(rc <= 0);
        CHECK(out.count <= TABLE_LIST_MAX);
        for (size_t k = 0; with_formats && k < out.count; k++)
            check_formats(out.tables[k]);
        arena_reset(scratch);
    }
}

static void check_model(struct model *m, uint64_t h)
{
    struct analysis_opts o;
    analysis_opts_default(&o);
    if (h & 1)
        o.operator_name = "aten::mm";
    o.shorten_names = (h >> 1) & 1;
    struct arena scratch;
    arena_init(&scratch, 0);
    for (size_t r = 0; r < m->nranks; r++)
        check_rank(&m->ranks[r], h);
    run_analyses(m, &o, &scratch, true);

    /* One rank, its first iteration (when it has one), and a window. */
    const struct rank_model *r0 = &m->ranks[(h >> 2) % m->nranks];
    int64_t rank = r0->rank;
    int64_t iter = r0->niterations ? r0->iterations[(h >> 5) % r0->niterations].number : 0;
    struct selection sel = {.ranks = &rank, .nranks = 1};
    if (r0->niterations && ((h >> 8) & 1)) {
        sel.iterations = &iter;
        sel.niterations = 1;
    }
    if ((h >> 9) & 1) {
        sel.has_window = true;
        sel.window_start = r0->start_ns + (int64_t)((h >> 10) % 1000);
        sel.window_end = sel.window_start + 1 + (int64_t)((h >> 20) % 100000000);
    }
    struct err e = {0, ""};
    if (model_select(m, &sel, &e) == 0) {
        for (size_t r = 0; r < m->nranks; r++)
            check_rank(&m->ranks[r], h >> 3);
        run_analyses(m, &o, &scratch, false);
    }
    CHECK(model_select(m, NULL, &e) == 0);
    arena_fini(&scratch);
}

static void check_load(const unsigned char *const *docs, const size_t *lens, size_t n, uint64_t h)
{
    static const char *const names[] = {"rank-0.json", "trace_rank_1.json.gz", "x.json",
                                        "rank7.pt.trace.json", "rank-0.json", "rank-2.json"};
    const char *ns[FUZZ_MAX_RANKS];
    const void *bufs[FUZZ_MAX_RANKS];
    for (size_t i = 0; i < n; i++) {
        ns[i] = names[(i + (h >> 13)) % (sizeof names / sizeof names[0])];
        bufs[i] = docs[i];
    }
    struct semantics sem;
    semantics_init(&sem, (h >> 4) & 1 ? SEMANTICS_HTA : SEMANTICS_HTX);
    struct err e = {0, ""};
    struct model *m = model_load_buffers(ns, bufs, lens, n, &sem, &e);
    if (!m) {
        CHECK(e.code < 0 && e.msg[0] != '\0');
        return;
    }
    CHECK(m->nranks >= 1 && m->nranks + m->nfailed == n);
    for (size_t i = 1; i < m->nranks; i++)
        CHECK(m->ranks[i - 1].rank < m->ranks[i].rank);
    check_model(m, h);
    model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const unsigned char *docs[FUZZ_MAX_RANKS];
    size_t lens[FUZZ_MAX_RANKS];
    size_t n = 0;
    const size_t seplen = strlen(FUZZ_RANK_SEPARATOR);
    const unsigned char *p = data, *end = data + size;
    while (n < FUZZ_MAX_RANKS) {
        const unsigned char *sep = n + 1 < FUZZ_MAX_RANKS
            ? memmem(p, (size_t)(end - p), FUZZ_RANK_SEPARATOR, seplen) : NULL;
        docs[n] = p;
        lens[n] = sep ? (size_t)(sep - p) : (size_t)(end - p);
        n++;
        if (!sep)
            break;
        p = sep + seplen;
    }
    uint64_t h = fnv(0xcbf29ce484222325ull, data, size);
    for (size_t i = 0; i < n; i++)
        check_reader(docs[i], lens[i], h + i);
    check_load(docs, lens, n, h);
    return 0;
}
