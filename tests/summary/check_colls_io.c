#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/collectives.h"
#include "summary/colls_io.h"
#include "summary/deflated.h"
#include "util/summary_file.h"
#include "util/strtab.h"
#include "summary_test.h"

/* A rank summary's collective records (summary/colls_io.h): written and
 * read back exactly (strings by their bytes, times and positions that go
 * back and forth), and every malformed section refused with the file
 * named. */

/* Parses a summary made of one SUMMARY_FILE_COLLS section whose raw contents are
 * the varints v[0..n) (signed where is_signed says), and reads it. */
static int read_raw(const int64_t *v, const bool *is_signed, size_t n, struct err *e)
{
    struct summary_file_writer raw, w;
    summary_file_writer_init(&raw);
    for (size_t i = 0; i < n; i++) {
        if (is_signed[i])
            summary_file_put_svarint(&raw, v[i]);
        else
            summary_file_put_varint(&raw, (uint64_t)v[i]);
    }
    summary_file_writer_init(&w);
    ck_assert_int_eq(summary_file_put_deflated(&w, SUMMARY_FILE_COLLS, 0, &raw), 0);
    const uint8_t *bytes;
    size_t len;
    ck_assert_int_eq(summary_file_writer_finish(&w, &bytes, &len, e), 0);
    struct summary_file_doc doc;
    ck_assert_int_eq(summary_file_parse(&doc, bytes, len, "bad.htxs", e), 0);
    struct arena a;
    arena_init(&a, 4096);
    struct summary_file_colls c;
    int rc = summary_file_colls_read(&doc, "bad.htxs", &a, &c, e);
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);
    summary_file_writer_fini(&raw);
    arena_fini(&a);
    return rc;
}

