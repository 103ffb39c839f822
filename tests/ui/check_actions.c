#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/actions.h"
#include "ui/document.h"
#include "ui/jumps.h"
#include "ui/widgets/keys.h"
#include "ui/screen.h"
#include "ui/refresh.h"
#include "ui/view.h"
#include "ui/views/timeline_lanes.h"
#include "check_ui.h"

/* Key -> action -> state, through the same key table the TUI uses, over
 * the two-rank test trace and fake analyses (so the tables are known). */

/* ---- fake analyses ---- */

static int fake_kernels(const struct model *m, const struct analysis_opts *o, struct arena *a,
                        struct table_list *out, struct err *e)
{
    static const struct table_col tcols[] = {{"kernel_type", NULL, COL_KEY},
                                             {"percentage", "%", COL_PERCENT}};
    static const struct table_col kcols[] = {{"name", NULL, COL_KEY}, {"sum (us)", "us", 0},
                                             {"rank", NULL, COL_KEY}};
    struct table *types = table_new(a, "kernel_type_breakdown", "Kernel types", tcols, 2);
    struct table *k = table_new(a, "kernel_breakdown", "Kernels", kcols, 3);

    (void)o;
    if (!types || !k)
        return err_set(e, ERR_NOMEM, "out of memory");
    struct cell *r = table_add_row(types);
    r[0] = cell_str(types, "COMPUTATION");
    r[1] = cell_double(80);
    r = table_add_row(types);
    r[0] = cell_str(types, "COMMUNICATION");
    r[1] = cell_double(20);
    for (size_t i = 0; i < m->nranks; i++) {
        if (!m->ranks[i].selected)
            continue;
        r = table_add_row(k);
        r[0] = cell_str(k, "sgemm");
        r[1] = cell_double(i == 0 ? 500 : 100);
        r[2] = cell_int(m->ranks[i].rank);
        if (i == 0) {
            r = table_add_row(k);
            r[0] = cell_str(k, "add_kernel");
            r[1] = cell_double(100);
            r[2] = cell_int(0);
        }
    }
    table_list_add(out, types);
    table_list_add(out, k);
    return 0;
}

static int fake_idle(const struct model *m, const struct analysis_opts *o, struct arena *a,
                     struct table_list *out, struct err *e)
{
    static const struct table_col cols[] = {{"rank", NULL, COL_KEY}, {"stream", NULL, COL_KEY},
                                            {"idle_category", NULL, COL_KEY},
                                            {"idle_time", "us", 0}};
    struct table *t = table_new(a, "idle_time_breakdown", "Idle", cols, 4);

    (void)m;
    (void)o;
    if (!t)
        return err_set(e, ERR_NOMEM, "out of memory");
    for (int s = 0; s < 2; s++) {
        struct cell *r = table_add_row(t);
        r[0] = cell_int(0);
        r[1] = cell_int(s ? 20 : 7);
        r[2] = cell_str(t, "host_wait");
        r[3] = cell_double(10.0 * (s + 1));
    }
    table_set_note(t, "two streams");
    return table_list_add(out, t);
}

static int fake_fail(const struct model *m, const struct analysis_opts *o, struct arena *a,
                     struct table_list *out, struct err *e)
{
    (void)m;
    (void)o;
    (void)a;
    (void)out;
    return err_set(e, ERR_PARSE, "boom");
}

static const struct analysis_info fakes[] = {
    {ANALYSIS_KERNELS, "kernels", "Kernels", fake_kernels, 0, 0, 0},
    {ANALYSIS_IDLE, "idle", "Idle", fake_idle, 0, 0, 0},
    {ANALYSIS_OVERLAP, "overlap", "Overlap", fake_fail, 0, 0, 0},
};

/* ---- shared helpers ---- */

