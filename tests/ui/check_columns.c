#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ui/widgets/columns.h"
#include "ui/widgets/tree_rows.h"
#include "ui/widgets/tables.h"
#include "check_ui.h"

/* Wide tables on a narrow pane (ui/widgets/columns.h): columns without
 * values left out, the view's lead columns first, the rest scrolled; and
 * the annotation tree's name cells (ui/widgets/tree_rows.h). */

/* A collectives-like table: a long name, an empty column, numbers with
 * long headers. */
static struct table *wide_table(struct arena *a)
{
    static const struct table_col cols[] = {
        {"collective", NULL, COL_KEY}, {"seq", NULL, 0},      {"iteration", NULL, 0},
        {"group_size", NULL, 0},       {"first_rank", NULL, 0}, {"last_rank", NULL, 0},
        {"skew (us)", "us", 0},        {"busbw (GB/s)", "GB/s", 0}};
    struct table *t = table_new(a, "collectives", "C", cols, 8);
    for (int i = 0; i < 3; i++) {
        struct cell *r = table_add_row(t);
        r[0] = cell_str(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long)");
        r[1] = cell_null();
        for (size_t c = 2; c < 7; c++)
            r[c] = cell_int(i);
        r[7] = cell_double(0.0 / 0.0);
    }
    return t;
}

START_TEST(tview_should_hide_columns_without_values)
{
    struct arena a;
    struct ui_tview v = {.sort_col = -1};

    arena_init(&a, 4096);
    struct table *t = wide_table(&a);
    ck_assert_int_eq(ui_tview_build(&v, t, "", NULL), 0);
    ck_assert(ui_tview_col_hidden(&v, 1));    // seq: null in every row
    ck_assert(ui_tview_col_hidden(&v, 7));    // busbw: NaN in every row
    ck_assert(!ui_tview_col_hidden(&v, 2));
    struct ui_cols c;
    ui_cols_layout(&v, NULL, 0, 200, 0, &c);
    ck_assert_uint_eq(c.n, 6);
    ck_assert_uint_eq(c.nscroll, 0);
    ck_assert_int_eq(ui_cols_width(&c, 1), -1);
    ui_tview_fini(&v);
    // A table without rows keeps its header.
    struct table *none = table_new(&a, "collectives", "C", t->cols, t->ncols);
    ck_assert_int_eq(ui_tview_build(&v, none, "", NULL), 0);
    ck_assert(!ui_tview_col_hidden(&v, 1));
    ui_tview_fini(&v);
    arena_fini(&a);
}
END_TEST

START_TEST(cols_should_put_lead_columns_first_and_scroll_the_rest)
{
    static const char *const lead[] = {"collective", "skew (us)", "last_rank", "nothing"};
    struct arena a;
    struct ui_tview v = {.sort_col = -1};

    arena_init(&a, 4096);
    ck_assert_int_eq(ui_tview_build(&v, wide_table(&a), "", NULL), 0);
    struct ui_cols c;
    ui_cols_layout(&v, lead, 4, 60, 0, &c);
    ck_assert_uint_eq(c.frozen, 1);
    ck_assert_uint_eq(c.at[0].col, 0);       // the name stays at the left
    ck_assert_uint_eq(c.at[1].col, 6);       // skew, then last_rank
    ck_assert_uint_eq(c.at[2].col, 5);
    ck_assert_int_ge(c.at[0].w, UI_COLS_NAME_KEEP);
    ck_assert_uint_eq(c.nscroll, 5);   // skew, last_rank, iteration, group_size, first_rank
    ck_assert(!c.more_left);
    ck_assert(c.more_right);
    for (size_t i = 1; i < c.n; i++) {       // whole headers, inside the pane
        char head[64];
        ui_tview_header(v.t, c.at[i].col, head, sizeof head);
        ck_assert_int_ge(c.at[i].w, (int)strlen(head));
        ck_assert_int_le(c.at[i].x + c.at[i].w, 59);
    }
    int name_w = c.at[0].w;
    ui_cols_layout(&v, lead, 4, 60, 99, &c);   // past the end: the last column
    ck_assert_uint_eq(c.first, c.nscroll - 1);
    ck_assert(c.more_left);
    ck_assert(!c.more_right);
    ck_assert_uint_eq(c.at[c.n - 1].col, 4);   // first_rank, the table's last shown
    ck_assert_int_eq(c.at[0].w, name_w);       // the name keeps its width
    ui_tview_fini(&v);
    arena_fini(&a);
}
END_TEST

