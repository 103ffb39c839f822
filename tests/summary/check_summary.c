#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "summary/shard.h"
#include "summary/tables.h"
#include "summary/write.h"
#include "trace/pack_dict.h"
#include "util/summary_file.h"
#include "util/summary_file_source.h"
#include "summary_test.h"
#include "../analysis/same_tables.h"
#include "../memcheck.h"

/* A small summary: a source record, a section of a kind this reader does not
 * know (must be skipped) and a section with every field type. */
enum { KIND_UNKNOWN = 0x7777, KIND_FIELDS = 0x42 };

static void build_small(struct summary_file_writer *w, const uint8_t **buf, size_t *len)
{
    struct summary_file_source src = {.size = 123, .mtime_ns = -5, .head_hash = 1, .tail_hash = 2};
    strcpy(src.path, "/traces/rank-0.json.gz");
    summary_file_writer_init(w);
    summary_file_source_write(w, &src);
    summary_file_begin_section(w, KIND_UNKNOWN);
    summary_file_put_str(w, "future", 6);
    summary_file_end_section(w);
    summary_file_begin_section(w, KIND_FIELDS);
    summary_file_put_u32(w, 0xDEADBEEFu);
    summary_file_put_i64(w, INT64_MIN);
    summary_file_put_f64(w, 0.1);
    summary_file_put_str(w, "aten::mm", 8);
    summary_file_end_section(w);
    struct err e;
    ck_assert_int_eq(summary_file_writer_finish(w, buf, len, &e), 0);
}

START_TEST(crc32_should_match_zlib_check_value)
{
    /* The standard CRC-32 check value, equal to zlib's crc32(0, "123456789", 9). */
    ck_assert_uint_eq(summary_file_crc32(0, "123456789", 9), 0xCBF43926u);
    uint32_t part = summary_file_crc32(0, "12345", 5);
    ck_assert_uint_eq(summary_file_crc32(part, "6789", 4), 0xCBF43926u);
    /* Eight bytes a step: every length and alignment, and chained pieces,
     * against zlib's. */
    enum { N = 1 << 16 };
    unsigned char *buf = malloc(N);
    uint32_t x = 12345;
    for (size_t i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        buf[i] = (unsigned char)(x >> 16);
    }
    for (size_t off = 0; off < 8; off++)
        for (size_t len = 0; len < 80; len++)
            ck_assert_uint_eq(summary_file_crc32(0, buf + off, len),
                              (uint32_t)crc32(0, buf + off, (uInt)len));
    uint32_t chained = 0;
    for (size_t at = 0, step = 1; at < N; at += step, step = step * 3 % 1021 + 1)
        chained = summary_file_crc32(chained, buf + at, at + step <= N ? step : N - at);
    ck_assert_uint_eq(chained, (uint32_t)crc32(0, buf, N));
    free(buf);
}
END_TEST

START_TEST(summary_should_round_trip_and_skip_unknown_kinds)
{
    struct summary_file_writer w;
    const uint8_t *buf;
    size_t len;
    build_small(&w, &buf, &len);
    struct summary_file_doc doc;
    struct err e;
    ck_assert_int_eq(summary_file_parse(&doc, buf, len, "small.htxs", &e), 0);
    ck_assert_uint_eq(doc.nsections, 4);   // and the checks
    ck_assert_uint_eq(doc.sections[3].kind, SUMMARY_FILE_CHECKS);
    struct summary_file_source src;
    ck_assert_int_eq(summary_file_source_read(&src, &doc, "small.htxs", &e), 0);
    ck_assert_str_eq(src.path, "/traces/rank-0.json.gz");
    ck_assert_int_eq(src.size, 123);
    ck_assert_int_eq(src.mtime_ns, -5);
    const struct summary_file_section *s = summary_file_find(&doc, KIND_FIELDS);
    ck_assert_ptr_nonnull(s);
    struct summary_file_cur c;
    summary_file_cur_init(&c, s);
    ck_assert_uint_eq(summary_file_get_u32(&c), 0xDEADBEEFu);
    ck_assert(summary_file_get_i64(&c) == INT64_MIN);
    ck_assert(summary_file_get_f64(&c) == 0.1);
    size_t n;
    const char *str = summary_file_get_str(&c, &n);
    ck_assert_uint_eq(n, 8);
    ck_assert(memcmp(str, "aten::mm", 8) == 0);
    ck_assert_int_eq(c.bad, 0);
    summary_file_get_u32(&c); /* past the end: zero and bad, never a read out of bounds */
    ck_assert_int_eq(c.bad, 1);
    ck_assert_ptr_null(summary_file_find(&doc, 999));
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);
}
END_TEST

START_TEST(summary_should_refuse_every_truncation)
{
    struct summary_file_writer w;
    const uint8_t *buf;
    size_t len;
    build_small(&w, &buf, &len);
    for (size_t cut = 0; cut < len; cut++) {
        /* A copy of exactly cut bytes, so that ASan sees any read past it. */
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, buf, cut);
        struct summary_file_doc doc;
        struct err e;
        err_clear(&e);
        ck_assert_int_eq(summary_file_parse(&doc, copy, cut, "cut.htxs", &e), ERR_PARSE);
        ck_assert_ptr_nonnull(strstr(e.msg, "cut.htxs"));
        ck_assert_ptr_null(doc.sections);
        free(copy);
    }
    summary_file_writer_fini(&w);
}
END_TEST

