#include "config.h"
#include "analysis/annotation_tree.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "util/hmap.h"
#include "util/sort.h"

/* Merging works in two passes: the first creates the merged nodes (so
 * their number is known), the second records where each rank has each
 * node and folds the ranks' times into sums, min and max. Nodes are keyed
 * by (merged parent, name) in two maps, stack children and leaves, so a
 * name that is both an annotation and a kernel stays two nodes. */

#define NO_LAUNCH_KEY UINT32_MAX

struct merger {
    struct atree *t;
    size_t cap;
    struct hmap stacks, leaves;   /* parent << 32 | name -> merged node */
    uint32_t **rmap;              /* per rank: its node -> merged node */
};

static int64_t child_key(uint32_t parent, uint32_t name)
{
    return (int64_t)((uint64_t)parent << 32 | name);
}

static uint32_t new_node(struct merger *g, uint32_t parent, uint8_t kind, uint32_t name)
{
    struct atree *t = g->t;
    if (t->nnodes >= UINT32_MAX - 1)
        return ATREE_NONE;
    if (t->nnodes == g->cap) {
        size_t c = g->cap ? 2 * g->cap : 64;
        struct atree_node *n = realloc(t->nodes, c * sizeof *n);
        if (!n)
            return ATREE_NONE;
        t->nodes = n;
        g->cap = c;
    }
    uint32_t depth = parent == ATREE_NONE ? 0 : t->nodes[parent].depth + 1;
    t->nodes[t->nnodes] = (struct atree_node){
        .parent = parent, .first_child = ATREE_NONE, .next_sibling = ATREE_NONE,
        .name = name, .depth = depth, .kind = kind, .min_ns = INT64_MAX,
        .max_ns = INT64_MIN, .slowest_rank = -1};
    return (uint32_t)t->nnodes++;
}

static uint32_t child(struct merger *g, struct hmap *map, uint32_t parent, uint8_t kind,
                      uint32_t name)
{
    int64_t key = child_key(parent, name);
    uint32_t *v = hmap_get(map, key);
    if (v)
        return *v;
    uint32_t n = new_node(g, parent, kind, name);
    if (n == ATREE_NONE || hmap_put(map, key, n))
        return ATREE_NONE;
    return n;
}

/* Pass 1 for rank k: merged node of each of its nodes (parents come before
 * children in a rank tree), and a leaf for each name of its self events. */
static int merge_nodes(struct merger *g, size_t k)
{
    const struct astack_tree *rt = &g->t->ranks[k];
    uint32_t *map = malloc((rt->nnodes ? rt->nnodes : 1) * sizeof *map);
    if (!map)
        return ERR_NOMEM;
    g->rmap[k] = map;
    for (size_t v = 0; v < rt->nnodes; v++) {
        const struct astack_node *nd = &rt->nodes[v];
        if (v == 0) {
            map[v] = 0;
        } else if (nd->kind == ASTACK_NO_LAUNCH) {
            map[v] = child(g, &g->stacks, map[nd->parent], ATREE_NO_LAUNCH, NO_LAUNCH_KEY);
        } else {
            map[v] = child(g, &g->stacks, map[nd->parent], ATREE_STACK, nd->name);
        }
        if (map[v] == ATREE_NONE)
            return ERR_NOMEM;
        for (size_t i = rt->first[v]; i < rt->first[v + 1]; i++) {
            const struct event *ev = &rt->r->events[rt->events[i]];
            if (child(g, &g->leaves, map[v], ATREE_KERNEL, ev->name) == ATREE_NONE)
                return ERR_NOMEM;
        }
    }
    return 0;
}

static void fold(struct atree_node *n, int64_t incl, int64_t rank)
{
    n->nranks++;
    n->min_ns = incl < n->min_ns ? incl : n->min_ns;
    if (incl > n->max_ns || (incl == n->max_ns && rank < n->slowest_rank)) {
        n->max_ns = incl;
        n->slowest_rank = rank;
    }
}

