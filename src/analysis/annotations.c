#include "config.h"
#include "analysis/annotations.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/argsort.h"
#include "util/hmap.h"
#include "util/sort.h"
#include "util/vec.h"

/* The annotation index: one group per (pid, tid), entries sorted by ts, and
 * per group a segment tree over the entries holding the largest end of each
 * range. "Which annotations overlap [ts, end)?" is then: among the entries
 * with a.ts < end (a prefix, by binary search), those with a.end > ts, found
 * by descending only into subtrees whose largest end is > ts. */

struct annot_group {
    uint64_t key;          /* pid << 32 | tid */
    size_t first, count;   /* entries [first, first + count) */
    size_t tree, width;    /* tree nodes at x->tree[tree + 1 .. tree + 2 * width) */
};

struct annot_index {
    const struct model *m;
    const struct rank_model *r;
    bool gpu;
    size_t n, ngroups, max_group;
    struct annot_group *groups;
    uint32_t *pos;         /* entry -> position in rank->events */
    int64_t *ts, *end;
    uint32_t *order;       /* HTA's application order: rank in the dur-descending sort */
    int64_t *tree;
};

#define TREE_EMPTY INT64_MIN

static uint64_t thread_key(const struct model *m, const struct event *ev)
{
    return (uint64_t)model_event_pid(m, ev) << 32 | model_event_tid(m, ev);
}

bool annot_is_kernel(const struct model *m, const struct event *ev)
{
    return m->sem.gpu_side_is_stream_field ? model_is_gpu_kernel_pred(m, ev)
                                           : model_is_gpu_side(m, ev);
}

static uint8_t category(bool gpu)
{
    return gpu ? EV_KIND_GPU_USER_ANNOTATION : EV_KIND_USER_ANNOTATION;
}

bool annot_category_seen(const struct model *m, bool gpu)
{
    uint8_t kind = category(gpu);
    for (size_t i = 0; i < m->nranks; i++)
        for (size_t k = 0; k < m->ranks[i].nevents; k++)
            if (m->ranks[i].events[k].kind == kind)
                return true;
    return false;
}

size_t annot_index_count(const struct annot_index *x)
{
    return x->n;
}

struct sort_entry {
    uint64_t key;
    int64_t ts;
    uint32_t k;            /* annotation number in row order */
};

static inline bool sort_entry_less(const struct sort_entry *a, const struct sort_entry *b)
{
    return a->key < b->key || (a->key == b->key && a->ts < b->ts);
}

/* Stable: equal (thread, ts) entries stay in row order (k ascending). */
SORT_DEFINE_STABLE(sort_entries, struct sort_entry, sort_entry_less)

/* The annotations of the rows, in row order: their positions, and their
 * rank in HTA's sort by dur descending (numpy introsort under HTA, stable
 * otherwise). */
static int collect(struct annot_index *x, uint32_t **pos_out, uint32_t **order_out)
{
    const struct rank_model *r = x->r;
    uint8_t kind = category(x->gpu);
    size_t n = 0, cap = 0;
    uint32_t *pos = NULL;
    int rc = 0;
    for (size_t i = 0; i < r->nrows && rc == 0; i++)
        if (r->events[r->rows[i]].kind == kind) {
            rc = VEC_PUSH_SLOT(pos, n, cap);
            if (rc == 0)
                pos[n++] = r->rows[i];
        }
    if (rc == 0 && !pos)
        pos = malloc(sizeof *pos);
    uint32_t *order = rc == 0 ? malloc((n ? n : 1) * sizeof *order) : NULL;
    int64_t *dur = rc == 0 ? malloc((n ? n : 1) * sizeof *dur) : NULL;
    size_t *perm = rc == 0 ? malloc((n ? n : 1) * sizeof *perm) : NULL;
    rc = pos && order && dur && perm ? 0 : ERR_NOMEM;
    if (rc == 0) {
        for (size_t k = 0; k < n; k++)
            dur[k] = r->events[pos[k]].dur;
        argsort_identity(perm, n);
        rc = sort_argsort_desc(x->m->sem.unstable_sort, perm, n, dur, less_i64);
    }
    if (rc == 0)
        for (size_t i = 0; i < n; i++)
            order[perm[i]] = (uint32_t)i;
    free(dur);
    free(perm);
    if (rc) {
        free(pos);
        free(order);
        return rc;
    }
    x->n = n;
    *pos_out = pos;
    *order_out = order;
    return 0;
}