START_TEST(summary_should_refuse_every_flipped_byte)
{
    struct summary_file_writer w;
    const uint8_t *buf;
    size_t len;
    build_small(&w, &buf, &len);
    uint8_t *copy = malloc(len);
    for (size_t i = 0; i < len; i++) {
        for (int bit = 0; bit < 8; bit++) {
            memcpy(copy, buf, len);
            copy[i] ^= (uint8_t)(1u << bit);
            struct summary_file_doc doc;
            struct err e;
            ck_assert_int_eq(summary_file_parse(&doc, copy, len, "flip.htxs", &e), ERR_PARSE);
            ck_assert_ptr_nonnull(strstr(e.msg, "flip.htxs"));
        }
    }
    free(copy);
    summary_file_writer_fini(&w);
}
END_TEST

START_TEST(summary_should_name_wrong_magic_version_and_checksum)
{
    struct summary_file_writer w;
    const uint8_t *buf;
    size_t len;
    build_small(&w, &buf, &len);
    uint8_t *copy = malloc(len);
    struct summary_file_doc doc;
    struct err e;

    memcpy(copy, buf, len);
    copy[0] = '{';
    ck_assert_int_eq(summary_file_parse(&doc, copy, len, "a.htxs", &e), ERR_PARSE);
    ck_assert_str_eq(e.msg, "a.htxs: not an htx summary (wrong magic)");

    /* Another major version, with a valid checksum so the version is what is reported. */
    memcpy(copy, buf, len);
    copy[8] = SUMMARY_FILE_MAJOR + 1;
    uint32_t crc = summary_file_crc32(0, copy, len - 4);
    for (int i = 0; i < 4; i++)
        copy[len - 4 + i] = (uint8_t)(crc >> (8 * i));
    ck_assert_int_eq(summary_file_parse(&doc, copy, len, "b.htxs", &e), ERR_PARSE);
    char want[96];
    snprintf(want, sizeof want, "b.htxs: summary format version %d.%d, this htx reads %d.x",
             SUMMARY_FILE_MAJOR + 1, SUMMARY_FILE_MINOR, SUMMARY_FILE_MAJOR);
    ck_assert_str_eq(e.msg, want);

    /* A newer minor version of the same major is read. */
    memcpy(copy, buf, len);
    copy[10] = SUMMARY_FILE_MINOR + 1;
    crc = summary_file_crc32(0, copy, len - 4);
    for (int i = 0; i < 4; i++)
        copy[len - 4 + i] = (uint8_t)(crc >> (8 * i));
    ck_assert_int_eq(summary_file_parse(&doc, copy, len, "c.htxs", &e), 0);
    summary_file_doc_fini(&doc);

    memcpy(copy, buf, len);
    copy[len - 10] ^= 1;
    ck_assert_int_eq(summary_file_parse(&doc, copy, len, "d.htxs", &e), ERR_PARSE);
    ck_assert_str_eq(e.msg, "d.htxs: bad checksum (corrupt summary)");
    free(copy);
    summary_file_writer_fini(&w);
}
END_TEST

START_TEST(summary_should_refuse_section_lengths_past_the_end)
{
    /* A well-checksummed file whose section claims 2^63 bytes: the bound
     * check must hold without overflow. */
    struct summary_file_writer w;
    const uint8_t *buf;
    size_t len;
    build_small(&w, &buf, &len);
    uint8_t *copy = malloc(len);
    memcpy(copy, buf, len);
    copy[SUMMARY_FILE_HEADER_LEN + 15] = 0x80;
    uint32_t crc = summary_file_crc32(0, copy, len - 4);
    for (int i = 0; i < 4; i++)
        copy[len - 4 + i] = (uint8_t)(crc >> (8 * i));
    struct summary_file_doc doc;
    struct err e;
    ck_assert_int_eq(summary_file_parse(&doc, copy, len, "e.htxs", &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "past the end"));
    free(copy);
    summary_file_writer_fini(&w);
}
END_TEST

/* A rank's record read alone, without the rest of its summary (the TUI's
 * --events=auto counts the events so); what is not a summary, or is cut
 * before the record, is refused. */
