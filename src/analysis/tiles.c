#include "config.h"
#include "analysis/tiles.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "util/memory.h"
#include "util/vec.h"

unsigned tiles_width_log2(int64_t span_ns, uint64_t events)
{
    uint64_t target = TILES_MIN_BUCKETS;
    while (target < TILES_MAX_BUCKETS && target * TILES_EVENTS_PER_BUCKET <= events)
        target *= 2;
    uint64_t span = span_ns > 0 ? (uint64_t)span_ns : 1;
    uint64_t width = span / target + (span % target != 0);
    unsigned wlog = 0;
    while (wlog < TILES_MAX_WIDTH_LOG2 && ((uint64_t)1 << wlog) < width)
        wlog++;
    return wlog;
}

int64_t tiles_bucket_of(int64_t t, unsigned wlog)
{
    return t >= 0 ? t >> wlog : -((-(t + 1)) >> wlog) - 1;
}

/* A run being built: buckets ascending, busy (not yet cumulative). */
struct run_builder {
    int64_t *index, *busy;
    size_t n, cap_index, cap_busy;
};

static int builder_add(struct run_builder *b, int64_t bucket, int64_t ns)
{
    if (b->n && b->index[b->n - 1] == bucket) {
        b->busy[b->n - 1] += ns;
        return 0;
    }
    if (VEC_PUSH_SLOT(b->index, b->n, b->cap_index) || VEC_PUSH_SLOT(b->busy, b->n, b->cap_busy))
        return ERR_NOMEM;
    b->index[b->n] = bucket;
    b->busy[b->n++] = ns;
    return 0;
}

/* Merged intervals (sorted, disjoint; inverted ones hold no time), in the
 * model's time, spread over the buckets of absolute time (origin: the
 * model's, which depends on the other ranks loaded with it: the file's own
 * times, which are the model's plus origin, do not). */
static int builder_add_merged(struct run_builder *b, const struct interval *iv, size_t k,
                              int64_t origin, unsigned wlog)
{
    const int64_t w = (int64_t)1 << wlog;
    for (size_t i = 0; i < k; i++) {
        int64_t s = iv[i].start + origin, e = iv[i].end + origin;
        if (e <= s)
            continue;
        int64_t first = tiles_bucket_of(s, wlog), last = tiles_bucket_of(e - 1, wlog);
        for (int64_t j = first; j <= last; j++) {
            /* bucket j is [j*w, j*w + w): j*w lies between s - w and e, no overflow */
            int64_t lo = j == first ? s : j * w, hi = j == last ? e : j * w + w;
            if (builder_add(b, j, hi - lo))
                return ERR_NOMEM;
        }
    }
    return 0;
}

/* The builder's run moved into a (cumulative), and the builder emptied. */
static int builder_take(struct run_builder *b, struct arena *a, struct tile_run *run)
{
    memset(run, 0, sizeof *run);
    int rc = 0;
    if (b->n) {
        run->index = arena_calloc(a, b->n, sizeof *run->index);
        run->cum = arena_calloc(a, b->n, sizeof *run->cum);
        if (!run->index || !run->cum) {
            rc = ERR_NOMEM;
        } else {
            int64_t sum = 0;
            for (size_t i = 0; i < b->n; i++) {
                run->index[i] = b->index[i];
                run->cum[i] = sum += b->busy[i];
            }
            run->n = b->n;
        }
    }
    b->n = 0;
    return rc;
}

static void builder_fini(struct run_builder *b)
{
    free(b->index);
    free(b->busy);
    memset(b, 0, sizeof *b);
}

/* Intervals collected for one lane, merged, into run. */
static int lane_run(struct interval *iv, size_t n, int64_t origin, unsigned wlog,
                    struct run_builder *b, struct arena *a, struct tile_run *run)
{
    size_t k = intervals_merge(iv, n);
    int rc = builder_add_merged(b, iv, k, origin, wlog);
    return rc ? rc : builder_take(b, a, run);
}

/* The union of two merged interval lists, into a new merged list. */
static int union_merged(const struct interval *a, size_t na, const struct interval *b, size_t nb,
                        struct interval **out, size_t *nout)
{
    struct interval *u = util_alloc_resident(na + nb + 1, sizeof *u);
    if (!u)
        return ERR_NOMEM;
    size_t i = 0, j = 0, k = 0;
    while (i < na || j < nb)
        u[k++] = j == nb || (i < na && (a[i].start < b[j].start ||
                                        (a[i].start == b[j].start && a[i].end <= b[j].end)))
                     ? a[i++]
                     : b[j++];
    *nout = intervals_merge(u, k);   // in order: only grouped
    *out = u;
    return 0;
}

