#include "config.h"
#include "analysis/series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/gpu_util.h"
#include "analysis/weighted.h"
#include "util/memory.h"
#include "util/sort.h"
#include "util/vec.h"

/* Queue length (spec §3.6): how many launched kernels wait on each stream. */

static const char *const queue_launch_names[] = {
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
    "cudaMemcpyAsync", "cudaMemsetAsync", "hipLaunchKernel", "hipExtModuleLaunchKernel",
    "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
    "runFunction - job_prep_and_submit_for_execution",
};

/* One change of a stream's queue, as positions in rank->events: the event
 * at whose ts it is (the launch for a +1, the GPU event itself for a -1)
 * and the GPU event, whose stream and thread are the point's. Which of the
 * two it is goes by its place (the +1 points come first): 8 bytes, two a
 * kernel. */
struct qpoint {
    uint32_t at;
    uint32_t gpu;
};

/* A GPU row keyed by correlation, seq = its place among the GPU rows. */
struct gkey {
    int64_t corr;
    uint32_t seq;
};

static inline bool gkey_less(const struct gkey *a, const struct gkey *b)
{
    return a->corr < b->corr;
}

/* Stable: equal correlations stay in row order (seq ascending). */
SORT_DEFINE_STABLE(sort_gkeys, struct gkey, gkey_less)

/* The first key of keys[0..n) (sorted) with this correlation, or n. */
static size_t gkey_find(const struct gkey *keys, size_t n, int64_t corr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid].corr < corr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && keys[lo].corr == corr ? lo : n;
}

/* The launches (HTA's R) and their GPU events (G), in row order. */
struct qrows {
    uint32_t *launch, *gpu;
    size_t nlaunch, ngpu;
};

static bool is_launch(const struct rank_model *r, const struct name_set *names,
                      const struct event *ev)
{
    return name_set_has(names, ev->name) && model_index_correlation(r, ev) > 0;
}

/* Fills q (heap arrays: free with free_rows) in two passes over the rows:
 * the launches, then the GPU events of their correlations. */
static int collect_rows(const struct model *m, const struct rank_model *r, struct qrows *q)
{
    struct name_set names;
    name_set_init(&names, m, queue_launch_names,
                  sizeof queue_launch_names / sizeof queue_launch_names[0]);
    memset(q, 0, sizeof *q);
    size_t cap = 0;
    int rc = 0;
    for (size_t i = 0; i < r->nrows && rc == 0; i++) {
        if (!is_launch(r, &names, &r->events[r->rows[i]]))
            continue;
        rc = q->nlaunch == cap ? VEC_PUSH_SLOT(q->launch, q->nlaunch, cap) : 0;
        if (rc == 0)
            q->launch[q->nlaunch++] = r->rows[i];
    }
    int64_t *corr = rc == 0 ? malloc((q->nlaunch ? q->nlaunch : 1) * sizeof *corr) : NULL;
    if (!corr)
        return ERR_NOMEM;
    for (size_t i = 0; i < q->nlaunch; i++)
        corr[i] = event_correlation(&r->events[q->launch[i]]);
    size_t ncorr = sort_unique_i64(corr, q->nlaunch);
    // A GPU event's partner is the last CPU event of its correlation: when
    // that is one of the launches, the correlation is theirs without a
    // search (without the bits, every one is searched).
    uint64_t *launch_at = calloc(r->nevents / 64 + 1, sizeof *launch_at);
    for (size_t i = 0; i < q->nlaunch && launch_at; i++)
        launch_at[q->launch[i] / 64] |= (uint64_t)1 << (q->launch[i] % 64);
    cap = 0;
    for (size_t i = 0; i < r->nrows && ncorr && rc == 0; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (!model_is_gpu_side(m, ev))
            continue;
        uint32_t p = ev->partner;
        bool launched = launch_at && p < r->nevents && (launch_at[p / 64] >> (p % 64) & 1) &&
                        event_correlation(&r->events[p]) == event_correlation(ev);
        if (!launched && !i64_set_has(corr, ncorr, event_correlation(ev)))
            continue;
        rc = q->ngpu == cap ? VEC_PUSH_SLOT(q->gpu, q->ngpu, cap) : 0;
        if (rc == 0)
            q->gpu[q->ngpu++] = r->rows[i];
    }
    free(launch_at);
    free(corr);
    return rc;
}

