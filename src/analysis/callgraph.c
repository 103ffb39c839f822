#include "config.h"
#include "analysis/callgraph.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/memory.h"
#include "util/hmap.h"
#include "util/sort.h"
#include "util/vec.h"

/* Endpoint classes at one time point. HTA's comparator orders a close of a
 * non-zero event before an open, a zero-length event after non-zero opens
 * and before non-zero closes: when all three meet, that is a cycle, and HTA's
 * result depends on Python's sort. We sort by (time, class) and then move the
 * zero-length block first whenever a non-zero close shares its time point,
 * which agrees with every pairwise rule HTA can apply consistently. */
enum { EP_CLOSE = 0, EP_OPEN = 1, EP_ZERO = 2 };

/* 4 bytes: node << 1 | close. Two a nested event, sorted, so the largest
 * scratch of the sequences analysis: an endpoint only names its event, and
 * the comparison reads time, duration and index from the event. */
typedef uint32_t endpoint;
#define EP_MAX_NODES ((uint32_t)1 << 31)

static inline uint32_t ep_node(endpoint p)
{
    return p >> 1;
}

static inline bool ep_close(endpoint p)
{
    return p & 1;
}

static inline endpoint make_ep(uint32_t node, bool close)
{
    return node << 1 | (uint32_t)close;
}

/* An endpoint with its time: most comparisons in a merge are decided by
 * the times, without reading the two events (random accesses, most of the
 * call graph's time on a big rank). */
struct timed_ep {
    int64_t t;
    endpoint p;
};

struct thread_rec {
    uint64_t key;        /* pid << 32 | tid (string ids) */
    size_t first, count; /* into by_thread */
    bool nested;         /* not skipped as a GPU stream */
    bool has_step, has_autograd;
};

struct build {
    const struct model *m;
    const struct rank_model *r;
    struct callgraph *cg;
    bool hta;             /* m->sem.gpu_side_is_stream_field */
    uint32_t *by_thread;  /* nodes grouped by thread, in row order within */
    struct thread_rec *threads;
    size_t nthreads;
    endpoint *ep;         /* scratch: 2 per nested event of one thread */
    uint32_t *stack;      /* scratch: open events of one thread */
    size_t stack_cap;
    struct timed_ep *heap; /* scratch: the pending closes of a merge */
    size_t heap_cap;
    uint32_t *pos2node;   /* rank->events position -> nested node */
    uint32_t id_zero;     /* string id of "0" */
};

static const struct event *node_ev(const struct build *b, uint32_t node)
{
    return &b->r->events[b->r->rows[node]];
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int cmp3(int64_t a, int64_t b)
{
    return (a > b) - (a < b);
}

static int64_t ep_time(const struct event *ev, bool close)
{
    return close ? ev->ts + ev->dur : ev->ts;
}

static uint32_t ep_cls(const struct event *ev, bool close)
{
    return ev->dur == 0 ? EP_ZERO : close ? EP_CLOSE : EP_OPEN;
}

static int cmp_endpoint(const struct build *b, endpoint pa, endpoint pb)
{
    const struct event *a = node_ev(b, ep_node(pa)), *e = node_ev(b, ep_node(pb));
    bool aclose = ep_close(pa), bclose = ep_close(pb);
    int64_t at = ep_time(a, aclose), bt = ep_time(e, bclose);
    if (at != bt)
        return cmp3(at, bt);
    uint32_t acls = ep_cls(a, aclose), bcls = ep_cls(e, bclose);
    if (acls != bcls)
        return acls < bcls ? -1 : 1;
    switch (acls) {
    case EP_CLOSE: /* the shorter event first, then the higher index */
        if (a->dur != e->dur)
            return cmp3(a->dur, e->dur);
        return cmp3(e->index, a->index);
    case EP_OPEN:  /* the longer event first, then the lower index */
        if (a->dur != e->dur)
            return cmp3(e->dur, a->dur);
        return cmp3(a->index, e->index);
    default:       /* zero-length: opens by index up, then closes by index down */
        if (aclose != bclose)
            return aclose ? 1 : -1;
        return aclose ? cmp3(e->index, a->index) : cmp3(a->index, e->index);
    }
}

static bool endpoint_less(const struct build *b, const endpoint *pa, const endpoint *pb)
{
    return cmp_endpoint(b, *pa, *pb) < 0;
}

/* Stable, so equal endpoints (a row repeated under HTA's duplication) keep
 * node order, as the glibc qsort this replaced did. */
SORT_DEFINE_STABLE_CTX(sort_endpoints, endpoint, const struct build *, endpoint_less)

static void reverse_ep(endpoint *ep, size_t n)
{
    for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
        endpoint t = ep[i];
        ep[i] = ep[j - 1];
        ep[j - 1] = t;
    }
}

