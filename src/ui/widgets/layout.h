#ifndef HTX_UI_LAYOUT_H
#define HTX_UI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* Geometry without curses: where each pane sits on the screen, how a time
 * window maps onto columns, and which event each timeline cell shows.
 * Everything here is pure arithmetic over the model's indices, so Check
 * tests it without a terminal. */

/* ---- screen ---- */

#define UI_MIN_ROWS 10
#define UI_MIN_COLS 40

struct ui_rect {
    int y, x, h, w;
};

struct ui_layout {
    int rows, cols;
    bool too_small;           /* below UI_MIN_ROWS x UI_MIN_COLS: show a message */
    struct ui_rect title;     /* top line */
    struct ui_rect status;    /* bottom line */
    struct ui_rect left;      /* rank/stream pane box (w = 0 when hidden) */
    struct ui_rect main;      /* view box */
    struct ui_rect left_in;   /* inside the left box */
    struct ui_rect tabs;      /* tab lines inside the main box */
    struct ui_rect body;      /* the view's rows */
};

/* Splits a rows x cols screen; tab_lines is how many lines the tab bar needs
 * at the main box's inner width (see ui_tabs_place). hide_left gives the
 * whole width to the main box (the rank/stream pane hidden by the user). */
void ui_layout_screen(int rows, int cols, int tab_lines, bool hide_left, struct ui_layout *out);

/* Width of the main box's inside for a screen of cols columns. */
int ui_layout_main_width(int cols, bool hide_left);

/* Places n tab labels of the given display widths (plus 1 column of gap)
 * on lines of width w, wrapping; writes each tab's line and column and
 * returns the number of lines (at least 1). */
int ui_tabs_place(const int *widths, size_t n, int w, int *line, int *col);

/* ---- time <-> columns ---- */

/* A window [t0, t1) of nanoseconds drawn over cols cells; t1 > t0. Cell c
 * covers [t0 + c*span/cols, t0 + (c+1)*span/cols). */
struct ui_timescale {
    int64_t t0, t1;
    int cols;
};

/* Start time of column col (0 <= col <= cols; col = cols gives t1). */
int64_t ui_col_time(const struct ui_timescale *s, int col);

/* Column containing t: floor((t - t0) * cols / span), clamped to
 * [-1, cols] so callers can tell "left of" and "right of" the window. */
int ui_time_col(const struct ui_timescale *s, int64_t t);

/* Zooms [*t0, *t1) by factor (< 1 zooms in) keeping `center` at the same
 * place on screen; the span stays within [min_span, hi - lo] and the
 * window inside [lo, hi). */
void ui_zoom(int64_t *t0, int64_t *t1, int64_t center, double factor, int64_t min_span,
             int64_t lo, int64_t hi);

/* Moves the window by delta ns, kept inside [lo, hi) when it fits. */
void ui_pan(int64_t *t0, int64_t *t1, int64_t delta, int64_t lo, int64_t hi);

/* A tick spacing of 1, 2 or 5 x 10^k ns such that ticks are at least
 * min_cols columns apart on a window of span ns over cols columns. */
int64_t ui_nice_tick(int64_t span, int cols, int min_cols);

/* ---- cell bucketing ---- */

/* What one timeline cell shows: the event covering the cell's start time,
 * else the first event starting inside the cell (MODEL_NONE: idle), and how
 * many events touch the cell (saturating). */
struct ui_pick {
    uint32_t pos;     /* position in rank->events, or MODEL_NONE */
    uint32_t count;
};

/* Fills out[0..ts->cols) for one GPU stream. Each cell costs O(log n) at
 * most (a galloping search from the previous cell plus a binary search of
 * the prefix max end), so a redraw is O(cells log n) whatever n is.
 * Borrows everything until return. */
void ui_bucket_stream(const struct stream_index *s, const struct event *events,
                      const struct ui_timescale *ts, struct ui_pick *out);

/* The same for a CPU thread lane: the deepest event covering the cell's
 * start (found through the parent links), else the first one starting in
 * the cell. */
void ui_bucket_thread(const struct thread_index *t, const struct event *events,
                      const struct ui_timescale *ts, struct ui_pick *out);

/* The same with ts_copy[i] = events[s->pos[i]].ts (NULL: read through
 * the positions). The copy keeps the searches in one contiguous array,
 * which is what makes a redraw over 10 M events fast. */
void ui_bucket_stream_ts(const struct stream_index *s, const struct event *events,
                         const int64_t *ts_copy, const struct ui_timescale *ts,
                         struct ui_pick *out);
void ui_bucket_thread_ts(const struct thread_index *t, const struct event *events,
                         const int64_t *ts_copy, const struct ui_timescale *ts,
                         struct ui_pick *out);

/* The same over a thread's events. */
size_t ui_thread_lower_bound(const struct thread_index *th, const struct event *events,
                             int64_t t);

#endif
