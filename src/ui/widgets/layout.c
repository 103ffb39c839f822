#include "config.h"
#include "ui/widgets/layout.h"

/* ---- screen ---- */

static int left_width(int cols, bool hide_left)
{
    if (hide_left)
        return 0;
    if (cols >= 100)
        return 24;
    if (cols >= 60)
        return cols / 4 < 16 ? 16 : cols / 4;
    return 0;  // too narrow for two panes: the view gets the whole width
}

int ui_layout_main_width(int cols, bool hide_left)
{
    int w = cols - left_width(cols, hide_left) - 2;
    return w > 0 ? w : 0;
}

void ui_layout_screen(int rows, int cols, int tab_lines, bool hide_left, struct ui_layout *out)
{
    struct ui_layout l = {0};
    int lw = left_width(cols, hide_left);

    l.rows = rows;
    l.cols = cols;
    l.too_small = rows < UI_MIN_ROWS || cols < UI_MIN_COLS;
    if (tab_lines < 1)
        tab_lines = 1;
    l.title = (struct ui_rect){0, 0, 1, cols};
    l.status = (struct ui_rect){rows - 1, 0, 1, cols};
    l.left = (struct ui_rect){1, 0, rows - 2, lw};
    l.main = (struct ui_rect){1, lw, rows - 2, cols - lw};
    if (lw > 0)
        l.left_in = (struct ui_rect){2, 1, rows - 4, lw - 2};
    l.tabs = (struct ui_rect){2, lw + 1, tab_lines, cols - lw - 2};
    l.body = (struct ui_rect){2 + tab_lines, lw + 1, rows - 4 - tab_lines, cols - lw - 2};
    if (l.body.h < 0)
        l.body.h = 0;
    *out = l;
}

int ui_tabs_place(const int *widths, size_t n, int w, int *line, int *col)
{
    int y = 0, x = 0;

    for (size_t i = 0; i < n; i++) {
        if (x > 0 && x + widths[i] > w) {
            y++;
            x = 0;
        }
        line[i] = y;
        col[i] = x;
        x += widths[i] + 1;
    }
    return y + 1;
}

/* ---- time <-> columns ---- */

static int64_t muldiv(int64_t a, int64_t b, int64_t c)
{
#ifdef __SIZEOF_INT128__
    return (int64_t)((__int128)a * b / c);
#else
    return (int64_t)((long double)a * b / c);
#endif
}

int64_t ui_col_time(const struct ui_timescale *s, int col)
{
    return s->t0 + muldiv(col, s->t1 - s->t0, s->cols);
}

int ui_time_col(const struct ui_timescale *s, int64_t t)
{
    if (t < s->t0)
        return -1;
    if (t >= s->t1)
        return s->cols;
    return (int)muldiv(t - s->t0, s->cols, s->t1 - s->t0);
}

static void clamp_window(int64_t *t0, int64_t span, int64_t lo, int64_t hi)
{
    if (span >= hi - lo) {
        // Wider than the data: centre the data.
        *t0 = lo - (span - (hi - lo)) / 2;
        return;
    }
    if (*t0 < lo)
        *t0 = lo;
    if (*t0 > hi - span)
        *t0 = hi - span;
}

void ui_zoom(int64_t *t0, int64_t *t1, int64_t center, double factor, int64_t min_span,
             int64_t lo, int64_t hi)
{
    int64_t span = *t1 - *t0;
    double want = (double)span * factor;
    int64_t max_span = hi - lo > min_span ? hi - lo : min_span;
    int64_t ns = want > (double)max_span ? max_span : (int64_t)want;

    if (ns < min_span)
        ns = min_span;
    if (center < *t0 || center > *t1)
        center = *t0 + span / 2;
    double frac = span > 0 ? (double)(center - *t0) / (double)span : 0.5;
    int64_t n0 = center - (int64_t)(frac * (double)ns);
    clamp_window(&n0, ns, lo, hi);
    *t0 = n0;
    *t1 = n0 + ns;
}

void ui_pan(int64_t *t0, int64_t *t1, int64_t delta, int64_t lo, int64_t hi)
{
    int64_t span = *t1 - *t0;
    int64_t n0 = *t0 + delta;

    clamp_window(&n0, span, lo, hi);
    *t0 = n0;
    *t1 = n0 + span;
}

int64_t ui_nice_tick(int64_t span, int cols, int min_cols)
{
    if (cols <= 0 || span <= 0)
        return 1;
    double need = (double)span * min_cols / cols;
    int64_t base = 1;
    for (;;) {
        static const int steps[] = {1, 2, 5};
        for (int i = 0; i < 3; i++)
            if ((double)(base * steps[i]) >= need)
                return base * steps[i];
        if (base > INT64_MAX / 100)
            return base * 10;
        base *= 10;
    }
}

/* ---- cell bucketing ---- */

/* Start times in index order: a contiguous copy when the caller has one
 * (cache-friendly), else through the positions. */
struct keys {
    const struct event *ev;
    const uint32_t *pos;
    const int64_t *ts;
};

static inline int64_t ts_at(const struct keys *k, size_t i)
{
    return k->ts ? k->ts[i] : k->ev[k->pos[i]].ts;
}

