#include "config.h"
#include "breakdown_test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tiles.h"
#include "summary/tiles_io.h"

/* The tiles (analysis/tiles.h) and the utilization table made from them:
 * every bucket holds exactly the busy time the events put in it, at the
 * finest width and at every coarser one; ranks of different widths nest on
 * the job's axis. */

/* Busy time of the union of iv[0..n) (sorted by start, µs) inside [lo, hi) ns. */
static int64_t union_in(const int64_t (*iv)[2], size_t n, int64_t lo, int64_t hi)
{
    int64_t busy = 0, cur_s = 0, cur_e = INT64_MIN;
    for (size_t i = 0; i <= n; i++) {
        int64_t s = i < n ? iv[i][0] * 1000 : INT64_MAX, e = i < n ? iv[i][1] * 1000 : INT64_MAX;
        if (i < n && s <= cur_e) {
            cur_e = e > cur_e ? e : cur_e;
            continue;
        }
        if (cur_e != INT64_MIN) {
            int64_t a = cur_s > lo ? cur_s : lo, b = cur_e < hi ? cur_e : hi;
            busy += b > a ? b - a : 0;
        }
        cur_s = s;
        cur_e = e;
    }
    return busy;
}

/* Every bucket of run at width w * 2^level equals the union's time in it. */
static void assert_run_is(const struct tiles *t, const struct tile_run *run,
                          const int64_t (*iv)[2], size_t n, const char *what)
{
    for (unsigned level = 0; level < 8; level++) {
        int64_t scale = (int64_t)1 << level, w = ((int64_t)1 << t->width_log2) * scale;
        int64_t from = tiles_bucket_of(t->first, level) - 1;
        int64_t to = tiles_bucket_of(t->first + t->count, level) + 1;
        int64_t total = 0;
        for (int64_t k = from; k <= to; k++) {
            int64_t got = tiles_sum(run, k * scale, (k + 1) * scale);
            ck_assert_msg(got == union_in(iv, n, k * w, k * w + w),
                          "%s: level %u bucket %lld: %lld ns, want %lld", what, level,
                          (long long)k, (long long)got, (long long)union_in(iv, n, k * w, k * w + w));
            total += got;
        }
        ck_assert_int_eq(total, union_in(iv, n, INT64_MIN / 2, INT64_MAX / 2));
    }
}

/* Absolute times (µs): the model's origin is the first event, 1000 µs. */
#define TILES_EVENTS                                                                       \
    X("cpu_op", "aten::mm", 1, 1000, 900, "")                                              \
    X("cpu_op", "aten::mm", 1, 1100, 100, "")                                              \
    X("cpu_op", "aten::add", 2, 1950, 40, "")                                              \
    KERNEL("gemm_kernel", 7, 1010, 300, 1)                                                 \
    KERNEL("gemm_kernel", 7, 1300, 200, 2)                                                 \
    KERNEL("ncclKernel_AllReduce", 8, 1200, 600, 3)                                        \
    X("gpu_memcpy", "Memcpy HtoD", 7, 1900, 50, "\"stream\":7,\"correlation\":4")

