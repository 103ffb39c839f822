#include "config.h"
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "app/format.h"
#include "ui/widgets/grid.h"
#include "ui/widgets/keys.h"
#include "ui/widgets/layout.h"
#include "ui/widgets/text.h"

/* The text that reaches a terminal, without curses: the TUI's sanitiser
 * (ui/text.c) and its fake screen (ui/grid.c: the cells draw.c would
 * paint) with the pane layout (ui/layout.c), the CLI escapers
 * (cli/format_*.c) and the test-mode script parser (ui/keys.c).
 *
 * Input: two bytes of geometry, then text. Invariants: no cell of the grid
 * and no escaped output holds a control character or ESC; text never
 * overflows the width it was given; widths agree with the sanitiser's
 * units; JSON strings parse back; layouts stay inside the screen. */

static bool is_control(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F);
}

static void check_grid(const char *s, size_t len, int rows, int cols, bool ascii, uint64_t h)
{
    struct ui_grid g;
    CHECK(ui_grid_init(&g, rows, cols, ascii) == 0);
    int w = (int)(h % (unsigned)(cols + 3)) - 1;
    int x = (int)((h >> 8) % (unsigned)(cols + 2)) - 1;
    int y = (int)((h >> 16) % (unsigned)rows);
    int used = ui_grid_textn(&g, y, x, w, s, len, UI_STYLE_NORMAL,
                             (h >> 24) & 1 ? UI_TRUNC_MIDDLE : UI_TRUNC_END);
    CHECK(used >= 0 && used <= (w > 0 ? w : 0));
    char *z = malloc(len + 1);
    CHECK(z != NULL);
    memcpy(z, s, len);
    z[len] = '\0';
    ui_grid_text_right(&g, (y + 1) % rows, 0, cols, z, UI_STYLE_DIM);
    struct ui_rect box = {0, 0, rows, cols};
    ui_grid_box(&g, box, UI_STYLE_BORDER, z);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            uint32_t ch = ui_grid_at(&g, r, c)->ch;
            CHECK(!is_control(ch) || ch == 0);
            CHECK(!ascii || ch < 0x80 || ch == 0);
        }
    char line[4096];
    size_t n = ui_grid_row_text(&g, y, line, sizeof line);
    CHECK(n < sizeof line && memchr(line, 0x1b, n) == NULL);
    free(z);
    ui_grid_fini(&g);
}

static void check_units(const char *s, size_t len, bool ascii, uint64_t h)
{
    size_t n = ui_text_units(s, len, ascii, NULL, 0);
    CHECK(n <= len);
    struct ui_unit *u = malloc((n ? n : 1) * sizeof *u);
    CHECK(u != NULL);
    CHECK(ui_text_units(s, len, ascii, u, n) == n);
    int width = 0;
    for (size_t i = 0; i < n; i++) {
        CHECK(u[i].ncp >= 1 && u[i].ncp <= 2 && u[i].width >= 1 && u[i].width <= 2);
        for (int k = 0; k < u[i].ncp; k++)
            CHECK(!is_control(u[i].cp[k]));
        width += u[i].width;
    }
    CHECK(width == ui_text_width(s, len, ascii));
    int maxw = (int)(h % 64);
    size_t head = 0, tail = 0;
    bool ell = ui_text_fit(u, n, maxw, (h >> 6) & 1, &head, &tail);
    CHECK(head + tail <= n);
    int fit = ell ? 1 : 0;
    for (size_t i = 0; i < head; i++)
        fit += u[i].width;
    for (size_t i = n - tail; i < n; i++)
        fit += u[i].width;
    CHECK(fit <= maxw || (maxw <= 0 && head + tail == 0));
    free(u);
}