/* Pass 2 for rank k. acc and stamp have one entry per merged node; stamp
 * marks the leaves this rank touched (k + 1), listed in touched. */
static int fold_rank(struct merger *g, size_t k, int64_t *acc, uint64_t *cnt, uint32_t *stamp,
                     uint32_t *touched)
{
    struct atree *t = g->t;
    const struct astack_tree *rt = &t->ranks[k];
    const uint32_t *map = g->rmap[k];
    size_t ntouched = 0;
    for (size_t v = 0; v < rt->nnodes; v++) {
        const struct astack_node *nd = &rt->nodes[v];
        struct atree_node *n = &t->nodes[map[v]];
        t->rank_node[(size_t)map[v] * t->nranks + k] = (uint32_t)v;
        n->incl_ns = add_ns_sat(n->incl_ns, nd->incl_ns);
        n->self_ns = add_ns_sat(n->self_ns, nd->self_ns);
        n->count += nd->incl_count;
        fold(n, nd->incl_ns, rt->r->rank);
        for (size_t i = rt->first[v]; i < rt->first[v + 1]; i++) {
            const struct event *ev = &rt->r->events[rt->events[i]];
            uint32_t *leaf = hmap_get(&g->leaves, child_key(map[v], ev->name));
            if (!leaf)
                return ERR_INTERNAL;
            if (stamp[*leaf] != k + 1) {
                stamp[*leaf] = (uint32_t)(k + 1);
                acc[*leaf] = 0;
                cnt[*leaf] = 0;
                touched[ntouched++] = *leaf;
                t->rank_node[(size_t)*leaf * t->nranks + k] = (uint32_t)v;
            }
            acc[*leaf] = add_ns_sat(acc[*leaf], ev->dur);
            cnt[*leaf]++;
        }
    }
    for (size_t i = 0; i < ntouched; i++) {
        struct atree_node *n = &t->nodes[touched[i]];
        n->incl_ns = add_ns_sat(n->incl_ns, acc[touched[i]]);
        n->self_ns = n->incl_ns;
        n->count += cnt[touched[i]];
        fold(n, acc[touched[i]], rt->r->rank);
    }
    return 0;
}

/* A node's place among its siblings, materialized for the sort. */
struct sibling_key {
    uint32_t parent, node;
    int64_t incl;
    bool leaf;
    const char *name;
};

static bool sibling_less(const struct sibling_key *x, const struct sibling_key *y)
{
    if (x->parent != y->parent)
        return x->parent < y->parent;
    if (x->incl != y->incl)
        return x->incl > y->incl;
    if (x->leaf != y->leaf)
        return y->leaf;
    int c = strcmp(x->name, y->name);
    return c ? c < 0 : x->node < y->node;
}

SORT_DEFINE_STABLE(sort_siblings, struct sibling_key, sibling_less)

/* Links children in sibling order and lists the nodes depth first. */
static int link_children(struct atree *t)
{
    size_t n = t->nnodes;
    struct sibling_key *order = malloc(n * sizeof *order);
    uint32_t *stack = malloc(n * sizeof *stack);
    t->preorder = malloc(n * sizeof *t->preorder);
    t->preorder_pos = malloc(n * sizeof *t->preorder_pos);
    if (!order || !stack || !t->preorder || !t->preorder_pos) {
        free(order);
        free(stack);
        return ERR_NOMEM;
    }
    for (uint32_t i = 1; i < n; i++)
        order[i - 1] = (struct sibling_key){t->nodes[i].parent, i, t->nodes[i].incl_ns,
                                            t->nodes[i].kind == ATREE_KERNEL, atree_name(t, i)};
    if (sort_siblings(order, n - 1)) {
        free(order);
        free(stack);
        return ERR_NOMEM;
    }
    // Linking the sorted list backwards leaves each first_child at the head.
    for (size_t i = n - 1; i-- > 0;) {
        struct atree_node *c = &t->nodes[order[i].node], *p = &t->nodes[c->parent];
        c->next_sibling = p->first_child;
        p->first_child = order[i].node;
    }
    size_t sp = 0, k = 0;
    stack[sp++] = 0;
    while (sp) {
        uint32_t v = stack[--sp];
        t->preorder_pos[v] = (uint32_t)k;
        t->preorder[k++] = v;
        size_t mark = sp;
        for (uint32_t c = t->nodes[v].first_child; c != ATREE_NONE; c = t->nodes[c].next_sibling)
            stack[sp++] = c;
        for (size_t i = mark, j = sp; i + 1 < j; i++, j--) {
            uint32_t x = stack[i];
            stack[i] = stack[j - 1];
            stack[j - 1] = x;
        }
    }
    free(order);
    free(stack);
    return 0;
}

