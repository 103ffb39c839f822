#include "config.h"
#include "analysis/topn.h"
#include "analysis/argsort.h"
#include "analysis/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/hmap.h"
#include "util/sort.h"

/* §2.4 top-N aggregation. The statistics follow pandas' groupby kernels
 * (Kahan-compensated sum and mean, Welford variance) so that the numbers
 * match HTA's to the last bit wherever the inputs are exact. */

static const char OTHERS[] = "others";

struct acc {
    double sum, comp;          /* Kahan */
    double mean, m2;           /* Welford */
    double max, min;
    size_t count;
};

static void acc_init(struct acc *a)
{
    memset(a, 0, sizeof *a);
    a->max = -INFINITY;
    a->min = INFINITY;
}

static void acc_add(struct acc *a, double v)
{
    double y = v - a->comp;
    double t = a->sum + y;
    a->comp = t - a->sum - y;
    a->sum = t;
    a->count++;
    double old = a->mean;
    a->mean += (v - old) / (double)a->count;
    a->m2 += (v - a->mean) * (v - old);
    if (v > a->max)
        a->max = v;
    if (v < a->min)
        a->min = v;
}

static void acc_to_row(const struct acc *a, struct topn_row *r)
{
    r->sum = a->sum;
    r->max = a->max;
    r->min = a->min;
    r->mean = a->count ? a->sum / (double)a->count : NAN;
    r->std = a->count > 1 ? sqrt(a->m2 / (double)(a->count - 1)) : 0.0;
    r->count = a->count;
}

struct item_ref {   /* 8 bytes: topn_aggregate takes at most UINT32_MAX items */
    uint32_t name;
    uint32_t i;
};

static inline bool ref_less(const struct item_ref *a, const struct item_ref *b)
{
    return a->name < b->name;
}

/* Stable: a name's items stay in input order (i ascending). */
SORT_DEFINE_STABLE(sort_refs, struct item_ref, ref_less)

/* refs[] of items[0..n) in name id order, each name's in input order: a
 * counting sort where the names are not many more than the items (a
 * fraction of the merge sort's work there), the merge sort otherwise. */
