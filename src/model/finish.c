#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/build.h"
#include "util/hmap.h"
#include "util/pool.h"

/* HTA parses ts and dur as doubles and, when any ts of the file is
 * fractional, rounds ts up and the end down (spec §1.5). Our integers are
 * exact, so rebuild the double HTA saw from the decimal text: the double
 * nearest ns / 1000, which one IEEE division of two exact doubles gives
 * where ns is exact as a double (below 2^53: 104 days of µs), and strtod
 * of the decimal text beyond. */
static double us_double(int64_t ns)
{
    if (ns > -(INT64_C(1) << 53) && ns < (INT64_C(1) << 53))
        return (double)ns / 1000.0;
    char buf[40];
    uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    snprintf(buf, sizeof buf, "%s%llu.%03llu", ns < 0 ? "-" : "", (unsigned long long)(mag / 1000),
             (unsigned long long)(mag % 1000));
    return strtod(buf, NULL);
}

static void apply_ns_rounding(struct rank_model *r)
{
    for (size_t i = 0; i < r->nevents; i++) {
        struct event *ev = &r->events[i];
        double ts = us_double(ev->ts);
        double end = ts + us_double(ev->dur);
        double ts_r = ceil(ts), end_r = floor(end);
        if (!(fabs(ts_r) < 9.2e15 && fabs(end_r) < 9.2e15))
            continue;   /* out of range for exact ns: keep the exact values */
        ev->ts = (int64_t)ts_r * 1000;
        ev->dur = ((int64_t)end_r - (int64_t)ts_r) * 1000;
    }
}

/* §1.8: join CPU-side and GPU-side events with equal correlation; the pair
 * seen last wins on either side. Correlation ids count up (CUPTI numbers
 * its calls), so where they are dense, as they are in real traces, the
 * last position of each id is found in an array indexed by the id: 4 bytes
 * an id a side against a hash map's 13 bytes a slot at 2-4 slots a key,
 * the largest transient of a load. Sparse or
 * hostile ids go through the hash map. */
bool model_corr_range(const struct rank_model *r, uint32_t *lo, uint64_t *range, size_t *n)
{
    *n = r->ncorr;
    *lo = r->ncorr ? r->corr_lo : UINT32_MAX;
    *range = *n ? (uint64_t)r->corr_hi - r->corr_lo + 1 : 0;
    return *n && *range <= 4 * (uint64_t)*n + 4096;
}

/* Older traces carry no correlation on some GPU events; Kineto's ac2g flows
 * then link them (link_by_flows). */
static bool is_gpu_activity(const struct event *ev)
{
    return ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY || ev->kind == EV_KIND_MEMSET;
}

/* The linking's first pass also says whether any GPU event lacks a
 * correlation (*orphans), which link_by_flows then links. */
static int link_dense(const struct model *m, struct rank_model *r, uint32_t lo, size_t range,
                      bool *orphans)
{
    uint32_t *last = malloc(2 * range * sizeof *last);   // [cpu ids | gpu ids]
    if (!last)
        return ERR_NOMEM;
    memset(last, 0xff, 2 * range * sizeof *last);   // MODEL_NONE
    bool any = false;
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        if (ev->flags & EV_FLAG_HAS_CORR)
            last[(model_is_gpu_kernel_pred(m, ev) ? range : 0) + (ev->corr - lo)] = (uint32_t)i;
        else
            any |= is_gpu_activity(ev);
    }
    *orphans = any;
    for (size_t i = 0; i < r->nevents; i++) {
        struct event *ev = &r->events[i];
        if (!(ev->flags & EV_FLAG_HAS_CORR))
            continue;
        bool gpu = model_is_gpu_kernel_pred(m, ev);
        uint32_t p = last[(gpu ? 0 : range) + (ev->corr - lo)];
        if (p != MODEL_NONE)
            ev->partner = p;
        else if (gpu)
            r->unmatched_correlations++;
    }
    free(last);
    return 0;
}

