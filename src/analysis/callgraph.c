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

/* 4 bytes: node << 1 | close. An endpoint only names its event, and the
 * comparison reads time, duration and index from the event. Stored (two a
 * nested event of one thread) only for a thread the merge cannot nest or
 * one with zero-length events. */
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
    size_t ep_cap;
    struct timed_ep *heap; /* scratch: the pending closes of a merge */
    size_t heap_cap;
    size_t depth;         /* of the walk's stack */
    /* rank->events position -> node: rows' positions rise (no row
     * repeated), so a node is the count of rows before its position, told
     * by a bitmap of the rows with a count per word (a bit and half a byte
     * an event); else an array (pos2node, 4 bytes an event). */
    uint64_t *row_bits;
    uint32_t *word_rank;
    uint32_t *pos2node;
    uint8_t *name_flags;  /* per string id: NAME_* once known */
    uint32_t id_zero;     /* string id of "0" */
};

enum { NAME_KNOWN = 1, NAME_STEP = 2, NAME_AUTOGRAD = 4, NAME_BACKWARD = 8 };

static const struct event *node_ev(const struct build *b, uint32_t node)
{
    return &b->r->events[b->r->rows[node]];
}

/* The node of event position pos, CALLGRAPH_NONE when no row holds it. */
static uint32_t node_of(const struct build *b, uint32_t pos)
{
    if (pos >= b->r->nevents)
        return CALLGRAPH_NONE;
    if (b->pos2node)
        return b->pos2node[pos];
    uint64_t word = b->row_bits[pos / 64], below = ((uint64_t)1 << (pos % 64)) - 1;
    if (!(word >> (pos % 64) & 1))
        return CALLGRAPH_NONE;
    return b->word_rank[pos / 64] + (uint32_t)__builtin_popcountll(word & below);
}

/* Fills the map node_of reads. 0 or ERR_NOMEM. */
static int map_positions(struct build *b)
{
    const struct rank_model *r = b->r;
    bool rising = true;
    for (size_t i = 1; i < r->nrows && rising; i++)
        rising = r->rows[i - 1] < r->rows[i];
    if (!rising) {
        b->pos2node = util_alloc_resident(r->nevents ? r->nevents : 1, sizeof *b->pos2node);
        if (!b->pos2node)
            return ERR_NOMEM;
        for (size_t i = 0; i < r->nevents; i++)
            b->pos2node[i] = CALLGRAPH_NONE;
        for (size_t i = 0; i < r->nrows; i++)
            b->pos2node[r->rows[i]] = (uint32_t)i;   /* a repeated row: its last */
        return 0;
    }
    size_t words = r->nevents / 64 + 1;
    b->row_bits = calloc(words, sizeof *b->row_bits);
    b->word_rank = malloc(words * sizeof *b->word_rank);
    if (!b->row_bits || !b->word_rank)
        return ERR_NOMEM;
    for (size_t i = 0; i < r->nrows; i++)
        b->row_bits[r->rows[i] / 64] |= (uint64_t)1 << (r->rows[i] % 64);
    uint32_t before = 0;
    for (size_t w = 0; w < words; w++) {
        b->word_rank[w] = before;
        before += (uint32_t)__builtin_popcountll(b->row_bits[w]);
    }
    return 0;
}

/* NAME_STEP for "ProfilerStep#...", NAME_AUTOGRAD for "autograd::...",
 * NAME_BACKWARD for "## backward ##...". */
