#include "config.h"
#include "ui/views/timeline_lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/classify.h"
#include "analysis/tiles.h"
#include "ui/widgets/layout.h"
#include "util/vec.h"

static bool thread_on(const struct ui_rank *ur, uint32_t pid, uint32_t tid)
{
    for (size_t i = 0; i < ur->nthreads; i++)
        if (ur->threads[i].pid == pid && ur->threads[i].tid == tid)
            return ur->thread_on[i];
    return false;
}

/* Copies a lane's start times into one array (the bucketing's searches
 * then stay in cache); NULL when memory is short, which is only slower. */
static int64_t *copy_ts(const struct event *ev, const uint32_t *pos, size_t n)
{
    int64_t *ts = malloc((n ? n : 1) * sizeof *ts);
    for (size_t i = 0; ts && i < n; i++)
        ts[i] = ev[pos[i]].ts;
    return ts;
}

static void free_lanes(struct ui_lane *lanes, size_t n)
{
    for (size_t i = 0; i < n && lanes; i++)
        free(lanes[i].ts);
    free(lanes);
}

int ui_lanes_build(struct ui_state *st, const struct model *m)
{
    struct ui_lane *lanes = NULL;
    size_t n = 0, cap = 0;

    for (size_t r = 0; r < m->nranks && r < st->nranks; r++) {
        const struct rank_model *rm = &m->ranks[r];
        const struct ui_rank *ur = &st->ranks[r];
        if (!ur->included || !rm->selected)
            continue;
        for (size_t s = 0; s < rm->nstreams; s++) {
            if (!ui_state_stream_on(st, r, rm->streams[s].stream))
                continue;
            if (VEC_PUSH_SLOT(lanes, n, cap) != 0)
                goto nomem;
            lanes[n++] = (struct ui_lane){UI_LANE_STREAM, (uint32_t)r, s, rm->streams[s].stream,
                                          copy_ts(rm->events, rm->streams[s].pos,
                                                  rm->streams[s].n)};
        }
        for (size_t t = 0; t < rm->nthreads; t++) {
            if (!thread_on(ur, rm->threads[t].pid, rm->threads[t].tid))
                continue;
            if (VEC_PUSH_SLOT(lanes, n, cap) != 0)
                goto nomem;
            lanes[n++] = (struct ui_lane){UI_LANE_THREAD, (uint32_t)r, t, -1,
                                          copy_ts(rm->events, rm->threads[t].pos,
                                                  rm->threads[t].n)};
        }
    }
    free_lanes(st->lanes, st->nlanes);
    st->lanes = lanes;
    st->nlanes = n;
    if (st->tl.lane >= n)
        st->tl.lane = n ? n - 1 : 0;
    if (st->tl.lane_top > st->tl.lane)
        st->tl.lane_top = st->tl.lane;
    return 0;
nomem:
    free_lanes(lanes, n);
    return ERR_NOMEM;
}

int ui_timeline_label_w(int w)
{
    int lw = w / 6;
    return lw < 6 ? 6 : (lw > 14 ? 14 : lw);
}

int ui_timeline_cols(const struct ui_state *st)
{
    int w = st->layout.body.w;
    int c = w - ui_timeline_label_w(w) - 1;
    return c > 1 ? c : 1;
}

size_t ui_timeline_lane_rows(const struct ui_state *st)
{
    int h = st->layout.body.h - UI_TIMELINE_PINNED;
    return h > 0 ? (size_t)h : 0;
}

void ui_timeline_scale(const struct ui_state *st, struct ui_timescale *ts)
{
    ts->t0 = st->tl.t0;
    ts->t1 = st->tl.t1 > st->tl.t0 ? st->tl.t1 : st->tl.t0 + 1;
    ts->cols = ui_timeline_cols(st);
}

int64_t ui_timeline_cursor_time(const struct ui_state *st)
{
    struct ui_timescale ts;
    ui_timeline_scale(st, &ts);
    int64_t start = ui_col_time(&ts, st->tl.cursor), end = ui_col_time(&ts, st->tl.cursor + 1);
    return st->tl.has_at && st->tl.at >= start && st->tl.at < end ? st->tl.at : start;
}

