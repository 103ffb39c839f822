#include "config.h"
#include "ui/views/diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/diff_triage.h"
#include "ui/widgets/charts.h"
#include "ui/widgets/layout.h"
#include "ui/widgets/text.h"

/* Drawing the diff view into a grid: a pinned block (the two sides, the
 * change counts, the top-10 Δ bars, the column header), then one line per
 * op, or the detail timelines of one op. */

#define CHART_MIN_BODY 24   /* smaller bodies leave the bars out */
#define MARKER_W 2          /* HTA's count marker and a space */
#define MARKER_W_HTX 3      /* htx adds the time-per-call marker */
#define NAME_MIN_W 30
#define LABEL_W 14          /* detail lane labels */

/* ---- table columns --------------------------------------------------------- */

enum col_id { C_CN, C_TN, C_DN, C_CT, C_TT, C_DT, C_CM, C_TM, C_DM, C_BAR, NCOLS };

static const struct {
    const char *title, *ascii;
    int w;
    int prio;          /* dropped from the highest when space runs out */
} columns[NCOLS] = {
    {"ctl n", "ctl n", 6, 1},           {"test n", "test n", 6, 1},
    {"Δ n", "d n", 6, 0},               {"ctl total", "ctl total", 10, 1},
    {"test total", "test total", 10, 1},   {"Δ total", "d total", 9, 0},
    {"ctl mean", "ctl mean", 9, 2},     {"test mean", "test mean", 9, 2},
    {"Δ%/call", "d%/call", 8, 2},       {"Δ", "d", 11, 3},
};

struct layout {
    bool shown[NCOLS];
    int marker_w, name_w;
};

static void plan_columns(const struct ui_diff *d, int w, struct layout *l)
{
    l->marker_w = d->hta ? MARKER_W : MARKER_W_HTX;
    for (int c = 0; c < NCOLS; c++)
        l->shown[c] = true;
    for (int prio = 3; prio >= 0; prio--) {
        int used = l->marker_w;
        for (int c = 0; c < NCOLS; c++)
            used += l->shown[c] ? columns[c].w + 1 : 0;
        l->name_w = w - used;
        if (l->name_w >= NAME_MIN_W || prio == 0)
            break;
        for (int c = 0; c < NCOLS; c++)
            if (columns[c].prio == prio)
                l->shown[c] = false;
    }
    if (l->name_w < 4) {
        int used = l->marker_w;
        for (int c = 0; c < NCOLS; c++)
            used += l->shown[c] ? columns[c].w + 1 : 0;
        l->name_w = w - used > 4 ? w - used : 4;
    }
}

static void signed_count(int64_t v, char *buf, size_t n)
{
    snprintf(buf, n, "%s%" PRId64, v > 0 ? "+" : "", v);
}

static void signed_duration(int64_t ns, char *buf, size_t n)
{
    char d[32];
    ui_format_duration(ns, d, sizeof d);
    snprintf(buf, n, "%s%s", ns > 0 ? "+" : "", d);
}

static void mean_text(int64_t ns, int64_t count, char *buf, size_t n)
{
    if (count > 0)
        ui_format_duration((int64_t)llround((double)ns / (double)count), buf, n);
    else
        snprintf(buf, n, "-");
}

/* Change of the time per call in %, NaN when a side never ran the op or
 * control's calls took no time (as diff_mean_change of diff_triage.h). */
static double per_call_pct(const struct diff_row *r)
{
    if (r->control_count == 0 || r->test_count == 0 || r->control_dur_ns == 0)
        return NAN;
    double cm = (double)r->control_dur_ns / (double)r->control_count;
    double tm = (double)r->test_dur_ns / (double)r->test_count;
    return (tm / cm - 1.0) * 100.0;
}

static void per_call_text(const struct diff_row *r, char *buf, size_t n)
{
    double pct = per_call_pct(r);
    if (isnan(pct))
        snprintf(buf, n, "-");
    else if (fabs(pct) >= 9999.5)
        snprintf(buf, n, "%s%.0fx", pct > 0 ? "" : "/", pct > 0 ? pct / 100 + 1 : 100 / (pct + 100));
    else
        snprintf(buf, n, "%+.0f%%", pct);
}

