#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/kernels.h"
#include "analysis/busy.h"
#include "util/memory.h"
#include "util/sort.h"
#include "util/vec.h"
#include "analysis/argsort.h"
#include "analysis/stats.h"
#include "analysis/topn.h"

/* §3.2 GPU kernel breakdown: wall-clock time per combination of active
 * kernel types (kernel_type_breakdown), and per-kernel statistics with HTA's
 * top-N / "others" rule per rank and type (kernel_breakdown). */

static const struct table_col type_cols[] = {
    {"kernel_type", NULL, COL_KEY},
    {"sum", "us", 0},
    {"percentage", "%", COL_PERCENT},
};

static const struct table_col kernel_cols[] = {
    {"name", NULL, COL_KEY},
    {"sum (us)", "us", 0},
    {"max (us)", "us", 0},
    {"min (us)", "us", 0},
    {"stddev", "us", 0},
    {"mean (us)", "us", 0},
    {"kernel_type", NULL, COL_KEY},
    {"rank", NULL, COL_KEY},
};

/* The analysed types, in HTA's bit order. */
static const enum kernel_class type_order[3] = {KC_COMPUTATION, KC_COMMUNICATION, KC_MEMORY};

static size_t analysed_types(const struct analysis_opts *o)
{
    return o->include_memory_kernels ? 3 : 2;
}

/* ---- kernel_type_breakdown: the boundary sweep ------------------------------ */

#define LABELS 8   /* masks of up to three type bits */

struct label_sums {
    int64_t ns[LABELS];
    bool present[LABELS];
};

struct point {
    int64_t t;
    int bit;   /* +bit at a merged start, -bit at a merged end */
};

static inline bool point_less(const struct point *a, const struct point *b)
{
    return a->t < b->t;
}

SORT_DEFINE_STABLE(sort_points_stable, struct point, point_less)

/* Re-sorts the whole list by time, from its current order (§3.2 step 2):
 * numpy's introsort on the times under HTA, else stably. */
static int resort_points(const struct model *m, struct point *p, size_t n)
{
    if (!m->sem.unstable_sort)
        return sort_points_stable(p, n);
    size_t *perm = util_alloc_resident(n, sizeof *perm);
    int64_t *t = util_alloc_resident(n, sizeof *t);
    struct point *tmp = util_alloc_resident(n, sizeof *tmp);
    int rc = perm && t && tmp ? 0 : ERR_NOMEM;
    if (rc == 0) {
        for (size_t i = 0; i < n; i++)
            t[i] = p[i].t;
        argsort_identity(perm, n);
        hta_argsort(perm, n, t, less_i64);
        for (size_t i = 0; i < n; i++)
            tmp[i] = p[perm[i]];
        if (n)  /* p is NULL when there are no points: memcpy(NULL, .., 0) is UB */
            memcpy(p, tmp, n * sizeof *p);
    }
    free(perm);
    free(t);
    free(tmp);
    return rc;
}

/* Appends one type's merged starts then ends, then re-sorts. */
static int add_type_points(const struct model *m, const struct interval *iv, size_t k,
                           size_t bit_index, struct point **pts, size_t *n, size_t *cap)
{
    int rc = k > (SIZE_MAX - *n) / 2 ? ERR_NOMEM : 0;
    if (rc == 0)
        rc = vec_reserve((void **)pts, cap, sizeof **pts, *n + 2 * k);
    if (rc == 0) {
        int bit = 1 << bit_index;
        for (size_t i = 0; i < k; i++)
            (*pts)[(*n)++] = (struct point){iv[i].start, bit};
        for (size_t i = 0; i < k; i++)
            (*pts)[(*n)++] = (struct point){iv[i].end, -bit};
        rc = resort_points(m, *pts, *n);
    }
    return rc;
}

/* HTA adds int(next - this) in trace units (µs); its times are whole µs,
 * so truncating to whole µs reproduces it. htx keeps nanoseconds. */
static int64_t segment_ns(const struct model *m, int64_t d)
{
    return m->sem.ns_rounding ? d / 1000 * 1000 : d;
}

/* The segment from one boundary to the next, under the mask after the first. */
static void add_segment(const struct model *m, int64_t mask, int64_t d, size_t ntypes,
                        struct label_sums *sums)
{
    if (mask <= 0)
        return;
    d = segment_ns(m, d);
    /* Zero-length segments between tied boundaries make HTA list a label
     * with sum 0; htx (stable ties) does not. */
    if (d == 0 && !m->sem.unstable_sort)
        return;
    unsigned label = (unsigned)(mask & ((1 << ntypes) - 1));
    sums->ns[label] += d;
    sums->present[label] = true;
}