static size_t pow2_at_least(size_t n)
{
    size_t w = 1;
    while (w < n)
        w <<= 1;
    return w;
}

static void build_tree(struct annot_index *x, struct annot_group *g)
{
    int64_t *t = x->tree + g->tree;   /* nodes 1 .. 2 * width - 1 */
    for (size_t i = 0; i < g->width; i++)
        t[g->width + i] = i < g->count ? x->end[g->first + i] : TREE_EMPTY;
    for (size_t v = g->width - 1; v >= 1; v--)
        t[v] = t[2 * v] > t[2 * v + 1] ? t[2 * v] : t[2 * v + 1];
}

/* Groups the entries by (pid, tid) and builds each group's tree. */
static int build_groups(struct annot_index *x, struct arena *a)
{
    size_t ng = 0, nodes = 0;
    for (size_t i = 0; i < x->n; i++)
        if (i == 0 || thread_key(x->m, &x->r->events[x->pos[i]]) !=
                      thread_key(x->m, &x->r->events[x->pos[i - 1]]))
            ng++;
    x->groups = arena_calloc(a, ng ? ng : 1, sizeof *x->groups);
    if (!x->groups)
        return ERR_NOMEM;
    for (size_t i = 0; i < x->n;) {
        uint64_t key = thread_key(x->m, &x->r->events[x->pos[i]]);
        size_t j = i;
        while (j < x->n && thread_key(x->m, &x->r->events[x->pos[j]]) == key)
            j++;
        struct annot_group *g = &x->groups[x->ngroups++];
        *g = (struct annot_group){key, i, j - i, nodes, pow2_at_least(j - i)};
        nodes += 2 * g->width;
        if (j - i > x->max_group)
            x->max_group = j - i;
        i = j;
    }
    x->tree = arena_calloc(a, nodes ? nodes : 1, sizeof *x->tree);
    if (!x->tree)
        return ERR_NOMEM;
    for (size_t g = 0; g < x->ngroups; g++)
        build_tree(x, &x->groups[g]);
    return 0;
}

/* Lays the annotations out by (pid, tid, ts) in the arena. */
static int layout(struct annot_index *x, struct arena *a, const uint32_t *pos,
                  const uint32_t *order)
{
    size_t n = x->n;
    struct sort_entry *se = malloc((n ? n : 1) * sizeof *se);
    if (!se)
        return ERR_NOMEM;
    for (size_t k = 0; k < n; k++) {
        const struct event *ev = &x->r->events[pos[k]];
        se[k] = (struct sort_entry){thread_key(x->m, ev), ev->ts, (uint32_t)k};
    }
    if (sort_entries(se, n)) {
        free(se);
        return ERR_NOMEM;
    }
    x->pos = arena_calloc(a, n ? n : 1, sizeof *x->pos);
    x->order = arena_calloc(a, n ? n : 1, sizeof *x->order);
    x->ts = arena_calloc(a, n ? n : 1, sizeof *x->ts);
    x->end = arena_calloc(a, n ? n : 1, sizeof *x->end);
    if (!x->pos || !x->order || !x->ts || !x->end) {
        free(se);
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        const struct event *ev = &x->r->events[pos[se[i].k]];
        x->pos[i] = pos[se[i].k];
        x->order[i] = order[se[i].k];
        x->ts[i] = ev->ts;
        x->end[i] = ev->ts + ev->dur;
    }
    free(se);
    return build_groups(x, a);
}