void ui_timeline_extent(struct ui_state *st, const struct model *m)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;

    for (size_t r = 0; r < m->nranks && r < st->nranks; r++) {
        const struct rank_model *rm = &m->ranks[r];
        if (!st->ranks[r].included || !rm->selected || rm->end_ns <= rm->start_ns)
            continue;
        lo = rm->start_ns < lo ? rm->start_ns : lo;
        hi = rm->end_ns > hi ? rm->end_ns : hi;
    }
    if (lo == INT64_MAX) {
        lo = 0;
        hi = 1;
    }
    int64_t min_span = ui_timeline_cols(st);
    if (hi - lo < min_span)
        hi = lo + min_span;
    st->tl.lo = lo;
    st->tl.hi = hi;
    if (st->tl.t1 <= st->tl.t0 || st->tl.t1 <= lo || st->tl.t0 >= hi ||
        st->tl.t1 - st->tl.t0 > hi - lo) {
        st->tl.t0 = lo;
        st->tl.t1 = hi;
    }
    ui_pan(&st->tl.t0, &st->tl.t1, 0, lo, hi);
    // A resize can leave the cursor column past the last one, and so past
    // the end of the trace: keep it on the data.
    struct ui_timescale ts;
    ui_timeline_scale(st, &ts);
    if (st->tl.cursor >= ts.cols)
        st->tl.cursor = ts.cols - 1;
    if (st->tl.cursor < 0)
        st->tl.cursor = 0;
    int last = ui_time_col(&ts, hi - 1);
    if (last >= 0 && st->tl.cursor > last)
        st->tl.cursor = last;
}

uint32_t ui_timeline_pick(const struct ui_state *st, const struct model *m, size_t lane, int col)
{
    struct ui_timescale ts, one;
    struct ui_pick p = {MODEL_NONE, 0};

    if (lane >= st->nlanes)
        return MODEL_NONE;
    const struct ui_lane *l = &st->lanes[lane];
    const struct rank_model *rm = &m->ranks[l->rank];
    ui_timeline_scale(st, &ts);
    one.t0 = ui_col_time(&ts, col);
    one.t1 = ui_col_time(&ts, col + 1);
    if (one.t1 <= one.t0)
        one.t1 = one.t0 + 1;
    one.cols = 1;
    if (l->kind == UI_LANE_STREAM && l->index < rm->nstreams)
        ui_bucket_stream_ts(&rm->streams[l->index], rm->events, l->ts, &one, &p);
    else if (l->kind == UI_LANE_THREAD && l->index < rm->nthreads)
        ui_bucket_thread_ts(&rm->threads[l->index], rm->events, l->ts, &one, &p);
    return p.pos;
}

/* Does ev live on a GPU stream lane (rather than a CPU thread lane)? */
static bool on_stream(const struct event *ev)
{
    switch (ev->kind) {
    case EV_KIND_CPU_OP:
    case EV_KIND_RUNTIME:
    case EV_KIND_DRIVER:
    case EV_KIND_PYTHON:
    case EV_KIND_USER_ANNOTATION:
        return false;
    default:
        return ev->stream >= 0;
    }
}

static long lane_of_event(const struct ui_state *st, const struct model *m, uint32_t r,
                          const struct event *ev)
{
    const struct rank_model *rm = &m->ranks[r];
    bool gpu = on_stream(ev);
    uint32_t pid = model_event_pid(m, ev), tid = model_event_tid(m, ev);

    for (size_t i = 0; i < st->nlanes; i++) {
        const struct ui_lane *l = &st->lanes[i];
        if (l->rank != r)
            continue;
        if (gpu && l->kind == UI_LANE_STREAM && l->stream == ev->stream)
            return (long)i;
        if (!gpu && l->kind == UI_LANE_THREAD && l->index < rm->nthreads &&
            rm->threads[l->index].pid == pid && rm->threads[l->index].tid == tid)
            return (long)i;
    }
    return -1;
}

/* Switches on the stream or thread that holds ev, so it gets a lane. */
static void switch_on(struct ui_state *st, const struct model *m, uint32_t r,
                      const struct event *ev)
{
    struct ui_rank *ur = &st->ranks[r];
    uint32_t pid = model_event_pid(m, ev), tid = model_event_tid(m, ev);

    for (size_t i = 0; i < ur->nstreams; i++)
        if (on_stream(ev) && ur->streams[i] == ev->stream)
            ur->stream_on[i] = true;
    for (size_t i = 0; i < ur->nthreads; i++)
        if (!on_stream(ev) && ur->threads[i].pid == pid && ur->threads[i].tid == tid)
            ur->thread_on[i] = true;
    ui_lanes_build(st, m);
}