void ui_test_state(struct ui_state *st, struct model *m, int rows, int cols)
{
    struct err e = {0, ""};

    ck_assert_int_eq(ui_state_init(st, m, rows, cols), 0);
    st->analyses = fakes;
    st->nanalyses = sizeof fakes / sizeof fakes[0];
    st->title = "test";
    st->export_dir = "/nonexistent/htx-test";  // a stray e must not litter
    ck_assert_int_eq(ui_refresh(st, m, UI_RESELECT | UI_RELANE, &e), 0);
}

unsigned ui_test_keys(struct ui_state *st, struct model *m, const char *keys)
{
    struct ui_script_step *s;
    size_t n;
    struct err e = {0, ""};
    unsigned flags = 0;

    ck_assert_int_eq(ui_script_parse(keys, strlen(keys), &s, &n, &e), 0);
    for (size_t i = 0; i < n; i++) {
        if (s[i].key == UI_KEY_RESIZE) {
            st->rows = s[i].rows;
            st->cols = s[i].cols;
            ui_refresh(st, m, UI_RELAYOUT, &e);
            continue;
        }
        flags |= ui_refresh_key(st, m, s[i].key);
    }
    free(s);
    return flags;
}

static char rowbuf[4096];

const char *ui_test_row(const struct ui_state *st, const struct model *m, int y)
{
    struct ui_grid g;

    ck_assert_int_eq(ui_grid_init(&g, st->rows, st->cols, st->ascii), 0);
    ui_screen_compose(st, m, &g);
    ui_grid_row_text(&g, y, rowbuf, sizeof rowbuf);
    ui_grid_fini(&g);
    return rowbuf;
}

int ui_test_screen_has(const struct ui_state *st, const struct model *m, const char *s)
{
    for (int y = 0; y < st->rows; y++)
        if (strstr(ui_test_row(st, m, y), s))
            return 1;
    return 0;
}

static bool overlay_has(const struct ui_state *st, const char *s)
{
    for (size_t i = 0; i < st->noverlay_lines; i++)
        if (strstr(st->overlay_lines[i], s))
            return true;
    return false;
}

/* ---- tests ---- */

