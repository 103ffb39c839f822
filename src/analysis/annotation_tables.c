#include "config.h"
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/annotations.h"
#include "analysis/stats.h"
#include "analysis/classify.h"
#include "analysis/topn.h"
#include "util/hmap.h"
#include "util/vec.h"

/* annotations_run (spec §3.8): kernels_by_annotation (HTA's innermost
 * attribution, summed per short name as HTA's frame grouped by
 * s_user_annotation), annotation_tree (htx: kernel time per full annotation
 * stack) and user_annotation_breakdown (HTA's top-N table of the annotations
 * themselves). */

static uint8_t category(bool gpu)
{
    return gpu ? EV_KIND_GPU_USER_ANNOTATION : EV_KIND_USER_ANNOTATION;
}

struct inner_sum {
    int64_t ns;
    uint64_t n;
};

struct tnode {
    uint32_t parent, disp, depth;
    int64_t self_ns, tot_ns;
    uint64_t self_n, tot_n;
};

/* Per-rank attribution state. Display names (short or full) get ids in a
 * local string table; kernel time is summed per innermost display name
 * (kernels_by_annotation) and per stack path in a trie (annotation_tree). */
struct attr {
    const struct model *m;
    const struct rank_model *r;
    const struct annot_index *x;
    bool shorten;
    struct strtab disp;
    uint32_t *disp_of;         /* per entry, STRTAB_NONE until known */
    char *buf;
    size_t bufsz;
    struct inner_sum *inner;   /* by display id */
    size_t inner_cap;
    struct hmap trie;          /* parent << 32 | disp -> node */
    struct tnode *nodes;
    size_t nnodes, nodes_cap;
    uint32_t *entries;         /* one kernel's stack */
    uint32_t *path;            /* its trie nodes, root first: npath + 1 */
    size_t npath;
    uint32_t inner_id;         /* its innermost display id, 0 for none */
    struct annot_span span;    /* where that stack holds */
};

static uint32_t display_id(struct attr *a, uint32_t entry)
{
    if (a->disp_of[entry] != STRTAB_NONE)
        return a->disp_of[entry];
    const char *name = model_str(a->m, a->r->events[annot_entry_pos(a->x, entry)].name);
    size_t len = strlen(name);
    if (a->shorten) {
        if (len + 1 > a->bufsz) {
            char *b = realloc(a->buf, len + 1);
            if (!b)
                return STRTAB_NONE;
            a->buf = b;
            a->bufsz = len + 1;
        }
        shorten_name(name, a->buf, a->bufsz);
        name = a->buf;
        len = strlen(name);
    }
    a->disp_of[entry] = strtab_intern(&a->disp, name, len);
    return a->disp_of[entry];
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * elem);
    if (!q)
        return ERR_NOMEM;
    memset((char *)q + *cap * elem, 0, (c - *cap) * elem);
    *p = q;
    *cap = c;
    return 0;
}

/* The child of parent named disp, created on first use; UINT32_MAX on ENOMEM. */
static uint32_t trie_child(struct attr *a, uint32_t parent, uint32_t disp)
{
    int64_t key = (int64_t)((uint64_t)parent << 32 | disp);
    uint32_t *v = hmap_get(&a->trie, key);
    if (v)
        return *v;
    if (grow((void **)&a->nodes, &a->nodes_cap, a->nnodes + 1, sizeof *a->nodes) ||
        hmap_put(&a->trie, key, (uint32_t)a->nnodes))
        return UINT32_MAX;
    a->nodes[a->nnodes] = (struct tnode){parent, disp, a->nodes[parent].depth + 1, 0, 0, 0, 0};
    return (uint32_t)a->nnodes++;
}