static void free_rows(struct qrows *q)
{
    free(q->launch);
    free(q->gpu);
}

/* HTA's concatenation: for each launch in row order its GPU events (+1 at the
 * launch's ts), then every GPU event (-1 at its own ts). HTA asserts that
 * each correlation has one launch; here the first launch of a correlation
 * enqueues all its GPU events and later ones are counted in *unpaired.
 * The first *nplus points are the +1 ones. */
static int concat_points(const struct rank_model *r, const struct qrows *q, struct qpoint **out,
                         size_t *nout, size_t *nplus, uint64_t *unpaired)
{
    struct gkey *keys = util_alloc_resident(q->ngpu, sizeof *keys);
    bool *claimed = calloc(q->ngpu ? q->ngpu : 1, sizeof *claimed);
    struct qpoint *pts = util_alloc_resident(q->ngpu, 2 * sizeof *pts);
    int rc = keys && claimed && pts && q->ngpu <= UINT32_MAX ? 0 : ERR_NOMEM;
    for (size_t i = 0; i < q->ngpu && rc == 0; i++)
        keys[i] = (struct gkey){event_correlation(&r->events[q->gpu[i]]), (uint32_t)i};
    if (rc == 0)
        rc = sort_gkeys(keys, q->ngpu);
    if (rc) {
        free(keys);
        free(claimed);
        free(pts);
        return ERR_NOMEM;
    }
    size_t n = 0;
    for (size_t i = 0; i < q->nlaunch; i++) {
        int64_t corr = event_correlation(&r->events[q->launch[i]]);
        size_t k = gkey_find(keys, q->ngpu, corr);
        if (k == q->ngpu)   /* its GPU events are not in the rows */
            continue;
        if (claimed[k]) {
            (*unpaired)++;
            continue;
        }
        for (; k < q->ngpu && keys[k].corr == corr; k++) {
            claimed[k] = true;
            pts[n++] = (struct qpoint){q->launch[i], q->gpu[keys[k].seq]};
        }
    }
    *nplus = n;
    for (size_t i = 0; i < q->ngpu; i++)
        pts[n++] = (struct qpoint){q->gpu[i], q->gpu[i]};
    free(keys);
    free(claimed);
    *out = pts;
    *nout = n;
    return 0;
}

static int32_t point_stream(const struct rank_model *r, const struct qpoint *p)
{
    return r->events[p->gpu].stream;
}

/* A rank has a few streams: the points' distinct ones, ascending, found
 * without sorting every point's (st holds up to FEW_STREAMS); false when
 * there are more. */
#define FEW_STREAMS 64
static bool few_streams(const struct rank_model *r, const struct qpoint *pts, size_t n,
                        int64_t st[FEW_STREAMS], size_t *ns)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t s = point_stream(r, &pts[i]);
        if (k && st[k - 1] == s)   // neighbours are mostly on one stream
            continue;
        size_t j = 0;
        while (j < k && st[j] != s)
            j++;
        if (j < k) {   // keep the last one met last, for the next points
            st[j] = st[k - 1];
            st[k - 1] = s;
            continue;
        }
        if (k == FEW_STREAMS)
            return false;
        st[k++] = s;
    }
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && st[j - 1] > st[j]; j--) {
            int64_t t = st[j];
            st[j] = st[j - 1];
            st[j - 1] = t;
        }
    *ns = k;
    return true;
}

/* The points' order by ts into *order (caller frees; 4 bytes a point):
 * HTA's sort under semantics.unstable_sort, else stable (ties in point
 * order), by packed keys (sort_packed) or, when they do not fit, by
 * records of a time and a place (16 bytes a point). */
struct ts_place {
    int64_t ts;
    uint32_t place;
};

static inline bool ts_place_less(const struct ts_place *a, const struct ts_place *b)
{
    return a->ts < b->ts;
}

SORT_DEFINE_STABLE(sort_ts_places, struct ts_place, ts_place_less)

static inline bool u64_less(const uint64_t *a, const uint64_t *b)
{
    return *a < *b;
}

