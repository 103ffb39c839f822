#include "config.h"
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/annotation_stacks.h"
#include "analysis/stats.h"
#include "util/strtab.h"

/* The htx tables of the annotations analysis:
 * kernels_by_annotation_stack, one row per node of each selected rank's
 * tree (annotation_stacks.h), depth first with children by inclusive time
 * descending, the root first as the "" path; and
 * kernels_by_annotation_stack_ranks, one row per path over the selected
 * ranks (sum, and min/mean/max over the ranks, a rank without the path
 * counting 0), in order of first appearance in that walk. */

/* Cross-rank sums of one path. */
struct path_sum {
    int64_t sum, min, max;  /* of the inclusive ns over the ranks that have the path */
    uint64_t count;
    uint32_t depth, ranks;
};

/* Cross-rank sums, by path id in a local string table. */
struct across {
    struct strtab paths;
    struct path_sum *v;
    size_t n, cap;          /* path ids below n are initialised */
};

static int across_add(struct across *c, const char *path, uint32_t depth,
                      const struct astack_node *nd)
{
    uint32_t id = strtab_intern(&c->paths, path, strlen(path));
    if (id == STRTAB_NONE)
        return ERR_NOMEM;
    if (id >= c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        while (cap <= id)
            cap *= 2;
        struct path_sum *v = realloc(c->v, cap * sizeof *v);
        if (!v)
            return ERR_NOMEM;
        c->v = v;
        c->cap = cap;
    }
    /* ids come in order, but the table may hold "" before its first use */
    for (; c->n <= id; c->n++)
        c->v[c->n] = (struct path_sum){0, INT64_MAX, INT64_MIN, 0, depth, 0};
    struct path_sum *p = &c->v[id];
    p->sum = add_ns_sat(p->sum, nd->incl_ns);
    p->min = nd->incl_ns < p->min ? nd->incl_ns : p->min;
    p->max = nd->incl_ns > p->max ? nd->incl_ns : p->max;
    p->count += nd->incl_count;
    p->ranks++;
    return 0;
}

static int stack_row(const struct astack_tree *tree, uint32_t v, struct table *t,
                     struct across *c)
{
    const struct astack_node *nd = &tree->nodes[v];
    char *path = astack_node_path(tree, v);
    struct cell *row = path ? table_add_row(t) : NULL;
    int rc = row ? 0 : ERR_NOMEM;
    if (rc == 0) {
        row[0] = cell_int(tree->r->rank);
        row[1] = cell_str(t, path);
        row[2] = cell_int(nd->depth);
        row[3] = cell_double((double)nd->incl_ns / 1000.0);
        row[4] = cell_double((double)nd->self_ns / 1000.0);
        row[5] = cell_int((int64_t)nd->incl_count);
        rc = across_add(c, path, nd->depth, nd);
    }
    free(path);
    return rc;
}

/* Depth first from the root, children in their linked (sorted) order. */
static int emit_rank(const struct astack_tree *tree, struct table *t, struct across *c)
{
    uint32_t *stack = malloc(tree->nnodes * sizeof *stack);
    if (!stack)
        return ERR_NOMEM;
    size_t sp = 0;
    int rc = 0;
    stack[sp++] = 0;
    while (sp && rc == 0) {
        uint32_t v = stack[--sp];
        rc = stack_row(tree, v, t, c);
        size_t mark = sp;
        for (uint32_t k = tree->nodes[v].first_child; k != ASTACK_NONE;
             k = tree->nodes[k].next_sibling)
            stack[sp++] = k;
        for (size_t i = mark, j = sp; i + 1 < j; i++, j--) {
            uint32_t x = stack[i];
            stack[i] = stack[j - 1];
            stack[j - 1] = x;
        }
    }
    free(stack);
    return rc;
}

