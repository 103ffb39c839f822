#include "config.h"
#include "analysis/ranks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "analysis/collectives.h"
#include "analysis/stats.h"
#include "util/sort.h"

/* One row per selected rank for the TUI's Ranks view: how long its steps
 * take, against the other ranks, how idle its GPU is and how much of the
 * GPU time span goes to communication, and the wait it inflicted on the
 * others at collectives (blame) and suffered. The ranks come by blame, so
 * the rank holding the others back is first. */

static const struct table_col overview_cols[] = {
    {"rank", NULL, COL_KEY},
    {"blame (us)", "us", 0},
    {"suffered (us)", "us", 0},
    {"vs_median (%)", "%", 0},
    {"idle (%)", "%", COL_PERCENT},
    {"comm (%)", "%", COL_PERCENT},
    {"steps", NULL, 0},
    {"step_median (us)", "us", 0},
    {"step_max (us)", "us", 0},
};

static const struct table_col step_cols[] = {
    {"rank", NULL, COL_KEY},
    {"iteration", NULL, COL_KEY},
    {"step_time (us)", "us", 0},
};

#define NCOLS(c) (sizeof(c) / sizeof((c)[0]))

struct rank_figures {
    size_t index;              /* into m->ranks */
    int64_t rank;
    size_t steps;
    double median_us, max_us;  /* NaN without steps */
    double idle_pct, comm_pct; /* NaN without GPU activity */
    int64_t blame, suffered;   /* ns */
    int64_t *step_numbers;     /* the kept steps, by time (malloc'ed) */
    double *step_us;
};

/* The rank's ProfilerSteps that the selection keeps (a step is kept when
 * one of its events is among the selected rows): numbers[i] and their
 * durations v[i] in us, by time. The caller frees both. */
static int rank_steps(const struct rank_model *r, int64_t **numbers, double **out, size_t *n)
{
    int64_t *kept = malloc((r->nrows ? r->nrows : 1) * sizeof *kept);
    double *v = malloc((r->niterations ? r->niterations : 1) * sizeof *v);
    int64_t *num = malloc((r->niterations ? r->niterations : 1) * sizeof *num);
    if (!num) {
        free(kept);
        free(v);
        return ERR_NOMEM;
    }
    if (!kept || !v) {
        free(kept);
        free(v);
        free(num);
        return ERR_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        int32_t it = r->events[r->rows[i]].iteration;
        if (it >= 0)
            kept[k++] = it;
    }
    k = sort_unique_i64(kept, k);
    *n = 0;
    for (size_t i = 0; i < r->niterations; i++)
        if (i64_set_has(kept, k, r->iterations[i].number)) {
            num[*n] = r->iterations[i].number;
            v[(*n)++] = busy_us(r->iterations[i].dur);
        }
    free(kept);
    *out = v;
    *numbers = num;
    return 0;
}

static int figures_of(struct busy_classes *c, const struct rank_model *r, struct rank_figures *f)
{
    double *steps;
    int64_t *numbers;
    size_t n;
    int rc = rank_steps(r, &numbers, &steps, &n);
    if (rc)
        return rc;
    f->step_numbers = numbers;
    f->step_us = steps;
    f->steps = n;
    // describe_values sorts in place: the steps stay in time order for the table.
    double *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted)
        return ERR_NOMEM;
    if (n)
        memcpy(sorted, steps, n * sizeof *sorted);
    struct describe d;
    describe_values(sorted, n, &d);
    f->median_us = n ? d.p50 : NAN;
    f->max_us = n ? d.max : NAN;
    free(sorted);

    const unsigned masks[2] = {BUSY_ALL_CLASSES, BUSY_CLASS_BIT(KC_COMMUNICATION)};
    struct interval *iv[2];
    size_t n2[2];
    if ((rc = busy_merged_each(c, r, masks, 2, iv, n2)) != 0)
        return rc;
    struct interval *all = iv[0], *comm = iv[1];
    size_t nall = n2[0], ncomm = n2[1];
    int64_t span = nall ? all[nall - 1].end - all[0].start : 0;
    f->idle_pct = span > 0 ? 100.0 * (double)(span - intervals_busy(all, nall)) / (double)span
                           : NAN;
    f->comm_pct = span > 0 ? 100.0 * (double)intervals_busy(comm, ncomm) / (double)span : NAN;
    free(all);
    free(comm);
    return 0;
}

