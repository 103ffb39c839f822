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
        // rows come mostly step by step: a run of one step adds it once
        if (it >= 0 && (k == 0 || kept[k - 1] != it))
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
    busy_merged_free(c, all);
    busy_merged_free(c, comm);
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

/* ---- parts: what each rank adds, and their reduce -------------------------- */

static const struct table_col figure_cols[] = {
    {"rank", NULL, COL_KEY},
    {"steps", NULL, 0},
    {"step_median (us)", "us", 0},
    {"step_max (us)", "us", 0},
    {"idle (%)", "%", 0},
    {"comm (%)", "%", 0},
};

static void free_figures(struct rank_figures *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(f[i].step_numbers);
        free(f[i].step_us);
    }
    free(f);
}

int ranks_parts_run(const struct model *m, const struct analysis_opts *o, struct arena *a,
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
    struct table *t = NULL, *st = NULL;
    if (rc == 0) {
        t = table_new(a, RANKS_PART_FIGURES, "Rank figures", figure_cols, NCOLS(figure_cols));
        st = table_new(a, "rank_steps", "Step time per iteration", step_cols, NCOLS(step_cols));
        rc = t && st && table_list_add(out, t) == 0 && table_list_add(out, st) == 0 ? 0
                                                                                    : ERR_NOMEM;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        struct cell *row = table_add_row(t);
        if (!row) {
            rc = ERR_NOMEM;
            break;
        }
        row[0] = cell_int(f[i].rank);
        row[1] = cell_int((int64_t)f[i].steps);
        row[2] = cell_double(f[i].median_us);
        row[3] = cell_double(f[i].max_us);
        row[4] = cell_double(f[i].idle_pct);
        row[5] = cell_double(f[i].comm_pct);
        for (size_t k = 0; k < f[i].steps && rc == 0; k++) {
            struct cell *s = table_add_row(st);
            if (!s)
                rc = ERR_NOMEM;
            else {
                s[0] = cell_int(f[i].rank);
                s[1] = cell_int(f[i].step_numbers[k]);
                s[2] = cell_double(f[i].step_us[k]);
            }
        }
    }
    free_figures(f, n);
    return rc ? err_set(e, ERR_NOMEM, "ranks: out of memory") : 0;
}

/* One part's figures appended to f (with their steps, in the part's order);
 * false when the part is not one. */
static bool add_part(const struct table_list *p, struct rank_figures *f, size_t *n, size_t cap)
{
    const struct table *t = table_list_find(p, RANKS_PART_FIGURES, NCOLS(figure_cols));
    const struct table *st = table_list_find(p, "rank_steps", NCOLS(step_cols));
    if (!t || !st)
        return false;
    size_t next = 0;   // the part's steps, rank after rank
    for (size_t i = 0; i < t->nrows && *n < cap; i++) {
        const struct cell *row = table_cell(t, i, 0);
        if (row[0].type != CELL_INT || row[1].type != CELL_INT || row[1].v.i < 0 ||
            (uint64_t)row[1].v.i > st->nrows - next)
            return false;
        struct rank_figures *g = &f[(*n)++];
        *g = (struct rank_figures){.rank = row[0].v.i, .steps = (size_t)row[1].v.i,
                                   .median_us = cell_as_double(&row[2]),
                                   .max_us = cell_as_double(&row[3]),
                                   .idle_pct = cell_as_double(&row[4]),
                                   .comm_pct = cell_as_double(&row[5])};
        g->step_numbers = malloc((g->steps ? g->steps : 1) * sizeof *g->step_numbers);
        g->step_us = malloc((g->steps ? g->steps : 1) * sizeof *g->step_us);
        if (!g->step_numbers || !g->step_us)
            return false;
        for (size_t k = 0; k < g->steps; k++, next++) {
            const struct cell *s = table_cell(st, next, 0);
            if (s[0].type != CELL_INT || s[0].v.i != g->rank || s[1].type != CELL_INT)
                return false;
            g->step_numbers[k] = s[1].v.i;
            g->step_us[k] = cell_as_double(&s[2]);
        }
    }
    return next == st->nrows;
}

static int by_rank(const void *a, const void *b)
{
    const struct rank_figures *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

int ranks_reduce(const struct table_list *const *parts, size_t nparts,
                 const struct coll_result *cr, struct arena *a, struct table_list *out,
                 struct err *e)
{
    size_t cap = 0;
    for (size_t p = 0; p < nparts; p++) {
        const struct table *t = table_list_find(parts[p], RANKS_PART_FIGURES, NCOLS(figure_cols));
        cap += t ? t->nrows : 0;
    }
    struct rank_figures *f = calloc(cap ? cap : 1, sizeof *f);
    if (!f)
        return err_set(e, ERR_NOMEM, "ranks: out of memory");
    size_t n = 0;
    for (size_t p = 0; p < nparts; p++)
        if (!add_part(parts[p], f, &n, cap)) {
            free_figures(f, n);
            return err_set(e, ERR_PARSE, "ranks: part %zu is not one", p);
        }
    qsort(f, n, sizeof *f, by_rank);
    for (size_t s = 0; cr && s < cr->nranking; s++) {
        struct rank_figures key = {.rank = cr->ranking[s].rank};
        struct rank_figures *g = bsearch(&key, f, n, sizeof *f, by_rank);
        if (g) {
            g->blame = cr->ranking[s].blame;
            g->suffered = cr->ranking[s].suffered;
        }
    }
    qsort(f, n, sizeof *f, by_blame);
    int rc = add_tables(f, n, a, out);
    free_figures(f, n);
    return rc ? err_set(e, ERR_NOMEM, "ranks: out of memory") : 0;
}

int ranks_overview_run(const struct model *m, const struct analysis_opts *o, struct arena *a,
                       struct table_list *out, struct err *e)
{
    struct table_list parts = {.count = 0};
    const struct table_list *one = &parts;
    struct coll_result cr;
    int rc = ranks_parts_run(m, o, a, &parts, e);
    if (rc == 0)
        rc = coll_analyze(m, o, a, &cr, e);
    return rc ? rc : ranks_reduce(&one, 1, &cr, a, out, e);
}
