#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings_rules.h"
#include "util/vec.h"

/* The GPU's idle time that the host causes. Each gap of a rank's GPU (no
 * kernel, copy or memset on any stream) inside its kept steps is given to
 * one cause, so that no time is counted twice:
 *   step_gap:        the kernels before and after it are of different
 *                    iterations (the GPU waits between steps while the CPU
 *                    loads data or runs the optimizer);
 *   sync_stall:      the host sat in a cuda/hip *Synchronize call when the
 *                    GPU ran dry (it waited for the queue to drain and then
 *                    had to fill it again);
 *   launch_overhead: the launch call of the kernel after it was still
 *                    running when the gap began, the kernel runs shorter
 *                    than that call, and the gap is short (at most the
 *                    launch statistics' runtime cutoff, 50 us): the cost
 *                    of launching one small kernel after another;
 *   host_bound:      the other gaps whose next kernel's launch call was
 *                    still running when they began.
 * A gap whose next kernel was queued before it began waits on the GPU
 * itself (an event, another stream) and is nobody's here. */

#define HOST_BOUND_MIN_SHARE 0.05
#define LAUNCH_MIN_SHARE 0.05
#define SYNC_MIN_SHARE 0.02
#define STEP_GAP_MIN_SHARE 0.02
#define PAGEABLE_MIN_SHARE 0.01
/* A synchronize call ends a few microseconds after the GPU drains. */
#define SYNC_SLACK_NS 5000

enum gap_cause { GAP_STEP = 0, GAP_SYNC, GAP_LAUNCH, GAP_HOST, GAP_CAUSES };

static const enum finding_kind gap_kind[GAP_CAUSES] = {
    FINDING_STEP_GAP, FINDING_SYNC, FINDING_LAUNCH_OVERHEAD, FINDING_HOST_BOUND,
};
static const double gap_min[GAP_CAUSES] = {
    STEP_GAP_MIN_SHARE, SYNC_MIN_SHARE, LAUNCH_MIN_SHARE, HOST_BOUND_MIN_SHARE,
};

struct span {
    int64_t ts, end;
    uint32_t pos;
};

static int span_cmp(const void *pa, const void *pb)
{
    const struct span *a = pa, *b = pb;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

static bool is_sync_call(const struct model *m, const struct event *ev)
{
    if (ev->kind != EV_KIND_RUNTIME)
        return false;
    const char *s = model_str(m, ev->name);
    return (strncmp(s, "cuda", 4) == 0 || strncmp(s, "hip", 3) == 0) &&
           strstr(s, "Synchronize") != NULL;
}

/* What one rank's gaps add up to, by cause. */
struct rank_gaps {
    struct fhit hit[GAP_CAUSES];
    int64_t total[GAP_CAUSES];
    size_t steps[GAP_CAUSES];       /* steps holding some */
    int64_t last_step[GAP_CAUSES];
    int64_t worst[GAP_CAUSES];
    uint32_t prev[GAP_CAUSES];      /* the kernel before the worst gap */
    uint32_t sync[GAP_CAUSES];      /* the sync call of the worst sync gap */
    size_t count[GAP_CAUSES];
};

/* fr's GPU events (busy) in the order of a sort by (ts, pos): a merge of
 * the model's stream indices (each by ts, ties in file order), or, in a
 * model without them, a sorted copy. */
struct gpu_order {
    const struct model *m;
    const struct rank_model *r;
    struct span *sorted;     /* the copy, or NULL: the merge */
    size_t nsorted, at;
    size_t *next;            /* per stream, its next pos */
    struct span *heap;       /* each unfinished stream's next event; pos = stream */
    size_t nheap;
};

static bool span_less(const struct gpu_order *g, struct span a, struct span b)
{
    if (a.ts != b.ts)
        return a.ts < b.ts;
    return g->r->streams[a.pos].pos[g->next[a.pos]] < g->r->streams[b.pos].pos[g->next[b.pos]];
}

static void sift_down(struct gpu_order *g, size_t i)
{
    struct span v = g->heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= g->nheap)
            break;
        if (c + 1 < g->nheap && span_less(g, g->heap[c + 1], g->heap[c]))
            c++;
        if (!span_less(g, g->heap[c], v))
            break;
        g->heap[i] = g->heap[c];
        i = c;
    }
    g->heap[i] = v;
}

/* Moves stream s's cursor to its next busy event: heap entry h for it, or
 * false at its end. */