/* The GPU lane's intervals so far (merged, by class): every stream's. */
struct gpu_union {
    struct interval *iv[TILE_NCLASSES];
    size_t n[TILE_NCLASSES];
};

static int gpu_union_add(struct gpu_union *g, int cl, const struct interval *iv, size_t n)
{
    struct interval *u;
    size_t k;
    if (n == 0)
        return 0;
    if (union_merged(g->iv[cl], g->n[cl], iv, n, &u, &k))
        return ERR_NOMEM;
    free(g->iv[cl]);
    g->iv[cl] = u;
    g->n[cl] = k;
    return 0;
}

/* Each stream event's class (TILE_NCLASSES where it holds no GPU time),
 * the streams one after another: 1 byte an event. */
static uint8_t *classify_streams(struct busy_classes *c, const struct rank_model *r)
{
    size_t total = 0;
    for (size_t s = 0; s < r->nstreams; s++)
        total += r->streams[s].n;
    uint8_t *cls = malloc(total ? total : 1);
    if (!cls)
        return NULL;
    size_t at = 0;
    for (size_t s = 0; s < r->nstreams; s++)
        for (size_t i = 0; i < r->streams[s].n; i++) {
            const struct event *ev = &r->events[r->streams[s].pos[i]];
            cls[at++] = busy_is_gpu_event(c->m, ev) ? (uint8_t)busy_class(c, ev->name)
                                                    : (uint8_t)TILE_NCLASSES;
        }
    return cls;
}

static bool in_class(uint8_t cls, int cl)
{
    return cl == TILE_BUSY ? cls < TILE_NCLASSES : cls == cl;
}

/* One GPU stream's run of class cl (every GPU event for TILE_BUSY): its
 * intervals of the class in stream order, merged, which the GPU lane's
 * union also takes. Scratch is one resident block: page faults, not the
 * work, would be most of this lane's time. */
static int stream_run(const struct model *m, const struct rank_model *r,
                      const struct stream_index *s, const uint8_t *cls, int cl, unsigned wlog,
                      struct run_builder *b, struct gpu_union *g, struct arena *a,
                      struct tile_run *run)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += in_class(cls[i], cl);
    struct interval *iv = util_alloc_resident(n + 1, sizeof *iv);
    if (!iv)
        return ERR_NOMEM;
    n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (in_class(cls[i], cl)) {
            const struct event *ev = &r->events[s->pos[i]];
            iv[n++] = (struct interval){ev->ts, ev->ts + ev->dur};
        }
    size_t k = intervals_merge(iv, n);
    int rc = builder_add_merged(b, iv, k, m->origin_ns, wlog);
    if (rc == 0)
        rc = builder_take(b, a, run);
    if (rc == 0)
        rc = gpu_union_add(g, cl, iv, k);
    free(iv);
    return rc;
}

/* The streams' lanes and the GPU lane (the union of the streams'
 * intervals: the rank's GPU busy time by class and in all, as the temporal
 * analysis takes it; a GPU event always has a stream: model/select.c
 * groups the GPU side by it), one class at a time, so that only one
 * class's union and one stream's intervals of it are held. */
static int gpu_lanes(struct busy_classes *c, const struct rank_model *r, unsigned wlog,
                     struct run_builder *b, struct arena *a, struct tile_lane *streams,
                     struct tile_lane *gpu)
{
    uint8_t *cls = classify_streams(c, r);
    if (!cls)
        return ERR_NOMEM;
    memset(gpu, 0, sizeof *gpu);
    gpu->kind = TILE_LANE_GPU;
    gpu->stream = -1;
    for (size_t s = 0; s < r->nstreams; s++) {
        memset(&streams[s], 0, sizeof streams[s]);
        streams[s].kind = TILE_LANE_STREAM;
        streams[s].stream = r->streams[s].stream;
    }
    struct gpu_union g = {{NULL}, {0}};
    int rc = 0;
    for (int cl = 0; cl < TILE_NCLASSES && rc == 0; cl++) {
        size_t at = 0;
        for (size_t s = 0; s < r->nstreams && rc == 0; s++) {
            rc = stream_run(c->m, r, &r->streams[s], cls + at, cl, wlog, b, &g, a,
                            &streams[s].runs[cl]);
            at += r->streams[s].n;
        }
        if (rc == 0)
            rc = builder_add_merged(b, g.iv[cl], g.n[cl], c->m->origin_ns, wlog);
        if (rc == 0)
            rc = builder_take(b, a, &gpu->runs[cl]);
        free(g.iv[cl]);
    }
    free(cls);
    return rc;
}

