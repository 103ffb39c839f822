#include "config.h"
#include "ui/views/timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/summary_job.h"
#include "ui/jumps.h"
#include "ui/views/timeline_details.h"
#include "ui/widgets/text.h"
#include "ui/views/timeline_lanes.h"

/* Timeline actions: cursor, lanes, zoom, pan, details, window marks and
 * stepping through instances. */

static int64_t cursor_time(const struct ui_state *st)
{
    struct ui_timescale ts;
    ui_timeline_scale(st, &ts);
    return ui_col_time(&ts, st->tl.cursor);
}

static int64_t min_span(const struct ui_state *st)
{
    return ui_timeline_cols(st);
}

static void clamp_cursor(struct ui_state *st)
{
    int cols = ui_timeline_cols(st);
    if (st->tl.cursor >= cols)
        st->tl.cursor = cols - 1;
    if (st->tl.cursor < 0)
        st->tl.cursor = 0;
}

static unsigned pan(struct ui_state *st, int64_t delta)
{
    ui_pan(&st->tl.t0, &st->tl.t1, delta, st->tl.lo, st->tl.hi);
    return UI_REDRAW;
}

unsigned ui_act_tl_left(struct ui_state *st, const struct model *m)
{
    (void)m;
    clamp_cursor(st);
    if (st->tl.cursor > 0) {
        st->tl.cursor--;
        return UI_REDRAW;
    }
    return pan(st, -(st->tl.t1 - st->tl.t0) / 4);
}

unsigned ui_act_tl_right(struct ui_state *st, const struct model *m)
{
    (void)m;
    clamp_cursor(st);
    if (st->tl.cursor + 1 < ui_timeline_cols(st)) {
        st->tl.cursor++;
        return UI_REDRAW;
    }
    return pan(st, (st->tl.t1 - st->tl.t0) / 4);
}

unsigned ui_act_tl_pan_left(struct ui_state *st, const struct model *m)
{
    (void)m;
    return pan(st, -(st->tl.t1 - st->tl.t0) / 2);
}

unsigned ui_act_tl_pan_right(struct ui_state *st, const struct model *m)
{
    (void)m;
    return pan(st, (st->tl.t1 - st->tl.t0) / 2);
}

static unsigned lane_to(struct ui_state *st, size_t lane)
{
    size_t rows = ui_timeline_lane_rows(st);

    if (st->nlanes == 0)
        return 0;
    st->tl.lane = lane >= st->nlanes ? st->nlanes - 1 : lane;
    if (st->tl.lane < st->tl.lane_top)
        st->tl.lane_top = st->tl.lane;
    else if (rows > 0 && st->tl.lane >= st->tl.lane_top + rows)
        st->tl.lane_top = st->tl.lane - rows + 1;
    return UI_REDRAW;
}

unsigned ui_act_tl_up(struct ui_state *st, const struct model *m)
{
    (void)m;
    return lane_to(st, st->tl.lane > 0 ? st->tl.lane - 1 : 0);
}

unsigned ui_act_tl_down(struct ui_state *st, const struct model *m)
{
    (void)m;
    return lane_to(st, st->tl.lane + 1);
}

unsigned ui_act_tl_page_up(struct ui_state *st, const struct model *m)
{
    size_t rows = ui_timeline_lane_rows(st);
    (void)m;
    rows = rows ? rows : 1;
    return lane_to(st, st->tl.lane > rows ? st->tl.lane - rows : 0);
}

unsigned ui_act_tl_page_down(struct ui_state *st, const struct model *m)
{
    size_t rows = ui_timeline_lane_rows(st);
    (void)m;
    return lane_to(st, st->tl.lane + (rows ? rows : 1));
}

unsigned ui_act_tl_first(struct ui_state *st, const struct model *m)
{
    (void)m;
    return lane_to(st, 0);
}

unsigned ui_act_tl_last(struct ui_state *st, const struct model *m)
{
    (void)m;
    return lane_to(st, st->nlanes ? st->nlanes - 1 : 0);
}

static unsigned zoom(struct ui_state *st, double factor)
{
    struct ui_timescale ts;
    clamp_cursor(st);
    ui_timeline_scale(st, &ts);
    // Zoom around the middle of the cursor cell, and keep the cursor on it.
    int64_t center = (ui_col_time(&ts, st->tl.cursor) + ui_col_time(&ts, st->tl.cursor + 1)) / 2;
    ui_zoom(&st->tl.t0, &st->tl.t1, center, factor, min_span(st), st->tl.lo, st->tl.hi);
    ui_timeline_scale(st, &ts);
    int col = ui_time_col(&ts, center);
    st->tl.cursor = col < 0 ? 0 : (col >= ts.cols ? ts.cols - 1 : col);
    return UI_REDRAW;
}

