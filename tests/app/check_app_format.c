#include "config.h"

#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/table.h"
#include "app/format.h"
#include "util/arena.h"

#include "check_app.h"
#include "../memcheck.h"

/* The output writers on hand-made tables; the commands around them are in
 * check_cli.c. */

/* ---- writers ---- */

struct table *sample_table(struct arena *a)
{
    static const struct table_col cols[] = {
        {"name", NULL, COL_KEY},
        {"sum (us)", "us", 0},
        {"share", "%", COL_PERCENT},
        {"n", NULL, 0},
    };
    struct table *t = table_new(a, "sample", "Sample table", cols, 4);
    ck_assert_ptr_nonnull(t);
    struct cell *r = table_add_row(t);
    r[0] = cell_str(t, "plain");
    r[1] = cell_double(1.5);
    r[2] = cell_double(50.0);
    r[3] = cell_int(3);
    r = table_add_row(t);
    r[0] = cell_str(t, "a,b \"q\"\r\nx");
    r[1] = cell_double(NAN);
    r[2] = cell_double(12.5);
    r[3] = cell_null();
    return t;
}

START_TEST(table_copy_should_own_everything_and_fit_its_rows)
{
    struct arena a, b;
    arena_init(&a, 4096);
    arena_init(&b, 0);
    struct table *t = sample_table(&a);
    table_set_note(t, "a note");
    for (int i = 0; i < 20; i++)   /* capacity beyond the rows */
        table_add_row(t)[0] = cell_str(t, "same");
    t->nrows = 22;
    struct table *c = table_copy(&b, t);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(c->nrows, 22);
    ck_assert_uint_eq(c->cap, 22);
    ck_assert_uint_eq(c->ncols, 4);
    ck_assert_ptr_eq(c->arena, &b);
    ck_assert_str_eq(c->name, "sample");
    ck_assert_str_eq(c->note, "a note");
    ck_assert_str_eq(c->cols[1].unit, "us");
    ck_assert_str_eq(table_cell(c, 1, 0)->v.s, "a,b \"q\"\r\nx");
    ck_assert(isnan(table_cell(c, 1, 1)->v.d));
    ck_assert_int_eq(table_cell(c, 0, 3)->v.i, 3);
    ck_assert_int_eq(table_cell(c, 1, 3)->type, CELL_NULL);
    const char *s0 = table_cell(c, 0, 0)->v.s;
    arena_fini(&a);   /* the copy keeps nothing of the original */
    ck_assert_str_eq(s0, "plain");
    ck_assert_str_eq(table_cell(c, 21, 0)->v.s, "same");
    ck_assert_str_eq(c->title, "Sample table");
    arena_fini(&b);
}
END_TEST

START_TEST(csv_should_quote_per_rfc4180)
{
    struct arena a;
    arena_init(&a, 4096);
    struct table *t = sample_table(&a);
    struct format_opts fo;
    format_opts_default(&fo);
    struct capture c;
    capture_open(&c);
    ck_assert_int_eq(format_table_csv(c.f, t, &fo), 0);
    const char *out = capture_close(&c);
    ck_assert_str_eq(out, "name,sum (us),share,n\r\n"
                          "plain,1.5,50,3\r\n"
                          "\"a,b \"\"q\"\"\\r\\nx\",,12.5,\r\n");
    free(c.buf);
    arena_fini(&a);
}
END_TEST

START_TEST(csv_should_escape_controls_always)
{
    struct capture c;
    capture_open(&c);
    format_csv_field(c.f, "k\x1b[31m,\xc2\x9b\xff\xc3\xa9\n");
    const char *out = capture_close(&c);
    ck_assert_str_eq(out, "\"k\\x1B[31m,\\u{9B}\\xFF\xc3\xa9\\n\"");
    ck_assert_ptr_null(strchr(out, 0x1b));
    free(c.buf);
}
END_TEST

