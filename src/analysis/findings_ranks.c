#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings_rules.h"
#include "util/vec.h"

/* Rules across ranks: the straggler and why it is late, the spread of step
 * times, one kernel slower on one rank, collectives far below their peers'
 * bandwidth. The straggler, the spread and the bandwidth need only what
 * rank summaries hold (the collective records and the steps). */

/* A straggler takes at least this share of all the blame at collectives. */
#define STRAGGLER_MIN_BLAME 0.5
/* Below it, which rank arrives last is the jitter of a sound job. */
#define STRAGGLER_MIN_SHARE 0.05
#define IMBALANCE_MIN_SHARE 0.05
/* A kernel this much slower on a rank than the median of the ranks, ... */
#define SLOW_KERNEL_RATIO 1.25
#define SLOW_KERNEL_MIN_COUNT 3
#define SLOW_KERNEL_MIN_SHARE 0.01
/* A slow GPU makes every kernel slow: the few that cost most say it. */
#define SLOW_KERNEL_MAX 3
/* A collective below this share of the median busbw of its peers (same
 * collective, size and group size; at least BANDWIDTH_MIN_PEERS of them). */
#define BANDWIDTH_RATIO 0.5
#define BANDWIDTH_MIN_PEERS 4
#define BANDWIDTH_MIN_SHARE 0.005

static double steps_of(const struct frank *fr)
{
    return fr->nsteps ? (double)fr->nsteps : 1.0;
}

static size_t rank_at_of(const struct fctx *c, int64_t rank)
{
    for (size_t i = 0; i < c->nranks; i++)
        if (c->ranks[i].rank == rank)
            return i;
    return SIZE_MAX;
}

/* The computation kernel whose time per step on rank s most exceeds the
 * median of the others'. */
static uint32_t slowest_kernel(struct fctx *c, size_t s, double *excess)
{
    uint32_t best = UINT32_MAX;
    *excess = 0;
    for (size_t i = 0; i < c->nkq;) {
        size_t j = i;
        double mine = 0, others[64];
        size_t no = 0;
        for (; j < c->nkq && c->kq[j].name == c->kq[i].name; j++) {
            double v = (double)c->kq[j].sum / steps_of(&c->ranks[c->kq[j].rank_at]);
            if (c->kq[j].rank_at == s)
                mine = v;
            else if (no < 64)
                others[no++] = v;
        }
        double d = mine - (no ? fctx_median(others, no) : 0);
        if (d > *excess && busy_class(&c->classes, c->kq[i].name) == KC_COMPUTATION) {
            *excess = d;
            best = c->kq[i].name;
        }
        i = j;
    }
    return best;
}

enum late_cause { LATE_COMPUTE = 0, LATE_HOST, LATE_SYNC, LATE_STEP, LATE_CAUSES };

/* Why rank s is late: the figure of its own timeline that most exceeds the
 * median of the others' (per step): the computation kernel slower than on
 * its peers, its waits for the host, its synchronizations, its gaps
 * between steps. LATE_CAUSES when none does. */
static int late_cause(struct fctx *c, size_t s, double *excess, enum late_cause *why,
                      uint32_t *kernel)
{
    if (fctx_kernels(c))
        return ERR_NOMEM;
    double kx;
    *kernel = slowest_kernel(c, s, &kx);
    *why = kx > 0 ? LATE_COMPUTE : LATE_CAUSES;
    *excess = kx > 0 ? kx : 0;
    for (int k = LATE_HOST; k < LATE_CAUSES; k++) {
        double others[256], mine = 0;
        size_t no = 0;
        for (size_t i = 0; i < c->nranks; i++) {
            const struct frank *fr = &c->ranks[i];
            double v = k == LATE_HOST ? fr->host_wait + fr->launch_wait
                       : k == LATE_SYNC ? fr->sync_wait : fr->step_gap;
            if (i == s)
                mine = v;
            else if (no < 256 && fr->has_events)
                others[no++] = v;
        }
        double d = mine - (no ? fctx_median(others, no) : 0);
        if (d > *excess) {
            *excess = d;
            *why = (enum late_cause)k;
        }
    }
    return 0;
}