int ui_timeline_goto(struct ui_state *st, const struct model *m, uint32_t r, uint32_t pos)
{
    if (r >= m->nranks || pos >= m->ranks[r].nevents || !st->ranks[r].included)
        return ERR_EMPTY;
    const struct event *ev = &m->ranks[r].events[pos];
    long lane = lane_of_event(st, m, r, ev);
    if (lane < 0) {
        switch_on(st, m, r, ev);
        lane = lane_of_event(st, m, r, ev);
        if (lane < 0)
            return ERR_EMPTY;
    }
    int64_t span = st->tl.t1 - st->tl.t0;
    int64_t dur = ev->dur > 0 ? ev->dur : 0;
    if (dur * 5 > span * 4)
        span = dur + dur / 4;
    // Zoom in until the target spans at least two cells: its middle cell
    // then shows it and not a neighbour (n/N would seem to land elsewhere).
    int64_t cols = ui_timeline_cols(st);
    int64_t fill = (dur > 0 ? dur : 1) * cols / 2;
    if (span > fill)
        span = fill;
    int64_t min_span = cols;
    span = span < min_span ? min_span : span;
    st->tl.t0 = ev->ts + dur / 2 - span / 2;
    st->tl.t1 = st->tl.t0 + span;
    ui_pan(&st->tl.t0, &st->tl.t1, 0, st->tl.lo, st->tl.hi);
    struct ui_timescale ts;
    ui_timeline_scale(st, &ts);
    int col = ui_time_col(&ts, ev->ts + dur / 2);
    st->tl.cursor = col < 0 ? 0 : (col >= ts.cols ? ts.cols - 1 : col);
    st->tl.lane = (size_t)lane;
    size_t rows = ui_timeline_lane_rows(st);
    if (st->tl.lane < st->tl.lane_top)
        st->tl.lane_top = st->tl.lane;
    else if (rows > 0 && st->tl.lane >= st->tl.lane_top + rows)
        st->tl.lane_top = st->tl.lane - rows + 1;
    return 0;
}

static enum ui_cell_class ui_event_class(const struct model *m, const struct event *ev)
{
    switch (ev->kind) {
    case EV_KIND_KERNEL:
        switch (kernel_classify(model_str(m, ev->name), m->sem.hta_kernel_classes)) {
        case KC_COMPUTATION: return UI_CLASS_COMPUTE;
        case KC_COMMUNICATION: return UI_CLASS_COMM;
        case KC_MEMORY: return UI_CLASS_MEMORY;
        default: return UI_CLASS_OTHER;
        }
    case EV_KIND_MEMCPY:
    case EV_KIND_MEMSET:
        return UI_CLASS_MEMORY;
    case EV_KIND_USER_ANNOTATION:
    case EV_KIND_GPU_USER_ANNOTATION:
        return UI_CLASS_ANNOTATION;
    case EV_KIND_CPU_OP:
    case EV_KIND_RUNTIME:
    case EV_KIND_DRIVER:
    case EV_KIND_PYTHON:
        return UI_CLASS_CPU;
    default:
        return ev->stream >= 0 ? UI_CLASS_OTHER : UI_CLASS_CPU;
    }
}

/* Kernel classes by name id, remembered: classifying costs string tests,
 * and a screen shows few distinct names many times. The cache is logically
 * part of the model's strings, so filling it through a const state is fine. */
static enum ui_cell_class class_cached(const struct ui_state *st, const struct model *m,
                                       const struct event *ev)
{
    if (ev->kind != EV_KIND_KERNEL || ev->name >= st->nname_class)
        return ui_event_class(m, ev);
    uint8_t *slot = &st->name_class[ev->name];
    if (*slot == 0)
        *slot = (uint8_t)(ui_event_class(m, ev) + 1);
    return (enum ui_cell_class)(*slot - 1);
}