static int by_blame(const void *a, const void *b)
{
    const struct rank_figures *x = a, *y = b;
    if (x->blame != y->blame)
        return x->blame > y->blame ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The median over the ranks of their median steps; NaN when none has one. */
static double median_of_medians(const struct rank_figures *f, size_t n)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NAN;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(f[i].median_us))
            v[k++] = f[i].median_us;
    struct describe d;
    describe_values(v, k, &d);
    free(v);
    return k ? d.p50 : NAN;
}

static int add_tables(const struct rank_figures *f, size_t n,
                      struct arena *a, struct table_list *out)
{
    struct table *t = table_new(a, "rank_overview", "Ranks by blame", overview_cols,
                                NCOLS(overview_cols));
    struct table *st = table_new(a, "rank_steps", "Step time per iteration", step_cols,
                                 NCOLS(step_cols));
    if (!t || !st)
        return ERR_NOMEM;
    double med = median_of_medians(f, n);
    for (size_t i = 0; i < n; i++) {
        struct cell *row = table_add_row(t);
        if (!row)
            return ERR_NOMEM;
        row[0] = cell_int(f[i].rank);
        row[1] = cell_double(busy_us(f[i].blame));
        row[2] = cell_double(busy_us(f[i].suffered));
        row[3] = cell_double(med > 0 && !isnan(f[i].median_us)
                                 ? 100.0 * (f[i].median_us - med) / med
                                 : NAN);
        row[4] = cell_double(f[i].idle_pct);
        row[5] = cell_double(f[i].comm_pct);
        row[6] = cell_int((int64_t)f[i].steps);
        row[7] = cell_double(f[i].median_us);
        row[8] = cell_double(f[i].max_us);
        for (size_t k = 0; k < f[i].steps; k++) {
            struct cell *s = table_add_row(st);
            if (!s)
                return ERR_NOMEM;
            s[0] = cell_int(f[i].rank);
            s[1] = cell_int(f[i].step_numbers[k]);
            s[2] = cell_double(f[i].step_us[k]);
        }
    }
    if (n == 0)
        table_set_note(t, "no rank selected");
    else if (isnan(med))
        table_set_note(t, "no ProfilerStep in the selection: no step times");
    if (table_list_add(out, t) || table_list_add(out, st))
        return ERR_NOMEM;
    return 0;
}

int ranks_overview_run(const struct model *m, const struct analysis_opts *o, struct arena *a,
                       struct table_list *out, struct err *e)
{
    struct rank_figures *f = calloc(m->nranks ? m->nranks : 1, sizeof *f);
    struct busy_classes c;
    if (!f || busy_classes_init(&c, m, o)) {
        free(f);
        return err_set(e, ERR_NOMEM, "ranks: out of memory");
    }
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < m->nranks && rc == 0; i++) {
        if (!m->ranks[i].selected)
            continue;
        f[n] = (struct rank_figures){.index = i, .rank = m->ranks[i].rank};
        rc = figures_of(&c, &m->ranks[i], &f[n]);
        n++;
    }
    busy_classes_fini(&c);
    struct coll_result cr;
    if (rc == 0 && coll_analyze(m, o, a, &cr, e) == 0) {
        // f is still in m->ranks order: rank index -> its row by a search
        for (size_t s = 0; s < cr.nranking; s++) {
            size_t lo = 0, hi = n, ri = cr.ranking[s].rank_index;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (f[mid].index < ri)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            if (lo < n && f[lo].index == ri) {
                f[lo].blame = cr.ranking[s].blame;
                f[lo].suffered = cr.ranking[s].suffered;
            }
        }
    } else if (rc == 0) {
        rc = e->code ? e->code : ERR_NOMEM;
    }
    if (rc == 0) {
        qsort(f, n, sizeof *f, by_blame);
        rc = add_tables(f, n, a, out);
    }
    for (size_t i = 0; i < n; i++) {
        free(f[i].step_numbers);
        free(f[i].step_us);
    }
    free(f);
    if (rc)
        return e->code ? e->code : err_set(e, ERR_NOMEM, "ranks: out of memory");
    return 0;
}