static int straggler_cause(struct fctx *c, size_t s, struct finding *f)
{
    const struct frank *fr = &c->ranks[s];
    if (!fr->has_events) {
        str_appendf(f->cause, sizeof f->cause, " Why it is late needs the events.");
        return 0;
    }
    double excess;
    enum late_cause why;
    uint32_t k;
    int rc = late_cause(c, s, &excess, &why, &k);
    if (rc)
        return rc;
    char d[32], name[128];
    fctx_duration(d, sizeof d, excess);
    switch (why) {
    case LATE_COMPUTE:
        fctx_name(c, k, name, sizeof name);
        str_appendf(f->cause, sizeof f->cause,
                    " Its computation takes longer than its peers': %s runs %s per iteration longer "
                    "than on the median rank: a slower or throttled GPU, or more work on this rank.",
                    name, d);
        break;
    case LATE_HOST:
        str_appendf(f->cause, sizeof f->cause,
                    " Its GPU waits for the host %s per iteration longer than its peers': its "
                    "kernels are launched late (see the host_bound finding).", d);
        break;
    case LATE_SYNC:
        str_appendf(f->cause, sizeof f->cause,
                    " It synchronizes with the host %s per iteration longer than its peers.", d);
        break;
    case LATE_STEP:
        str_appendf(f->cause, sizeof f->cause,
                    " Its GPU idles between steps %s per iteration longer than its peers': its "
                    "steps start late (data loading, a long CPU gap before the step).", d);
        break;
    default:
        str_appendf(f->cause, sizeof f->cause,
                    " Its own timeline shows no figure above its peers' (compute, host waits, "
                    "synchronizations, step starts).");
        break;
    }
    return 0;
}

int findings_straggler(struct fctx *c, struct err *e)
{
    int rc = fctx_colls(c, e);
    const struct coll_result *cr = c->colls;
    if (rc || !cr || cr->nranking < 2 || cr->ranks_with_comm < 2)
        return rc;
    int64_t total = 0;
    for (size_t i = 0; i < cr->nranking; i++)
        total += cr->ranking[i].blame;
    const struct straggler *s = &cr->ranking[0];
    size_t at = rank_at_of(c, s->rank);
    if (s->blame <= 0 || (double)s->blame < STRAGGLER_MIN_BLAME * (double)total || at == SIZE_MAX)
        return 0;
    double per_iter = (double)s->blame / (double)(cr->ranks_with_comm - 1) / steps_of(&c->ranks[at]);
    if (per_iter < STRAGGLER_MIN_SHARE * c->iter_ns)
        return 0;
    struct finding *f = fctx_add(c, FINDING_STRAGGLER);
    if (!f)
        return err_set(e, ERR_NOMEM, "findings: out of memory");
    fctx_cost(c, f, per_iter);
    snprintf(f->ranks, sizeof f->ranks, "%lld", (long long)s->rank);
    char cost[32];
    fctx_duration(cost, sizeof cost, f->cost_ns);
    str_appendf(f->title, sizeof f->title, "Rank %lld makes the others wait at collectives: %s per iteration",
                (long long)s->rank, cost);
    str_appendf(f->cause, sizeof f->cause,
                "Rank %lld arrives last at %zu of its %zu collectives and takes %.0f%% of the "
                "job's waiting; each other rank waits %s per iteration for it.",
                (long long)s->rank, s->last_count, s->collectives,
                total > 0 ? 100.0 * (double)s->blame / (double)total : 0.0, cost);
    if (s->worst != SIZE_MAX && s->worst < cr->ncolls) {
        const struct collective *w = &cr->colls[s->worst];
        f->start_ns = w->inst[w->first].arrival;
        f->end_ns = w->inst[w->last].arrival > f->start_ns ? w->inst[w->last].arrival
                                                           : f->start_ns + 1;
        f->evidence.pos = w->inst[w->last].pos;
        f->evidence.stream = w->inst[w->last].stream;
        if (s->worst_iteration >= 0)
            snprintf(f->iterations, sizeof f->iterations, "%d", s->worst_iteration);
    }
    f->evidence = (struct finding_evidence){
        .kind = FINDING_EVIDENCE_VIEW, .rank = s->rank, .stream = f->evidence.stream,
        .start_ns = f->start_ns, .end_ns = f->end_ns, .pos = f->evidence.pos,
        .view = FINDING_VIEW_RANKS};
    snprintf(f->evidence.table, sizeof f->evidence.table, "rank_overview");
    snprintf(f->evidence.row, sizeof f->evidence.row, "rank=%lld", (long long)s->rank);
    f->confidence = fctx_confidence(c, f, s->collectives ? (double)s->last_count / (double)s->collectives : 0);
    rc = straggler_cause(c, at, f);
    return rc ? err_set(e, ERR_NOMEM, "findings: out of memory") : 0;
}

/* ---- step time spread ---- */