static int link_hashed(const struct model *m, struct rank_model *r, size_t n, bool *orphans)
{
    struct hmap last_cpu, last_gpu;
    if (hmap_init(&last_cpu, n / 2) || hmap_init(&last_gpu, n / 2)) {
        hmap_fini(&last_cpu);
        return ERR_NOMEM;
    }
    int rc = 0;
    for (size_t i = 0; i < r->nevents && !rc; i++) {
        const struct event *ev = &r->events[i];
        if (event_correlation(ev) == -1) {
            *orphans |= is_gpu_activity(ev);
            continue;
        }
        struct hmap *side = model_is_gpu_kernel_pred(m, ev) ? &last_gpu : &last_cpu;
        rc = hmap_put(side, event_correlation(ev), (uint32_t)i);
    }
    for (size_t i = 0; i < r->nevents && !rc; i++) {
        struct event *ev = &r->events[i];
        if (event_correlation(ev) == -1)
            continue;
        const struct hmap *other = model_is_gpu_kernel_pred(m, ev) ? &last_cpu : &last_gpu;
        uint32_t *p = hmap_get(other, event_correlation(ev));
        if (p)
            ev->partner = *p;
        else if (model_is_gpu_kernel_pred(m, ev))
            r->unmatched_correlations++;
    }
    hmap_fini(&last_cpu);
    hmap_fini(&last_gpu);
    return rc;
}

static int link_by_correlation(const struct model *m, struct rank_model *r, bool *orphans,
                               struct err *e)
{
    uint32_t lo;
    uint64_t range;
    size_t n;
    *orphans = false;
    int rc = model_corr_range(r, &lo, &range, &n) ? link_dense(m, r, lo, (size_t)range, orphans)
                                                  : link_hashed(m, r, n, orphans);
    return rc ? err_set(e, ERR_NOMEM, "out of memory linking correlations") : 0;
}

/* Events and flows name their (pid, tid) by the builder's index of it. */
static int64_t place_key(uint32_t thread, int64_t ts)
{
    /* Mixes a (thread, ts) pair into one key; collisions are checked. */
    return (int64_t)((uint64_t)thread * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts);
}

static bool is_launcher(const struct event *ev)
{
    return ev->kind == EV_KIND_RUNTIME || ev->kind == EV_KIND_DRIVER;
}

static int index_flow_ends(const struct rank_model *r, const struct rank_builder *b,
                           struct hmap *at_place, struct hmap *start_of)
{
    int rc = 0;
    for (size_t i = 0; i < r->nevents && !rc; i++) {
        const struct event *ev = &r->events[i];
        bool orphan = is_gpu_activity(ev) && event_correlation(ev) < 0;
        if (orphan || (is_launcher(ev) && ev->partner == MODEL_NONE))
            rc = hmap_put(at_place, place_key(ev->thread, ev->ts), (uint32_t)i);
    }
    for (size_t i = 0; i < rank_builder_nflows(b) && !rc; i++)
        if (rank_builder_flow(b, i).is_start)
            rc = hmap_put(start_of, rank_builder_flow(b, i).id, (uint32_t)i);
    return rc;
}

/* Older traces carry no correlation on some GPU events (orphans); Kineto's
 * ac2g flows then link them: "s" at the launch's start, "f" at the kernel's
 * start. Only orphans and unlinked launchers are indexed, and nothing is
 * done without an orphan, so this costs nothing on traces where correlation
 * ids are complete. */