static int merge(struct merger *g)
{
    struct atree *t = g->t;
    if (new_node(g, ATREE_NONE, ATREE_ROOT, 0) == ATREE_NONE)
        return ERR_NOMEM;
    for (size_t k = 0; k < t->nranks; k++) {
        int rc = merge_nodes(g, k);
        if (rc)
            return rc;
    }
    size_t n = t->nnodes;
    if (t->nranks && n > SIZE_MAX / sizeof *t->rank_node / t->nranks)
        return ERR_NOMEM;
    t->rank_node = malloc(n * (t->nranks ? t->nranks : 1) * sizeof *t->rank_node);
    int64_t *acc = malloc(n * sizeof *acc);
    uint64_t *cnt = malloc(n * sizeof *cnt);
    uint32_t *stamp = calloc(n, sizeof *stamp), *touched = malloc(n * sizeof *touched);
    int rc = t->rank_node && acc && cnt && stamp && touched ? 0 : ERR_NOMEM;
    if (rc == 0)
        memset(t->rank_node, 0xFF, n * t->nranks * sizeof *t->rank_node);
    for (size_t k = 0; k < t->nranks && rc == 0; k++)
        rc = fold_rank(g, k, acc, cnt, stamp, touched);
    free(acc);
    free(cnt);
    free(stamp);
    free(touched);
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct atree_node *nd = &t->nodes[i];
        if (nd->nranks < t->nranks || nd->nranks == 0)
            nd->min_ns = 0;
        if (nd->nranks == 0)
            nd->max_ns = 0;
    }
    return rc ? rc : link_children(t);
}

int atree_build(const struct model *m, enum astack_mode mode, struct atree *t, struct err *e)
{
    memset(t, 0, sizeof *t);
    t->m = m;
    size_t nsel = 0;
    for (size_t i = 0; i < m->nranks; i++)
        nsel += m->ranks[i].selected;
    t->ranks = calloc(nsel ? nsel : 1, sizeof *t->ranks);
    struct merger g = {.t = t};
    g.rmap = calloc(nsel ? nsel : 1, sizeof *g.rmap);
    if (!t->ranks || !g.rmap) {
        free(g.rmap);
        atree_free(t);
        return err_set(e, ERR_NOMEM, "out of memory building the annotation tree");
    }
    for (size_t i = 0; i < m->nranks; i++) {
        if (!m->ranks[i].selected)
            continue;
        int rc = astack_build(m, &m->ranks[i], mode, &t->ranks[t->nranks], e);
        if (rc) {
            for (size_t k = 0; k < nsel; k++)
                free(g.rmap[k]);
            free(g.rmap);
            atree_free(t);
            return rc;
        }
        t->no_launch += t->ranks[t->nranks].no_launch;
        t->crossing += t->ranks[t->nranks].crossing;
        t->nranks++;
    }
    int rc = hmap_init(&g.stacks, 256);
    if (rc == 0)
        rc = hmap_init(&g.leaves, 256);
    if (rc == 0)
        rc = merge(&g);
    hmap_fini(&g.stacks);
    hmap_fini(&g.leaves);
    for (size_t k = 0; k < nsel; k++)
        free(g.rmap[k]);
    free(g.rmap);
    if (rc) {
        atree_free(t);
        return err_set(e, rc, "out of memory building the annotation tree");
    }
    return 0;
}