START_TEST(rank_record_should_be_peeked_at_alone)
{
    char dir[] = "/tmp/htxs-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char out[64], cut[64];
    snprintf(out, sizeof out, "%s/rank-00007.htxs", dir);
    snprintf(cut, sizeof cut, "%s/cut.htxs", dir);
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_begin_section(&w, SUMMARY_FILE_SOURCE);
    summary_file_put_bytes(&w, "0123456789abcdef", 16);
    summary_file_end_section(&w);
    struct summary_file_rank r = {.rank = 7, .events = 123456789};
    snprintf(r.path, sizeof r.path, "traces/rank-7.json.gz");
    summary_file_rank_write(&w, &r);
    const uint8_t *buf;
    size_t len;
    struct err e = {0, ""};
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &len, &e), 0);
    ck_assert_int_eq(summary_file_write_file(out, buf, len, 0, &e), 0);
    ck_assert_int_eq(summary_file_write_file(cut, buf, len - 70, 0, &e), 0);   // into the rank's
    struct summary_file_rank got;
    ck_assert_int_eq(summary_file_rank_peek(out, &got, &e), 0);
    ck_assert_int_eq(got.rank, 7);
    ck_assert_uint_eq(got.events, 123456789);
    ck_assert_str_eq(got.path, "traces/rank-7.json.gz");
    uint8_t *data;
    uint64_t n;
    ck_assert_int_eq(summary_file_peek_section(out, SUMMARY_FILE_TILES, &data, &n, &e), ERR_EMPTY);
    ck_assert_int_eq(summary_file_peek_section(out, SUMMARY_FILE_TILES, NULL, &n, &e), ERR_EMPTY);
    ck_assert_int_eq(summary_file_peek_section(out, SUMMARY_FILE_SOURCE, NULL, &n, &e), 0);   // whether, alone
    ck_assert_uint_eq(n, 16);
    struct summary_file_source src;   // 16 bytes that are no source record
    ck_assert_int_eq(summary_file_source_peek(&src, out, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "malformed source record"));
    ck_assert_int_eq(summary_file_rank_peek(cut, &got, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "cut.htxs"));
    ck_assert_int_eq(summary_file_write_file(cut, (const uint8_t *)"{\"traceEvents\": []}", 19, 1, &e),
                     0);
    ck_assert_int_eq(summary_file_rank_peek(cut, &got, &e), ERR_PARSE);
    summary_file_writer_fini(&w);
    unlink(out);
    unlink(cut);
    rmdir(dir);
}
END_TEST

START_TEST(writer_should_refuse_overwrite_and_detect_stale_sources)
{
    char dir[] = "/tmp/htxs-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char trace[64], out[64];
    snprintf(trace, sizeof trace, "%s/t.json", dir);
    snprintf(out, sizeof out, "%s/rank-00000.htxs", dir);
    FILE *f = fopen(trace, "w");
    fputs("{\"traceEvents\":[]}", f);
    fclose(f);

    struct summary_file_source src;
    struct err e;
    ck_assert_int_eq(summary_file_source_of(&src, trace, &e), 0);
    ck_assert_int_eq(src.size, 18);
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_source_write(&w, &src);
    const uint8_t *buf;
    size_t len;
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &len, &e), 0);
    ck_assert_int_eq(summary_file_write_file(out, buf, len, 0, &e), 0);
    ck_assert_int_eq(summary_file_write_file(out, buf, len, 0, &e), ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "--force"));
    ck_assert_int_eq(summary_file_write_file(out, buf, len, 1, &e), 0);
    summary_file_writer_fini(&w);

    struct summary_file_doc doc;
    ck_assert_int_eq(summary_file_load_file(&doc, out, &e), 0);
    struct summary_file_source back;
    ck_assert_int_eq(summary_file_source_read(&back, &doc, out, &e), 0);
    summary_file_doc_fini(&doc);
    struct summary_file_source peeked;   // the same record, its section read alone
    ck_assert_int_eq(summary_file_source_peek(&peeked, out, &e), 0);
    ck_assert(memcmp(&peeked, &back, sizeof back) == 0);
    ck_assert_int_eq(summary_file_source_check(&back, false), SUMMARY_FILE_FRESH);
    ck_assert_int_eq(summary_file_source_check(&back, true), SUMMARY_FILE_FRESH);

    /* Same size, different content, mtime put back: only the deep check
     * (the hashes) sees it. */
    f = fopen(trace, "w");
    fputs("{\"traceEvents\":{}}", f);
    fclose(f);
    ck_assert_int_eq(summary_file_source_check(&back, true), SUMMARY_FILE_STALE);
    struct timespec times[2] = {{back.mtime_ns / 1000000000, back.mtime_ns % 1000000000},
                                {back.mtime_ns / 1000000000, back.mtime_ns % 1000000000}};
    ck_assert_int_eq(utimensat(AT_FDCWD, trace, times, 0), 0);
    ck_assert_int_eq(summary_file_source_check(&back, false), SUMMARY_FILE_FRESH);
    ck_assert_int_eq(summary_file_source_check(&back, true), SUMMARY_FILE_STALE);
    unlink(trace);
    ck_assert_int_eq(summary_file_source_check(&back, true), SUMMARY_FILE_UNREACHABLE);
    unlink(out);
    rmdir(dir);
}
END_TEST

/* The source record's hashes are FNV-1a 64 of the file's first and last
 * SUMMARY_FILE_HASH_SPAN bytes (of the whole file when it is no longer), whatever
 * pieces the file is read in: summaries made before keep their meaning. */