static enum ui_style delta_style(double v)
{
    return v > 0 ? UI_STYLE_BAD : v < 0 ? UI_STYLE_GOOD : UI_STYLE_NORMAL;
}

/* A bar around a centre line: growth to the right, shrinkage to the left. */
static void diverging_bar(struct ui_grid *g, int y, int x, int w, double v, double max)
{
    int half = (w - 1) / 2;
    if (half <= 0)
        return;
    ui_grid_put(g, y, x + half, g->ascii ? '|' : 0x2502, UI_STYLE_DIM);
    double frac = max > 0 ? fabs(v) / max : 0;
    if (v > 0) {
        ui_chart_bar(g, y, x + half + 1, half, frac, UI_STYLE_BAD);
    } else if (v < 0) {
        int cells = (int)lround(frac * half);
        if (cells == 0 && frac > 0)
            cells = 1;
        ui_grid_fill(g, y, x + half - cells, cells, g->ascii ? '#' : 0x2588, UI_STYLE_GOOD);
    }
}

static char marker(enum diff_change c)
{
    static const char m[DIFF_CHANGE_COUNT] = {'A', 'D', '+', '-', '='};
    return (unsigned)c < DIFF_CHANGE_COUNT ? m[c] : '?';
}

static enum ui_style marker_style(enum diff_change c)
{
    return c == DIFF_ADDED ? UI_STYLE_GOOD : c == DIFF_DELETED ? UI_STYLE_BAD : UI_STYLE_DIM;
}

/* The text of column c for row r (the bar column has none). */
static void cell_text(const struct diff_row *r, int c, char *buf, size_t n)
{
    switch (c) {
    case C_CN: snprintf(buf, n, "%" PRId64, r->control_count); break;
    case C_TN: snprintf(buf, n, "%" PRId64, r->test_count); break;
    case C_DN: signed_count(r->test_count - r->control_count, buf, n); break;
    case C_CT: ui_format_duration(r->control_dur_ns, buf, n); break;
    case C_TT: ui_format_duration(r->test_dur_ns, buf, n); break;
    case C_DT: signed_duration(r->test_dur_ns - r->control_dur_ns, buf, n); break;
    case C_CM: mean_text(r->control_dur_ns, r->control_count, buf, n); break;
    case C_TM: mean_text(r->test_dur_ns, r->test_count, buf, n); break;
    case C_DM: per_call_text(r, buf, n); break;
    default: buf[0] = 0;
    }
}

static enum ui_style cell_style(const struct diff_row *r, int c)
{
    if (c == C_DN)
        return delta_style((double)(r->test_count - r->control_count));
    if (c == C_DT)
        return delta_style((double)(r->test_dur_ns - r->control_dur_ns));
    if (c == C_DM) {
        double pct = per_call_pct(r);
        return isnan(pct) || fabs(pct) <= DIFF_TIME_CHANGE_PCT ? UI_STYLE_NORMAL : delta_style(pct);
    }
    return UI_STYLE_NORMAL;
}

/* htx's second marker: the time per call changed by more than
 * DIFF_TIME_CHANGE_PCT (the count marker alone calls a 4.7x slower op with
 * the same count "="). */
static void time_marker(const struct diff_row *r, struct ui_grid *g, int y, int x)
{
    double pct = per_call_pct(r);
    if (isnan(pct) || fabs(pct) <= DIFF_TIME_CHANGE_PCT)
        return;
    uint32_t glyph = pct > 0 ? (g->ascii ? '^' : 0x25B2) : (g->ascii ? 'v' : 0x25BC);
    ui_grid_put(g, y, x, glyph, pct > 0 ? UI_STYLE_BAD : UI_STYLE_GOOD);
}

