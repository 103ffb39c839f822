#include "config.h"
#include "fuzz.h"

#include <string.h>

#include "analysis/diff.h"
#include "analysis/kernels.h"
#include "model/semantics.h"
#include "summary/colls_io.h"
#include "summary/deflated.h"
#include "summary/tables.h"
#include "summary/tiles_io.h"
#include "trace/pack.h"
#include "trace/pack_format.h"
#include "trace/zbuf.h"
#include "util/arena.h"
#include "util/summary_file.h"
#include "util/summary_file_source.h"
#include "util/le.h"

/* Rank summaries (util/summary_file.h) as they come from another machine: every
 * section through its reader, the tables through every output format, the
 * kernel parts through their reduce, the events through a replay. The first
 * byte chooses what the rest is:
 *   0  a whole summary, whose length field and trailing checksum the harness
 *      mends, so that mutations reach the sections instead of the checksum;
 *   1  the contents of a tables section (summary/tables.c), deflated here;
 *   2  the contents of a tiles section (summary/tiles_io.c), deflated here;
 *   3  the contents of a collectives section (summary/colls_io.c), deflated here;
 *   4  a pack's raw records (trace/pack_format.h), deflated here behind a pack header
 *      of version 5, or of version 6 when the byte's fifth is odd (9, say).
 * A refusal must name the summary; nothing may read out of bounds, leak or
 * hang. Seeds: tests/fuzz/summary (made by tests/fuzz/summary_seeds.sh). */

#define NAME "fuzz.htxs"

static int count_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)e;
    uint64_t *n = ctx;
    CHECK(ev->name.len == 0 || ev->name.s);
    ++*n;
    return 0;
}

static void check_refusal(int rc, const struct err *e)
{
    if (rc == 0 || rc == ERR_EMPTY)
        return;
    CHECK(rc < 0 && e->msg[0] != '\0');
    if (rc != ERR_NOMEM && !strstr(e->msg, NAME))
        fprintf(stderr, "fuzz: a refusal without the summary's name: %s\n", e->msg);
    CHECK(rc == ERR_NOMEM || strstr(e->msg, NAME) != NULL);
}

/* The tables of s under semantics want (a pair holds both). */
static void read_tables_of(const struct summary_file_section *s, int want)
{
    struct arena a;
    arena_init(&a, 1 << 12);
    struct table_list l = {.count = 0};
    int sem, an;
    struct err e = {0, ""};
    int rc = summary_file_tables_read(s, NAME, &a, want, &sem, &an, &l, &e);
    check_refusal(rc, &e);
    if (rc == 0) {
        for (size_t i = 0; i < l.count; i++) {
            fuzz_check_formats(l.tables[i]);
            (void)diff_parts_check(l.tables[i]);
        }
        if (an == ANALYSIS_KERNELS) {
            struct semantics sm;
            semantics_init(&sm, sem ? SEMANTICS_HTA : SEMANTICS_HTX);
            const struct table_list *parts[] = {&l};
            struct table_list out = {.count = 0};
            rc = kernels_reduce(&sm, parts, 1, &a, &out, &e);   // (the app names the file)
            CHECK(rc == 0 || (rc < 0 && e.msg[0] != '\0'));
            for (size_t i = 0; rc == 0 && i < out.count; i++)
                fuzz_check_formats(out.tables[i]);
        }
    }
    arena_fini(&a);
}

static void read_tables(const struct summary_file_section *s)
{
    read_tables_of(s, 0);
    if (s->kind == SUMMARY_FILE_TABLES_PAIR)
        read_tables_of(s, 1);
}

static void read_doc(const struct summary_file_doc *doc)
{
    struct err e = {0, ""};
    struct summary_file_rank rank;
    check_refusal(summary_file_rank_read(doc, NAME, &rank, &e), &e);
    struct summary_file_source src;
    e = (struct err){0, ""};
    check_refusal(summary_file_source_read(&src, doc, NAME, &e), &e);
    struct arena a;
    arena_init(&a, 1 << 12);
    struct tiles t;
    e = (struct err){0, ""};
    check_refusal(summary_file_tiles_read(doc, NAME, &a, &t, &e), &e);
    struct summary_file_colls c;
    e = (struct err){0, ""};
    check_refusal(summary_file_colls_read(doc, NAME, &a, &c, &e), &e);
    arena_fini(&a);
    for (uint32_t i = 0; i < doc->nsections; i++) {
        const struct summary_file_section *s = &doc->sections[i];
        if (summary_file_is_tables(s))
            read_tables(s);
        if (s->kind == SUMMARY_FILE_EVENTS) {
            uint64_t n = 0;
            struct trace_sink sink = {&n, count_event, NULL, NULL, NULL};
            e = (struct err){0, ""};
            int rc = trace_unpack(NAME, s->data, (size_t)s->len, NULL, &sink, NULL, &e);
            CHECK(rc == 0 || (rc < 0 && e.msg[0] != '\0'));
        }
    }
}