START_TEST(tiles_should_hold_the_busy_time_of_every_bucket_at_every_level)
{
    struct model *m = bd_load(TILES_EVENTS, SEMANTICS_HTX);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct tiles t;
    ck_assert_int_eq(tiles_build(m, &m->ranks[0], &o, false, &bd_scratch, &t), 0);
    ck_assert_ptr_null(tiles_check(&t));
    /* span 1000..1990 µs over few events: 64 buckets of 2^14 ns */
    ck_assert_uint_eq(t.width_log2, 14);
    ck_assert_int_le(t.first << 14, 1000000);
    ck_assert_int_ge((t.first + t.count) << 14, 1990000);
    ck_assert_uint_eq(t.nlanes, 1 + 2 + 2);   /* GPU, streams 7 and 8, threads 1 and 2 */

    static const int64_t comp[][2] = {{1010, 1310}, {1300, 1500}};
    static const int64_t comm[][2] = {{1200, 1800}};
    static const int64_t mem[][2] = {{1900, 1950}};
    static const int64_t busy[][2] = {{1010, 1310}, {1200, 1800}, {1300, 1500}, {1900, 1950}};
    static const int64_t s7[][2] = {{1010, 1310}, {1300, 1500}, {1900, 1950}};
    static const int64_t cpu1[][2] = {{1000, 1900}};
    const struct tile_lane *gpu = tiles_find_lane(&t, TILE_LANE_GPU, -1);
    ck_assert_ptr_nonnull(gpu);
    assert_run_is(&t, &gpu->runs[TILE_COMPUTATION], comp, 2, "computation");
    assert_run_is(&t, &gpu->runs[TILE_COMMUNICATION], comm, 1, "communication");
    assert_run_is(&t, &gpu->runs[TILE_MEMORY], mem, 1, "memory");
    assert_run_is(&t, &gpu->runs[TILE_BUSY], busy, 4, "busy");
    ck_assert_uint_eq(gpu->runs[TILE_OTHER].n, 0);
    const struct tile_lane *l7 = tiles_find_lane(&t, TILE_LANE_STREAM, 7);
    ck_assert_ptr_nonnull(l7);
    assert_run_is(&t, &l7->runs[TILE_BUSY], s7, 3, "stream 7");
    assert_run_is(&t, &l7->runs[TILE_COMPUTATION], comp, 2, "stream 7 computation");
    ck_assert_uint_eq(l7->runs[TILE_COMMUNICATION].n, 0);
    ck_assert_ptr_nonnull(tiles_find_lane(&t, TILE_LANE_STREAM, 8));
    ck_assert_ptr_null(tiles_find_lane(&t, TILE_LANE_STREAM, 9));
    /* thread 1: the outer aten::mm only (the inner one is inside it) */
    const struct tile_lane *th = &t.lanes[3];
    ck_assert_int_eq(th->kind, TILE_LANE_THREAD);
    ck_assert_str_eq(th->tid, "1");
    assert_run_is(&t, &th->runs[TILE_BUSY], cpu1, 1, "thread 1");
    ck_assert_uint_eq(th->runs[TILE_COMPUTATION].n, 0);

    /* gpu_only: the same GPU lane, nothing else */
    struct tiles g;
    ck_assert_int_eq(tiles_build(m, &m->ranks[0], &o, true, &bd_scratch, &g), 0);
    ck_assert_uint_eq(g.nlanes, 1);
    ck_assert_uint_eq(g.lanes[0].runs[TILE_BUSY].n, gpu->runs[TILE_BUSY].n);
    ck_assert(memcmp(g.lanes[0].runs[TILE_BUSY].cum, gpu->runs[TILE_BUSY].cum,
                     gpu->runs[TILE_BUSY].n * sizeof(int64_t)) == 0);
    model_free(m);
}
END_TEST

/* A coarser copy holds the same busy time in each of its buckets, at its
 * width and every coarser one; tiles_fit picks the finest width that fits. */
