#include "config.h"
#include "ui/views/timeline.h"

#include <stdio.h>
#include <string.h>

#include "ui/jumps.h"
#include "ui/views/timeline_details.h"
#include "ui/views/timeline_lanes.h"
#include "ui/widgets/nav.h"
#include "ui/widgets/text.h"
#include "util/sort.h"

/* Timeline navigation: the next and previous event on the cursor's lane
 * and of the same name, from a kernel to its launch and back, going to a
 * time, zooming to an event, an iteration or the marked range, and
 * measuring between two marks. The pure parts
 * (time parsing, searching a lane, the union of busy time) are in
 * ui/widgets/nav.c. The big moves are kept in the history, so Esc comes
 * back to where the user was. */

static int64_t col_time(const struct ui_state *st, int col)
{
    struct ui_timescale ts;
    ui_timeline_scale(st, &ts);
    return ui_col_time(&ts, col);
}

/* The cell whose span [ui_col_time(c), ui_col_time(c + 1)) holds t, kept
 * on screen (ui_time_col rounds the other way at a cell's exact start). */
static int cell_of(const struct ui_timescale *ts, int64_t t)
{
    int col = ui_time_col(ts, t);
    col = col < 0 ? 0 : (col >= ts->cols ? ts->cols - 1 : col);
    while (col + 1 < ts->cols && ui_col_time(ts, col + 1) <= t)
        col++;
    while (col > 0 && ui_col_time(ts, col) > t)
        col--;
    return col;
}

/* Puts the cursor on time t: the window keeps its span and moves only when
 * t is outside it (t then in the middle), and then by less than a cell so
 * that the cursor's cell starts at t (unless the data's edge is in the
 * way): the status line, the marks and what the cell shows are then t's. */
static void cursor_to(struct ui_state *st, int64_t t)
{
    struct ui_timescale ts;
    int64_t span = st->tl.t1 - st->tl.t0;

    if (t < st->tl.t0 || t >= st->tl.t1) {
        st->tl.t0 = t - span / 2;
        st->tl.t1 = st->tl.t0 + span;
        ui_pan(&st->tl.t0, &st->tl.t1, 0, st->tl.lo, st->tl.hi);
    }
    ui_timeline_scale(st, &ts);
    int col = cell_of(&ts, t);
    ui_pan(&st->tl.t0, &st->tl.t1, t - ui_col_time(&ts, col), st->tl.lo, st->tl.hi);
    ui_timeline_scale(st, &ts);
    st->tl.cursor = cell_of(&ts, t);
    st->tl.has_at = true;
    st->tl.at = t;
}

/* Shows [a, b) across the cell area (at least one ns per column), the
 * cursor on time `at`. */
static void window_to(struct ui_state *st, int64_t a, int64_t b, int64_t at)
{
    int64_t cols = ui_timeline_cols(st);
    if (b - a < cols) {
        int64_t mid = a + (b - a) / 2;
        a = mid - cols / 2;
        b = a + cols;
    }
    st->tl.t0 = a;
    st->tl.t1 = b;
    ui_pan(&st->tl.t0, &st->tl.t1, 0, st->tl.lo, st->tl.hi);
    cursor_to(st, at);
}

/* The cursor's lane: its start times and event positions (index order),
 * how many; false when there is none. */
static bool lane_events(const struct ui_state *st, const struct model *m, const int64_t **ts,
                        const uint32_t **pos, size_t *n)
{
    *n = 0;
    if (st->tl.lane >= st->nlanes)
        return false;
    const struct ui_lane *l = &st->lanes[st->tl.lane];
    const struct rank_model *rm = &m->ranks[l->rank];
    if (l->kind == UI_LANE_STREAM && l->index < rm->nstreams) {
        *n = rm->streams[l->index].n;
        *pos = rm->streams[l->index].pos;
    } else if (l->kind == UI_LANE_THREAD && l->index < rm->nthreads) {
        *n = rm->threads[l->index].n;
        *pos = rm->threads[l->index].pos;
    }
    *ts = l->ts;
    if (!l->ts || !*pos)
        *n = 0;
    return *n > 0;
}

