#include "config.h"
#include "ui/widgets/charts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/widgets/text.h"

#define LABEL_MAX 28
#define VALUE_W 10

size_t ui_chart_lines(const struct ui_chart *c)
{
    size_t n = c->nrows + (c->title ? 1 : 0);
    if (c->kind == UI_CHART_STACKED && c->nseries > 0)
        n++;
    return n;
}

/* Formats a chart value compactly: "22030", "49.5", "0.00244". */
static void ui_chart_value(double v, char *buf, size_t n)
{
    if (!isfinite(v))
        snprintf(buf, n, "-");
    else if (fabs(v) >= 100 || v == rint(v))
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.3g", v);
}

void ui_chart_bar(struct ui_grid *g, int y, int x, int w, double frac, enum ui_style style)
{
    static const uint32_t eighths[8] = {0, 0x258F, 0x258E, 0x258D, 0x258C, 0x258B, 0x258A, 0x2589};

    if (!(frac > 0) || w <= 0)
        return;
    if (frac > 1)
        frac = 1;
    long units = lround(frac * w * 8);
    int full = (int)(units / 8), part = (int)(units % 8);
    ui_grid_fill(g, y, x, full, g->ascii ? '#' : 0x2588, style);
    if (part > 0 && full < w) {
        if (!g->ascii)
            ui_grid_put(g, y, x + full, eighths[part], style);
        else if (part >= 4)
            ui_grid_put(g, y, x + full, '#', style);
    }
}

static uint32_t ui_chart_segment_glyph(const struct ui_grid *g, size_t k)
{
    static const uint32_t utf8[UI_CHART_SERIES] = {0x2588, 0x2593, 0x2592, 0x2591};
    static const uint32_t ascii[UI_CHART_SERIES] = {'#', '=', '~', ':'};
    k %= UI_CHART_SERIES;
    return g->ascii ? ascii[k] : utf8[k];
}

/* Glyph and style of stack look k (0 solid, 1 dark, 2 medium, 3 light). */
static enum ui_style ui_chart_segment_style(size_t k)
{
    static const enum ui_style styles[UI_CHART_SERIES] = {
        UI_STYLE_COMPUTE, UI_STYLE_COMM, UI_STYLE_MEMORY, UI_STYLE_DIM,
    };
    return styles[k % UI_CHART_SERIES];
}

void ui_chart_spark(struct ui_grid *g, int y, int x, int w, const double *v, size_t n,
                    double max, enum ui_style style)
{
    static const uint32_t levels[8] = {0x2581, 0x2582, 0x2583, 0x2584,
                                       0x2585, 0x2586, 0x2587, 0x2588};
    static const char ascii[8] = {'_', '.', '-', ':', '=', '+', '*', '#'};

    if (w <= 0 || n == 0)
        return;
    for (int c = 0; c < w; c++) {
        size_t a = (size_t)c * n / (size_t)w, b = (size_t)(c + 1) * n / (size_t)w;
        if (b <= a)
            b = a + 1;
        double m = 0;
        for (size_t i = a; i < b && i < n; i++)
            if (v[i] > m)
                m = v[i];
        if (!(m > 0) || !(max > 0)) {
            ui_grid_put(g, y, x + c, ' ', style);
            continue;
        }
        int lv = (int)ceil(m / max * 8) - 1;
        lv = lv < 0 ? 0 : (lv > 7 ? 7 : lv);
        ui_grid_put(g, y, x + c, g->ascii ? (uint32_t)ascii[lv] : levels[lv], style);
    }
}

void ui_chart_sample_steps(const int64_t *ts, const double *v, size_t n, int64_t t0,
                           int64_t t1, double *out)
{
    size_t i = 0;
    double cur = 0;
    int64_t span = t1 > t0 ? t1 - t0 : 1;

    for (size_t b = 0; b < UI_SPARK_BUCKETS; b++) {
        int64_t start = t0 + (int64_t)((double)span * (double)b / UI_SPARK_BUCKETS);
        int64_t end = t0 + (int64_t)((double)span * (double)(b + 1) / UI_SPARK_BUCKETS);
        while (i < n && ts[i] <= start)
            cur = v[i++];
        double m = cur;
        while (i < n && ts[i] < end) {
            cur = v[i++];
            if (cur > m)
                m = cur;
        }
        out[b] = m;
    }
}

static double chart_max(const struct ui_chart *c)
{
    double m = 0;

    if (c->max > 0)
        return c->max;
    for (size_t r = 0; r < c->nrows; r++) {
        double s = 0;
        size_t k = c->kind == UI_CHART_STACKED ? c->nseries : 1;
        for (size_t j = 0; j < k && j < UI_CHART_SERIES; j++)
            s += isfinite(c->rows[r].v[j]) && c->rows[r].v[j] > 0 ? c->rows[r].v[j] : 0;
        if (c->kind == UI_CHART_SPARK)
            s = c->rows[r].spark_max;
        if (s > m)
            m = s;
    }
    return m;
}