static int refs_by_name(const struct strtab *names, const struct topn_item *items, size_t n,
                        struct item_ref *refs)
{
    size_t nnames = strtab_count(names);
    size_t *next = nnames <= 2 * n + 4096 ? calloc(nnames + 1, sizeof *next) : NULL;
    for (size_t i = 0; next && i < n; i++) {
        if (items[i].name >= nnames) {   // (not one of names': sorted below)
            free(next);
            next = NULL;
            break;
        }
        next[items[i].name + 1]++;
    }
    if (next) {
        for (size_t k = 1; k <= nnames; k++)
            next[k] += next[k - 1];
        for (size_t i = 0; i < n; i++)
            refs[next[items[i].name]++] = (struct item_ref){items[i].name, (uint32_t)i};
        free(next);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        refs[i] = (struct item_ref){items[i].name, (uint32_t)i};
    return sort_refs(refs, n);
}

static int cmp_row_name(const void *pa, const void *pb)
{
    const struct topn_row *a = pa, *b = pb;
    return strcmp(a->text, b->text);
}

/* One row per distinct name, in name order; members[] lists, per row, the
 * item indices in input order (row r owns members[first[r] .. first[r+1])). */
static int group_items(const struct strtab *names, const struct topn_item *items, size_t n,
                       struct topn_row **rows_out, size_t *nrows)
{
    struct item_ref *refs = malloc(n * sizeof *refs);
    struct topn_row *rows = calloc(n, sizeof *rows);
    if (!refs || !rows) {
        free(refs);
        free(rows);
        return ERR_NOMEM;
    }
    if (refs_by_name(names, items, n, refs)) {
        free(refs);
        free(rows);
        return ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        struct acc a;
        acc_init(&a);
        size_t j = i;
        for (; j < n && refs[j].name == refs[i].name; j++)
            acc_add(&a, items[refs[j].i].value);
        rows[k].name = refs[i].name;
        rows[k].text = strtab_str(names, refs[i].name);
        acc_to_row(&a, &rows[k]);
        k++;
        i = j;
    }
    free(refs);
    qsort(rows, k, sizeof *rows, cmp_row_name);
    *rows_out = rows;
    *nrows = k;
    return 0;
}

static bool allowed(const char *name, const struct topn_opts *o)
{
    for (size_t i = 0; i < o->nallow; i++)
        if (o->allow[i] && strstr(name, o->allow[i]))
            return true;
    return false;
}

static int cmp_double_asc(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Marks rows (in name order) that go into "others"; order is the sum-desc
 * permutation. Returns ERR_NOMEM or 0. */
static int mark_others(const struct topn_row *rows, size_t n, const size_t *order,
                       const struct topn_opts *o, bool *others)
{
    double *c = malloc(n * sizeof *c), *sorted = malloc(n * sizeof *sorted);
    if (!c || !sorted) {
        free(c);
        free(sorted);
        return ERR_NOMEM;
    }
    double run = 0;
    for (size_t i = 0; i < n; i++) {
        run += rows[order[i]].sum;
        c[i] = sorted[i] = run;
    }
    /* np.percentile sorts; the cumulative sums are only unsorted when some
     * sums are negative (HTA's negative durations). */
    qsort(sorted, n, sizeof *sorted, cmp_double_asc);
    double q = quantile_linear(sorted, n, o->duration_ratio);
    for (size_t i = 0; i < n; i++) {
        const struct topn_row *r = &rows[order[i]];
        others[order[i]] = !allowed(r->text, o) &&
                           (c[i] > q || i >= (size_t)(o->num_kernels < 0 ? 0 : o->num_kernels));
    }
    free(c);
    free(sorted);
    return 0;
}

/* Adds to a the values of the items whose row went into "others". */
static int add_other_items(const struct topn_row *rows, size_t n, const bool *others,
                           const struct topn_item *items, size_t nitems, struct acc *a)
{
    struct hmap row_of;   /* name id -> row: names are unique among rows */
    if (hmap_init(&row_of, n))
        return ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        if (hmap_put(&row_of, rows[i].name, (uint32_t)i)) {
            hmap_fini(&row_of);
            return ERR_NOMEM;
        }
    for (size_t i = 0; i < nitems; i++) {
        const uint32_t *row = hmap_get(&row_of, items[i].name);
        if (row && others[*row])
            acc_add(a, items[i].value);
    }
    hmap_fini(&row_of);
    return 0;
}

/* Builds the "others" row from its members: their sums (HTA, in sum-desc
 * order as pandas' second groupby sees them) or all their items' values.
 * Returns 0 or ERR_NOMEM. */
static int others_row(const struct topn_row *rows, size_t n, const size_t *order,
                      const bool *others, const struct topn_item *items, size_t nitems,
                      const struct topn_opts *o, struct topn_row *out)
{
    struct acc a;
    acc_init(&a);
    if (o->top_n_loses_stats) {
        for (size_t i = 0; i < n; i++)
            if (others[order[i]])
                acc_add(&a, rows[order[i]].sum);
    } else if (add_other_items(rows, n, others, items, nitems, &a)) {
        return ERR_NOMEM;
    }
    memset(out, 0, sizeof *out);
    out->name = STRTAB_NONE;
    out->text = OTHERS;
    acc_to_row(&a, out);
    return 0;
}

/* Writes kept rows (losing their statistics under HTA) and the others row
 * into out, in name order. Returns the number of rows. */
static size_t regroup(struct topn_row *rows, size_t n, const bool *others,
                      const struct topn_row *orow, bool loses_stats, struct topn_row *out)
{
    size_t k = 0;
    bool placed = orow->count == 0;
    for (size_t i = 0; i < n; i++) {
        if (others[i])
            continue;
        if (!placed && strcmp(OTHERS, rows[i].text) < 0) {
            out[k++] = *orow;
            placed = true;
        }
        struct topn_row r = rows[i];
        if (loses_stats) {
            r.max = r.min = r.mean = r.sum;
            r.std = 0;
        }
        out[k++] = r;
    }
    if (!placed)
        out[k++] = *orow;
    return k;
}

int topn_aggregate(const struct strtab *names, const struct topn_item *items, size_t n,
                   const struct topn_opts *o, struct topn_row **rows_out, size_t *nrows_out)
{
    *rows_out = NULL;
    *nrows_out = 0;
    if (n == 0)
        return 0;
    if (n > SIZE_MAX / sizeof(struct topn_row) - 1 || n > UINT32_MAX)
        return ERR_NOMEM;
    struct topn_row *rows;
    size_t ng;
    int rc = group_items(names, items, n, &rows, &ng);
    if (rc)
        return rc;
    if (ng <= (size_t)(o->num_kernels < 0 ? 0 : o->num_kernels)) {
        *rows_out = rows;
        *nrows_out = ng;
        return 0;
    }
    size_t *order = malloc(ng * sizeof *order);
    double *sums = malloc(ng * sizeof *sums);
    bool *others = calloc(ng, sizeof *others);
    struct topn_row *out = malloc((ng + 1) * sizeof *out);
    if (!order || !sums || !others || !out) {
        rc = ERR_NOMEM;
        goto done;
    }
    for (size_t i = 0; i < ng; i++)
        sums[i] = rows[i].sum;
    argsort_identity(order, ng);
    rc = sort_argsort_desc(o->unstable_sort, order, ng, sums, less_double);
    if (rc == 0)
        rc = mark_others(rows, ng, order, o, others);
    if (rc)
        goto done;
    /* a kept name that is literally "others" joins the others group, as it
     * does in pandas' second groupby */
    for (size_t i = 0; i < ng; i++)
        if (strcmp(rows[i].text, OTHERS) == 0)
            others[i] = true;
    struct topn_row orow;
    rc = others_row(rows, ng, order, others, items, n, o, &orow);
    if (rc)
        goto done;
    *nrows_out = regroup(rows, ng, others, &orow, o->top_n_loses_stats, out);
    *rows_out = out;
    out = NULL;
done:
    free(order);
    free(sums);
    free(others);
    free(out);
    free(rows);
    return rc;
}