/* Index of event `at` (a position) in the lane, or n when not on it. */
static size_t lane_index(const int64_t *ts, const uint32_t *pos, size_t n, const struct event *ev,
                         uint32_t at)
{
    for (size_t i = i64_lower_bound(ts, n, ev->ts); i < n && ts[i] == ev->ts; i++)
        if (pos[i] == at)
            return i;
    return n;
}

/* Puts the lane's event `at` under the cursor: at the zoom shown when a
 * cell there shows it, else zoomed in until one does (as n/N do). */
static void show_lane_event(struct ui_state *st, const struct model *m, uint32_t at)
{
    const struct ui_lane *l = &st->lanes[st->tl.lane];
    const struct event *ev = &m->ranks[l->rank].events[at];
    cursor_to(st, ev->ts);
    // The cell holding its start may show the event before (covering the
    // cell's start): then the next cell, when the event reaches it.
    int next = st->tl.cursor + 1;
    if (ui_timeline_pick(st, m, st->tl.lane, st->tl.cursor) != at &&
        next < ui_timeline_cols(st) && col_time(st, next) < ev->ts + ev->dur &&
        ui_timeline_pick(st, m, st->tl.lane, next) == at)
        st->tl.cursor++;
    if (ui_timeline_pick(st, m, st->tl.lane, st->tl.cursor) != at)
        ui_timeline_goto(st, m, l->rank, at);
}

/* From the event under the cursor, the next or previous one on its lane by
 * start time; from empty space, the first one after or the last one before. */
static unsigned step_event(struct ui_state *st, const struct model *m, int dir)
{
    const int64_t *ts = NULL;
    const uint32_t *pos = NULL;
    size_t n, i;
    if (!lane_events(st, m, &ts, &pos, &n)) {
        ui_state_message(st, false, "no events on this lane");
        return UI_REDRAW;
    }
    const struct rank_model *rm = &m->ranks[st->lanes[st->tl.lane].rank];
    uint32_t at = ui_timeline_pick(st, m, st->tl.lane, st->tl.cursor);
    size_t cur = at != MODEL_NONE && at < rm->nevents ? lane_index(ts, pos, n, &rm->events[at], at)
                                                      : n;
    if (cur < n)
        i = dir > 0 ? cur + 1 : (cur > 0 ? cur - 1 : n);
    else if (dir > 0)
        i = ui_ts_next(ts, n, ui_timeline_cursor_time(st));
    else
        i = ui_ts_prev(ts, n, ui_timeline_cursor_time(st));
    if (i >= n) {
        ui_state_message(st, false, "no event %s this one on the lane",
                         dir > 0 ? "after" : "before");
        return UI_REDRAW;
    }
    show_lane_event(st, m, pos[i]);
    return UI_REDRAW;
}

unsigned ui_act_tl_next_event(struct ui_state *st, const struct model *m)
{
    return step_event(st, m, 1);
}

unsigned ui_act_tl_prev_event(struct ui_state *st, const struct model *m)
{
    return step_event(st, m, -1);
}

/* The event under the cursor: its rank index and position, false when the
 * cursor is on empty space. */
static bool under_cursor(const struct ui_state *st, const struct model *m, uint32_t *r,
                         uint32_t *pos)
{
    if (st->tl.lane >= st->nlanes)
        return false;
    *pos = ui_timeline_pick(st, m, st->tl.lane, st->tl.cursor);
    *r = st->lanes[st->tl.lane].rank;
    return *pos != MODEL_NONE && *pos < m->ranks[*r].nevents;
}

/* Every event named as the one under the cursor becomes the instances n/N
 * step through; this steps to the next (dir 1) or previous one. */
static unsigned same_name(struct ui_state *st, const struct model *m, int dir)
{
    uint32_t r, pos;
    if (!under_cursor(st, m, &r, &pos)) {
        ui_state_message(st, false, "no event under the cursor");
        return UI_REDRAW;
    }
    size_t n = ui_find_instances(st, m, model_str(m, m->ranks[r].events[pos].name), true, -1);
    if (n == 0)
        return UI_REDRAW;   // out of memory: ui_find_instances said so
    // The instances are by time: the cursor's event is one of them.
    size_t at = 0;
    while (at < n && !(st->jumps[at].rank == r && st->jumps[at].pos == pos))
        at++;
    if (at == n)
        at = 0;
    struct ui_place from;
    ui_state_place(st, &from);
    st->jump = at;
    unsigned f = ui_jumps_step(st, m, dir);
    ui_state_moved(st, &from);
    return f;
}