void atree_free(struct atree *t)
{
    for (size_t k = 0; t->ranks && k < t->nranks; k++)
        astack_free(&t->ranks[k]);
    free(t->ranks);
    free(t->nodes);
    free(t->rank_node);
    free(t->preorder);
    free(t->preorder_pos);
    memset(t, 0, sizeof *t);
}

const char *atree_name(const struct atree *t, uint32_t node)
{
    if (node >= t->nnodes)
        return "";
    switch (t->nodes[node].kind) {
    case ATREE_STACK:
    case ATREE_KERNEL:
        return model_str(t->m, t->nodes[node].name);
    case ATREE_NO_LAUNCH:
        return ASTACK_NO_LAUNCH_NAME;
    default:
        return "";
    }
}

/* An event with its start, materialized for the sort. */
struct timed_event {
    int64_t ts;
    struct atree_event ev;
};

static bool starts_before(const struct timed_event *a, const struct timed_event *b)
{
    if (a->ts != b->ts)
        return a->ts < b->ts;
    if (a->ev.rank != b->ev.rank)
        return a->ev.rank < b->ev.rank;
    return a->ev.pos < b->ev.pos;
}

SORT_DEFINE_STABLE(sort_timed, struct timed_event, starts_before)

/* Appends rank k's events of stack node v and, unless only_name is set,
 * of its whole subtree; with only_name, those named so (a leaf). */
static int collect(const struct atree *t, size_t k, uint32_t v, bool only_name, uint32_t name,
                   struct timed_event *out, size_t *n)
{
    const struct astack_tree *rt = &t->ranks[k];
    uint32_t rank = (uint32_t)(rt->r - t->m->ranks);
    uint32_t u = v;
    for (;;) {
        for (size_t i = rt->first[u]; i < rt->first[u + 1]; i++)
            if (!only_name || rt->r->events[rt->events[i]].name == name)
                out[(*n)++] = (struct timed_event){rt->r->events[rt->events[i]].ts,
                                                   {rank, rt->events[i]}};
        if (only_name)
            return 0;
        // Depth first over v's subtree without a stack: down, else across, else up.
        if (rt->nodes[u].first_child != ASTACK_NONE) {
            u = rt->nodes[u].first_child;
            continue;
        }
        while (u != v && rt->nodes[u].next_sibling == ASTACK_NONE)
            u = rt->nodes[u].parent;
        if (u == v)
            return 0;
        u = rt->nodes[u].next_sibling;
    }
}

int atree_events(const struct atree *t, uint32_t node, struct atree_event **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (node >= t->nnodes)
        return 0;
    const struct atree_node *nd = &t->nodes[node];
    struct timed_event *ev = malloc((nd->count ? nd->count : 1) * sizeof *ev);
    if (!ev)
        return ERR_NOMEM;
    bool leaf = nd->kind == ATREE_KERNEL;
    for (size_t k = 0; k < t->nranks; k++) {
        uint32_t v = t->rank_node[(size_t)node * t->nranks + k];
        if (v != ASTACK_NONE)
            collect(t, k, v, leaf, nd->name, ev, n);
    }
    struct atree_event *pairs = malloc((*n ? *n : 1) * sizeof *pairs);
    if (!pairs || sort_timed(ev, *n)) {
        free(pairs);
        free(ev);
        *n = 0;
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < *n; i++)
        pairs[i] = ev[i].ev;
    free(ev);
    *out = pairs;
    return 0;
}

uint32_t atree_find(const struct atree *t, uint32_t from, int dir,
                    bool (*match)(const char *name, const void *ctx), const void *ctx)
{
    size_t n = t->nnodes;
    if (n < 2)
        return ATREE_NONE;
    size_t at = from < n ? t->preorder_pos[from] : 0;
    for (size_t step = 1; step < n + 1; step++) {
        size_t i = dir < 0 ? (at + n * 2 - step) % n : (at + step) % n;
        uint32_t v = t->preorder[i];
        if (v != 0 && match(atree_name(t, v), ctx))
            return v;
    }
    return ATREE_NONE;
}