/* Applies the zero-length rule per time point (see the enum comment) and
 * counts HTA's failure points. */
static void order_time_points(const struct build *b, endpoint *ep, size_t n)
{
    struct callgraph *cg = b->cg;
    for (size_t s = 0; s < n;) {
        size_t e = s, zero = SIZE_MAX;
        bool has_close = false, has_open = false, has_negative = false;
        int64_t time = ep_time(node_ev(b, ep_node(ep[s])), ep_close(ep[s]));
        for (; e < n; e++) {
            const struct event *ev = node_ev(b, ep_node(ep[e]));
            if (ep_time(ev, ep_close(ep[e])) != time)
                break;
            uint32_t cls = ep_cls(ev, ep_close(ep[e]));
            if (cls == EP_CLOSE)
                has_close = true;
            else if (cls == EP_OPEN)
                has_open = true;
            else if (zero == SIZE_MAX)
                zero = e;
            if (ev->dur < 0)
                has_negative = true;
        }
        if (zero != SIZE_MAX && has_negative) {
            if (cg->hta_conflicts++ == 0)
                cg->first_conflict_ns = time;
        }
        if (zero != SIZE_MAX && has_close) {
            if (has_open)
                cg->cyclic_points++;
            reverse_ep(ep + s, zero - s);
            reverse_ep(ep + zero, e - zero);
            reverse_ep(ep + s, e - s);
        }
        s = e;
    }
}

static bool is_nestable(const struct build *b, const struct event *ev)
{
    return b->hta ? ev->stream == -1 : !model_is_gpu_side(b->m, ev);
}

/* HTA skips a (pid, tid) group as a GPU stream when every event has a stream
 * > 0, or its pid or tid is 0. */
static bool is_gpu_group(const struct build *b, const struct thread_rec *t)
{
    const struct event *first = node_ev(b, b->by_thread[t->first]);
    if (b->id_zero != STRTAB_NONE && (model_event_pid(b->m, first) == b->id_zero ||
                                   model_event_tid(b->m, first) == b->id_zero))
        return true;
    for (size_t i = 0; i < t->count; i++) {
        const struct event *ev = node_ev(b, b->by_thread[t->first + i]);
        if (b->hta ? ev->stream <= 0 : !model_is_gpu_side(b->m, ev))
            return false;
    }
    return true;
}

/* The order the stable sort of [open0, close0, open1, close1, ...] gives:
 * endpoints that compare equal (a row repeated) stay in node order. */
static bool ep_in_order(const struct build *b, endpoint x, endpoint y)
{
    int c = cmp_endpoint(b, x, y);
    return c < 0 || (c == 0 && ep_node(x) < ep_node(y));
}

/* ep_in_order, the times compared first (they are ep_time's). */
static bool timed_in_order(const struct build *b, struct timed_ep x, struct timed_ep y)
{
    if (x.t != y.t)
        return x.t < y.t;
    return ep_in_order(b, x.p, y.p);
}

/* The pending closes, a binary heap in b->heap by ep_in_order. */
static int heap_push(struct build *b, size_t *n, struct timed_ep p)
{
    if (*n == b->heap_cap &&
        vec_reserve((void **)&b->heap, &b->heap_cap, sizeof *b->heap, *n + 1))
        return ERR_NOMEM;
    size_t i = (*n)++;
    while (i > 0 && timed_in_order(b, p, b->heap[(i - 1) / 2])) {
        b->heap[i] = b->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    b->heap[i] = p;
    return 0;
}

static struct timed_ep heap_pop(struct build *b, size_t *n)
{
    struct timed_ep top = b->heap[0], last = b->heap[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && timed_in_order(b, b->heap[c + 1], b->heap[c]))
            c++;
        if (!timed_in_order(b, b->heap[c], last))
            break;
        b->heap[i] = b->heap[c];
        i = c;
    }
    if (*n)
        b->heap[i] = last;
    return top;
}

/* Appends p to the merge's output (ep[*w]) when it comes strictly after
 * the last appended (*last); false when it does not. */
static bool append_in_order(struct build *b, size_t *w, struct timed_ep *last, struct timed_ep p)
{
    if (*w && !timed_in_order(b, *last, p))
        return false;
    b->ep[(*w)++] = p.p;
    *last = p;
    return true;
}