START_TEST(source_should_hash_the_first_and_last_span)
{
    const int64_t span = SUMMARY_FILE_HASH_SPAN;
    const int64_t sizes[] = {1, 18, span - 1, span, span + 1, span + 100001, 3 * span + 7};
    const size_t nsizes = sizeof sizes / sizeof sizes[0];
    const int64_t largest = sizes[nsizes - 1];
    char dir[] = "/tmp/htxs-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char trace[64];
    snprintf(trace, sizeof trace, "%s/t.json", dir);
    uint8_t *bytes = malloc((size_t)largest);
    ck_assert_ptr_nonnull(bytes);
    uint32_t x = 7;
    for (int64_t i = 0; i < largest; i++) {
        x = x * 1103515245u + 12345u;
        bytes[i] = (uint8_t)(x >> 16);
    }
    for (size_t k = 0; k < nsizes; k++) {
        int64_t n = sizes[k];
        FILE *f = fopen(trace, "wb");
        ck_assert_ptr_nonnull(f);
        ck_assert_uint_eq(fwrite(bytes, 1, (size_t)n, f), (size_t)n);
        fclose(f);
        struct summary_file_source src;
        struct err e;
        ck_assert_int_eq(summary_file_source_of(&src, trace, &e), 0);
        ck_assert_int_eq(src.size, n);
        int64_t head = n < span ? n : span, tail_from = n < span ? 0 : n - span;
        ck_assert_uint_eq(src.head_hash, summary_file_fnv1a(SUMMARY_FILE_FNV_BASIS, bytes, (size_t)head));
        ck_assert_uint_eq(src.tail_hash,
                          summary_file_fnv1a(SUMMARY_FILE_FNV_BASIS, bytes + tail_from, (size_t)(n - tail_from)));
    }
    unlink(trace);
    rmdir(dir);
    free(bytes);
}
END_TEST

/* A fake environment: pairs of name, value; set by each test. */
static const char *const *fake_env;

static const char *fake_getenv(const char *name)
{
    for (size_t i = 0; fake_env[i]; i += 2)
        if (strcmp(fake_env[i], name) == 0)
            return fake_env[i + 1];
    return NULL;
}

static int shard_of(const char *arg, const char *const *env, struct summary_file_shard *s, struct err *e)
{
    fake_env = env;
    return summary_file_shard_parse(s, arg, fake_getenv, e);
}

/* A table of every cell type, as an analysis makes one. */
static struct table *sample_table(struct arena *a, const char *name)
{
    static const struct table_col cols[] = {
        {"rank", NULL, COL_KEY}, {"name", NULL, COL_KEY}, {"sum (us)", "us", 0},
        {"pctg", "%", COL_PERCENT}, {"flag", NULL, 0},
    };
    struct table *t = table_new(a, name, "A title", cols, 5);
    ck_assert_ptr_nonnull(t);
    for (int r = 0; r < 40; r++) {
        struct cell *row = table_add_row(t);
        row[0] = cell_int(r);
        row[1] = cell_str(t, r % 2 ? "aten::mm" : "void at::native::vectorized_elementwise_kernel<4>");
        row[2] = cell_double(r * 0.1);
        row[3] = r % 7 ? cell_double(1.0 / (r + 1)) : cell_null();
        row[4] = cell_bool(r % 3 == 0);
    }
    table_set_note(t, "a note");
    return t;
}

/* Inflates z into exactly n bytes of out, offering dict when the stream
 * asks for one (none: NULL); zlib's last return. */
static int inflate_with(uint8_t *out, uint64_t n, const uint8_t *z, size_t zn, const void *dict,
                        size_t dict_len)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    ck_assert_int_eq(inflateInit(&s), Z_OK);
    s.next_in = (Bytef *)z;
    s.avail_in = (uInt)zn;
    s.next_out = out;
    s.avail_out = (uInt)n;
    int zr = inflate(&s, Z_FINISH);
    if (zr == Z_NEED_DICT && dict) {
        zr = inflateSetDictionary(&s, dict, (uInt)dict_len);
        if (zr == Z_OK)
            zr = inflate(&s, Z_FINISH);
    }
    inflateEnd(&s);
    return zr;
}

/* The same puts into w, some of them borrowed or copied. */
static void put_sample(struct summary_file_writer *w, bool borrow, const uint8_t *big, size_t big_len)
{
    void (*put)(struct summary_file_writer *, const void *, size_t) =
        borrow ? summary_file_put_borrowed : summary_file_put_bytes;
    summary_file_begin_section(w, SUMMARY_FILE_RANK);
    summary_file_put_u64(w, 7);
    summary_file_end_section(w);
    summary_file_begin_section(w, SUMMARY_FILE_EVENTS);
    summary_file_put_u32(w, 1);
    put(w, big, big_len);
    summary_file_put_u32(w, 2);
    put(w, big, 10);   // two in a row, then one of nothing
    put(w, big, 0);
    summary_file_end_section(w);
    summary_file_begin_section(w, 99);
    put(w, big + 5, 3);
    summary_file_end_section(w);
}

/* put_sample's file as one buffer (the caller frees it). */
static uint8_t *file_of(bool borrow, const uint8_t *big, size_t big_len, size_t *len)
{
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    put_sample(&w, borrow, big, big_len);
    const uint8_t *buf;
    struct err e;
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, len, &e), 0);
    uint8_t *copy = malloc(*len);
    memcpy(copy, buf, *len);
    summary_file_writer_fini(&w);
    return copy;
}