/* The text of string id, cut to what a summary stores, copied into a. */
static const char *lane_name(const struct model *m, uint32_t id, struct arena *a)
{
    const char *s = model_str(m, id);
    size_t len = strnlen(s, TILES_NAME_MAX);
    return arena_strndup(a, s, len);
}

/* One CPU thread's lane: its outermost events. */
static int thread_lane(const struct model *m, const struct rank_model *r,
                       const struct thread_index *t, unsigned wlog, struct run_builder *b,
                       struct arena *a, struct tile_lane *lane)
{
    memset(lane, 0, sizeof *lane);
    lane->kind = TILE_LANE_THREAD;
    lane->stream = -1;
    lane->pid = lane_name(m, t->pid, a);
    lane->tid = lane_name(m, t->tid, a);
    if (!lane->pid || !lane->tid)
        return ERR_NOMEM;
    struct interval *iv = util_alloc_resident(t->n + 1, sizeof *iv);
    if (!iv)
        return ERR_NOMEM;
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->parent[i] == MODEL_NONE) {
            const struct event *ev = &r->events[t->pos[i]];
            iv[n++] = (struct interval){ev->ts, ev->ts + ev->dur};
        }
    int rc = lane_run(iv, n, m->origin_ns, wlog, b, a, &lane->runs[TILE_BUSY]);
    free(iv);
    return rc;
}

int tiles_build(const struct model *m, const struct rank_model *r, const struct analysis_opts *o,
                bool gpu_only, struct arena *a, struct tiles *out)
{
    memset(out, 0, sizeof *out);
    out->rank = r->rank;
    out->width_log2 = tiles_width_log2(r->end_ns - r->start_ns, r->complete_events);
    if (r->nrows) {
        int64_t start = r->start_ns + m->origin_ns, end = r->end_ns + m->origin_ns;
        out->first = tiles_bucket_of(start, out->width_log2);
        out->count = tiles_bucket_of(end > start ? end - 1 : start, out->width_log2) -
                     out->first + 1;
        out->start_ns = start;
        out->end_ns = end > start ? end : start;
    }
    /* at most TILES_MAX_LANES lanes, as a summary keeps: the GPU, then the
     * streams, then the threads, in order (every stream counts for the
     * GPU's lane all the same) */
    size_t gpu = r->nstreams ? 1 : 0;
    size_t kept_streams = gpu_only ? 0 : r->nstreams;
    kept_streams = kept_streams < TILES_MAX_LANES - gpu ? kept_streams : TILES_MAX_LANES - gpu;
    size_t kept_threads = gpu_only ? 0 : r->nthreads;
    size_t room = TILES_MAX_LANES - gpu - kept_streams;
    kept_threads = kept_threads < room ? kept_threads : room;
    out->lanes = arena_calloc(a, gpu + kept_streams + kept_threads + 1, sizeof *out->lanes);
    struct tile_lane *streams = arena_calloc(a, r->nstreams + 1, sizeof *streams);
    struct busy_classes c;
    if (!out->lanes || !streams || busy_classes_init(&c, m, o))
        return ERR_NOMEM;
    struct run_builder b = {0};
    /* a run has a bucket at most once: room for the span, made resident */
    size_t span = out->count > 0 ? (size_t)out->count : 1;
    b.index = util_alloc_resident(span, sizeof *b.index);
    b.busy = util_alloc_resident(span, sizeof *b.busy);
    b.cap_index = b.cap_busy = b.index && b.busy ? span : 0;
    int rc = 0;
    if (gpu)
        rc = gpu_lanes(&c, r, out->width_log2, &b, a, streams, &out->lanes[out->nlanes++]);
    for (size_t s = 0; s < kept_streams && rc == 0; s++)
        out->lanes[out->nlanes++] = streams[s];
    for (size_t t = 0; t < kept_threads && rc == 0; t++)
        rc = thread_lane(m, r, &r->threads[t], out->width_log2, &b, a, &out->lanes[out->nlanes++]);
    builder_fini(&b);
    busy_classes_fini(&c);
    return rc;
}

