#include "config.h"
#include "analysis/annotation_stacks.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/hmap.h"

bool astack_is_attributed(const struct event *ev)
{
    return ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY ||
           ev->kind == EV_KIND_MEMSET;
}

static bool kept_kind(enum astack_mode mode, uint8_t kind)
{
    if (kind == EV_KIND_USER_ANNOTATION)
        return true;
    return mode == ASTACK_OPS && (kind == EV_KIND_CPU_OP || kind == EV_KIND_PYTHON);
}

struct builder {
    const struct model *m;
    const struct rank_model *r;
    enum astack_mode mode;
    struct hmap threads;     /* pid << 32 | tid -> index in r->threads */
    struct hmap trie;        /* parent << 32 | name -> node (ASTACK_EVENT children) */
    struct astack_node *nodes;
    size_t nnodes, cap;
    size_t *cursor;          /* per r->threads: where its last search ended */
    uint32_t *chain;         /* one launcher's enclosing events, innermost first */
    size_t chain_cap;
    /* The last launcher's thread, chain and node: consecutive launchers
     * mostly sit in the same annotations. */
    uint64_t last_key;
    uint32_t last_ti;        /* UINT32_MAX: none yet */
    uint32_t *last_chain;
    size_t last_n, last_cap;
    uint32_t last_node;      /* ASTACK_NONE: none yet */
    uint32_t no_launch;      /* node, ASTACK_NONE until needed */
};

static uint32_t new_node(struct builder *b, uint32_t parent, uint8_t kind, uint32_t name)
{
    if (b->nnodes == b->cap) {
        size_t c = b->cap ? 2 * b->cap : 64;
        struct astack_node *n = realloc(b->nodes, c * sizeof *n);
        if (!n)
            return ASTACK_NONE;
        b->nodes = n;
        b->cap = c;
    }
    uint32_t depth = parent == ASTACK_NONE ? 0 : b->nodes[parent].depth + 1;
    b->nodes[b->nnodes] = (struct astack_node){parent, ASTACK_NONE, ASTACK_NONE, name, depth,
                                               kind, 0, 0, 0, 0};
    return (uint32_t)b->nnodes++;
}

static uint32_t child(struct builder *b, uint32_t parent, uint32_t name)
{
    int64_t key = (int64_t)((uint64_t)parent << 32 | name);
    uint32_t *v = hmap_get(&b->trie, key);
    if (v)
        return *v;
    uint32_t n = new_node(b, parent, ASTACK_EVENT, name);
    if (n == ASTACK_NONE || hmap_put(&b->trie, key, n))
        return ASTACK_NONE;
    return n;
}

static uint64_t thread_key(const struct model *m, const struct event *ev)
{
    return (uint64_t)model_event_pid(m, ev) << 32 | model_event_tid(m, ev);
}

/* Does a enclose the launcher l (see the header)? */
static bool encloses(const struct event *a, const struct event *l)
{
    int64_t a_end = a->ts + a->dur, l_end = l->ts + l->dur;
    return a->ts <= l->ts && l->ts < a_end && l_end <= a_end;
}

/* The first place in t whose event starts after ts (t->n when none): a
 * galloping search from where the thread's last one ended, since launchers
 * come in nearly increasing time; a binary search over the whole thread
 * would miss the cache at every step. */