START_TEST(tiles_coarsen_should_keep_every_bucket_sum)
{
    struct model *m = bd_load(TILES_EVENTS, SEMANTICS_HTX);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct tiles t;
    ck_assert_int_eq(tiles_build(m, &m->ranks[0], &o, false, &bd_scratch, &t), 0);
    static const int64_t comp[][2] = {{1010, 1310}, {1300, 1500}};
    static const int64_t busy[][2] = {{1010, 1310}, {1200, 1800}, {1300, 1500}, {1900, 1950}};
    static const int64_t cpu1[][2] = {{1000, 1900}};
    for (unsigned d = 0; d <= 6; d++) {
        struct tiles c;
        ck_assert_int_eq(tiles_coarsen(&t, t.width_log2 + d, &bd_scratch, &c), 0);
        ck_assert_ptr_null(tiles_check(&c));
        ck_assert_uint_eq(c.width_log2, t.width_log2 + d);
        ck_assert_uint_eq(c.nlanes, t.nlanes);
        ck_assert_int_eq(c.start_ns, t.start_ns);
        ck_assert_int_le(c.first << c.width_log2, t.first << t.width_log2);
        ck_assert_int_ge((c.first + c.count) << c.width_log2,
                         (t.first + t.count) << t.width_log2);
        const struct tile_lane *gpu = tiles_find_lane(&c, TILE_LANE_GPU, -1);
        assert_run_is(&c, &gpu->runs[TILE_COMPUTATION], comp, 2, "coarse computation");
        assert_run_is(&c, &gpu->runs[TILE_BUSY], busy, 4, "coarse busy");
        ck_assert_str_eq(c.lanes[3].tid, "1");
        ck_assert_ptr_ne(c.lanes[3].tid, t.lanes[3].tid);   // copied, not borrowed
        assert_run_is(&c, &c.lanes[3].runs[TILE_BUSY], cpu1, 1, "coarse thread 1");
        ck_assert_uint_le(tiles_bytes(&c), tiles_bytes(&t));
    }
    /* a budget the tiles fit keeps their width; a smaller one coarsens
     * until they fit; one nothing fits goes to the widest */
    struct tiles f;
    ck_assert_int_eq(tiles_fit(&t, tiles_bytes(&t), &bd_scratch, &f), 0);
    ck_assert_uint_eq(f.width_log2, t.width_log2);
    ck_assert_int_eq(tiles_fit(&t, 0, &bd_scratch, &f), 0);
    ck_assert_uint_eq(f.width_log2, t.width_log2);
    ck_assert_int_eq(tiles_fit(&t, tiles_bytes(&t) - 1, &bd_scratch, &f), 0);
    ck_assert_uint_gt(f.width_log2, t.width_log2);
    ck_assert_uint_le(tiles_bytes(&f), tiles_bytes(&t) - 1);
    struct tiles wider;
    ck_assert_int_eq(tiles_coarsen(&t, f.width_log2 - 1, &bd_scratch, &wider), 0);
    ck_assert_uint_gt(tiles_bytes(&wider), tiles_bytes(&t) - 1);   // the finest that fits
    ck_assert_int_eq(tiles_fit(&t, 1, &bd_scratch, &f), 0);
    ck_assert_uint_ge(f.width_log2, 60);   // as wide as a sound span allows
    ck_assert_ptr_null(tiles_check(&f));
    ck_assert_uint_eq(f.count, 1);
    const struct tile_run *all = &f.lanes[0].runs[TILE_BUSY];
    ck_assert_uint_eq(all->n, 1);
    ck_assert_int_eq(all->cum[0], 840000);   // the whole busy time in one bucket
    model_free(m);
}
END_TEST

START_TEST(tiles_should_floor_times_before_zero)
{
    ck_assert_int_eq(tiles_bucket_of(7, 3), 0);
    ck_assert_int_eq(tiles_bucket_of(8, 3), 1);
    ck_assert_int_eq(tiles_bucket_of(-1, 3), -1);
    ck_assert_int_eq(tiles_bucket_of(-8, 3), -1);
    ck_assert_int_eq(tiles_bucket_of(-9, 3), -2);
    ck_assert_int_eq(tiles_bucket_of(INT64_MIN, 0), INT64_MIN);
    ck_assert_int_eq(tiles_bucket_of(INT64_MIN, 62), -2);
    /* widths: 64 buckets at least, 16384 at most, one per 64 events between */
    ck_assert_uint_eq(tiles_width_log2(64 << 10, 10), 10);
    ck_assert_uint_eq(tiles_width_log2((64 << 10) + 1, 10), 11);
    ck_assert_uint_eq(tiles_width_log2(1 << 20, 64 * 1024), 9);   /* 2048 buckets */
    ck_assert_uint_eq(tiles_width_log2(1 << 20, UINT64_MAX), 6);
    ck_assert_uint_eq(tiles_width_log2(0, 0), 0);
    ck_assert_uint_eq(tiles_width_log2(INT64_MAX, 0), 57);
}
END_TEST