START_TEST(views_should_switch_with_number_keys)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "3");
    ck_assert_int_eq(st.view, UI_VIEW_KERNELS);
    ck_assert(st.docs[UI_VIEW_KERNELS].valid);
    ck_assert_uint_eq(st.docs[UI_VIEW_KERNELS].ntables, 3);   // + kernels across ranks
    ui_test_keys(&st, m, "1");
    ck_assert_int_eq(st.view, UI_VIEW_TIMELINE);
    ui_test_keys(&st, m, "<Esc>");
    ck_assert_int_eq(st.view, UI_VIEW_KERNELS);
    ui_test_keys(&st, m, "d");
    ck_assert_int_eq(st.view, UI_VIEW_KERNELS);
    ck_assert_ptr_nonnull(strstr(st.message, "htx diff"));
    ui_test_keys(&st, m, "i");
    ck_assert_int_eq(st.view, UI_VIEW_DIAGNOSTICS);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(tab_should_cycle_focus_and_tables)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "3<Tab>");
    ck_assert_uint_eq(st.docs[UI_VIEW_KERNELS].cur, 1);
    ui_test_keys(&st, m, "<Tab><Tab>");
    ck_assert_int_eq(st.focus, UI_FOCUS_RANKS);
    ui_test_keys(&st, m, "<Tab>");
    ck_assert_int_eq(st.focus, UI_FOCUS_MAIN);
    ck_assert_uint_eq(st.docs[UI_VIEW_KERNELS].cur, 0);
    ui_test_keys(&st, m, "<S-Tab>");
    ck_assert_int_eq(st.focus, UI_FOCUS_RANKS);
    ui_test_keys(&st, m, "<S-Tab>");
    ck_assert_uint_eq(st.docs[UI_VIEW_KERNELS].cur, 2);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(iterations_should_cycle_and_reselect)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    size_t all = m->ranks[0].nrows;
    ck_assert_uint_eq(st.niterations, 2);
    unsigned f = ui_test_keys(&st, m, "]");
    ck_assert(f & UI_RESELECT);
    ck_assert_int_eq(st.iteration, 0);
    ck_assert_uint_lt(m->ranks[0].nrows, all);
    ck_assert_ptr_nonnull(strstr(st.message, "iteration 1"));
    ui_test_keys(&st, m, "]]");
    ck_assert_int_eq(st.iteration, -1);
    ck_assert_uint_eq(m->ranks[0].nrows, all);
    ui_test_keys(&st, m, "[");
    ck_assert_int_eq(st.iteration, 1);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(ranks_pane_should_keep_one_rank_included)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    size_t lanes = st.nlanes;
    ui_test_keys(&st, m, "<Tab><Space>");
    ck_assert_int_eq(st.focus, UI_FOCUS_RANKS);
    ck_assert(!st.ranks[0].included);
    ck_assert(!m->ranks[0].selected);
    ck_assert_uint_lt(st.nlanes, lanes);
    ui_test_keys(&st, m, "j<Space>");
    ck_assert(st.ranks[1].included);   // refused: the last included rank
    ck_assert_ptr_nonnull(strstr(st.message, "at least one"));
    ui_test_keys(&st, m, "a");
    ck_assert(st.ranks[0].included && m->ranks[0].selected);
    ck_assert_uint_eq(st.nlanes, lanes);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(only_should_keep_one_stream)
{
    struct model *m = ui_test_model();
    struct ui_state st;
    char label[64];

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "<Tab>l");
    ck_assert(st.ranks[0].expanded);
    ck_assert_int_eq(st.items[1].kind, UI_ITEM_STREAM);
    ui_test_keys(&st, m, "jo");
    ck_assert(!st.ranks[1].included);
    ck_assert_uint_eq(st.nlanes, 1);
    ui_lane_label(&st, m, &st.lanes[0], label, sizeof label);
    ck_assert_str_eq(label, "r0 s7");
    ui_test_keys(&st, m, "j<Space>");   // stream 20 back on
    ck_assert_uint_eq(st.nlanes, 2);
    ui_test_keys(&st, m, "h");
    ck_assert(!st.ranks[0].expanded);
    ck_assert_uint_eq(st.item, 0);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(timeline_should_zoom_fit_and_pan)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    int64_t span = st.tl.t1 - st.tl.t0;
    ck_assert_int_eq(st.tl.t0, st.tl.lo);
    ck_assert_int_eq(span, st.tl.hi - st.tl.lo);
    ui_test_keys(&st, m, "+");
    ck_assert_int_le(llabs((st.tl.t1 - st.tl.t0) * 2 - span), 2);
    ui_test_keys(&st, m, "++L");
    int64_t t0 = st.tl.t0;
    ck_assert_int_gt(t0, st.tl.lo);
    ui_test_keys(&st, m, "H");
    ck_assert_int_lt(st.tl.t0, t0);
    ui_test_keys(&st, m, "0");
    ck_assert_int_eq(st.tl.t1 - st.tl.t0, span);
    ui_test_keys(&st, m, "lll");
    ck_assert_int_eq(st.tl.cursor, 3);
    ui_test_keys(&st, m, "hhhhh");
    ck_assert_int_eq(st.tl.cursor, 0);
    ui_test_keys(&st, m, "jG");
    ck_assert_uint_eq(st.tl.lane, st.nlanes - 1);
    ui_test_keys(&st, m, "<Home>");
    ck_assert_uint_eq(st.tl.lane, 0);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(details_should_show_launcher_delay_and_annotations)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "/sgemm<Enter>n");   // rank 1's at 40 us, then rank 0's at 50 us
    ck_assert_uint_eq(st.njumps, 3);
    ck_assert_uint_eq(st.jumps[st.jump].rank, 0);
    uint32_t pos = ui_timeline_pick(&st, m, st.tl.lane, st.tl.cursor);
    ck_assert_uint_ne(pos, MODEL_NONE);
    ui_test_keys(&st, m, "<Enter>");
    ck_assert_int_eq(st.overlay, UI_OVERLAY_DETAILS);
    ck_assert(overlay_has(&st, "Name         sgemm"));
    ck_assert(overlay_has(&st, "Launched by  cudaLaunchKernel"));
    ck_assert(overlay_has(&st, "CPU op       aten::mm"));
    ck_assert(overlay_has(&st, "Launch delay 20 us"));   // 50 - (20 + 10)
    ck_assert(overlay_has(&st, "Correlation  1"));
    ck_assert(overlay_has(&st, "Iteration    1"));
    ck_assert(overlay_has(&st, "ProfilerStep#1 > forward"));
    ck_assert(ui_test_screen_has(&st, m, "Event details"));
    ui_test_keys(&st, m, "<Esc>");
    ck_assert_int_eq(st.overlay, UI_OVERLAY_NONE);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(search_should_step_through_instances)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "/SGEMM<Enter>");
    ck_assert_uint_eq(st.njumps, 3);
    ck_assert_uint_eq(st.jump, 0);
    ui_test_keys(&st, m, "n");
    ck_assert_uint_eq(st.jump, 1);
    ui_test_keys(&st, m, "nn");
    ck_assert_uint_eq(st.jump, 0);   // wraps
    ui_test_keys(&st, m, "N");
    ck_assert_uint_eq(st.jump, 2);
    ck_assert_ptr_nonnull(strstr(st.message, "3/3"));
    ui_test_keys(&st, m, "/nothing-like-this<Enter>");
    ck_assert(st.message_is_error);
    ui_test_keys(&st, m, "<Esc>");
    ck_assert_uint_eq(st.njumps, 0);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(enter_on_a_row_should_jump_to_its_instances)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "3<Tab><Enter>");
    ck_assert_int_eq(st.view, UI_VIEW_TIMELINE);
    ck_assert_uint_eq(st.njumps, 2);   // sgemm on rank 0 only
    const struct ui_jump *j = &st.jumps[st.jump];
    ck_assert_str_eq(model_str(m, m->ranks[j->rank].events[j->pos].name), "sgemm");
    ck_assert_uint_eq(ui_timeline_pick(&st, m, st.tl.lane, st.tl.cursor), j->pos);
    ui_test_keys(&st, m, "<Esc><Esc>");
    ck_assert_int_eq(st.view, UI_VIEW_KERNELS);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(sort_and_filter_keys_should_reorder_rows)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "3<Tab>s");
    struct ui_tview *v = &st.docs[UI_VIEW_KERNELS].tv[1];
    ck_assert_int_eq(v->sort_col, 0);
    ck_assert(!v->sort_desc);   // names ascending
    ck_assert_str_eq(table_cell(v->t, v->rows[0], 0)->v.s, "add_kernel");
    ui_test_keys(&st, m, "s");
    ck_assert_int_eq(v->sort_col, 1);
    ck_assert(v->sort_desc);    // numbers largest first
    ck_assert(table_cell(v->t, v->rows[0], 1)->v.d == 500);
    ui_test_keys(&st, m, "S");
    ck_assert(!v->sort_desc);
    ui_test_keys(&st, m, "fADD<Enter>");
    ck_assert_uint_eq(v->nrows, 1);
    ck_assert_str_eq(st.docs[UI_VIEW_KERNELS].filter, "ADD");
    ck_assert(ui_test_screen_has(&st, m, "filter \"ADD\""));
    ui_test_keys(&st, m, "<Esc>");
    ck_assert_uint_eq(v->nrows, 3);
    ui_test_keys(&st, m, "/kernel<Enter>");
    ck_assert_str_eq(table_cell(v->t, v->rows[st.docs[UI_VIEW_KERNELS].row[1]], 0)->v.s,
                     "add_kernel");
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(hidden_streams_should_leave_the_tables)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "4");
    ck_assert_uint_eq(st.docs[UI_VIEW_IDLE].tv[0].nrows, 2);
    ui_test_keys(&st, m, "<Tab>ljj<Space>");   // rank 0, stream 20 off
    ck_assert(!st.ranks[0].stream_on[1]);
    ck_assert_uint_eq(st.docs[UI_VIEW_IDLE].tv[0].nrows, 1);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(window_should_restrict_the_selection)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    size_t all = m->ranks[0].nrows;
    ui_test_keys(&st, m, "w");
    ck_assert(st.tl.has_mark);
    ck_assert(ui_test_screen_has(&st, m, "window starts"));
    ui_test_keys(&st, m, "llllllllllw");
    ck_assert(st.has_window);
    ck_assert_uint_lt(m->ranks[0].nrows, all);
    ck_assert_int_eq(st.window_start, 0);
    ck_assert_int_gt(st.window_end, st.window_start);
    ck_assert(ui_test_screen_has(&st, m, "window 0 ns-"));
    ui_test_keys(&st, m, "w");
    ck_assert(!st.has_window);
    ck_assert_uint_eq(m->ranks[0].nrows, all);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(help_should_list_every_binding)
{
    struct model *m = ui_test_model();
    struct ui_state st;
    size_t n;
    const struct ui_binding *b = ui_bindings(&n);

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "?");
    ck_assert_int_eq(st.overlay, UI_OVERLAY_HELP);
    for (size_t i = 0; i < n; i++)   // a NULL help: another binding of the key says it
        ck_assert_msg(!b[i].help || overlay_has(&st, b[i].help), "help lacks \"%s\"",
                      b[i].help);
    ck_assert(overlay_has(&st, "PgDn"));
    ui_test_keys(&st, m, "jjj");
    ck_assert_uint_eq(st.overlay_top, 3);
    ui_test_keys(&st, m, "<Esc>");
    ck_assert_int_eq(st.overlay, UI_OVERLAY_NONE);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(prompt_should_edit_and_cancel)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "/ab<BS>c\xc3\xa9<BS>");
    ck_assert_int_eq(st.prompt, UI_PROMPT_SEARCH);
    ck_assert_str_eq(st.prompt_text, "ac");
    ck_assert(ui_test_screen_has(&st, m, "/ac_"));
    ui_test_keys(&st, m, "q<Esc>");   // q is text inside a prompt
    ck_assert(!st.quit);
    ck_assert_int_eq(st.prompt, UI_PROMPT_NONE);
    ck_assert_uint_eq(st.njumps, 0);
    ui_test_keys(&st, m, "2f<Esc>");   // the filter prompt on a table view
    ck_assert_int_eq(st.prompt, UI_PROMPT_NONE);
    ui_test_keys(&st, m, "1f");          // on the timeline, f zooms to an event
    ck_assert_ptr_nonnull(strstr(st.message, "no event under the cursor"));
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

