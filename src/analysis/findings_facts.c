#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings_rules.h"

/* The findings of a job read from its rank summaries: its ranks, their
 * steps and exposed communication from the summaries' tables. */

static double cell_at(const struct table *t, size_t row, int col)
{
    return col < 0 ? NAN : cell_as_double(table_cell(t, row, (size_t)col));
}

/* The row of t whose "rank" is rank, or SIZE_MAX. */
static size_t row_of(const struct table *t, int64_t rank)
{
    int col = t ? table_col_index(t, "rank") : -1;
    for (size_t i = 0; col >= 0 && i < t->nrows; i++)
        if (cell_at(t, i, col) == (double)rank)
            return i;
    return SIZE_MAX;
}

static int add_steps(struct frank *fr, const struct table *t)
{
    int rc = t ? table_col_index(t, "rank") : -1, ic = t ? table_col_index(t, "iteration") : -1;
    int sc = t ? table_col_index(t, "step_time (us)") : -1;
    if (rc < 0 || ic < 0 || sc < 0)
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < t->nrows; i++)
        n += cell_at(t, i, rc) == (double)fr->rank;
    if (!n)
        return 0;
    fr->steps = calloc(n, sizeof *fr->steps);
    if (!fr->steps)
        return ERR_NOMEM;
    for (size_t i = 0; i < t->nrows; i++) {
        double us = cell_at(t, i, sc);
        if (cell_at(t, i, rc) != (double)fr->rank || !isfinite(us))
            continue;
        fr->steps[fr->nsteps++] = (struct iteration){.number = (int64_t)cell_at(t, i, ic),
                                                     .dur = (int64_t)llround(us * 1000.0),
                                                     .pos = MODEL_NONE};
    }
    return 0;
}

/* comm (%) of the GPU span (kernel_time) not overlapped, per step. */
static double exposed_of(const struct findings_facts *f, const struct frank *fr)
{
    size_t ro = row_of(f->rank_overview, fr->rank), rt = row_of(f->temporal, fr->rank);
    size_t rv = row_of(f->overlap, fr->rank);
    if (ro == SIZE_MAX || rt == SIZE_MAX || rv == SIZE_MAX || !fr->nsteps)
        return NAN;
    double comm = cell_at(f->rank_overview, ro, table_col_index(f->rank_overview, "comm (%)"));
    double span = cell_at(f->temporal, rt, table_col_index(f->temporal, "kernel_time(us)"));
    double ov = cell_at(f->overlap, rv, table_col_index(f->overlap, "comp_comm_overlap_pctg"));
    if (!isfinite(comm) || !isfinite(span))
        return NAN;
    if (!isfinite(ov))
        ov = 0;
    return comm / 100.0 * span * 1000.0 * (1.0 - ov / 100.0) / (double)fr->nsteps;
}

int findings_of_facts(const struct findings_facts *facts, const struct trust_report *trust,
                      struct arena *a, struct findings *out, struct err *e)
{
    memset(out, 0, sizeof *out);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct fctx c = {.o = &o, .trust = trust, .a = a, .colls = facts->colls};
    size_t n = facts->nranks;
    c.ranks = calloc(n ? n : 1, sizeof *c.ranks);
    c.scratch = malloc((n ? n : 1) * sizeof *c.scratch);
    int rc = c.ranks && c.scratch ? 0 : ERR_NOMEM;
    double sum = 0;
    size_t steps = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        struct frank *fr = &c.ranks[c.nranks++];
        fr->rank = facts->ranks[i];
        fr->index = i;
        rc = add_steps(fr, facts->rank_steps);
        for (size_t j = 0; j < fr->nsteps; j++)
            sum += (double)fr->steps[j].dur;
        steps += fr->nsteps;
        fr->exposed_ns = exposed_of(facts, fr);
    }
    c.iterations = c.nranks ? steps / c.nranks : 0;
    c.iter_ns = steps ? sum / (double)steps : 0;
    return fctx_run(&c, rc, out, e);
}