START_TEST(json_should_escape_controls_and_invalid_utf8)
{
    struct capture c;
    capture_open(&c);
    format_json_string(c.f, "a\"b\\c\x01\x1b[0m\x7f\n\t\xc2\x85\xe2\x82\xac\xff\xc0\x80\xed\xa0\x80");
    const char *out = capture_close(&c);
    ck_assert_str_eq(out, "\"a\\\"b\\\\c\\u0001\\u001b[0m\\u007f\\n\\t\\u0085\xe2\x82\xac"
                          "\\ufffd\\u0000\\ufffd\\ufffd\\ufffd\"");
    free(c.buf);
}
END_TEST

START_TEST(json_should_round_trip_doubles_and_keep_integers)
{
    char buf[32];
    double values[] = {0.1, 1.0 / 3.0, 123456.789, 1e-300, 5e20, -0.0, 2.5};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        format_double_roundtrip(values[i], buf);
        ck_assert_msg(strtod(buf, NULL) == values[i], "%s", buf);
    }
    format_double_roundtrip(0.1, buf);
    ck_assert_str_eq(buf, "0.1");
    format_double_roundtrip(25.0, buf);
    ck_assert_str_eq(buf, "25");
    struct capture c;
    capture_open(&c);
    struct jsonw w;
    jsonw_init(&w, c.f, 1);
    jsonw_begin_array(&w);
    jsonw_int(&w, INT64_MIN);
    jsonw_uint(&w, UINT64_MAX);
    jsonw_int(&w, 0);
    jsonw_int(&w, -7);
    jsonw_double(&w, NAN);
    jsonw_double(&w, INFINITY);
    jsonw_double(&w, 0.5);
    jsonw_bool(&w, false);
    jsonw_null(&w);
    jsonw_end_array(&w);
    jsonw_finish(&w);
    const char *out = capture_close(&c);
    ck_assert_str_eq(out, "[\n  -9223372036854775808,\n  18446744073709551615,\n  0,\n  -7,\n  null,\n"
                          "  null,\n  0.5,\n  false,\n  null\n]\n");
    free(c.buf);
}
END_TEST

START_TEST(json_should_write_tables_that_parse_back)
{
    struct arena a;
    arena_init(&a, 4096);
    struct table *t = sample_table(&a);
    struct cell *r = table_add_row(t);
    r[0] = cell_str(t, "\x1b]0;title\x07\xfe");
    r[1] = cell_double(-INFINITY);
    r[2] = cell_bool(true);
    r[3] = cell_int(-7);
    struct capture c;
    capture_open(&c);
    struct jsonw w;
    jsonw_init(&w, c.f, 2);
    jsonw_begin_object(&w);
    jsonw_key(&w, "sample");
    format_table_json_rows(&w, t);
    jsonw_key(&w, "empty");
    jsonw_begin_array(&w);
    jsonw_end_array(&w);
    jsonw_end_object(&w);
    jsonw_finish(&w);
    const char *out = capture_close(&c);
    cJSON *doc = cJSON_Parse(out);
    ck_assert_msg(doc != NULL, "invalid JSON: %s", out);
    cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "sample");
    ck_assert_int_eq(cJSON_GetArraySize(rows), 3);
    cJSON *row1 = cJSON_GetArrayItem(rows, 1);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(row1, "name")->valuestring,
                     "a,b \"q\"\r\nx");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(row1, "sum (us)")));
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(row1, "n")));
    cJSON *row2 = cJSON_GetArrayItem(rows, 2);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(row2, "name")->valuestring,
                     "\x1b]0;title\x07\xef\xbf\xbd");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row2, "share")));
    ck_assert(cJSON_GetObjectItemCaseSensitive(row2, "n")->valuedouble == -7);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "empty")), 0);
    ck_assert_ptr_null(strchr(out, 0x1b));
    cJSON_Delete(doc);
    free(c.buf);
    arena_fini(&a);
}
END_TEST

/* t's rows as the table writer gives them, or item by item through the
 * writer's calls, as an object's member at compact depth `compact`. */