unsigned ui_act_tl_zoom_in(struct ui_state *st, const struct model *m)
{
    (void)m;
    unsigned f = zoom(st, 0.5);
    /* A summary job past its summaries' buckets: a column is less than a
     * bucket, which holds no more detail; the rank's events do. */
    if (st->job && st->tl.lane < st->nlanes && st->lanes[st->tl.lane].rank < st->job->n) {
        const struct summary_job_rank *r = &st->job->ranks[st->lanes[st->tl.lane].rank];
        struct ui_timescale ts;
        ui_timeline_scale(st, &ts);
        int64_t col = ts.cols > 0 ? (st->tl.t1 - st->tl.t0) / ts.cols : 0;
        char width[32];
        ui_format_duration((int64_t)1 << r->tiles.width_log2, width, sizeof width);
        if (r->has_tiles && col < ((int64_t)1 << r->tiles.width_log2))
            ui_state_message(st, false, "past rank %lld's buckets of %s: Enter opens it with "
                             "its events", (long long)r->rank.rank, width);
    }
    return f;
}

unsigned ui_act_tl_zoom_out(struct ui_state *st, const struct model *m)
{
    (void)m;
    return zoom(st, 2.0);
}

unsigned ui_act_tl_fit(struct ui_state *st, const struct model *m)
{
    (void)m;
    st->tl.t0 = st->tl.lo;
    st->tl.t1 = st->tl.hi;
    clamp_cursor(st);
    return UI_REDRAW;
}

unsigned ui_act_tl_details(struct ui_state *st, const struct model *m)
{
    clamp_cursor(st);
    uint32_t pos = ui_timeline_pick(st, m, st->tl.lane, st->tl.cursor);
    if (pos == MODEL_NONE && st->job && st->tl.lane < st->nlanes &&
        st->lanes[st->tl.lane].rank < st->job->n) {
        // the lanes come from the summaries' tiles: the rank's events are in
        // its summary, loaded behind the screen (the loop does it; in test
        // mode the message stays)
        return ui_state_open_summary_rank(st, st->lanes[st->tl.lane].rank, NULL);
    }
    if (pos == MODEL_NONE) {
        ui_state_message(st, false, "no event under the cursor");
        return UI_REDRAW;
    }
    if (ui_details_build(st, m, st->lanes[st->tl.lane].rank, pos) != 0) {
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    st->overlay = UI_OVERLAY_DETAILS;
    st->overlay_top = 0;
    return UI_REDRAW;
}

unsigned ui_act_tl_window(struct ui_state *st, const struct model *m)
{
    char a[32], b[32];

    (void)m;
    if (st->has_window && !st->tl.has_mark) {
        st->has_window = false;
        ui_state_message(st, false, "window cleared");
        return UI_REDRAW | UI_RESELECT;
    }
    struct ui_timescale ts;
    ui_timeline_scale(st, &ts);
    clamp_cursor(st);
    if (!st->tl.has_mark) {
        st->tl.has_mark = true;
        st->tl.mark = ui_col_time(&ts, st->tl.cursor);
        ui_format_duration(st->tl.mark, a, sizeof a);
        ui_state_message(st, false, "window starts at %s: move and press w again", a);
        return UI_REDRAW;
    }
    int64_t here = ui_col_time(&ts, st->tl.cursor), cell_end = ui_col_time(&ts, st->tl.cursor + 1);
    st->window_start = st->tl.mark < here ? st->tl.mark : here;
    st->window_end = st->tl.mark < here ? cell_end : st->tl.mark + (cell_end - here);
    st->has_window = true;
    st->tl.has_mark = false;
    st->tl.t0 = st->tl.t1 = 0;  // fit the new window once it is selected
    ui_format_duration(st->window_start, a, sizeof a);
    ui_format_duration(st->window_end, b, sizeof b);
    ui_state_message(st, false, "window %s - %s (w clears it)", a, b);
    return UI_REDRAW | UI_RESELECT;
}

unsigned ui_act_jump_next(struct ui_state *st, const struct model *m)
{
    return ui_jumps_step(st, m, 1);
}

unsigned ui_act_jump_prev(struct ui_state *st, const struct model *m)
{
    return ui_jumps_step(st, m, -1);
}

unsigned ui_tl_search_apply(struct ui_state *st, const struct model *m, const char *text)
{
    snprintf(st->tl_search, sizeof st->tl_search, "%s", text);
    if (!text[0]) {
        st->njumps = 0;
        return UI_REDRAW;
    }
    size_t n = ui_find_instances(st, m, text, false, -1);
    if (n == 0) {
        ui_state_message(st, true, "no event name contains \"%s\"", text);
        return UI_REDRAW;
    }
    // Start from the first match at or after the cursor.
    int64_t t = cursor_time(st);
    size_t i = 0;
    while (i < n && m->ranks[st->jumps[i].rank].events[st->jumps[i].pos].ts < t)
        i++;
    st->jump = (i == n ? 0 : i) + n - 1;  // jump_step adds one
    st->jump %= n;
    return ui_jumps_step(st, m, 1);
}

const char *ui_tl_prompt_initial(const struct ui_state *st, enum ui_prompt p)
{
    return p == UI_PROMPT_SEARCH ? st->tl_search : (p == UI_PROMPT_GOTO ? "" : NULL);
}

unsigned ui_tl_prompt_apply(struct ui_state *st, const struct model *m, enum ui_prompt p,
                            const char *text)
{
    if (p == UI_PROMPT_GOTO)
        return ui_tl_goto_apply(st, m, text);
    return p == UI_PROMPT_SEARCH ? ui_tl_search_apply(st, m, text) : UI_REDRAW;
}
