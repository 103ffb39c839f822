#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "ui/document.h"
#include "ui/refresh.h"
#include "ui/view.h"
#include "ui/views/timeline_lanes.h"
#include "ui/widgets/nav.h"
#include "check_ui.h"

/* Moving through time: the pure parts (ui/widgets/nav.h) alone, then the
 * timeline's navigation keys and the history through the key table, over
 * the two-rank test trace. */

/* ---- a time typed by the user ---- */

START_TEST(parse_time_should_read_units_and_signs)
{
    char why[128];
    int64_t t = -1;

    ck_assert_int_eq(ui_parse_time("12.5ms", 0, &t, why, sizeof why), 0);
    ck_assert_int_eq(t, 12500000);
    ck_assert_int_eq(ui_parse_time(" 250 ns ", 0, &t, why, sizeof why), 0);
    ck_assert_int_eq(t, 250);
    ck_assert_int_eq(ui_parse_time("+3us", 1000, &t, why, sizeof why), 0);
    ck_assert_int_eq(t, 4000);
    ck_assert_int_eq(ui_parse_time("-1s", 3000000000LL, &t, why, sizeof why), 0);
    ck_assert_int_eq(t, 2000000000LL);
    ck_assert_int_eq(ui_parse_time("1.5\xc2\xb5s", 0, &t, why, sizeof why), 0);
    ck_assert_int_eq(t, 1500);
    ck_assert_int_eq(ui_parse_time(".25s", 0, &t, why, sizeof why), 0);
    ck_assert_int_eq(t, 250000000);
    ck_assert_int_eq(ui_parse_time("0.000000001s", 0, &t, why, sizeof why), 0);
    ck_assert_int_eq(t, 1);
}
END_TEST

START_TEST(parse_time_should_reject_what_it_cannot_read)
{
    char why[128];
    int64_t t = 7;

    ck_assert_int_eq(ui_parse_time("12.5", 0, &t, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "unit"));
    ck_assert_int_eq(ui_parse_time("ms", 0, &t, why, sizeof why), -1);
    ck_assert_int_eq(ui_parse_time("3 msx", 0, &t, why, sizeof why), -1);
    ck_assert_int_eq(ui_parse_time("1e3us", 0, &t, why, sizeof why), -1);
    ck_assert_int_eq(ui_parse_time("-5us", 1000, &t, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "before"));
    ck_assert_int_eq(ui_parse_time("99999999999999999999s", 0, &t, why, sizeof why), -1);
    ck_assert_int_eq(ui_parse_time("9999999999s", 0, &t, why, sizeof why), -1);
    ck_assert_int_eq(ui_parse_time("1.0000000001s", 0, &t, why, sizeof why), -1);
    ck_assert_int_eq(ui_parse_time("", 0, &t, why, sizeof why), -1);
    ck_assert_int_eq(t, 7);   // left alone on failure
}
END_TEST

/* ---- events on a lane ---- */

START_TEST(lane_search_should_skip_empty_space)
{
    const int64_t ts[] = {10, 20, 20, 500, 900};

    ck_assert_uint_eq(ui_ts_next(ts, 5, 0), 0);
    ck_assert_uint_eq(ui_ts_next(ts, 5, 21), 3);    // 21..499 is empty
    ck_assert_uint_eq(ui_ts_next(ts, 5, 20), 1);
    ck_assert_uint_eq(ui_ts_next(ts, 5, 901), 5);   // none after
    ck_assert_uint_eq(ui_ts_prev(ts, 5, 899), 3);
    ck_assert_uint_eq(ui_ts_prev(ts, 5, 20), 0);
    ck_assert_uint_eq(ui_ts_prev(ts, 5, 10), 5);    // none before
    ck_assert_uint_eq(ui_ts_next(NULL, 0, 5), 0);
    ck_assert_uint_eq(ui_ts_prev(NULL, 0, 5), 0);
}
END_TEST