START_TEST(writer_should_write_borrowed_bytes_in_place)
{
    size_t big_len = 300000;
    uint8_t *big = malloc(big_len);
    for (size_t i = 0; i < big_len; i++)
        big[i] = (uint8_t)(i * 2654435761u >> 13);
    size_t plain_len, borrowed_len;
    uint8_t *plain = file_of(false, big, big_len, &plain_len);
    uint8_t *gathered = file_of(true, big, big_len, &borrowed_len);
    ck_assert_uint_eq(plain_len, borrowed_len);
    ck_assert(memcmp(plain, gathered, plain_len) == 0);
    struct summary_file_doc doc;
    struct err e;
    ck_assert_int_eq(summary_file_parse(&doc, gathered, borrowed_len, "b.htxs", &e), 0);
    const struct summary_file_section *s = summary_file_find(&doc, SUMMARY_FILE_EVENTS);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(s->len, 4 + big_len + 4 + 10);
    ck_assert(memcmp(s->data + 4, big, big_len) == 0);
    summary_file_doc_fini(&doc);

    /* Saved without gathering: the same file. */
    char dir[] = "/tmp/htx-borrow-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char out[64];
    snprintf(out, sizeof out, "%s/r.htxs", dir);
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    put_sample(&w, true, big, big_len);
    ck_assert_int_eq(summary_file_writer_save(&w, out, 0, &e), 0);
    summary_file_writer_fini(&w);
    FILE *f = fopen(out, "rb");
    ck_assert_ptr_nonnull(f);
    uint8_t *back = malloc(plain_len + 1);
    ck_assert_uint_eq(fread(back, 1, plain_len + 1, f), plain_len);
    fclose(f);
    ck_assert(memcmp(back, plain, plain_len) == 0);
    unlink(out);
    rmdir(dir);

    /* At most SUMMARY_FILE_MAX_BORROWED runs; more fails the writer. */
    summary_file_writer_init(&w);
    for (int i = 0; i <= SUMMARY_FILE_MAX_BORROWED; i++)
        summary_file_put_borrowed(&w, big, 1);
    struct summary_file_piece pieces[SUMMARY_FILE_MAX_PIECES];
    size_t n;
    ck_assert_int_eq(summary_file_writer_pieces(&w, pieces, &n, &e), ERR_NOMEM);
    summary_file_writer_fini(&w);
    free(back), free(plain), free(gathered), free(big);
}
END_TEST

/* One analysis' tables under both semantics share one section and one
 * stream, smaller than two; either semantics reads its own back, and a
 * pair whose halves do not belong together is refused. */
START_TEST(tables_of_both_semantics_should_share_one_section)
{
    struct arena a;
    arena_init(&a, 0);
    struct table_list htx = {0}, hta = {0};
    table_list_add(&htx, sample_table(&a, "kernel_rows"));
    table_list_add(&hta, sample_table(&a, "kernel_rows"));
    table_list_add(&hta, sample_table(&a, "hta_only"));
    struct summary_file_deflated d;
    summary_file_tables_deflate_pair(3, &htx, &hta, &d);
    ck_assert_ptr_nonnull(d.z);
    struct summary_file_writer w, two;
    summary_file_writer_init(&w);
    summary_file_tables_put_pair(&w, 3, &htx, &hta, &d);
    summary_file_writer_init(&two);
    summary_file_tables_write(&two, 0, 3, &htx);
    summary_file_tables_write(&two, 1, 3, &hta);
    const uint8_t *buf, *buf2;
    size_t len, len2;
    struct err e;
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &len, &e), 0);
    ck_assert_int_eq(summary_file_writer_finish(&two, &buf2, &len2, &e), 0);
    ck_assert_uint_lt(len, len2);
    struct summary_file_doc doc;
    ck_assert_int_eq(summary_file_parse(&doc, buf, len, "t.htxs", &e), 0);
    const struct summary_file_section *s = summary_file_find(&doc, SUMMARY_FILE_TABLES_PAIR);
    ck_assert_ptr_nonnull(s);
    ck_assert(summary_file_is_tables(s));
    ck_assert_uint_eq(s->tag, summary_file_tables_tag(SUMMARY_FILE_BOTH_SEMANTICS, 3));
    for (int want = 0; want < 2; want++) {
        struct table_list got = {0};
        int sem = -1, an = -1;
        ck_assert_int_eq(summary_file_tables_read(s, "t.htxs", &a, want, &sem, &an, &got, &e), 0);
        ck_assert_int_eq(sem, want);
        ck_assert_int_eq(an, 3);
        assert_same_tables(want ? &hta : &htx, &got);
    }
    // A pair of two htx halves (written by hand) is refused.
    struct summary_file_deflated bad;
    summary_file_tables_deflate_pair(3, &htx, &hta, &bad);
    struct summary_file_writer raw;
    summary_file_writer_init(&raw);
    summary_file_put_varint(&raw, 0);
    summary_file_put_varint(&raw, 3);
    summary_file_put_varint(&raw, 0);
    summary_file_put_varint(&raw, 0);
    summary_file_put_varint(&raw, 3);
    summary_file_put_varint(&raw, 0);
    free(bad.z);
    summary_file_deflate_section(SUMMARY_FILE_TABLES_PAIR, 1, &raw, &bad);
    struct summary_file_writer bw;
    summary_file_writer_init(&bw);
    ck_assert_int_eq(summary_file_put_deflated_section(&bw, &bad), 0);
    const uint8_t *bbuf;
    size_t blen;
    ck_assert_int_eq(summary_file_writer_finish(&bw, &bbuf, &blen, &e), 0);
    struct summary_file_doc bdoc;
    ck_assert_int_eq(summary_file_parse(&bdoc, bbuf, blen, "b.htxs", &e), 0);
    struct table_list none = {0};
    int sem, an;
    ck_assert_int_eq(summary_file_tables_read(summary_file_find(&bdoc, SUMMARY_FILE_TABLES_PAIR), "b.htxs", &a, 1, &sem,
                                              &an, &none, &e),
                     ERR_PARSE);
    ck_assert_str_eq(e.msg, "b.htxs: malformed pair of tables");
    summary_file_doc_fini(&bdoc);
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&bw);
    summary_file_writer_fini(&raw);
    summary_file_writer_fini(&w);
    summary_file_writer_fini(&two);
    arena_fini(&a);
}
END_TEST