static void draw_op(const struct ui_diff *d, size_t v, bool cursor, struct ui_grid *g, int y,
                    int x, int w)
{
    const struct diff_row *r = &d->res.rows[d->vis[v]];
    struct layout l;
    plan_columns(d, w, &l);
    ui_grid_put(g, y, x, (uint32_t)marker(r->change), marker_style(r->change));
    if (!d->hta)
        time_marker(r, g, y, x + 1);
    ui_grid_textn(g, y, x + l.marker_w, l.name_w, r->name, r->len, UI_STYLE_NORMAL,
                  UI_TRUNC_MIDDLE);
    int cx = x + l.marker_w + l.name_w;
    for (int c = 0; c < NCOLS; c++) {
        if (!l.shown[c])
            continue;
        char buf[48];
        if (c == C_BAR) {
            diverging_bar(g, y, cx + 1, columns[c].w, (double)(r->test_dur_ns - r->control_dur_ns),
                          d->max_ddur);
        } else {
            cell_text(r, c, buf, sizeof buf);
            ui_grid_text_right(g, y, cx + 1, columns[c].w, buf, cell_style(r, c));
        }
        cx += columns[c].w + 1;
    }
    if (cursor)
        ui_grid_style(g, y, x, w, UI_STYLE_SELECTED);
}

static void draw_header(const struct ui_diff *d, struct ui_grid *g, int y, int x, int w)
{
    struct layout l;
    plan_columns(d, w, &l);
    ui_grid_fill(g, y, x, w, ' ', UI_STYLE_HEADER);
    ui_grid_text(g, y, x + l.marker_w, l.name_w, "name", UI_STYLE_HEADER, UI_TRUNC_END);
    int cx = x + l.marker_w + l.name_w;
    for (int c = 0; c < NCOLS; c++) {
        if (!l.shown[c])
            continue;
        const char *t = g->ascii ? columns[c].ascii : columns[c].title;
        if (c == C_BAR)
            ui_grid_text(g, y, cx + 1 + (columns[c].w - 1) / 2, 2, t, UI_STYLE_HEADER, UI_TRUNC_END);
        else
            ui_grid_text_right(g, y, cx + 1, columns[c].w, t, UI_STYLE_HEADER);
        cx += columns[c].w + 1;
    }
}

/* ---- pinned block ------------------------------------------------------------ */

static bool chart_shown(const struct ui_diff *d, int body_h)
{
    return d->chart && !d->detail.open && body_h >= CHART_MIN_BODY && d->ntop10 > 0;
}

size_t ui_diff_pinned_lines(const struct ui_diff *d, int body_h)
{
    if (d->detail.open)
        return 2;
    return 3 + (chart_shown(d, body_h) ? d->ntop10 + 2 : 0) + 1;
}

static void draw_sides(const struct ui_diff *d, struct ui_grid *g, int y, int x, int w)
{
    char a[128], b[128], line[400];
    static const char *const dev[] = {"CPU ops and GPU kernels", "CPU ops", "GPU kernels"};
    ui_diff_side_text(&d->side[0], g->ascii, a, sizeof a);
    ui_diff_side_text(&d->side[1], g->ascii, b, sizeof b);
    snprintf(line, sizeof line, "%s  vs  %s  %s %s  %s semantics", a, b, g->ascii ? "|" : "\u2502",
             dev[d->device], d->hta ? "hta" : "htx");
    ui_grid_text(g, y, x, w, line, UI_STYLE_TITLE, UI_TRUNC_END);
}

static void draw_counts(const struct ui_diff *d, struct ui_grid *g, int y, int x, int w)
{
    static const char *const sorts[UI_DIFF_SORT_COUNT] = {"duration change", "count change",
                                                          "name"};
    char line[400];
    int n = snprintf(line, sizeof line, "added %zu  deleted %zu  increased %zu  decreased %zu  "
                     "unchanged %zu  |  showing %zu  sort: %s%s",
                     d->res.counts[DIFF_ADDED], d->res.counts[DIFF_DELETED],
                     d->res.counts[DIFF_INCREASED], d->res.counts[DIFF_DECREASED],
                     d->res.counts[DIFF_UNCHANGED], d->nvis, sorts[d->sort],
                     d->sort_reverse ? " (reversed)" : "");
    if (d->filter[0] && n > 0 && (size_t)n < sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "  filter \"%s\"", d->filter);
    ui_grid_text(g, y, x, w, line, UI_STYLE_DIM, UI_TRUNC_END);
}