static int link_by_flows(struct rank_model *r, const struct rank_builder *b, bool orphans,
                         struct err *e)
{
    if (!orphans || !rank_builder_nflows(b))
        return 0;
    struct hmap at_place, start_of;
    if (hmap_init(&at_place, 1024) || hmap_init(&start_of, 1024)) {
        hmap_fini(&at_place);
        return err_set(e, ERR_NOMEM, "out of memory linking flows");
    }
    int rc = index_flow_ends(r, b, &at_place, &start_of);
    for (size_t i = 0; i < rank_builder_nflows(b) && !rc; i++) {
        struct flow_rec f = rank_builder_flow(b, i), st;
        uint32_t *s = f.is_start ? NULL : hmap_get(&start_of, f.id);
        uint32_t *g = s ? hmap_get(&at_place, place_key(f.thread, f.ts)) : NULL;
        if (s)
            st = rank_builder_flow(b, *s);
        uint32_t *c = s && g ? hmap_get(&at_place, place_key(st.thread, st.ts)) : NULL;
        if (!g || !c)
            continue;
        struct event *gev = &r->events[*g], *cev = &r->events[*c];
        if (!is_gpu_activity(gev) || !is_launcher(cev) || gev->partner != MODEL_NONE ||
            gev->ts != f.ts || cev->ts != st.ts)
            continue;
        gev->partner = *c;
        gev->flags |= EV_FLAG_FLOW_LINKED;
        if (cev->partner == MODEL_NONE)
            cev->partner = *g;
    }
    hmap_fini(&at_place);
    hmap_fini(&start_of);
    return rc ? err_set(e, ERR_NOMEM, "out of memory linking flows") : 0;
}

/* `ProfilerStep\s*#\s*(\d+)` at the start of the name (spec §1.7). */
static bool parse_step_number(const char *s, size_t len, int64_t *out)
{
    static const char prefix[] = "ProfilerStep";
    size_t i = sizeof prefix - 1;
    if (len < i || memcmp(s, prefix, i) != 0)
        return false;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= len || s[i] != '#')
        return false;
    i++;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= len || s[i] < '0' || s[i] > '9')
        return false;
    int64_t v = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        if (v > (INT32_MAX - (s[i] - '0')) / 10)
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

static int cmp_iteration(const void *a, const void *b)
{
    const struct iteration *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static int collect_steps(const struct model *m, struct rank_model *r, struct err *e)
{
    size_t n = 0, cap = 0;
    struct iteration *steps = NULL;
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        const char *name = model_str(m, ev->name);
        size_t len = strtab_len(&m->strings, ev->name);
        if (len < 12 || memcmp(name, "ProfilerStep", 12) != 0)
            continue;
        int64_t number;
        if (!parse_step_number(name, len, &number)) {
            model_rank_warn(r, "event %u: \"%.40s\" has no step number; not an iteration",
                            ev->index, name);
            continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            struct iteration *grown = realloc(steps, cap * sizeof *grown);
            if (!grown) {
                free(steps);
                return err_set(e, ERR_NOMEM, "out of memory");
            }
            steps = grown;
        }
        steps[n++] = (struct iteration){number, ev->ts, ev->dur, (uint32_t)i};
    }
    if (n)
        qsort(steps, n, sizeof *steps, cmp_iteration);
    r->iterations = steps;
    r->niterations = n;
    return 0;
}

/* How many steps start at or before t (the steps by ts): *hint, the answer
 * for the event before, when it holds for t too, else a binary search. The
 * events mostly come in time order, so the search is rarely needed, and a
 * search for every event would be a visible part of a big rank's read. */
static size_t steps_started(const struct rank_model *r, int64_t t, size_t *hint)
{
    size_t lo = *hint;
    if ((lo == 0 || r->iterations[lo - 1].ts <= t) &&
        (lo == r->niterations || r->iterations[lo].ts > t))
        return lo;
    lo = 0;
    size_t hi = r->niterations;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->iterations[mid].ts <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    *hint = lo;
    return lo;
}

/* The step containing t (step.ts <= t < step.ts + dur); when several do, the
 * one latest in the file wins (§1.7). max_end is the prefix max of ends. */
static int32_t step_at(const struct rank_model *r, const int64_t *max_end, int64_t t,
                       size_t *hint)
{
    size_t lo = steps_started(r, t, hint);
    int32_t best = MODEL_ITER_NONE;
    uint32_t best_pos = 0;
    for (size_t j = lo; j-- > 0 && max_end[j] > t;) {
        const struct iteration *s = &r->iterations[j];
        if (t < s->ts + s->dur && (best == MODEL_ITER_NONE || s->pos > best_pos)) {
            best = (int32_t)s->number;
            best_pos = s->pos;
        }
    }
    return best;
}

