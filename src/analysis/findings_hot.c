#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings_rules.h"
#include "util/vec.h"

/* Hot spots: pointers, not faults. A kernel whose time is a large share of
 * the GPU's kernel time, or a GPU annotation (a module, a phase) that takes
 * a large share of the iteration: where an optimisation pays most. Their
 * cost is the time they take per iteration on the mean rank. */

#define HOT_KERNEL_MIN_SHARE 0.25       /* of all kernel time */
#define HOT_ANNOTATION_MIN_SHARE 0.25   /* of the iteration */
#define HOT_MAX 3

static size_t ranks_with_events(const struct fctx *c, double *steps)
{
    size_t n = 0;
    *steps = 0;
    for (size_t i = 0; i < c->nranks; i++)
        if (c->ranks[i].has_events) {
            n++;
            *steps += c->ranks[i].nsteps ? (double)c->ranks[i].nsteps : 1.0;
        }
    return n;
}

static void hot_finding(struct fctx *c, struct finding *f, uint32_t name, double total_ns,
                        double steps, double share, bool kernel)
{
    char n[128], cost[32];
    fctx_name(c, name, n, sizeof n);
    fctx_cost(c, f, total_ns / steps);
    fctx_duration(cost, sizeof cost, f->cost_ns);
    size_t k = 0;
    for (size_t i = 0; i < c->nranks; i++)
        if (c->ranks[i].has_events)
            c->scratch[k++] = c->ranks[i].rank;
    fctx_list_text(f->ranks, sizeof f->ranks, c->scratch, k);
    if (kernel) {
        str_appendf(f->title, sizeof f->title, "Hot kernel %s: %.0f%% of GPU kernel time", n,
                    100 * share);
        str_appendf(f->cause, sizeof f->cause,
                    "%s runs %s per iteration on the mean rank, %.0f%% of all kernel time: "
                    "the first place to look for a speed-up (not a fault).", n, cost, 100 * share);
        f->evidence.view = FINDING_VIEW_KERNELS;
        snprintf(f->evidence.table, sizeof f->evidence.table, "kernel_breakdown");
    } else {
        str_appendf(f->title, sizeof f->title, "Hot annotation %s: %.0f%% of the iteration", n,
                    100 * f->cost_share);
        str_appendf(f->cause, sizeof f->cause,
                    "The GPU spends %s per iteration under %s on the mean rank: the first place "
                    "to look for a speed-up (not a fault).", cost, n);
        f->evidence.view = FINDING_VIEW_ANNOTATIONS;
        snprintf(f->evidence.table, sizeof f->evidence.table, "kernels_by_annotation");
    }
    f->evidence.kind = FINDING_EVIDENCE_VIEW;
    snprintf(f->evidence.row, sizeof f->evidence.row, "name=%s", n);
    f->confidence = fctx_confidence(c, f, 1.0);
}

static int hot_kernels(struct fctx *c, double steps)
{
    if (fctx_kernels(c))
        return ERR_NOMEM;
    double all = 0;
    for (size_t i = 0; i < c->nkq; i++)
        all += (double)c->kq[i].sum;
    size_t added = 0;
    for (size_t i = 0; i < c->nkq && all > 0 && added < HOT_MAX;) {
        size_t j = i;
        double sum = 0;
        for (; j < c->nkq && c->kq[j].name == c->kq[i].name; j++)
            sum += (double)c->kq[j].sum;
        if (sum >= HOT_KERNEL_MIN_SHARE * all) {
            struct finding *f = fctx_add(c, FINDING_HOT_KERNEL);
            if (!f)
                return ERR_NOMEM;
            hot_finding(c, f, c->kq[i].name, sum, steps, sum / all, true);
            added++;
        }
        i = j;
    }
    return 0;
}

static int kq_by_name(const void *pa, const void *pb)
{
    const struct kq *a = pa, *b = pb;
    return (a->name > b->name) - (a->name < b->name);
}

static int hot_annotations(struct fctx *c, double steps)
{
    struct kq *v = NULL;
    size_t n = 0, cap = 0;
    for (size_t at = 0; at < c->nranks; at++) {
        const struct frank *fr = &c->ranks[at];
        if (!fr->has_events)
            continue;
        for (size_t i = 0; i < fr->r->nrows; i++) {
            const struct event *ev = &fr->r->events[fr->r->rows[i]];
            if (ev->kind != EV_KIND_GPU_USER_ANNOTATION ||
                strncmp(model_str(c->m, ev->name), "ProfilerStep", 12) == 0)
                continue;
            if (VEC_PUSH_SLOT(v, n, cap)) {
                free(v);
                return ERR_NOMEM;
            }
            v[n++] = (struct kq){ev->name, (uint32_t)at, 1,
                                 fctx_in_steps(fr, ev->ts, ev->ts + ev->dur, NULL)};
        }
    }
    if (n)
        qsort(v, n, sizeof *v, kq_by_name);
    size_t added = 0;
    int rc = 0;
    for (size_t i = 0; i < n && added < HOT_MAX && rc == 0;) {
        size_t j = i;
        double sum = 0;
        for (; j < n && v[j].name == v[i].name; j++)
            sum += (double)v[j].sum;
        if (sum / steps >= HOT_ANNOTATION_MIN_SHARE * c->iter_ns) {
            struct finding *f = fctx_add(c, FINDING_HOT_ANNOTATION);
            if (!f)
                rc = ERR_NOMEM;
            else
                hot_finding(c, f, v[i].name, sum, steps, 0, false);
            added += f != NULL;
        }
        i = j;
    }
    free(v);
    return rc;
}

int findings_hot(struct fctx *c, struct err *e)
{
    double steps;
    size_t n = ranks_with_events(c, &steps);
    if (n < c->nranks)
        c->needs_events |= 1u << FINDING_HOT_KERNEL | 1u << FINDING_HOT_ANNOTATION;
    if (n == 0 || c->iter_ns <= 0)
        return 0;
    int rc = hot_kernels(c, steps);
    if (rc == 0)
        rc = hot_annotations(c, steps);
    return rc ? err_set(e, ERR_NOMEM, "findings: out of memory") : 0;
}