/* Adds one kernel: its stack to the trie, its time to the innermost name. */
static int attribute_kernel(struct attr *a, uint32_t pos, int64_t dur)
{
    if (!annot_span_holds(a->x, pos, &a->span)) {   /* else the last kernel's stack */
        size_t n = annot_stack_entries_span(a->x, pos, a->entries, &a->span);
        uint32_t node = 0;
        a->path[0] = 0;
        a->npath = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t d = display_id(a, a->entries[i]);
            if (d == STRTAB_NONE || (node = trie_child(a, node, d)) == UINT32_MAX) {
                a->span.group = NULL;
                return ERR_NOMEM;
            }
            a->path[i + 1] = node;
        }
        a->npath = n;
        a->inner_id = n ? a->disp_of[a->entries[n - 1]] : 0;
        if (grow((void **)&a->inner, &a->inner_cap, (size_t)a->inner_id + 1, sizeof *a->inner)) {
            a->span.group = NULL;
            return ERR_NOMEM;
        }
    }
    uint32_t node = a->path[a->npath];
    a->nodes[node].self_ns = add_ns_sat(a->nodes[node].self_ns, dur);
    a->nodes[node].self_n++;
    for (size_t i = 0; i <= a->npath; i++) {
        a->nodes[a->path[i]].tot_ns = add_ns_sat(a->nodes[a->path[i]].tot_ns, dur);
        a->nodes[a->path[i]].tot_n++;
    }
    uint32_t inner = a->inner_id;
    a->inner[inner].ns = add_ns_sat(a->inner[inner].ns, dur);
    a->inner[inner].n++;
    return 0;
}

static int attr_init(struct attr *a, const struct model *m, const struct rank_model *r,
                     const struct annot_index *x, bool shorten)
{
    memset(a, 0, sizeof *a);
    a->m = m;
    a->r = r;
    a->x = x;
    a->shorten = shorten;
    size_t n = annot_index_count(x) ? annot_index_count(x) : 1;
    size_t depth = annot_index_max_stack(x);
    int rc = strtab_init(&a->disp);
    if (rc == 0)
        rc = hmap_init(&a->trie, 64);
    a->disp_of = malloc(n * sizeof *a->disp_of);
    a->entries = malloc((depth ? depth : 1) * sizeof *a->entries);
    a->path = malloc((depth + 1) * sizeof *a->path);
    if (rc || !a->disp_of || !a->entries || !a->path ||
        grow((void **)&a->nodes, &a->nodes_cap, 1, sizeof *a->nodes))
        return ERR_NOMEM;
    for (size_t i = 0; i < annot_index_count(x); i++)
        a->disp_of[i] = STRTAB_NONE;
    a->nodes[0] = (struct tnode){UINT32_MAX, 0, 0, 0, 0, 0, 0};
    a->nnodes = 1;
    return 0;
}

static void attr_fini(struct attr *a)
{
    strtab_fini(&a->disp);
    hmap_fini(&a->trie);
    free(a->disp_of);
    free(a->buf);
    free(a->inner);
    free(a->nodes);
    free(a->entries);
    free(a->path);
}

struct named_sum {
    const char *name;
    int64_t ns;
    uint64_t n;
};

static int cmp_named_sum(const void *pa, const void *pb)
{
    const struct named_sum *a = pa, *b = pb;
    if (a->ns != b->ns)
        return a->ns > b->ns ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* kernels_by_annotation rows of this rank: by sum descending, then name. */
static int emit_innermost(const struct attr *a, struct table *t)
{
    size_t k = 0;
    struct named_sum *v = malloc((a->inner_cap ? a->inner_cap : 1) * sizeof *v);
    if (!v)
        return ERR_NOMEM;
    for (size_t id = 0; id < a->inner_cap; id++)
        if (a->inner[id].n)
            v[k++] = (struct named_sum){strtab_str(&a->disp, (uint32_t)id), a->inner[id].ns,
                                        a->inner[id].n};
    qsort(v, k, sizeof *v, cmp_named_sum);
    int rc = 0;
    for (size_t i = 0; i < k && rc == 0; i++) {
        struct cell *row = table_add_row(t);
        if (!row) {
            rc = ERR_NOMEM;
            break;
        }
        row[0] = cell_int(a->r->rank);
        row[1] = cell_str(t, v[i].name);
        row[2] = cell_double((double)v[i].ns / 1000.0);
        row[3] = cell_int((int64_t)v[i].n);
    }
    free(v);
    return rc;
}

struct tree_ref {
    uint32_t node, parent;
    const char *name;
};

static int cmp_tree_ref(const void *pa, const void *pb)
{
    const struct tree_ref *a = pa, *b = pb;
    if (a->parent != b->parent)
        return a->parent < b->parent ? -1 : 1;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->node > b->node) - (a->node < b->node);
}