static size_t first_after(const struct thread_index *t, const struct event *ev, int64_t ts,
                          size_t *cursor)
{
    size_t n = t->n, lo, hi = *cursor < n ? *cursor : n;
    if (hi < n && ev[t->pos[hi]].ts <= ts) {   /* after the cursor: gallop up */
        lo = hi + 1;
        for (size_t step = 1;; step *= 2) {
            hi = n - lo > step ? lo + step : n;
            if (hi == n || ev[t->pos[hi]].ts > ts)
                break;
            lo = hi + 1;
        }
    } else {                                   /* at or before it: gallop down */
        lo = 0;
        for (size_t step = 1; hi > 0; step *= 2) {
            size_t p = hi > step ? hi - step : 0;
            if (ev[t->pos[p]].ts <= ts) {
                lo = p + 1;
                break;
            }
            hi = p;
        }
    }
    while (lo < hi) {   /* the first place after ts is in [lo, hi] */
        size_t mid = lo + (hi - lo) / 2;
        if (ev[t->pos[mid]].ts <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    *cursor = lo;
    return lo;
}

/* Fills b->chain with the kept events enclosing the launcher, innermost
 * first; returns their number. Every event enclosing l is an ancestor (or
 * self) of the last event of the thread starting at or before l (the
 * nesting keeps an event open until one starts at or after its end). */
static size_t enclosing(struct builder *b, const struct event *l, uint32_t lpos)
{
    uint64_t key = thread_key(b->m, l);
    if (b->last_ti == UINT32_MAX || key != b->last_key) {
        uint32_t *ti = hmap_get(&b->threads, (int64_t)key);
        if (!ti)
            return 0;
        b->last_key = key;
        b->last_ti = *ti;
    }
    const struct thread_index *t = &b->r->threads[b->last_ti];
    const struct event *ev = b->r->events;
    size_t lo = first_after(t, ev, l->ts, &b->cursor[b->last_ti]);
    size_t n = 0;
    for (uint32_t v = lo ? (uint32_t)(lo - 1) : MODEL_NONE; v != MODEL_NONE; v = t->parent[v]) {
        const struct event *a = &ev[t->pos[v]];
        if (t->pos[v] == lpos || !kept_kind(b->mode, a->kind) || !encloses(a, l))
            continue;
        if (n == b->chain_cap) {
            size_t c = b->chain_cap ? 2 * b->chain_cap : 16;
            uint32_t *p = realloc(b->chain, c * sizeof *p);
            if (!p)
                return SIZE_MAX;
            b->chain = p;
            b->chain_cap = c;
        }
        b->chain[n++] = t->pos[v];
    }
    return n;
}

/* The node a GPU event lands on; ASTACK_NONE on ENOMEM. */
static uint32_t attribute(struct builder *b, const struct event *g)
{
    const struct rank_model *r = b->r;
    if (g->partner >= r->nevents || astack_is_attributed(&r->events[g->partner])) {
        if (b->no_launch == ASTACK_NONE)
            b->no_launch = new_node(b, 0, ASTACK_NO_LAUNCH, 0);
        return b->no_launch;
    }
    size_t n = enclosing(b, &r->events[g->partner], g->partner);
    if (n == SIZE_MAX)
        return ASTACK_NONE;
    uint32_t node = 0;
    if (b->last_node != ASTACK_NONE && n == b->last_n &&
        (n == 0 || memcmp(b->chain, b->last_chain, n * sizeof *b->chain) == 0)) {
        node = b->last_node;
    } else {
        for (size_t i = n; i-- > 0 && node != ASTACK_NONE;)
            node = child(b, node, r->events[b->chain[i]].name);
        /* the chain's buffers swap: the next chain is written over the older */
        uint32_t *t = b->last_chain;
        size_t cap = b->last_cap;
        b->last_chain = b->chain;
        b->last_cap = b->chain_cap;
        b->chain = t;
        b->chain_cap = cap;
        b->last_n = n;
        b->last_node = node;
    }
    // A graph's work hangs under its launch call, so the tree says so.
    if (node != ASTACK_NONE && model_is_graph_work(r, g))
        node = child(b, node, r->events[g->partner].name);
    return node;
}

/* CPU events of kept kinds that start inside a kept parent but end after
 * it: the nesting is broken there (diagnostics only). */
static uint64_t count_crossing(const struct rank_model *r, enum astack_mode mode)
{
    uint64_t n = 0;
    for (size_t k = 0; k < r->nthreads; k++) {
        const struct thread_index *t = &r->threads[k];
        for (size_t i = 0; i < t->n; i++) {
            if (t->parent[i] == MODEL_NONE)
                continue;
            const struct event *c = &r->events[t->pos[i]], *p = &r->events[t->pos[t->parent[i]]];
            if (kept_kind(mode, c->kind) && kept_kind(mode, p->kind) &&
                c->ts + c->dur > p->ts + p->dur)
                n++;
        }
    }
    return n;
}

struct sibling {
    uint32_t node;
    int64_t incl;
    const char *name;
};

static int cmp_sibling(const void *pa, const void *pb)
{
    const struct sibling *a = pa, *b = pb;
    if (a->incl != b->incl)
        return a->incl > b->incl ? -1 : 1;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->node > b->node) - (a->node < b->node);
}

/* Sums inclusive values bottom-up (children are created after parents) and
 * links every node's children by inclusive time descending. */
static int link_children(struct astack_tree *tree)
{
    struct astack_node *nd = tree->nodes;
    for (size_t v = 0; v < tree->nnodes; v++) {
        nd[v].incl_ns = nd[v].self_ns;
        nd[v].incl_count = nd[v].self_count;
    }
    for (size_t v = tree->nnodes; v-- > 1;) {
        struct astack_node *p = &nd[nd[v].parent];
        p->incl_ns = add_ns_sat(p->incl_ns, nd[v].incl_ns);
        p->incl_count += nd[v].incl_count;
    }
    struct sibling *s = malloc(tree->nnodes * sizeof *s);
    if (!s)
        return ERR_NOMEM;
    for (size_t v = 0; v < tree->nnodes; v++)
        s[v] = (struct sibling){(uint32_t)v, nd[v].incl_ns, astack_node_name(tree, (uint32_t)v)};
    /* children of the same parent are pushed in reverse sorted order */
    qsort(s + 1, tree->nnodes - 1, sizeof *s, cmp_sibling);
    for (size_t i = tree->nnodes; i-- > 1;) {
        struct astack_node *c = &nd[s[i].node], *p = &nd[c->parent];
        c->next_sibling = p->first_child;
        p->first_child = s[i].node;
    }
    free(s);
    return 0;
}

/* Groups the attributed events by node (counting sort, row order kept). */
static int group_events(struct astack_tree *tree, const uint32_t *pos, const uint32_t *node,
                        size_t n)
{
    tree->first = calloc(tree->nnodes + 1, sizeof *tree->first);
    tree->events = malloc((n ? n : 1) * sizeof *tree->events);
    if (!tree->first || !tree->events)
        return ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        tree->first[node[i] + 1]++;
    for (size_t v = 0; v < tree->nnodes; v++)
        tree->first[v + 1] += tree->first[v];
    size_t *at = malloc((tree->nnodes ? tree->nnodes : 1) * sizeof *at);
    if (!at)
        return ERR_NOMEM;
    memcpy(at, tree->first, tree->nnodes * sizeof *at);
    for (size_t i = 0; i < n; i++)
        tree->events[at[node[i]]++] = pos[i];
    free(at);
    tree->nevents = n;
    return 0;
}

/* How many rows astack_is_attributed: under htx semantics those are the
 * GPU-side rows, which the stream indices count; else a pass. */
static size_t attributed_rows(const struct model *m, const struct rank_model *r)
{
    size_t n = 0;
    if (!m->sem.gpu_side_is_stream_field && !m->rows_only) {
        for (size_t s = 0; s < r->nstreams; s++)
            n += r->streams[s].kernels + r->streams[s].memcpys + r->streams[s].memsets;
        return n;
    }
    for (size_t i = 0; i < r->nrows; i++)
        n += astack_is_attributed(&r->events[r->rows[i]]);
    return n;
}

static int build(struct builder *b, struct astack_tree *tree)
{
    const struct rank_model *r = b->r;
    for (size_t i = 0; i < r->nthreads; i++) {
        uint64_t key = (uint64_t)r->threads[i].pid << 32 | r->threads[i].tid;
        if (hmap_put(&b->threads, (int64_t)key, (uint32_t)i))
            return ERR_NOMEM;
    }
    if (new_node(b, ASTACK_NONE, ASTACK_ROOT, 0) == ASTACK_NONE)
        return ERR_NOMEM;
    size_t n = attributed_rows(b->m, r);
    uint32_t *pos = malloc((n ? n : 1) * sizeof *pos);
    uint32_t *node = malloc((n ? n : 1) * sizeof *node);
    int rc = pos && node ? 0 : ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; rc == 0 && i < r->nrows && k < n; i++) {
        const struct event *g = &r->events[r->rows[i]];
        if (!astack_is_attributed(g))
            continue;
        uint32_t v = attribute(b, g);
        if (v == ASTACK_NONE) {
            rc = ERR_NOMEM;
            break;
        }
        b->nodes[v].self_ns = add_ns_sat(b->nodes[v].self_ns, g->dur);
        b->nodes[v].self_count++;
        pos[k] = r->rows[i];
        node[k++] = v;
    }
    tree->nodes = b->nodes;
    tree->nnodes = b->nnodes;
    b->nodes = NULL;
    if (rc == 0)
        rc = link_children(tree);
    if (rc == 0)
        rc = group_events(tree, pos, node, k);
    if (rc == 0) {
        tree->no_launch = b->no_launch == ASTACK_NONE ? 0 : tree->nodes[b->no_launch].self_count;
        /* the model counts the annotations' own crossings as it nests */
        tree->crossing = b->mode == ASTACK_ANNOTATIONS ? r->crossing_annotations
                                                       : count_crossing(r, b->mode);
    }
    free(pos);
    free(node);
    return rc;
}

