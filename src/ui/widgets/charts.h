#ifndef HTX_UI_CHARTS_H
#define HTX_UI_CHARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ui/widgets/grid.h"

/* Charts drawn with block characters (ASCII with --ascii): horizontal bars
 * with eighth-cell resolution, stacked bars whose segments differ by glyph
 * as well as colour (so they read without colour), and sparklines. A chart
 * is plain data built with the view's tables; drawing needs only a grid. */

#define UI_CHART_SERIES 4
#define UI_SPARK_BUCKETS 512

enum ui_chart_kind {
    UI_CHART_BARS,      /* one bar per row: v[0] against max */
    UI_CHART_STACKED,   /* segments v[0..nseries) of each row, scaled to max */
    UI_CHART_SPARK,     /* one sparkline per row from spark[] */
};

struct ui_chart_row {
    const char *label;
    double v[UI_CHART_SERIES];
    double *spark;      /* UI_CHART_SPARK: UI_SPARK_BUCKETS maxima over time */
    double spark_max;
};

struct ui_chart {
    enum ui_chart_kind kind;
    const char *title;
    const char *series[UI_CHART_SERIES];  /* legend of stacked segments */
    size_t nseries;
    uint8_t look[UI_CHART_SERIES];  /* glyph/style of each segment (0 = solid ..
                                       3 = light); all 0 means 0, 1, 2, 3 */
    const char *unit;   /* shown after values ("%", "us", "GB/s"); may be NULL */
    double max;         /* full scale; <= 0 means the largest value */
    bool value_first;   /* UI_CHART_STACKED: the value shown is the first segment's,
                           named (shares adding to 100), not the total */
    struct ui_chart_row *rows;
    size_t nrows;
};

/* Lines the chart needs: title, one per row, legend for stacked charts. */
size_t ui_chart_lines(const struct ui_chart *c);

/* Draws line i of the chart at (y, x), w columns wide. */
void ui_chart_line(const struct ui_chart *c, size_t i, struct ui_grid *g, int y, int x, int w);

/* A bar of frac (0..1) of w cells: full blocks plus one partial eighth. */
void ui_chart_bar(struct ui_grid *g, int y, int x, int w, double frac, enum ui_style style);

/* A sparkline of n values (0..max) resampled to w cells (max per cell). */
void ui_chart_spark(struct ui_grid *g, int y, int x, int w, const double *v, size_t n,
                    double max, enum ui_style style);

/* Samples a step function (value v[i] from ts[i] until ts[i+1]) over
 * [t0, t1) into UI_SPARK_BUCKETS maxima. out has UI_SPARK_BUCKETS slots. */
void ui_chart_sample_steps(const int64_t *ts, const double *v, size_t n, int64_t t0,
                           int64_t t1, double *out);

#endif