static bool stream_head(struct gpu_order *g, size_t s, struct span *h)
{
    const struct stream_index *si = &g->r->streams[s];
    for (; g->next[s] < si->n; g->next[s]++) {
        const struct event *ev = &g->r->events[si->pos[g->next[s]]];
        if (busy_is_gpu_event(g->m, ev)) {
            *h = (struct span){ev->ts, ev->ts + ev->dur, (uint32_t)s};
            return true;
        }
    }
    return false;
}

/* The next GPU event into *out; false after the last. */
static bool gpu_next(struct gpu_order *g, struct span *out)
{
    if (g->sorted) {
        if (g->at == g->nsorted)
            return false;
        *out = g->sorted[g->at++];
        return true;
    }
    if (g->nheap == 0)
        return false;
    size_t s = g->heap[0].pos;
    *out = g->heap[0];
    out->pos = g->r->streams[s].pos[g->next[s]++];
    if (!stream_head(g, s, &g->heap[0]))
        g->heap[0] = g->heap[--g->nheap];
    if (g->nheap)
        sift_down(g, 0);
    return true;
}

static void gpu_order_fini(struct gpu_order *g)
{
    free(g->sorted);
    free(g->next);
    free(g->heap);
}

/* Starts the merge, or sorts a copy when the model has no stream index. */
static int gpu_order_init(struct gpu_order *g, const struct model *m, const struct rank_model *r)
{
    *g = (struct gpu_order){.m = m, .r = r};
    if (m->rows_only) {
        size_t cap = 0;
        for (size_t i = 0; i < r->nrows; i++) {
            const struct event *ev = &r->events[r->rows[i]];
            if (!busy_is_gpu_event(m, ev))
                continue;
            if (VEC_PUSH_SLOT(g->sorted, g->nsorted, cap))
                return ERR_NOMEM;
            g->sorted[g->nsorted++] = (struct span){ev->ts, ev->ts + ev->dur, r->rows[i]};
        }
        if (g->nsorted)
            qsort(g->sorted, g->nsorted, sizeof *g->sorted, span_cmp);
        return 0;
    }
    size_t n = r->nstreams ? r->nstreams : 1;
    g->next = calloc(n, sizeof *g->next);
    g->heap = malloc(n * sizeof *g->heap);
    if (!g->next || !g->heap)
        return ERR_NOMEM;
    for (size_t s = 0; s < r->nstreams; s++)
        if (stream_head(g, s, &g->heap[g->nheap]))
            g->nheap++;
    for (size_t i = g->nheap / 2; i-- > 0;)
        sift_down(g, i);
    return 0;
}

/* The sync calls of fr, by ts. */
static int collect_syncs(struct fctx *c, const struct frank *fr, struct span **sync,
                         size_t *nsync)
{
    const struct rank_model *r = fr->r;
    size_t cs = 0;
    *sync = NULL;
    *nsync = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (ev->kind != EV_KIND_RUNTIME || busy_is_gpu_event(c->m, ev) || !is_sync_call(c->m, ev))
            continue;
        if (VEC_PUSH_SLOT(*sync, *nsync, cs))
            return ERR_NOMEM;
        (*sync)[(*nsync)++] = (struct span){ev->ts, ev->ts + ev->dur, r->rows[i]};
    }
    if (*nsync)
        qsort(*sync, *nsync, sizeof **sync, span_cmp);
    return 0;
}

/* The sync call the host sat in when the GPU drained at t, or MODEL_NONE. */
static uint32_t sync_at(const struct span *v, size_t n, int64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {   // the first call starting after t
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].ts <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0 && lo - i <= 8;)
        if (v[i].end + SYNC_SLACK_NS >= t)
            return v[i].pos;
    return MODEL_NONE;
}

static enum gap_cause cause_of(const struct rank_model *r, const struct event *prev,
                               const struct event *next, int64_t start, uint32_t sync)
{
    if (prev->iteration != next->iteration && (prev->iteration >= 0 || next->iteration >= 0))
        return GAP_STEP;
    if (sync != MODEL_NONE)
        return GAP_SYNC;
    if (next->partner == MODEL_NONE || next->partner >= r->nevents)
        return GAP_CAUSES;
    const struct event *launch = &r->events[next->partner];
    if (launch->ts + launch->dur < start)
        return GAP_CAUSES;   // queued before the GPU went idle: not the host's wait
    return next->kind == EV_KIND_KERNEL && next->dur < launch->dur ? GAP_LAUNCH : GAP_HOST;
}

