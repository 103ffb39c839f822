#include "config.h"
#include "ui/views/timeline.h"

#include <stdio.h>
#include <string.h>

#include "ui/widgets/text.h"
#include "ui/views/timeline_lanes.h"
#include "ui/view.h"

/* View 1: one lane per selected stream (and switched-on CPU thread), each
 * cell showing what fills it; a legend row and a time axis stay on top. */

static size_t tl_rows(const struct ui_state *st, const struct model *m)
{
    (void)m;
    return st->nlanes;
}

static size_t tl_top(const struct ui_state *st, const struct model *m, int height)
{
    size_t h = height > UI_TIMELINE_PINNED ? (size_t)(height - UI_TIMELINE_PINNED) : 1;
    size_t top = st->tl.lane_top;

    (void)m;
    if (st->tl.lane < top)
        top = st->tl.lane;
    if (st->tl.lane >= top + h)
        top = st->tl.lane - h + 1;
    return top;
}

static void tl_row(const struct ui_state *st, const struct model *m, size_t i, struct ui_grid *g,
                   int y, int x, int w)
{
    const struct ui_lane *lane = &st->lanes[i];
    int lw = ui_timeline_label_w(w);
    bool cur = i == st->tl.lane;
    struct ui_timescale ts;
    char label[64];

    ui_lane_label(st, m, lane, label, sizeof label);
    ui_grid_text(g, y, x, lw, label,
                 cur && st->focus == UI_FOCUS_MAIN ? UI_STYLE_SELECTED : UI_STYLE_DIM,
                 UI_TRUNC_MIDDLE);
    ui_timeline_scale(st, &ts);
    ui_timeline_draw_lane(st, m, lane, &ts, g, y, x + lw + 1);
    if (cur && st->tl.cursor >= 0 && st->tl.cursor < ts.cols) {
        struct ui_cell *c = ui_grid_at(g, y, x + lw + 1 + st->tl.cursor);
        if (c->ch == ' ')
            c->ch = ui_glyph(g, UI_G_VLINE);
        c->style = UI_STYLE_CURSOR;
    }
}

static size_t tl_pinned(const struct ui_state *st, const struct model *m)
{
    (void)st;
    (void)m;
    return UI_TIMELINE_PINNED;
}

static void legend_row(const struct ui_state *st, struct ui_grid *g, int y, int x, int w)
{
    static const enum ui_cell_class shown[] = {UI_CLASS_COMPUTE, UI_CLASS_COMM, UI_CLASS_MEMORY,
                                               UI_CLASS_OTHER, UI_CLASS_CPU,
                                               UI_CLASS_ANNOTATION};
    char span[32], right[96];
    int used = 0;
    // Annotations are drawn on CPU thread lanes only: named when one is shown.
    size_t nshown = sizeof shown / sizeof shown[0] - 1;
    for (size_t i = 0; i < st->nlanes; i++)
        if (st->lanes[i].kind == UI_LANE_THREAD)
            nshown = sizeof shown / sizeof shown[0];

    for (size_t k = 0; k < nshown && used < w; k++) {
        ui_grid_put(g, y, x + used, ui_class_glyph(g, shown[k]), ui_class_style(shown[k]));
        used += 2;
        used += ui_grid_text(g, y, x + used, w - used, ui_class_name(shown[k]), UI_STYLE_DIM,
                             UI_TRUNC_END) + 2;
    }
    ui_format_duration(st->tl.t1 - st->tl.t0, span, sizeof span);
    snprintf(right, sizeof right, "%zu lanes · %s shown", st->nlanes, span);
    if (used + (int)strlen(right) < w)
        ui_grid_text_right(g, y, x + used, w - used, right, UI_STYLE_DIM);
}

static void axis_row(const struct ui_state *st, struct ui_grid *g, int y, int x, int w)
{
    struct ui_timescale ts;
    int lw = ui_timeline_label_w(w), ax = x + lw + 1, last = -1;
    char buf[32];

    ui_timeline_scale(st, &ts);
    int64_t span = ts.t1 - ts.t0, tick = ui_nice_tick(span, ts.cols, 12);
    int64_t t = ts.t0 / tick * tick;
    if (t < ts.t0)
        t += tick;
    for (; t < ts.t1; t += tick) {
        int c = ui_time_col(&ts, t);
        if (c < 0 || c >= ts.cols || c <= last)
            continue;
        ui_format_axis_time(t, tick, ts.t1, buf, sizeof buf);
        int len = (int)strlen(buf);
        ui_grid_put(g, y, ax + c, ui_glyph(g, UI_G_VLINE), UI_STYLE_DIM);
        // A label under the cursor mark would lose a character: leave it out.
        if (st->tl.cursor > c && st->tl.cursor <= c + len)
            continue;
        last = c + ui_grid_text(g, y, ax + c + 1, ts.cols - c - 1, buf, UI_STYLE_DIM,
                                UI_TRUNC_END) + 1;
    }
    if (st->tl.has_mark || st->tl.nmarks) {
        // the window being marked (w), else the measure (m): to the cursor
        // until its second mark is set
        int a = ui_time_col(&ts, st->tl.has_mark ? st->tl.mark : st->tl.marks[0]);
        int b = !st->tl.has_mark && st->tl.nmarks == 2 ? ui_time_col(&ts, st->tl.marks[1])
                                                       : st->tl.cursor;
        if (a > b) {
            int s = a;
            a = b;
            b = s;
        }
        a = a < 0 ? 0 : a;
        b = b >= ts.cols ? ts.cols - 1 : b;
        ui_grid_style(g, y, ax + a, b - a + 1, UI_STYLE_MARK);
    }
    if (st->tl.cursor >= 0 && st->tl.cursor < ts.cols)
        ui_grid_put(g, y, ax + st->tl.cursor, ui_glyph(g, UI_G_CURSOR_MARK), UI_STYLE_CURSOR);
}

