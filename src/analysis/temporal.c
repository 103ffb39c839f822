#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "analysis/busy.h"
#include "analysis/stats.h"

/* §3.1 temporal breakdown: per rank, the span from the first GPU activity to
 * the last, split into idle, compute and non-compute (every quantity a union
 * of intervals, so overlaps across streams count once).
 *
 * A rank with no GPU events makes HTA crash (IndexError). Its span is empty,
 * so there is no percentage to give: we leave the rank out of the table and
 * name it in the note, rather than print a row of zeros that reads like a
 * measured, fully idle GPU. */

static const struct table_col temporal_cols[] = {
    {"rank", NULL, COL_KEY},
    {"idle_time(us)", "us", 0},
    {"compute_time(us)", "us", 0},
    {"non_compute_time(us)", "us", 0},
    {"kernel_time(us)", "us", 0},
    {"idle_time_pctg", "%", COL_PERCENT},
    {"compute_time_pctg", "%", COL_PERCENT},
    {"non_compute_time_pctg", "%", COL_PERCENT},
};

struct temporal_times {
    int64_t idle, compute, non_compute, span;
};

/* Returns 1 with t filled, 0 when the rank has no GPU events, or ERR_NOMEM. */
static int rank_times(struct busy_classes *c, const struct rank_model *r,
                      struct temporal_times *t)
{
    const unsigned masks[2] = {BUSY_ALL_CLASSES, BUSY_CLASS_BIT(KC_COMPUTATION)};
    struct interval *iv[2];
    size_t n[2];
    int rc = busy_merged_each(c, r, masks, 2, iv, n);
    if (rc)
        return rc;
    struct interval *all = iv[0], *comp = iv[1];
    size_t nall = n[0], ncomp = n[1];
    if (nall == 0) {
        busy_merged_free(c, comp);
        return 0;
    }
    t->span = all[nall - 1].end - all[0].start;
    t->idle = t->span - intervals_busy(all, nall);
    t->compute = intervals_busy(comp, ncomp);
    t->non_compute = t->span - t->compute - t->idle;
    busy_merged_free(c, all);
    busy_merged_free(c, comp);
    return 1;
}

static double pctg(int64_t part, int64_t whole)
{
    return hta_round(100.0 * busy_us(part) / busy_us(whole), 2);
}

static int add_row(struct table *t, int64_t rank, const struct temporal_times *x)
{
    struct cell *row = table_add_row(t);
    if (!row)
        return ERR_NOMEM;
    row[0] = cell_int(rank);
    row[1] = cell_double(busy_us(x->idle));
    row[2] = cell_double(busy_us(x->compute));
    row[3] = cell_double(busy_us(x->non_compute));
    row[4] = cell_double(busy_us(x->span));
    row[5] = cell_double(pctg(x->idle, x->span));
    row[6] = cell_double(pctg(x->compute, x->span));
    row[7] = cell_double(pctg(x->non_compute, x->span));
    return 0;
}

/* Appends "rank N" to the list of ranks without GPU events in buf. */
static void note_rank(char *buf, size_t size, size_t *len, int64_t rank)
{
    if (*len >= size)
        return;
    int n = snprintf(buf + *len, size - *len, "%s%lld", *len ? ", " : "", (long long)rank);
    if (n > 0)
        *len += (size_t)n;
}

int temporal_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                 struct table_list *out, struct err *e)
{
    struct table *t = table_new(scratch, "temporal_breakdown", "Temporal breakdown",
                                temporal_cols, sizeof temporal_cols / sizeof temporal_cols[0]);
    struct busy_classes c;
    if (!t || busy_classes_init(&c, m, o))
        return err_set(e, ERR_NOMEM, "temporal breakdown: out of memory");
    char missing[256] = "";
    size_t mlen = 0, nmissing = 0;
    int rc = 0;
    for (size_t i = 0; i < m->nranks && rc == 0; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        struct temporal_times x = {0, 0, 0, 0};
        rc = rank_times(&c, r, &x);
        if (rc == 1)
            rc = add_row(t, r->rank, &x);
        else if (rc == 0) {
            note_rank(missing, sizeof missing, &mlen, r->rank);
            nmissing++;
        }
    }
    busy_classes_fini(&c);
    if (rc)
        return err_set(e, ERR_NOMEM, "temporal breakdown: out of memory");
    if (nmissing)
        table_set_note(t, "%s %s %s no GPU events, so no row", nmissing > 1 ? "ranks" : "rank",
                       missing, nmissing > 1 ? "have" : "has");
    else if (t->nrows == 0)
        table_set_note(t, "no rank selected");
    return table_list_add(out, t) ? err_set(e, ERR_NOMEM, "temporal breakdown: too many tables")
                                  : 0;
}