static void free_texts(char **out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(out[i]);
}

START_TEST(tree_rows_should_cap_the_indent_and_show_deeper_levels_as_numbers)
{
    static const char *const name[] = {"aten::mm"};
    struct ui_tree_row rows[] = {{name, 1, 0, "  "}, {name, 1, 3, "  "}, {name, 1, 40, "  "}};
    char *out[3];
    ck_assert_uint_eq(ui_tree_indent_levels(32), 4);   // a quarter of the column
    ck_assert_int_eq(ui_tree_row_texts(rows, 3, 32, false, out), 0);
    ck_assert_str_eq(out[0], "  aten::mm");
    ck_assert_str_eq(out[1], "        aten::mm");
    ck_assert_str_eq(out[2], "     40   aten::mm");   // 8 columns of indent at most
    free_texts(out, 3);
    // A wide column indents deeper levels, each by its own width.
    rows[1].level = 30;
    ck_assert_int_eq(ui_tree_row_texts(rows, 3, 400, false, out), 0);
    ck_assert_uint_eq(strlen(out[1]), 60 + 2 + 8);
    free_texts(out, 3);
}
END_TEST

START_TEST(tree_rows_should_join_chains_and_leave_out_middle_links)
{
    static const char *const chain[] = {"ProfilerStep#1", "train_step", "forward", "aten::mm"};
    struct ui_tree_row rows[] = {{chain, 4, 0, "+ "}};
    char *out[1];
    ck_assert_int_eq(ui_tree_row_texts(rows, 1, 60, true, out), 0);
    ck_assert_str_eq(out[0], "+ ProfilerStep#1 > train_step > forward > aten::mm");
    free_texts(out, 1);
    ck_assert_int_eq(ui_tree_row_texts(rows, 1, 41, true, out), 0);
    ck_assert_str_eq(out[0], "+ ProfilerStep#1 > \u2026 > forward > aten::mm");
    free_texts(out, 1);
    ck_assert_int_eq(ui_tree_row_texts(rows, 1, 31, true, out), 0);
    ck_assert_str_eq(out[0], "+ ProfilerStep#1 > \u2026 > aten::mm");
    free_texts(out, 1);
    // Narrower: the first and last links share the room, each fitted.
    ck_assert_int_eq(ui_tree_row_texts(rows, 1, 30, true, out), 0);
    ck_assert_str_eq(out[0], "+ Profil\u2026Step#1 > \u2026 > aten::mm");
    free_texts(out, 1);
}
END_TEST

START_TEST(tree_rows_should_keep_differing_names_apart)
{
    static const char *const a[] = {"nn.Module: LlamaDecoderLayer_10_self_attention_block"};
    static const char *const b[] = {"nn.Module: LlamaDecoderLayer_11_self_attention_block"};
    struct ui_tree_row rows[] = {{a, 1, 1, "  "}, {b, 1, 1, "  "}};
    char *out[2];
    ck_assert_int_eq(ui_tree_row_texts(rows, 2, 30, false, out), 0);
    ck_assert_str_ne(out[0], out[1]);
    ck_assert_int_le((int)strlen(out[0]), 30 + 2 * 3);   // 30 columns, an ellipsis or two
    free_texts(out, 2);
}
END_TEST

Suite *ui_columns_suite(void)
{
    Suite *s = suite_create("columns");
    TCase *tc = tcase_create("columns");
    tcase_add_test(tc, tview_should_hide_columns_without_values);
    tcase_add_test(tc, cols_should_put_lead_columns_first_and_scroll_the_rest);
    tcase_add_test(tc, tree_rows_should_cap_the_indent_and_show_deeper_levels_as_numbers);
    tcase_add_test(tc, tree_rows_should_join_chains_and_leave_out_middle_links);
    tcase_add_test(tc, tree_rows_should_keep_differing_names_apart);
    suite_add_tcase(s, tc);
    return s;
}