uint32_t ui_class_glyph(const struct ui_grid *g, enum ui_cell_class c)
{
    static const uint32_t utf8[UI_CLASS_COUNT] = {' ', 0x2588, 0x2593, 0x2592, 0x2591,
                                                  0x2584, 0x2580};
    static const uint32_t ascii[UI_CLASS_COUNT] = {' ', '#', '=', '~', ':', '+', '^'};
    return g->ascii ? ascii[c] : utf8[c];
}

enum ui_style ui_class_style(enum ui_cell_class c)
{
    static const enum ui_style styles[UI_CLASS_COUNT] = {
        UI_STYLE_IDLE, UI_STYLE_COMPUTE, UI_STYLE_COMM, UI_STYLE_MEMORY,
        UI_STYLE_OTHER, UI_STYLE_CPU, UI_STYLE_DIM,
    };
    return styles[c];
}

const char *ui_class_name(enum ui_cell_class c)
{
    static const char *names[UI_CLASS_COUNT] = {
        "idle", "compute", "comm", "memory", "other", "cpu", "annotation",
    };
    return names[c];
}

/* A summary-only rank's lane (st->job): the tiles of the lane's stream or
 * thread, the class with the most busy time in each column's buckets. */
static const struct tile_lane *summary_lane(const struct ui_state *st, const struct model *m,
                                            const struct ui_lane *lane)
{
    if (lane->rank >= st->job->n || lane->rank >= m->nranks)
        return NULL;
    const struct tiles *t = &st->job->ranks[lane->rank].tiles;
    if (lane->kind == UI_LANE_STREAM)
        return tiles_find_lane(t, TILE_LANE_STREAM, lane->stream);
    size_t k = 0;   // the index-th thread lane: model_new_from_summaries keeps their order
    for (size_t i = 0; i < t->nlanes; i++)
        if (t->lanes[i].kind == TILE_LANE_THREAD && k++ == lane->index)
            return &t->lanes[i];
    return NULL;
}

static void draw_summary_lane(const struct ui_state *st, const struct model *m,
                              const struct ui_lane *lane, const struct ui_timescale *ts,
                              struct ui_grid *g, int y, int x)
{
    static const enum ui_cell_class cls[TILE_BUSY] = {UI_CLASS_COMPUTE, UI_CLASS_COMM,
                                                      UI_CLASS_MEMORY, UI_CLASS_OTHER};
    const struct tile_lane *tl = summary_lane(st, m, lane);
    unsigned wlog = st->job->ranks[lane->rank < st->job->n ? lane->rank : 0].tiles.width_log2;
    for (int c = 0; c < ts->cols; c++) {
        enum ui_cell_class k = UI_CLASS_IDLE;
        int64_t a = ui_col_time(ts, c) + m->origin_ns, b = ui_col_time(ts, c + 1) + m->origin_ns;
        int64_t lo = tiles_bucket_of(a, wlog), hi = tiles_bucket_of(b > a ? b - 1 : a, wlog) + 1;
        if (tl && lane->kind == UI_LANE_THREAD) {
            k = tiles_sum(&tl->runs[TILE_BUSY], lo, hi) > 0 ? UI_CLASS_CPU : UI_CLASS_IDLE;
        } else if (tl) {
            int64_t best = 0;
            for (int cl = 0; cl < TILE_BUSY; cl++) {
                int64_t ns = tiles_sum(&tl->runs[cl], lo, hi);
                if (ns > best) {
                    best = ns;
                    k = cls[cl];
                }
            }
        }
        ui_grid_put(g, y, x + c, ui_class_glyph(g, k), ui_class_style(k));
    }
}

void ui_timeline_draw_lane(const struct ui_state *st, const struct model *m,
                           const struct ui_lane *lane, const struct ui_timescale *ts,
                           struct ui_grid *g, int y, int x)
{
    struct ui_pick small[512], *picks = small;
    const struct rank_model *rm = &m->ranks[lane->rank];

    if (rm->summary_only && st->job) {
        draw_summary_lane(st, m, lane, ts, g, y, x);
        return;
    }

