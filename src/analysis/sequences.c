#include "config.h"
#include "analysis/analysis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/callgraph.h"
#include "analysis/argsort.h"
#include "analysis/stats.h"
#include "util/vec.h"

/* Frequent CUDA kernel sequences (spec §3.9): for each shallowest call of an
 * operator that launches at least min_pattern_len kernels, the pattern is
 * (op name, its GPU-side descendants by GPU start time). HTA also writes an
 * "overlaid" copy of the trace marking the top_k patterns into output_dir;
 * htx analyses never write files, so that side effect (and top_k, which only
 * feeds it) is left out: the table lists every pattern. */

struct seq_rec {
    const uint32_t *names;   /* root name, then kernel names */
    size_t off, len;         /* into the names buffer (names set after building) */
    uint32_t root;           /* call-graph node */
    int64_t gpu_ns;          /* its GPU-kernel descendants' summed dur */
};

struct pattern_row {
    char *text;
    uint64_t count;
    int64_t gpu_ns, cpu_ns;
};

struct seq_ctx {
    const struct model *m;
    const struct rank_model *r;
    const struct analysis_opts *o;
    struct callgraph *cg;    /* its depths become root slots (group_descendants) */
    uint8_t *match;          /* per name id: 0 unknown, 1 contains operator, 2 not */
    uint32_t *names;         /* all records' name ids */
    size_t nnames, names_cap;
    struct seq_rec *recs;
    size_t nrecs, recs_cap;
    /* The candidate roots (the shallowest calls of the operator), by node;
     * per root, by its slot in roots: */
    uint32_t *roots;
    size_t nroots;
    uint32_t *num_kernels;   /* GPU-kernel descendants */
    int64_t *kernel_ns;      /* their summed dur */
    size_t *first;           /* nroots + 1: root k's GPU-side descendants are */
    uint32_t *found;         /*   found[first[k] .. first[k + 1]), by node */
    /* One root's descendants at a time, grown to the largest: */
    int64_t *ts;
    size_t *perm;
    size_t ts_cap, perm_cap;
};

static const struct event *node_ev(const struct seq_ctx *c, uint32_t node)
{
    return &c->r->events[c->r->rows[node]];
}

static bool name_matches(struct seq_ctx *c, uint32_t name)
{
    if (name >= strtab_count(&c->m->strings))
        return false;
    if (!c->match[name])
        c->match[name] = strstr(model_str(c->m, name), c->o->operator_name) ? 1 : 2;
    return c->match[name] == 1;
}

static int push_name(struct seq_ctx *c, uint32_t id)
{
    if (c->nnames == c->names_cap) {
        size_t cap = c->names_cap ? 2 * c->names_cap : 256;
        uint32_t *p = realloc(c->names, cap * sizeof *p);
        if (!p)
            return ERR_NOMEM;
        c->names = p;
        c->names_cap = cap;
    }
    c->names[c->nnames++] = id;
    return 0;
}

static int push_rec(struct seq_ctx *c, size_t off, uint32_t root, int64_t gpu_ns)
{
    if (c->nrecs == c->recs_cap) {
        size_t cap = c->recs_cap ? 2 * c->recs_cap : 64;
        struct seq_rec *p = realloc(c->recs, cap * sizeof *p);
        if (!p)
            return ERR_NOMEM;
        c->recs = p;
        c->recs_cap = cap;
    }
    c->recs[c->nrecs++] = (struct seq_rec){NULL, off, c->nnames - off, root, gpu_ns};
    return 0;
}

/* Records (root name, GPU-side descendants by ts): the ts sort is numpy's
 * introsort under HTA (sort_values on the descendants' frame), stable
 * otherwise; the descendants come in node order, which is filtered-table
 * order, the input order HTA's sort by ts starts from. */
static int record_root(struct seq_ctx *c, size_t k)
{
    const uint32_t *found = c->found + c->first[k];
    size_t nfound = c->first[k + 1] - c->first[k];
    if (vec_reserve((void **)&c->ts, &c->ts_cap, sizeof *c->ts, nfound) ||
        vec_reserve((void **)&c->perm, &c->perm_cap, sizeof *c->perm, nfound))
        return ERR_NOMEM;
    for (size_t i = 0; i < nfound; i++) {
        c->ts[i] = node_ev(c, found[i])->ts;
        c->perm[i] = i;
    }
    int rc = sort_argsort(c->m->sem.unstable_sort, c->perm, nfound, c->ts, less_i64);
    size_t off = c->nnames;
    if (rc == 0)
        rc = push_name(c, node_ev(c, c->roots[k])->name);
    for (size_t i = 0; rc == 0 && i < nfound; i++)
        rc = push_name(c, node_ev(c, found[c->perm[i]])->name);
    if (rc == 0)
        rc = push_rec(c, off, c->roots[k], c->kernel_ns[k]);
    return rc;
}

/* Sums and groups every root's descendants in one pass over the nodes,
 * each labelled with its root's slot in place of its depth. */