START_TEST(colls_should_round_trip_and_refuse_what_is_malformed)
{
    struct strtab s;
    ck_assert_int_eq(strtab_init(&s), 0);
    uint32_t kernel = strtab_intern(&s, "ncclDevKernel_AllReduce", 23);
    uint32_t nul = strtab_intern(&s, "all\0reduce", 10);   // a name holding a NUL
    uint32_t group = strtab_intern(&s, "0", 1);
    uint32_t ranks = strtab_intern(&s, "[0, 1]", 6);
    strtab_intern(&s, "unused", 6);
    struct coll_record recs[3] = {
        {.rank = 3, .pos = 40, .name = kernel, .coll_name = nul, .group = group,
         .pg_ranks = ranks, .stream = 7, .seq = 1, .group_size = 2, .bytes = 4096, .ts = 1000,
         .end = 1500, .iteration = 2},
        {.rank = 3, .pos = 12, .name = kernel, .stream = -1, .seq = -1, .group_size = -1,
         .bytes = -1, .ts = -250, .end = -250, .iteration = MODEL_ITER_NAN},
        {.rank = 3, .pos = 41, .name = kernel, .group = group, .stream = 8, .seq = 2,
         .group_size = 2, .bytes = 0, .ts = 5000, .end = 9000, .iteration = MODEL_ITER_NONE},
    };
    int64_t origin = -123456789;
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_colls_write(&w, 3, &origin, &s, recs, 3);
    const uint8_t *bytes;
    size_t len;
    struct err e = {0, ""};
    ck_assert_int_eq(summary_file_writer_finish(&w, &bytes, &len, &e), 0);
    struct summary_file_doc doc;
    ck_assert_int_eq(summary_file_parse(&doc, bytes, len, "t.htxs", &e), 0);
    struct arena a;
    arena_init(&a, 4096);
    struct summary_file_colls got;
    ck_assert_int_eq(summary_file_colls_read(&doc, "t.htxs", &a, &got, &e), 0);
    ck_assert(got.has_origin);
    ck_assert_int_eq(got.origin, origin);
    ck_assert_int_eq(got.rank, 3);
    ck_assert_uint_eq(got.n, 3);
    ck_assert_uint_eq(got.nstrings, 5);   // "", and the four the records use
    for (size_t i = 0; i < 3; i++) {
        const struct coll_record *g = &got.recs[i], *r = &recs[i];
        ck_assert_int_eq(g->rank, 3);
        ck_assert_uint_eq(g->pos, r->pos);
        ck_assert_int_eq(g->stream, r->stream);
        ck_assert_int_eq(g->seq, r->seq);
        ck_assert_int_eq(g->group_size, r->group_size);
        ck_assert_int_eq(g->bytes, r->bytes);
        ck_assert_int_eq(g->ts, r->ts);
        ck_assert_int_eq(g->end, r->end);
        ck_assert_int_eq(g->iteration, r->iteration);
        const uint32_t want[4] = {r->name, r->coll_name, r->group, r->pg_ranks};
        const uint32_t have[4] = {g->name, g->coll_name, g->group, g->pg_ranks};
        for (int k = 0; k < 4; k++) {
            ck_assert_uint_eq(got.lens[have[k]], strtab_len(&s, want[k]));
            ck_assert_mem_eq(got.strings[have[k]], strtab_str(&s, want[k]), got.lens[have[k]]);
        }
    }
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);

    /* a rank without events has no time 0; one without collectives, no records */
    summary_file_writer_init(&w);
    summary_file_colls_write(&w, 4, NULL, &s, NULL, 0);
    ck_assert_int_eq(summary_file_writer_finish(&w, &bytes, &len, &e), 0);
    ck_assert_int_eq(summary_file_parse(&doc, bytes, len, "t.htxs", &e), 0);
    ck_assert_int_eq(summary_file_colls_read(&doc, "t.htxs", &a, &got, &e), 0);
    ck_assert(!got.has_origin);
    ck_assert_uint_eq(got.n, 0);
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);

    /* a summary made before records: none, said so */
    summary_file_writer_init(&w);
    summary_file_begin_section(&w, SUMMARY_FILE_RANK);
    summary_file_end_section(&w);
    ck_assert_int_eq(summary_file_writer_finish(&w, &bytes, &len, &e), 0);
    ck_assert_int_eq(summary_file_parse(&doc, bytes, len, "old.htxs", &e), 0);
    ck_assert_int_eq(summary_file_colls_read(&doc, "old.htxs", &a, &got, &e), ERR_EMPTY);
    ck_assert_ptr_nonnull(strstr(e.msg, "old.htxs: no collective records"));
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);
    arena_fini(&a);
    strtab_fini(&s);

    /* hand-made sections: one record, sound, then one thing wrong at a time:
     * rank, has origin, origin, nstrings, "x" (2 x length), nrecords, name, coll_name,
     * group, pg_ranks, stream, seq, group_size, bytes, dts, dur, iteration, dpos */
    const bool sg[18] = {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1};
    const int64_t ok[18] = {3, 1, 100, 2, 2, 1, 1, 0, 0, 0, 7, -1, -1, -1, 50, 10, 1, 4};
    ck_assert_int_eq(read_raw(ok, sg, 18, &e), ERR_PARSE);   // "x"'s byte is missing
    struct {
        int at;
        int64_t v;
    } bad[] = {
        {1, 2},                    // has origin: 0 or 1
        {2, INT64_C(1) << 62 | 1}, // an origin past any trace's
        {3, 0},                    // no "" string
        {6, 2},                    // a name past the strings
        {9, 5},                    // a pg_ranks past the strings
        {11, -2},                  // a seq below -1
        {14, INT64_MAX},           // a start past the limit
        {15, (INT64_C(1) << 62) + 1}, // a duration past the limit
        {16, INT64_C(1) << 40},    // an iteration past int32
        {17, -1},                  // a position before the first
    };
    /* the sound one, with "x" written as its length and byte */
    int64_t v[19];
    bool vs[19];
    for (size_t k = 0; k < sizeof bad / sizeof bad[0] + 1; k++) {
        size_t n = 0;
        for (int i = 0; i < 18; i++) {
            int64_t x = k < sizeof bad / sizeof bad[0] && bad[k].at == i ? bad[k].v : ok[i];
            v[n] = x;
            vs[n++] = sg[i];
            if (i == 4) {   // the string's one byte
                v[n] = 'x';
                vs[n++] = false;
            }
        }
        int rc = read_raw(v, vs, n, &e);
        if (k == sizeof bad / sizeof bad[0]) {
            ck_assert_int_eq(rc, 0);
        } else {
            ck_assert_msg(rc == ERR_PARSE, "bad field %d was read", bad[k].at);
            ck_assert_ptr_nonnull(strstr(e.msg, "bad.htxs: malformed collective records"));
        }
    }
    /* bytes after the records, and more records than bytes */
    const int64_t trail[20] = {3, 1, 100, 2, 2, 'x', 1, 1, 0, 0, 0, 7, -1, -1, -1, 50, 10, 1, 4, 0};
    const bool ts[20] = {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 0};
    ck_assert_int_eq(read_raw(trail, ts, 19, &e), 0);
    ck_assert_int_eq(read_raw(trail, ts, 20, &e), ERR_PARSE);
    int64_t many[19];
    memcpy(many, trail, sizeof many);
    many[6] = 1000;
    ck_assert_int_eq(read_raw(many, ts, 19, &e), ERR_PARSE);
}
END_TEST

