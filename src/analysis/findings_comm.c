#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings_rules.h"
#include "util/vec.h"

/* Exposed communication: on each rank, the time its communication kernels
 * run with no computation kernel beside them (comm busy minus comp busy,
 * HTA's comm_comp_overlap complement), within its kept steps, per step,
 * less the time they wait for later ranks at matched collectives (the
 * straggler's cost: counted once). */

/* A rank's exposed communication below this share of the iteration is the
 * ordinary tail of a collective, not a problem. */
#define EXPOSED_MIN_SHARE 0.01

struct exposed {
    int64_t rank;
    double per_iter;           /* ns per step */
    int64_t comm_ns;           /* comm busy within steps */
    size_t steps_with;         /* steps where some is exposed */
    uint32_t top_name;         /* the kernel name with most exposed time */
    int64_t top_ns;
    uint32_t pos;              /* the kernel with most exposed time */
    int64_t stream, start, end, step;
};

/* The time of [s, e) covered by comp[0..n) (merged, by start). */
static int64_t covered(const struct interval *comp, size_t n, int64_t s, int64_t e)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (comp[mid].end <= s)
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t in = 0;
    for (size_t i = lo; i < n && comp[i].start < e; i++) {
        int64_t a = s > comp[i].start ? s : comp[i].start;
        int64_t b = e < comp[i].end ? e : comp[i].end;
        if (b > a)
            in += b - a;
    }
    return in;
}

struct name_ns {
    uint32_t name;
    int64_t ns;
};

static int by_name(const void *pa, const void *pb)
{
    const struct name_ns *a = pa, *b = pb;
    return (a->name > b->name) - (a->name < b->name);
}

/* Per kernel: its exposed time; the worst kernel and the name with most. */
static int attribute(struct fctx *c, const struct frank *fr, const struct interval *comp,
                     size_t ncomp, struct exposed *x)
{
    const struct rank_model *r = fr->r;
    struct name_ns *v = NULL;
    size_t n = 0, cap = 0;
    int64_t worst = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (!busy_is_gpu_event(c->m, ev) || busy_class(&c->classes, ev->name) != KC_COMMUNICATION)
            continue;
        int64_t step, in = fctx_in_steps(fr, ev->ts, ev->ts + ev->dur, &step);
        int64_t ex = in - covered(comp, ncomp, ev->ts, ev->ts + ev->dur);
        if (ex <= 0)
            continue;
        if (n == cap && VEC_PUSH_SLOT(v, n, cap)) {
            free(v);
            return ERR_NOMEM;
        }
        v[n++] = (struct name_ns){ev->name, ex};
        if (ex > worst) {
            worst = ex;
            *x = (struct exposed){.rank = x->rank, .per_iter = x->per_iter, .comm_ns = x->comm_ns,
                                  .steps_with = x->steps_with, .pos = r->rows[i],
                                  .stream = ev->stream, .start = ev->ts, .end = ev->ts + ev->dur,
                                  .step = step};
        }
    }
    if (n)
        qsort(v, n, sizeof *v, by_name);
    for (size_t i = 0; i < n;) {
        int64_t sum = 0;
        size_t j = i;
        for (; j < n && v[j].name == v[i].name; j++)
            sum += v[j].ns;
        if (sum > x->top_ns) {
            x->top_ns = sum;
            x->top_name = v[i].name;
        }
        i = j;
    }
    free(v);
    return 0;
}

/* The exposed pieces of comm (comm minus comp, both merged) within fr's
 * steps: their total into x, and the steps holding some. */
static void exposed_total(const struct frank *fr, const struct interval *comp, size_t ncomp,
                          const struct interval *comm, size_t ncomm, struct exposed *x,
                          int64_t *total)
{
    int64_t last_step = INT64_MIN;
    *total = 0;
    for (size_t i = 0; i < ncomm; i++) {
        int64_t s = comm[i].start, e = comm[i].end;
        x->comm_ns += fctx_in_steps(fr, s, e, NULL);
        // walk comp over [s, e): the gaps between comp intervals are exposed
        size_t lo = 0, hi = ncomp;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (comp[mid].end <= s)
                lo = mid + 1;
            else
                hi = mid;
        }
        int64_t at = s;
        for (size_t j = lo; at < e; j++) {
            int64_t gap_end = j < ncomp && comp[j].start < e ? comp[j].start : e;
            int64_t step;
            int64_t in = gap_end > at ? fctx_in_steps(fr, at, gap_end, &step) : 0;
            if (in > 0) {
                *total += in;
                if (step != last_step && step >= 0)
                    x->steps_with++;
                last_step = step >= 0 ? step : last_step;
            }
            if (j >= ncomp || comp[j].start >= e)
                break;
            at = comp[j].end > at ? comp[j].end : at;
        }
    }
}

/* The time each selected rank's collectives wait inside its steps for
 * later ranks (the straggler's cost, not this rule's), into w[0..nranks),
 * in one pass over the collectives. */
static int waits(const struct fctx *c, int64_t *w)
{
    size_t nm = c->m->nranks;
    size_t *at = malloc((nm ? nm : 1) * sizeof *at);
    if (!at)
        return ERR_NOMEM;
    for (size_t i = 0; i < nm; i++)
        at[i] = SIZE_MAX;
    for (size_t i = 0; i < c->nranks; i++)
        at[c->ranks[i].index] = i;
    for (size_t i = 0; c->colls && i < c->colls->ncolls; i++) {
        const struct collective *k = &c->colls->colls[i];
        for (size_t j = 0; j < k->ninst; j++) {
            const struct coll_instance *x = &k->inst[j];
            size_t r = x->rank_index < nm ? at[x->rank_index] : SIZE_MAX;
            if (r != SIZE_MAX && x->wait > 0)
                w[r] += fctx_in_steps(&c->ranks[r], x->arrival, x->arrival + x->wait, NULL);
        }
    }
    free(at);
    return 0;
}