/* Cumulative busy time of the buckets before `bucket`. */
static int64_t cum_before(const struct tile_run *run, int64_t bucket)
{
    size_t lo = 0, hi = run->n;   // first entry at or after bucket
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (run->index[mid] < bucket)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? run->cum[lo - 1] : 0;
}

int64_t tiles_sum(const struct tile_run *run, int64_t lo, int64_t hi)
{
    return hi > lo ? cum_before(run, hi) - cum_before(run, lo) : 0;
}

const struct tile_lane *tiles_find_lane(const struct tiles *t, enum tile_lane_kind kind,
                                        int64_t stream)
{
    for (size_t i = 0; i < t->nlanes; i++)
        if (t->lanes[i].kind == kind && (kind != TILE_LANE_STREAM || t->lanes[i].stream == stream))
            return &t->lanes[i];
    return NULL;
}

/* How many buckets run has at d doublings of its width. */
static size_t coarse_count(const struct tile_run *run, unsigned d)
{
    if (d == 0)
        return run->n;
    size_t n = 0;
    for (size_t i = 0; i < run->n; i++)
        n += i == 0 || tiles_bucket_of(run->index[i], d) != tiles_bucket_of(run->index[i - 1], d);
    return n;
}

/* The bytes t's runs would take at d doublings of their width. */
static size_t bytes_at(const struct tiles *t, unsigned d)
{
    size_t bytes = t->nlanes * sizeof *t->lanes;
    for (size_t l = 0; l < t->nlanes; l++)
        for (int cl = 0; cl < TILE_NCLASSES; cl++)
            bytes += coarse_count(&t->lanes[l].runs[cl], d) * (sizeof(int64_t) * 2);
    return bytes;
}

size_t tiles_bytes(const struct tiles *t)
{
    return bytes_at(t, 0);
}

static int coarsen_run(const struct tile_run *in, unsigned d, struct arena *a,
                       struct tile_run *out)
{
    size_t n = coarse_count(in, d);
    memset(out, 0, sizeof *out);
    if (n == 0)
        return 0;
    out->index = arena_alloc(a, n * sizeof *out->index);   // n <= in->n: no overflow
    out->cum = arena_alloc(a, n * sizeof *out->cum);
    if (!out->index || !out->cum)
        return ERR_NOMEM;
    if (d == 0) {   // a copy
        memcpy(out->index, in->index, n * sizeof *out->index);
        memcpy(out->cum, in->cum, n * sizeof *out->cum);
        out->n = n;
        return 0;
    }
    // a coarse bucket's cumulative sum is that of the last fine bucket in it
    for (size_t i = 0; i < in->n; i++) {
        int64_t b = tiles_bucket_of(in->index[i], d);
        if (out->n == 0 || out->index[out->n - 1] != b)
            out->index[out->n++] = b;
        out->cum[out->n - 1] = in->cum[i];
    }
    return 0;
}

int tiles_coarsen(const struct tiles *in, unsigned width_log2, struct arena *a,
                  struct tiles *out)
{
    unsigned d = width_log2 > in->width_log2 ? width_log2 - in->width_log2 : 0;
    *out = *in;
    out->width_log2 = in->width_log2 + d;
    out->first = tiles_bucket_of(in->first, d);
    out->count = in->count ? tiles_bucket_of(in->first + in->count - 1, d) - out->first + 1 : 0;
    out->lanes = arena_calloc(a, in->nlanes ? in->nlanes : 1, sizeof *out->lanes);
    if (!out->lanes)
        return ERR_NOMEM;
    for (size_t l = 0; l < in->nlanes; l++) {
        const struct tile_lane *src = &in->lanes[l];
        struct tile_lane *dst = &out->lanes[l];
        *dst = *src;
        if (src->pid && !(dst->pid = arena_strndup(a, src->pid, strlen(src->pid))))
            return ERR_NOMEM;
        if (src->tid && !(dst->tid = arena_strndup(a, src->tid, strlen(src->tid))))
            return ERR_NOMEM;
        for (int cl = 0; cl < TILE_NCLASSES; cl++) {
            /* runs a reader shares (BUSY = the lane's one class; a lane
             * the same as the GPU lane) stay shared */
            const struct tile_run *shared = NULL;
            for (int k = 0; k < cl && !shared && src->runs[cl].n; k++)
                if (src->runs[k].index == src->runs[cl].index)
                    shared = &dst->runs[k];
            for (int k = 0; l > 0 && k < TILE_NCLASSES && !shared && src->runs[cl].n; k++)
                if (in->lanes[0].runs[k].index == src->runs[cl].index)
                    shared = &out->lanes[0].runs[k];
            if (shared)
                dst->runs[cl] = *shared;
            else if (coarsen_run(&src->runs[cl], d, a, &dst->runs[cl]))
                return ERR_NOMEM;
        }
    }
    return 0;
}