/* The model's index of this (pid, tid): its CPU-side events by start,
 * longer first, which is the opens' order in the common case. */
static const struct thread_index *model_thread(const struct build *b, const struct thread_rec *t)
{
    for (size_t i = 0; i < b->r->nthreads; i++) {
        const struct thread_index *ti = &b->r->threads[i];
        if (((uint64_t)ti->pid << 32 | ti->tid) == t->key)
            return ti;
    }
    return NULL;
}

/* The sorted endpoints without the sort, in O(n log depth): the opens in
 * the model's nesting order, each preceded by the pending closes that come
 * before it (a heap as deep as the nesting). The result is checked as it
 * is made: only a strictly ordered array (ep_in_order between neighbours)
 * is the stable sort's unique result. 1 when ep[0..2 nopens) holds it, 0
 * when the caller must sort (the model's order differs: negative
 * durations, rows repeated, another set of events), or ERR_NOMEM. */
static int merge_in_nesting_order(struct build *b, const struct thread_rec *t, size_t nopens)
{
    const struct thread_index *ti = model_thread(b, t);
    if (!ti || ti->n != nopens)
        return 0;
    endpoint *opens = b->ep + nopens;   /* read ahead of the writes */
    for (size_t i = 0; i < nopens; i++) {
        uint32_t node = b->pos2node[ti->pos[i]];
        if (node == CALLGRAPH_NONE || node >= b->r->nrows || b->r->rows[node] != ti->pos[i])
            return 0;
        opens[i] = make_ep(node, false);
    }
    size_t w = 0, pending = 0;
    struct timed_ep last = {0, 0};
    for (size_t i = 0; i < nopens; i++) {
        const struct event *ev = node_ev(b, ep_node(opens[i]));
        struct timed_ep open = {ep_time(ev, false), opens[i]};
        while (pending && timed_in_order(b, b->heap[0], open))
            if (!append_in_order(b, &w, &last, heap_pop(b, &pending)))
                return 0;
        if (!append_in_order(b, &w, &last, open))
            return 0;
        struct timed_ep close = {ep_time(ev, true), make_ep(ep_node(open.p), true)};
        if (heap_push(b, &pending, close))
            return ERR_NOMEM;
    }
    while (pending)
        if (!append_in_order(b, &w, &last, heap_pop(b, &pending)))
            return 0;
    return 1;
}

/* Sorts one thread's endpoints and walks them with a stack. Returns 0 or
 * ERR_NOMEM. */
static int nest_thread(struct build *b, struct thread_rec *t)
{
    size_t nopens = 0;
    bool has_zero = false;   // else order_time_points has nothing to do
    for (size_t i = 0; i < t->count; i++) {
        uint32_t node = b->by_thread[t->first + i];
        const struct event *ev = node_ev(b, node);
        if (!is_nestable(b, ev))
            continue;
        const char *name = model_str(b->m, ev->name);
        t->has_step |= name[0] == 'P' && starts_with(name, "ProfilerStep#");
        t->has_autograd |= name[0] == 'a' && starts_with(name, "autograd::");
        has_zero |= ev->dur == 0;
        b->ep[nopens++] = make_ep(node, false);
        b->pos2node[b->r->rows[node]] = node;
    }
    size_t nep = 2 * nopens;
    int rc = merge_in_nesting_order(b, t, nopens);
    if (rc < 0)
        return rc;
    if (rc == 0) {   /* the opens, in node order, interleaved with their closes */
        for (size_t i = 0, k = 0; i < t->count; i++) {
            uint32_t node = b->by_thread[t->first + i];
            if (!is_nestable(b, node_ev(b, node)))
                continue;
            b->ep[k++] = make_ep(node, false);
            b->ep[k++] = make_ep(node, true);
        }
        rc = sort_endpoints(b->ep, nep, b);
        if (rc)
            return rc;
        b->cg->sorted_threads++;
    } else {
        b->cg->merged_threads++;
    }
    if (has_zero)
        order_time_points(b, b->ep, nep);
    size_t depth = 0;
    for (size_t i = 0; i < nep; i++) {
        endpoint p = b->ep[i];
        if (!ep_close(p)) {
            if (depth == b->stack_cap && vec_reserve((void **)&b->stack, &b->stack_cap,
                                                     sizeof *b->stack, depth + 1))
                return ERR_NOMEM;
            b->cg->parent[ep_node(p)] = depth ? b->stack[depth - 1] : CALLGRAPH_ROOT;
            b->stack[depth++] = ep_node(p);
        } else if (depth) {
            depth--;   /* pops whatever is on top, as HTA does */
        }
    }
    return 0;
}