/* What the marker columns mean. */
static void draw_legend(const struct ui_diff *d, struct ui_grid *g, int y, int x, int w)
{
    char line[300];
    if (d->hta)
        snprintf(line, sizeof line, "A added  D deleted  +/- more/fewer calls  = same calls "
                                    "(HTA: by calls only)");
    else
        snprintf(line, sizeof line, "A added  D deleted  +/- more/fewer calls  = same calls  "
                 "%s/%s time per call up/down >%.0f%%",
                 g->ascii ? "^" : "\u25B2", g->ascii ? "v" : "\u25BC", DIFF_TIME_CHANGE_PCT);
    ui_grid_text(g, y, x, w, line, UI_STYLE_DIM, UI_TRUNC_END);
}

/* Line i of the top-10 chart: title, bars, blank. */
static void draw_chart_line(const struct ui_diff *d, size_t i, struct ui_grid *g, int y, int x,
                            int w)
{
    bool counts = d->sort == UI_DIFF_SORT_DCOUNT;
    if (i == 0) {
        ui_grid_text(g, y, x, w, counts ? "Top 10 by change in calls (test - control)"
                                        : "Top 10 by change in total duration (test - control)",
                     UI_STYLE_HEADER, UI_TRUNC_END);
        return;
    }
    if (i > d->ntop10)
        return;
    const struct diff_row *r = &d->res.rows[d->top10[i - 1]];
    int label_w = w / 3 > 40 ? 40 : w / 3, value_w = 12;
    int bar_w = w - label_w - value_w - 2;
    ui_grid_textn(g, y, x, label_w, r->name, r->len, UI_STYLE_NORMAL, UI_TRUNC_MIDDLE);
    double v = counts ? (double)(r->test_count - r->control_count)
                      : (double)(r->test_dur_ns - r->control_dur_ns);
    if (bar_w > 2)
        diverging_bar(g, y, x + label_w + 1, bar_w, v, counts ? d->max_dcount : d->max_ddur);
    char buf[48];
    if (counts)
        signed_count((int64_t)v, buf, sizeof buf);
    else
        signed_duration((int64_t)v, buf, sizeof buf);
    ui_grid_text_right(g, y, x + w - value_w, value_w, buf, delta_style(v));
}

void ui_diff_draw_pinned(const struct ui_diff *d, size_t i, int body_h, struct ui_grid *g,
                         int y, int x, int w)
{
    if (i == 0) {
        draw_sides(d, g, y, x, w);
        return;
    }
    if (i == 1) {
        draw_counts(d, g, y, x, w);
        return;
    }
    if (d->detail.open)
        return;
    if (i == 2) {
        draw_legend(d, g, y, x, w);
        return;
    }
    size_t chart = chart_shown(d, body_h) ? d->ntop10 + 2 : 0;
    if (i - 3 < chart)
        draw_chart_line(d, i - 3, g, y, x, w);
    else
        draw_header(d, g, y, x, w);
}

/* ---- detail: both timelines ----------------------------------------------------- */

static size_t side_lines(const struct ui_diff_detail *dt, int k)
{
    return 1 + (dt->nlanes[k] ? dt->nlanes[k] : 1) + 1;
}

static void draw_axis(const struct ui_diff_detail *dt, struct ui_grid *g, int y, int x, int w)
{
    int cols = w - LABEL_W;
    if (cols < 2)
        return;
    struct ui_timescale ts = {0, dt->span, cols};
    int64_t tick = ui_nice_tick(dt->span, cols, 12);
    ui_grid_text(g, y, x, LABEL_W, "from start", UI_STYLE_DIM, UI_TRUNC_END);
    for (int64_t t = 0; tick > 0 && t < dt->span; t += tick) {
        char buf[32];
        int c = ui_time_col(&ts, t);
        ui_format_time(t, tick, buf, sizeof buf);
        ui_grid_put(g, y, x + LABEL_W + c, g->ascii ? '|' : 0x2502, UI_STYLE_DIM);
        ui_grid_text(g, y, x + LABEL_W + c + 1, cols - c - 1, buf, UI_STYLE_DIM, UI_TRUNC_END);
    }
}