/* §3.2's boundaries: each type's points appended and the whole re-sorted. */
static int sweep_sorted(const struct model *m, struct interval *const *iv, const size_t *k,
                        size_t ntypes, struct label_sums *sums)
{
    struct point *pts = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (size_t b = 0; b < ntypes && rc == 0; b++)
        rc = add_type_points(m, iv[b], k[b], b, &pts, &n, &cap);
    int64_t mask = 0;
    for (size_t i = 0; rc == 0 && i + 1 < n; i++) {
        mask += pts[i].bit;
        add_segment(m, mask, pts[i + 1].t - pts[i].t, ntypes, sums);
    }
    free(pts);
    return rc;
}

/* Run j of the boundaries: type j / 2's merged starts (j even) or ends. */
static int64_t run_point(struct interval *const *iv, size_t j, size_t p)
{
    return j % 2 ? iv[j / 2][p].end : iv[j / 2][p].start;
}

static bool runs_ordered(struct interval *const *iv, const size_t *k, size_t ntypes)
{
    for (size_t j = 0; j < 2 * ntypes; j++)
        for (size_t p = 1; p < k[j / 2]; p++)
            if (run_point(iv, j, p) < run_point(iv, j, p - 1))
                return false;
    return true;
}

/* The same boundaries without the sorts: re-sorting stably after each type
 * orders them by time, ties in run order (type 0's starts, its ends, type
 * 1's starts, ...), which is the merge of the runs when each is in order.
 * Each run has one boundary at a time at most (merged intervals do not
 * touch). When tie_labels is given, it also collects the labels that some
 * other order of a time's boundaries would give its zero-length segments:
 * the mask after any of them, not all (see sweep_merged_if_exact). */
static void sweep_merged(const struct model *m, struct interval *const *iv, const size_t *k,
                         size_t ntypes, struct label_sums *sums, unsigned *tie_labels)
{
    size_t at[6] = {0, 0, 0, 0, 0, 0}, nruns = 2 * ntypes;
    int64_t next[6];    /* run j's next boundary, while it has one (bit j of live) */
    unsigned live = 0, all = (1u << ntypes) - 1;
    for (size_t j = 0; j < nruns; j++)
        if (k[j / 2] > 0) {
            next[j] = run_point(iv, j, 0);
            live |= 1u << j;
        }
    int64_t mask = 0, prev = 0;
    for (bool first = true; live; first = false) {
        int64_t t = INT64_MAX;   // (every boundary is at most that)
        for (size_t j = 0; j < nruns; j++)
            if (live >> j & 1 && next[j] < t)
                t = next[j];
        if (!first)
            add_segment(m, mask, t - prev, ntypes, sums);
        int change[6];
        size_t n = 0;
        for (size_t j = 0; j < nruns; j++)
            if (live >> j & 1 && next[j] == t) {
                change[n++] = j % 2 ? -(1 << (j / 2)) : 1 << (j / 2);
                if (++at[j] < k[j / 2])
                    next[j] = run_point(iv, j, at[j]);
                else
                    live &= ~(1u << j);
            }
        for (unsigned sub = 1; tie_labels && n >= 2 && sub + 1 < (1u << n); sub++) {
            int64_t some = mask;
            for (size_t i = 0; i < n; i++)
                some += sub >> i & 1 ? change[i] : 0;
            if (some > 0)
                *tie_labels |= 1u << (some & all);
        }
        for (size_t i = 0; i < n; i++) {
            mask += change[i];
            if (i + 1 < n)
                add_segment(m, mask, 0, ntypes, sums);
        }
        prev = t;
    }
}

/* HTA's table of the runs without the three introsorts, added to sums,
 * where numpy's order of tied boundaries (unstable_sort) cannot change it:
 * true. Else false, sums untouched. The sums are those of any order: a
 * segment of positive length starts after the last boundary of its time,
 * so its mask holds every boundary up to it. Ties decide only the labels
 * of the zero-length segments between them: when every label some order
 * could give them has a positive sum already, no order lists another. */
static bool sweep_merged_if_exact(const struct model *m, struct interval *const *iv,
                                  const size_t *k, size_t ntypes, struct label_sums *sums)
{
    struct label_sums one;
    memset(&one, 0, sizeof one);
    unsigned tie_labels = 0;
    sweep_merged(m, iv, k, ntypes, &one, &tie_labels);
    for (unsigned label = 0; label < LABELS; label++)
        if (tie_labels >> label & 1 && one.ns[label] <= 0)
            return false;
    for (unsigned label = 0; label < LABELS; label++) {
        sums->ns[label] += one.ns[label];
        sums->present[label] |= one.present[label];
    }
    return true;
}

