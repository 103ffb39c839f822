#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/analysis.h"
#include "analysis/busy.h"
#include "analysis/stats.h"

/* §3.3 communication/computation overlap: the share of communication time
 * during which computation also runs. A rank without communication kernels
 * gets NaN (written as null), as in HTA; MEMORY and OTHER are ignored. */

static const struct table_col overlap_cols[] = {
    {"rank", NULL, COL_KEY},
    {"comp_comm_overlap_pctg", "%", COL_PERCENT},
};

/* Returns 0 with *pctg set (NaN without communication) or ERR_NOMEM. */
static int rank_overlap(struct busy_classes *c, const struct rank_model *r, double *pctg)
{
    const unsigned masks[2] = {BUSY_CLASS_BIT(KC_COMPUTATION), BUSY_CLASS_BIT(KC_COMMUNICATION)};
    struct interval *iv[2];
    size_t n[2];
    int rc = busy_merged_each(c, r, masks, 2, iv, n);
    if (rc)
        return rc;
    struct interval *comp = iv[0], *comm = iv[1];
    size_t ncomp = n[0], ncomm = n[1];
    int64_t both = intervals_intersection(comp, ncomp, comm, ncomm);
    int64_t comm_time = intervals_busy(comm, ncomm);
    *pctg = comm_time != 0 ? hta_round(100.0 * busy_us(both) / busy_us(comm_time), 2) : NAN;
    busy_merged_free(c, comp);
    busy_merged_free(c, comm);
    return 0;
}

int overlap_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                struct table_list *out, struct err *e)
{
    struct table *t = table_new(scratch, "comm_comp_overlap",
                                "Communication/computation overlap", overlap_cols,
                                sizeof overlap_cols / sizeof overlap_cols[0]);
    struct busy_classes c;
    if (!t || busy_classes_init(&c, m, o))
        return err_set(e, ERR_NOMEM, "overlap: out of memory");
    int rc = 0;
    size_t no_comm = 0;
    for (size_t i = 0; i < m->nranks && rc == 0; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        double pctg;
        struct cell *row;
        rc = rank_overlap(&c, r, &pctg);
        if (rc == 0 && !(row = table_add_row(t)))
            rc = ERR_NOMEM;
        if (rc == 0) {
            row[0] = cell_int(r->rank);
            row[1] = cell_double(pctg);
            no_comm += isnan(pctg);
        }
    }
    busy_classes_fini(&c);
    if (rc)
        return err_set(e, ERR_NOMEM, "overlap: out of memory");
    if (t->nrows == 0)
        table_set_note(t, "no rank selected");
    else if (no_comm)
        table_set_note(t, "%zu of %zu ranks have no communication kernels (null)", no_comm,
                       t->nrows);
    return table_list_add(out, t) ? err_set(e, ERR_NOMEM, "overlap: too many tables") : 0;
}