/* Whether in's span at width 2^w stays in tiles_check's range. */
static bool span_fits(const struct tiles *in, unsigned w)
{
    unsigned d = w - in->width_log2;
    int64_t first = tiles_bucket_of(in->first, d);
    int64_t count = in->count ? tiles_bucket_of(in->first + in->count - 1, d) - first + 1 : 0;
    const int64_t width = (int64_t)1 << w;
    return w <= TILES_MAX_WIDTH_LOG2 && first >= INT64_MIN / width + 1 &&
           first <= INT64_MAX / width - count - 1;
}

int tiles_fit(const struct tiles *in, size_t budget, struct arena *a, struct tiles *out)
{
    unsigned w = in->width_log2;
    while (budget && bytes_at(in, w - in->width_log2) > budget && span_fits(in, w + 1))
        w++;
    return tiles_coarsen(in, w, a, out);
}

const char *tiles_check(const struct tiles *t)
{
    if (t->width_log2 > TILES_MAX_WIDTH_LOG2)
        return "bucket width out of range";
    const int64_t w = (int64_t)1 << t->width_log2;
    if (t->count < 0 || t->count > TILES_MAX_SPAN ||
        t->first < INT64_MIN / w + 1 || t->first > INT64_MAX / w - t->count - 1)
        return "span out of range";
    if (t->count ? t->start_ns < t->first * w || t->end_ns > (t->first + t->count) * w ||
                       t->start_ns > t->end_ns
                 : t->start_ns || t->end_ns)
        return "exact span outside the buckets";
    for (size_t l = 0; l < t->nlanes; l++) {
        const struct tile_lane *lane = &t->lanes[l];
        if (lane->kind >= TILE_LANE_KINDS)
            return "unknown lane kind";
        for (int cl = 0; cl < TILE_NCLASSES; cl++) {
            const struct tile_run *run = &lane->runs[cl];
            if (cl != TILE_BUSY && lane->kind == TILE_LANE_THREAD && run->n)
                return "a class on a CPU lane";
            for (size_t i = 0; i < run->n; i++) {
                int64_t prev = i ? run->cum[i - 1] : 0;
                if (run->index[i] < t->first || run->index[i] >= t->first + t->count ||
                    (i && run->index[i] <= run->index[i - 1]))
                    return "buckets out of order or outside the span";
                if (run->cum[i] <= prev || run->cum[i] - prev > w)
                    return "a bucket's busy time out of range";
            }
        }
        const struct tile_run *all = &lane->runs[TILE_BUSY];
        for (int cl = 0; cl < TILE_BUSY; cl++) {
            const struct tile_run *run = &lane->runs[cl];
            size_t j = 0;   // both ascending: one walk, not a search a bucket
            for (size_t i = 0; i < run->n; i++) {
                while (j < all->n && all->index[j] < run->index[i])
                    j++;
                int64_t mine = run->cum[i] - (i ? run->cum[i - 1] : 0);
                int64_t lane_busy = j < all->n && all->index[j] == run->index[i]
                                        ? all->cum[j] - (j ? all->cum[j - 1] : 0)
                                        : 0;
                if (mine > lane_busy)
                    return "a class busier than the lane";
            }
        }
    }
    return NULL;
}

static const struct table_col table_cols[] = {
    {"rank", NULL, COL_KEY},
    {"bucket", NULL, COL_KEY},
    {"start (us)", "us", 0},
    {"computation_pctg", "%", COL_PERCENT},
    {"communication_pctg", "%", COL_PERCENT},
    {"memory_pctg", "%", COL_PERCENT},
    {"other_pctg", "%", COL_PERCENT},
    {"busy_pctg", "%", COL_PERCENT},
};