START_TEST(span_should_count_events_and_their_union)
{
    struct ui_span_acc s;

    ui_span_init(&s, 100, 200);
    ui_span_add(&s, 50, 100);    // ends where the range starts: outside
    ui_span_add(&s, 60, 120);    // 100..120
    ui_span_add(&s, 110, 130);   // overlaps: 120..130 more
    ui_span_add(&s, 150, 150);   // an instant: counted, no time
    ui_span_add(&s, 190, 400);   // 190..200
    ui_span_add(&s, 200, 210);   // starts at the end: outside
    ck_assert_uint_eq(s.events, 4);
    ck_assert_int_eq(s.busy, 40);
    ui_span_init(&s, 100, 200);
    ui_span_add(&s, 0, 1000);
    ui_span_add(&s, 120, 130);   // nested: no more time
    ck_assert_int_eq(s.busy, 100);
    ck_assert_uint_eq(s.events, 2);
}
END_TEST

/* ---- back and forward ---- */

static struct ui_place at_view(int v)
{
    struct ui_place p = {v, 0, 100, 0, 0, 0};
    return p;
}

START_TEST(history_should_walk_back_like_a_browser)
{
    struct ui_history h = {.n = 0};
    struct ui_place p[5], out;
    for (int i = 0; i < 5; i++)
        p[i] = at_view(i);

    ck_assert(!ui_history_step(&h, &p[1], -1, &out));   // nothing yet
    ui_history_visit(&h, &p[1], &p[2]);
    ui_history_visit(&h, &p[2], &p[3]);
    ui_history_visit(&h, &p[3], &p[4]);
    ck_assert(ui_history_step(&h, &p[4], -1, &out));
    ck_assert_int_eq(out.view, 3);
    ck_assert(ui_history_step(&h, &out, -1, &out));
    ck_assert_int_eq(out.view, 2);
    ck_assert(ui_history_step(&h, &out, -1, &out));
    ck_assert_int_eq(out.view, 1);
    ck_assert(!ui_history_step(&h, &out, -1, &out));
    ck_assert(ui_history_step(&h, &out, 1, &out));
    ck_assert_int_eq(out.view, 2);
    // A new visit forgets the places ahead.
    ui_history_visit(&h, &out, &p[0]);
    ck_assert(!ui_history_step(&h, &p[0], 1, &out));
    ck_assert(ui_history_step(&h, &p[0], -1, &out));
    ck_assert_int_eq(out.view, 2);
}
END_TEST

START_TEST(history_should_keep_where_the_user_left_a_place)
{
    struct ui_history h = {.n = 0};
    struct ui_place a = at_view(1), b = at_view(2), out;

    ui_history_visit(&h, &a, &b);
    b.t0 = 40;   // moved around on b before going back
    ck_assert(ui_history_step(&h, &b, -1, &out));
    ck_assert(ui_history_step(&h, &out, 1, &out));
    ck_assert_int_eq(out.t0, 40);
}
END_TEST

START_TEST(history_should_forget_the_oldest_when_full)
{
    struct ui_history h = {.n = 0};
    struct ui_place here = at_view(0), out;

    for (int i = 1; i < 3 * UI_HISTORY_MAX; i++) {
        struct ui_place to = at_view(i);
        ui_history_visit(&h, &here, &to);
        here = to;
    }
    ck_assert_uint_eq(h.n, UI_HISTORY_MAX);
    size_t back = 0;
    while (ui_history_step(&h, &here, -1, &out)) {
        here = out;
        back++;
    }
    ck_assert_uint_eq(back, UI_HISTORY_MAX - 1);
    ck_assert_int_eq(here.view, 3 * UI_HISTORY_MAX - UI_HISTORY_MAX);
}
END_TEST

/* ---- the keys ---- */

static const char *cursor_event(const struct ui_state *st, const struct model *m)
{
    uint32_t pos = ui_timeline_pick(st, m, st->tl.lane, st->tl.cursor);
    if (pos == MODEL_NONE)
        return "";
    return model_str(m, m->ranks[st->lanes[st->tl.lane].rank].events[pos].name);
}