static char *json_rows(const struct table *t, int compact, bool by_items)
{
    struct capture c;
    capture_open(&c);
    struct jsonw w;
    jsonw_init(&w, c.f, compact);
    jsonw_begin_object(&w);
    jsonw_key(&w, "rows");
    if (!by_items) {
        format_table_json_rows(&w, t);
    } else {
        jsonw_begin_array(&w);
        for (size_t r = 0; r < t->nrows; r++) {
            jsonw_begin_object(&w);
            for (size_t k = 0; k < t->ncols; k++) {
                const struct cell *cell = table_cell(t, r, k);
                jsonw_key(&w, t->cols[k].name);
                if (cell->type == CELL_INT)
                    jsonw_int(&w, cell->v.i);
                else if (cell->type == CELL_DOUBLE)
                    jsonw_double(&w, cell->v.d);
                else if (cell->type == CELL_STR)
                    jsonw_string(&w, cell->v.s);
                else if (cell->type == CELL_BOOL)
                    jsonw_bool(&w, cell->v.b);
                else
                    jsonw_null(&w);
            }
            jsonw_end_object(&w);
        }
        jsonw_end_array(&w);
    }
    jsonw_end_object(&w);
    jsonw_finish(&w);
    capture_close(&c);
    return c.buf;
}

/* Rows on one line are gathered into a buffer a row at a time: the same
 * bytes as the writer's item by item, whatever the cells (numbers of every
 * kind, escapes, a string longer than the buffer, thousands of rows past
 * its size), and the same at a compact depth that puts each item on a line. */
START_TEST(json_rows_should_write_what_the_items_write)
{
    struct arena a;
    arena_init(&a, 1 << 16);
    struct table *t = sample_table(&a);
    size_t big = 200000;
    char *huge = malloc(big + 1);
    ck_assert_ptr_nonnull(huge);
    for (size_t i = 0; i < big; i++)
        huge[i] = i % 1000 == 999 ? '"' : (char)('a' + i % 26);
    huge[big] = '\0';
    static const double numbers[] = {0.0, -0.0, 0.001, 1.5, -2.25, 1e300, 4.9e-324, 123456.789,
                                     1.0 / 3.0, 999999999999.999, NAN, INFINITY, 7e15};
    for (size_t i = 0; i < 5000; i++) {
        struct cell *r = table_add_row(t);
        r[0] = i == 17 ? cell_str(t, huge) : i % 7 == 0 ? cell_str(t, "tab\there \xc3\xa9") : cell_bool(i & 1);
        r[1] = cell_double(numbers[i % (sizeof numbers / sizeof numbers[0])]);
        r[2] = i % 5 == 0 ? cell_null() : cell_double((double)i / 1000.0);
        r[3] = cell_int(i % 3 == 0 ? INT64_MIN + (int64_t)i : (int64_t)i * 1000003 - 5000);
    }
    for (int compact = 0; compact <= 3; compact++) {
        char *fast = json_rows(t, compact, false), *items = json_rows(t, compact, true);
        ck_assert_msg(strcmp(fast, items) == 0, "compact depth %d: the rows differ", compact);
        free(fast);
        free(items);
    }
    struct table *none = table_new(&a, "none", "No rows", t->cols, t->ncols);
    char *fast = json_rows(none, 2, false), *items = json_rows(none, 2, true);
    ck_assert_str_eq(fast, items);
    free(fast);
    free(items);
    free(huge);
    arena_fini(&a);
}
END_TEST

START_TEST(text_should_draw_bars_in_eighths)
{
    char bar[128];
    format_bar(50, 100, 10, false, bar, sizeof bar);
    ck_assert_str_eq(bar, "█████     ");
    format_bar(12.5, 100, 4, false, bar, sizeof bar);
    ck_assert_str_eq(bar, "▌   ");
    format_bar(0.26, 1, 4, false, bar, sizeof bar);
    ck_assert_str_eq(bar, "█   ");
    format_bar(150, 100, 3, false, bar, sizeof bar);
    ck_assert_str_eq(bar, "███");
    format_bar(NAN, 100, 3, false, bar, sizeof bar);
    ck_assert_str_eq(bar, "   ");
    format_bar(-4, 100, 3, false, bar, sizeof bar);
    ck_assert_str_eq(bar, "   ");
    format_bar(50, 100, 4, true, bar, sizeof bar);
    ck_assert_str_eq(bar, "##  ");
}
END_TEST