static void add_gap(const struct frank *fr, struct rank_gaps *g, enum gap_cause k, int64_t s,
                    int64_t e, uint32_t prev, uint32_t next, uint32_t sync)
{
    int64_t step, in = fctx_in_steps(fr, s, e, &step);
    if (in <= 0)
        return;
    g->total[k] += in;
    g->count[k]++;
    if (step >= 0 && step != g->last_step[k]) {
        g->steps[k]++;
        g->last_step[k] = step;
    }
    if (in > g->worst[k]) {
        g->worst[k] = in;
        g->hit[k].start = s;
        g->hit[k].end = e;
        g->hit[k].pos = next;
        g->hit[k].step = step;
        g->hit[k].stream = fr->r->events[next].stream;
        g->prev[k] = prev;
        g->sync[k] = sync;
    }
}

static int rank_gaps(struct fctx *c, struct frank *fr, struct rank_gaps *g)
{
    struct gpu_order gpu;
    struct span *sync, cur;
    size_t nsync;
    int rc = gpu_order_init(&gpu, c->m, fr->r);
    if (rc == 0)
        rc = collect_syncs(c, fr, &sync, &nsync);
    else
        sync = NULL;
    const struct rank_model *r = fr->r;
    for (int k = 0; k < GAP_CAUSES; k++) {
        g->last_step[k] = INT64_MIN;
        g->hit[k] = (struct fhit){.rank = r->rank, .rank_at = (size_t)(fr - c->ranks),
                                  .pos = MODEL_NONE, .stream = -1, .step = -1};
    }
    int64_t end = INT64_MIN;
    uint32_t prev = MODEL_NONE;
    while (rc == 0 && gpu_next(&gpu, &cur)) {
        if (prev != MODEL_NONE && cur.ts > end) {
            uint32_t s = sync_at(sync, nsync, end);
            enum gap_cause k = cause_of(r, &r->events[prev], &r->events[cur.pos], end, s);
            if (k == GAP_LAUNCH && cur.ts - end > c->o->runtime_cutoff_ns)
                k = GAP_HOST;
            if (k < GAP_CAUSES)
                add_gap(fr, g, k, end, cur.ts, prev, cur.pos, s);
        }
        if (cur.end > end) {
            end = cur.end;
            prev = cur.pos;
        }
    }
    gpu_order_fini(&gpu);
    free(sync);
    double steps = fr->nsteps ? (double)fr->nsteps : 1.0;
    for (int k = 0; k < GAP_CAUSES; k++) {
        g->hit[k].per_iter = fctx_per_iteration(fr, (double)g->total[k]);
        g->hit[k].support = fr->nsteps ? (double)g->steps[k] / steps : 1.0;
    }
    fr->step_gap = g->hit[GAP_STEP].per_iter;
    fr->sync_wait = g->hit[GAP_SYNC].per_iter;
    fr->launch_wait = g->hit[GAP_LAUNCH].per_iter;
    fr->host_wait = g->hit[GAP_HOST].per_iter;
    return rc;
}

/* The op name of event pos of fr ("(none)" when MODEL_NONE) into buf. */
static void op_name(const struct fctx *c, const struct frank *fr, uint32_t pos, char *buf,
                    size_t n)
{
    if (pos == MODEL_NONE)
        snprintf(buf, n, "no recorded op");
    else
        fctx_name(c, fr->r->events[pos].name, buf, n);
}

/* The thread that launched event pos (its partner), MODEL_NONE unknown. */
static uint32_t launch_thread(const struct rank_model *r, uint32_t pos)
{
    if (pos == MODEL_NONE || r->events[pos].partner >= r->nevents)
        return MODEL_NONE;
    return r->events[r->events[pos].partner].thread;
}

/* The title and cause of a sync_stall: the call the host sat in and the
 * ops around it. */
static void describe_sync(const struct fctx *c, struct finding *f, const struct frank *fr,
                          const struct rank_gaps *g, const char *mine)
{
    const struct rank_model *r = fr->r;
    const enum gap_cause k = GAP_SYNC;
    char cost[32], op[128], outer[128];
    long long rank = (long long)r->rank;
    fctx_duration(cost, sizeof cost, f->cost_ns);
    uint32_t s = g->sync[k];
    uint32_t inner = MODEL_NONE, top = MODEL_NONE;
    if (s != MODEL_NONE) {
        const struct event *ev = &r->events[s];
        inner = fctx_cpu_op_during(c, fr, ev->thread, ev->ts, ev->ts + ev->dur, false);
        top = fctx_cpu_op_during(c, fr, ev->thread, ev->ts, ev->ts + ev->dur, true);
    }
    char call[64];
    op_name(c, fr, s, call, sizeof call);
    op_name(c, fr, inner, op, sizeof op);
    op_name(c, fr, top, outer, sizeof outer);
    str_appendf(f->title, sizeof f->title, "Host synchronizations stall the GPU: %s per iteration",
                cost);
    str_appendf(f->cause, sizeof f->cause,
                "On rank %lld the host waits in %s (called by %s, inside %s) until the GPU's queue "
                "is empty; the GPU then idles %s per iteration until the next launch (%zu times). "
                "Avoid .item(), .cpu(), nonzero() and printing tensors inside the step.",
                rank, call, op, outer, mine, g->count[k]);
}

