/* analysis/lane_fill: the lanes of a trace still loading. */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "analysis/lane_fill.h"

static int64_t lane_total(const struct lane_fill_lane *l)
{
    int64_t t = 0;
    for (size_t i = 0; i < LANE_FILL_BINS; i++)
        t += l->busy[i];
    return t;
}

static void add_spans(struct lane_fill *f, size_t file, const struct load_span *s, size_t n)
{
    struct load_batch b = {.file = file, .spans = s, .nspans = n};
    ck_assert_int_eq(lane_fill_add(f, &b), 0);
}

START_TEST(lane_fill_should_count_nested_spans_once_when_in_order)
{
    struct lane_fill f;
    ck_assert_int_eq(lane_fill_init(&f), 0);
    // An outer event, two nested in it, one after it: 1000 + 500 ns busy.
    const struct load_span s[] = {{10000, 11000, 3, false}, {10100, 10200, 3, false},
                                  {10300, 10900, 3, false}, {20000, 20500, 3, false}};
    add_spans(&f, 0, s, 4);
    ck_assert_uint_eq(f.nlanes, 1);
    ck_assert_int_eq(lane_total(&f.lanes[0]), 1500);
    ck_assert_int_eq(f.first, 10000);
    ck_assert_int_eq(f.last, 20500);
    lane_fill_fini(&f);
}
END_TEST

START_TEST(lane_fill_should_grow_either_way_keeping_the_busy_time)
{
    struct lane_fill f;
    ck_assert_int_eq(lane_fill_init(&f), 0);
    const struct load_span first = {1000000, 1002000, 7, true};
    add_spans(&f, 0, &first, 1);
    int64_t width = f.width;
    // Much later, then much earlier (out of order): the range holds both.
    const struct load_span later = {90000000, 90001000, 7, true};
    const struct load_span earlier = {-5000000, -4999000, 7, true};
    add_spans(&f, 0, &later, 1);
    add_spans(&f, 0, &earlier, 1);
    ck_assert_int_gt(f.width, width);
    ck_assert_int_le(f.lo, -5000000);
    ck_assert_int_ge(f.lo + f.width * LANE_FILL_BINS, 90001000);
    ck_assert_int_eq(lane_total(&f.lanes[0]), 4000);
    ck_assert_int_eq(f.first, -5000000);
    ck_assert_int_eq(f.last, 90001000);
    // Each span's time lies in the bins over it.
    ck_assert_double_gt(lane_fill_busy(&f, &f.lanes[0], -5000000, -4999000), 0.0);
    ck_assert_double_gt(lane_fill_busy(&f, &f.lanes[0], 1000000, 1002000), 0.0);
    ck_assert_double_gt(lane_fill_busy(&f, &f.lanes[0], 90000000, 90001000), 0.0);
    ck_assert_double_eq(lane_fill_busy(&f, &f.lanes[0], 40000000, 50000000), 0.0);
    lane_fill_fini(&f);
}
END_TEST

START_TEST(lane_fill_should_hold_each_bin_to_its_width)
{
    struct lane_fill f;
    ck_assert_int_eq(lane_fill_init(&f), 0);
    // Out of order and overlapping: summed, but never past the bin.
    const struct load_span s[] = {{5000, 9000, 1, true}, {0, 8000, 1, true}, {0, 8000, 1, true}};
    add_spans(&f, 0, s, 3);
    for (size_t i = 0; i < LANE_FILL_BINS; i++)
        ck_assert_int_le(f.lanes[0].busy[i], f.width);
    ck_assert_double_eq(lane_fill_busy(&f, &f.lanes[0], 1000, 2000), 1.0);
    lane_fill_fini(&f);
}
END_TEST

START_TEST(lane_fill_should_count_lanes_past_the_room)
{
    struct lane_fill f;
    ck_assert_int_eq(lane_fill_init(&f), 0);
    for (int64_t i = 0; i < LANE_FILL_MAX_LANES + 10; i++) {
        const struct load_span s[] = {{i * 100, i * 100 + 50, i, false},
                                      {i * 100 + 60, i * 100 + 70, i, false}};
        add_spans(&f, 1, s, 2);
    }
    ck_assert_uint_eq(f.nlanes, LANE_FILL_MAX_LANES);
    ck_assert_uint_eq(f.lanes_over, 10);
    // The range still holds the spans of lanes past the room.
    ck_assert_int_eq(f.last, (LANE_FILL_MAX_LANES + 9) * 100 + 70);
    lane_fill_fini(&f);
}
END_TEST

START_TEST(lane_fill_should_name_threads_and_streams_apart)
{
    struct lane_fill f;
    ck_assert_int_eq(lane_fill_init(&f), 0);
    const struct load_thread t[] = {{0, "4242", "4243"}};
    const struct load_span s[] = {{100, 200, 0, false}, {100, 200, 0, true}};
    struct load_batch b = {.file = 2, .threads = t, .nthreads = 1, .spans = s, .nspans = 2};
    ck_assert_int_eq(lane_fill_add(&f, &b), 0);
    ck_assert_uint_eq(f.nlanes, 2);
    ck_assert_str_eq(f.lanes[0].pid, "4242");
    ck_assert_str_eq(f.lanes[0].tid, "4243");
    ck_assert_str_eq(f.lanes[0].name, "");   // the ids until the name is read
    ck_assert(f.lanes[1].gpu);
    ck_assert_str_eq(f.lanes[1].tid, "");
    // The thread's name comes late in the file; another file's thread with
    // the same ids keeps its own.
    const struct load_thread_name n[] = {{"4242", "4243", "dataloader"}};
    struct load_batch late = {.file = 2, .names = n, .nnames = 1};
    ck_assert_int_eq(lane_fill_add(&f, &late), 0);
    ck_assert_str_eq(f.lanes[0].name, "dataloader");
    b.file = 3;
    b.nspans = 1;
    ck_assert_int_eq(lane_fill_add(&f, &b), 0);
    ck_assert_uint_eq(f.nlanes, 3);
    ck_assert_str_eq(f.lanes[2].name, "");
    lane_fill_fini(&f);
}
END_TEST

START_TEST(lane_fill_copy_should_copy_the_lanes)
{
    struct lane_fill f, g;
    ck_assert_int_eq(lane_fill_init(&f), 0);
    ck_assert_int_eq(lane_fill_init(&g), 0);
    const struct load_span s[] = {{0, 4096, 1, true}};
    add_spans(&f, 0, s, 1);
    lane_fill_copy(&g, &f);
    ck_assert_uint_eq(g.nlanes, 1);
    ck_assert_int_eq(g.width, f.width);
    ck_assert_double_eq(lane_fill_busy(&g, &g.lanes[0], 0, 2048), 1.0);
    ck_assert_double_eq(lane_fill_busy(&g, &g.lanes[0], 0, 8192), 0.5);
    lane_fill_fini(&f);
    lane_fill_fini(&g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lane_fill");
    TCase *tc = tcase_create("lane_fill");
    tcase_add_test(tc, lane_fill_should_count_nested_spans_once_when_in_order);
    tcase_add_test(tc, lane_fill_should_grow_either_way_keeping_the_busy_time);
    tcase_add_test(tc, lane_fill_should_hold_each_bin_to_its_width);
    tcase_add_test(tc, lane_fill_should_count_lanes_past_the_room);
    tcase_add_test(tc, lane_fill_should_name_threads_and_streams_apart);
    tcase_add_test(tc, lane_fill_copy_should_copy_the_lanes);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