int tiles_table(const struct tiles *t, size_t n, struct arena *a, struct table_list *out,
                struct err *e)
{
    struct table *tab = table_list_new(a, out, "gpu_utilization_over_time",
                                       "GPU utilization over time", table_cols,
                                       sizeof table_cols / sizeof table_cols[0], e);
    if (!tab)
        return e->code;
    /* the job's span, in ns: from the first bucket start to the last end */
    bool any = false;
    int64_t start = 0, end = 0;
    unsigned wlog = 0;
    for (size_t r = 0; r < n; r++) {
        if (t[r].count <= 0)
            continue;
        int64_t w = (int64_t)1 << t[r].width_log2;
        int64_t s = t[r].first * w, f = (t[r].first + t[r].count) * w;
        start = any && start < s ? start : s;
        end = any && end > f ? end : f;
        wlog = t[r].width_log2 > wlog ? t[r].width_log2 : wlog;
        any = true;
    }
    if (!any) {
        table_set_note(tab, n ? "no events in the selected ranks" : "no rank selected");
        return 0;
    }
    uint64_t span = (uint64_t)end - (uint64_t)start;
    uint64_t need = span / TILES_TABLE_BUCKETS + (span % TILES_TABLE_BUCKETS != 0);
    while (wlog < TILES_MAX_WIDTH_LOG2 && ((uint64_t)1 << wlog) < need)
        wlog++;
    int64_t first = tiles_bucket_of(start, wlog), last = tiles_bucket_of(end - 1, wlog);
    const int64_t W = (int64_t)1 << wlog;
    if (table_reserve(tab, n * (size_t)(last - first + 1)))
        return err_set(e, ERR_NOMEM, "utilization: out of memory");
    size_t idle_ranks = 0;
    for (size_t r = 0; r < n; r++) {
        const struct tile_lane *gpu = tiles_find_lane(&t[r], TILE_LANE_GPU, -1);
        const int64_t scale = (int64_t)1 << (wlog - t[r].width_log2);
        idle_ranks += gpu == NULL;
        for (int64_t k = first; k <= last; k++) {
            struct cell *row = table_add_row(tab);
            if (!row)
                return err_set(e, ERR_NOMEM, "utilization: out of memory");
            row[0] = cell_int(t[r].rank);
            row[1] = cell_int(k - first);
            row[2] = cell_double((double)(k - first) * (double)W / 1000.0);
            /* k * scale is a time over the rank's width: it fits, as the
             * span does (tiles_check); the next bucket's end may not */
            int64_t lo = k * scale, hi;
            if (__builtin_mul_overflow(k + 1, scale, &hi))
                hi = INT64_MAX;
            for (int cl = 0; cl < TILE_NCLASSES; cl++) {
                int64_t ns = gpu ? tiles_sum(&gpu->runs[cl], lo, hi) : 0;
                row[3 + cl] = cell_double(100.0 * (double)ns / (double)W);
            }
        }
    }
    if (idle_ranks)
        table_set_note(tab, "buckets of %.3f ms from the job's first; %zu of %zu ranks have no "
                       "GPU work", (double)W / 1e6, idle_ranks, n);
    else
        table_set_note(tab, "buckets of %.3f ms from the job's first", (double)W / 1e6);
    return 0;
}

int utilization_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                    struct table_list *out, struct err *e)
{
    size_t n = 0;
    for (size_t i = 0; i < m->nranks; i++)
        n += m->ranks[i].selected;
    struct tiles *t = arena_calloc(scratch, n ? n : 1, sizeof *t);
    if (!t)
        return err_set(e, ERR_NOMEM, "utilization: out of memory");
    /* the tiles live in a scratch arena of their own, freed before return;
     * only the table stays in `scratch` */
    struct arena tmp;
    arena_init(&tmp, 1 << 20);
    size_t k = 0;
    int rc = 0;
    for (size_t i = 0; i < m->nranks && rc == 0; i++)
        if (m->ranks[i].selected)
            rc = tiles_build(m, &m->ranks[i], o, true, &tmp, &t[k++]);
    if (rc)
        rc = err_set(e, ERR_NOMEM, "utilization: out of memory");
    else
        rc = tiles_table(t, n, scratch, out, e);
    arena_fini(&tmp);
    return rc;
}