int findings_imbalance(struct fctx *c, struct err *e)
{
    size_t n = 0;
    double *mean = malloc((c->nranks ? c->nranks : 1) * sizeof *mean);
    double *sorted = malloc((c->nranks ? c->nranks : 1) * sizeof *sorted);
    struct fhit *hits = malloc((c->nranks ? c->nranks : 1) * sizeof *hits);
    int rc = mean && sorted && hits ? 0 : ERR_NOMEM;
    for (size_t i = 0; rc == 0 && i < c->nranks; i++) {
        const struct frank *fr = &c->ranks[i];
        double sum = 0;
        for (size_t j = 0; j < fr->nsteps; j++)
            sum += (double)fr->steps[j].dur;
        mean[i] = fr->nsteps ? sum / (double)fr->nsteps : NAN;
        if (fr->nsteps)
            sorted[n++] = mean[i];
    }
    double med = rc == 0 && n >= 2 ? fctx_median(sorted, n) : NAN;
    size_t nh = 0;
    for (size_t i = 0; rc == 0 && !isnan(med) && i < c->nranks; i++) {
        const struct frank *fr = &c->ranks[i];
        if (!fr->nsteps || !(mean[i] > med))
            continue;
        size_t longest = 0, above = 0;
        for (size_t j = 0; j < fr->nsteps; j++) {
            longest = fr->steps[j].dur > fr->steps[longest].dur ? j : longest;
            above += (double)fr->steps[j].dur > med;
        }
        const struct iteration *it = &fr->steps[longest];
        hits[nh++] = (struct fhit){.rank = fr->rank, .rank_at = i, .per_iter = mean[i] - med,
                                   .support = (double)above / (double)fr->nsteps,
                                   .start = it->ts, .end = it->ts + it->dur, .pos = it->pos,
                                   .stream = -1, .step = it->number};
    }
    size_t w;
    bool nomem = false;
    struct finding *f = rc ? NULL : fctx_raise(c, FINDING_IMBALANCE, hits, nh, IMBALANCE_MIN_SHARE,
                                               &w, &nomem);
    if (f) {
        char cost[32], m[32];
        fctx_duration(cost, sizeof cost, f->cost_ns);
        fctx_duration(m, sizeof m, med);
        str_appendf(f->title, sizeof f->title, "Steps take longer on some ranks: %s per iteration",
                    cost);
        str_appendf(f->cause, sizeof f->cause,
                    "The mean step of ranks %s is %s longer than the median rank's (%s); the "
                    "longest is rank %lld's step %lld. Unequal work or data across ranks, or a "
                    "slower node.",
                    f->ranks, cost, m, (long long)hits[w].rank, (long long)hits[w].step);
        f->evidence.kind = FINDING_EVIDENCE_VIEW;
        f->evidence.view = FINDING_VIEW_RANKS;
        if (!c->ranks[hits[w].rank_at].has_events)
            f->evidence.pos = MODEL_NONE;
        snprintf(f->evidence.table, sizeof f->evidence.table, "rank_steps");
        snprintf(f->evidence.row, sizeof f->evidence.row, "rank=%lld iteration=%lld",
                 (long long)hits[w].rank, (long long)hits[w].step);
    }
    free(mean);
    free(sorted);
    free(hits);
    return rc || nomem ? err_set(e, ERR_NOMEM, "findings: out of memory") : 0;
}

/* ---- one kernel slower on one rank ---- */

static int by_cost(const void *pa, const void *pb)
{
    const struct finding *a = pa, *b = pb;
    return (a->cost_ns < b->cost_ns) - (a->cost_ns > b->cost_ns);
}

/* Keeps the `keep` costliest of the findings added since `first`. */
static void keep_costliest(struct fctx *c, size_t first, size_t keep)
{
    if (c->n - first <= keep)
        return;
    qsort(c->items + first, c->n - first, sizeof *c->items, by_cost);
    c->n = first + keep;
}

/* The kernels of c->kq[i..j) (one name): hits for the ranks where it is
 * slow, into hits. */
static size_t slow_ranks(const struct fctx *c, size_t i, size_t j, struct fhit *hits, double *med)
{
    double means[256];
    size_t n = 0;
    for (size_t k = i; k < j && n < 256; k++)
        means[n++] = (double)c->kq[k].sum / (double)c->kq[k].count;
    *med = fctx_median(means, n);
    size_t nh = 0;
    for (size_t k = i; k < j; k++) {
        const struct kq *q = &c->kq[k];
        double mean = (double)q->sum / (double)q->count;
        if (q->count < SLOW_KERNEL_MIN_COUNT || mean < SLOW_KERNEL_RATIO * *med)
            continue;
        const struct frank *fr = &c->ranks[q->rank_at];
        double excess = (double)q->sum - (double)q->count * *med;
        hits[nh++] = (struct fhit){.rank = fr->r->rank, .rank_at = q->rank_at,
                                   .per_iter = excess / steps_of(fr), .support = 1.0,
                                   .pos = MODEL_NONE, .stream = -1, .step = -1};
    }
    return nh;
}