static int group_descendants(struct seq_ctx *c, int32_t depth)
{
    struct callgraph *cg = c->cg;
    uint32_t *top = (uint32_t *)cg->depth;
    c->num_kernels = calloc(c->nroots, sizeof *c->num_kernels);
    c->kernel_ns = calloc(c->nroots, sizeof *c->kernel_ns);
    c->first = calloc(c->nroots + 1, sizeof *c->first);
    if (!c->num_kernels || !c->kernel_ns || !c->first)
        return ERR_NOMEM;
    int rc = callgraph_label_subtrees(cg, depth, c->roots, c->nroots, top);
    for (size_t v = 0; v < cg->n && rc == 0; v++) {
        uint32_t k = top[v];
        if (k == CALLGRAPH_NONE)
            continue;
        if (c->roots[k] == v) {   /* the root itself */
            top[v] = CALLGRAPH_NONE;
            continue;
        }
        const struct event *ev = node_ev(c, (uint32_t)v);
        if (callgraph_counts_as_kernel(c->m, ev)) {
            c->num_kernels[k]++;
            c->kernel_ns[k] = add_ns_sat(c->kernel_ns[k], ev->dur);
        }
        if (model_is_gpu_side(c->m, ev))
            c->first[k + 1]++;
    }
    for (size_t k = 0; k < c->nroots; k++)
        c->first[k + 1] += c->first[k];
    size_t *fill = rc == 0 ? malloc((c->nroots ? c->nroots : 1) * sizeof *fill) : NULL;
    c->found = fill ? malloc((c->first[c->nroots] ? c->first[c->nroots] : 1) *
                             sizeof *c->found) : NULL;
    if (rc == 0 && !c->found)
        rc = ERR_NOMEM;
    if (rc == 0) {
        memcpy(fill, c->first, c->nroots * sizeof *fill);
        for (size_t v = 0; v < cg->n; v++)
            if (top[v] != CALLGRAPH_NONE && model_is_gpu_side(c->m, node_ev(c, (uint32_t)v)))
                c->found[fill[top[v]]++] = (uint32_t)v;
    }
    free(fill);
    return rc;
}

/* Finds the shallowest candidates and records a sequence for each root. */
static int collect_roots(struct seq_ctx *c)
{
    const struct callgraph *cg = c->cg;
    int32_t min_depth = INT32_MAX;
    size_t cap = 0;
    for (size_t i = 0; i < cg->n; i++) {
        if (cg->depth[i] == CALLGRAPH_NO_DEPTH || cg->depth[i] > min_depth ||
            !name_matches(c, node_ev(c, (uint32_t)i)->name))
            continue;
        if (cg->depth[i] < min_depth) {   /* shallower: the roots so far were not */
            min_depth = cg->depth[i];
            c->nroots = 0;
        }
        if (VEC_PUSH_SLOT(c->roots, c->nroots, cap))
            return ERR_NOMEM;
        c->roots[c->nroots++] = (uint32_t)i;
    }
    if (min_depth == INT32_MAX)
        return 0;
    int rc = group_descendants(c, min_depth);
    uint64_t min_len = c->o->min_pattern_len > 0 ? (uint64_t)c->o->min_pattern_len : 0;
    for (size_t k = 0; k < c->nroots && rc == 0; k++)
        if (c->num_kernels[k] >= min_len)
            rc = record_root(c, k);
    return rc;
}

static int cmp_rec(const void *pa, const void *pb)
{
    const struct seq_rec *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    for (size_t i = 0; i < n; i++)
        if (a->names[i] != b->names[i])
            return a->names[i] < b->names[i] ? -1 : 1;
    return (a->len > b->len) - (a->len < b->len);
}

static int cmp_pattern_row(const void *pa, const void *pb)
{
    const struct pattern_row *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->text, b->text);
}

/* "root|kernel1|kernel2..." with the full names. Caller frees. */
static char *join_pattern(const struct model *m, const uint32_t *names, size_t len)
{
    size_t total = 1;
    for (size_t i = 0; i < len; i++)
        total += strlen(model_str(m, names[i])) + 1;
    char *s = malloc(total), *p = s;
    if (!s)
        return NULL;
    for (size_t i = 0; i < len; i++) {
        size_t l = strlen(model_str(m, names[i]));
        if (i)
            *p++ = '|';
        memcpy(p, model_str(m, names[i]), l);
        p += l;
    }
    *p = '\0';
    return s;
}