static int emit_across(const struct across *c, size_t nranks, struct table *t)
{
    for (uint32_t id = 0; id < c->n; id++) {
        const struct path_sum *p = &c->v[id];
        if (p->ranks == 0)
            continue;
        struct cell *row = table_add_row(t);
        if (!row)
            return ERR_NOMEM;
        int64_t min = p->ranks < nranks ? 0 : p->min;
        row[0] = cell_str(t, strtab_str(&c->paths, id));
        row[1] = cell_int(p->depth);
        row[2] = cell_double((double)p->sum / 1000.0);
        row[3] = cell_double((double)min / 1000.0);
        row[4] = cell_double((double)p->sum / 1000.0 / (double)nranks);
        row[5] = cell_double((double)p->max / 1000.0);
        row[6] = cell_int((int64_t)p->count);
        row[7] = cell_int(p->ranks);
    }
    return 0;
}

static const struct table_col stack_cols[] = {
    {"rank", NULL, COL_KEY},
    {"path", NULL, COL_KEY},
    {"depth", NULL, 0},
    {"inclusive (us)", "us", 0},
    {"self (us)", "us", 0},
    {"count", NULL, 0},
};

static const struct table_col ranks_cols[] = {
    {"path", NULL, COL_KEY},
    {"depth", NULL, 0},
    {"sum", "us", 0},
    {"min", "us", 0},
    {"mean", "us", 0},
    {"max", "us", 0},
    {"count", NULL, 0},
    {"ranks", NULL, 0},
};

#define NCOLS(c) (sizeof(c) / sizeof((c)[0]))


static int run_ranks(const struct model *m, const struct analysis_opts *o, struct table *t,
                     struct across *c, size_t *nranks, uint64_t *no_launch, uint64_t *crossing,
                     struct err *e)
{
    enum astack_mode mode = o->annotation_stack_ops ? ASTACK_OPS : ASTACK_ANNOTATIONS;
    for (size_t i = 0; i < m->nranks; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        struct astack_tree tree;
        int rc = astack_build(m, r, mode, &tree, e);
        if (rc)
            return rc;
        rc = emit_rank(&tree, t, c);
        *no_launch += tree.no_launch;
        *crossing += tree.crossing;
        (*nranks)++;
        astack_free(&tree);
        if (rc)
            return err_set(e, rc, "out of memory listing annotation stacks");
    }
    return 0;
}

int annotation_stack_tables(const struct model *m, const struct analysis_opts *o,
                            struct arena *scratch, struct table_list *out, struct err *e)
{
    struct table *t = table_list_new(scratch, out, "kernels_by_annotation_stack",
                                "GPU time by CPU annotation stack of the launch", stack_cols,
                                NCOLS(stack_cols), e);
    struct table *x = t ? table_list_new(scratch, out, "kernels_by_annotation_stack_ranks",
                                    "GPU time by CPU annotation stack, over the ranks",
                                    ranks_cols, NCOLS(ranks_cols), e)
                        : NULL;
    if (!x)
        return e ? e->code : ERR_NOMEM;
    struct across c;
    memset(&c, 0, sizeof c);
    if (strtab_init(&c.paths))
        return err_set(e, ERR_NOMEM, "out of memory");
    size_t nranks = 0;
    uint64_t no_launch = 0, crossing = 0;
    int rc = run_ranks(m, o, t, &c, &nranks, &no_launch, &crossing, e);
    if (rc == 0 && nranks && emit_across(&c, nranks, x))
        rc = err_set(e, ERR_NOMEM, "out of memory summing annotation stacks over ranks");
    strtab_fini(&c.paths);
    free(c.v);
    if (rc)
        return rc;
    const char *through = o->annotation_stack_ops
                              ? "user_annotation, cpu_op and python_function"
                              : "user_annotation";
    table_set_note(t, "path: %s events enclosing each launch, outermost first, joined by "
                      "\" / \" (\"/\" in a name is \"\\/\", \"\\\" is \"\\\\\"); "
                      "%llu without launch, %llu crossing annotations",
                   through, (unsigned long long)no_launch, (unsigned long long)crossing);
    table_set_note(x, "min/mean/max over %zu ranks; a rank without the path counts 0", nranks);
    return 0;
}