START_TEST(tables_should_be_deflated_and_read_back_exactly)
{
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = {0};
    table_list_add(&l, sample_table(&a, "first"));
    table_list_add(&l, sample_table(&a, "second"));
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_tables_write(&w, 1, 7, &l);
    const uint8_t *buf;
    size_t len;
    struct err e;
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &len, &e), 0);
    struct summary_file_doc doc;
    ck_assert_int_eq(summary_file_parse(&doc, buf, len, "t.htxs", &e), 0);
    const struct summary_file_section *s = summary_file_find(&doc, SUMMARY_FILE_TABLES_VZ);   // compact, deflated
    ck_assert_ptr_nonnull(s);
    ck_assert(summary_file_is_tables(s));

    struct table_list got = {0};
    int sem, an;
    ck_assert_int_eq(summary_file_tables_read(s, "t.htxs", &a, 0, &sem, &an, &got, &e), 0);
    ck_assert_int_eq(sem, 1);
    ck_assert_int_eq(an, 7);
    assert_same_tables(&l, &got);
    /* the header's tag says so too, for a reader that skips what it does not want */
    ck_assert_uint_eq(s->tag, summary_file_tables_tag(1, 7));
    ck_assert_uint_ne(summary_file_tables_tag(0, 7), summary_file_tables_tag(1, 7));
    ck_assert_uint_ne(summary_file_tables_tag(0, 0), 0);
    uint64_t raw_len = 0;
    for (int i = 0; i < 8; i++)
        raw_len |= (uint64_t)s->data[i] << (8 * i);
    ck_assert_uint_lt(s->len, raw_len);   /* deflated */

    /* the stream names htx's dictionary (format 1.2), and only it inflates it */
    uint8_t *raw = malloc(raw_len);
    ck_assert_int_eq(inflate_with(raw, raw_len, s->data + 8, s->len - 8, NULL, 0), Z_NEED_DICT);
    const uint8_t other[] = "temporal_breakdown rank";
    ck_assert_int_eq(inflate_with(raw, raw_len, s->data + 8, s->len - 8, other, sizeof other),
                     Z_DATA_ERROR);
    size_t dict_len;
    const unsigned char *dict = trace_pack_dictionary(&dict_len);
    ck_assert_int_eq(inflate_with(raw, raw_len, s->data + 8, s->len - 8, dict, dict_len),
                     Z_STREAM_END);

    /* compact contents are not plain ones: read as SUMMARY_FILE_TABLES, refused */
    struct summary_file_section misread = {SUMMARY_FILE_TABLES, raw, raw_len, 0};
    struct table_list got2 = {0};
    ck_assert_int_eq(summary_file_tables_read(&misread, "t.htxs", &a, 0, &sem, &an, &got2, &e), ERR_PARSE);

    /* plain contents under kind SUMMARY_FILE_TABLES (formats 1.0 to 1.4) read the same */
    struct summary_file_writer pw;
    summary_file_writer_init(&pw);
    summary_file_tables_write_plain(&pw, 1, 7, &l);
    const uint8_t *pbuf;
    size_t plen;
    ck_assert_int_eq(summary_file_writer_finish(&pw, &pbuf, &plen, &e), 0);
    struct summary_file_doc pdoc;
    ck_assert_int_eq(summary_file_parse(&pdoc, pbuf, plen, "p.htxs", &e), 0);
    const struct summary_file_section *ps = summary_file_find(&pdoc, SUMMARY_FILE_TABLES);
    ck_assert_ptr_nonnull(ps);
    ck_assert_uint_eq(ps->tag, summary_file_tables_tag(1, 7));
    ck_assert_int_eq(summary_file_tables_read(ps, "p.htxs", &a, 0, &sem, &an, &got2, &e), 0);
    assert_same_tables(&l, &got2);
    ck_assert_uint_gt(ps->len, raw_len);   // the compact contents are smaller
    free(raw);
    raw_len = ps->len;
    raw = malloc(raw_len);
    memcpy(raw, ps->data, raw_len);
    summary_file_doc_fini(&pdoc);
    summary_file_writer_fini(&pw);

    /* deflated without a dictionary (format 1.1): read the same */
    uLongf zl = compressBound((uLong)raw_len);
    uint8_t *old = malloc(8 + zl);
    for (int i = 0; i < 8; i++)
        old[i] = (uint8_t)(raw_len >> (8 * i));
    ck_assert_int_eq(compress2(old + 8, &zl, raw, (uLong)raw_len, 6), Z_OK);
    struct summary_file_section v11 = {SUMMARY_FILE_TABLES_Z, old, 8 + zl, 0};
    struct table_list got3 = {0};
    ck_assert_int_eq(summary_file_tables_read(&v11, "t.htxs", &a, 0, &sem, &an, &got3, &e), 0);
    assert_same_tables(&l, &got3);

    /* deflated with another dictionary: refused, naming the file */
    z_stream z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(deflateInit(&z, 6), Z_OK);
    ck_assert_int_eq(deflateSetDictionary(&z, other, sizeof other), Z_OK);
    z.next_in = raw;
    z.avail_in = (uInt)raw_len;
    z.next_out = old + 8;
    z.avail_out = (uInt)compressBound((uLong)raw_len);
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    v11.len = 8 + z.total_out;
    deflateEnd(&z);
    ck_assert_int_eq(summary_file_tables_read(&v11, "t.htxs", &a, 0, &sem, &an, &got3, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "t.htxs"));
    ck_assert_ptr_nonnull(strstr(e.msg, "unknown dictionary"));
    free(old);

    /* a length that lies, a flipped byte in the stream, a cut stream */
    uint8_t *bad = malloc(s->len);
    struct summary_file_section bs = {SUMMARY_FILE_TABLES_VZ, bad, s->len, 0};
    memcpy(bad, s->data, s->len);
    bad[0] ^= 1;
    struct table_list none = {0};
    ck_assert_int_eq(summary_file_tables_read(&bs, "t.htxs", &a, 0, &sem, &an, &none, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "t.htxs"));
    memcpy(bad, s->data, s->len);
    bad[8 + (s->len - 8) / 2] ^= 0x40;
    ck_assert_int_eq(summary_file_tables_read(&bs, "t.htxs", &a, 0, &sem, &an, &none, &e), ERR_PARSE);
    memcpy(bad, s->data, s->len);
    bs.len = s->len - 3;
    ck_assert_int_eq(summary_file_tables_read(&bs, "t.htxs", &a, 0, &sem, &an, &none, &e), ERR_PARSE);
    bs.len = 5;
    ck_assert_int_eq(summary_file_tables_read(&bs, "t.htxs", &a, 0, &sem, &an, &none, &e), ERR_PARSE);
    bad[7] = 0x7F;   /* a length deflate cannot reach */
    bs.len = s->len;
    ck_assert_int_eq(summary_file_tables_read(&bs, "t.htxs", &a, 0, &sem, &an, &none, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "impossible length"));
    free(bad);
    free(raw);
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);
    arena_fini(&a);
}
END_TEST