unsigned ui_act_tl_same_next(struct ui_state *st, const struct model *m)
{
    return same_name(st, m, 1);
}

unsigned ui_act_tl_same_prev(struct ui_state *st, const struct model *m)
{
    return same_name(st, m, -1);
}

unsigned ui_act_tl_partner(struct ui_state *st, const struct model *m)
{
    uint32_t r, pos;
    if (!under_cursor(st, m, &r, &pos)) {
        ui_state_message(st, false, "no event under the cursor");
        return UI_REDRAW;
    }
    const struct rank_model *rm = &m->ranks[r];
    uint32_t to = rm->events[pos].partner;
    if (to == MODEL_NONE || to >= rm->nevents) {
        ui_state_message(st, false, "%s has no launch or kernel linked to it",
                         model_str(m, rm->events[pos].name));
        return UI_REDRAW;
    }
    struct ui_place from;
    ui_state_place(st, &from);
    if (ui_timeline_goto(st, m, r, to) != 0) {
        ui_state_message(st, true, "its partner is not on a lane that can be shown");
        return UI_REDRAW;
    }
    ui_state_moved(st, &from);
    return UI_REDRAW | UI_RELANE;   // its thread or stream may have been switched on
}

unsigned ui_act_tl_goto(struct ui_state *st, const struct model *m)
{
    (void)m;
    st->prompt = UI_PROMPT_GOTO;
    st->prompt_text[0] = 0;
    return UI_REDRAW;
}

unsigned ui_tl_goto_apply(struct ui_state *st, const struct model *m, const char *text)
{
    char why[128], at[32];
    int64_t t;

    (void)m;
    if (!text[0])
        return UI_REDRAW;
    if (ui_parse_time(text, ui_timeline_cursor_time(st), &t, why, sizeof why) != 0) {
        ui_state_message(st, true, "%s", why);
        return UI_REDRAW;
    }
    struct ui_place from;
    ui_state_place(st, &from);
    int64_t last = st->tl.hi > st->tl.lo ? st->tl.hi - 1 : st->tl.lo;
    int64_t to = t < st->tl.lo ? st->tl.lo : (t > last ? last : t);
    cursor_to(st, to);
    ui_state_moved(st, &from);
    ui_format_duration(to, at, sizeof at);
    ui_state_message(st, false, "%s%s", at, to != t ? " (the nearest time shown)" : "");
    return UI_REDRAW;
}

unsigned ui_act_tl_zoom_event(struct ui_state *st, const struct model *m)
{
    uint32_t r, pos;
    if (!under_cursor(st, m, &r, &pos)) {
        ui_state_message(st, false, "no event under the cursor");
        return UI_REDRAW;
    }
    const struct event *ev = &m->ranks[r].events[pos];
    int64_t dur = ev->dur > 0 ? ev->dur : 0;
    struct ui_place from;
    ui_state_place(st, &from);
    // A margin of a tenth on each side shows where the event starts and ends.
    window_to(st, ev->ts - dur / 10, ev->ts + dur + dur / 10, ev->ts + dur / 2);
    ui_state_moved(st, &from);
    return UI_REDRAW;
}

/* The iteration of rank r at time t: the one containing t, else the next
 * one, else the last one; NULL when the rank has none. */
static const struct iteration *iteration_at(const struct rank_model *rm, int64_t t)
{
    const struct iteration *next = NULL;
    for (size_t i = 0; i < rm->niterations; i++) {
        const struct iteration *it = &rm->iterations[i];
        if (t >= it->ts && t < it->ts + it->dur)
            return it;
        if (it->ts > t && !next)
            next = it;
    }
    return next ? next : (rm->niterations ? &rm->iterations[rm->niterations - 1] : NULL);
}