/* A summary whose one section of `kind` holds data deflated. */
static void one_deflated_section(uint32_t kind, uint32_t tag, const uint8_t *data, size_t size)
{
    struct summary_file_writer raw, w;
    summary_file_writer_init(&raw);
    summary_file_writer_init(&w);
    summary_file_put_bytes(&raw, data, size);
    const uint8_t *buf;
    size_t len;
    struct err e = {0, ""};
    struct summary_file_doc doc;
    if (summary_file_put_deflated(&w, kind, tag, &raw) == 0 && summary_file_writer_finish(&w, &buf, &len, &e) == 0 &&
        summary_file_parse(&doc, buf, len, NAME, &e) == 0) {
        read_doc(&doc);
        summary_file_doc_fini(&doc);
    }
    summary_file_writer_fini(&raw);
    summary_file_writer_fini(&w);
}

static void whole_summary(const uint8_t *data, size_t size)
{
    uint8_t *buf = malloc(size ? size : 1);
    CHECK(buf);
    memcpy(buf, data, size);
    if (size >= SUMMARY_FILE_HEADER_LEN + SUMMARY_FILE_TRAILER_LEN) {
        le_store(buf + 16, size, 8);
        le_store(buf + size - SUMMARY_FILE_TRAILER_LEN, summary_file_crc32(0, buf, size - SUMMARY_FILE_TRAILER_LEN), 4);
    }
    struct summary_file_doc doc;
    struct err e = {0, ""};
    int rc = summary_file_parse(&doc, buf, size, NAME, &e);
    check_refusal(rc, &e);
    if (rc == 0) {
        read_doc(&doc);
        summary_file_doc_fini(&doc);
    }
    free(buf);
}

/* version: PACK_SECOND_VERSION (the columns in their enum order, as in 4)
 * or PACK_STRINGS_FIRST_VERSION (a block's strings first). */
static void packed_records(const uint8_t *data, size_t size, uint32_t version)
{
    static const char path[] = "rank-0.json";
    uint8_t *z = NULL;
    size_t zlen = 0;
    if (trace_deflate_buffer(data, size, false, &z, &zlen) != 0)
        return;
    size_t head = TRACE_PACK_HEADER_FIXED + sizeof path - 1, len = head + zlen;
    uint8_t *pack = malloc(len);
    CHECK(pack);
    le_store(pack, version, 4);
    le_store(pack + 4, size, 8);
    le_store(pack + 12, sizeof path - 1, 4);
    memcpy(pack + TRACE_PACK_HEADER_FIXED, path, sizeof path - 1);
    memcpy(pack + head, z, zlen);
    uint64_t n = 0;
    struct trace_sink sink = {&n, count_event, NULL, NULL, NULL};
    struct err e = {0, ""};
    int rc = trace_unpack(NAME, pack, len, NULL, &sink, NULL, &e);
    CHECK(rc == 0 || (rc < 0 && e.msg[0] != '\0'));
    free(pack);
    free(z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const uint8_t *rest = data + 1;
    size_t n = size - 1;
    switch (data[0] % 5) {
    case 0:
        whole_summary(rest, n);
        break;
    case 1: {
        // The tag names a stored analysis or a part (summary/tables.h), as the writer's do.
        static const int analyses[] = {ANALYSIS_TEMPORAL, ANALYSIS_KERNELS, ANALYSIS_IDLE,
                                       ANALYSIS_OVERLAP, SUMMARY_FILE_RANKS_PARTS, SUMMARY_FILE_DIFF_PARTS};
        int an = analyses[(data[0] / 5) % (sizeof analyses / sizeof analyses[0])];
        one_deflated_section(SUMMARY_FILE_TABLES_VZ, summary_file_tables_tag(0, an), rest, n);
        break;
    }
    case 2:
        one_deflated_section(SUMMARY_FILE_TILES, 0, rest, n);
        break;
    case 3:
        one_deflated_section(SUMMARY_FILE_COLLS, 0, rest, n);
        break;
    default:
        packed_records(rest, n,
                       (data[0] / 5) % 2 ? PACK_STRINGS_FIRST_VERSION : PACK_SECOND_VERSION);
        break;
    }
    return 0;
}