static void tl_pinned_row(const struct ui_state *st, const struct model *m, size_t i,
                          struct ui_grid *g, int y, int x, int w)
{
    (void)m;
    if (i == 0)
        legend_row(st, g, y, x, w);
    else
        axis_row(st, g, y, x, w);
}

static void tl_status(const struct ui_state *st, const struct model *m, char *buf, size_t n)
{
    char t[32], d[32], label[64];

    if (st->nlanes == 0) {
        snprintf(buf, n, "no lanes: include a rank or stream in the left pane");
        return;
    }
    if (st->tl.nmarks == 2) {
        ui_tl_measure_text(st, m, buf, n);
        return;
    }
    ui_format_duration(ui_timeline_cursor_time(st), t, sizeof t);
    const struct ui_lane *lane = &st->lanes[st->tl.lane < st->nlanes ? st->tl.lane : 0];
    ui_lane_label(st, m, lane, label, sizeof label);
    uint32_t pos = ui_timeline_pick(st, m, st->tl.lane, st->tl.cursor);
    if (pos == MODEL_NONE) {
        snprintf(buf, n, "%s · %s · idle", t, label);
        return;
    }
    const struct event *ev = &m->ranks[lane->rank].events[pos];
    ui_format_duration(ev->dur, d, sizeof d);
    snprintf(buf, n, "%s · %s · %s (%s)", t, label, model_str(m, ev->name), d);
}

static size_t tl_contexts(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS])
{
    (void)st;
    ctx[0] = UI_CTX_TIMELINE;
    return 1;
}

/* Esc clears the instances n/N step through, a half-marked window and the
 * measure's marks, wherever the focus is. */
static bool tl_escape(struct ui_state *st, const struct model *m)
{
    (void)m;
    if (!st->njumps && !st->tl.has_mark && !st->tl.nmarks)
        return false;
    st->njumps = 0;
    st->tl.has_mark = false;
    st->tl.nmarks = 0;
    st->jump_what[0] = 0;
    ui_state_message(st, false, "cleared");
    return true;
}

/* A click on a lane selects it; on the cell area, moves the cursor there. */
static unsigned tl_click(struct ui_state *st, const struct model *m, int y, int x)
{
    struct ui_rect b = st->layout.body;
    int lw = ui_timeline_label_w(b.w);
    size_t lane = st->tl.lane_top + (size_t)(y - b.y - UI_TIMELINE_PINNED);

    (void)m;
    if (y - b.y >= UI_TIMELINE_PINNED && lane < st->nlanes)
        st->tl.lane = lane;
    if (x - b.x > lw && x - b.x - lw - 1 < ui_timeline_cols(st))
        st->tl.cursor = x - b.x - lw - 1;
    return UI_REDRAW;
}

static const char *tl_cursor_name(const struct ui_state *st, const struct model *m)
{
    if (st->tl.lane >= st->nlanes)
        return NULL;
    uint32_t pos = ui_timeline_pick(st, m, st->tl.lane, st->tl.cursor);
    const struct rank_model *r = &m->ranks[st->lanes[st->tl.lane].rank];
    return pos == MODEL_NONE || pos >= r->nevents ? NULL : model_str(m, r->events[pos].name);
}

const struct ui_view_ops ui_view_timeline = {
    .id = UI_VIEW_TIMELINE,
    .key = '1',
    .name = "Timeline",
    .hints = " ? help  Tab pane  +/- zoom  h/l move  0 fit  / search  Enter details  q quit",
    .contexts = tl_contexts,
    .rows = tl_rows,
    .top = tl_top,
    .row = tl_row,
    .pinned = tl_pinned,
    .pinned_row = tl_pinned_row,
    .status = tl_status,
    .prompt_initial = ui_tl_prompt_initial,
    .prompt_apply = ui_tl_prompt_apply,
    .escape = tl_escape,
    .click = tl_click,
    .cursor_name = tl_cursor_name,
};