SORT_DEFINE_STABLE(sort_keys, uint64_t, u64_less)

/* The stable order by ts as a sort of 8-byte keys, ts - min above the
 * place (ties by place, as the stable sort leaves them), when the span and
 * the count fit in 64 bits together: the keys become the order in place (4
 * bytes a point, the rest given back). *order stays NULL when they do not
 * fit. */
static int sort_packed(const struct rank_model *r, const struct qpoint *pts, size_t n,
                       uint32_t **order)
{
    *order = NULL;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        int64_t ts = r->events[pts[i].at].ts;
        lo = ts < lo ? ts : lo;
        hi = ts > hi ? ts : hi;
    }
    unsigned bits = 1;
    while (bits < 32 && (n - 1) >> bits)
        bits++;
    if (n == 0 || ((uint64_t)hi - (uint64_t)lo) >> (64 - bits))
        return 0;
    uint64_t *key = util_alloc_resident(n, sizeof *key);
    if (!key)
        return ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        key[i] = ((uint64_t)r->events[pts[i].at].ts - (uint64_t)lo) << bits | i;
    if (sort_keys(key, n)) {
        free(key);
        return ERR_NOMEM;
    }
    // Place i is written at byte 4i, below every key still to read (8i on).
    unsigned char *bytes = (unsigned char *)key;
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    for (size_t i = 0; i < n; i++) {
        uint64_t k;
        memcpy(&k, bytes + i * sizeof k, sizeof k);
        uint32_t place = (uint32_t)(k & mask);
        memcpy(bytes + i * sizeof place, &place, sizeof place);
    }
    void *shrunk = realloc(key, n * sizeof **order);
    *order = shrunk ? shrunk : (void *)key;
    return 0;
}

static int sort_by_ts(const struct model *m, const struct rank_model *r,
                      const struct qpoint *pts, size_t n, uint32_t **order)
{
    if (n > UINT32_MAX)
        return ERR_NOMEM;
    if (!m->sem.unstable_sort) {
        int rc = sort_packed(r, pts, n, order);
        if (rc || *order)
            return rc;
    }
    *order = util_alloc_resident(n, sizeof **order);
    if (!*order || n > UINT32_MAX)
        return ERR_NOMEM;
    int rc = 0;
    if (m->sem.unstable_sort) {
        size_t *perm = util_alloc_resident(n, sizeof *perm);
        int64_t *ts = util_alloc_resident(n, sizeof *ts);
        rc = perm && ts ? 0 : ERR_NOMEM;
        for (size_t i = 0; i < n && rc == 0; i++)
            ts[i] = r->events[pts[i].at].ts;
        if (rc == 0)
            rc = sem_argsort(m, perm, n, ts, less_i64);
        for (size_t i = 0; i < n && rc == 0; i++)
            (*order)[i] = (uint32_t)perm[i];
        free(perm);
        free(ts);
    } else {
        struct ts_place *v = util_alloc_resident(n, sizeof *v);
        rc = v ? 0 : ERR_NOMEM;
        for (size_t i = 0; i < n && rc == 0; i++)
            v[i] = (struct ts_place){r->events[pts[i].at].ts, (uint32_t)i};
        if (rc == 0)
            rc = sort_ts_places(v, n);
        for (size_t i = 0; i < n && rc == 0; i++)
            (*order)[i] = v[i].place;
        free(v);
    }
    return rc;
}

/* Sorted by ts, then grouped by stream ascending keeping that order: a
 * counting sort over the distinct streams. The three arrays are the
 * caller's to free. */