static int sweep_rank(struct busy_classes *c, const struct rank_model *r, size_t ntypes,
                      struct label_sums *sums)
{
    unsigned masks[3];
    struct interval *iv[3];
    size_t k[3];
    for (size_t b = 0; b < ntypes; b++)
        masks[b] = BUSY_CLASS_BIT(type_order[b]);
    int rc = busy_merged_each(c, r, masks, ntypes, iv, k);
    if (rc)
        return rc;
    bool ordered = runs_ordered(iv, k, ntypes);
    if (!c->m->sem.unstable_sort && ordered)
        sweep_merged(c->m, iv, k, ntypes, sums, NULL);
    else if (!ordered || !sweep_merged_if_exact(c->m, iv, k, ntypes, sums))
        rc = sweep_sorted(c->m, iv, k, ntypes, sums);
    for (size_t b = 0; b < ntypes; b++)
        busy_merged_free(c, iv[b]);
    return rc;
}

static const char *label_name(unsigned mask)
{
    static const char *const names[LABELS] = {
        "",
        "COMPUTATION",
        "COMMUNICATION",
        "COMPUTATION overlapping COMMUNICATION",
        "MEMORY",
        "COMPUTATION overlapping MEMORY",
        "COMMUNICATION overlapping MEMORY",
        "COMPUTATION overlapping COMMUNICATION overlapping MEMORY",
    };
    return names[mask & (LABELS - 1)];
}

static bool less_label_name(const void *keys, size_t a, size_t b)
{
    (void)keys;
    return strcmp(label_name((unsigned)a), label_name((unsigned)b)) < 0;
}

static int type_table(const struct semantics *sem, const struct label_sums *s, struct table *t)
{
    size_t perm[LABELS], n = 0;
    double us[LABELS], total = 0;
    for (unsigned l = 0; l < LABELS; l++) {
        us[l] = busy_us(s->ns[l]);
        if (s->present[l])
            perm[n++] = l;
    }
    /* Labels in name order, then by sum, descending (§3.2). */
    if (stable_argsort(perm, n, NULL, less_label_name))
        return ERR_NOMEM;
    if (sort_argsort_desc(sem->unstable_sort, perm, n, us, less_double))
        return ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        total += us[perm[i]];
    for (size_t i = 0; i < n; i++) {
        struct cell *row = table_add_row(t);
        if (!row)
            return ERR_NOMEM;
        double v = us[perm[i]];
        row[0] = cell_str(t, label_name((unsigned)perm[i]));
        row[1] = sem->ns_rounding ? cell_int((int64_t)v) : cell_double(v);
        row[2] = cell_double(hta_round(100.0 * v / total, 1));
    }
    return 0;
}

/* ---- kernel_breakdown: per-name statistics --------------------------------- */

struct krow {
    struct topn_row g;
    enum kernel_class type;
    int64_t rank;
};

struct krows {
    struct krow *v;
    size_t n, cap;
};

/* The rank's kernels of each analysed type as (name, duration in us), in
 * row order, in one pass over the rows. The caller frees items[0..ntypes). */
static int collect_items(struct busy_classes *c, const struct rank_model *r, size_t ntypes,
                         struct topn_item **items, size_t *n)
{
    size_t cap[3] = {0, 0, 0};
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (!busy_is_gpu_event(c->m, ev))
            continue;
        enum kernel_class type = busy_class(c, ev->name);
        size_t t = 0;
        while (t < ntypes && type_order[t] != type)
            t++;
        if (t == ntypes)
            continue;
        if (n[t] == cap[t] && VEC_PUSH_SLOT(items[t], n[t], cap[t]))
            return ERR_NOMEM;
        items[t][n[t]++] = (struct topn_item){ev->name, busy_us(ev->dur)};
    }
    return 0;
}

