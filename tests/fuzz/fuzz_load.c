#include "config.h"
#include "fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <zlib.h>

#include "analysis/analysis.h"
#include "app/format.h"
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

/* ---- reading a document several ways ---------------------------------------- */

/* Appends one gzip member holding len bytes at p; false when out of memory.
 * A 512-byte window and the smallest hash (memLevel 1): deflate's default
 * state is some 256 KiB to allocate and clear per call, which under ASan
 * cost the target most of its time; the stream is gzip all the same. */
static bool gzip_append(const void *p, size_t len, int level, unsigned char **out, size_t *outlen)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, 9 + 16, 1, Z_DEFAULT_STRATEGY) != Z_OK)
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
                       const struct fuzz_digest *plain)
{
    unsigned char *gz = NULL;
    size_t gzlen = 0;
    if (!gzip_append(doc, len, 1, &gz, &gzlen)) {
        free(gz);
        return;
    }
    /* The document's own size as the scan buffer: a cut or damaged trailer
     * would otherwise have the scanner allocate (and ASan clear) 4 MiB. */
    size_t bufsz = len < 4096 ? 4096 : len + 1;
    struct fuzz_digest d = fuzz_read_doc(gz, gzlen, NULL, 0);
    CHECK(fuzz_same_digest(&d, plain));

    size_t cut = gzlen > 1 ? 1 + (size_t)(h % (gzlen - 1)) : 0;
    if (cut) {
        d = fuzz_read_doc(gz, cut, NULL, bufsz);
        CHECK(d.rc != 0);
    }
    gz[gzlen - 8] ^= 0x5a;   /* the trailer is CRC-32 then length */
    d = fuzz_read_doc(gz, gzlen, NULL, bufsz);
    CHECK(d.rc != 0);

    gzlen = 0;
    size_t split = len ? (size_t)((h >> 17) % (len + 1)) : 0;
    if (gzip_append(doc, split, 6, &gz, &gzlen) &&
        gzip_append(doc + split, len - split, 0, &gz, &gzlen)) {
        d = fuzz_read_doc(gz, gzlen, NULL, 1 + (size_t)((h >> 9) % 200));
        CHECK(fuzz_same_digest(&d, plain));
    }
    free(gz);
}

static void check_reader(const unsigned char *doc, size_t len, uint64_t h)
{
    bool is_gzip = len >= 2 && doc[0] == 0x1f && doc[1] == 0x8b;
    struct fuzz_digest plain = fuzz_read_doc(doc, len, NULL, 0);
    struct fuzz_digest tiny = fuzz_read_doc(doc, len, NULL, 1 + (size_t)(h % 97));
    /* Broken gzip fails wherever the damage is met, after however many
     * events the buffer size let through; anything else must agree. */
    if (is_gzip && (plain.rc || tiny.rc))
        CHECK(plain.rc && tiny.rc);
    else
        CHECK(fuzz_same_digest(&plain, &tiny));

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
    struct fuzz_digest d = fuzz_read_doc(doc, len, &lim, 1 + (size_t)((h >> 29) % 300));
    if (!is_gzip && len > lim.max_uncompressed)
        CHECK(d.rc != 0);
}

/* ---- the model ----------------------------------------------------------------- */

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
            fuzz_check_formats(out.tables[k]);
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
        fuzz_check_rank(&m->ranks[r], h);
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
            fuzz_check_rank(&m->ranks[r], h >> 3);
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
    uint64_t h = fuzz_fnv(0xcbf29ce484222325ull, data, size);
    for (size_t i = 0; i < n; i++)
        check_reader(docs[i], lens[i], h + i);
    check_load(docs, lens, n, h);
    return 0;
}