/* "outer > ... > inner" for a trie node. Caller frees. */
static char *node_path(const struct attr *a, uint32_t node)
{
    size_t len = 1;
    for (uint32_t v = node; v != 0; v = a->nodes[v].parent)
        len += strlen(strtab_str(&a->disp, a->nodes[v].disp)) + 3;
    char *s = malloc(len);
    if (!s)
        return NULL;
    size_t at = len - 1;
    s[at] = '\0';
    for (uint32_t v = node; v != 0; v = a->nodes[v].parent) {
        const char *name = strtab_str(&a->disp, a->nodes[v].disp);
        size_t l = strlen(name);
        at -= l;
        memcpy(s + at, name, l);
        if (a->nodes[v].parent != 0) {
            at -= 3;
            memcpy(s + at, " > ", 3);
        }
    }
    if (at)
        memmove(s, s + at, len - at);
    return s;
}

static int tree_row(const struct attr *a, struct table *t, uint32_t node)
{
    const struct tnode *nd = &a->nodes[node];
    char *path = node_path(a, node);
    struct cell *row = path ? table_add_row(t) : NULL;
    if (!row) {
        free(path);
        return ERR_NOMEM;
    }
    bool root = node == 0;
    row[0] = cell_int(a->r->rank);
    row[1] = cell_str(t, path);
    row[2] = cell_int(nd->depth);
    row[3] = cell_str(t, root ? "" : strtab_str(&a->disp, nd->disp));
    row[4] = cell_double((double)(root ? nd->self_ns : nd->tot_ns) / 1000.0);
    row[5] = cell_int((int64_t)(root ? nd->self_n : nd->tot_n));
    row[6] = cell_double((double)nd->self_ns / 1000.0);
    row[7] = cell_int((int64_t)nd->self_n);
    free(path);
    return 0;
}

/* annotation_tree rows of this rank, depth first, siblings by name; the
 * kernels outside every annotation come first as the "" path. */
static int emit_tree(const struct attr *a, struct table *t)
{
    size_t n = a->nnodes;
    struct tree_ref *refs = malloc(n * sizeof *refs);
    size_t *first = calloc(n + 1, sizeof *first);
    uint32_t *stack = malloc(n * sizeof *stack);
    int rc = refs && first && stack ? 0 : ERR_NOMEM;
    size_t nrefs = 0;
    for (uint32_t v = 1; rc == 0 && v < n; v++)
        refs[nrefs++] = (struct tree_ref){v, a->nodes[v].parent,
                                          strtab_str(&a->disp, a->nodes[v].disp)};
    if (rc == 0) {
        qsort(refs, nrefs, sizeof *refs, cmp_tree_ref);
        /* children of p: refs[first[p] .. first[p + 1]) */
        for (size_t i = 0; i < nrefs; i++)
            first[refs[i].parent + 1]++;
        for (size_t p = 0; p < n; p++)
            first[p + 1] += first[p];
        if (a->nodes[0].self_n)
            rc = tree_row(a, t, 0);
    }
    size_t sp = 0;
    for (size_t i = rc == 0 ? first[1] : 0; i > 0; i--)
        stack[sp++] = refs[i - 1].node;
    while (rc == 0 && sp) {
        uint32_t v = stack[--sp];
        rc = tree_row(a, t, v);
        for (size_t i = first[v + 1]; rc == 0 && i > first[v]; i--)
            stack[sp++] = refs[i - 1].node;
    }
    free(refs);
    free(first);
    free(stack);
    return rc;
}

/* user_annotation_breakdown rows of this rank (§3.8, §2.4). */
static int emit_breakdown(const struct model *m, const struct rank_model *r,
                          const struct analysis_opts *o, struct table *t)
{
    uint8_t kind = category(o->use_gpu_annotation);
    size_t n = 0, cap = 0;
    struct topn_item *items = NULL;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (ev->kind != kind)
            continue;
        if (VEC_PUSH_SLOT(items, n, cap)) {
            free(items);
            return ERR_NOMEM;
        }
        items[n++] = (struct topn_item){ev->name, (double)ev->dur / 1000.0};
    }
    if (n == 0)
        return 0;
    struct topn_opts to = {o->annotation_num_kernels, o->annotation_duration_ratio, NULL, 0,
                           m->sem.unstable_sort, m->sem.top_n_loses_stats};
    struct topn_row *rows;
    size_t nrows;
    int rc = topn_aggregate(&m->strings, items, n, &to, &rows, &nrows);
    free(items);
    for (size_t i = 0; rc == 0 && i < nrows; i++) {
        struct cell *row = table_add_row(t);
        if (!row) {
            rc = ERR_NOMEM;
            break;
        }
        row[0] = cell_str(t, rows[i].text);
        row[1] = cell_double(rows[i].sum);
        row[2] = cell_double(rows[i].max);
        row[3] = cell_double(rows[i].min);
        row[4] = cell_double(rows[i].std);
        row[5] = cell_double(rows[i].mean);
        row[6] = cell_int(r->rank);
    }
    free(rows);
    return rc;
}