static void check_escapers(const char *z, size_t zlen)
{
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    CHECK(f != NULL);
    format_write_escaped(f, z);
    fflush(f);
    CHECK(blen >= format_display_width(z));   /* a code point is at least a byte */
    for (size_t i = 0; i < blen; i++)
        CHECK((unsigned char)buf[i] >= 0x20 && buf[i] != 0x7F);
    rewind(f);
    blen = 0;
    format_csv_field(f, z);
    fflush(f);
    for (size_t i = 0; i < blen; i++)
        CHECK((unsigned char)buf[i] >= 0x20 && buf[i] != 0x7F);
    rewind(f);
    blen = 0;
    format_json_string(f, z);
    fclose(f);
    cJSON *j = cJSON_ParseWithLength(buf, blen);
    CHECK(j != NULL && cJSON_IsString(j));
    cJSON_Delete(j);
    free(buf);
    (void)zlen;
}

static void check_layout(int rows, int cols, uint64_t h, const uint8_t *data, size_t size)
{
    struct ui_layout l;
    ui_layout_screen(rows, cols, 1 + (int)(h % 4), false, &l);
    if (!l.too_small) {
        CHECK(l.body.y >= 0 && l.body.x >= 0 && l.body.y + l.body.h <= rows &&
              l.body.x + l.body.w <= cols);
        CHECK(l.main.x + l.main.w <= cols && l.left.x + l.left.w <= cols);
    }
    int widths[16], line[16], col[16];
    size_t n = size < 16 ? size : 16;
    for (size_t i = 0; i < n; i++)
        widths[i] = 1 + data[i] % 40;
    int w = 1 + (int)((h >> 8) % 200);
    int lines = ui_tabs_place(widths, n, w, line, col);
    CHECK(lines >= 1);
    for (size_t i = 0; i < n; i++)
        CHECK(line[i] >= 0 && line[i] < lines && col[i] >= 0);

    int64_t v[4] = {0, 0, 0, 0};
    memcpy(v, data, size < sizeof v ? size : sizeof v);
    int64_t lo = v[0] % 1000000000000LL, hi = lo + 1 + (v[1] & 0xFFFFFFFFFFLL);
    int64_t t0 = lo, t1 = hi;
    ui_zoom(&t0, &t1, lo + (v[2] & 0xFFFF), (double)((h >> 12) % 400 + 1) / 100.0, 1, lo, hi);
    CHECK(t0 < t1);
    ui_pan(&t0, &t1, v[3] % 1000000000LL, lo, hi);
    CHECK(t0 < t1);
    struct ui_timescale s = {t0, t1, 1 + (int)((h >> 20) % 300)};
    for (int c = 0; c <= s.cols; c += 1 + s.cols / 7) {
        int64_t t = ui_col_time(&s, c);
        CHECK(t >= t0 && t <= t1);
        int back = ui_time_col(&s, t);
        CHECK(back >= -1 && back <= s.cols);
    }
    CHECK(ui_nice_tick(t1 - t0, s.cols, 1 + (int)(h % 20)) > 0);
    char buf[64];
    ui_format_duration(v[0], buf, sizeof buf);
    ui_format_time(v[1], 1 + (v[2] & 0xFFFFFF), buf, sizeof buf);
    ui_format_axis_time(v[1], 1 + (v[2] & 0xFFFFFF), v[3], buf, sizeof buf);
    ui_format_bytes((uint64_t)v[0], buf, sizeof buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    int rows = 1 + data[0] % 40, cols = 1 + data[1] % 160;
    bool ascii = data[0] & 0x80;
    const char *s = (const char *)data + 2;
    size_t len = size - 2;
    uint64_t h = fuzz_fnv(0xcbf29ce484222325ull, data, size);
    check_units(s, len, ascii, h);
    check_grid(s, len, rows, cols, ascii, h);
    char *z = malloc(len + 1);
    CHECK(z != NULL);
    memcpy(z, s, len);
    z[len] = '\0';
    check_escapers(z, len);
    (void)ui_text_contains(z, z + len / 2);
    free(z);
    check_layout(rows + 5, cols + 20, h, data, size);

    struct ui_script_step *steps = NULL;
    size_t n = 0;
    struct err e = {0, ""};
    if (ui_script_parse(s, len, &steps, &n, &e) == 0) {
        for (size_t i = 0; i < n; i++)
            if (steps[i].key == UI_KEY_RESIZE)
                CHECK(steps[i].rows > 0 && steps[i].cols > 0);
    } else {
        CHECK(e.msg[0] != '\0');
    }
    free(steps);
    return 0;
}
