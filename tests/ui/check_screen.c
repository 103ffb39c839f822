#include "config.h"

#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "ui/screen.h"
#include "ui/refresh.h"
#include "check_ui.h"

/* Whole screens composed into a grid (no curses): what each part shows. */

START_TEST(screen_should_draw_title_tabs_panes_and_lanes)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ck_assert_ptr_nonnull(strstr(ui_test_row(&st, m, 0), " htx  test · 2 ranks · 2 iterations"));
    ck_assert_ptr_nonnull(strstr(ui_test_row(&st, m, 0), "iter all · window all"));
    ck_assert(ui_test_screen_has(&st, m, "[1 Timeline]"));
    ck_assert(ui_test_screen_has(&st, m, "9 Sequences"));
    ck_assert(ui_test_screen_has(&st, m, "i Diagnostics"));
    ck_assert(!ui_test_screen_has(&st, m, "d Diff"));   // only with htx diff
    ck_assert(ui_test_screen_has(&st, m, "Ranks / streams"));
    ck_assert(ui_test_screen_has(&st, m, "[x] rank 0"));
    ck_assert(ui_test_screen_has(&st, m, "r0 s7"));
    ck_assert(ui_test_screen_has(&st, m, "r0 s20"));
    ck_assert(ui_test_screen_has(&st, m, "r1 s7"));
    ck_assert(ui_test_screen_has(&st, m, "compute"));
    ck_assert_ptr_nonnull(strstr(ui_test_row(&st, m, 29), "? help"));
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(screen_should_show_hostile_names_harmlessly)
{
    struct model *m = ui_test_model();
    struct ui_state st;
    struct ui_grid g;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "/evil<Enter>");
    ck_assert_uint_eq(st.njumps, 1);
    ck_assert_ptr_nonnull(strstr(ui_test_row(&st, m, 29), "evil^[[31mred"));
    ui_test_keys(&st, m, "<Enter>");
    ck_assert_int_eq(ui_grid_init(&g, st.rows, st.cols, false), 0);
    ui_screen_compose(&st, m, &g);
    for (int i = 0; i < g.rows * g.cols; i++) {
        uint32_t ch = g.cells[i].ch;
        ck_assert_msg(ch == 0 || (ch >= 0x20 && ch != 0x7f && !(ch >= 0x80 && ch < 0xa0)),
                      "control character %u on screen", ch);
    }
    ui_grid_fini(&g);
    ck_assert(ui_test_screen_has(&st, m, "Name         evil^[[31mred"));
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(screen_should_say_when_it_is_too_small)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, ":resize 8x30\n");
    ck_assert(st.layout.too_small);
    ck_assert(ui_test_screen_has(&st, m, "terminal too small"));
    ck_assert(ui_test_screen_has(&st, m, "30x8, need 40x10"));
    ui_test_keys(&st, m, ":resize 15x60\n");
    ck_assert(!st.layout.too_small);
    ck_assert(ui_test_screen_has(&st, m, "r0 s7"));
    ui_test_keys(&st, m, "3\n:resize 40x120\n");
    ck_assert(ui_test_screen_has(&st, m, "Kernel time by type (%)"));
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(screen_should_draw_ascii_when_asked)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    st.ascii = true;
    for (int y = 0; y < st.rows; y++) {
        const char *row = ui_test_row(&st, m, y);
        for (const char *p = row; *p; p++)
            ck_assert_msg((unsigned char)*p < 0x80, "non-ASCII on row %d: %s", y, row);
    }
    ck_assert_ptr_nonnull(strstr(ui_test_row(&st, m, 1), "+ Ranks / streams"));
    ck_assert(ui_test_screen_has(&st, m, "> [x] rank 0"));
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(kernels_view_should_chart_and_derive_the_spread)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 40, 120);
    ui_test_keys(&st, m, "3");
    ck_assert(ui_test_screen_has(&st, m, "Kernel time by type (%)"));
    ck_assert(ui_test_screen_has(&st, m, "80 %"));
    ck_assert(ui_test_screen_has(&st, m, "Kernels  (3 of 3 rows)"));
    ck_assert(ui_test_screen_has(&st, m, "Top kernels across ranks"));
    const struct ui_doc *d = &st.docs[UI_VIEW_KERNELS];
    const struct table *spread = d->tables[2];
    ck_assert_str_eq(spread->name, "kernel_spread");
    ck_assert_str_eq(table_cell(spread, 0, 0)->v.s, "sgemm");
    ck_assert_int_eq(table_cell(spread, 0, 1)->v.i, 2);     // on two ranks
    ck_assert(table_cell(spread, 0, 2)->v.d == 100);       // min
    ck_assert(table_cell(spread, 0, 3)->v.d == 300);       // mean
    ck_assert(table_cell(spread, 0, 4)->v.d == 500);       // max
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(diagnostics_should_say_what_was_loaded_and_what_is_empty)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 40, 140);
    ui_test_keys(&st, m, "i");
    ck_assert(ui_test_screen_has(&st, m, "2 rank(s) loaded, 0 file(s) failed"));
    ck_assert(ui_test_screen_has(&st, m, "rank 0 · rank0.json"));
    ck_assert(ui_test_screen_has(&st, m, "rank from distributedInfo.rank · world size 2 · "
                                         "device CUDA (Test GPU)"));
    ck_assert(ui_test_screen_has(&st, m, "streams: 7 20 · iterations: 1 2"));
    ui_test_keys(&st, m, "G");
    ck_assert(ui_test_screen_has(&st, m, "empty analyses:"));
    ck_assert(ui_test_screen_has(&st, m, "overlap: failed: boom"));
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(left_pane_should_show_busy_bars_and_streams)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ck_assert(st.ranks[0].busy > 0.3 && st.ranks[0].busy < 1);
    ck_assert(ui_test_screen_has(&st, m, "\u25a0"));
    ui_test_keys(&st, m, "<Tab>l");
    ck_assert(ui_test_screen_has(&st, m, "[x] stream 7"));
    ck_assert(ui_test_screen_has(&st, m, "[ ] main"));   // CPU thread lanes start off
    ui_test_keys(&st, m, "jjj<Space>");
    ck_assert(ui_test_screen_has(&st, m, "[x] main"));
    ck_assert(ui_test_screen_has(&st, m, "r0 main"));
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(loading_screen_should_show_bytes_and_ranks)
{
    struct ui_grid g;
    struct load_progress p = {1000000, 2000000, 1, 2, 7000};
    char row[512];
    int found = 0;

    ck_assert_int_eq(ui_grid_init(&g, 30, 120, false), 0);
    ui_screen_loading(&g, "traces/", &p, 1.5, 2, NULL);
    for (int y = 0; y < g.rows; y++) {
        ui_grid_row_text(&g, y, row, sizeof row);
        found |= strstr(row, "1.0 MB of 2.0 MB read") ? 1 : 0;
        found |= strstr(row, "ranks done: 1 of 2") ? 2 : 0;
        found |= strstr(row, "q quits") ? 4 : 0;
        found |= strstr(row, "loading traces/: 50 %") ? 8 : 0;
        found |= strstr(row, "1 Timeline") ? 16 : 0;
        found |= strstr(row, "2 keys typed") ? 32 : 0;
        // which view opens, and the iterations, wait for every event
        found |= strstr(row, "[") || strstr(row, "iteration") ? 64 : 0;
    }
    ck_assert_int_eq(found, 63);
    // One file: its events, no "ranks done: 0 of 0".
    struct load_progress one = {500000, 2000000, 0, 1, 123456};
    found = 0;
    ui_screen_loading(&g, "big.json.gz", &one, 0.5, 0, NULL);
    for (int y = 0; y < g.rows; y++) {
        ui_grid_row_text(&g, y, row, sizeof row);
        found |= strstr(row, "123456 events") ? 1 : 0;
        found |= strstr(row, "ranks done") ? 2 : 0;
        found |= strstr(row, "500.0 KB of 2.0 MB read") ? 4 : 0;
        found |= strstr(row, "loading big.json.gz: 25 %") ? 8 : 0;
        found |= strstr(row, "keys typed") ? 16 : 0;
    }
    ck_assert_int_eq(found, 13);
    ui_grid_fini(&g);
}
END_TEST