/* The longest kernel called name on hit's rank, as its window. */
static void slow_window(const struct fctx *c, uint32_t name, struct fhit *h)
{
    const struct rank_model *r = c->ranks[h->rank_at].r;
    int64_t best = -1;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (ev->kind == EV_KIND_KERNEL && ev->name == name && ev->dur > best) {
            best = ev->dur;
            h->start = ev->ts;
            h->end = ev->ts + ev->dur;
            h->pos = r->rows[i];
            h->stream = ev->stream;
            h->step = ev->iteration >= 0 ? ev->iteration : -1;
        }
    }
}

/* The title, cause and evidence of slow kernel f: c->kq[i..j) is its
 * name's entries, h its worst rank, med the median of the ranks' means. */
static void slow_describe(const struct fctx *c, struct finding *f, size_t i, size_t j,
                          struct fhit h, double med)
{
    slow_window(c, c->kq[i].name, &h);
    char cost[32], name[128], m[32];
    fctx_duration(cost, sizeof cost, f->cost_ns);
    fctx_duration(m, sizeof m, med);
    fctx_name(c, c->kq[i].name, name, sizeof name);
    str_appendf(f->title, sizeof f->title, "%s is slower on rank %s: %s per iteration",
                name, f->ranks, cost);
    const struct kq *q = NULL;
    for (size_t k = i; k < j; k++)
        if (c->kq[k].rank_at == h.rank_at)
            q = &c->kq[k];
    str_appendf(f->cause, sizeof f->cause,
                "On rank %lld, %s takes %.1f us on average against %s on the median rank "
                "(%.2fx): a slower or throttled GPU, or different inputs on that rank.",
                (long long)h.rank, name, q ? (double)q->sum / (double)q->count / 1e3 : 0.0,
                m, q && med > 0 ? (double)q->sum / (double)q->count / med : 0.0);
    f->start_ns = h.start;
    f->end_ns = h.end;
    f->evidence.start_ns = h.start;
    f->evidence.end_ns = h.end;
    f->evidence.pos = h.pos;
    f->evidence.stream = h.stream;
    if (h.step >= 0)
        snprintf(f->iterations, sizeof f->iterations, "%lld", (long long)h.step);
    f->evidence.view = FINDING_VIEW_KERNELS;
    snprintf(f->evidence.table, sizeof f->evidence.table, "kernel_breakdown");
    snprintf(f->evidence.row, sizeof f->evidence.row, "rank=%lld name=%s",
             (long long)h.rank, name);
}

int findings_slow_kernel(struct fctx *c, struct err *e)
{
    size_t with_events = 0;
    for (size_t i = 0; i < c->nranks; i++)
        with_events += c->ranks[i].has_events;
    if (with_events < c->nranks)
        c->needs_events |= 1u << FINDING_SLOW_KERNEL;
    if (with_events < 2)
        return 0;
    if (fctx_kernels(c))
        return err_set(e, ERR_NOMEM, "findings: out of memory");
    struct fhit *hits = malloc(c->nranks * sizeof *hits);
    if (!hits)
        return err_set(e, ERR_NOMEM, "findings: out of memory");
    int rc = 0;
    size_t first = c->n;
    for (size_t i = 0; i < c->nkq && rc == 0;) {
        size_t j = i;
        while (j < c->nkq && c->kq[j].name == c->kq[i].name)
            j++;
        double med;
        size_t nh = j - i >= 2 ? slow_ranks(c, i, j, hits, &med) : 0;
        size_t w;
        bool nomem;
        struct finding *f = nh ? fctx_raise(c, FINDING_SLOW_KERNEL, hits, nh, SLOW_KERNEL_MIN_SHARE,
                                            &w, &nomem)
                               : NULL;
        if (nh && nomem)
            rc = ERR_NOMEM;
        if (f)
            slow_describe(c, f, i, j, hits[w], med);
        i = j;
    }
    free(hits);
    keep_costliest(c, first, SLOW_KERNEL_MAX);
    return rc ? err_set(e, ERR_NOMEM, "findings: out of memory") : 0;
}

/* ---- collectives far below their peers' bandwidth ---- */

struct bw_ref {
    uint32_t name;
    int64_t bytes, group_size;
    size_t coll;
};

static int bw_cmp(const void *pa, const void *pb)
{
    const struct bw_ref *a = pa, *b = pb;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    if (a->bytes != b->bytes)
        return a->bytes < b->bytes ? -1 : 1;
    if (a->group_size != b->group_size)
        return a->group_size < b->group_size ? -1 : 1;
    return (a->coll > b->coll) - (a->coll < b->coll);
}