/* Applies §2.4 to one (rank, type) and appends the resulting rows. */
static int rank_type_kernels(const struct model *m, const struct analysis_opts *o,
                             const struct rank_model *r, enum kernel_class type,
                             const struct topn_item *items, size_t n, struct krows *rows)
{
    struct topn_opts to = {
        .num_kernels = o->num_kernels,
        .duration_ratio = o->duration_ratio,
        .unstable_sort = m->sem.unstable_sort,
        .top_n_loses_stats = m->sem.top_n_loses_stats,
    };
    struct topn_row *out = NULL;
    size_t nout = 0;
    int rc = topn_aggregate(&m->strings, items, n, &to, &out, &nout);
    for (size_t i = 0; rc == 0 && i < nout; i++) {
        if (VEC_PUSH_SLOT(rows->v, rows->n, rows->cap))
            rc = ERR_NOMEM;
        else
            rows->v[rows->n++] = (struct krow){out[i], type, r->rank};
    }
    free(out);
    return rc;
}

static int rank_kernels(struct busy_classes *c, const struct analysis_opts *o,
                        const struct rank_model *r, struct krows *rows)
{
    struct topn_item *items[3] = {NULL, NULL, NULL};
    size_t n[3] = {0, 0, 0};
    size_t ntypes = analysed_types(o);
    int rc = collect_items(c, r, ntypes, items, n);
    for (size_t t = 0; t < ntypes && rc == 0; t++)
        rc = rank_type_kernels(c->m, o, r, type_order[t], items[t], n[t], rows);
    for (size_t t = 0; t < 3; t++)
        free(items[t]);
    return rc;
}

static int kernel_table(const struct krows *rows, struct table *t)
{
    for (size_t i = 0; i < rows->n; i++) {
        const struct krow *k = &rows->v[i];
        struct cell *row = table_add_row(t);
        if (!row)
            return ERR_NOMEM;
        row[0] = cell_str(t, k->g.text);
        row[1] = cell_double(k->g.sum);
        row[2] = cell_double(k->g.max);
        row[3] = cell_double(k->g.min);
        row[4] = cell_double(k->g.std);
        row[5] = cell_double(k->g.mean);
        row[6] = cell_str(t, kernel_class_name(k->type));
        row[7] = cell_int(k->rank);
    }
    return 0;
}

static int run_ranks(const struct model *m, const struct analysis_opts *o,
                     struct label_sums *sums, struct krows *rows)
{
    struct busy_classes c;
    if (busy_classes_init(&c, m, o))
        return ERR_NOMEM;
    int rc = 0;
    for (size_t i = 0; i < m->nranks && rc == 0; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        // the kernels' rows first: their scratch is given back before
        // the busy intervals are made (or lent)
        rc = rank_kernels(&c, o, r, rows);
        if (rc == 0)
            rc = sweep_rank(&c, r, analysed_types(o), sums);
    }
    busy_classes_fini(&c);
    return rc;
}

/* ---- parts: what ranks add to the tables, and their reduce ----------------- */

static const struct table_col type_ns_cols[] = {
    {"kernel_type", NULL, COL_KEY},
    {"ns", "ns", 0},
};

int kernels_parts_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                      struct table_list *out, struct err *e)
{
    struct label_sums sums;
    memset(&sums, 0, sizeof sums);
    struct krows rows = {NULL, 0, 0};
    int rc = run_ranks(m, o, &sums, &rows);
    struct table *types = NULL, *kernels = NULL;
    if (rc == 0)
        types = table_list_new(scratch, out, KERNELS_PART_TYPES, "Kernel type time",
                               type_ns_cols, sizeof type_ns_cols / sizeof type_ns_cols[0], e);
    if (types)
        kernels = table_list_new(scratch, out, "kernel_breakdown", "Kernel breakdown",
                                 kernel_cols, sizeof kernel_cols / sizeof kernel_cols[0], e);
    for (unsigned l = 0; kernels && l < LABELS && rc == 0; l++) {
        struct cell *row = sums.present[l] ? table_add_row(types) : NULL;
        if (sums.present[l] && !row)
            rc = ERR_NOMEM;
        else if (row) {
            row[0] = cell_str(types, label_name(l));
            row[1] = cell_int(sums.ns[l]);
        }
    }
    if (kernels && rc == 0)
        rc = kernel_table(&rows, kernels);
    free(rows.v);
    if (rc)
        return err_set(e, ERR_NOMEM, "kernel breakdown: out of memory");
    return kernels ? 0 : e->code;
}

/* A row of a part's kernel_breakdown, for the job's order: type, name, rank
 * (then the parts' order, so ties are stable). */
struct kref {
    const struct cell *row;
    size_t order;
};