static int order_points(const struct model *m, const struct rank_model *r,
                        const struct qpoint *pts, size_t n, uint32_t **order, int64_t **streams,
                        size_t *nstreams, size_t **bounds)
{
    uint32_t *by_ts = NULL;
    *order = NULL;
    *streams = NULL;
    *bounds = NULL;
    int rc = sort_by_ts(m, r, pts, n, &by_ts);
    int64_t few[FEW_STREAMS];
    size_t ns = 0;
    bool counted = rc == 0 && few_streams(r, pts, n, few, &ns);
    int64_t *s = rc == 0 && !counted ? util_alloc_resident(n, sizeof *s) : NULL;
    if (rc == 0 && !counted && !s)
        rc = ERR_NOMEM;
    for (size_t i = 0; i < n && rc == 0 && !counted; i++)
        s[i] = point_stream(r, &pts[i]);
    if (rc == 0 && !counted)
        ns = sort_unique_i64(s, n);
    int64_t *st = rc == 0 ? malloc((ns ? ns : 1) * sizeof *st) : NULL;
    size_t *start = rc == 0 ? calloc(ns + 1, sizeof *start) : NULL;
    size_t *fill = rc == 0 ? util_alloc_resident(ns, sizeof *fill) : NULL;
    if (st)
        memcpy(st, counted ? few : s, ns * sizeof *st);
    free(s);
    uint32_t *out = st && start && fill ? util_alloc_resident(n, sizeof *out) : NULL;
    if (!out) {
        free(by_ts);
        free(st);
        free(start);
        free(fill);
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        start[i64_set_find(st, ns, point_stream(r, &pts[i])) + 1]++;
    for (size_t k = 0; k < ns; k++)
        start[k + 1] += start[k];
    for (size_t k = 0; k < ns; k++)
        fill[k] = start[k];
    for (size_t i = 0; i < n; i++) {
        size_t k = i64_set_find(st, ns, point_stream(r, &pts[by_ts[i]]));
        out[fill[k]++] = by_ts[i];
    }
    free(by_ts);
    free(fill);
    *order = out;
    *streams = st;
    *bounds = start;
    *nstreams = ns;
    return 0;
}

/* The points in order as the events at whose ts they are (at[i]) and
 * whether each is a +1 (bit i of plus), and each stream's thread: 4 bytes
 * a point, so the points themselves can be given back before the series
 * are filled. */
struct qorder {
    uint32_t *at;
    uint64_t *plus;
    uint32_t *thread;
};

static int make_qorder(const struct rank_model *r, const struct qpoint *pts, size_t nplus,
                       uint32_t *order, size_t n, const size_t *bounds, size_t ns,
                       struct qorder *q)
{
    q->at = order;
    q->plus = calloc(n / 64 + 1, sizeof *q->plus);
    q->thread = malloc((ns ? ns : 1) * sizeof *q->thread);
    if (!q->plus || !q->thread)
        return ERR_NOMEM;
    for (size_t k = 0; k < ns; k++)
        q->thread[k] = bounds[k + 1] > bounds[k] ? r->events[pts[order[bounds[k]]].gpu].thread : 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t p = order[i];
        if (p < nplus)
            q->plus[i / 64] |= (uint64_t)1 << (i % 64);
        q->at[i] = pts[p].at;
    }
    return 0;
}

/* Stream k's series from the points' order (q, bounds); the traceEvents
 * indices only with_index. */
static int fill_series(const struct model *m, const struct rank_model *r,
                       struct queue_series *qs, const struct qorder *q, const size_t *bounds,
                       size_t k, bool with_index, struct arena *a)
{
    size_t first = bounds[k], n = bounds[k + 1] - first;
    qs->n = n;
    qs->ts = gpu_alloc(a, n, sizeof *qs->ts);
    qs->queue_length = gpu_alloc(a, n, sizeof *qs->queue_length);
    qs->index = with_index ? gpu_alloc(a, n, sizeof *qs->index) : NULL;
    if (!qs->ts || !qs->queue_length || (with_index && !qs->index))
        return ERR_NOMEM;
    int64_t len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = first + i;
        const struct event *at = &r->events[q->at[j]];
        len += q->plus[j / 64] >> (j % 64) & 1 ? 1 : -1;
        qs->ts[i] = at->ts;
        qs->queue_length[i] = len;
        if (with_index)
            qs->index[i] = at->index;
    }
    qs->pid = n ? m->pidtids[q->thread[k]].pid : 0;
    qs->tid = n ? m->pidtids[q->thread[k]].tid : 0;
    return 0;
}

/* queue_series_build, the traceEvents indices only with_index. The
 * scratch is on the heap and freed before return (the points and their
 * orders, 24 bytes a GPU event, and the sort's keys while it runs; 8 bytes
 * a GPU event while the series are filled): only the series stay in a. */