unsigned ui_act_tl_zoom_iteration(struct ui_state *st, const struct model *m)
{
    char d[32];
    if (st->tl.lane >= st->nlanes)
        return UI_REDRAW;
    const struct rank_model *rm = &m->ranks[st->lanes[st->tl.lane].rank];
    const struct iteration *it = iteration_at(rm, ui_timeline_cursor_time(st));
    if (!it) {
        ui_state_message(st, true, "no iterations: rank %lld has no ProfilerStep events",
                         (long long)rm->rank);
        return UI_REDRAW;
    }
    struct ui_place from;
    ui_state_place(st, &from);
    window_to(st, it->ts, it->ts + (it->dur > 0 ? it->dur : 0), it->ts);
    ui_state_moved(st, &from);
    ui_format_duration(it->dur, d, sizeof d);
    ui_state_message(st, false, "ProfilerStep#%lld of rank %lld (%s)", (long long)it->number,
                     (long long)rm->rank, d);
    return UI_REDRAW;
}

/* The marked range, earlier mark first; false unless two marks are set. */
static bool marked(const struct ui_state *st, int64_t *a, int64_t *b)
{
    if (st->tl.nmarks < 2)
        return false;
    *a = st->tl.marks[0] < st->tl.marks[1] ? st->tl.marks[0] : st->tl.marks[1];
    *b = st->tl.marks[0] < st->tl.marks[1] ? st->tl.marks[1] : st->tl.marks[0];
    return true;
}

unsigned ui_act_tl_zoom_marks(struct ui_state *st, const struct model *m)
{
    int64_t a, b;
    (void)m;
    if (!marked(st, &a, &b)) {
        ui_state_message(st, true, "mark two points with m first");
        return UI_REDRAW;
    }
    struct ui_place from;
    ui_state_place(st, &from);
    window_to(st, a, b, a);
    ui_state_moved(st, &from);
    return UI_REDRAW;
}

unsigned ui_act_tl_mark(struct ui_state *st, const struct model *m)
{
    char t[32];

    (void)m;
    if (st->tl.nmarks == 2)
        st->tl.nmarks = 0;   // a third m starts a new measure
    st->tl.marks[st->tl.nmarks++] = ui_timeline_cursor_time(st);
    if (st->tl.nmarks == 1) {
        ui_format_duration(st->tl.marks[0], t, sizeof t);
        ui_state_message(st, false, "mark at %s: move and press m again to measure", t);
        return UI_REDRAW;
    }
    ui_state_message(st, false, "measured: z zooms to it, m starts again, Esc clears");
    return UI_REDRAW;
}

void ui_tl_measure_text(const struct ui_state *st, const struct model *m, char *buf, size_t n)
{
    char d[32], busy[32], label[64];
    int64_t a, b;

    buf[0] = 0;
    if (!marked(st, &a, &b))
        return;
    ui_format_duration(b - a, d, sizeof d);
    if (st->tl.lane >= st->nlanes) {
        snprintf(buf, n, "marked %s", d);
        return;
    }
    const struct ui_lane *l = &st->lanes[st->tl.lane];
    struct ui_span_acc acc;
    ui_span_init(&acc, a, b);
    ui_lane_span(m, l, &acc);
    ui_lane_label(st, m, l, label, sizeof label);
    ui_format_duration(acc.busy, busy, sizeof busy);
    snprintf(buf, n, "marked %s · %s: %zu event%s, busy %s (%.0f%%)", d, label, acc.events,
             acc.events == 1 ? "" : "s", busy, b > a ? 100.0 * (double)acc.busy / (double)(b - a)
                                                     : 0.0);
}

unsigned ui_act_tl_measure_lanes(struct ui_state *st, const struct model *m)
{
    int64_t a, b;
    if (!marked(st, &a, &b)) {
        ui_state_message(st, true, "mark two points with m first");
        return UI_REDRAW;
    }
    if (ui_details_measure(st, m, a, b) != 0) {
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    st->overlay = UI_OVERLAY_MEASURE;
    st->overlay_top = 0;
    return UI_REDRAW;
}