static void describe(struct fctx *c, struct finding *f, enum gap_cause k, const struct frank *fr,
                     const struct rank_gaps *g)
{
    const struct rank_model *r = fr->r;
    const struct fhit *h = &g->hit[k];
    char cost[32], mine[32], worst[32], op[128], kernel[128];
    fctx_duration(cost, sizeof cost, f->cost_ns);
    fctx_duration(mine, sizeof mine, h->per_iter);
    fctx_duration(worst, sizeof worst, (double)g->worst[k]);
    uint32_t th = launch_thread(r, h->pos);
    uint32_t during = th == MODEL_NONE ? MODEL_NONE
                                       : fctx_cpu_op_during(c, fr, th, h->start, h->end, true);
    op_name(c, fr, during, op, sizeof op);
    fctx_name(c, r->events[h->pos].name, kernel, sizeof kernel);
    long long rank = (long long)r->rank;
    double steps = fr->nsteps ? (double)fr->nsteps : 1.0;
    switch (k) {
    case GAP_STEP:
        str_appendf(f->title, sizeof f->title, "GPU idle between iterations: %s per iteration", cost);
        str_appendf(f->cause, sizeof f->cause,
                 "On rank %lld the GPU has no work for %s per iteration between the last kernel of "
                 "one step and the first of the next (the longest %s), while the CPU runs %s: data "
                 "loading or the optimizer. Prefetch the data (DataLoader workers, pinned memory) "
                 "or overlap the optimizer with the next step.",
                 rank, mine, worst, op);
        break;
    case GAP_SYNC:
        describe_sync(c, f, fr, g, mine);
        break;
    case GAP_LAUNCH:
        str_appendf(f->title, sizeof f->title, "Kernels launch slower than they run: %s per iteration",
                 cost);
        str_appendf(f->cause, sizeof f->cause,
                 "On rank %lld, %.0f kernels per iteration run shorter than their launch calls take, "
                 "so the GPU idles %s per iteration between them; the longest wait is before %s, "
                 "launched under %s. Fuse them (torch.compile), capture them in a CUDA graph, or "
                 "give each more work.",
                 rank, (double)g->count[k] / steps, mine, kernel, op);
        break;
    default:
        str_appendf(f->title, sizeof f->title, "GPU waits for the host: %s per iteration", cost);
        str_appendf(f->cause, sizeof f->cause,
                 "On rank %lld the GPU is idle %s per iteration waiting for work the host has not "
                 "launched yet; the longest wait (%s, before %s) is while %s runs on the CPU. Move "
                 "CPU work out of the step, or launch ahead (CUDA graphs, torch.compile).",
                 rank, mine, worst, kernel, op);
        break;
    }
    f->evidence.view = FINDING_VIEW_IDLE;
    snprintf(f->evidence.table, sizeof f->evidence.table, "idle_time_breakdown");
    snprintf(f->evidence.row, sizeof f->evidence.row, "rank=%lld stream=%lld", rank,
             (long long)h->stream);
}

int findings_host(struct fctx *c, struct err *e)
{
    struct rank_gaps *g = calloc(c->nranks ? c->nranks : 1, sizeof *g);
    struct fhit *hits = malloc((c->nranks ? c->nranks : 1) * sizeof *hits);
    int rc = g && hits ? 0 : ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; rc == 0 && i < c->nranks; i++) {
        if (!c->ranks[i].has_events) {
            c->needs_events |= 1u << FINDING_HOST_BOUND | 1u << FINDING_LAUNCH_OVERHEAD |
                               1u << FINDING_SYNC | 1u << FINDING_STEP_GAP;
            continue;
        }
        rc = rank_gaps(c, &c->ranks[i], &g[n++]);
    }
    for (int k = 0; rc == 0 && k < GAP_CAUSES; k++) {
        for (size_t i = 0; i < n; i++)
            hits[i] = g[i].hit[k];
        size_t w;
        bool nomem;
        struct finding *f = fctx_raise(c, gap_kind[k], hits, n, gap_min[k], &w, &nomem);
        if (nomem)
            rc = ERR_NOMEM;
        if (f)
            describe(c, f, (enum gap_cause)k, &c->ranks[hits[w].rank_at], &g[w]);
    }
    free(g);
    free(hits);
    return rc ? err_set(e, ERR_NOMEM, "findings: out of memory") : 0;
}