/* The lanes of the events read so far, above the progress: their ids
 * until a thread's name is read, the share of each cell they were busy, no
 * aggregate figure, the screen saying they are partial. */
START_TEST(loading_screen_should_draw_the_lanes_read_so_far)
{
    struct ui_grid g;
    struct lane_fill f;
    struct load_progress p = {3000000, 10000000, 0, 1, 5000};
    const struct load_thread t[] = {{0, "77", "78"}};
    const struct load_span s[] = {{0, 1000000, 0, false}, {0, 500000, 7, true}};
    struct load_batch b = {.file = 0, .threads = t, .nthreads = 1, .spans = s, .nspans = 2};
    char row[1024];
    int found = 0;

    ck_assert_int_eq(ui_grid_init(&g, 30, 120, false), 0);
    ck_assert_int_eq(lane_fill_init(&f), 0);
    ck_assert_int_eq(lane_fill_add(&f, &b), 0);
    ui_screen_loading(&g, "big.json", &p, 0.5, 0, &f);
    for (int y = 0; y < g.rows; y++) {
        ui_grid_row_text(&g, y, row, sizeof row);
        found |= strstr(row, "30 % read: lanes fill as the file is read") ? 1 : 0;
        // busy all along; then busy for the first half of the time seen
        found |= strstr(row, "p77 t78") && strstr(row, "\u2588\u2502") ? 2 : 0;
        found |= strstr(row, "stream 7  ") && strstr(row, "\u2588") && strstr(row, " \u2502") ? 4 : 0;
        found |= strstr(row, "more lane") ? 8 : 0;
        found |= strstr(row, "5000 events") ? 16 : 0;
    }
    ck_assert_int_eq(found, 23);
    // Its name, read late in the file, replaces its ids.
    const struct load_thread_name n[] = {{"77", "78", "main"}};
    struct load_batch late = {.file = 0, .names = n, .nnames = 1};
    ck_assert_int_eq(lane_fill_add(&f, &late), 0);
    ui_screen_loading(&g, "big.json", &p, 0.5, 0, &f);
    found = 0;
    for (int y = 0; y < g.rows; y++) {
        ui_grid_row_text(&g, y, row, sizeof row);
        found |= strstr(row, "p77 t78") ? 1 : 0;
        found |= strstr(row, "main  ") ? 2 : 0;
    }
    ck_assert_int_eq(found, 2);
    lane_fill_fini(&f);
    ui_grid_fini(&g);
}
END_TEST

/* Screens are compared as UTF-8 text: the separators and boxes need a
 * UTF-8 LC_CTYPE (as the TUI sets from the environment). */
static void utf8_locale(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");
}

Suite *ui_screen_suite(void)
{
    Suite *s = suite_create("ui_screen");
    TCase *tc = tcase_create("compose");
    tcase_add_checked_fixture(tc, utf8_locale, NULL);
    tcase_add_test(tc, screen_should_draw_title_tabs_panes_and_lanes);
    tcase_add_test(tc, screen_should_show_hostile_names_harmlessly);
    tcase_add_test(tc, screen_should_say_when_it_is_too_small);
    tcase_add_test(tc, screen_should_draw_ascii_when_asked);
    tcase_add_test(tc, kernels_view_should_chart_and_derive_the_spread);
    tcase_add_test(tc, diagnostics_should_say_what_was_loaded_and_what_is_empty);
    tcase_add_test(tc, left_pane_should_show_busy_bars_and_streams);
    tcase_add_test(tc, loading_screen_should_show_bytes_and_ranks);
    tcase_add_test(tc, loading_screen_should_draw_the_lanes_read_so_far);
    suite_add_tcase(s, tc);
    return s;
}
