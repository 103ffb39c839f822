#include "config.h"
#include "ui/views/timeline_details.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/annotations.h"
#include "ui/views/timeline_lanes.h"
#include "ui/widgets/layout.h"
#include "ui/widgets/text.h"
#include "util/vec.h"

#define STACK_MAX 32

struct lines {
    struct ui_state *st;
    size_t cap;
    int rc;
};

static void add(struct lines *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct lines *l, const char *fmt, ...)
{
    struct ui_state *st = l->st;
    char buf[2048];
    va_list ap;

    if (l->rc)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (st->noverlay_lines == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        const char **n = arena_calloc(&st->overlay_arena, cap, sizeof *n);
        if (!n) {
            l->rc = ERR_NOMEM;
            return;
        }
        if (st->noverlay_lines)
            memcpy(n, st->overlay_lines, st->noverlay_lines * sizeof *n);
        st->overlay_lines = n;
        l->cap = cap;
    }
    const char *copy = arena_strndup(&st->overlay_arena, buf, strlen(buf));
    if (!copy) {
        l->rc = ERR_NOMEM;
        return;
    }
    st->overlay_lines[st->noverlay_lines++] = copy;
}

static const struct thread_index *thread_of(const struct model *m, const struct rank_model *r,
                                            const struct event *ev)
{
    uint32_t pid = model_event_pid(m, ev), tid = model_event_tid(m, ev);
    for (size_t t = 0; t < r->nthreads; t++)
        if (r->threads[t].pid == pid && r->threads[t].tid == tid)
            return &r->threads[t];
    return NULL;
}

/* Index of pos in t->pos (found by its ts), or MODEL_NONE. */
static uint32_t index_in_thread(const struct thread_index *t, const struct event *events,
                                uint32_t pos)
{
    size_t i = ui_thread_lower_bound(t, events, events[pos].ts);
    for (; i < t->n && events[t->pos[i]].ts == events[pos].ts; i++)
        if (t->pos[i] == pos)
            return (uint32_t)i;
    return MODEL_NONE;
}

/* Position (in rank->events) of the CPU op that encloses the event at pos
 * on its thread (the launcher's op for a runtime call), or MODEL_NONE. */
static uint32_t ui_enclosing_op(const struct model *m, const struct rank_model *r, uint32_t pos)
{
    if (pos >= r->nevents)
        return MODEL_NONE;
    const struct thread_index *t = thread_of(m, r, &r->events[pos]);
    if (!t)
        return MODEL_NONE;
    uint32_t i = index_in_thread(t, r->events, pos);
    for (int hops = 0; i != MODEL_NONE && hops < 1024; hops++) {
        i = t->parent[i];
        if (i != MODEL_NONE && r->events[t->pos[i]].kind == EV_KIND_CPU_OP)
            return t->pos[i];
    }
    return MODEL_NONE;
}

static void add_stack(struct lines *l, const struct model *m, const struct rank_model *r,
                      uint32_t pos, bool gpu)
{
    uint32_t stack[STACK_MAX];
    size_t len = 0;
    struct err e = {0, ""};
    char buf[1536];
    int n = 0;

    if (annotation_stack(m, r, pos, gpu, stack, STACK_MAX, &len, &e) != 0) {
        add(l, "Annotations (%s)  (%s)", gpu ? "GPU" : "CPU", e.msg);
        return;
    }
    if (len == 0) {
        add(l, "Annotations (%s)  none", gpu ? "GPU" : "CPU");
        return;
    }
    buf[0] = 0;
    for (size_t i = 0; i < len && i < STACK_MAX && n >= 0 && (size_t)n < sizeof buf; i++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%s", i ? " > " : "",
                      model_str(m, r->events[stack[i]].name));
    add(l, "Annotations (%s)  %s", gpu ? "GPU" : "CPU", buf);
}

static void add_launch(struct lines *l, const struct model *m, const struct rank_model *r,
                       const struct event *ev)
{
    char a[32], b[32];
    const struct event *p = ev->partner < r->nevents ? &r->events[ev->partner] : NULL;
    bool gpu = ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY ||
               ev->kind == EV_KIND_MEMSET;

    if (!p) {
        add(l, "%s  none found", gpu ? "Launched by" : "Launches");
        return;
    }
    if (gpu) {
        int64_t delay = ev->ts - p->ts - p->dur;
        ui_format_duration(p->dur, a, sizeof a);
        ui_format_duration(delay > 0 ? delay : 0, b, sizeof b);
        add(l, "Launched by  %s (%s, %s)", model_str(m, p->name), model_kind_name(p->kind), a);
        uint32_t op = ui_enclosing_op(m, r, ev->partner);
        add(l, "CPU op       %s", op != MODEL_NONE ? model_str(m, r->events[op].name) : "none");
        add(l, "Launch delay %s", b);
    } else {
        ui_format_duration(p->dur, a, sizeof a);
        add(l, "Launches     %s (stream %lld, %s)", model_str(m, p->name), (long long)p->stream,
            a);
    }
}

