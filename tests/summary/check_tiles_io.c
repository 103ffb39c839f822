#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tiles.h"
#include "summary/tiles_io.h"
#include "trace/zbuf.h"
#include "util/summary_file.h"
#include "util/summary_file_source.h"
#include "summary_test.h"

/* A rank summary's tiles section (summary/tiles_io.h): written and read
 * back exactly, and every malformed or unsound section refused with the
 * file named. */

/* A rank's tiles by hand: the GPU lane (computation and busy: the same run,
 * written once), a stream with the same computation run (written as a
 * reference to the GPU lane's), a thread lane. */
struct hand_tiles {
    int64_t idx[3], cum[3], tidx[2], tcum[2];
    struct tile_lane lanes[3];
    struct tiles t;
};

static void hand_tiles(struct hand_tiles *h)
{
    memset(h, 0, sizeof *h);
    int64_t idx[3] = {-5, -4, 2}, cum[3] = {1024, 1500, 2524}, tidx[2] = {-6, 3},
            tcum[2] = {1, 1025};
    memcpy(h->idx, idx, sizeof idx);
    memcpy(h->cum, cum, sizeof cum);
    memcpy(h->tidx, tidx, sizeof tidx);
    memcpy(h->tcum, tcum, sizeof tcum);
    struct tile_run comp = {3, h->idx, h->cum};
    h->lanes[0].kind = TILE_LANE_GPU;
    h->lanes[0].stream = -1;
    h->lanes[0].runs[TILE_COMPUTATION] = h->lanes[0].runs[TILE_BUSY] = comp;
    h->lanes[1].kind = TILE_LANE_STREAM;
    h->lanes[1].stream = 7;
    h->lanes[1].runs[TILE_COMPUTATION] = h->lanes[1].runs[TILE_BUSY] = comp;
    h->lanes[2].kind = TILE_LANE_THREAD;
    h->lanes[2].stream = -1;
    h->lanes[2].pid = "12";
    h->lanes[2].tid = "MainThread";
    h->lanes[2].runs[TILE_BUSY] = (struct tile_run){2, h->tidx, h->tcum};
    h->t = (struct tiles){.rank = -3, .width_log2 = 10, .first = -6, .count = 10,
                          .start_ns = -6 * 1024 + 5, .end_ns = 3 * 1024 + 1, .lanes = h->lanes,
                          .nlanes = 3};
    ck_assert_ptr_null(tiles_check(&h->t));
}

static void same_run(const struct tile_run *a, const struct tile_run *b)
{
    ck_assert_uint_eq(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        ck_assert_int_eq(a->index[i], b->index[i]);
        ck_assert_int_eq(a->cum[i], b->cum[i]);
    }
}

/* The tiles section of a summary holding body[0..n) as its raw contents
 * (claimed_len: the length it says), read back: rc, message in e. */
static int read_raw_tiles(const uint8_t *body, size_t n, uint64_t claimed_len, struct err *e)
{
    uint8_t *z;
    size_t zlen;
    ck_assert_int_eq(trace_deflate_buffer(body, n, true, &z, &zlen), 0);
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_begin_section(&w, SUMMARY_FILE_TILES);
    summary_file_put_u64(&w, claimed_len);
    summary_file_put_bytes(&w, z, zlen);
    summary_file_end_section(&w);
    free(z);
    const uint8_t *buf;
    size_t len;
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &len, e), 0);
    struct summary_file_doc doc;
    ck_assert_int_eq(summary_file_parse(&doc, buf, len, "bad.htxs", e), 0);
    struct arena a;
    arena_init(&a, 0);
    struct tiles t;
    int rc = summary_file_tiles_read(&doc, "bad.htxs", &a, &t, e);
    arena_fini(&a);
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);
    return rc;
}

/* Raw tiles of one GPU lane with one run: header fields then the run's
 * (gap, busy) pairs, as varints; `tail` extra bytes after. */