/* raw (compact contents) as an SUMMARY_FILE_TABLES_VZ section's payload, deflated
 * with htx's dictionary (malloc'ed). */
static uint8_t *vz_of(const uint8_t *raw, size_t n, size_t *len)
{
    size_t dict_len;
    const unsigned char *dict = trace_pack_dictionary(&dict_len);
    uLong bound = compressBound((uLong)n) + 64;
    uint8_t *out = malloc(8 + bound);
    for (int i = 0; i < 8; i++)
        out[i] = (uint8_t)((uint64_t)n >> (8 * i));
    z_stream z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(deflateInit(&z, 6), Z_OK);
    ck_assert_int_eq(deflateSetDictionary(&z, dict, (uInt)dict_len), Z_OK);
    z.next_in = (Bytef *)raw;
    z.avail_in = (uInt)n;
    z.next_out = out + 8;
    z.avail_out = (uInt)bound;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *len = 8 + z.total_out;
    deflateEnd(&z);
    return out;
}

/* Compact contents cut anywhere are refused; with any byte changed they are
 * refused or read as some tables, never read out of bounds (ASan). */
START_TEST(compact_tables_should_refuse_every_cut_and_survive_every_flip)
{
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = {0};
    table_list_add(&l, sample_table(&a, "first"));
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_tables_write(&w, 0, 3, &l);
    const uint8_t *buf;
    size_t len;
    struct err e;
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &len, &e), 0);
    struct summary_file_doc doc;
    ck_assert_int_eq(summary_file_parse(&doc, buf, len, "c.htxs", &e), 0);
    const struct summary_file_section *s = summary_file_find(&doc, SUMMARY_FILE_TABLES_VZ);
    uint64_t raw_len = 0;
    for (int i = 0; i < 8; i++)
        raw_len |= (uint64_t)s->data[i] << (8 * i);
    uint8_t *raw = malloc(raw_len);
    size_t dict_len;
    const unsigned char *dict = trace_pack_dictionary(&dict_len);
    ck_assert_int_eq(inflate_with(raw, raw_len, s->data + 8, s->len - 8, dict, dict_len),
                     Z_STREAM_END);
    int sem, an;
    for (size_t cut = 0; cut < raw_len; cut++) {
        size_t vl;
        uint8_t *v = vz_of(raw, cut, &vl);
        struct summary_file_section vs = {SUMMARY_FILE_TABLES_VZ, v, vl, 0};
        struct table_list got = {0};
        ck_assert_int_eq(summary_file_tables_read(&vs, "c.htxs", &a, 0, &sem, &an, &got, &e), ERR_PARSE);
        ck_assert_ptr_nonnull(strstr(e.msg, "c.htxs"));
        free(v);
    }
    uint8_t *flipped = malloc(raw_len);
    for (size_t i = 0; i < raw_len; i++) {
        memcpy(flipped, raw, raw_len);
        flipped[i] ^= 0x81;
        size_t vl;
        uint8_t *v = vz_of(flipped, raw_len, &vl);
        struct summary_file_section vs = {SUMMARY_FILE_TABLES_VZ, v, vl, 0};
        struct table_list got = {0};
        int rc = summary_file_tables_read(&vs, "c.htxs", &a, 0, &sem, &an, &got, &e);
        ck_assert_msg(rc == 0 || rc == ERR_PARSE, "byte %zu: %d", i, rc);
        free(v);
    }
    free(flipped);
    free(raw);
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);
    arena_fini(&a);
}
END_TEST