/* Clicks the first, middle and last cell of every tab label as drawn on
 * the screen (found in the dumped rows, not in the layout code) and checks
 * that each click opens that tab's view. */
static void ui_test_click_every_tab(struct ui_state *st, struct model *m)
{
    static const struct {
        const char *label;
        enum ui_view_id id;
    } tabs[] = {
        {"1 Timeline", UI_VIEW_TIMELINE},   {"2 Overview", UI_VIEW_OVERVIEW},
        {"3 Kernels", UI_VIEW_KERNELS},     {"4 Idle", UI_VIEW_IDLE},
        {"5 Overlap", UI_VIEW_OVERLAP},     {"6 Launch", UI_VIEW_LAUNCH},
        {"7 Annotations", UI_VIEW_ANNOTATIONS}, {"8 Counters", UI_VIEW_COUNTERS},
        {"9 Sequences", UI_VIEW_SEQUENCES}, {"R Ranks", UI_VIEW_RANKS},
        {"C Collectives", UI_VIEW_COLLECTIVES}, {"i Diagnostics", UI_VIEW_DIAGNOSTICS},
    };
    for (size_t i = 0; i < sizeof tabs / sizeof tabs[0]; i++) {
        int len = (int)strlen(tabs[i].label);
        for (int at = 0; at < 3; at++) {
            int y = -1, x = 0;
            ui_test_keys(st, m, tabs[i].id == UI_VIEW_TIMELINE ? "2" : "1");
            for (int line = 0; line < st->layout.tabs.h && y < 0; line++) {
                const char *row = ui_test_row(st, m, st->layout.tabs.y + line);
                const char *hit = strstr(row, tabs[i].label);
                // The compact bar shows the key alone: a one-character word.
                for (const char *p = row; !hit && *p; p++)
                    if (*p == tabs[i].label[0] && p > row && (p[-1] == ' ' || p[-1] == '[' || (unsigned char)p[-1] >= 0x80) &&
                        (p[1] == ' ' || p[1] == ']' || (unsigned char)p[1] >= 0x80))
                        hit = p;
                if (!hit)
                    continue;
                if (strncmp(hit, tabs[i].label, strlen(tabs[i].label)) != 0)
                    len = 1;
                y = st->layout.tabs.y + line;
                // Columns count display cells: UTF-8 continuation bytes take none.
                for (const char *p = row; p < hit; p++)
                    x += ((unsigned char)*p & 0xC0) != 0x80;
            }
            ck_assert_msg(y >= 0, "tab \"%s\" not drawn", tabs[i].label);
            int cell = at == 0 ? 0 : at == 1 ? len / 2 : len - 1;
            ui_mouse(st, m, y, x + cell, 1);
            ck_assert_msg(st->view == tabs[i].id, "a click on cell %d of \"%s\" opened view %d",
                          cell, tabs[i].label, (int)st->view);
        }
    }
}