static bool uses_step_time(const struct event *ev)
{
    return ev->stream < 0 || (ev->stream == 0 && ev->kind == EV_KIND_CPU_OP);
}

/* The CPU side takes the step its start falls in. */
static int assign_step_time(struct rank_model *r, struct err *e)
{
    int64_t *max_end = malloc((r->niterations ? r->niterations : 1) * sizeof *max_end);
    if (!max_end)
        return err_set(e, ERR_NOMEM, "out of memory");
    for (size_t j = 0; j < r->niterations; j++) {
        int64_t end = r->iterations[j].ts + r->iterations[j].dur;
        max_end[j] = j && max_end[j - 1] > end ? max_end[j - 1] : end;
    }
    size_t hint = 0;
    for (size_t i = 0; i < r->nevents; i++) {
        struct event *ev = &r->events[i];
        if (uses_step_time(ev))
            ev->iteration = r->niterations ? step_at(r, max_end, ev->ts, &hint) : MODEL_ITER_NONE;
    }
    free(max_end);
    return 0;
}

/* The GPU side takes its launcher's step. */
static void assign_launchers_steps(const struct model *m, struct rank_model *r)
{
    for (size_t i = 0; i < r->nevents; i++) {
        struct event *ev = &r->events[i];
        if (uses_step_time(ev))
            continue;
        if (ev->stream == 0 && m->sem.stream0_no_iteration) {
            ev->iteration = MODEL_ITER_NAN;
            continue;
        }
        bool linked = m->sem.stream0_no_iteration ? model_index_correlation(r, ev) > 0
                                                  : ev->partner != MODEL_NONE;
        ev->iteration = linked ? r->events[ev->partner].iteration : MODEL_ITER_NONE;
        if (ev->iteration == MODEL_ITER_NAN)
            ev->iteration = MODEL_ITER_NONE;
    }
}

static int assign_iterations(const struct model *m, struct rank_model *r, struct err *e)
{
    int rc = assign_step_time(r, e);
    if (rc == 0)
        assign_launchers_steps(m, r);
    return rc;
}

/* §1.12, plus "CPU only" when the file has no GPU activity at all. */
static enum device_type detect_device(const struct model *m, const struct rank_model *r)
{
    if (strstr(r->backend, "mtia:hccl"))
        return DEVICE_MTIA;
    uint64_t gpu = r->complete_by_kind[EV_KIND_KERNEL] + r->complete_by_kind[EV_KIND_MEMCPY] +
                   r->complete_by_kind[EV_KIND_MEMSET];
    bool cuda = false, hip = false, mtia = false;
    uint32_t id_cuda = strtab_find(&m->strings, "cudaLaunchKernel", 16);
    uint32_t id_hip = strtab_find(&m->strings, "hipLaunchKernel", 15);
    static const char run_fn[] = "runFunction - job_prep_and_submit_for_execution";
    uint32_t id_mtia = strtab_find(&m->strings, run_fn, sizeof run_fn - 1);
    // A name no string of the rank spells is no event's: most ranks skip
    // the pass, and CUDA's stops at its first launch.
    bool any = id_cuda != STRTAB_NONE || id_hip != STRTAB_NONE || id_mtia != STRTAB_NONE;
    for (size_t i = 0; any && !cuda && i < r->nevents; i++) {
        uint32_t n = r->events[i].name;
        cuda |= n == id_cuda;
        hip |= n == id_hip;
        mtia |= n == id_mtia;
    }
    if (cuda)
        return DEVICE_CUDA;
    if (hip)
        return DEVICE_ROCM;
    if (mtia)
        return DEVICE_MTIA;
    return gpu ? DEVICE_UNKNOWN_GPU : DEVICE_CPU_ONLY;
}

