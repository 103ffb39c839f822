#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "app/options.h"
#include "ui/widgets/grid.h"
#include "ui/widgets/keys.h"
#include "ui/actions.h"
#include "ui/state.h"
#include "ui/views/diff.h"

/* The diff view without a terminal: its state, keys and the lines it draws
 * into a grid. */

#define ROWS 40
#define COLS 150

static const char *control_doc =
    "{\"traceEvents\": ["
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":100},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::gone\",\"pid\":1,\"tid\":1,\"ts\":30,\"dur\":4},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":40,\"dur\":2,\"args\":{\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":45,\"dur\":20,\"args\":{\"stream\":7,\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":110,\"dur\":5}"
    "]}";

static const char *test_doc =
    "{\"traceEvents\": ["
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":100},"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":100},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":5},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::new\",\"pid\":1,\"tid\":1,\"ts\":30,\"dur\":9},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":40,\"dur\":2,\"args\":{\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":45,\"dur\":50,\"args\":{\"stream\":7,\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":110,\"dur\":5}"
    "]}";

struct fixture {
    struct model *c, *t;
    struct ui_state st;
    struct htx_options opts;
    struct ui_grid g;
};

static struct model *load(const char *doc, enum semantics_mode mode)
{
    struct semantics user, sem;
    semantics_init(&user, mode);
    diff_semantics(&user, &sem);
    const char *name = "r0.json";
    const void *buf = doc;
    size_t len = strlen(doc);
    struct err e = {0, ""};
    struct model *m = model_load_buffers(&name, &buf, &len, 1, &sem, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    return m;
}

static void open_fixture(struct fixture *f, enum semantics_mode mode)
{
    memset(f, 0, sizeof *f);
    f->c = load(control_doc, mode);
    f->t = load(test_doc, mode);
    ck_assert_int_eq(ui_state_init(&f->st, f->c, ROWS, COLS), 0);
    ui_layout_screen(ROWS, COLS, 1, false, &f->st.layout);
    htx_options_init(&f->opts);
    f->opts.semantics = mode;
    struct err e = {0, ""};
    ck_assert_int_eq(ui_diff_open(&f->st, f->c, f->t, NULL, &f->opts, &e), 0);
    ck_assert_ptr_eq(f->st.diff_view, &ui_view_diff);
    f->st.view = UI_VIEW_DIFF;
    ck_assert_int_eq(ui_view_diff.refresh(&f->st, f->c, &e), 0);
    ck_assert_int_eq(ui_grid_init(&f->g, ROWS, COLS, false), 0);
}

static void close_fixture(struct fixture *f)
{
    ui_diff_close(&f->st);
    ck_assert_ptr_null(f->st.diff);
    ui_state_fini(&f->st);
    htx_options_fini(&f->opts);
    ui_grid_fini(&f->g);
    model_free(f->c);
    model_free(f->t);
}

/* Draws the view like ui_view_draw and returns line y of the body. */
static const char *line(struct fixture *f, int y)
{
    static char buf[COLS * 4 + 1];
    const struct ui_view_ops *v = &ui_view_diff;
    /* the body of the screen layout, drawn at the grid's origin */
    struct ui_rect body = {0, 0, f->st.layout.body.h, f->st.layout.body.w};
    ui_grid_clear(&f->g, UI_STYLE_NORMAL);
    size_t pinned = v->pinned(&f->st, f->c), rows = v->rows(&f->st, f->c);
    size_t top = v->top(&f->st, f->c, body.h);
    for (size_t i = 0; i < pinned && (int)i < body.h; i++)
        v->pinned_row(&f->st, f->c, i, &f->g, body.y + (int)i, body.x, body.w);
    for (int r = (int)pinned; r < body.h && top + (size_t)r - pinned < rows; r++)
        v->row(&f->st, f->c, top + (size_t)r - pinned, &f->g, body.y + r, body.x, body.w);
    ui_grid_row_text(&f->g, body.y + y, buf, sizeof buf);
    return buf;
}

/* The body line showing visible row i (below the pinned block). */
static const char *op_line(struct fixture *f, size_t i)
{
    size_t pinned = ui_view_diff.pinned(&f->st, f->c);
    return line(f, (int)(pinned + i));
}

static unsigned key(struct fixture *f, int k)
{
    return ui_dispatch(&f->st, f->c, k);   /* the one key table, as the UI does */
}

static void keys(struct fixture *f, const char *s)
{
    for (; *s; s++)
        key(f, *s == '\n' ? UI_KEY_ENTER : *s);
}

static struct ui_diff *state(struct fixture *f)
{
    return f->st.diff;
}

START_TEST(view_diff_should_list_ops_by_duration_change)
{
    struct fixture f;
    open_fixture(&f, SEMANTICS_HTA);
    /* HTA: iteration 1 of rank 0 */
    ck_assert_uint_eq(state(&f)->nvis, 6);
    ck_assert_ptr_nonnull(strstr(line(&f, 0), "control r0"));
    ck_assert_ptr_nonnull(strstr(line(&f, 0), "iter 1"));
    ck_assert_ptr_nonnull(strstr(line(&f, 1), "added 1  deleted 1"));
    /* gemm +30 us first, aten::gone -4 us last */
    ck_assert_ptr_nonnull(strstr(op_line(&f, 0), "gemm"));
    ck_assert_ptr_nonnull(strstr(op_line(&f, 0), "+30"));
    ck_assert_ptr_nonnull(strstr(op_line(&f, 1), "aten::new"));
    ck_assert_ptr_nonnull(strstr(op_line(&f, 5), "aten::gone"));
    ck_assert_int_eq(op_line(&f, 5)[0], 'D');
    close_fixture(&f);
}
END_TEST

START_TEST(view_diff_should_filter_by_change_and_text)
{
    struct fixture f;
    open_fixture(&f, SEMANTICS_HTA);
    keys(&f, "A");
    ck_assert_uint_eq(state(&f)->nvis, 1);
    ck_assert_ptr_nonnull(strstr(op_line(&f, 0), "aten::new"));
    ck_assert_int_eq(op_line(&f, 0)[0], 'A');
    keys(&f, "A");   /* again: everything */
    ck_assert_uint_eq(state(&f)->nvis, 6);
    keys(&f, ">");
    ck_assert_uint_eq(state(&f)->nvis, 1);   /* aten::mm: 1 -> 2 calls */
    ck_assert_uint_eq(key(&f, UI_KEY_ESC), UI_REDRAW);
    ck_assert_uint_eq(state(&f)->nvis, 6);
    keys(&f, "faten\n");
    ck_assert_uint_eq(state(&f)->nvis, 3);
    ck_assert_ptr_nonnull(strstr(line(&f, 1), "filter \"aten\""));
    key(&f, UI_KEY_ESC);
    ck_assert_uint_eq(state(&f)->nvis, 6);
    /* Esc with nothing to clear is the global Esc: back where the user was */
    ui_state_show_view(&f.st, UI_VIEW_TIMELINE);
    ui_state_show_view(&f.st, UI_VIEW_DIFF);
    key(&f, UI_KEY_ESC);
    ck_assert_int_eq(f.st.view, UI_VIEW_TIMELINE);
    close_fixture(&f);
}
END_TEST

START_TEST(view_diff_should_sort_by_count_and_name)
{
    struct fixture f;
    open_fixture(&f, SEMANTICS_HTA);
    keys(&f, "s");   /* Δ count: aten::mm +1, aten::new +1 first */
    ck_assert_int_eq(state(&f)->sort, UI_DIFF_SORT_DCOUNT);
    ck_assert_ptr_nonnull(strstr(op_line(&f, 5), "aten::gone"));
    keys(&f, "s");   /* name */
    ck_assert_ptr_nonnull(strstr(op_line(&f, 0), "ProfilerStep#1"));
    ck_assert_ptr_nonnull(strstr(op_line(&f, 5), "gemm"));
    keys(&f, "S");
    ck_assert_ptr_nonnull(strstr(op_line(&f, 0), "gemm"));
    close_fixture(&f);
}
END_TEST

START_TEST(view_diff_should_search_and_switch_devices)
{
    struct fixture f;
    open_fixture(&f, SEMANTICS_HTA);
    keys(&f, "/cuda\n");
    ck_assert_ptr_nonnull(strstr(state(&f)->res.rows[state(&f)->vis[state(&f)->cur]].name,
                                 "cudaLaunchKernel"));
    keys(&f, "K");
    ck_assert_int_eq(state(&f)->device, DIFF_DEVICE_GPU);
    ck_assert_uint_eq(state(&f)->nvis, 1);
    keys(&f, "g");   /* first row, as in every table */
    ck_assert_uint_eq(state(&f)->cur, 0);
    keys(&f, "O");
    ck_assert_int_eq(state(&f)->device, DIFF_DEVICE_CPU);
    ck_assert_uint_eq(state(&f)->nvis, 5);
    keys(&f, "O");
    ck_assert_int_eq(state(&f)->device, DIFF_DEVICE_ALL);
    close_fixture(&f);
}
END_TEST

START_TEST(view_diff_should_step_iterations_on_both_sides)
{
    struct fixture f;
    open_fixture(&f, SEMANTICS_HTA);
    keys(&f, "]");   /* as opened (1) -> 1 */
    ck_assert_int_eq(state(&f)->side[0].plan.iterations[0], 1);
    keys(&f, "]");
    ck_assert_int_eq(state(&f)->side[0].plan.iterations[0], 2);
    ck_assert_int_eq(state(&f)->side[1].plan.iterations[0], 2);
    ck_assert_uint_eq(state(&f)->nvis, 2);   /* ProfilerStep#2, aten::mm */
    keys(&f, "}");   /* test only: all */
    ck_assert_uint_eq(state(&f)->side[1].plan.niterations, 2);
    ck_assert_ptr_nonnull(strstr(line(&f, 0), "2 iters"));
    close_fixture(&f);
}
END_TEST

START_TEST(view_diff_should_open_both_timelines_of_a_row)
{
    struct fixture f;
    open_fixture(&f, SEMANTICS_HTA);
    keys(&f, "\n");   /* gemm */
    ck_assert(state(&f)->detail.open);
    ck_assert_uint_eq(state(&f)->detail.count[0], 1);
    ck_assert_uint_eq(state(&f)->detail.count[1], 1);
    ck_assert_ptr_nonnull(strstr(op_line(&f, 0), "gemm"));
    ck_assert_ptr_nonnull(strstr(op_line(&f, 2), "control r0"));
    ck_assert_ptr_nonnull(strstr(op_line(&f, 2), "1 call"));
    ck_assert_ptr_nonnull(strstr(op_line(&f, 3), "r0 s7"));
    ck_assert_ptr_nonnull(strstr(op_line(&f, 3), "\u2588"));
    ck_assert_ptr_nonnull(strstr(op_line(&f, 5), "test r0"));
    key(&f, 'j');   /* the table's keys wait while the op is open, and say so */
    ck_assert(state(&f)->detail.open);
    ck_assert_ptr_nonnull(strstr(f.st.message, "j does nothing here"));
    ck_assert(key(&f, 'q') & UI_QUIT);   /* q still quits */
    f.st.quit = false;
    key(&f, UI_KEY_ESC);
    ck_assert(!state(&f)->detail.open);
    close_fixture(&f);
}
END_TEST

START_TEST(view_diff_should_keep_every_rank_and_iteration_under_htx)
{
    struct fixture f;
    open_fixture(&f, SEMANTICS_HTX);
    ck_assert_uint_eq(state(&f)->side[0].plan.niterations, 0);
    ck_assert_ptr_nonnull(strstr(line(&f, 0), "all iters"));
    ck_assert_ptr_nonnull(strstr(line(&f, 0), "htx semantics"));
    keys(&f, "r");   /* rank 0 */
    ck_assert_uint_eq(state(&f)->side[0].plan.nranks, 1);
    close_fixture(&f);
}
END_TEST

static Suite *view_diff_suite(void)
{
    Suite *s = suite_create("view_diff");
    TCase *tc = tcase_create("view");
    tcase_add_test(tc, view_diff_should_list_ops_by_duration_change);
    tcase_add_test(tc, view_diff_should_filter_by_change_and_text);
    tcase_add_test(tc, view_diff_should_sort_by_count_and_name);
    tcase_add_test(tc, view_diff_should_search_and_switch_devices);
    tcase_add_test(tc, view_diff_should_step_iterations_on_both_sides);
    tcase_add_test(tc, view_diff_should_open_both_timelines_of_a_row);
    tcase_add_test(tc, view_diff_should_keep_every_rank_and_iteration_under_htx);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(view_diff_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