static int build_series(const struct model *m, const struct rank_model *r, struct arena *a,
                        bool with_index, struct queue_series **out, size_t *nout,
                        uint64_t *unpaired)
{
    *out = NULL;
    *nout = 0;
    *unpaired = 0;
    struct qrows q;
    struct qpoint *pts = NULL;
    uint32_t *order = NULL;
    size_t n = 0, nplus = 0, ns = 0, *bounds = NULL;
    int64_t *streams = NULL;
    int rc = collect_rows(m, r, &q);
    if (rc == 0)
        rc = concat_points(r, &q, &pts, &n, &nplus, unpaired);
    free_rows(&q);
    if (rc == 0)
        rc = order_points(m, r, pts, n, &order, &streams, &ns, &bounds);
    struct qorder qo = {NULL, NULL, NULL};
    if (rc == 0)
        rc = make_qorder(r, pts, nplus, order, n, bounds, ns, &qo);
    else
        free(order);
    free(pts);
    struct queue_series *qs = rc == 0 && n ? gpu_alloc(a, ns, sizeof *qs) : NULL;
    if (rc == 0 && n && !qs)
        rc = ERR_NOMEM;
    for (size_t k = 0; k < ns && rc == 0 && n; k++) {
        qs[k].stream = streams[k];
        rc = fill_series(m, r, &qs[k], &qo, bounds, k, with_index, a);
    }
    free(qo.at);
    free(qo.plus);
    free(qo.thread);
    free(streams);
    free(bounds);
    if (rc)
        return ERR_NOMEM;
    *out = qs;
    *nout = qs ? ns : 0;
    return 0;
}

int queue_series_build(const struct model *m, const struct rank_model *r, struct arena *a,
                       struct queue_series **out, size_t *nout, uint64_t *unpaired,
                       struct err *e)
{
    uint64_t dummy = 0;
    if (build_series(m, r, a, true, out, nout, unpaired ? unpaired : &dummy))
        return err_set(e, ERR_NOMEM, "queue length: out of memory");
    return 0;
}

/* ---- queue_run: the two tables ---- */

struct queue_tables {
    struct table *summary, *blocked;
};

static int make_tables(struct arena *a, struct queue_tables *t)
{
    struct table_col cols[2 + DESCRIBE_NCOLS] = {
        {"rank", NULL, COL_KEY}, {"stream", NULL, COL_KEY},
    };
    describe_cols(cols + 2, NULL);
    t->summary = table_new(a, "queue_length_summary", "Queue length per stream", cols,
                           2 + DESCRIBE_NCOLS);
    static const struct table_col bcols[] = {
        {"rank", NULL, COL_KEY},
        {"stream", NULL, COL_KEY},
        {"duration_at_max_queue_length", "us", 0},
        {"relative_duration_at_max_queue_length", NULL, COL_RATIO},
    };
    t->blocked = table_new(a, "queue_length_blocked", "Time blocked on a full launch queue",
                           bcols, sizeof bcols / sizeof bcols[0]);
    return t->summary && t->blocked ? 0 : ERR_NOMEM;
}

/* HTA: each change point once. htx: each value weighted by the time it held
 * (the gap to the next change point of the stream; see weighted.h). */
static int summarise(const struct model *m, const struct queue_series *qs, struct arena *a,
                     struct describe *d)
{
    if (!m->sem.sample_weighted_summaries)
        return describe_levels_time_weighted(qs->queue_length, qs->ts, qs->n, a, d);
    double *v = gpu_alloc(a, qs->n, sizeof *v);
    if (!v)
        return ERR_NOMEM;
    for (size_t i = 0; i < qs->n; i++)
        v[i] = (double)qs->queue_length[i];
    describe_values(v, qs->n, d);
    return 0;
}

/* HTA's trace duration for the blocked ratio: max(ts) - min(ts) over rows. */
static int64_t rows_ts_span(const struct rank_model *r)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < r->nrows; i++) {
        int64_t ts = r->events[r->rows[i]].ts;
        lo = ts < lo ? ts : lo;
        hi = ts > hi ? ts : hi;
    }
    return r->nrows ? hi - lo : 0;
}

