#include "config.h"
#include "analysis/stragglers_hta.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/argsort.h"
#include "util/sort.h"
#include "util/vec.h"

/* qsort, which must not be given a NULL array even for zero elements. */
static void sort_n(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(v, n, size, cmp);
}

/* HTA's get_potential_stragglers with its default method
 * (find_stragglers_with_late_start_comm_kernels), step by step:
 *  1. profiler steps: the N of every "ProfilerStep#N" row (regex
 *     ProfilerStep\s*#\s*(\d+) at the start) of every rank's filtered table;
 *  2. the rows whose iteration is one of them; n = how many iterations they
 *     hold, t_min = min ts, mean_iter_time = (max(ts + dur) - t_min) / n;
 *  3. long communication kernels: stream > 0, iteration > 0,
 *     dur >= 1 % of mean_iter_time, name starting with "ncclKernel" (HTA's
 *     own test, not the kernel classification);
 *  4. per (rank, stream, iteration, name) the last such row in table order;
 *  5. per (stream, iteration, name) the standard deviation (ddof 1) across
 *     ranks of dur / mean_iter_time, averaged over iterations per
 *     (stream, name); the (stream, name) with the largest average is the
 *     metric kernel (HTA: idxmax, which raises on an empty or all-NaN
 *     series);
 *  6. metric = (ts - t_min) / mean_iter_time of that kernel, per rank and
 *     iteration; in each iteration the ranks whose metric is at least the
 *     k-th largest count once (HTA raises when an iteration has fewer than
 *     k ranks; htx takes the smallest then);
 *  7. counts per rank, sorted descending with pandas' sort (reverse, numpy
 *     quicksort, reverse), the first k. */

struct long_kernel {
    int64_t rank, stream;
    int32_t iteration;
    uint32_t name;
    uint64_t order;         /* row order across the job: rank index, then row */
    int64_t ts, dur;
};

static int cmp_long(const void *pa, const void *pb)
{
    const struct long_kernel *a = pa, *b = pb;
#define CMP(x, y) do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)
    CMP(a->rank, b->rank);
    CMP(a->stream, b->stream);
    CMP(a->iteration, b->iteration);
    CMP(a->name, b->name);
    CMP(a->order, b->order);
    return 0;
}