int model_finish_rank(struct model *m, struct rank_model *r, const struct rank_builder *b,
                      struct err *e)
{
    m->id_event_sync = strtab_find(&m->strings, "Event Sync", 10);
    m->id_context_sync = strtab_find(&m->strings, "Context Sync", 12);
    if (m->sem.ns_rounding && r->has_float_ts)
        apply_ns_rounding(r);
    bool orphans;
    int rc = link_by_correlation(m, r, &orphans, e);
    if (!rc)
        rc = link_by_flows(r, b, orphans, e);
    if (!rc)
        rc = model_find_graphs(m, r, e);
    if (!rc)
        rc = collect_steps(m, r, e);
    if (!rc)
        rc = assign_iterations(m, r, e);
    r->device = detect_device(m, r);
    if (r->nevents == 0)
        model_rank_warn(r, "no analyzable events (no element has both \"dur\" and \"cat\")");
    return rc;
}

int model_refinish_rank(struct model *m, struct rank_model *r, struct err *e)
{
    if (m->sem.ns_rounding && r->has_float_ts) {
        apply_ns_rounding(r);
        free(r->iterations);
        r->iterations = NULL;
        int rc = collect_steps(m, r, e);
        return rc ? rc : assign_iterations(m, r, e);
    }
    // The same times: the same steps, and the CPU side's iterations hold.
    assign_launchers_steps(m, r);
    return 0;
}

/* model_finish's two passes over every event run as tasks over chunks of
 * a rank's events, on every core (a single large rank too). */
#define FINISH_CHUNK_EVENTS ((size_t)1 << 19)

struct finish_chunk {
    struct rank_model *r;
    size_t from, to;
    bool seen, any;                 /* an event; one not a trace span */
    int64_t first, last, origin;    /* smallest and largest ts; smallest not a span's */
};

struct finish_run {
    struct finish_chunk *chunks;
    int64_t origin;
};

static int span_task(void *ctx, size_t k)
{
    struct finish_chunk *c = &((struct finish_run *)ctx)->chunks[k];
    for (size_t i = c->from; i < c->to; i++) {
        const struct event *ev = &c->r->events[i];
        c->first = !c->seen || ev->ts < c->first ? ev->ts : c->first;
        c->last = !c->seen || ev->ts > c->last ? ev->ts : c->last;
        c->seen = true;
        if (ev->kind == EV_KIND_TRACE_SPAN)
            continue;
        c->origin = !c->any || ev->ts < c->origin ? ev->ts : c->origin;
        c->any = true;
    }
    return 0;
}

static int shift_task(void *ctx, size_t k)
{
    struct finish_run *run = ctx;
    struct finish_chunk *c = &run->chunks[k];
    for (size_t i = c->from; i < c->to; i++)
        c->r->events[i].ts -= run->origin;
    return 0;
}

/* The chunks of every rank's events; NULL when out of memory. */
static struct finish_chunk *finish_chunks(struct model *m, size_t *n)
{
    *n = 0;
    for (size_t k = 0; k < m->nranks; k++)
        *n += (m->ranks[k].nevents + FINISH_CHUNK_EVENTS - 1) / FINISH_CHUNK_EVENTS;
    struct finish_chunk *c = calloc(*n ? *n : 1, sizeof *c);
    size_t at = 0;
    for (size_t k = 0; k < m->nranks && c; k++)
        for (size_t i = 0; i < m->ranks[k].nevents; i += FINISH_CHUNK_EVENTS) {
            size_t left = m->ranks[k].nevents - i;
            size_t len = left < FINISH_CHUNK_EVENTS ? left : FINISH_CHUNK_EVENTS;
            c[at++] = (struct finish_chunk){.r = &m->ranks[k], .from = i, .to = i + len};
        }
    return c;
}