static int attribute_rank(const struct model *m, const struct rank_model *r,
                          const struct analysis_opts *o, struct arena *scratch,
                          struct table *inner, struct table *tree, struct err *e)
{
    struct annot_index *x = annot_index_new(m, r, o->use_gpu_annotation, scratch, e);
    if (!x)
        return e ? e->code : ERR_NOMEM;
    struct attr a;
    int rc = attr_init(&a, m, r, x, o->shorten_names);
    for (size_t i = 0; rc == 0 && i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (annot_is_kernel(m, ev))
            rc = attribute_kernel(&a, r->rows[i], ev->dur);
    }
    if (rc == 0)
        rc = emit_innermost(&a, inner);
    if (rc == 0)
        rc = emit_tree(&a, tree);
    attr_fini(&a);
    if (rc)
        return err_set(e, rc, "out of memory attributing kernels of rank %lld",
                       (long long)r->rank);
    return 0;
}

static const struct table_col inner_cols[] = {
    {"rank", NULL, COL_KEY},
    {"s_user_annotation", NULL, COL_KEY},
    {"sum", "us", 0},
    {"count", NULL, 0},
};

static const struct table_col tree_cols[] = {
    {"rank", NULL, COL_KEY},
    {"annotation_path", NULL, COL_KEY},
    {"depth", NULL, 0},
    {"annotation", NULL, 0},
    {"sum", "us", 0},
    {"count", NULL, 0},
    {"self_sum", "us", 0},
    {"self_count", NULL, 0},
};

static const struct table_col breakdown_cols[] = {
    {"name", NULL, COL_KEY},
    {"sum (us)", "us", 0},
    {"max (us)", "us", 0},
    {"min (us)", "us", 0},
    {"stddev", "us", 0},
    {"mean (us)", "us", 0},
    {"rank", NULL, COL_KEY},
};

#define NCOLS(c) (sizeof(c) / sizeof((c)[0]))


static int hta_tables(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                      struct table_list *out, struct err *e)
{
    bool gpu = o->use_gpu_annotation;
    const char *cat = gpu ? "gpu_user_annotation" : "user_annotation";
    struct table *inner = table_list_new(scratch, out, "kernels_by_annotation",
                                    "Kernel time by innermost annotation", inner_cols,
                                    NCOLS(inner_cols), e);
    struct table *tree = inner ? table_list_new(scratch, out, "annotation_tree",
                                           "Kernel time by annotation stack", tree_cols,
                                           NCOLS(tree_cols), e)
                               : NULL;
    struct table *brk = tree ? table_list_new(scratch, out, "user_annotation_breakdown",
                                         "Annotation time breakdown", breakdown_cols,
                                         NCOLS(breakdown_cols), e)
                             : NULL;
    if (!brk)
        return e ? e->code : ERR_NOMEM;
    if (!annot_category_seen(m, gpu)) {
        table_set_note(inner, "no %s events in the trace (HTA returns None)", cat);
        table_set_note(tree, "no %s events in the trace", cat);
        table_set_note(brk, "no %s events in the trace (HTA returns None)", cat);
        return 0;
    }
    for (size_t i = 0; i < m->nranks; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        int rc = attribute_rank(m, r, o, scratch, inner, tree, e);
        if (rc == 0 && emit_breakdown(m, r, o, brk))
            rc = err_set(e, ERR_NOMEM, "out of memory in the annotation breakdown");
        if (rc)
            return rc;
    }
    if (inner->nrows == 0)
        table_set_note(inner, "no kernels in the selection");
    if (brk->nrows == 0)
        table_set_note(brk, "no %s events in the selection", cat);
    if (!gpu && inner->nrows)
        table_set_note(inner, "user_annotation: attributed through each kernel's launching "
                              "CPU event");
    return 0;
}

int annotations_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                    struct table_list *out, struct err *e)
{
    int rc = hta_tables(m, o, scratch, out, e);
    if (rc == 0 && !m->sem.hta_annotations_only)
        rc = annotation_stack_tables(m, o, scratch, out, e);
    return rc;
}
