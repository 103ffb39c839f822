#include "config.h"

#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/widgets/charts.h"
#include "ui/widgets/grid.h"
#include "ui/widgets/keys.h"
#include "ui/widgets/layout.h"
#include "ui/screen.h"
#include "ui/refresh.h"
#include "ui/widgets/tables.h"
#include "ui/widgets/text.h"
#include "check_ui.h"

/* The UI core without a terminal: text escaping and widths, time <-> column
 * maths, cell bucketing (against a brute force), key scripts and table
 * views. Actions and screens are in tests/ui/check_actions.c and
 * tests/ui/check_screen.c. */

/* ---- shared helpers ---- */

static const char *rank0_doc =
    "{\"distributedInfo\":{\"rank\":0,\"world_size\":2},"
    "\"deviceProperties\":[{\"name\":\"Test GPU\"}],\"traceEvents\":["
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
    "\"ts\":0,\"dur\":1000},"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"forward\",\"pid\":1,\"tid\":1,"
    "\"ts\":5,\"dur\":400},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":10,"
    "\"dur\":60},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":20,\"dur\":10,\"args\":{\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sgemm\",\"pid\":0,\"tid\":7,\"ts\":50,"
    "\"dur\":200,\"args\":{\"stream\":7,\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"nccl:all_reduce\",\"pid\":1,\"tid\":1,"
    "\"ts\":80,\"dur\":30},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":90,\"dur\":5,\"args\":{\"correlation\":3}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce\",\"pid\":0,"
    "\"tid\":20,\"ts\":100,\"dur\":400,\"args\":{\"stream\":20,\"correlation\":3}},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":1,\"tid\":1,\"ts\":200,"
    "\"dur\":50},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":210,\"dur\":5,\"args\":{\"correlation\":2}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"add_kernel\",\"pid\":0,\"tid\":7,\"ts\":300,"
    "\"dur\":100,\"args\":{\"stream\":7,\"correlation\":2}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaMemcpyAsync\",\"pid\":1,\"tid\":1,"
    "\"ts\":590,\"dur\":5,\"args\":{\"correlation\":4}},"
    "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pageable -> Device)\","
    "\"pid\":0,\"tid\":7,\"ts\":600,\"dur\":50,\"args\":{\"stream\":7,\"correlation\":4}},"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#2\",\"pid\":1,\"tid\":1,"
    "\"ts\":1000,\"dur\":1000},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":1010,"
    "\"dur\":60},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":1020,\"dur\":10,\"args\":{\"correlation\":5}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sgemm\",\"pid\":0,\"tid\":7,\"ts\":1050,"
    "\"dur\":300,\"args\":{\"stream\":7,\"correlation\":5}},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":1490,\"dur\":5,\"args\":{\"correlation\":6}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"evil\\u001b[31mred\",\"pid\":0,\"tid\":7,"
    "\"ts\":1500,\"dur\":10,\"args\":{\"stream\":7,\"correlation\":6}},"
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"main\"}}"
    "]}";

static const char *rank1_doc =
    "{\"distributedInfo\":{\"rank\":1,\"world_size\":2},\"traceEvents\":["
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,"
    "\"ts\":0,\"dur\":1000},"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
    "\"ts\":10,\"dur\":10,\"args\":{\"correlation\":1}},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sgemm\",\"pid\":0,\"tid\":7,\"ts\":40,"
    "\"dur\":100,\"args\":{\"stream\":7,\"correlation\":1}}"
    "]}";

struct model *ui_test_model(void)
{
    const char *names[] = {"rank0.json", "rank1.json"};
    const void *bufs[] = {rank0_doc, rank1_doc};
    size_t lens[] = {strlen(rank0_doc), strlen(rank1_doc)};
    struct semantics sem;
    struct err e = {0, ""};

    semantics_init(&sem, SEMANTICS_HTX);
    struct model *m = model_load_buffers(names, bufs, lens, 2, &sem, &e);
    ck_assert_msg(m != NULL, "test trace did not load: %s", e.msg);
    return m;
}

/* ---- text ---- */

START_TEST(text_should_escape_control_characters)
{
    struct ui_unit u[16];
    size_t n = ui_text_units("a\x1b[b\x7f", 5, false, u, 16);

    ck_assert_uint_eq(n, 5);
    ck_assert_uint_eq(u[1].cp[0], '^');
    ck_assert_uint_eq(u[1].cp[1], '[');
    ck_assert_uint_eq(u[1].width, 2);
    ck_assert_uint_eq(u[4].cp[1], '?');
    ck_assert_int_eq(ui_text_width("a\x1b[b\x7f", 5, false), 7);
}
END_TEST

START_TEST(text_should_replace_invalid_utf8)
{
    struct ui_unit u[8];
    uint32_t cp;

    ck_assert_uint_eq(utf8_decode_lossy("\xc3\xa9", 2, &cp), 2);
    ck_assert_uint_eq(cp, 0xE9);
    ck_assert_uint_eq(utf8_decode_lossy("\xc0\xaf", 2, &cp), 1);   // overlong '/'
    ck_assert_uint_eq(cp, UI_CP_REPLACEMENT);
    ck_assert_uint_eq(utf8_decode_lossy("\xed\xa0\x80", 3, &cp), 1);   // surrogate
    ck_assert_uint_eq(cp, UI_CP_REPLACEMENT);
    ck_assert_uint_eq(utf8_decode_lossy("\xe2\x82", 2, &cp), 1);   // truncated
    ck_assert_uint_eq(ui_text_units("\xff" "x", 2, true, u, 8), 2);
    ck_assert_uint_eq(u[0].cp[0], '?');
    ck_assert_uint_eq(ui_text_units("\xc2\x9b", 2, false, u, 8), 1);   // C1 CSI
    ck_assert_uint_eq(u[0].cp[0], UI_CP_REPLACEMENT);
}
END_TEST

START_TEST(text_should_measure_wide_characters)
{
    char old[64];
    snprintf(old, sizeof old, "%s", setlocale(LC_CTYPE, NULL));
    if (!setlocale(LC_CTYPE, "C.UTF-8")) {
        printf("no C.UTF-8 locale: skipping wide characters\n");
        return;
    }
    ck_assert_int_eq(ui_text_width("\xe6\x97\xa5\xe6\x9c\xac", 6, false), 4);
    ck_assert_int_eq(ui_text_width("\xe6\x97\xa5\xe6\x9c\xac", 6, true), 2);
    ck_assert_int_eq(ui_text_width("\xe2\x80\x8b", 3, false), 1);   // zero width: shown
    setlocale(LC_CTYPE, old);
}
END_TEST

START_TEST(text_should_truncate_in_the_middle)
{
    struct ui_unit u[16];
    size_t head, tail, n = ui_text_units("abcdefghij", 10, false, u, 16);

    ck_assert(!ui_text_fit(u, n, 10, true, &head, &tail));
    ck_assert_uint_eq(head, 10);
    ck_assert(ui_text_fit(u, n, 5, true, &head, &tail));
    ck_assert_uint_eq(head, 3);
    ck_assert_uint_eq(tail, 1);
    ck_assert(ui_text_fit(u, n, 8, true, &head, &tail));
    ck_assert_uint_eq(head, 5);
    ck_assert_uint_eq(tail, 2);
    ck_assert(ui_text_fit(u, n, 5, false, &head, &tail));
    ck_assert_uint_eq(head, 4);
    ck_assert_uint_eq(tail, 0);
}
END_TEST

START_TEST(text_should_match_case_insensitively)
{
    ck_assert(ui_text_contains("ncclDevKernel_AllReduce", "allreduce"));
    ck_assert(ui_text_contains("abc", ""));
    ck_assert(!ui_text_contains("abc", "abcd"));
}
END_TEST

START_TEST(grid_should_never_hold_control_characters)
{
    struct ui_grid g;
    char row[512];

    ck_assert_int_eq(ui_grid_init(&g, 3, 40, false), 0);
    ui_grid_text(&g, 0, 0, 40, "x\x1b]0;owned\x07\x1b[2J\x9b" "1m", UI_STYLE_NORMAL,
                 UI_TRUNC_END);
    for (int x = 0; x < g.cols; x++) {
        uint32_t ch = ui_grid_at(&g, 0, x)->ch;
        ck_assert_msg(ch >= 0x20 || ch == 0, "control char %u at %d", ch, x);
        ck_assert(ch != 0x7f && !(ch >= 0x80 && ch < 0xa0));
    }
    ui_grid_row_text(&g, 0, row, sizeof row);
    ck_assert_ptr_nonnull(strstr(row, "x^[]0;owned^G^[[2J"));
    ui_grid_fini(&g);
}
END_TEST

START_TEST(grid_should_draw_ascii_boxes)
{
    struct ui_grid g;
    char row[128];

    ck_assert_int_eq(ui_grid_init(&g, 3, 10, true), 0);
    ui_grid_box(&g, (struct ui_rect){0, 0, 3, 10}, UI_STYLE_BORDER, "Hi");
    ui_grid_row_text(&g, 0, row, sizeof row);
    ck_assert_str_eq(row, "+ Hi ----+");
    ui_grid_row_text(&g, 1, row, sizeof row);
    ck_assert_str_eq(row, "|        |");
    ui_grid_fini(&g);
}
END_TEST

/* ---- layout ---- */

START_TEST(layout_should_map_time_to_columns_and_back)
{
    struct ui_timescale s = {1000, 1000 + 987654321, 173};

    srand(7);
    for (int i = 0; i < 2000; i++) {
        int64_t t = s.t0 + (int64_t)((double)rand() / RAND_MAX * (double)(s.t1 - s.t0 - 1));
        int c = ui_time_col(&s, t);
        ck_assert_int_ge(c, 0);
        ck_assert_int_lt(c, s.cols);
        ck_assert_int_le(ui_col_time(&s, c), t);
        ck_assert_int_gt(ui_col_time(&s, c + 1), t);
    }
    ck_assert_int_eq(ui_time_col(&s, s.t0 - 1), -1);
    ck_assert_int_eq(ui_time_col(&s, s.t1), s.cols);
    ck_assert_int_eq(ui_col_time(&s, s.cols), s.t1);
}
END_TEST

START_TEST(layout_should_zoom_around_the_center)
{
    int64_t t0 = 0, t1 = 1000000;

    ui_zoom(&t0, &t1, 250000, 0.5, 100, 0, 1000000);
    ck_assert_int_eq(t1 - t0, 500000);
    ck_assert_int_eq(t0, 125000);   // 250000 stays a quarter of the way in
    ui_zoom(&t0, &t1, 250000, 1e-9, 100, 0, 1000000);
    ck_assert_int_eq(t1 - t0, 100);   // never below one ns per column
    ui_zoom(&t0, &t1, 250000, 1e9, 100, 0, 1000000);
    ck_assert_int_eq(t0, 0);   // never wider than the data
    ck_assert_int_eq(t1, 1000000);
}
END_TEST

START_TEST(layout_should_keep_the_window_inside_the_data)
{
    int64_t t0 = 100, t1 = 200;

    ui_pan(&t0, &t1, -1000, 0, 1000);
    ck_assert_int_eq(t0, 0);
    ck_assert_int_eq(t1, 100);
    ui_pan(&t0, &t1, 5000, 0, 1000);
    ck_assert_int_eq(t0, 900);
    ck_assert_int_eq(t1, 1000);
}
END_TEST

START_TEST(layout_should_pick_nice_ticks)
{
    ck_assert_int_eq(ui_nice_tick(1000000000, 100, 10), 100000000);
    ck_assert_int_eq(ui_nice_tick(1000000000, 100, 12), 200000000);
    ck_assert_int_eq(ui_nice_tick(1000000000, 100, 30), 500000000);
    ck_assert_int_eq(ui_nice_tick(50, 100, 10), 5);
}
END_TEST

START_TEST(layout_should_split_the_screen)
{
    struct ui_layout l;

    ui_layout_screen(40, 120, 2, false, &l);
    ck_assert(!l.too_small);
    ck_assert_int_eq(l.left.w, 24);
    ck_assert_int_eq(l.main.x, 24);
    ck_assert_int_eq(l.body.y, 4);
    ck_assert_int_eq(l.body.h, 34);
    ck_assert_int_eq(l.body.w, 94);
    ck_assert_int_eq(l.status.y, 39);
    ui_layout_screen(15, 60, 2, false, &l);
    ck_assert(!l.too_small);
    ck_assert_int_eq(l.left.w, 16);
    ui_layout_screen(9, 120, 1, false, &l);
    ck_assert(l.too_small);
    ui_layout_screen(30, 50, 1, false, &l);
    ck_assert_int_eq(l.left.w, 0);   // narrow: the view takes the width
}
END_TEST

START_TEST(tabs_should_wrap_onto_more_lines)
{
    int w[3] = {10, 10, 10}, line[3], col[3];

    ck_assert_int_eq(ui_tabs_place(w, 3, 40, line, col), 1);
    ck_assert_int_eq(col[2], 22);
    ck_assert_int_eq(ui_tabs_place(w, 3, 25, line, col), 2);
    ck_assert_int_eq(line[2], 1);
    ck_assert_int_eq(col[2], 0);
}
END_TEST

/* ---- bucketing ---- */

struct fake_stream {
    struct event ev[600];
    uint32_t pos[600];
    int64_t max_end[600];
    struct stream_index s;
};

static void fake_stream_build(struct fake_stream *f, size_t n, unsigned seed)
{
    int64_t t = 0, m = INT64_MIN;

    srand(seed);
    memset(f, 0, sizeof *f);
    for (size_t i = 0; i < n; i++) {
        t += rand() % 50;   // ties and overlaps on purpose
        f->ev[i].ts = t;
        f->ev[i].dur = rand() % 4 == 0 ? 0 : rand() % 120;
        f->ev[i].kind = EV_KIND_KERNEL;
        // Positions in file order differ from time order.
        f->pos[i] = (uint32_t)(n - 1 - i);
    }
    struct event copy[600];
    memcpy(copy, f->ev, n * sizeof *copy);
    for (size_t i = 0; i < n; i++) {
        f->ev[n - 1 - i] = copy[i];
        int64_t end = copy[i].ts + copy[i].dur;
        m = end > m ? end : m;
        f->max_end[i] = m;
    }
    f->s.pos = f->pos;
    f->s.max_end = f->max_end;
    f->s.n = n;
}

/* What a cell [a, b) must show, found by looking at every event: the first
 * event (in time order) running at a, else the first starting in the cell;
 * the count is the events starting in the cell plus one if any runs at a. */
static struct ui_pick brute_pick(const struct fake_stream *f, int64_t a, int64_t b)
{
    uint32_t covering = MODEL_NONE, starting = MODEL_NONE, count = 0;

    for (size_t i = 0; i < f->s.n; i++) {
        const struct event *e = &f->ev[f->pos[i]];
        if (e->ts < a && e->ts + e->dur > a && covering == MODEL_NONE)
            covering = f->pos[i];
        if (e->ts >= a && e->ts < b) {
            if (starting == MODEL_NONE)
                starting = f->pos[i];
            count++;
        }
    }
    struct ui_pick p = {covering != MODEL_NONE ? covering : starting,
                        count + (covering != MODEL_NONE)};
    return p;
}

START_TEST(bucket_should_match_brute_force_on_random_streams)
{
    static struct fake_stream f;
    struct ui_pick picks[97];

    for (unsigned seed = 1; seed <= 20; seed++) {
        fake_stream_build(&f, 100 + seed * 20, seed);
        int64_t end = f.max_end[f.s.n - 1];
        for (int w = 0; w < 10; w++) {
            struct ui_timescale ts;
            ts.cols = 10 + rand() % 87;
            ts.t0 = rand() % (end / 2 + 1) - 50;
            ts.t1 = ts.t0 + ts.cols + rand() % (end + 1);
            ui_bucket_stream(&f.s, f.ev, &ts, picks);
            for (int c = 0; c < ts.cols; c++) {
                struct ui_pick want = brute_pick(&f, ui_col_time(&ts, c), ui_col_time(&ts, c + 1));
                ck_assert_msg(picks[c].pos == want.pos, "seed %u cell %d: pos %u want %u", seed,
                              c, picks[c].pos, want.pos);
                ck_assert_msg(picks[c].count == want.count, "seed %u cell %d: count %u want %u",
                              seed, c, picks[c].count, want.count);
            }
        }
    }
}
END_TEST

START_TEST(bucket_should_show_covering_events_and_idle_cells)
{
    static struct fake_stream f;
    struct ui_pick p[10];
    struct ui_timescale ts = {0, 100, 10};

    memset(&f, 0, sizeof f);
    f.ev[0] = (struct event){.ts = 5, .dur = 30};    // covers cells 0..3
    f.ev[1] = (struct event){.ts = 12, .dur = 2};    // inside it
    f.ev[2] = (struct event){.ts = 71, .dur = 1};    // alone in cell 7
    for (uint32_t i = 0; i < 3; i++)
        f.pos[i] = i;
    f.max_end[0] = 35;
    f.max_end[1] = 35;
    f.max_end[2] = 72;
    f.s = (struct stream_index){.pos = f.pos, .max_end = f.max_end, .n = 3};
    ui_bucket_stream(&f.s, f.ev, &ts, p);
    ck_assert_uint_eq(p[0].pos, 0);   // starts inside cell 0
    ck_assert_uint_eq(p[1].pos, 0);   // covers the start of cell 1
    ck_assert_uint_eq(p[1].count, 2);
    ck_assert_uint_eq(p[3].pos, 0);
    ck_assert_uint_eq(p[4].pos, MODEL_NONE);
    ck_assert_uint_eq(p[7].pos, 2);
    ck_assert_uint_eq(p[9].pos, MODEL_NONE);
    ck_assert_uint_eq(p[9].count, 0);
}
END_TEST

START_TEST(bucket_thread_should_pick_the_deepest_covering_event)
{
    struct event ev[3] = {
        {.ts = 0, .dur = 100}, {.ts = 10, .dur = 50}, {.ts = 20, .dur = 5},
    };
    uint32_t pos[3] = {0, 1, 2}, parent[3] = {MODEL_NONE, 0, 1};
    struct thread_index t = {.pos = pos, .parent = parent, .n = 3};
    struct ui_timescale ts = {0, 100, 10};
    struct ui_pick p[10];

    ui_bucket_thread(&t, ev, &ts, p);
    ck_assert_uint_eq(p[0].pos, 0);   // starts in cell 0
    ck_assert_uint_eq(p[1].pos, 1);   // cell 1 starts at 10 where event 1 starts
    ck_assert_uint_eq(p[3].pos, 1);   // 30: event 2 has ended, its parent covers
    ck_assert_uint_eq(p[7].pos, 0);   // 70: only the outer one
    ui_bucket_thread(&t, ev, &(struct ui_timescale){21, 22, 1}, p);
    ck_assert_uint_eq(p[0].pos, 2);
}
END_TEST

/* ---- keys ---- */

START_TEST(script_should_parse_keys_names_and_resize)
{
    const char *text = "# comment\n3jk<Enter><C-l><S-Tab><lt>\xc3\xa9\n:resize 15x60\n<Esc>q\n";
    struct ui_script_step *s;
    size_t n;
    struct err e = {0, ""};

    ck_assert_int_eq(ui_script_parse(text, strlen(text), &s, &n, &e), 0);
    ck_assert_uint_eq(n, 11);
    ck_assert_int_eq(s[0].key, '3');
    ck_assert_int_eq(s[3].key, UI_KEY_ENTER);
    ck_assert_int_eq(s[4].key, UI_KEY_CTRL('l'));
    ck_assert_int_eq(s[5].key, UI_KEY_BTAB);
    ck_assert_int_eq(s[6].key, '<');
    ck_assert_int_eq(s[7].key, 0xE9);
    ck_assert_int_eq(s[8].key, UI_KEY_RESIZE);
    ck_assert_int_eq(s[8].rows, 15);
    ck_assert_int_eq(s[8].cols, 60);
    ck_assert_int_eq(s[9].key, UI_KEY_ESC);
    free(s);
}
END_TEST

START_TEST(script_should_reject_unknown_names)
{
    struct ui_script_step *s;
    size_t n;
    struct err e = {0, ""};

    ck_assert_int_eq(ui_script_parse("ab\n<Nope>", 9, &s, &n, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "line 2"));
    ck_assert_int_eq(ui_script_parse(":resize 0x5", 11, &s, &n, &e), ERR_PARSE);
    /* Found by the text fuzz target: a bare <Resize> resized to 0 x 0. */
    ck_assert_int_eq(ui_script_parse("j\n<Resize>", 10, &s, &n, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, ":resize ROWSxCOLS"));
}
END_TEST

START_TEST(key_names_should_read_back)
{
    char buf[16];

    ck_assert_str_eq(ui_key_name(UI_KEY_PGDN, buf, sizeof buf), "PgDn");
    ck_assert_str_eq(ui_key_name(UI_KEY_CTRL('l'), buf, sizeof buf), "C-l");
    ck_assert_str_eq(ui_key_name('q', buf, sizeof buf), "q");
    ck_assert_str_eq(ui_key_name(' ', buf, sizeof buf), "Space");
}
END_TEST

/* ---- tables ---- */

static struct table *numbers_table(struct arena *a)
{
    static const struct table_col cols[] = {{"name", NULL, COL_KEY}, {"sum (us)", "us", 0},
                                            {"rank", NULL, COL_KEY}, {"stream", NULL, COL_KEY}};
    struct table *t = table_new(a, "kernel_breakdown", "Kernels", cols, 4);
    static const struct {
        const char *name;
        double v;
        int64_t rank, stream;
    } rows[] = {
        {"b", 5, 0, 7}, {"a", 0.0 / 0.0, 0, 7}, {"c", 9, 1, 20}, {"A2", 5, 1, 7}, {"d", 1, 0, 20},
    };
    for (size_t i = 0; i < 5; i++) {
        struct cell *r = table_add_row(t);
        r[0] = cell_str(t, rows[i].name);
        r[1] = cell_double(rows[i].v);
        r[2] = cell_int(rows[i].rank);
        r[3] = cell_int(rows[i].stream);
    }
    return t;
}

START_TEST(tview_should_sort_numbers_with_nan_last_and_stable_ties)
{
    struct arena a;
    struct ui_tview v = {.sort_col = 1, .sort_desc = true};

    arena_init(&a, 4096);
    struct table *t = numbers_table(&a);
    ck_assert_int_eq(ui_tview_build(&v, t, "", NULL), 0);
    size_t want_desc[] = {2, 0, 3, 4, 1};
    for (size_t i = 0; i < 5; i++)
        ck_assert_uint_eq(v.rows[i], want_desc[i]);
    v.sort_desc = false;
    ui_tview_sort(&v);
    size_t want_asc[] = {4, 0, 3, 2, 1};   // ties (b, A2) keep their order; NaN still last
    for (size_t i = 0; i < 5; i++)
        ck_assert_uint_eq(v.rows[i], want_asc[i]);
    v.sort_col = 0;
    ui_tview_sort(&v);
    ck_assert_uint_eq(v.rows[0], 3);   // "A2" < "a": byte order
    v.sort_col = -1;
    ui_tview_sort(&v);
    for (size_t i = 0; i < 5; i++)
        ck_assert_uint_eq(v.rows[i], i);
    ui_tview_fini(&v);
    arena_fini(&a);
}
END_TEST

/* Headers say their unit, and a column has one format. */
START_TEST(tview_should_give_units_and_one_format_per_column)
{
    static const struct table_col cols[] = {
        {"idle_time", "us", 0}, {"sum (us)", "us", 0}, {"count", NULL, 0}, {"tiny", NULL, 0}};
    struct arena a;
    struct ui_tview v = {.sort_col = -1};
    char buf[64];

    arena_init(&a, 4096);
    struct table *t = table_new(&a, "t", "T", cols, 4);
    static const double values[3][4] = {{3, 1, 2, 0.001}, {83.8, 2, 5, 0.5}, {0, 3, 7, 0}};
    for (size_t i = 0; i < 3; i++) {
        struct cell *r = table_add_row(t);
        for (size_t c = 0; c < 4; c++)
            r[c] = cell_double(values[i][c]);
    }
    ck_assert_int_eq(ui_tview_build(&v, t, "", NULL), 0);
    ui_tview_header(t, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "idle_time (us)");
    ui_tview_header(t, 1, buf, sizeof buf);
    ck_assert_str_eq(buf, "sum (us)");   // the name says it already
    ui_tview_header(t, 2, buf, sizeof buf);
    ck_assert_str_eq(buf, "count");
    ui_tview_cell_text(&v, 0, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "3.00");       // as 83.80 below it
    ui_tview_cell_text(&v, 1, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "83.80");
    ui_tview_cell_text(&v, 2, 1, buf, sizeof buf);
    ck_assert_str_eq(buf, "3");          // whole numbers stay whole
    ui_tview_cell_text(&v, 0, 3, buf, sizeof buf);
    ck_assert_str_eq(buf, "0.0010");     // too small for two decimals
    ui_tview_cell_text(&v, 1, 3, buf, sizeof buf);
    ck_assert_str_eq(buf, "0.5000");
    ck_assert_int_eq(v.widths[0], 15);   // the header's width, with the sort mark
    ck_assert_int_eq(v.content_widths[0], 5);
    ui_tview_fini(&v);
    arena_fini(&a);
}
END_TEST

static bool hide_stream_20(void *ctx, int64_t rank, int64_t stream)
{
    (void)ctx;
    (void)rank;
    return stream == 20;
}

START_TEST(tview_should_filter_and_hide_switched_off_streams)
{
    struct arena a;
    struct ui_tview v = {.sort_col = -1};
    struct ui_row_filter rf = {hide_stream_20, NULL, NULL};

    arena_init(&a, 4096);
    struct table *t = numbers_table(&a);
    ck_assert_int_eq(ui_tview_build(&v, t, "A", NULL), 0);
    ck_assert_uint_eq(v.nrows, 2);   // "a" and "A2", case-insensitive
    ck_assert_int_eq(ui_tview_build(&v, t, "", &rf), 0);
    ck_assert_uint_eq(v.nrows, 3);
    ck_assert_int_eq(ui_tview_build(&v, t, "9", NULL), 0);
    ck_assert_uint_eq(v.nrows, 1);   // numbers match as shown
    ck_assert_int_eq(ui_tview_build(&v, t, "", NULL), 0);
    ck_assert_int_eq(ui_tview_search(&v, 1, 1, "b"), 0);   // wraps around
    ck_assert_int_eq(ui_tview_search(&v, 0, -1, "d"), 4);
    ck_assert_int_eq(ui_tview_search(&v, 0, 1, "zzz"), -1);
    ck_assert_int_eq(v.widths[0], 5);   // "name" and a sort mark: wider than every cell
    ui_tview_fini(&v);
    arena_fini(&a);
}
END_TEST

START_TEST(export_should_write_csv_and_never_overwrite)
{
    struct arena a;
    struct ui_tview v = {.sort_col = 1, .sort_desc = true};
    char dir[] = "/tmp/htx-ui-export.XXXXXX", p1[512], p2[512], line[256];
    struct err e = {0, ""};

    ck_assert_ptr_nonnull(mkdtemp(dir));
    arena_init(&a, 4096);
    ck_assert_int_eq(ui_tview_build(&v, numbers_table(&a), "", NULL), 0);
    ck_assert_int_eq(ui_tview_export_csv(&v, dir, p1, sizeof p1, &e), 0);
    ck_assert_int_eq(ui_tview_export_csv(&v, dir, p2, sizeof p2, &e), 0);
    ck_assert_str_ne(p1, p2);
    ck_assert_ptr_nonnull(strstr(p2, "htx-kernel_breakdown-1.csv"));
    FILE *f = fopen(p1, "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "name,sum (us),rank,stream\r\n");
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "c,9,1,20\r\n");   // in the view's order
    fclose(f);
    unlink(p1);
    unlink(p2);
    rmdir(dir);
    ui_tview_fini(&v);
    arena_fini(&a);
}
END_TEST

START_TEST(cells_should_format_for_reading)
{
    char b[32];

    format_cell(&(struct cell){CELL_DOUBLE, {.d = 321378.0}}, &FORMAT_CELL_VIEW, b, sizeof b);
    ck_assert_str_eq(b, "321378");
    format_cell(&(struct cell){CELL_DOUBLE, {.d = 23.619771863117872}}, &FORMAT_CELL_VIEW, b, sizeof b);
    ck_assert_str_eq(b, "23.62");
    format_cell(&(struct cell){CELL_DOUBLE, {.d = 0.000488}}, &FORMAT_CELL_VIEW, b, sizeof b);
    ck_assert_str_eq(b, "0.000488");
    format_cell(&(struct cell){CELL_DOUBLE, {.d = 0.0 / 0.0}}, &FORMAT_CELL_VIEW, b, sizeof b);
    ck_assert_str_eq(b, "");
    format_cell(&(struct cell){CELL_INT, {.i = -3}}, &FORMAT_CELL_VIEW, b, sizeof b);
    ck_assert_str_eq(b, "-3");
}
END_TEST

/* ---- charts ---- */

START_TEST(charts_should_draw_eighth_bars_and_sparklines)
{
    struct ui_grid g;
    char row[256];
    double v[4] = {0, 1, 2, 4};

    ck_assert_int_eq(ui_grid_init(&g, 2, 8, false), 0);
    ui_chart_bar(&g, 0, 0, 8, 0.5 + 1.0 / 64, UI_STYLE_BAR);
    ui_grid_row_text(&g, 0, row, sizeof row);
    ck_assert_str_eq(row, "\u2588\u2588\u2588\u2588\u258f");
    ui_chart_spark(&g, 1, 0, 4, v, 4, 4, UI_STYLE_BAR);
    ui_grid_row_text(&g, 1, row, sizeof row);
    ck_assert_str_eq(row, " \u2582\u2584\u2588");
    g.ascii = true;
    ui_grid_clear(&g, UI_STYLE_NORMAL);
    ui_chart_bar(&g, 0, 0, 8, 0.25, UI_STYLE_BAR);
    ui_grid_row_text(&g, 0, row, sizeof row);
    ck_assert_str_eq(row, "##");
    ui_grid_fini(&g);
}
END_TEST

START_TEST(charts_should_sample_step_functions_by_maximum)
{
    int64_t ts[3] = {0, 100, 101};
    double v[3] = {1, 9, 2}, out[UI_SPARK_BUCKETS];

    ui_chart_sample_steps(ts, v, 3, 0, UI_SPARK_BUCKETS * 10, out);
    ck_assert(out[0] == 1);
    ck_assert(out[10] == 9);   // the spike of one ns survives
    ck_assert(out[11] == 2);
    ck_assert(out[UI_SPARK_BUCKETS - 1] == 2);
}
END_TEST

static Suite *core_suite(void)
{
    Suite *s = suite_create("ui_core");
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, text_should_escape_control_characters);
    tcase_add_test(tc, text_should_replace_invalid_utf8);
    tcase_add_test(tc, text_should_measure_wide_characters);
    tcase_add_test(tc, text_should_truncate_in_the_middle);
    tcase_add_test(tc, text_should_match_case_insensitively);
    tcase_add_test(tc, grid_should_never_hold_control_characters);
    tcase_add_test(tc, grid_should_draw_ascii_boxes);
    suite_add_tcase(s, tc);
    tc = tcase_create("layout");
    tcase_add_test(tc, layout_should_map_time_to_columns_and_back);
    tcase_add_test(tc, layout_should_zoom_around_the_center);
    tcase_add_test(tc, layout_should_keep_the_window_inside_the_data);
    tcase_add_test(tc, layout_should_pick_nice_ticks);
    tcase_add_test(tc, layout_should_split_the_screen);
    tcase_add_test(tc, tabs_should_wrap_onto_more_lines);
    tcase_add_test(tc, bucket_should_match_brute_force_on_random_streams);
    tcase_add_test(tc, bucket_should_show_covering_events_and_idle_cells);
    tcase_add_test(tc, bucket_thread_should_pick_the_deepest_covering_event);
    suite_add_tcase(s, tc);
    tc = tcase_create("keys_tables_charts");
    tcase_add_test(tc, script_should_parse_keys_names_and_resize);
    tcase_add_test(tc, script_should_reject_unknown_names);
    tcase_add_test(tc, key_names_should_read_back);
    tcase_add_test(tc, tview_should_sort_numbers_with_nan_last_and_stable_ties);
    tcase_add_test(tc, tview_should_filter_and_hide_switched_off_streams);
    tcase_add_test(tc, tview_should_give_units_and_one_format_per_column);
    tcase_add_test(tc, export_should_write_csv_and_never_overwrite);
    tcase_add_test(tc, cells_should_format_for_reading);
    tcase_add_test(tc, charts_should_draw_eighth_bars_and_sparklines);
    tcase_add_test(tc, charts_should_sample_step_functions_by_maximum);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(core_suite());
    srunner_add_suite(sr, ui_actions_suite());
    srunner_add_suite(sr, ui_screen_suite());
    srunner_add_suite(sr, ui_nav_suite());
    srunner_add_suite(sr, ui_columns_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