    if (ts->cols > 512) {
        picks = malloc((size_t)ts->cols * sizeof *picks);
        if (!picks)
            return;
    }
    if (lane->kind == UI_LANE_STREAM && lane->index < rm->nstreams)
        ui_bucket_stream_ts(&rm->streams[lane->index], rm->events, lane->ts, ts, picks);
    else if (lane->kind == UI_LANE_THREAD && lane->index < rm->nthreads)
        ui_bucket_thread_ts(&rm->threads[lane->index], rm->events, lane->ts, ts, picks);
    else
        memset(picks, 0xff, (size_t)ts->cols * sizeof *picks);
    for (int c = 0; c < ts->cols; c++) {
        enum ui_cell_class k = UI_CLASS_IDLE;
        enum ui_style style = UI_STYLE_IDLE;
        uint32_t glyph = 0;
        if (picks[c].pos != MODEL_NONE) {
            const struct event *ev = &rm->events[picks[c].pos];
            k = class_cached(st, m, ev);
            // Kernels overlapping on one stream are kept, and marked.
            style = ev->flags & EV_FLAG_OVERLAPS ? UI_STYLE_WARN : ui_class_style(k);
            // A graph's work (launched by one graph launch call) is hatched.
            if (model_is_graph_work(rm, ev))
                glyph = g->ascii ? '%' : 0x259A;
        }
        ui_grid_put(g, y, x + c, glyph ? glyph : ui_class_glyph(g, k), style);
    }
    if (picks != small)
        free(picks);
}

void ui_lane_label(const struct ui_state *st, const struct model *m, const struct ui_lane *lane,
                   char *buf, size_t n)
{
    const struct rank_model *rm = &m->ranks[lane->rank];

    (void)st;
    if (lane->kind == UI_LANE_STREAM) {
        snprintf(buf, n, "r%lld s%lld", (long long)rm->rank, (long long)lane->stream);
        return;
    }
    // Short thread names ("main") read best; long ones ("thread 35 (python)")
    // would be cut to nothing, so those lanes show the thread id. A name or
    // tid another thread of the rank shares would make two lanes look one:
    // then the tid, or the pid and tid. (Middle truncation keeps a tid's
    // last, distinguishing digits.)
    const struct thread_index *t = &rm->threads[lane->index];
    bool name_shared = false, tid_shared = false;
    for (size_t i = 0; i < rm->nthreads; i++) {
        if (i == lane->index)
            continue;
        name_shared |= t->name && rm->threads[i].name == t->name;
        tid_shared |= rm->threads[i].tid == t->tid;
    }
    if (t->name && !name_shared && strtab_len(&m->strings, t->name) <= 12)
        snprintf(buf, n, "r%lld %s", (long long)rm->rank, model_str(m, t->name));
    else if (!tid_shared)
        snprintf(buf, n, "r%lld t%s", (long long)rm->rank, model_str(m, t->tid));
    else
        snprintf(buf, n, "r%lld p%s t%s", (long long)rm->rank, model_str(m, t->pid),
                 model_str(m, t->tid));
}

void ui_lane_span(const struct model *m, const struct ui_lane *l, struct ui_span_acc *acc)
{
    const struct rank_model *rm = &m->ranks[l->rank];
    if (l->kind == UI_LANE_STREAM && l->index < rm->nstreams) {
        const struct stream_index *s = &rm->streams[l->index];
        size_t first = 0, end = s->n && s->max_end ? model_stream_window(s, rm->events, acc->a,
                                                                         acc->b, &first) : 0;
        for (size_t i = first; i < end; i++) {
            const struct event *ev = &rm->events[s->pos[i]];
            ui_span_add(acc, ev->ts, ev->ts + ev->dur);
        }
    } else if (l->kind == UI_LANE_THREAD && l->index < rm->nthreads) {
        const struct thread_index *th = &rm->threads[l->index];
        size_t i = th->n ? ui_thread_lower_bound(th, rm->events, acc->a) : 0;
        // From the outermost event around the one before a: it may reach into the range.
        if (i > 0 && th->parent) {
            i--;
            for (size_t guard = 0; th->parent[i] != MODEL_NONE && th->parent[i] < i &&
                                   guard < th->n; guard++)
                i = th->parent[i];
        }
        for (; i < th->n && rm->events[th->pos[i]].ts < acc->b; i++) {
            const struct event *ev = &rm->events[th->pos[i]];
            ui_span_add(acc, ev->ts, ev->ts + ev->dur);
        }
    }
}