static int add_blocked_row(struct table *t, int64_t rank, const struct queue_series *qs,
                           int64_t max_len, int64_t span)
{
    int64_t blocked = 0;
    for (size_t i = 0; i + 1 < qs->n; i++)
        if (qs->queue_length[i] >= max_len)
            blocked += qs->ts[i + 1] - qs->ts[i];
    struct cell *row = table_add_row(t);
    if (!row)
        return ERR_NOMEM;
    row[0] = cell_int(rank);
    row[1] = cell_int(qs->stream);
    row[2] = cell_double((double)blocked / 1000.0);
    row[3] = cell_double(span > 0 ? (double)blocked / (double)span : blocked ? NAN : 0.0);
    return 0;
}

static int queue_rank(const struct model *m, const struct analysis_opts *o,
                      const struct rank_model *r, struct queue_tables *t, uint64_t *unpaired,
                      struct err *e)
{
    // The series are only read here: they live in an arena of their own,
    // given back before the next rank (32 bytes a GPU event, without the
    // traceEvents indices); a stream's summary scratch is given back
    // before the next stream.
    struct arena series, work;
    arena_init(&series, 1 << 16);
    arena_init(&work, 1 << 16);
    struct queue_series *qs;
    size_t ns;
    uint64_t up = 0;
    int rc = build_series(m, r, &series, false, &qs, &ns, &up)
        ? err_set(e, ERR_NOMEM, "queue length: out of memory") : 0;
    if (rc == 0)
        *unpaired += up;
    int64_t span = rows_ts_span(r);
    for (size_t k = 0; k < ns && rc == 0; k++) {
        struct describe d;
        struct cell *row = NULL;
        arena_reset(&work);
        if (summarise(m, &qs[k], &work, &d) || !(row = table_add_row(t->summary))) {
            rc = err_set(e, ERR_NOMEM, "queue length: out of memory");
            break;
        }
        row[0] = cell_int(r->rank);
        row[1] = cell_int(qs[k].stream);
        describe_put_cells(row, 2, &d);
        /* HTA keys the blocked result by rank: the last stream overwrites. */
        bool keep = !m->sem.blocked_queue_one_row_per_rank || k + 1 == ns;
        if (keep && add_blocked_row(t->blocked, r->rank, &qs[k], o->max_queue_length, span))
            rc = err_set(e, ERR_NOMEM, "queue length: out of memory");
    }
    arena_fini(&work);
    arena_fini(&series);
    return rc;
}

static void set_notes(const struct model *m, const struct queue_tables *t, uint64_t unpaired,
                      int64_t max_len)
{
    if (t->summary->nrows == 0) {
        table_set_note(t->summary, "no kernel launch linked to a GPU event in the selection");
        table_set_note(t->blocked, "no kernel launch linked to a GPU event in the selection");
        return;
    }
    const char *how = m->sem.sample_weighted_summaries
        ? "one sample per change point (HTA)"
        : "time-weighted: each queue length counts for the time it held";
    if (unpaired)
        table_set_note(t->summary, "%s; %llu launches share a correlation with an earlier "
                       "launch and were ignored (HTA fails on these)", how,
                       (unsigned long long)unpaired);
    else
        table_set_note(t->summary, "%s", how);
    table_set_note(t->blocked, "time with at least %lld kernels queued%s", (long long)max_len,
                   m->sem.blocked_queue_one_row_per_rank
                       ? "; HTA keeps only the highest stream of each rank" : "");
}

int queue_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
              struct table_list *out, struct err *e)
{
    struct queue_tables t;
    if (make_tables(scratch, &t))
        return err_set(e, ERR_NOMEM, "queue length: out of memory");
    uint64_t unpaired = 0;
    for (size_t i = 0; i < m->nranks; i++) {
        if (!m->ranks[i].selected)
            continue;
        int rc = queue_rank(m, o, &m->ranks[i], &t, &unpaired, e);
        if (rc)
            return rc;
    }
    set_notes(m, &t, unpaired, o->max_queue_length);
    if (table_list_add(out, t.summary) || table_list_add(out, t.blocked))
        return err_set(e, ERR_INTERNAL, "queue length: too many tables");
    return 0;
}