struct annot_index *annot_index_new(const struct model *m, const struct rank_model *r, bool gpu,
                                    struct arena *a, struct err *e)
{
    struct annot_index *x = arena_calloc(a, 1, sizeof *x);
    if (!x) {
        err_set(e, ERR_NOMEM, "out of memory indexing annotations");
        return NULL;
    }
    x->m = m;
    x->r = r;
    x->gpu = gpu;
    if (r->nrows >= UINT32_MAX) {
        err_set(e, ERR_LIMIT, "rank %lld: too many rows", (long long)r->rank);
        return NULL;
    }
    uint32_t *pos = NULL, *order = NULL;
    int rc = collect(x, &pos, &order);
    if (rc == 0)
        rc = layout(x, a, pos, order);
    free(pos);
    free(order);
    if (rc) {
        err_set(e, rc, "out of memory indexing annotations of rank %lld", (long long)r->rank);
        return NULL;
    }
    return x;
}

static const struct annot_group *find_group(const struct annot_index *x, uint64_t key)
{
    size_t lo = 0, hi = x->ngroups;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->groups[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < x->ngroups && x->groups[lo].key == key ? &x->groups[lo] : NULL;
}

/* The event whose interval and thread are tested: the event itself, or on
 * the CPU side a GPU event's launcher. */
static const struct event *probe_of(const struct annot_index *x, uint32_t pos)
{
    const struct event *ev = &x->r->events[pos];
    if (!x->gpu && model_is_gpu_side(x->m, ev) && ev->partner < x->r->nevents)
        return &x->r->events[ev->partner];
    return ev;
}

struct query {
    const struct annot_group *g;
    size_t limit;          /* entries [0, limit) of the group start before the probe ends */
    int64_t probe_ts;      /* and must end after this */
    uint32_t self;         /* an annotation never overlaps itself */
};

/* Sets up the query for the event at pos; false when nothing can overlap. */
static bool query_init(const struct annot_index *x, uint32_t pos, struct query *q)
{
    if (pos >= x->r->nevents)
        return false;
    const struct event *p = probe_of(x, pos);
    q->g = find_group(x, thread_key(x->m, p));
    if (!q->g)
        return false;
    int64_t end = p->ts + p->dur;
    size_t lo = 0, hi = q->g->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (x->ts[q->g->first + mid] < end)
            lo = mid + 1;
        else
            hi = mid;
    }
    q->limit = lo;
    q->probe_ts = p->ts;
    q->self = (uint32_t)(p - x->r->events);
    return lo > 0;
}

/* Visits every entry of the query's prefix whose end is after probe_ts:
 * appends it to entries (when not NULL) and returns the count; *best gets
 * the entry with the largest application order (UINT32_MAX if none),
 * *min_end the earliest end among them (INT64_MAX if none). */
static size_t run_query(const struct annot_index *x, const struct query *q, uint32_t *entries,
                        uint32_t *best, int64_t *min_end)
{
    *min_end = INT64_MAX;
    struct frame { size_t v, lo, w; } st[2 * 64 + 2];
    const int64_t *t = x->tree + q->g->tree;
    size_t sp = 0, n = 0;
    *best = UINT32_MAX;
    st[sp++] = (struct frame){1, 0, q->g->width};
    while (sp) {
        struct frame f = st[--sp];
        if (f.lo >= q->limit || t[f.v] <= q->probe_ts)
            continue;
        if (f.w == 1) {
            uint32_t entry = (uint32_t)(q->g->first + f.lo);
            if (x->pos[entry] == q->self)
                continue;
            if (*best == UINT32_MAX || x->order[entry] > x->order[*best])
                *best = entry;
            if (x->end[entry] < *min_end)
                *min_end = x->end[entry];
            if (entries)
                entries[n] = entry;
            n++;
            continue;
        }
        st[sp++] = (struct frame){2 * f.v + 1, f.lo + f.w / 2, f.w / 2};
        st[sp++] = (struct frame){2 * f.v, f.lo, f.w / 2};
    }
    return n;
}