/* Thread number of each row, by first appearance of its (pid, tid); fills
 * b->threads' counts. */
static int number_threads(struct build *b, uint32_t *thread_of)
{
    const struct rank_model *r = b->r;
    struct hmap ids;
    if (hmap_init(&ids, 64))
        return ERR_NOMEM;
    size_t cap = 0;
    int rc = 0;
    for (size_t i = 0; i < r->nrows && rc == 0; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        uint64_t pid = model_event_pid(b->m, ev);
        int64_t key = (int64_t)(pid << 32 | model_event_tid(b->m, ev));
        uint32_t *id = hmap_get(&ids, key);
        if (id) {
            thread_of[i] = *id;
            continue;
        }
        thread_of[i] = (uint32_t)b->nthreads;
        rc = hmap_put(&ids, key, thread_of[i]);
        if (rc == 0)
            rc = VEC_PUSH_SLOT(b->threads, b->nthreads, cap);
        if (rc == 0)
            b->threads[b->nthreads++] = (struct thread_rec){(uint64_t)key, 0, 0, false, false, false};
    }
    hmap_fini(&ids);
    for (size_t i = 0; i < r->nrows && rc == 0; i++)
        b->threads[thread_of[i]].count++;
    return rc;
}

static bool thread_less(const struct thread_rec *a, const struct thread_rec *b)
{
    return a->key < b->key;
}

SORT_DEFINE_STABLE(sort_threads, struct thread_rec, thread_less)

/* Puts the threads in key order (the order HTA's groupby visits them, which
 * decides the first conflict reported) and renumbers thread_of to match. */
static int sort_threads_by_key(struct build *b, uint32_t *thread_of, size_t n)
{
    size_t *slot = malloc((b->nthreads ? b->nthreads : 1) * sizeof *slot);
    if (!slot)
        return ERR_NOMEM;
    for (size_t t = 0; t < b->nthreads; t++)
        b->threads[t].first = t;   /* the number by appearance, for now */
    int rc = sort_threads(b->threads, b->nthreads);
    for (size_t t = 0; rc == 0 && t < b->nthreads; t++)
        slot[b->threads[t].first] = t;
    for (size_t i = 0; rc == 0 && i < n; i++)
        thread_of[i] = (uint32_t)slot[thread_of[i]];
    free(slot);
    return rc;
}

/* Groups the rows by (pid, tid): a counting sort, so each thread's nodes
 * stay in row order. */
static int group_threads(struct build *b)
{
    size_t n = b->r->nrows;
    uint32_t *thread_of = util_alloc_resident(n, sizeof *thread_of);
    b->by_thread = util_alloc_resident(n, sizeof *b->by_thread);
    int rc = thread_of && b->by_thread ? number_threads(b, thread_of) : ERR_NOMEM;
    if (rc == 0)
        rc = sort_threads_by_key(b, thread_of, n);
    size_t first = 0;
    for (size_t t = 0; rc == 0 && t < b->nthreads; t++) {
        b->threads[t].first = first;
        first += b->threads[t].count;
        b->threads[t].count = 0;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        struct thread_rec *t = &b->threads[thread_of[i]];
        b->by_thread[t->first + t->count++] = (uint32_t)i;
    }
    free(thread_of);
    return rc;
}