START_TEST(text_should_align_columns_and_escape_names)
{
    struct arena a;
    arena_init(&a, 4096);
    struct table *t = sample_table(&a);
    struct cell *r = table_add_row(t);
    r[0] = cell_str(t, "\x1b[2Jwipe\xc3\xa9");
    r[1] = cell_double(1234.25);
    r[2] = cell_double(100);
    r[3] = cell_int(12345);
    table_set_note(t, "a note");
    struct format_opts fo;
    format_opts_default(&fo);
    fo.ascii = true;
    struct capture c;
    capture_open(&c);
    ck_assert_int_eq(format_table_text(c.f, t, &fo), 0);
    const char *out = capture_close(&c);
    ck_assert_ptr_null(strchr(out, 0x1b));
    ck_assert_ptr_null(strchr(out, '\r'));
    ck_assert_str_eq(out,
                     "Sample table\n"
                     "name          sum (us)  share (%)             n\n"
                     "plain             1.50   50.0 #####           3\n"
                     "a,b \"q\"\\r\\nx       NaN   12.5 #               -\n"
                     "\\x1B[2Jwipe\xc3\xa9   1234.25  100.0 ##########  12345\n"
                     "note: a note\n");
    free(c.buf);
    arena_fini(&a);
}
END_TEST

START_TEST(text_should_clip_long_strings_and_say_when_empty)
{
    struct arena a;
    arena_init(&a, 4096);
    static const struct table_col cols[] = {{"kernel", NULL, 0}};
    struct table *t = table_new(&a, "k", "K", cols, 1);
    struct format_opts fo;
    format_opts_default(&fo);
    fo.max_text_width = 8;
    struct capture c;
    capture_open(&c);
    format_table_text(c.f, t, &fo);
    ck_assert_str_eq(capture_close(&c), "K\nkernel\n(no rows)\n");
    free(c.buf);
    table_add_row(t)[0] = cell_str(t, "abcdefghijkl");
    capture_open(&c);
    format_table_text(c.f, t, &fo);
    ck_assert_str_eq(capture_close(&c), "K\nkernel\nabcdefg\xe2\x80\xa6\n");
    free(c.buf);
    arena_fini(&a);
}
END_TEST

START_TEST(format_should_measure_display_width)
{
    ck_assert_uint_eq(format_display_width("a\xe2\x82\xac\x01"), 2 + 4);
}
END_TEST

START_TEST(encoded_nul_should_be_escaped_by_every_writer)
{
    struct capture c;
    capture_open(&c);
    format_write_escaped(c.f, "a\xc0\x80" "b|");
    format_csv_field(c.f, "a\xc0\x80" "c");
    fputc('|', c.f);
    format_json_string(c.f, "a\xc0\x80" "d");
    ck_assert_str_eq(capture_close(&c), "a\\x00b|a\\x00c|\"a\\u0000d\"");
    free(c.buf);
}
END_TEST


/* The string writer copies plain runs whole: escapes must still land at the
 * right place between them, and multi-byte characters pass unchanged. */
START_TEST(json_should_escape_between_plain_runs)
{
    struct capture c;
    capture_open(&c);
    format_json_string(c.f, "ab\"cd\\e\x01" "f\xc3\xa9g\xc2\x85h\xe2\x82\xac\x7f\xffz");
    const char *out = capture_close(&c);
    ck_assert_str_eq(out, "\"ab\\\"cd\\\\e\\u0001f\xc3\xa9g\\u0085h\xe2\x82\xac\\u007f"
                          "\\ufffdz\"");
    free(c.buf);
    capture_open(&c);
    format_json_string(c.f, "");
    ck_assert_str_eq(capture_close(&c), "\"\"");
    free(c.buf);
}
END_TEST

/* A bar column is measured with texts clipped to max_text_width; a longer
 * number must not make the padding wrap around (an endless loop). */