static int cmp_kref(const void *a, const void *b)
{
    const struct kref *x = a, *y = b;
    int d = strcmp(x->row[6].v.s, y->row[6].v.s);
    if (d == 0)
        d = strcmp(x->row[0].v.s, y->row[0].v.s);
    if (d == 0)
        d = (x->row[7].v.i > y->row[7].v.i) - (x->row[7].v.i < y->row[7].v.i);
    if (d == 0)
        d = (x->order > y->order) - (x->order < y->order);
    return d;
}

static bool is_str(const struct cell *c)
{
    return c->type == CELL_STR && c->v.s;
}

/* Adds a part's label times to sums; false when it is not one. */
static bool add_part_types(const struct table *t, struct label_sums *sums)
{
    for (size_t i = 0; i < t->nrows; i++) {
        const struct cell *row = table_cell(t, i, 0);
        unsigned l = 1;
        while (l < LABELS && !(is_str(&row[0]) && strcmp(row[0].v.s, label_name(l)) == 0))
            l++;
        if (l == LABELS || row[1].type != CELL_INT || row[1].v.i < 0 ||
            __builtin_add_overflow(sums->ns[l], row[1].v.i, &sums->ns[l]))
            return false;
        sums->present[l] = true;
    }
    return true;
}

/* Appends a part's kernel rows to refs; false when they are not such rows. */
static bool add_part_kernels(const struct table *t, struct kref *refs, size_t *n)
{
    for (size_t i = 0; i < t->nrows; i++) {
        const struct cell *row = table_cell(t, i, 0);
        if (!is_str(&row[0]) || !is_str(&row[6]) || row[7].type != CELL_INT)
            return false;
        refs[*n] = (struct kref){row, *n};
        (*n)++;
    }
    return true;
}

int kernels_reduce(const struct semantics *sem, const struct table_list *const *parts, size_t n,
                   struct arena *a, struct table_list *out, struct err *e)
{
    const size_t nk = sizeof kernel_cols / sizeof kernel_cols[0];
    size_t nrows = 0;
    for (size_t p = 0; p < n; p++) {
        const struct table *k = table_list_find(parts[p], "kernel_breakdown", nk);
        if (!k || !table_list_find(parts[p], KERNELS_PART_TYPES, 2))
            return err_set(e, ERR_PARSE, "kernel breakdown: part %zu is not one", p);
        nrows += k->nrows;
    }
    struct label_sums sums;
    memset(&sums, 0, sizeof sums);
    struct kref *refs = malloc((nrows ? nrows : 1) * sizeof *refs);
    if (!refs)
        return err_set(e, ERR_NOMEM, "kernel breakdown: out of memory");
    size_t nref = 0;
    for (size_t p = 0; p < n; p++)
        if (!add_part_types(table_list_find(parts[p], KERNELS_PART_TYPES, 2), &sums) ||
            !add_part_kernels(table_list_find(parts[p], "kernel_breakdown", nk), refs, &nref)) {
            free(refs);
            return err_set(e, ERR_PARSE, "kernel breakdown: part %zu is not one", p);
        }
    qsort(refs, nref, sizeof *refs, cmp_kref);
    struct table *types = table_list_new(a, out, "kernel_type_breakdown", "Kernel type breakdown",
                                         type_cols, sizeof type_cols / sizeof type_cols[0], e);
    struct table *kernels = types ? table_list_new(a, out, "kernel_breakdown", "Kernel breakdown",
                                                   kernel_cols, nk, e)
                                  : NULL;
    int rc = kernels ? type_table(sem, &sums, types) : e->code;
    if (kernels && rc == 0)
        rc = table_reserve(kernels, nref);
    for (size_t i = 0; kernels && i < nref && rc == 0; i++) {
        struct cell *row = table_add_row(kernels);
        if (!row) {
            rc = ERR_NOMEM;
            break;
        }
        memcpy(row, refs[i].row, nk * sizeof *row);
        row[0] = cell_str(kernels, refs[i].row[0].v.s);   // the part's arena may go first
        row[6] = cell_str(kernels, refs[i].row[6].v.s);
    }
    free(refs);
    if (rc)
        return rc == ERR_NOMEM ? err_set(e, ERR_NOMEM, "kernel breakdown: out of memory") : rc;
    if (types->nrows == 0) {
        table_set_note(types, "no GPU kernels of the analysed types");
        table_set_note(kernels, "no GPU kernels of the analysed types");
    }
    return 0;
}

int kernels_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                struct table_list *out, struct err *e)
{
    struct table_list parts = {.count = 0};
    const struct table_list *one = &parts;
    int rc = kernels_parts_run(m, o, scratch, &parts, e);
    return rc ? rc : kernels_reduce(&m->sem, &one, 1, scratch, out, e);
}