/* A hand-made rank: one GPU lane whose classes are runs of (bucket, ns). */
struct hand_run {
    int64_t index[4], busy[4];
    size_t n;
};

static void fill(struct tile_run *run, const struct hand_run *h, int64_t *index, int64_t *cum)
{
    int64_t sum = 0;
    for (size_t i = 0; i < h->n; i++) {
        index[i] = h->index[i];
        cum[i] = sum += h->busy[i];
    }
    *run = (struct tile_run){h->n, index, cum};
}

START_TEST(tiles_table_should_nest_ranks_of_different_widths)
{
    /* rank 3: buckets of 1024 ns over [0, 65536); rank 5: 4096 ns over [4096, 65536) */
    int64_t idx[4][4], cum[4][4];
    struct tile_lane lanes[2];
    memset(lanes, 0, sizeof lanes);
    const struct hand_run r3_comp = {{0, 1, 2, 4}, {1024, 1024, 512, 1024}, 4};
    const struct hand_run r5_comm = {{1, 15}, {2048, 4096}, 2};
    fill(&lanes[0].runs[TILE_COMPUTATION], &r3_comp, idx[0], cum[0]);
    fill(&lanes[0].runs[TILE_BUSY], &r3_comp, idx[1], cum[1]);
    fill(&lanes[1].runs[TILE_COMMUNICATION], &r5_comm, idx[2], cum[2]);
    fill(&lanes[1].runs[TILE_BUSY], &r5_comm, idx[3], cum[3]);
    struct tiles t[3] = {
        {.rank = 3, .width_log2 = 10, .first = 0, .count = 64, .start_ns = 0, .end_ns = 65536,
         .lanes = &lanes[0], .nlanes = 1},
        {.rank = 5, .width_log2 = 12, .first = 1, .count = 15, .start_ns = 4096,
         .end_ns = 65536, .lanes = &lanes[1], .nlanes = 1},
        {.rank = 7, .width_log2 = 12},   /* a rank with no events: zero rows, noted */
    };
    for (size_t i = 0; i < 3; i++)
        ck_assert_ptr_null(tiles_check(&t[i]));
    struct table_list out = {{NULL}, 0};
    struct err e = {0, ""};
    ck_assert_int_eq(tiles_table(t, 3, &bd_scratch, &out, &e), 0);
    const struct table *tab = out.tables[0];
    ck_assert_str_eq(tab->name, "gpu_utilization_over_time");
    ck_assert_uint_eq(tab->nrows, 3 * 16);   /* W = 4096 ns: 16 buckets from 0 */
    ck_assert_ptr_nonnull(strstr(tab->note, "1 of 3 ranks have no GPU work"));
    ASSERT_NUM(tab, 0, "rank", 3);
    ASSERT_NUM(tab, 0, "computation_pctg", 100.0 * (1024 + 1024 + 512) / 4096);
    ASSERT_NUM(tab, 1, "computation_pctg", 25.0);
    ASSERT_NUM(tab, 1, "start (us)", 4.096);
    ASSERT_NUM(tab, 0, "busy_pctg", 62.5);
    ASSERT_NUM(tab, 16, "rank", 5);
    ASSERT_NUM(tab, 16, "communication_pctg", 0);
    ASSERT_NUM(tab, 17, "communication_pctg", 50.0);
    ASSERT_NUM(tab, 31, "communication_pctg", 100.0);
    ASSERT_NUM(tab, 31, "computation_pctg", 0);
    ASSERT_NUM(tab, 47, "busy_pctg", 0);

    /* ranks at the ends of time (sound, as a summary could hold them): the
     * job's axis spans them without overflow, in at most 65 buckets */
    int64_t far_idx[2] = {INT64_MIN / 2 + 1, INT64_MAX / 2 - 2}, far_cum[2] = {2, 1};
    struct tile_lane far[2];
    memset(far, 0, sizeof far);
    far[0].runs[TILE_BUSY] = (struct tile_run){1, &far_idx[0], &far_cum[0]};
    far[1].runs[TILE_BUSY] = (struct tile_run){1, &far_idx[1], &far_cum[1]};
    struct tiles ends[2] = {
        {.rank = 0, .width_log2 = 1, .first = INT64_MIN / 2 + 1, .count = 1,
         .start_ns = (INT64_MIN / 2 + 1) * 2, .end_ns = (INT64_MIN / 2 + 1) * 2 + 2,
         .lanes = &far[0], .nlanes = 1},
        {.rank = 1, .width_log2 = 1, .first = INT64_MAX / 2 - 2, .count = 1,
         .start_ns = (INT64_MAX / 2 - 2) * 2, .end_ns = (INT64_MAX / 2 - 2) * 2 + 1,
         .lanes = &far[1], .nlanes = 1},
    };
    ck_assert_ptr_null(tiles_check(&ends[0]));
    ck_assert_ptr_null(tiles_check(&ends[1]));
    struct table_list wide = {{NULL}, 0};
    ck_assert_int_eq(tiles_table(ends, 2, &bd_scratch, &wide, &e), 0);
    ck_assert_uint_le(wide.tables[0]->nrows, 2 * 65);
    ck_assert_uint_ge(wide.tables[0]->nrows, 2 * 33);

    /* no rank at all: an empty table that says so */
    struct table_list none = {{NULL}, 0};
    ck_assert_int_eq(tiles_table(t, 0, &bd_scratch, &none, &e), 0);
    ck_assert_uint_eq(none.tables[0]->nrows, 0);
    ck_assert_str_eq(none.tables[0]->note, "no rank selected");
}
END_TEST