/* The N of "ProfilerStep\s*#\s*(\d+)" at the start of s, or -1. */
static int64_t profiler_step_number(const char *s)
{
    if (strncmp(s, "ProfilerStep", 12) != 0)
        return -1;
    s += 12;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')
        s++;
    if (*s++ != '#')
        return -1;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v')
        s++;
    if (*s < '0' || *s > '9')
        return -1;
    int64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (INT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

struct stream_name {
    int64_t stream;
    uint32_t name;
    double sum;
    size_t n;     /* non-NaN standard deviations */
    bool any;     /* some (stream, iteration, name) group at all */
};

static void result_fail(struct hta_stragglers *out, const char *why)
{
    out->status = HTA_STRAGGLERS_HTA_RAISES;
    out->why = why;
}

/* Standard deviation (ddof 1) of x[0..n), NaN for n < 2 (pandas). */
static double std_ddof1(const double *x, size_t n)
{
    if (n < 2)
        return NAN;
    double mean = 0;
    for (size_t i = 0; i < n; i++)
        mean += x[i];
    mean /= (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - mean) * (x[i] - mean);
    return sqrt(ss / (double)(n - 1));
}

static bool is_nccl_kernel(const struct model *m, signed char *cache, uint32_t name)
{
    if (cache[name] < 0)
        cache[name] = strncmp(model_str(m, name), "ncclKernel", 10) == 0;
    return cache[name] == 1;
}

/* Steps 1-4: fills *lk (last long kernels, sorted by rank, stream,
 * iteration, name). */
static int long_kernels(const struct model *m, struct hta_stragglers *out,
                        struct long_kernel **lk, size_t *nlk)
{
    int64_t *steps = NULL, *iters = NULL;
    size_t nsteps = 0, steps_cap = 0, niters = 0, iters_cap = 0;
    struct long_kernel *v = NULL;
    size_t nv = 0, vcap = 0;
    size_t nstr = strtab_count(&m->strings);
    signed char *nccl = malloc(nstr ? nstr : 1);
    int rc = nccl ? 0 : ERR_NOMEM;
    if (nccl)
        memset(nccl, -1, nstr);
    /* 1. profiler steps */
    for (size_t i = 0; i < m->nranks && rc == 0; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        for (size_t k = 0; k < r->nrows && rc == 0; k++) {
            const struct event *ev = &r->events[r->rows[k]];
            int64_t n = profiler_step_number(model_str(m, ev->name));
            if (n >= 0 && !(rc = VEC_PUSH_SLOT(steps, nsteps, steps_cap)))
                steps[nsteps++] = n;
        }
    }
    if (rc == 0)
        nsteps = sort_unique_i64(steps, nsteps);
    /* 2. rows of those iterations */
    int64_t t_min = INT64_MAX, max_end = INT64_MIN;
    for (size_t i = 0; i < m->nranks && rc == 0; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        for (size_t k = 0; k < r->nrows && rc == 0; k++) {
            const struct event *ev = &r->events[r->rows[k]];
            if (ev->iteration == MODEL_ITER_NAN || !i64_set_has(steps, nsteps, ev->iteration))
                continue;
            if (ev->ts < t_min)
                t_min = ev->ts;
            if (ev->ts + ev->dur > max_end)
                max_end = ev->ts + ev->dur;
            if (!(rc = VEC_PUSH_SLOT(iters, niters, iters_cap)))
                iters[niters++] = ev->iteration;
            if (niters > 4096)
                niters = sort_unique_i64(iters, niters);
        }
    }
    if (rc == 0)
        niters = sort_unique_i64(iters, niters);
    out->profiler_steps = nsteps;
    out->iterations = niters;
    if (rc == 0 && niters) {
        out->t_min = t_min;
        out->mean_iter_time = (double)(max_end - t_min) / (double)niters;
        double min_duration = out->mean_iter_time * 0.01;
        /* 3. long communication kernels */
        for (size_t i = 0; i < m->nranks && rc == 0; i++) {
            const struct rank_model *r = &m->ranks[i];
            if (!r->selected)
                continue;
            for (size_t k = 0; k < r->nrows && rc == 0; k++) {
                const struct event *ev = &r->events[r->rows[k]];
                if (ev->stream <= 0 || ev->iteration <= 0 || ev->iteration == MODEL_ITER_NAN ||
                    !i64_set_has(steps, nsteps, ev->iteration) ||
                    (double)ev->dur < min_duration || !is_nccl_kernel(m, nccl, ev->name))
                    continue;
                if (!(rc = VEC_PUSH_SLOT(v, nv, vcap)))
                    v[nv++] = (struct long_kernel){r->rank, ev->stream, ev->iteration, ev->name,
                                                   ((uint64_t)i << 32) | k, ev->ts, ev->dur};
            }
        }
    }
    /* 4. the last per (rank, stream, iteration, name) */
    if (rc == 0) {
        sort_n(v, nv, sizeof *v, cmp_long);
        size_t w = 0;
        for (size_t i = 0; i < nv; i++) {
            bool same = w && v[w - 1].rank == v[i].rank && v[w - 1].stream == v[i].stream &&
                        v[w - 1].iteration == v[i].iteration && v[w - 1].name == v[i].name;
            v[same ? w - 1 : w++] = v[i];
        }
        nv = w;
    }
    free(nccl);
    free(steps);
    free(iters);
    if (rc) {
        free(v);
        return rc;
    }
    *lk = v;
    *nlk = nv;
    return 0;
}

static int cmp_sin(const void *pa, const void *pb)
{
    const struct long_kernel *a = *(const struct long_kernel *const *)pa;
    const struct long_kernel *b = *(const struct long_kernel *const *)pb;
    CMP(a->stream, b->stream);
    CMP(a->name, b->name);
    CMP(a->iteration, b->iteration);
    CMP(a->rank, b->rank);
    return 0;
}

/* Step 5: the metric kernel's (stream, name); false when HTA raises. */
static int pick_metric_kernel(const struct model *m, struct long_kernel *lk, size_t n,
                              struct hta_stragglers *out, bool *ok)
{
    *ok = false;
    if (n == 0) {
        result_fail(out, "no ncclKernel of at least 1 % of the mean iteration time on a "
                         "stream > 0 in an iteration > 0 (HTA: ValueError, argmax of an "
                         "empty sequence)");
        return 0;
    }
    const struct long_kernel **p = malloc(n * sizeof *p);
    double *x = malloc(n * sizeof *x);
    if (!p || !x) {
        free(p);
        free(x);
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        p[i] = &lk[i];
    sort_n(p, n, sizeof *p, cmp_sin);
    struct stream_name best = {0}, cur = {0};
    bool have_best = false;
    for (size_t i = 0; i < n;) {
        /* a (stream, name) run, made of (stream, name, iteration) groups */
        cur = (struct stream_name){p[i]->stream, p[i]->name, 0, 0, true};
        size_t j = i;
        while (j < n && p[j]->stream == cur.stream && p[j]->name == cur.name) {
            size_t g = j, nx = 0;
            while (g < n && p[g]->stream == cur.stream && p[g]->name == cur.name &&
                   p[g]->iteration == p[j]->iteration)
                x[nx++] = (double)p[g++]->dur / out->mean_iter_time;
            double s = std_ddof1(x, nx);
            if (!isnan(s)) {
                cur.sum += s;
                cur.n++;
            }
            j = g;
        }
        if (cur.n) {
            double mean = cur.sum / (double)cur.n;
            /* idxmax keeps the first of equal maxima in (stream, name) order;
             * htx orders names by text where HTA uses its symbol ids */
            bool better = !have_best || mean > best.sum / (double)best.n ||
                          (mean == best.sum / (double)best.n && cur.stream == best.stream &&
                           strcmp(model_str(m, cur.name), model_str(m, best.name)) < 0);
            if (better) {
                best = cur;
                have_best = true;
            }
        }
        i = j;
    }
    free(p);
    free(x);
    if (!have_best) {
        result_fail(out, "every long ncclKernel runs on one rank only, so its spread across "
                         "ranks is undefined (HTA: TypeError, cannot unpack a float); one "
                         "rank cannot straggle");
        return 0;
    }
    out->stream = best.stream;
    out->name = best.name;
    *ok = true;
    return 0;
}

static int cmp_iter_rank(const void *pa, const void *pb)
{
    const struct long_kernel *a = pa, *b = pb;
    CMP(a->iteration, b->iteration);
    CMP(a->rank, b->rank);
    return 0;
}

/* Steps 6-7. */
static int rank_candidates(struct long_kernel *lk, size_t n, int k, struct arena *a,
                           struct hta_stragglers *out)
{
    /* rows of the metric kernel, by iteration then rank */
    struct long_kernel *c = malloc((n ? n : 1) * sizeof *c);
    int64_t *ranks = malloc((n ? n : 1) * sizeof *ranks);
    double *metric = malloc((n ? n : 1) * sizeof *metric);
    size_t nc = 0;
    int rc = c && ranks && metric ? 0 : ERR_NOMEM;
    for (size_t i = 0; i < n && rc == 0; i++)
        if (lk[i].stream == out->stream && lk[i].name == out->name)
            c[nc++] = lk[i];
    sort_n(c, nc, sizeof *c, cmp_iter_rank);
    size_t nranks = 0;
    for (size_t i = 0; i < nc && rc == 0; i++)
        ranks[nranks++] = c[i].rank;
    if (rc == 0)
        nranks = sort_unique_i64(ranks, nranks);
    int64_t *counts = rc == 0 ? arena_calloc(a, nranks ? nranks : 1, sizeof *counts) : NULL;
    if (!counts)
        rc = ERR_NOMEM;
    /* per iteration: metric >= the k-th largest counts once */
    for (size_t i = 0; i < nc && rc == 0;) {
        size_t j = i, nm = 0;
        while (j < nc && c[j].iteration == c[i].iteration)
            metric[nm++] = (double)(c[j++].ts - out->t_min) / out->mean_iter_time;
        double *sorted = malloc(nm * sizeof *sorted);
        if (!sorted) {
            rc = ERR_NOMEM;
            break;
        }
        memcpy(sorted, metric, nm * sizeof *sorted);
        size_t *perm = malloc(nm * sizeof *perm);
        if (!perm) {
            free(sorted);
            rc = ERR_NOMEM;
            break;
        }
        argsort_identity(perm, nm);
        hta_argsort_desc(perm, nm, sorted, less_double);
        size_t at = (size_t)k <= nm ? (size_t)k - 1 : nm - 1;
        if ((size_t)k > nm)
            out->short_iterations++;
        double threshold = sorted[perm[at]];
        for (size_t q = 0; q < nm; q++)
            if (metric[q] >= threshold)
                counts[i64_set_find(ranks, nranks, c[i + q].rank)]++;
        free(perm);
        free(sorted);
        i = j;
    }
    if (rc == 0) {
        out->ranks = arena_alloc(a, (nranks ? nranks : 1) * sizeof *out->ranks);
        size_t *perm = malloc((nranks ? nranks : 1) * sizeof *perm);
        if (!out->ranks || !perm) {
            free(perm);
            rc = ERR_NOMEM;
        } else {
            argsort_identity(perm, nranks);
            hta_argsort_desc(perm, nranks, counts, less_i64);
            size_t take = nranks < (size_t)k ? nranks : (size_t)k;
            for (size_t i = 0; i < take; i++)
                out->ranks[i] = (struct hta_straggler){ranks[perm[i]], counts[perm[i]]};
            out->nranks = take;
            free(perm);
        }
    }
    free(c);
    free(ranks);
    free(metric);
    return rc;
}

int hta_stragglers_run(const struct model *m, int num_candidates, struct arena *a,
                       struct hta_stragglers *out, struct err *e)
{
    memset(out, 0, sizeof *out);
    out->status = HTA_STRAGGLERS_OK;
    int k = num_candidates < 1 ? 1 : num_candidates;
    struct long_kernel *lk = NULL;
    size_t nlk = 0;
    int rc = long_kernels(m, out, &lk, &nlk);
    if (rc == 0 && out->profiler_steps == 0) {
        result_fail(out, "no ProfilerStep#N in the selection (HTA: ValueError, invalid "
                         "profiler_steps)");
    } else if (rc == 0) {
        bool ok;
        rc = pick_metric_kernel(m, lk, nlk, out, &ok);
        if (rc == 0 && ok)
            rc = rank_candidates(lk, nlk, k, a, out);
    }
    free(lk);
    if (rc)
        return err_set(e, ERR_NOMEM, "stragglers: out of memory");
    return 0;
}