static int nest_all(struct build *b)
{
    size_t most = 1;   /* the largest thread bounds the scratch buffers */
    for (size_t t = 0; t < b->nthreads; t++) {
        struct thread_rec *th = &b->threads[t];
        th->nested = !is_gpu_group(b, th);
        if (th->nested && th->count > most)
            most = th->count;
    }
    b->ep = util_alloc_resident(2 * most, sizeof *b->ep);
    b->pos2node = util_alloc_resident(b->r->nevents, sizeof *b->pos2node);
    if (!b->ep || !b->pos2node)
        return ERR_NOMEM;
    for (size_t i = 0; i < b->r->nevents; i++)
        b->pos2node[i] = CALLGRAPH_NONE;
    for (size_t t = 0; t < b->nthreads; t++) {
        int rc = b->threads[t].nested ? nest_thread(b, &b->threads[t]) : 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* Hangs GPU events under their launching CPU event. */
static void attach_kernels(struct build *b)
{
    const struct rank_model *r = b->r;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        bool linked = b->hta ? ev->stream > 0 && model_index_correlation(r, ev) > 0
                             : model_is_gpu_side(b->m, ev) && ev->partner != MODEL_NONE;
        if (!linked || ev->partner == MODEL_NONE || ev->partner >= r->nevents)
            continue;
        uint32_t launcher = b->pos2node[ev->partner];
        if (launcher != CALLGRAPH_NONE && b->cg->parent[i] == CALLGRAPH_NONE)
            b->cg->parent[i] = launcher;
    }
}

struct target {
    int64_t ts, end;
    uint32_t node;
};

static int cmp_target(const void *pa, const void *pb)
{
    const struct target *a = pa, *b = pb;
    if (a->ts != b->ts)
        return cmp3(a->ts, b->ts);
    return cmp3(a->node, b->node);
}

/* The main thread's nested events whose name starts with prefix, by ts. */
static size_t collect_targets(const struct build *b, const struct thread_rec *main_t,
                              const char *prefix, struct target *out)
{
    size_t k = 0;
    for (size_t i = 0; i < main_t->count; i++) {
        uint32_t node = b->by_thread[main_t->first + i];
        const struct event *ev = node_ev(b, node);
        if (b->cg->parent[node] == CALLGRAPH_NONE)
            continue;
        if (starts_with(model_str(b->m, ev->name), prefix))
            out[k++] = (struct target){ev->ts, ev->ts + ev->dur, node};
    }
    qsort(out, k, sizeof *out, cmp_target);
    return k;
}

/* The last target (by ts) that holds [ts, end] entirely, or CALLGRAPH_NONE.
 * max_end[i] is the largest end among targets 0..i. */
static uint32_t enclosing_target(const struct target *t, const int64_t *max_end, size_t n,
                                 int64_t ts, int64_t end)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t[mid].ts <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0 && max_end[i] >= end;)
        if (t[i].end >= end)
            return t[i].node;
    return CALLGRAPH_NONE;
}

/* HTA's rule for the autograd thread: when exactly one thread holds a
 * ProfilerStep# ("main") and exactly one other an autograd:: event ("bwd"),
 * bwd's top-level events move under the main thread's "## backward ##"
 * annotations (or its ProfilerStep# events when there are none) that hold
 * them entirely. */
static int reparent_backward(struct build *b)
{
    const struct thread_rec *main_t = NULL, *bwd_t = NULL;
    size_t nmain = 0, nbwd = 0;
    for (size_t t = 0; t < b->nthreads; t++)
        if (b->threads[t].nested && b->threads[t].has_step) {
            main_t = &b->threads[t];
            nmain++;
        }
    if (nmain != 1)
        return 0;
    for (size_t t = 0; t < b->nthreads; t++)
        if (b->threads[t].nested && b->threads[t].has_autograd && &b->threads[t] != main_t) {
            bwd_t = &b->threads[t];
            nbwd++;
        }
    if (nbwd != 1)
        return 0;
    struct target *tg = malloc(main_t->count * sizeof *tg);
    int64_t *max_end = malloc(main_t->count * sizeof *max_end);
    if (!tg || !max_end) {
        free(tg);
        free(max_end);
        return ERR_NOMEM;
    }
    size_t nt = collect_targets(b, main_t, "## backward ##", tg);
    if (nt == 0)
        nt = collect_targets(b, main_t, "ProfilerStep#", tg);
    for (size_t i = 0; i < nt; i++)
        max_end[i] = i && max_end[i - 1] > tg[i].end ? max_end[i - 1] : tg[i].end;
    for (size_t i = 0; i < bwd_t->count && nt; i++) {
        uint32_t node = b->by_thread[bwd_t->first + i];
        if (b->cg->parent[node] != CALLGRAPH_ROOT)
            continue;
        const struct event *ev = node_ev(b, node);
        uint32_t to = enclosing_target(tg, max_end, nt, ev->ts, ev->ts + ev->dur);
        if (to != CALLGRAPH_NONE)
            b->cg->parent[node] = to;
    }
    free(tg);
    free(max_end);
    return 0;
}