/* One group of peers v[0..n): a finding when some fall far below. */
static int bw_group(struct fctx *c, const struct coll_result *cr, const struct bw_ref *v, size_t n)
{
    double bws[512];
    size_t nb = 0;
    for (size_t i = 0; i < n && nb < 512; i++)
        bws[nb++] = cr->colls[v[i].coll].busbw;
    double med = fctx_median(bws, nb);
    double lost = 0;
    size_t outliers = 0, worst = SIZE_MAX;
    double worst_lost = 0;
    for (size_t i = 0; i < n; i++) {
        const struct collective *k = &cr->colls[v[i].coll];
        if (!(k->busbw < BANDWIDTH_RATIO * med))
            continue;
        double l = (double)k->time * (1.0 - k->busbw / med);
        lost += l;
        outliers++;
        if (l > worst_lost) {
            worst_lost = l;
            worst = i;
        }
    }
    double iters = c->iterations ? (double)c->iterations : 1.0;
    if (!outliers || lost / iters < BANDWIDTH_MIN_SHARE * c->iter_ns)
        return 0;
    struct finding *f = fctx_add(c, FINDING_BANDWIDTH_OUTLIER);
    if (!f)
        return ERR_NOMEM;
    const struct collective *w = &cr->colls[v[worst].coll];
    fctx_cost(c, f, lost / iters);
    for (size_t i = 0; i < w->ninst; i++)
        c->scratch[i < c->nranks ? i : 0] = w->inst[i].rank;
    fctx_list_text(f->ranks, sizeof f->ranks, c->scratch, w->ninst < c->nranks ? w->ninst : c->nranks);
    if (w->iteration >= 0)
        snprintf(f->iterations, sizeof f->iterations, "%d", w->iteration);
    const char *name = strtab_str(cr->strings, w->name);
    char cost[32];
    fctx_duration(cost, sizeof cost, f->cost_ns);
    str_appendf(f->title, sizeof f->title, "Slow %s transfers: %s per iteration", name, cost);
    str_appendf(f->cause, sizeof f->cause,
                "%zu of %zu %s collectives of %lld bytes over %lld ranks reach less than half the "
                "median bus bandwidth of the others (%.1f GB/s; the slowest %.2f GB/s): a slow "
                "link, contention with other traffic, or a different network path.",
                outliers, n, name, (long long)w->bytes, (long long)w->group_size, med, w->busbw);
    const struct coll_instance *last = &w->inst[w->last];
    f->start_ns = last->arrival;
    f->end_ns = last->arrival + (w->time > 0 ? w->time : 1);
    f->evidence = (struct finding_evidence){
        .kind = FINDING_EVIDENCE_TIMELINE, .rank = last->rank, .stream = last->stream,
        .start_ns = f->start_ns, .end_ns = f->end_ns, .pos = last->pos,
        .view = FINDING_VIEW_COLLECTIVES};
    snprintf(f->evidence.table, sizeof f->evidence.table, "collectives");
    snprintf(f->evidence.row, sizeof f->evidence.row, "collective=%s seq=%lld", name,
             (long long)w->seq);
    f->confidence = fctx_confidence(c, f, (double)(n - outliers) / (double)n);
    return 0;
}

int findings_bandwidth(struct fctx *c, struct err *e)
{
    int rc = fctx_colls(c, e);
    const struct coll_result *cr = c->colls;
    if (rc || !cr || cr->ncolls == 0)
        return rc;
    struct bw_ref *v = malloc(cr->ncolls * sizeof *v);
    if (!v)
        return err_set(e, ERR_NOMEM, "findings: out of memory");
    size_t n = 0;
    for (size_t i = 0; i < cr->ncolls; i++) {
        const struct collective *k = &cr->colls[i];
        if (k->bytes > 0 && k->busbw > 0 && isfinite(k->busbw) && k->time > 0)
            v[n++] = (struct bw_ref){k->name, k->bytes, k->group_size, i};
    }
    if (n)
        qsort(v, n, sizeof *v, bw_cmp);
    for (size_t i = 0; i < n && rc == 0;) {
        size_t j = i;
        while (j < n && v[j].name == v[i].name && v[j].bytes == v[i].bytes &&
               v[j].group_size == v[i].group_size)
            j++;
        if (j - i >= BANDWIDTH_MIN_PEERS)
            rc = bw_group(c, cr, v + i, j - i);
        i = j;
    }
    free(v);
    return rc ? err_set(e, ERR_NOMEM, "findings: out of memory") : 0;
}