int astack_build(const struct model *m, const struct rank_model *r, enum astack_mode mode,
                 struct astack_tree *tree, struct err *e)
{
    memset(tree, 0, sizeof *tree);
    tree->m = m;
    tree->r = r;
    struct builder b = {.m = m, .r = r, .mode = mode, .no_launch = ASTACK_NONE,
                        .last_ti = UINT32_MAX, .last_node = ASTACK_NONE};
    b.cursor = calloc(r->nthreads + 1, sizeof *b.cursor);
    int rc = b.cursor ? hmap_init(&b.threads, r->nthreads + 1) : ERR_NOMEM;
    if (rc == 0)
        rc = hmap_init(&b.trie, 64);
    if (rc == 0)
        rc = build(&b, tree);
    hmap_fini(&b.threads);
    hmap_fini(&b.trie);
    free(b.nodes);
    free(b.chain);
    free(b.last_chain);
    free(b.cursor);
    if (rc) {
        astack_free(tree);
        return err_set(e, rc, "out of memory attributing GPU time to annotation stacks of rank %lld",
                       (long long)r->rank);
    }
    return 0;
}

void astack_free(struct astack_tree *tree)
{
    free(tree->nodes);
    free(tree->events);
    free(tree->first);
    tree->nodes = NULL;
    tree->events = NULL;
    tree->first = NULL;
    tree->nnodes = tree->nevents = 0;
}

