#ifndef HTX_UI_NAV_H
#define HTX_UI_NAV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Moving through time, without curses or the model: reading a time the
 * user types, finding the next event start on a lane, measuring what lies
 * between two marks, and the history that Esc walks back through (a
 * browser's back and forward). Pure functions over plain data, so Check
 * tests them without a screen. */

/* ---- a time typed by the user ---- */

/* Parses "12.5ms", "+3us", "-1s", "250 ns" ("µs" is "us"): a decimal
 * number with at most 9 decimals and a unit (ns, us, ms, s). With a sign
 * the time is relative to `now`, else absolute. The result is in ns and
 * within [0, INT64_MAX / 2]: a negative result is an error. Returns 0, or
 * -1 with a reason in why (always terminated; n bytes). */
int ui_parse_time(const char *text, int64_t now, int64_t *out, char *why, size_t n);

/* ---- events on a lane ---- */

/* The next event start at or after `t` (index, or n when none), and the
 * last one before `t` (index, or n when none): what the timeline's next
 * and previous event keys step to, skipping empty space. */
size_t ui_ts_next(const int64_t *ts, size_t n, int64_t t);
size_t ui_ts_prev(const int64_t *ts, size_t n, int64_t t);

/* ---- measuring between two marks ---- */

/* Events overlapping [a, b) and the time they keep busy (their union,
 * clipped to [a, b)). Feed intervals in ascending start order. */
struct ui_span_acc {
    int64_t a, b;
    int64_t covered;      /* union reaches up to here */
    int64_t busy;         /* ns */
    size_t events;
};

void ui_span_init(struct ui_span_acc *s, int64_t a, int64_t b);
/* Adds the interval [ts, end); ignores it when it misses [a, b). */
void ui_span_add(struct ui_span_acc *s, int64_t ts, int64_t end);

/* ---- back and forward ---- */

/* Where the user is: the view and the timeline's window, cursor and lane. */
struct ui_place {
    int view;             /* enum ui_view_id */
    int64_t t0, t1;
    int cursor;
    size_t lane, lane_top;
};

#define UI_HISTORY_MAX 64  /* places kept; the oldest go first */

/* places[cur] is where the user is (refreshed on leaving it); places
 * after cur are the ones back walked away from. */
struct ui_history {
    struct ui_place places[UI_HISTORY_MAX];
    size_t n, cur;
};

/* Starts at `here`. */
void ui_history_init(struct ui_history *h, const struct ui_place *here);

/* The user leaves `here` for a new place: `here` is kept to come back to,
 * the places ahead are forgotten, and the new place (`to`, refreshed when
 * left) becomes current. */
void ui_history_visit(struct ui_history *h, const struct ui_place *here,
                      const struct ui_place *to);

/* One step back (dir -1) or forward (+1) from `here`: true with the place
 * to go to in *out, or false when there is none (nothing changes). */
bool ui_history_step(struct ui_history *h, const struct ui_place *here, int dir,
                     struct ui_place *out);

#endif