/* Groups equal sequences and appends one row per pattern to t. */
static int emit_patterns(struct seq_ctx *c, struct table *t)
{
    if (c->nrecs == 0)
        return 0;
    for (size_t i = 0; i < c->nrecs; i++)
        c->recs[i].names = c->names + c->recs[i].off;
    qsort(c->recs, c->nrecs, sizeof *c->recs, cmp_rec);
    struct pattern_row *rows = calloc(c->nrecs, sizeof *rows);
    if (!rows)
        return ERR_NOMEM;
    size_t nrows = 0;
    int rc = 0;
    for (size_t i = 0; i < c->nrecs && rc == 0;) {
        struct pattern_row *pr = &rows[nrows++];
        size_t j = i;
        for (; j < c->nrecs && cmp_rec(&c->recs[i], &c->recs[j]) == 0; j++) {
            const struct event *root = node_ev(c, c->recs[j].root);
            pr->count++;
            pr->gpu_ns = add_ns_sat(pr->gpu_ns, c->recs[j].gpu_ns);
            pr->cpu_ns = add_ns_sat(pr->cpu_ns, root->dur);
        }
        pr->text = join_pattern(c->m, c->recs[i].names, c->recs[i].len);
        if (!pr->text)
            rc = ERR_NOMEM;
        i = j;
    }
    if (rc == 0)
        qsort(rows, nrows, sizeof *rows, cmp_pattern_row);
    for (size_t i = 0; rc == 0 && i < nrows; i++) {
        struct cell *row = table_add_row(t);
        if (!row) {
            rc = ERR_NOMEM;
            break;
        }
        row[0] = cell_int(c->r->rank);
        row[1] = cell_str(t, rows[i].text);
        row[2] = cell_int((int64_t)rows[i].count);
        row[3] = cell_double((double)rows[i].gpu_ns / 1000.0);
        row[4] = cell_double((double)rows[i].cpu_ns / 1000.0);
        if (row[1].type != CELL_STR)
            rc = ERR_NOMEM;
    }
    for (size_t i = 0; i < nrows; i++)
        free(rows[i].text);
    free(rows);
    return rc;
}

static void free_ctx(struct seq_ctx *c)
{
    free(c->match);
    free(c->names);
    free(c->recs);
    free(c->roots);
    free(c->num_kernels);
    free(c->kernel_ns);
    free(c->first);
    free(c->found);
    free(c->ts);
    free(c->perm);
}

static int rank_sequences(const struct model *m, const struct rank_model *r,
                          const struct analysis_opts *o, struct table *t,
                          struct callgraph *cg, struct err *e)
{
    int rc = callgraph_build(m, r, cg, e);
    if (rc)
        return rc;
    struct seq_ctx c = {.m = m, .r = r, .o = o, .cg = cg};
    c.match = calloc(strtab_count(&m->strings) + 1, 1);
    if (!c.match)
        rc = ERR_NOMEM;
    if (rc == 0)
        rc = collect_roots(&c);
    if (rc == 0)
        rc = emit_patterns(&c, t);
    free_ctx(&c);
    if (rc == ERR_NOMEM)
        return err_set(e, rc, "out of memory counting kernel sequences of rank %lld",
                       (long long)r->rank);
    return rc;
}

/* Appends the HTA failure of one rank to the note buffer. */
static void note_conflicts(char *note, size_t size, const struct rank_model *r,
                           const struct callgraph *cg)
{
    size_t used = strlen(note);
    if (used + 1 >= size)
        return;
    snprintf(note + used, size - used,
             "%srank %lld: HTA raises ValueError (\"Unexpected case\") here: %llu time points "
             "where a zero-length and a negative-length event meet, first at %.3f us; htx "
             "orders those ends like a non-zero event's", used ? "; " : "", (long long)r->rank,
             (unsigned long long)cg->hta_conflicts, (double)cg->first_conflict_ns / 1000.0);
}

int sequences_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                  struct table_list *out, struct err *e)
{
    static const struct table_col cols[] = {
        {"rank", NULL, COL_KEY},
        {"pattern", NULL, COL_KEY},
        {"count", NULL, 0},
        {"GPU kernel duration (us)", "us", 0},
        {"CPU op duration (us)", "us", 0},
    };
    struct table *t = table_new(scratch, "frequent_kernel_sequences", "Frequent kernel sequences",
                                cols, sizeof cols / sizeof cols[0]);
    if (!t)
        return err_set(e, ERR_NOMEM, "out of memory");
    if (table_list_add(out, t))
        return err_set(e, ERR_LIMIT, "too many result tables (at most %d)", TABLE_LIST_MAX);
    if (!o->operator_name || !*o->operator_name) {
        table_set_note(t, "no operator name given (--operator)");
        return 0;
    }
    char note[900] = "";
    for (size_t i = 0; i < m->nranks; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        struct callgraph cg;
        int rc = rank_sequences(m, r, o, t, &cg, e);
        if (rc == 0 && cg.hta_conflicts)
            note_conflicts(note, sizeof note, r, &cg);
        callgraph_fini(&cg);
        if (rc)
            return rc;
    }
    if (t->nrows == 0) {
        size_t used = strlen(note);
        snprintf(note + used, sizeof note - used,
                 "%sno call of an operator whose name contains \"%.200s\" launches at least %d "
                 "kernels", used ? "; " : "", o->operator_name, o->min_pattern_len);
    }
    if (note[0])
        table_set_note(t, "%s", note);
    return 0;
}