static int label_width(const struct ui_chart *c, int w)
{
    int lw = 0;

    for (size_t r = 0; r < c->nrows && r < 200; r++) {
        const char *l = c->rows[r].label ? c->rows[r].label : "";
        int tw = ui_text_width(l, strlen(l), false);
        if (tw > lw)
            lw = tw;
    }
    if (lw > LABEL_MAX)
        lw = LABEL_MAX;
    if (lw > w / 3)
        lw = w / 3;
    return lw;
}

static size_t look_of(const struct ui_chart *c, size_t k)
{
    bool set = false;
    for (size_t i = 0; i < UI_CHART_SERIES; i++)
        set |= c->look[i] != 0;
    return set ? c->look[k] : k;
}

static void draw_legend(const struct ui_chart *c, struct ui_grid *g, int y, int x, int w)
{
    int used = 0;

    for (size_t k = 0; k < c->nseries && used < w; k++) {
        size_t l = look_of(c, k);
        ui_grid_put(g, y, x + used, ui_chart_segment_glyph(g, l), ui_chart_segment_style(l));
        used += 2;
        used += ui_grid_text(g, y, x + used, w - used, c->series[k], UI_STYLE_DIM, UI_TRUNC_END);
        used += 2;
    }
    // The scale: what a full-width bar stands for.
    char num[32], scale[64];
    ui_chart_value(chart_max(c), num, sizeof num);
    snprintf(scale, sizeof scale, "full bar = %s%s%s", num, c->unit ? " " : "",
             c->unit ? c->unit : "");
    if (used + (int)strlen(scale) + 2 < w)
        ui_grid_text_right(g, y, x + used, w - used, scale, UI_STYLE_DIM);
}

static void draw_stacked(const struct ui_chart *c, const struct ui_chart_row *row, double max,
                         struct ui_grid *g, int y, int x, int w)
{
    double acc = 0;
    int done = 0;

    for (size_t k = 0; k < c->nseries && max > 0; k++) {
        double v = isfinite(row->v[k]) && row->v[k] > 0 ? row->v[k] : 0;
        acc += v;
        int upto = (int)lround(acc / max * w);
        if (upto > w)
            upto = w;
        size_t l = look_of(c, k);
        ui_grid_fill(g, y, x + done, upto - done, ui_chart_segment_glyph(g, l),
                     ui_chart_segment_style(l));
        if (upto > done)
            done = upto;
    }
}

void ui_chart_line(const struct ui_chart *c, size_t i, struct ui_grid *g, int y, int x, int w)
{
    char val[48];

    if (c->title) {
        if (i == 0) {
            ui_grid_text(g, y, x, w, c->title, UI_STYLE_HEADER, UI_TRUNC_END);
            return;
        }
        i--;
    }
    if (i >= c->nrows) {
        draw_legend(c, g, y, x, w);
        return;
    }
    const struct ui_chart_row *row = &c->rows[i];
    int lw = label_width(c, w);
    double max = chart_max(c);
    ui_grid_text(g, y, x, lw, row->label ? row->label : "", UI_STYLE_NORMAL, UI_TRUNC_MIDDLE);
    int vw = c->value_first ? VALUE_W + 8 : VALUE_W;   // room for the segment's name
    int bx = x + lw + 1, bw = w - lw - 1 - vw - 1;
    if (bw < 4)
        return;
    if (c->kind == UI_CHART_STACKED) {
        draw_stacked(c, row, max, g, y, bx, bw);
        double total = 0;
        for (size_t k = 0; k < c->nseries; k++)
            total += isfinite(row->v[k]) && row->v[k] > 0 ? row->v[k] : 0;
        char num[32];
        ui_chart_value(c->value_first ? row->v[0] : total, num, sizeof num);
        snprintf(val, sizeof val, "%s%s%s%s%s", num, c->unit ? " " : "", c->unit ? c->unit : "",
                 c->value_first && c->series[0] ? " " : "",
                 c->value_first && c->series[0] ? c->series[0] : "");
        ui_grid_text_right(g, y, bx + bw + 1, vw, val, UI_STYLE_DIM);
        return;
    }
    double v = c->kind == UI_CHART_SPARK ? row->spark_max : row->v[0];
    if (c->kind == UI_CHART_SPARK)
        ui_chart_spark(g, y, bx, bw, row->spark, row->spark ? UI_SPARK_BUCKETS : 0, max,
                       UI_STYLE_BAR);
    else
        ui_chart_bar(g, y, bx, bw, max > 0 ? v / max : 0, UI_STYLE_BAR);
    char num[32];
    ui_chart_value(v, num, sizeof num);
    snprintf(val, sizeof val, "%s%s%s%s", c->kind == UI_CHART_SPARK ? "max " : "", num,
             c->unit ? " " : "", c->unit ? c->unit : "");
    ui_grid_text_right(g, y, bx + bw + 1, VALUE_W, val, UI_STYLE_DIM);
}