START_TEST(mouse_should_switch_tabs_and_move_the_cursor)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 24, 80);   // the compact tab bar: keys alone
    ui_test_click_every_tab(&st, m);
    ui_state_fini(&st);
    ui_test_state(&st, m, 30, 100);
    ui_test_click_every_tab(&st, m);
    ui_test_keys(&st, m, "1");
    struct ui_rect b = st.layout.body;
    int lx = b.x + ui_timeline_label_w(b.w) + 1 + 5;
    ui_mouse(&st, m, b.y + UI_TIMELINE_PINNED + 1, lx, 1);
    ck_assert_uint_eq(st.tl.lane, 1);
    ck_assert_int_eq(st.tl.cursor, 5);
    ui_mouse(&st, m, st.layout.left_in.y + 1, st.layout.left_in.x + 6, 1);
    ck_assert_int_eq(st.focus, UI_FOCUS_RANKS);
    ck_assert_uint_eq(st.item, 1);
    ui_mouse(&st, m, st.layout.left_in.y, st.layout.left_in.x, 1);
    ck_assert(st.ranks[0].expanded);   // a click on the arrow expands
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

/* y copies the name under the cursor as the reports print it: a name's
 * escape sequence reaches the clipboard escaped, never raw. */
START_TEST(copy_should_escape_the_name_it_copies)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "0/evil<Enter>y");
    ck_assert_ptr_nonnull(st.copy);
    ck_assert_str_eq(st.copy, "evil\\x1B[31mred");
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