static void add_identity(struct lines *l, const struct model *m, const struct rank_model *r,
                         const struct event *ev)
{
    char a[32], b[32];

    add(l, "Name         %s", model_str(m, ev->name));
    const char *cat = model_str(m, model_event_cat(m, ev));
    if (strcmp(cat, model_kind_name(ev->kind)) == 0)
        add(l, "Category     %s", cat);
    else
        add(l, "Category     %s (%s)", cat, model_kind_name(ev->kind));
    if (ev->stream >= 0)
        add(l, "Rank         %lld · stream %lld", (long long)r->rank, (long long)ev->stream);
    else
        add(l, "Rank         %lld · pid %s · tid %s", (long long)r->rank,
            model_str(m, model_event_pid(m, ev)), model_str(m, model_event_tid(m, ev)));
    ui_format_duration(ev->ts, a, sizeof a);
    ui_format_duration(ev->dur, b, sizeof b);
    add(l, "Start        %s (%lld ns from the trace start)", a, (long long)ev->ts);
    add(l, "Duration     %s (%lld ns)", b, (long long)ev->dur);
    if (event_correlation(ev) >= 0)
        add(l, "Correlation  %lld", (long long)event_correlation(ev));
    else
        add(l, "Correlation  none");
    if (ev->iteration == MODEL_ITER_NONE)
        add(l, "Iteration    none (outside every ProfilerStep)");
    else if (ev->iteration == MODEL_ITER_NAN)
        add(l, "Iteration    none (HTA gives this event no iteration)");
    else
        add(l, "Iteration    %d", ev->iteration);
}

int ui_details_build(struct ui_state *st, const struct model *m, uint32_t rank, uint32_t pos)
{
    struct lines l = {st, 0, 0};

    arena_reset(&st->overlay_arena);
    st->overlay_lines = NULL;
    st->noverlay_lines = 0;
    if (rank >= m->nranks || pos >= m->ranks[rank].nevents)
        return 0;
    const struct rank_model *r = &m->ranks[rank];
    const struct event *ev = &r->events[pos];
    add_identity(&l, m, r, ev);
    if (event_correlation(ev) >= 0 || ev->partner != MODEL_NONE)
        add_launch(&l, m, r, ev);
    add_stack(&l, m, r, pos, true);
    add_stack(&l, m, r, pos, false);
    if (ev->flags & EV_FLAG_OVERLAPS)
        add(&l, "Note         starts before the previous event on its stream ended "
                "(kept and marked)");
    if (model_is_graph_work(r, ev))
        add(&l, "Note         launched by a CUDA/HIP graph: its launch delay is the graph's");
    if (ev->flags & EV_FLAG_FLOW_LINKED)
        add(&l, "Note         linked to its launcher by a flow event, not a correlation id");
    return l.rc;
}

int ui_details_measure(struct ui_state *st, const struct model *m, int64_t a, int64_t b)
{
    struct lines l = {st, 0, 0};
    char from[32], to[32], d[32], busy[32], label[64];

    arena_reset(&st->overlay_arena);
    st->overlay_lines = NULL;
    st->noverlay_lines = 0;
    ui_format_duration(a, from, sizeof from);
    ui_format_duration(b, to, sizeof to);
    ui_format_duration(b - a, d, sizeof d);
    add(&l, "From %s to %s: %s", from, to, d);
    add(&l, "%-14s %10s %12s %7s", "Lane", "events", "busy", "busy %");
    for (size_t i = 0; i < st->nlanes; i++) {
        struct ui_span_acc acc;
        ui_span_init(&acc, a, b);
        ui_lane_span(m, &st->lanes[i], &acc);
        ui_lane_label(st, m, &st->lanes[i], label, sizeof label);
        ui_format_duration(acc.busy, busy, sizeof busy);
        add(&l, "%-14s %10zu %12s %6.1f%%", label, acc.events, busy,
            b > a ? 100.0 * (double)acc.busy / (double)(b - a) : 0.0);
    }
    return l.rc;
}