static void draw_lane(const struct ui_diff *d, int k, const struct ui_diff_lane *l,
                      struct ui_grid *g, int y, int x, int w)
{
    const struct model *m = d->side[k].m;
    const struct rank_model *rk = &m->ranks[l->rank];
    char label[64];
    if (l->gpu)
        snprintf(label, sizeof label, "r%" PRId64 " s%" PRId64, rk->rank, l->stream);
    else
        snprintf(label, sizeof label, "r%" PRId64 " t%s", rk->rank, model_str(m, l->tid));
    ui_grid_text(g, y, x, LABEL_W - 1, label, UI_STYLE_DIM, UI_TRUNC_END);
    int cols = w - LABEL_W;
    if (cols < 1)
        return;
    struct ui_timescale ts = {0, d->detail.span, cols};
    ui_grid_fill(g, y, x + LABEL_W, cols, g->ascii ? '.' : 0x00B7, UI_STYLE_DIM);
    for (size_t i = 0; i < l->n; i++) {
        const struct event *ev = &rk->events[l->pos[i]];
        int64_t s = ev->ts - l->t0, e = s + (ev->dur > 0 ? ev->dur : 0);
        int c0 = ui_time_col(&ts, s), c1 = ui_time_col(&ts, e > s ? e - 1 : s);
        if (c1 < 0 || c0 >= cols)
            continue;
        c0 = c0 < 0 ? 0 : c0;
        c1 = c1 >= cols ? cols - 1 : c1;
        ui_grid_fill(g, y, x + LABEL_W + c0, c1 - c0 + 1, g->ascii ? '#' : 0x2588,
                     k == 0 ? UI_STYLE_COMPUTE : UI_STYLE_MARK);
    }
}

static void draw_side_head(const struct ui_diff *d, int k, struct ui_grid *g, int y, int x,
                           int w)
{
    const struct ui_diff_detail *dt = &d->detail;
    char who[128], total[32], line[256];
    ui_diff_side_text(&d->side[k], g->ascii, who, sizeof who);
    ui_format_duration(dt->total_ns[k], total, sizeof total);
    if (dt->count[k])
        snprintf(line, sizeof line, "%s: %zu call%s, %s in total", who, dt->count[k],
                 dt->count[k] == 1 ? "" : "s", total);
    else
        snprintf(line, sizeof line, "%s: never runs", who);
    ui_grid_text(g, y, x, w, line, UI_STYLE_HEADER, UI_TRUNC_END);
}

static void draw_detail(const struct ui_diff *d, size_t i, struct ui_grid *g, int y, int x,
                        int w)
{
    const struct ui_diff_detail *dt = &d->detail;
    if (i == 0) {
        ui_grid_text(g, y, x, w, dt->name, UI_STYLE_TITLE, UI_TRUNC_MIDDLE);
        return;
    }
    if (i == 1) {
        draw_axis(dt, g, y, x, w);
        return;
    }
    i -= 2;
    for (int k = 0; k < 2; k++) {
        size_t n = side_lines(dt, k);
        if (i >= n) {
            i -= n;
            continue;
        }
        if (i == 0)
            draw_side_head(d, k, g, y, x, w);
        else if (i <= dt->nlanes[k])
            draw_lane(d, k, &dt->lanes[k][i - 1], g, y, x, w);
        else if (i == 1)
            ui_grid_text(g, y, x + LABEL_W, w - LABEL_W, "(not in this selection)", UI_STYLE_DIM,
                         UI_TRUNC_END);
        return;
    }
}

size_t ui_diff_body_lines(const struct ui_diff *d)
{
    if (d->detail.open)
        return 2 + side_lines(&d->detail, 0) + side_lines(&d->detail, 1);
    return d->nvis ? d->nvis : 1;
}

void ui_diff_draw_body(const struct ui_diff *d, size_t i, bool focus, struct ui_grid *g, int y,
                       int x, int w)
{
    if (d->detail.open) {
        draw_detail(d, i, g, y, x, w);
    } else if (d->nvis == 0) {
        const char *why = d->error[0] ? d->error
                          : d->res.nrows ? "no op matches the filter (Esc clears it)"
                                         : "nothing to compare in this selection";
        ui_grid_text(g, y, x + MARKER_W, w - MARKER_W, why,
                     d->error[0] ? UI_STYLE_WARN : UI_STYLE_DIM, UI_TRUNC_END);
    } else if (i < d->nvis) {
        draw_op(d, i, focus && i == d->cur, g, y, x, w);
    }
}