static int rank_exposed(struct fctx *c, const struct frank *fr, int64_t waited, struct exposed *x)
{
    const unsigned masks[2] = {BUSY_CLASS_BIT(KC_COMPUTATION), BUSY_CLASS_BIT(KC_COMMUNICATION)};
    struct interval *iv[2];
    size_t k[2];
    int rc = busy_merged_each(&c->classes, fr->r, masks, 2, iv, k);
    if (rc)
        return rc;
    memset(x, 0, sizeof *x);
    x->rank = fr->r->rank;
    x->pos = MODEL_NONE;
    int64_t total;
    exposed_total(fr, iv[0], k[0], iv[1], k[1], x, &total);
    total -= waited;
    total = total > 0 ? total : 0;
    x->per_iter = fctx_per_iteration(fr, (double)total);
    if (total > 0)
        rc = attribute(c, fr, iv[0], k[0], x);
    busy_merged_free(&c->classes, iv[0]);
    busy_merged_free(&c->classes, iv[1]);
    return rc;
}

/* One finding for the ranks above the threshold: the mean of their costs,
 * the evidence on the worst one. */
static int raise(struct fctx *c, const struct exposed *v, size_t n, struct err *e)
{
    size_t worst = SIZE_MAX, hit = 0;
    double sum = 0, support = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].per_iter < EXPOSED_MIN_SHARE * c->iter_ns)
            continue;
        c->scratch[hit++] = v[i].rank;
        sum += v[i].per_iter;
        support += c->ranks[i].nsteps ? (double)v[i].steps_with / (double)c->ranks[i].nsteps : 1.0;
        if (worst == SIZE_MAX || v[i].per_iter > v[worst].per_iter)
            worst = i;
    }
    if (!hit)
        return 0;
    struct finding *f = fctx_add(c, FINDING_EXPOSED_COMM);
    if (!f)
        return err_set(e, ERR_NOMEM, "findings: out of memory");
    const struct exposed *w = &v[worst];
    fctx_cost(c, f, sum / (double)hit);
    fctx_list_text(f->ranks, sizeof f->ranks, c->scratch, hit);
    if (w->step >= 0)
        snprintf(f->iterations, sizeof f->iterations, "%lld", (long long)w->step);
    char cost[32], worst_cost[32];
    fctx_duration(cost, sizeof cost, f->cost_ns);
    fctx_duration(worst_cost, sizeof worst_cost, w->per_iter);
    str_appendf(f->title, sizeof f->title,
                "Communication not hidden by computation: %s per iteration", cost);
    const struct frank *fr = &c->ranks[worst];
    if (fr->has_events) {
        char top[128];
        fctx_name(c, w->top_name, top, sizeof top);
        double share = w->comm_ns > 0 ? 100.0 * w->per_iter * (fr->nsteps ? (double)fr->nsteps : 1.0) /
                                            (double)w->comm_ns
                                      : 0.0;
        str_appendf(f->cause, sizeof f->cause,
                    "On rank %lld the GPU runs communication with no computation beside it for %s "
                    "per iteration (%.0f%% of its communication time, not counting waits for late "
                    "ranks); most in %s. ",
                    (long long)w->rank, worst_cost, share, top);
    } else {
        str_appendf(f->cause, sizeof f->cause,
                    "On rank %lld the GPU runs communication with no computation beside it for %s "
                    "per iteration (its summary's communication share of the GPU span, less the "
                    "overlap; waits for late ranks included). ",
                    (long long)w->rank, worst_cost);
    }
    str_appendf(f->cause, sizeof f->cause,
                "Overlap collectives with computation (bucketing, asynchronous ops) or make them "
                "smaller.");
    f->start_ns = w->start;
    f->end_ns = w->end;
    f->evidence = (struct finding_evidence){
        .kind = FINDING_EVIDENCE_TIMELINE, .rank = w->rank, .stream = w->stream,
        .start_ns = w->start, .end_ns = w->end, .pos = w->pos, .view = FINDING_VIEW_OVERLAP};
    snprintf(f->evidence.table, sizeof f->evidence.table, "comm_comp_overlap");
    snprintf(f->evidence.row, sizeof f->evidence.row, "rank=%lld", (long long)w->rank);
    f->confidence = fctx_confidence(c, f, support / (double)hit);
    return 0;
}

int findings_exposed_comm(struct fctx *c, struct err *e)
{
    if (fctx_colls(c, e))
        return ERR_NOMEM;
    struct exposed *v = calloc(c->nranks ? c->nranks : 1, sizeof *v);
    int64_t *waited = calloc(c->nranks ? c->nranks : 1, sizeof *waited);
    int rc = v && waited ? 0 : ERR_NOMEM;
    if (rc == 0 && c->m && c->colls)
        rc = waits(c, waited);
    size_t n = 0;
    for (size_t i = 0; i < c->nranks && rc == 0; i++) {
        if (!c->ranks[i].has_events) {
            if (isnan(c->ranks[i].exposed_ns))
                c->needs_events |= 1u << FINDING_EXPOSED_COMM;
            v[n++] = (struct exposed){.rank = c->ranks[i].rank, .pos = MODEL_NONE,
                                      .per_iter = c->ranks[i].exposed_ns, .step = -1};
            continue;
        }
        rc = rank_exposed(c, &c->ranks[i], waited[i], &v[n++]);
    }
    if (rc == 0)
        rc = raise(c, v, n, e);
    else
        err_set(e, ERR_NOMEM, "findings: out of memory");
    free(v);
    free(waited);
    return rc;
}