START_TEST(text_should_not_pad_a_number_wider_than_the_clip)
{
    static const struct table_col cols[] = {{"share", "%", COL_PERCENT}};
    struct arena a;
    arena_init(&a, 4096);
    struct table *t = table_new(&a, "wide", "Wide", cols, 1);
    ck_assert_ptr_nonnull(t);
    struct cell *r = table_add_row(t);
    r[0] = cell_double(1e150);
    r = table_add_row(t);
    r[0] = cell_double(5.0);
    struct format_opts fo;
    format_opts_default(&fo);
    fo.max_text_width = 20;
    struct capture c;
    capture_open(&c);
    ck_assert_int_eq(format_table_text(c.f, t, &fo), 0);
    capture_close(&c);
    ck_assert_uint_lt(c.len, 1000);
    ck_assert_ptr_nonnull(strstr(c.buf, "9999999999999999808"));   /* 1e150, whole */
    free(c.buf);
    arena_fini(&a);
}
END_TEST

/* The shortest "%.Ng" text that reads back, as printf gives it: what
 * format_double_roundtrip must match, fast path or not. */
static void roundtrip_by_printf(double x, char out[32])
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, 32, "%.*g", prec, x);
        if (prec == 17 || strtod(out, NULL) == x)
            return;
    }
}

START_TEST(doubles_should_print_as_printf_would)
{
    static const double fixed[] = {0.001, -0.001, 0.01, 0.1, 1, 1.5, 2.25, 999999999999.999,
                                   -999999999999.999, 1e12, 123456789.123, 0.0005, 1e-4,
                                   0.0, -0.0, 5e-324, 1e300, 33.333333333333336};
    char got[32], want[32];
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        format_double_roundtrip(fixed[i], got);
        roundtrip_by_printf(fixed[i], want);
        ck_assert_msg(strcmp(got, want) == 0, "%.17g: got %s, want %s", fixed[i], got, want);
    }
    for (int k = -5000; k <= 5000; k++) {   /* short times, around 0 */
        format_double_roundtrip((double)k / 1000.0, got);
        roundtrip_by_printf((double)k / 1000.0, want);
        ck_assert_msg(strcmp(got, want) == 0, "%d / 1000: got %s, want %s", k, got, want);
    }
    uint64_t seed = 42;
    for (int i = 0; i < 200000; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        int64_t k = (int64_t)(seed >> (11 + (seed & 31)));   /* magnitudes of every size */
        if (seed & 32)
            k = -k;
        double x = i % 4 ? (double)k / 1000.0 : (double)k / 997.0;   /* times, and others */
        format_double_roundtrip(x, got);
        roundtrip_by_printf(x, want);
        ck_assert_msg(strcmp(got, want) == 0, "%.17g: got %s, want %s", x, got, want);
    }
}
END_TEST

Suite *cli_format_suite(void)
{
    Suite *s = suite_create("cli format");
    TCase *fmt = tcase_create("format");
    tcase_add_test(fmt, csv_should_quote_per_rfc4180);
    tcase_add_test(fmt, table_copy_should_own_everything_and_fit_its_rows);
    tcase_add_test(fmt, csv_should_escape_controls_always);
    tcase_add_test(fmt, encoded_nul_should_be_escaped_by_every_writer);
    tcase_add_test(fmt, json_should_escape_controls_and_invalid_utf8);
    tcase_add_test(fmt, json_should_round_trip_doubles_and_keep_integers);
    tcase_add_test(fmt, json_should_write_tables_that_parse_back);
    tcase_add_test(fmt, json_rows_should_write_what_the_items_write);
    tcase_add_test(fmt, text_should_draw_bars_in_eighths);
    tcase_add_test(fmt, text_should_align_columns_and_escape_names);
    tcase_add_test(fmt, text_should_clip_long_strings_and_say_when_empty);
    tcase_add_test(fmt, format_should_measure_display_width);
    tcase_add_test(fmt, json_should_escape_between_plain_runs);
    tcase_add_large_test(fmt, doubles_should_print_as_printf_would);
    tcase_add_test(fmt, text_should_not_pad_a_number_wider_than_the_clip);
    suite_add_tcase(s, fmt);
    return s;
}