uint32_t annot_innermost(const struct annot_index *x, uint32_t pos)
{
    struct query q;
    uint32_t best;
    int64_t min_end;
    if (!query_init(x, pos, &q))
        return MODEL_NONE;
    run_query(x, &q, NULL, &best, &min_end);
    return best == UINT32_MAX ? MODEL_NONE : x->pos[best];
}

/* Heap sort of entries by application order (orders are distinct). */
static void sift(const uint32_t *order, uint32_t *e, size_t i, size_t n)
{
    for (size_t c; (c = 2 * i + 1) < n; i = c) {
        if (c + 1 < n && order[e[c + 1]] > order[e[c]])
            c++;
        if (order[e[i]] >= order[e[c]])
            return;
        uint32_t t = e[i];
        e[i] = e[c];
        e[c] = t;
    }
}

static void sort_by_order(const uint32_t *order, uint32_t *e, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift(order, e, i, n);
    for (size_t k = n; k-- > 1;) {
        uint32_t t = e[0];
        e[0] = e[k];
        e[k] = t;
        sift(order, e, 0, k);
    }
}

size_t annot_index_max_stack(const struct annot_index *x)
{
    return x->max_group;
}

uint32_t annot_entry_pos(const struct annot_index *x, uint32_t entry)
{
    return entry < x->n ? x->pos[entry] : MODEL_NONE;
}

size_t annot_stack_entries(const struct annot_index *x, uint32_t pos, uint32_t *entries)
{
    struct annot_span span;
    return annot_stack_entries_span(x, pos, entries, &span);
}

size_t annot_stack_entries_span(const struct annot_index *x, uint32_t pos, uint32_t *entries,
                                struct annot_span *span)
{
    struct query q;
    uint32_t best;
    int64_t min_end;
    *span = (struct annot_span){NULL, 0, 0, 0};
    if (!query_init(x, pos, &q))
        return 0;
    size_t n = run_query(x, &q, entries, &best, &min_end);
    sort_by_order(x->order, entries, n);
    /* A probe that is no annotation excludes none: the stack holds while
     * the prefix stays and no entry of it ends at or before the start. */
    if (probe_of(x, pos)->kind != category(x->gpu))
        *span = (struct annot_span){q.g, q.limit, q.probe_ts, min_end};
    return n;
}

bool annot_span_holds(const struct annot_index *x, uint32_t pos, const struct annot_span *span)
{
    const struct annot_group *g = span->group;
    if (!g || span->until <= span->from || pos >= x->r->nevents)
        return false;
    const struct event *p = probe_of(x, pos);
    if (p->ts < span->from || p->ts >= span->until || p->kind == category(x->gpu) ||
        thread_key(x->m, p) != g->key)
        return false;
    int64_t end = p->ts + p->dur;
    return x->ts[g->first + span->limit - 1] < end &&
           (span->limit == g->count || x->ts[g->first + span->limit] >= end);
}

size_t annot_stack(const struct annot_index *x, uint32_t pos, uint32_t *out, size_t cap)
{
    if (x->max_group == 0)
        return 0;
    uint32_t *entries = malloc(x->max_group * sizeof *entries);
    if (!entries)
        return 0;
    size_t n = annot_stack_entries(x, pos, entries);
    size_t skip = n > cap ? n - cap : 0;
    for (size_t i = skip; i < n; i++)
        out[i - skip] = x->pos[entries[i]];
    free(entries);
    return n;
}

int annotation_stack(const struct model *m, const struct rank_model *r, uint32_t pos, bool gpu,
                     uint32_t *out, size_t cap, size_t *len, struct err *e)
{
    struct arena a;
    arena_init(&a, 0);
    *len = 0;
    struct annot_index *x = annot_index_new(m, r, gpu, &a, e);
    if (x)
        *len = annot_stack(x, pos, out, cap);
    arena_fini(&a);
    return x ? 0 : e ? e->code : ERR_NOMEM;
}