/* §1.6: one origin for every rank, the smallest ts of any kept event. */
int model_finish(struct model *m, struct err *e)
{
    size_t n;
    struct finish_run run = {finish_chunks(m, &n), 0};
    if (!run.chunks)
        return err_set(e, ERR_NOMEM, "out of memory");
    pool_run(n, 0, span_task, &run);
    bool any = false, seen = false;
    int64_t first = 0, last = 0;
    for (size_t k = 0; k < n; k++) {
        const struct finish_chunk *c = &run.chunks[k];
        if (c->seen) {
            first = !seen || c->first < first ? c->first : first;
            last = !seen || c->last > last ? c->last : last;
            seen = true;
        }
        if (c->any) {
            run.origin = !any || c->origin < run.origin ? c->origin : run.origin;
            any = true;
        }
    }
    /* Both within ±MODEL_TIME_LIMIT_NS (the builder checked), so this fits. */
    if (seen && last - first >= MODEL_TIME_LIMIT_NS) {
        free(run.chunks);
        return err_set(e, ERR_LIMIT, "event times span more than 146 years (%lld to %lld ns)",
                       (long long)first, (long long)last);
    }
    m->origin_ns = run.origin;
    m->has_origin = any;
    if (run.origin)
        pool_run(n, 0, shift_task, &run);
    free(run.chunks);
    for (size_t k = 0; k < m->nranks; k++) {
        struct rank_model *r = &m->ranks[k];
        for (size_t i = 0; i < r->niterations; i++)
            r->iterations[i].ts -= run.origin;
    }
    return 0;
}

/* The smallest and largest ts of r's events after a shift (r has events). */
static void shifted_span(const struct rank_model *r, int64_t shift, int64_t *lo, int64_t *hi)
{
    for (size_t i = 0; i < r->nevents; i++) {
        int64_t t = r->events[i].ts - shift;
        *lo = t < *lo ? t : *lo;
        *hi = t > *hi ? t : *hi;
    }
}

int model_shift_clocks(struct model *m, const int64_t *shift, struct err *e)
{
    const int64_t cap = INT64_C(1) << 60;
    int64_t lo = INT64_MAX, hi = INT64_MIN, origin = INT64_MAX;
    for (size_t k = 0; k < m->nranks; k++) {
        if (shift[k] > cap || shift[k] < -cap)
            return err_set(e, ERR_LIMIT, "clock shift of %lld ns for rank %lld is out of range",
                           (long long)shift[k], (long long)m->ranks[k].rank);
        shifted_span(&m->ranks[k], shift[k], &lo, &hi);
        for (size_t i = 0; i < m->ranks[k].nevents; i++)
            if (m->ranks[k].events[i].kind != EV_KIND_TRACE_SPAN &&
                m->ranks[k].events[i].ts - shift[k] < origin)
                origin = m->ranks[k].events[i].ts - shift[k];
    }
    if (origin == INT64_MAX)
        origin = lo == INT64_MAX ? 0 : lo;
    if (lo != INT64_MAX &&
        (hi - origin >= MODEL_TIME_LIMIT_NS || lo - origin <= -MODEL_TIME_LIMIT_NS))
        return err_set(e, ERR_LIMIT, "clock shifts take event times out of range");
    for (size_t k = 0; k < m->nranks; k++) {
        struct rank_model *r = &m->ranks[k];
        int64_t by = shift[k] + origin;
        for (size_t i = 0; i < r->nevents; i++)
            r->events[i].ts -= by;
        for (size_t i = 0; i < r->niterations; i++)
            r->iterations[i].ts -= by;
        r->clock_shift_ns += shift[k];
        r->rows_unfiltered = false;   /* stale: the next model_select builds them again */
    }
    m->origin_ns += origin;
    return 0;
}

void model_warn_list_add(char **texts, size_t *ntexts, uint64_t *count, const char *fmt,
                         va_list ap)
{
    ++*count;
    if (*ntexts >= MODEL_MAX_WARNING_TEXTS)
        return;
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    char *copy = strdup(buf);
    if (copy)
        texts[(*ntexts)++] = copy;
}

void model_rank_warn(struct rank_model *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    model_warn_list_add(r->warning_texts, &r->nwarning_texts, &r->nwarnings, fmt, ap);
    va_end(ap);
}