static int64_t cursor_start(const struct ui_state *st)
{
    struct ui_timescale ts;
    ui_timeline_scale(st, &ts);
    return ui_col_time(&ts, st->tl.cursor);
}

static int64_t cursor_end(const struct ui_state *st)
{
    struct ui_timescale ts;
    ui_timeline_scale(st, &ts);
    return ui_col_time(&ts, st->tl.cursor + 1);
}

START_TEST(next_event_keys_should_step_along_the_lane)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ck_assert_str_eq(cursor_event(&st, m), "");
    ui_test_keys(&st, m, ".");
    ck_assert_str_eq(cursor_event(&st, m), "sgemm");
    ui_test_keys(&st, m, ".");
    ck_assert_str_eq(cursor_event(&st, m), "add_kernel");
    ui_test_keys(&st, m, ".");
    ck_assert_str_eq(cursor_event(&st, m), "Memcpy HtoD (Pageable -> Device)");
    ui_test_keys(&st, m, ",");
    ck_assert_str_eq(cursor_event(&st, m), "add_kernel");
    ui_test_keys(&st, m, "....");
    ck_assert_str_eq(cursor_event(&st, m), "evil\x1b[31mred");   // every event shown
    ui_test_keys(&st, m, ".");
    ck_assert_ptr_nonnull(strstr(st.message, "no event after"));
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(same_name_keys_should_step_through_its_instances)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, ".*");   // r0's first sgemm, then the next by time
    ck_assert_str_eq(cursor_event(&st, m), "sgemm");
    ck_assert_uint_eq(st.njumps, 3);   // r1's, r0's two
    ck_assert_uint_eq(st.jump, 2);
    ck_assert(cursor_start(&st) <= 1050000 + 300000 && cursor_end(&st) > 1050000);
    ui_refresh_key(&st, m, '#');   // (a script line starting with # is a comment)
    ck_assert_uint_eq(st.jump, 1);
    ui_refresh_key(&st, m, '#');
    ck_assert_uint_eq(st.jump, 0);
    ck_assert_uint_eq(st.lanes[st.tl.lane].rank, 1);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(percent_should_jump_between_a_kernel_and_its_launch)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    size_t lanes = st.nlanes;
    ui_test_keys(&st, m, ".%");   // sgemm, launched on r0's main thread
    ck_assert_uint_eq(st.nlanes, lanes + 1);   // its lane switched on
    ck_assert_int_eq(st.lanes[st.tl.lane].kind, UI_LANE_THREAD);
    ck_assert_str_eq(cursor_event(&st, m), "cudaLaunchKernel");
    ui_test_keys(&st, m, "%");
    ck_assert_str_eq(cursor_event(&st, m), "sgemm");
    ck_assert_int_eq(st.lanes[st.tl.lane].kind, UI_LANE_STREAM);
    ui_test_keys(&st, m, "<Esc>");   // back on the launch
    ck_assert_str_eq(cursor_event(&st, m), "cudaLaunchKernel");
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(goto_should_put_the_cursor_on_the_time)
{
    struct model *m = ui_test_model();
    struct ui_state st;
    char status[256];

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "g1ms<Enter>");
    ck_assert(cursor_start(&st) <= 1000000 && cursor_end(&st) > 1000000);
    ck_assert_int_eq(ui_timeline_cursor_time(&st), 1000000);   // the time, not its cell's
    ui_view_get(&st, UI_VIEW_TIMELINE)->status(&st, m, status, sizeof status);
    ck_assert_msg(strncmp(status, "1 ms ·", 7) == 0, "%s", status);
    ui_test_keys(&st, m, "g-500us<Enter>");   // from the cursor
    ck_assert_int_eq(ui_timeline_cursor_time(&st), 500000);
    ck_assert(cursor_start(&st) <= 500000 && cursor_end(&st) > 500000);
    ui_test_keys(&st, m, "+++++g1.2ms<Enter>");   // outside the window: it moves
    ck_assert_int_eq(ui_timeline_cursor_time(&st), 1200000);
    ck_assert(cursor_start(&st) <= 1200000 && cursor_end(&st) > 1200000);
    ck_assert(st.tl.t0 <= 1200000 && st.tl.t1 > 1200000);
    ui_test_keys(&st, m, "l");   // moved off: the cell's start again
    ck_assert_int_eq(ui_timeline_cursor_time(&st), cursor_start(&st));
    ui_test_keys(&st, m, "g12<Enter>");
    ck_assert(st.message_is_error);
    ck_assert_ptr_nonnull(strstr(st.message, "unit"));
    ui_test_keys(&st, m, "g1h<Enter>");
    ck_assert(st.message_is_error);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(zoom_keys_should_fit_an_event_an_iteration_and_the_marks)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, ".f");   // sgemm, 50..250 us
    ck_assert(st.tl.t0 <= 50000 && st.tl.t1 >= 250000);
    ck_assert_int_lt(st.tl.t1 - st.tl.t0, 300000);
    ck_assert_str_eq(cursor_event(&st, m), "sgemm");
    ui_test_keys(&st, m, "0g1.5ms<Enter>F");   // ProfilerStep#2: 1..2 ms
    ck_assert_int_eq(st.tl.t0, 1000000);
    ck_assert_int_eq(st.tl.t1, 2000000);
    ck_assert_ptr_nonnull(strstr(st.message, "ProfilerStep#2"));
    ui_test_keys(&st, m, "z");
    ck_assert(st.message_is_error);
    ui_test_keys(&st, m, "mllllllllllmz");
    ck_assert_int_eq(st.tl.nmarks, 2);
    ck_assert_int_eq(st.tl.t0, st.tl.marks[0]);
    ck_assert_int_eq(st.tl.t1, st.tl.marks[1]);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(marks_should_measure_what_lies_between)
{
    struct model *m = ui_test_model();
    struct ui_state st;
    char status[256];

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "g0us<Enter>mg1ms<Enter>m");
    ck_assert_int_eq(st.tl.nmarks, 2);
    ui_view_get(&st, UI_VIEW_TIMELINE)->status(&st, m, status, sizeof status);
    // r0 s7 before 1 ms: sgemm, add_kernel, the memcpy: 350 us busy
    ck_assert_msg(strstr(status, "marked 1 ms · r0 s7: 3 events, busy 350 us (35%)") != NULL,
                  "%s", status);
    ui_test_keys(&st, m, "j");
    ui_view_get(&st, UI_VIEW_TIMELINE)->status(&st, m, status, sizeof status);
    ck_assert_msg(strstr(status, "r0 s20: 1 event, busy 400 us") != NULL, "%s", status);
    ui_test_keys(&st, m, "M");   // every lane's measure
    ck_assert_int_eq(st.overlay, UI_OVERLAY_MEASURE);
    ck_assert_uint_eq(st.noverlay_lines, 2 + st.nlanes);
    ck_assert_ptr_nonnull(strstr(st.overlay_lines[2], "r0 s7"));
    ck_assert_msg(strstr(st.overlay_lines[2], " 3 ") && strstr(st.overlay_lines[2], "350 us"),
                  "%s", st.overlay_lines[2]);
    ck_assert(ui_test_screen_has(&st, m, "Between the marks"));
    ui_test_keys(&st, m, "<Esc>m");   // the overlay closes; a third m starts again
    ck_assert_int_eq(st.overlay, UI_OVERLAY_NONE);
    ck_assert_int_eq(st.tl.nmarks, 1);
    ui_test_keys(&st, m, "M");
    ck_assert(st.message_is_error);
    ui_test_keys(&st, m, "<Esc>");
    ck_assert_int_eq(st.tl.nmarks, 0);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(escape_should_walk_back_through_views_and_places)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "234<Esc>");
    ck_assert_int_eq(st.view, UI_VIEW_KERNELS);
    ui_test_keys(&st, m, "<Esc>");
    ck_assert_int_eq(st.view, UI_VIEW_OVERVIEW);
    ui_test_keys(&st, m, "<C-f>");
    ck_assert_int_eq(st.view, UI_VIEW_KERNELS);
    ui_test_keys(&st, m, "<C-f><C-f>");
    ck_assert_int_eq(st.view, UI_VIEW_IDLE);
    ck_assert_ptr_nonnull(strstr(st.message, "nothing to go forward"));
    ui_test_keys(&st, m, "<C-b><C-b><C-b>");
    ck_assert_int_eq(st.view, UI_VIEW_TIMELINE);
    // A zoom to an event is a place too: Esc comes back to the whole view.
    int64_t t0 = st.tl.t0, t1 = st.tl.t1;
    ui_test_keys(&st, m, ".f");
    ck_assert_int_ne(st.tl.t1 - st.tl.t0, t1 - t0);
    ui_test_keys(&st, m, "<Esc>");
    ck_assert_int_eq(st.tl.t0, t0);
    ck_assert_int_eq(st.tl.t1, t1);
    ui_test_keys(&st, m, "<C-f>");
    ck_assert_str_eq(cursor_event(&st, m), "sgemm");
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(escape_should_come_back_from_a_row_shown_on_the_timeline)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "3<Tab><Enter>");   // the kernels table's sgemm row
    ck_assert_int_eq(st.view, UI_VIEW_TIMELINE);
    ck_assert_uint_gt(st.njumps, 0);
    ui_test_keys(&st, m, "n<Esc>");   // the first Esc clears the instances
    ck_assert_int_eq(st.view, UI_VIEW_TIMELINE);
    ui_test_keys(&st, m, "<Esc>");
    ck_assert_int_eq(st.view, UI_VIEW_KERNELS);
    ck_assert_uint_eq(st.docs[UI_VIEW_KERNELS].cur, 1);
    ui_test_keys(&st, m, "<Esc>");   // and before the table, the timeline
    ck_assert_int_eq(st.view, UI_VIEW_TIMELINE);
    ui_test_keys(&st, m, "<C-f><C-f>");
    ck_assert_int_eq(st.view, UI_VIEW_TIMELINE);
    ck_assert_str_eq(cursor_event(&st, m), "sgemm");
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(sorting_should_keep_the_selected_row)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "3<Tab>j");
    struct ui_doc *d = &st.docs[UI_VIEW_KERNELS];
    ck_assert_uint_eq(d->cur, 1);
    size_t kept = d->tv[1].rows[d->row[1]];
    for (int i = 0; i < 6; i++) {
        ui_test_keys(&st, m, i % 2 ? "S" : "s");
        ck_assert_uint_eq(d->tv[1].rows[d->row[1]], kept);
    }
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