/* First i in [lo, n) with ts >= t, searching outwards from lo: O(log k)
 * for k skipped events, so neighbouring cells stay cheap. */
static size_t gallop(const struct keys *k, size_t n, size_t lo, int64_t t)
{
    size_t step = 1, a = lo, b;

    if (lo >= n || ts_at(k, lo) >= t)
        return lo;
    while (a + step < n && ts_at(k, a + step) < t) {
        a += step;
        step *= 2;
    }
    // ts[a] < t; the answer is in (a, min(a + step, n)].
    b = a + step < n ? a + step : n;
    a++;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (ts_at(k, mid) < t)
            a = mid + 1;
        else
            b = mid;
    }
    return a;
}

size_t ui_thread_lower_bound(const struct thread_index *t, const struct event *events, int64_t ts)
{
    struct keys k = {events, t->pos, NULL};
    return gallop(&k, t->n, 0, ts);
}

/* First j < lo with max_end[j] > t, or lo when none (max_end ascends).
 * The answer is nearly always just below lo (the previous event runs over
 * the cell's start), so the search gallops down from lo: O(log distance). */
static size_t first_ending_after(const int64_t *max_end, size_t lo, int64_t t)
{
    size_t step = 1, hi = lo, a;

    if (lo == 0 || max_end[lo - 1] <= t)
        return lo;
    // max_end[hi - 1] > t; widen downwards until a position ends by t.
    while (hi > step && max_end[hi - 1 - step] > t) {
        hi -= step;
        step *= 2;
    }
    a = hi > step ? hi - step : 0;   // max_end[a - 1] <= t, or a == 0
    hi--;                            // max_end[hi] > t
    while (a < hi) {
        size_t mid = a + (hi - a) / 2;
        if (max_end[mid] > t)
            hi = mid;
        else
            a = mid + 1;
    }
    return hi;
}

static uint32_t sat_count(size_t k)
{
    return k > UINT32_MAX ? UINT32_MAX : (uint32_t)k;
}

void ui_bucket_stream_ts(const struct stream_index *s, const struct event *events,
                         const int64_t *ts_copy, const struct ui_timescale *ts,
                         struct ui_pick *out)
{
    struct keys k = {events, s->pos, ts_copy};
    int64_t a = ui_col_time(ts, 0);
    size_t lo = gallop(&k, s->n, 0, a);

    for (int c = 0; c < ts->cols; c++) {
        int64_t b = ui_col_time(ts, c + 1);
        if (b <= a)
            b = a + 1;
        size_t hi = gallop(&k, s->n, lo, b);
        size_t cov = first_ending_after(s->max_end, lo, a);
        bool covered = cov < lo;
        out[c].count = sat_count(hi - lo + (covered ? 1 : 0));
        if (covered)
            out[c].pos = s->pos[cov];
        else
            out[c].pos = lo < hi ? s->pos[lo] : MODEL_NONE;
        lo = hi;
        a = b;
    }
}

void ui_bucket_stream(const struct stream_index *s, const struct event *events,
                      const struct ui_timescale *ts, struct ui_pick *out)
{
    ui_bucket_stream_ts(s, events, NULL, ts, out);
}

/* Deepest event covering t among i and its ancestors (thread nesting). */
static uint32_t covering_thread(const struct thread_index *t, const struct event *ev, size_t i,
                                int64_t at)
{
    for (int hops = 0; i != MODEL_NONE && i < t->n && hops < 256; hops++) {
        const struct event *e = &ev[t->pos[i]];
        if (e->ts + e->dur > at)
            return (uint32_t)i;
        i = t->parent[i];
    }
    return MODEL_NONE;
}

void ui_bucket_thread_ts(const struct thread_index *t, const struct event *events,
                         const int64_t *ts_copy, const struct ui_timescale *ts,
                         struct ui_pick *out)
{
    struct keys k = {events, t->pos, ts_copy};
    int64_t a = ui_col_time(ts, 0);
    size_t lo = gallop(&k, t->n, 0, a);

    for (int c = 0; c < ts->cols; c++) {
        int64_t b = ui_col_time(ts, c + 1);
        if (b <= a)
            b = a + 1;
        size_t hi = gallop(&k, t->n, lo, b);
        // The deepest event running at a starts at or before a: walk up from
        // the last one that does.
        size_t at = gallop(&k, t->n, lo, a + 1);
        uint32_t cov = at > 0 ? covering_thread(t, events, at - 1, a) : MODEL_NONE;
        bool before = cov != MODEL_NONE && events[t->pos[cov]].ts < a;
        out[c].count = sat_count(hi - lo + (before ? 1 : 0));
        if (cov != MODEL_NONE)
            out[c].pos = t->pos[cov];
        else
            out[c].pos = lo < hi ? t->pos[lo] : MODEL_NONE;
        lo = hi;
        a = b;
    }
}

void ui_bucket_thread(const struct thread_index *t, const struct event *events,
                      const struct ui_timescale *ts, struct ui_pick *out)
{
    ui_bucket_thread_ts(t, events, NULL, ts, out);
}