static unsigned name_flags(struct build *b, uint32_t name)
{
    if (name >= strtab_count(&b->m->strings))
        return 0;
    if (!b->name_flags[name]) {
        const char *s = model_str(b->m, name);
        b->name_flags[name] = (uint8_t)(NAME_KNOWN |
                                        (strncmp(s, "ProfilerStep#", 13) == 0 ? NAME_STEP : 0) |
                                        (strncmp(s, "autograd::", 10) == 0 ? NAME_AUTOGRAD : 0) |
                                        (strncmp(s, "## backward ##", 14) == 0 ? NAME_BACKWARD
                                                                               : 0));
    }
    return b->name_flags[name];
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

/* One endpoint of the walk that nests a thread: an open takes the top of
 * the stack as its parent and is pushed; a close pops whatever is on top,
 * as HTA does. 0 or ERR_NOMEM. */
static int walk(struct build *b, endpoint p)
{
    if (ep_close(p)) {
        if (b->depth)
            b->depth--;
        return 0;
    }
    if (b->depth == b->stack_cap &&
        vec_reserve((void **)&b->stack, &b->stack_cap, sizeof *b->stack, b->depth + 1))
        return ERR_NOMEM;
    b->cg->parent[ep_node(p)] = b->depth ? b->stack[b->depth - 1] : CALLGRAPH_ROOT;
    b->stack[b->depth++] = ep_node(p);
    return 0;
}

/* Passes p on when it comes strictly after the last passed (*last): into
 * ep[*w] when store, else to the walk. 1, 0 when out of order, or
 * ERR_NOMEM. */
static int pass_in_order(struct build *b, size_t *w, struct timed_ep *last, struct timed_ep p,
                         bool store)
{
    if (*w && !timed_in_order(b, *last, p))
        return 0;
    *last = p;
    if (store) {
        b->ep[*w] = p.p;
    } else if (walk(b, p.p)) {
        return ERR_NOMEM;
    }
    ++*w;
    return 1;
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
 * is made: only a strictly ordered sequence (ep_in_order between
 * neighbours) is the stable sort's unique result. It goes into ep[0..2
 * nopens) when store, else straight to the walk (which a failed merge
 * leaves half done: the caller walks the sorted endpoints again). 1 when
 * merged, 0 when the caller must sort (the model's order differs:
 * negative durations, rows repeated, another set of events), or
 * ERR_NOMEM. */
static int merge_in_nesting_order(struct build *b, const struct thread_rec *t, size_t nopens,
                                  bool store)
{
    const struct thread_index *ti = model_thread(b, t);
    if (!ti || ti->n != nopens)
        return 0;
    size_t w = 0, pending = 0;
    struct timed_ep last = {0, 0};
    b->depth = 0;
    int rc = 1;
    for (size_t i = 0; i < nopens && rc == 1; i++) {
        uint32_t node = node_of(b, ti->pos[i]);
        if (node == CALLGRAPH_NONE || !is_nestable(b, node_ev(b, node)))
            return 0;
        const struct event *ev = node_ev(b, node);
        struct timed_ep open = {ep_time(ev, false), make_ep(node, false)};
        while (rc == 1 && pending && timed_in_order(b, b->heap[0], open))
            rc = pass_in_order(b, &w, &last, heap_pop(b, &pending), store);
        if (rc == 1)
            rc = pass_in_order(b, &w, &last, open, store);
        struct timed_ep close = {ep_time(ev, true), make_ep(node, true)};
        if (rc == 1 && heap_push(b, &pending, close))
            return ERR_NOMEM;
    }
    while (rc == 1 && pending)
        rc = pass_in_order(b, &w, &last, heap_pop(b, &pending), store);
    return rc;
}

/* Room for n endpoints in b->ep (its contents not kept). */
static int reserve_ep(struct build *b, size_t n)
{
    if (n <= b->ep_cap)
        return 0;
    free(b->ep);
    b->ep = util_alloc_resident(n, sizeof *b->ep);
    b->ep_cap = b->ep ? n : 0;
    return b->ep ? 0 : ERR_NOMEM;
}

/* Nests one thread's events: the merge walked as it goes, or the sorted
 * endpoints walked with a stack. Returns 0 or ERR_NOMEM. */
static int nest_thread(struct build *b, struct thread_rec *t)
{
    size_t nopens = 0;
    bool has_zero = false;   // else order_time_points has nothing to do
    for (size_t i = 0; i < t->count; i++) {
        const struct event *ev = node_ev(b, b->by_thread[t->first + i]);
        if (!is_nestable(b, ev))
            continue;
        unsigned f = name_flags(b, ev->name);
        t->has_step |= (f & NAME_STEP) != 0;
        t->has_autograd |= (f & NAME_AUTOGRAD) != 0;
        has_zero |= ev->dur == 0;
        nopens++;
    }
    size_t nep = 2 * nopens;
    if (has_zero && reserve_ep(b, nep))
        return ERR_NOMEM;
    int rc = merge_in_nesting_order(b, t, nopens, has_zero);
    if (rc < 0)
        return rc;
    if (rc == 1)
        b->cg->merged_threads++;
    if (rc == 1 && !has_zero)
        return 0;   /* walked by the merge */
    if (rc == 0) {   /* the opens, in node order, interleaved with their closes */
        if (reserve_ep(b, nep))
            return ERR_NOMEM;
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
    }
    if (has_zero)
        order_time_points(b, b->ep, nep);
    b->depth = 0;
    for (size_t i = 0; i < nep; i++)
        if (walk(b, b->ep[i]))
            return ERR_NOMEM;
    return 0;
}

/* Numbers the (pid, tid) of every row by first appearance: slot[t], for
 * t an index of m->pidtids, is its number (UINT32_MAX for none); fills
 * b->threads' counts. */
static int number_threads(struct build *b, uint32_t *slot)
{
    const struct rank_model *r = b->r;
    struct hmap ids;
    if (hmap_init(&ids, 64))
        return ERR_NOMEM;
    size_t cap = 0;
    int rc = 0;
    for (size_t i = 0; i < r->nrows && rc == 0; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (slot[ev->thread] != UINT32_MAX) {
            b->threads[slot[ev->thread]].count++;
            continue;
        }
        uint64_t pid = model_event_pid(b->m, ev);
        int64_t key = (int64_t)(pid << 32 | model_event_tid(b->m, ev));
        bool added;
        rc = hmap_number(&ids, key, (uint32_t)b->nthreads, &slot[ev->thread], &added);
        if (rc == 0 && added && VEC_PUSH_SLOT(b->threads, b->nthreads, cap) == 0)
            b->threads[b->nthreads++] = (struct thread_rec){(uint64_t)key, 0, 0, false, false, false};
        else if (rc == 0 && added)
            rc = ERR_NOMEM;
        if (rc == 0)
            b->threads[slot[ev->thread]].count++;
    }
    hmap_fini(&ids);
    return rc ? ERR_NOMEM : 0;
}

static bool thread_less(const struct thread_rec *a, const struct thread_rec *b)
{
    return a->key < b->key;
}

SORT_DEFINE_STABLE(sort_threads, struct thread_rec, thread_less)

/* Puts the threads in key order (the order HTA's groupby visits them, which
 * decides the first conflict reported) and renumbers slot[0..n) to match. */
static int sort_threads_by_key(struct build *b, uint32_t *slot, size_t n)
{
    size_t *to = malloc((b->nthreads ? b->nthreads : 1) * sizeof *to);
    if (!to)
        return ERR_NOMEM;
    for (size_t t = 0; t < b->nthreads; t++)
        b->threads[t].first = t;   /* the number by appearance, for now */
    int rc = sort_threads(b->threads, b->nthreads);
    for (size_t t = 0; rc == 0 && t < b->nthreads; t++)
        to[b->threads[t].first] = t;
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (slot[i] != UINT32_MAX)
            slot[i] = (uint32_t)to[slot[i]];
    free(to);
    return rc;
}

/* Groups the rows by (pid, tid): a counting sort, so each thread's nodes
 * stay in row order. The rows' thread numbers are kept per index of
 * m->pidtids, not per row. */
static int group_threads(struct build *b)
{
    size_t n = b->r->nrows, nslot = b->m->npidtids ? b->m->npidtids : 1;
    uint32_t *slot = malloc(nslot * sizeof *slot);
    b->by_thread = util_alloc_resident(n ? n : 1, sizeof *b->by_thread);
    if (slot)
        memset(slot, 0xff, nslot * sizeof *slot);
    int rc = slot && b->by_thread ? number_threads(b, slot) : ERR_NOMEM;
    if (rc == 0)
        rc = sort_threads_by_key(b, slot, b->m->npidtids);
    size_t first = 0;
    for (size_t t = 0; rc == 0 && t < b->nthreads; t++) {
        b->threads[t].first = first;
        first += b->threads[t].count;
        b->threads[t].count = 0;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        struct thread_rec *t = &b->threads[slot[b->r->events[b->r->rows[i]].thread]];
        b->by_thread[t->first + t->count++] = (uint32_t)i;
    }
    free(slot);
    return rc;
}

static int nest_all(struct build *b)
{
    b->name_flags = calloc(strtab_count(&b->m->strings) + 1, 1);
    if (!b->name_flags || map_positions(b))
        return ERR_NOMEM;
    for (size_t t = 0; t < b->nthreads; t++)
        b->threads[t].nested = !is_gpu_group(b, &b->threads[t]);
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
        /* a nested launcher: no event this loop attaches is nestable */
        uint32_t launcher = node_of(b, ev->partner);
        if (launcher != CALLGRAPH_NONE && b->cg->parent[launcher] != CALLGRAPH_NONE &&
            is_nestable(b, &r->events[ev->partner]) && b->cg->parent[i] == CALLGRAPH_NONE)
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

/* The main thread's nested events whose name has flag (NAME_*), by ts,
 * into the vector *out (capacity *cap). The count, or SIZE_MAX on ENOMEM. */
static size_t collect_targets(struct build *b, const struct thread_rec *main_t, unsigned flag,
                              struct target **out, size_t *cap)
{
    size_t k = 0;
    for (size_t i = 0; i < main_t->count; i++) {
        uint32_t node = b->by_thread[main_t->first + i];
        const struct event *ev = node_ev(b, node);
        if (b->cg->parent[node] == CALLGRAPH_NONE || !(name_flags(b, ev->name) & flag))
            continue;
        if (VEC_PUSH_SLOT(*out, k, *cap))
            return SIZE_MAX;
        (*out)[k++] = (struct target){ev->ts, ev->ts + ev->dur, node};
    }
    if (k)
        qsort(*out, k, sizeof **out, cmp_target);
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
    struct target *tg = NULL;
    size_t cap = 0, nt = collect_targets(b, main_t, NAME_BACKWARD, &tg, &cap);
    if (nt == 0)
        nt = collect_targets(b, main_t, NAME_STEP, &tg, &cap);
    int64_t *max_end = nt != SIZE_MAX ? malloc((nt ? nt : 1) * sizeof *max_end) : NULL;
    if (!max_end) {
        free(tg);
        return ERR_NOMEM;
    }
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

/* depth = parent's depth + 1, top level 0: each node's path walked up to
 * the first node whose depth is known, then walked again writing the
 * depths, so every depth is written once and no path is kept. */
static int compute_depths(struct callgraph *cg)
{
    for (size_t i = 0; i < cg->n; i++)
        cg->depth[i] = CALLGRAPH_NO_DEPTH;
    for (size_t i = 0; i < cg->n; i++) {
        if (cg->parent[i] == CALLGRAPH_NONE || cg->depth[i] != CALLGRAPH_NO_DEPTH)
            continue;
        size_t len = 0;
        int32_t d = -1;   /* the depth above the path */
        for (uint32_t v = (uint32_t)i;;) {
            if (++len > cg->n)
                return ERR_INTERNAL;   /* a cycle: cannot happen */
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
        for (uint32_t v = (uint32_t)i; len > 0; v = cg->parent[v])
            cg->depth[v] = d + (int32_t)len--;
    }
    return 0;
}

bool callgraph_counts_as_kernel(const struct model *m, const struct event *ev)
{
    return m->sem.gpu_side_is_stream_field ? model_is_gpu_kernel_pred(m, ev)
                                           : model_is_gpu_side(m, ev);
}

int callgraph_label_subtrees(const struct callgraph *cg, int32_t d, const uint32_t *roots,
                             size_t nroots, uint32_t *top)
{
    const uint32_t unknown = CALLGRAPH_ROOT;   /* never a label */
    for (size_t i = 0; i < cg->n; i++)   /* reads depth[i] before writing top[i] */
        top[i] = cg->depth[i] == CALLGRAPH_NO_DEPTH || cg->depth[i] <= d ? CALLGRAPH_NONE
                                                                         : unknown;
    for (size_t k = 0; k < nroots; k++)
        top[roots[k]] = (uint32_t)k;
    /* Walk up to the first node whose label is known, then walk the same
     * path again writing it: every node is written once, so O(n) whatever
     * the depth, and no path is kept. */
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
    free(b->row_bits);
    free(b->word_rank);
    free(b->name_flags);
    b->by_thread = b->stack = b->pos2node = b->word_rank = NULL;
    b->row_bits = NULL;
    b->name_flags = NULL;
    b->ep = NULL;
    b->heap = NULL;
    b->threads = NULL;
}

/* The depths, once the nesting's scratch is given back. */
static int derive(struct callgraph *cg)
{
    cg->depth = util_alloc_resident(cg->n ? cg->n : 1, sizeof *cg->depth);
    return cg->depth ? compute_depths(cg) : ERR_NOMEM;
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