/* depth = parent's depth + 1, top level 0; iterative, with memo. */
static int compute_depths(struct callgraph *cg, uint32_t *path)
{
    for (size_t i = 0; i < cg->n; i++)
        cg->depth[i] = CALLGRAPH_NO_DEPTH;
    for (size_t i = 0; i < cg->n; i++) {
        if (cg->parent[i] == CALLGRAPH_NONE || cg->depth[i] != CALLGRAPH_NO_DEPTH)
            continue;
        size_t len = 0;
        uint32_t v = (uint32_t)i;
        int32_t d = -1;
        for (;;) {
            if (len >= cg->n)
                return ERR_INTERNAL;   /* a cycle: cannot happen */
            path[len++] = v;
            uint32_t p = cg->parent[v];
            if (p == CALLGRAPH_ROOT)
                break;
            if (p == CALLGRAPH_NONE)
                return ERR_INTERNAL;
            if (cg->depth[p] != CALLGRAPH_NO_DEPTH) {
                d = cg->depth[p];
                break;
            }
            v = p;
        }
        while (len > 0)
            cg->depth[path[--len]] = ++d;
    }
    return 0;
}

bool callgraph_counts_as_kernel(const struct model *m, const struct event *ev)
{
    return m->sem.gpu_side_is_stream_field ? model_is_gpu_kernel_pred(m, ev)
                                           : model_is_gpu_side(m, ev);
}

int callgraph_tops(const struct callgraph *cg, int32_t d, uint32_t *top)
{
    const uint32_t unknown = CALLGRAPH_ROOT;   /* never a node */
    for (size_t i = 0; i < cg->n; i++)
        top[i] = cg->depth[i] == CALLGRAPH_NO_DEPTH || cg->depth[i] < d ? CALLGRAPH_NONE
               : cg->depth[i] == d ? (uint32_t)i : unknown;
    /* Walk up to the first node whose top is known, then walk the same path
     * again writing it: every node is written once, so O(n) whatever the
     * depth, and no path is kept. */
    for (size_t i = 0; i < cg->n; i++) {
        if (top[i] != unknown)
            continue;
        uint32_t v = (uint32_t)i, steps = 0;
        while (top[v] == unknown) {
            if (cg->parent[v] >= CALLGRAPH_ROOT || ++steps > cg->n)
                return ERR_INTERNAL;   /* a node below d has an ancestor at d */
            v = cg->parent[v];
        }
        uint32_t found = top[v];
        for (v = (uint32_t)i; top[v] == unknown; v = cg->parent[v])
            top[v] = found;
    }
    return 0;
}

static void free_build(struct build *b)
{
    free(b->by_thread);
    free(b->threads);
    free(b->ep);
    free(b->stack);
    free(b->heap);
    free(b->pos2node);
    b->by_thread = b->stack = b->pos2node = NULL;
    b->ep = NULL;
    b->heap = NULL;
    b->threads = NULL;
}

/* The depths, once the nesting's scratch is given back. */
static int derive(struct callgraph *cg)
{
    size_t m = cg->n ? cg->n : 1;
    uint32_t *path = util_alloc_resident(m, sizeof *path);
    cg->depth = util_alloc_resident(m, sizeof *cg->depth);
    int rc = path && cg->depth ? compute_depths(cg, path) : ERR_NOMEM;
    free(path);
    return rc;
}

int callgraph_build(const struct model *m, const struct rank_model *r, struct callgraph *cg,
                    struct err *e)
{
    memset(cg, 0, sizeof *cg);
    if (r->nrows >= EP_MAX_NODES || r->nrows > SIZE_MAX / (2 * sizeof(endpoint)))
        return err_set(e, ERR_LIMIT, "rank %lld: too many events for the call graph",
                       (long long)r->rank);
    struct build b = {.m = m, .r = r, .cg = cg, .hta = m->sem.gpu_side_is_stream_field};
    b.id_zero = strtab_find(&m->strings, "0", 1);
    cg->n = r->nrows;
    cg->parent = util_alloc_resident(cg->n, sizeof *cg->parent);
    int rc = cg->parent ? group_threads(&b) : ERR_NOMEM;
    for (size_t i = 0; rc == 0 && i < cg->n; i++)
        cg->parent[i] = CALLGRAPH_NONE;
    if (rc == 0)
        rc = nest_all(&b);
    if (rc == 0) {
        attach_kernels(&b);
        rc = reparent_backward(&b);
    }
    free_build(&b);
    if (rc == 0)
        rc = derive(cg);
    if (rc == ERR_NOMEM)
        return err_set(e, rc, "out of memory building the call graph of rank %lld",
                       (long long)r->rank);
    if (rc)
        return err_set(e, rc, "rank %lld: the call graph has a cycle", (long long)r->rank);
    return 0;
}

void callgraph_fini(struct callgraph *cg)
{
    free(cg->parent);
    free(cg->depth);
    memset(cg, 0, sizeof *cg);
}