START_TEST(tiles_check_should_name_what_is_unsound)
{
    int64_t idx[2] = {1, 3}, cum[2] = {10, 20}, idx2[1] = {1}, cum2[1] = {11};
    struct tile_lane lane;
    memset(&lane, 0, sizeof lane);
    lane.runs[TILE_BUSY] = (struct tile_run){2, idx, cum};
    struct tiles t = {.width_log2 = 4, .count = 4, .start_ns = 3, .end_ns = 60, .lanes = &lane,
                      .nlanes = 1};
    ck_assert_ptr_null(tiles_check(&t));
    t.start_ns = -1;   /* the exact span starts before the first bucket */
    ck_assert_str_eq(tiles_check(&t), "exact span outside the buckets");
    t.start_ns = 3;
    t.count = 3;   /* bucket 3 outside the span */
    t.end_ns = 40;
    ck_assert_str_eq(tiles_check(&t), "buckets out of order or outside the span");
    t.count = 4;
    t.end_ns = 60;
    cum[1] = 27;   /* 17 ns in a 16 ns bucket */
    ck_assert_str_eq(tiles_check(&t), "a bucket's busy time out of range");
    cum[1] = 10;   /* an empty bucket listed */
    ck_assert_str_eq(tiles_check(&t), "a bucket's busy time out of range");
    cum[1] = 20;
    lane.runs[TILE_COMPUTATION] = (struct tile_run){1, idx2, cum2};
    ck_assert_str_eq(tiles_check(&t), "a class busier than the lane");
    cum2[0] = 10;
    ck_assert_ptr_null(tiles_check(&t));
    lane.kind = TILE_LANE_THREAD;
    ck_assert_str_eq(tiles_check(&t), "a class on a CPU lane");
    lane.kind = TILE_LANE_GPU;
    t.width_log2 = 63;
    ck_assert_str_eq(tiles_check(&t), "bucket width out of range");
    t.width_log2 = 4;
    t.first = INT64_MAX / 16;
    ck_assert_str_eq(tiles_check(&t), "span out of range");
}
END_TEST