/* A jump zooms until its target is the event under the
 * cursor (at the whole trace, a 10 us kernel is less than a cell), and a
 * resize never leaves the cursor past the last column or the data. */
START_TEST(jumps_should_put_their_target_under_the_cursor)
{
    struct model *m = ui_test_model();
    struct ui_state st;
    struct err e = {0, ""};

    ui_test_state(&st, m, 30, 100);
    static const char *const names[] = {"/evil<Enter>", "/<C-u>sgemm<Enter>"};
    for (size_t k = 0; k < 2; k++) {
        ui_test_keys(&st, m, "0");
        ui_test_keys(&st, m, names[k]);
        ck_assert_msg(st.njumps > 0, "%s: %s", names[k], st.message);
        for (size_t i = 0; i < st.njumps; i++) {
            uint32_t pick = ui_timeline_pick(&st, m, st.tl.lane, st.tl.cursor);
            ck_assert_msg(pick == st.jumps[st.jump].pos, "%s: jump %zu shows event %u, not %u",
                          names[k], i, pick, st.jumps[st.jump].pos);
            ui_test_keys(&st, m, "n");
        }
    }
    ui_test_keys(&st, m, "0");
    st.tl.cursor = ui_timeline_cols(&st) - 1;
    st.cols = 70;
    ui_refresh(&st, m, UI_RELAYOUT, &e);
    ck_assert_int_lt(st.tl.cursor, ui_timeline_cols(&st));
    struct ui_timescale ts;
    ui_timeline_scale(&st, &ts);
    ck_assert_int_lt(ui_col_time(&ts, st.tl.cursor), st.tl.hi);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

/* The timeline opened on a window (a finding's evidence) shows exactly that
 * window, on the event's lane with the event under the cursor, and back
 * goes to the view it was opened from. */
START_TEST(jumps_show_window_should_show_the_window_with_the_event_selected)
{
    struct model *m = ui_test_model();
    struct ui_state st;
    struct err e = {0, ""};

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "/sgemm<Enter>");
    struct ui_jump j = {0, 0};
    int64_t t0 = 0, t1 = 0;
    for (size_t i = 0; i < st.njumps && t1 == 0; i++) {   // one whose window is in the data
        const struct event *ev = &m->ranks[st.jumps[i].rank].events[st.jumps[i].pos];
        j = st.jumps[i];
        t0 = ev->ts - 2 * ev->dur;   // the event in the window's last third
        t1 = ev->ts + ev->dur;
        if (t0 < st.tl.lo || t1 > st.tl.hi)
            t1 = 0;
    }
    ck_assert_int_gt(t1, 0);
    ui_test_keys(&st, m, "2");
    unsigned f = ui_jumps_show_window(&st, m, j.rank, -1, j.pos, t0, t1);
    ck_assert_int_eq(ui_refresh(&st, m, f, &e), 0);
    ck_assert_int_eq(st.view, UI_VIEW_TIMELINE);
    ck_assert_int_eq(st.tl.t0, t0);
    ck_assert_int_eq(st.tl.t1, t1);
    ck_assert_uint_eq(ui_timeline_pick(&st, m, st.tl.lane, st.tl.cursor), j.pos);
    ui_test_keys(&st, m, "<C-b>");   // Esc would clear the search first
    ck_assert_int_eq(st.view, UI_VIEW_OVERVIEW);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(quit_keys_should_quit)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ck_assert(ui_test_keys(&st, m, "q") & UI_QUIT);
    st.quit = false;
    ck_assert(ui_test_keys(&st, m, "<C-c>") & UI_QUIT);
    st.quit = false;
    ck_assert(ui_test_keys(&st, m, "?q") & UI_QUIT);
    ck_assert(ui_dispatch(&st, m, UI_KEY_INTERRUPT) & UI_QUIT);
    ck_assert(ui_test_keys(&st, m, "<C-l>") & UI_RELAYOUT);
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

START_TEST(a_failing_analysis_should_show_its_error)
{
    struct model *m = ui_test_model();
    struct ui_state st;

    ui_test_state(&st, m, 30, 100);
    ui_test_keys(&st, m, "5");
    const struct ui_doc *d = &st.docs[UI_VIEW_OVERLAP];
    ck_assert(d->valid);
    ck_assert_uint_eq(d->ntables, 0);
    ck_assert_ptr_nonnull(strstr(d->text[0], "boom"));
    ck_assert(ui_test_screen_has(&st, m, "Overlap failed: boom"));
    ui_test_keys(&st, m, "6");
    ck_assert(ui_test_screen_has(&st, m, "not available in this build"));
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

/* The KEYS section of man/htx.1 names every key of the key table. */
START_TEST(man_page_should_list_every_key)
{
    const char *src = getenv("HTX_SRCDIR");
    char path[4096], name[16], needle[32];
    static char text[1 << 17];
    size_t n, nb;

    if (!src) {
        printf("HTX_SRCDIR not set: skipping the man page check\n");
        return;
    }
    snprintf(path, sizeof path, "%s/man/htx.1", src);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    char *keys = strstr(text, ".Sh KEYS\n");
    ck_assert_ptr_nonnull(keys);
    char *end = strstr(keys + 1, "\n.Sh ");
    if (end)
        *end = 0;
    const struct ui_binding *b = ui_bindings(&nb);
    for (size_t i = 0; i < nb; i++) {
        ui_key_name(b[i].key, name, sizeof name);
        snprintf(needle, sizeof needle, "Ic %s", name);
        bool plain = strstr(keys, needle) != NULL;
        snprintf(needle, sizeof needle, "Ic \\&%s", name);
        ck_assert_msg(plain || strstr(keys, needle), "man page KEYS lacks key %s (%s)", name,
                      b[i].help);
    }
}
END_TEST

/* The registry gives each id the view that says it is that id, with a key
 * of its own; a view with data of its own made it at ui_state_init. */
START_TEST(registry_should_give_each_view_its_own_ops)
{
    struct model *m = ui_test_model();
    struct ui_state st;
    int keys[UI_VIEW_COUNT];

    ui_test_state(&st, m, 30, 100);
    for (int id = 0; id < UI_VIEW_COUNT; id++) {
        const struct ui_view_ops *v = ui_view_get(&st, (enum ui_view_id)id);
        if (id == UI_VIEW_DIFF) {
            ck_assert_ptr_null(v);   // only htx diff has one
            continue;
        }
        ck_assert_ptr_nonnull(v);
        ck_assert_int_eq(v->id, id);
        ck_assert_ptr_nonnull(v->rows);
        ck_assert_ptr_nonnull(v->contexts);
        keys[id] = v->key;
        for (int k = 0; k < id; k++)
            ck_assert_int_ne(keys[k], v->key);
        ck_assert(!v->init || st.own[id]);
    }
    ui_state_fini(&st);
    model_free(m);
}
END_TEST

Suite *ui_actions_suite(void)
{
    Suite *s = suite_create("ui_actions");
    TCase *tc = tcase_create("keys");
    tcase_add_test(tc, views_should_switch_with_number_keys);
    tcase_add_test(tc, tab_should_cycle_focus_and_tables);
    tcase_add_test(tc, iterations_should_cycle_and_reselect);
    tcase_add_test(tc, ranks_pane_should_keep_one_rank_included);
    tcase_add_test(tc, only_should_keep_one_stream);
    tcase_add_test(tc, timeline_should_zoom_fit_and_pan);
    tcase_add_test(tc, details_should_show_launcher_delay_and_annotations);
    tcase_add_test(tc, search_should_step_through_instances);
    tcase_add_test(tc, enter_on_a_row_should_jump_to_its_instances);
    tcase_add_test(tc, sort_and_filter_keys_should_reorder_rows);
    tcase_add_test(tc, hidden_streams_should_leave_the_tables);
    tcase_add_test(tc, window_should_restrict_the_selection);
    tcase_add_test(tc, help_should_list_every_binding);
    tcase_add_test(tc, prompt_should_edit_and_cancel);
    tcase_add_test(tc, mouse_should_switch_tabs_and_move_the_cursor);
    tcase_add_test(tc, jumps_should_put_their_target_under_the_cursor);
    tcase_add_test(tc, jumps_show_window_should_show_the_window_with_the_event_selected);
    tcase_add_test(tc, copy_should_escape_the_name_it_copies);
    tcase_add_test(tc, quit_keys_should_quit);
    tcase_add_test(tc, a_failing_analysis_should_show_its_error);
    tcase_add_test(tc, man_page_should_list_every_key);
    tcase_add_test(tc, registry_should_give_each_view_its_own_ops);
    suite_add_tcase(s, tc);
    return s;
}