START_TEST(shard_should_come_from_the_option_or_the_scheduler)
{
    struct summary_file_shard s;
    struct err e;
    static const char *const none[] = {NULL};
    ck_assert_int_eq(shard_of("2/5", none, &s, &e), 0);
    ck_assert_int_eq(s.index, 2);
    ck_assert_int_eq(s.count, 5);
    ck_assert(summary_file_shard_owns(&s, 7) && !summary_file_shard_owns(&s, 8));
    ck_assert_int_eq(shard_of("5/5", none, &s, &e), ERR_USAGE);
    ck_assert_int_eq(shard_of("0/0", none, &s, &e), ERR_USAGE);
    ck_assert_int_eq(shard_of("1/", none, &s, &e), ERR_USAGE);
    ck_assert_int_eq(shard_of("-1/4", none, &s, &e), ERR_USAGE);
    ck_assert_int_eq(shard_of("1/4x", none, &s, &e), ERR_USAGE);
    ck_assert_int_eq(shard_of("auto", none, &s, &e), 0);
    ck_assert_int_eq(s.index, 0);
    ck_assert_int_eq(s.count, 1);

    /* A job array wins over the srun step variables that are also set inside it. */
    static const char *const array[] = {"SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "4",
                                        "SLURM_ARRAY_TASK_MIN", "1", "SLURM_PROCID", "0",
                                        "SLURM_NTASKS", "1", NULL};
    ck_assert_int_eq(shard_of("auto", array, &s, &e), 0);
    ck_assert_int_eq(s.index, 3);
    ck_assert_int_eq(s.count, 4);
    static const char *const srun[] = {"SLURM_PROCID", "1", "SLURM_NTASKS", "2", NULL};
    ck_assert_int_eq(shard_of("auto", srun, &s, &e), 0);
    ck_assert_int_eq(s.index, 1);
    ck_assert_int_eq(s.count, 2);
    static const char *const ompi[] = {"OMPI_COMM_WORLD_RANK", "3", "OMPI_COMM_WORLD_SIZE", "8", NULL};
    ck_assert_int_eq(shard_of("auto", ompi, &s, &e), 0);
    ck_assert_int_eq(s.index, 3);
    static const char *const pmi[] = {"PMI_RANK", "6", "PMI_SIZE", "7", NULL};
    ck_assert_int_eq(shard_of("auto", pmi, &s, &e), 0);
    ck_assert_int_eq(s.index, 6);
    static const char *const half[] = {"SLURM_PROCID", "1", NULL};
    ck_assert_int_eq(shard_of("auto", half, &s, &e), ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "SLURM_NTASKS"));
    static const char *const out_of_range[] = {"PMI_RANK", "7", "PMI_SIZE", "7", NULL};
    ck_assert_int_eq(shard_of("auto", out_of_range, &s, &e), ERR_USAGE);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("summary");
    TCase *tc = tcase_create("format");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, crc32_should_match_zlib_check_value);
    tcase_add_test(tc, summary_should_round_trip_and_skip_unknown_kinds);
    tcase_add_test(tc, summary_should_refuse_every_truncation);
    tcase_add_test(tc, summary_should_refuse_every_flipped_byte);
    tcase_add_test(tc, summary_should_name_wrong_magic_version_and_checksum);
    tcase_add_test(tc, summary_should_refuse_section_lengths_past_the_end);
    tcase_add_test(tc, writer_should_refuse_overwrite_and_detect_stale_sources);
    tcase_add_test(tc, source_should_hash_the_first_and_last_span);
    tcase_add_test(tc, rank_record_should_be_peeked_at_alone);
    tcase_add_test(tc, tables_should_be_deflated_and_read_back_exactly);
    tcase_add_test(tc, tables_of_both_semantics_should_share_one_section);
    tcase_add_test(tc, writer_should_write_borrowed_bytes_in_place);
    tcase_add_large_test(tc, compact_tables_should_refuse_every_cut_and_survive_every_flip);
    tcase_add_test(tc, shard_should_come_from_the_option_or_the_scheduler);
    suite_add_tcase(s, tc);
    suite_add_tcase(s, tiles_io_tcase());
    suite_add_tcase(s, colls_io_tcase());
    suite_add_tcase(s, sparse_tcase());
    suite_add_tcase(s, cache_tcase());
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