START_TEST(utilization_should_match_its_tiles)
{
    struct model *m = bd_load(TILES_EVENTS, SEMANTICS_HTX);
    const struct table *tab = bd_run(utilization_run, m, NULL, "gpu_utilization_over_time");
    /* 1000..1990 us in buckets of 16384 ns: 61 of them, from bucket 61 */
    ck_assert_uint_eq(tab->nrows, 61);
    double busy = 0, comp = 0;
    for (size_t i = 0; i < tab->nrows; i++) {
        busy += bd_num(tab, i, "busy_pctg");
        comp += bd_num(tab, i, "computation_pctg");
    }
    double w_ns = bd_num(tab, 1, "start (us)") * 1000;
    ck_assert_double_eq_tol(w_ns, 16384, 1e-9);
    ck_assert_double_eq_tol(busy * w_ns / 100, 790000 + 50000, 1e-3);
    ck_assert_double_eq_tol(comp * w_ns / 100, 490000, 1e-3);
    model_free(m);
}
END_TEST

/* More threads than a summary keeps lanes: the GPU and stream lanes stay,
 * the threads past the limit go, and the summary reads back what was kept. */
START_TEST(tiles_should_keep_at_most_the_lanes_a_summary_reads)
{
    size_t nthreads = TILES_MAX_LANES + 3, cap = nthreads * 120 + 4096, len = 0;
    char *doc = malloc(cap);
    ck_assert_ptr_nonnull(doc);
    len += (size_t)snprintf(doc + len, cap - len,
                            "{\"distributedInfo\": {\"rank\": 0}, \"traceEvents\": ["
                            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,"
                            "\"tid\":7,\"ts\":10,\"dur\":5,\"args\":{\"stream\":7}}");
    for (size_t t = 0; t < nthreads; t++)
        len += (size_t)snprintf(doc + len, cap - len,
                                ",{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op\",\"pid\":1,"
                                "\"tid\":%zu,\"ts\":%zu,\"dur\":2}", t + 100, t % 50);
    len += (size_t)snprintf(doc + len, cap - len, "]}");
    ck_assert_uint_lt(len, cap);
    const char *names[] = {"rank0.json"};
    const void *bufs[] = {doc};
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, bufs, &len, 1, &sem, &e);
    ck_assert_msg(m != NULL, "%s", e.msg);
    ck_assert_uint_eq(m->ranks[0].nthreads, nthreads);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct tiles t;
    ck_assert_int_eq(tiles_build(m, &m->ranks[0], &o, false, &bd_scratch, &t), 0);
    ck_assert_uint_eq(t.nlanes, TILES_MAX_LANES);
    ck_assert_int_eq(t.lanes[0].kind, TILE_LANE_GPU);
    ck_assert_int_eq(t.lanes[1].kind, TILE_LANE_STREAM);
    ck_assert_int_eq(t.lanes[TILES_MAX_LANES - 1].kind, TILE_LANE_THREAD);
    ck_assert_ptr_null(tiles_check(&t));
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_tiles_write(&w, &t);
    const uint8_t *buf;
    size_t n;
    struct summary_file_doc d;
    struct tiles back;
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &n, &e), 0);
    ck_assert_int_eq(summary_file_parse(&d, buf, n, "many.htxs", &e), 0);
    ck_assert_int_eq(summary_file_tiles_read(&d, "many.htxs", &bd_scratch, &back, &e), 0);
    ck_assert_uint_eq(back.nlanes, TILES_MAX_LANES);
    summary_file_doc_fini(&d);
    summary_file_writer_fini(&w);
    model_free(m);
    free(doc);
}
END_TEST

TCase *breakdown_tiles_tcase(void)
{
    TCase *tc = tcase_create("tiles");
    tcase_add_checked_fixture(tc, bd_setup, bd_teardown);
    tcase_add_test(tc, tiles_should_hold_the_busy_time_of_every_bucket_at_every_level);
    tcase_add_test(tc, tiles_coarsen_should_keep_every_bucket_sum);
    tcase_add_test(tc, tiles_should_floor_times_before_zero);
    tcase_add_test(tc, tiles_table_should_nest_ranks_of_different_widths);
    tcase_add_test(tc, tiles_check_should_name_what_is_unsound);
    tcase_add_test(tc, utilization_should_match_its_tiles);
    tcase_add_test(tc, tiles_should_keep_at_most_the_lanes_a_summary_reads);
    tcase_set_timeout(tc, 60);
    return tc;
}