/* Process Group Ranks lists come back byte for byte, whether written as a
 * rank list (a, d, n) or as bytes; a list that would render past the limit
 * is refused. */
START_TEST(colls_should_keep_rank_lists_exactly)
{
    static char big[8000];
    size_t len = 0;
    for (int r = 0; r < 1024; r++)
        len += (size_t)snprintf(big + len, sizeof big - len, "%s%d", r ? ", " : "[", r);
    big[len++] = ']';
    const char *lists[] = {big, "[0, 8, 16]", "[7, 5, 3]", "[0,1,2]", "[1, 2]", "[0, 1, 3]",
                           "[00, 1, 2]", "[0, 1, 2] ", "[]", "[-1, 0, 1]"};
    const size_t n = sizeof lists / sizeof lists[0];
    struct strtab s;
    ck_assert_int_eq(strtab_init(&s), 0);
    struct coll_record recs[sizeof lists / sizeof lists[0]];
    memset(recs, 0, sizeof recs);
    for (size_t i = 0; i < n; i++) {
        recs[i].pg_ranks = strtab_intern(&s, lists[i], i ? strlen(lists[i]) : len);
        recs[i].pos = (uint32_t)i;
        recs[i].seq = recs[i].group_size = recs[i].bytes = -1;
    }
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_colls_write(&w, 0, NULL, &s, recs, n);
    const uint8_t *bytes;
    size_t blen;
    struct err e = {0, ""};
    ck_assert_int_eq(summary_file_writer_finish(&w, &bytes, &blen, &e), 0);
    ck_assert_uint_lt(blen, 600);   // the 1024 ranks' list is not 5 KB of text
    struct summary_file_doc doc;
    ck_assert_int_eq(summary_file_parse(&doc, bytes, blen, "t.htxs", &e), 0);
    struct arena a;
    arena_init(&a, 4096);
    struct summary_file_colls got;
    ck_assert_int_eq(summary_file_colls_read(&doc, "t.htxs", &a, &got, &e), 0);
    for (size_t i = 0; i < n; i++) {
        size_t want = i ? strlen(lists[i]) : len;
        ck_assert_uint_eq(got.lens[got.recs[i].pg_ranks], want);
        ck_assert_mem_eq(got.strings[got.recs[i].pg_ranks], lists[i], want);
    }
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);
    arena_fini(&a);
    strtab_fini(&s);
    /* hand-made: one string, the rank list (a, d, n), then one record whose
     * pg_ranks is it; sound for (0, 1, 3), refused for a count that renders
     * past the limit, a negative first, values past int64, fewer than 3 */
    const bool sg[18] = {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1};
    const int64_t lists_bad[5][3] = {
        {0, 1, 3}, {0, 1, COLLS_MAX_STRING / 3}, {-1, 1, 3}, {0, INT64_MAX / 2, 3}, {0, 1, 2}};
    for (int k = 0; k < 5; k++) {
        int64_t v[21] = {3, 1, 100, 2, 1, lists_bad[k][0], lists_bad[k][1], lists_bad[k][2],
                         1, 0, 0, 0, 1, 7, -1, -1, -1, 50, 10, 1, 4};
        bool vs[21] = {1, 0, 1, 0, 0, 1, 1, 0};
        for (int i = 8; i < 21; i++)
            vs[i] = sg[i - 3];
        int rc = read_raw(v, vs, 21, &e);
        ck_assert_msg(k == 0 ? rc == 0 : rc == ERR_PARSE, "rank list %d: %d", k, rc);
    }
}
END_TEST

TCase *colls_io_tcase(void)
{
    TCase *tc = tcase_create("collective records");
    tcase_add_test(tc, colls_should_round_trip_and_refuse_what_is_malformed);
    tcase_add_test(tc, colls_should_keep_rank_lists_exactly);
    return tc;
}