static int read_one_run(uint64_t wlog, int64_t first, uint64_t count, uint64_t mask,
                        const uint64_t *pairs, size_t npairs, bool tail, struct err *e)
{
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_put_varint(&w, wlog);
    summary_file_put_svarint(&w, 0);
    summary_file_put_svarint(&w, first);
    summary_file_put_varint(&w, count);
    summary_file_put_svarint(&w, 0);   /* the exact span: time 0 to 0, inside every span here */
    summary_file_put_svarint(&w, 0);
    summary_file_put_varint(&w, 1);
    summary_file_put_varint(&w, TILE_LANE_GPU);
    summary_file_put_varint(&w, mask);
    summary_file_put_varint(&w, npairs);
    for (size_t i = 0; i < 2 * npairs; i++)
        summary_file_put_varint(&w, pairs[i]);
    if (tail)
        summary_file_put_varint(&w, 0);
    size_t len;
    const uint8_t *body = summary_file_writer_body(&w, &len);
    int rc = read_raw_tiles(body, len, len, e);
    summary_file_writer_fini(&w);
    return rc;
}

START_TEST(tiles_should_round_trip_and_refuse_what_is_unsound)
{
    struct hand_tiles h;
    hand_tiles(&h);
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_tiles_write(&w, &h.t);
    const uint8_t *buf;
    size_t len;
    struct err e;
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &len, &e), 0);
    struct summary_file_doc doc;
    ck_assert_int_eq(summary_file_parse(&doc, buf, len, "t.htxs", &e), 0);
    struct arena a;
    arena_init(&a, 0);
    struct tiles got;
    ck_assert_int_eq(summary_file_tiles_read(&doc, "t.htxs", &a, &got, &e), 0);
    ck_assert_int_eq(got.rank, -3);
    ck_assert_uint_eq(got.width_log2, 10);
    ck_assert_int_eq(got.first, -6);
    ck_assert_int_eq(got.count, 10);
    ck_assert_int_eq(got.start_ns, -6 * 1024 + 5);
    ck_assert_int_eq(got.end_ns, 3 * 1024 + 1);
    ck_assert_uint_eq(got.nlanes, 3);
    for (size_t l = 0; l < 3; l++) {
        ck_assert_int_eq(got.lanes[l].kind, h.lanes[l].kind);
        ck_assert_int_eq(got.lanes[l].stream, h.lanes[l].stream);
        for (int cl = 0; cl < TILE_NCLASSES; cl++)
            same_run(&got.lanes[l].runs[cl], &h.lanes[l].runs[cl]);
    }
    ck_assert_str_eq(got.lanes[2].pid, "12");
    ck_assert_str_eq(got.lanes[2].tid, "MainThread");
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);

    /* a summary without tiles (made before them) says so */
    const uint8_t *small;
    size_t small_len;
    struct summary_file_source src = {.size = 1};
    summary_file_writer_init(&w);
    summary_file_source_write(&w, &src);
    ck_assert_int_eq(summary_file_writer_finish(&w, &small, &small_len, &e), 0);
    ck_assert_int_eq(summary_file_parse(&doc, small, small_len, "old.htxs", &e), 0);
    ck_assert_int_eq(summary_file_tiles_read(&doc, "old.htxs", &a, &got, &e), ERR_EMPTY);
    ck_assert_ptr_nonnull(strstr(e.msg, "old.htxs: no tiles"));
    summary_file_doc_fini(&doc);
    summary_file_writer_fini(&w);
    arena_fini(&a);

    /* hand-made raw sections: sound, then one thing wrong at a time */
    const uint64_t ok[] = {0, 5, 1, 0};   /* bucket 0: 5 ns; bucket 2: full */
    const uint64_t over[] = {0, 17};      /* 17 ns in a 16 ns bucket */
    const uint64_t past[] = {4, 1};       /* bucket 4 of a 4-bucket span */
    const uint64_t many[] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1};   /* 5 buckets of 4 */
    ck_assert_int_eq(read_one_run(4, 0, 4, 1u << TILE_BUSY, ok, 2, false, &e), 0);
    ck_assert_int_eq(read_one_run(4, 0, 4, 1u << TILE_BUSY, ok, 2, true, &e), ERR_PARSE);
    ck_assert_int_eq(read_one_run(4, 0, 4, 1u << TILE_BUSY, over, 1, false, &e), ERR_PARSE);
    ck_assert_int_eq(read_one_run(4, 0, 4, 1u << TILE_BUSY, past, 1, false, &e), ERR_PARSE);
    ck_assert_int_eq(read_one_run(4, 0, 4, 1u << TILE_BUSY, many, 5, false, &e), ERR_PARSE);
    ck_assert_int_eq(read_one_run(4, 0, 4, 1u << TILE_NCLASSES, ok, 2, false, &e), ERR_PARSE);
    ck_assert_int_eq(read_one_run(63, 0, 4, 1u << TILE_BUSY, ok, 2, false, &e), ERR_PARSE);
    /* full buckets of 2^61 ns over the widest span that fits (-3 to 2 in
     * buckets): their sum passes int64 at the fourth */
    const uint64_t wide[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    ck_assert_int_eq(read_one_run(61, -3, 5, 1u << TILE_BUSY, wide, 3, false, &e), 0);
    ck_assert_int_eq(read_one_run(61, -3, 5, 1u << TILE_BUSY, wide, 5, false, &e), ERR_PARSE);
    ck_assert_int_eq(read_one_run(4, INT64_MAX / 8, 4, 1u << TILE_BUSY, ok, 2, false, &e),
                     ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "bad.htxs: malformed tiles section"));
    /* two classes and no busy run: a class busier than the lane */
    const uint64_t two[] = {0, 3};
    ck_assert_int_eq(read_one_run(4, 0, 4, 1u << TILE_COMPUTATION, two, 1, false, &e), 0);
    ck_assert_int_eq(read_one_run(4, 0, 4, 3u, two, 1, false, &e), ERR_PARSE);   /* one run for two */

    /* a reference to a run not yet read (n = 0, lane 0 from lane 0) */
    struct summary_file_writer r;
    summary_file_writer_init(&r);
    const uint64_t self_ref[] = {4, 0, 0, 4, 0, 0, 1, TILE_LANE_GPU, 1u << TILE_BUSY, 0, 0};
    for (size_t i = 0; i < sizeof self_ref / sizeof *self_ref; i++)
        summary_file_put_varint(&r, self_ref[i]);
    size_t rlen;
    const uint8_t *rbody = summary_file_writer_body(&r, &rlen);
    ck_assert_int_eq(read_raw_tiles(rbody, rlen, rlen, &e), ERR_PARSE);
    /* a raw length past what any rank needs, or not the stream's */
    ck_assert_int_eq(read_raw_tiles(rbody, rlen, (uint64_t)1 << 40, &e), ERR_PARSE);
    ck_assert_int_eq(read_raw_tiles(rbody, rlen, rlen + 1, &e), ERR_PARSE);
    summary_file_writer_fini(&r);
    /* a thread's name longer than a summary keeps */
    summary_file_writer_init(&r);
    const uint64_t thread[] = {4, 0, 0, 4, 0, 0, 1, TILE_LANE_THREAD, TILES_NAME_MAX + 1};
    for (size_t i = 0; i < sizeof thread / sizeof *thread; i++)
        summary_file_put_varint(&r, thread[i]);
    char name[TILES_NAME_MAX + 1];
    memset(name, 'x', sizeof name);
    summary_file_put_bytes(&r, name, sizeof name);
    rbody = summary_file_writer_body(&r, &rlen);
    ck_assert_int_eq(read_raw_tiles(rbody, rlen, rlen, &e), ERR_PARSE);
    summary_file_writer_fini(&r);
}
END_TEST

TCase *tiles_io_tcase(void)
{
    TCase *tc = tcase_create("tiles");
    tcase_add_test(tc, tiles_should_round_trip_and_refuse_what_is_unsound);
    return tc;
}