const char *astack_node_name(const struct astack_tree *tree, uint32_t node)
{
    if (node >= tree->nnodes)
        return "";
    switch (tree->nodes[node].kind) {
    case ASTACK_EVENT:
        return model_str(tree->m, tree->nodes[node].name);
    case ASTACK_NO_LAUNCH:
        return ASTACK_NO_LAUNCH_NAME;
    default:
        return "";
    }
}

/* Bytes of name once escaped; writes them to out when not NULL. */
static size_t escape_name(const char *name, char *out)
{
    size_t n = 0;
    for (const char *p = name; *p; p++) {
        if (*p == '/' || *p == '\\') {
            if (out)
                out[n] = '\\';
            n++;
        }
        if (out)
            out[n] = *p;
        n++;
    }
    return n;
}

char *astack_node_path(const struct astack_tree *tree, uint32_t node)
{
    if (node >= tree->nnodes)
        return NULL;
    size_t len = 1;
    for (uint32_t v = node; v != 0; v = tree->nodes[v].parent)
        len += escape_name(astack_node_name(tree, v), NULL) + 3;
    char *s = malloc(len);
    if (!s)
        return NULL;
    size_t at = len - 1;
    s[at] = '\0';
    for (uint32_t v = node; v != 0; v = tree->nodes[v].parent) {
        const char *name = astack_node_name(tree, v);
        size_t l = escape_name(name, NULL);
        at -= l;
        escape_name(name, s + at);
        if (tree->nodes[v].parent != 0) {
            at -= 3;
            memcpy(s + at, " / ", 3);
        }
    }
    if (at)
        memmove(s, s + at, len - at);
    return s;
}