/* Pageable copies: Memcpy events between pageable host memory and the
 * device (the copy is staged through a bounce buffer and blocks the host). */
static bool is_pageable(const struct model *m, const struct event *ev)
{
    return ev->kind == EV_KIND_MEMCPY && strstr(model_str(m, ev->name), "Pageable") != NULL;
}

static void rank_copies(struct fctx *c, const struct frank *fr, struct fhit *h, size_t *count)
{
    const struct rank_model *r = fr->r;
    int64_t total = 0, worst = 0, last = INT64_MIN;
    size_t steps = 0;
    *h = (struct fhit){.rank = r->rank, .rank_at = (size_t)(fr - c->ranks), .pos = MODEL_NONE,
                       .stream = -1, .step = -1};
    *count = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (!is_pageable(c->m, ev))
            continue;
        int64_t step, in = fctx_in_steps(fr, ev->ts, ev->ts + ev->dur, &step);
        if (in <= 0)
            continue;
        total += in;
        ++*count;
        if (step >= 0 && step != last) {
            steps++;
            last = step;
        }
        if (in > worst) {
            worst = in;
            *h = (struct fhit){.rank = r->rank, .rank_at = h->rank_at, .start = ev->ts,
                               .end = ev->ts + ev->dur, .pos = r->rows[i], .stream = ev->stream,
                               .step = step};
        }
    }
    h->per_iter = fctx_per_iteration(fr, (double)total);
    h->support = fr->nsteps ? (double)steps / (double)fr->nsteps : 1.0;
}

int findings_copies(struct fctx *c, struct err *e)
{
    struct fhit *hits = malloc((c->nranks ? c->nranks : 1) * sizeof *hits);
    size_t *counts = malloc((c->nranks ? c->nranks : 1) * sizeof *counts);
    if (!hits || !counts) {
        free(hits);
        free(counts);
        return err_set(e, ERR_NOMEM, "findings: out of memory");
    }
    size_t n = 0;
    for (size_t i = 0; i < c->nranks; i++) {
        if (!c->ranks[i].has_events) {
            c->needs_events |= 1u << FINDING_PAGEABLE_COPY;
            continue;
        }
        rank_copies(c, &c->ranks[i], &hits[n], &counts[n]);
        n++;
    }
    size_t w;
    bool nomem;
    struct finding *f = fctx_raise(c, FINDING_PAGEABLE_COPY, hits, n, PAGEABLE_MIN_SHARE, &w, &nomem);
    if (f) {
        const struct frank *fr = &c->ranks[hits[w].rank_at];
        const struct rank_model *r = fr->r;
        char cost[32], copy[128], op[128];
        fctx_duration(cost, sizeof cost, hits[w].per_iter);
        fctx_name(c, r->events[hits[w].pos].name, copy, sizeof copy);
        uint32_t th = launch_thread(r, hits[w].pos), launch = r->events[hits[w].pos].partner;
        uint32_t by = th == MODEL_NONE ? MODEL_NONE
                                       : fctx_cpu_op_during(c, fr, th, r->events[launch].ts,
                                                            r->events[launch].ts + 1, false);
        op_name(c, fr, by, op, sizeof op);
        char job[32];
        fctx_duration(job, sizeof job, f->cost_ns);
        str_appendf(f->title, sizeof f->title, "Copies from pageable host memory: %s per iteration",
                    job);
        str_appendf(f->cause, sizeof f->cause,
                 "On rank %lld, %.0f copies per iteration (%s) go through pageable host memory: "
                 "they are staged, block the host and cannot overlap; they take %s per iteration, "
                 "the longest made by %s. Pin the host tensors (pin_memory) and copy with "
                 "non_blocking=True.",
                 (long long)r->rank, (double)counts[w] / (fr->nsteps ? (double)fr->nsteps : 1.0),
                 copy, cost, op);
        f->evidence.view = FINDING_VIEW_OVERVIEW;
        snprintf(f->evidence.table, sizeof f->evidence.table, "memory_bw_summary");
        snprintf(f->evidence.row, sizeof f->evidence.row, "rank=%lld", (long long)r->rank);
    }
    free(hits);
    free(counts);
    return nomem ? err_set(e, ERR_NOMEM, "findings: out of memory") : 0;
}