Suite *ui_nav_suite(void)
{
    Suite *s = suite_create("ui_nav");
    TCase *tc = tcase_create("pure");
    tcase_add_test(tc, parse_time_should_read_units_and_signs);
    tcase_add_test(tc, parse_time_should_reject_what_it_cannot_read);
    tcase_add_test(tc, lane_search_should_skip_empty_space);
    tcase_add_test(tc, span_should_count_events_and_their_union);
    tcase_add_test(tc, history_should_walk_back_like_a_browser);
    tcase_add_test(tc, history_should_keep_where_the_user_left_a_place);
    tcase_add_test(tc, history_should_forget_the_oldest_when_full);
    suite_add_tcase(s, tc);
    tc = tcase_create("keys");
    tcase_add_test(tc, next_event_keys_should_step_along_the_lane);
    tcase_add_test(tc, same_name_keys_should_step_through_its_instances);
    tcase_add_test(tc, percent_should_jump_between_a_kernel_and_its_launch);
    tcase_add_test(tc, goto_should_put_the_cursor_on_the_time);
    tcase_add_test(tc, zoom_keys_should_fit_an_event_an_iteration_and_the_marks);
    tcase_add_test(tc, marks_should_measure_what_lies_between);
    tcase_add_test(tc, escape_should_walk_back_through_views_and_places);
    tcase_add_test(tc, escape_should_come_back_from_a_row_shown_on_the_timeline);
    tcase_add_test(tc, sorting_should_keep_the_selected_row);
    suite_add_tcase(s, tc);
    return s;
}
