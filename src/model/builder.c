#include "config.h"
#include "model/build.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/memory.h"
#include "util/pool.h"
#include "util/vec.h"

/* The events array is made resident this many events ahead of the writes:
 * one system call a window instead of a fault a page. */
#define POPULATE_EVENTS ((size_t)(256u << 10) / sizeof(struct event))

static bool str_is(const char *s, size_t len, const char *lit)
{
    size_t n = strlen(lit);
    return len == n && memcmp(s, lit, n) == 0;
}

static enum ev_kind model_kind_of_category(const char *cat, size_t len)
{
    static const struct {
        const char *cat;
        enum ev_kind kind;
    } table[] = {
        {"kernel", EV_KIND_KERNEL},       {"Kernel", EV_KIND_KERNEL},
        {"mtia_ccp_events", EV_KIND_KERNEL},
        {"gpu_memcpy", EV_KIND_MEMCPY},   {"Memcpy", EV_KIND_MEMCPY},
        {"gpu_memset", EV_KIND_MEMSET},   {"Memset", EV_KIND_MEMSET},
        {"cpu_op", EV_KIND_CPU_OP},       {"Operator", EV_KIND_CPU_OP},
        {"cuda_runtime", EV_KIND_RUNTIME}, {"Runtime", EV_KIND_RUNTIME},
        {"mtia_runtime", EV_KIND_RUNTIME},
        {"cuda_driver", EV_KIND_DRIVER},
        {"user_annotation", EV_KIND_USER_ANNOTATION},
        {"gpu_user_annotation", EV_KIND_GPU_USER_ANNOTATION},
        {"cuda_sync", EV_KIND_SYNC},
        {"python_function", EV_KIND_PYTHON},
        {"Trace", EV_KIND_TRACE_SPAN},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (str_is(cat, len, table[i].cat))
            return table[i].kind;
    return EV_KIND_OTHER;
}

int rank_builder_init(struct rank_builder *b)
{
    memset(b, 0, sizeof *b);
    b->ids_index = UINT64_MAX;
    b->corr_lo = UINT32_MAX;
    if (strtab_init(&b->strings) || hmap_init(&b->pidtid_of, 64) || hmap_init(&b->cat_of, 32)) {
        rank_builder_fini(b);
        return ERR_NOMEM;
    }
    return 0;
}

/* Fewer events than fill a few huge pages are not worth a guess. */
#define EXPECT_MIN_EVENTS (((size_t)4 << 20) / sizeof(struct event))

void rank_builder_expect(struct rank_builder *b, uint64_t events)
{
    if (b->events || events < EXPECT_MIN_EVENTS || events > SIZE_MAX / sizeof *b->events)
        return;
    b->events = util_alloc_huge((size_t)events, sizeof *b->events);
    b->events_cap = b->events ? (size_t)events : 0;
}

void rank_builder_fini(struct rank_builder *b)
{
    strtab_fini(&b->strings);
    free(b->events);
    free(b->bw);
    free(b->comm);
    free(b->flows);
    free(b->tail_flows);
    free(b->tail_threads);
    free(b->names);
    free(b->kind_of_cat);
    free(b->pidtids);
    hmap_fini(&b->pidtid_of);
    free(b->cats);
    hmap_fini(&b->cat_of);
    free(b->source_path);
    for (size_t i = 0; i < b->nwarning_texts; i++)
        free(b->warning_texts[i]);
    memset(b, 0, sizeof *b);
}

void rank_builder_warn(struct rank_builder *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    model_warn_list_add(b->warning_texts, &b->nwarning_texts, &b->nwarnings, fmt, ap);
    va_end(ap);
}

static uint32_t intern_hinted(struct rank_builder *b, struct trace_str s, uint32_t *hint)
{
    uint32_t id = strtab_intern_hinted(&b->strings, s.s ? s.s : "", s.s ? s.len : 0, hint);
    if (id == STRTAB_NONE && !b->error)
        b->error = ERR_NOMEM;
    return id == STRTAB_NONE ? 0 : id;
}

static uint32_t intern(struct rank_builder *b, struct trace_str s)
{
    uint32_t none = STRTAB_NONE;
    return intern_hinted(b, s, &none);
}

static enum ev_kind kind_for(struct rank_builder *b, uint32_t cat_id)
{
    if (cat_id >= b->kind_cap) {
        size_t old = b->kind_cap;
        if (vec_reserve((void **)&b->kind_of_cat, &b->kind_cap, 1, (size_t)cat_id + 1)) {
            b->error = ERR_NOMEM;
            return EV_KIND_OTHER;
        }
        memset(b->kind_of_cat + old, 0xff, b->kind_cap - old);
    }
    if (b->kind_of_cat[cat_id] == 0xff)
        b->kind_of_cat[cat_id] = (unsigned char)model_kind_of_category(
            strtab_str(&b->strings, cat_id), strtab_len(&b->strings, cat_id));
    return (enum ev_kind)b->kind_of_cat[cat_id];
}

/* The index of (pid, tid) in b->pidtids, added if new; UINT32_MAX when out
 * of memory. The previous event's thread is tried first. */
static uint32_t thread_index(struct rank_builder *b, uint32_t pid, uint32_t tid)
{
    if (b->nevents) {
        uint32_t last = b->events[b->nevents - 1].thread;
        if (b->pidtids[last].pid == pid && b->pidtids[last].tid == tid)
            return last;
    }
    int64_t key = (int64_t)((uint64_t)pid << 32 | tid);
    uint32_t at;
    bool added;
    if (hmap_number(&b->pidtid_of, key, (uint32_t)b->npidtids, &at, &added) ||
        (added && VEC_PUSH_SLOT(b->pidtids, b->npidtids, b->pidtids_cap)))
        return UINT32_MAX;
    if (added)
        b->pidtids[b->npidtids++] = (struct pid_tid){pid, tid};
    return at;
}

/* The index of the category with string id cat in b->cats, added if new;
 * UINT32_MAX when out of memory, MODEL_MAX_CATS when there are that many. */
static uint32_t cat_index(struct rank_builder *b, uint32_t cat)
{
    if (b->nevents && b->cats[b->events[b->nevents - 1].cat] == cat)
        return b->events[b->nevents - 1].cat;
    uint32_t *known = hmap_get(&b->cat_of, cat);
    if (known)
        return *known;
    if (b->ncats == MODEL_MAX_CATS)
        return MODEL_MAX_CATS;
    if (VEC_PUSH_SLOT(b->cats, b->ncats, b->cats_cap) ||
        hmap_put(&b->cat_of, cat, (uint32_t)b->ncats))
        return UINT32_MAX;
    b->cats[b->ncats] = cat;
    return (uint32_t)b->ncats++;
}

static int add_flow(struct rank_builder *b, const struct trace_event *ev)
{
    if (!ev->flow_id.present || !ev->ts.present)
        return 0;
    uint32_t pid = intern_hinted(b, ev->pid, &b->hint[HINT_PID]);
    uint32_t tid = intern_hinted(b, ev->tid, &b->hint[HINT_TID]);
    b->ids_index = ev->index;
    b->ids[HINT_NAME] = b->ids[HINT_CAT] = UINT32_MAX;
    b->ids[HINT_PID] = pid;
    b->ids[HINT_TID] = tid;
    uint32_t thread = thread_index(b, pid, tid);
    if (thread == UINT32_MAX || VEC_PUSH_SLOT(b->flows, b->nflows, b->flows_cap))
        return ERR_NOMEM;
    b->flows[b->nflows++] = (struct flow_rec){
        .id = ev->flow_id.v, .ts = ev->ts.ns, .thread = thread, .is_start = ev->ph == TRACE_PH_FLOW_S};
    return 0;
}

static int add_name(struct rank_builder *b, const struct trace_event *ev)
{
    bool is_thread = ev->has_name && str_is(ev->name.s, ev->name.len, "thread_name");
    bool is_process = ev->has_name && str_is(ev->name.s, ev->name.len, "process_name");
    if ((!is_thread && !is_process) || !ev->arg_name.s)
        return 0;
    if (VEC_PUSH_SLOT(b->names, b->nnames, b->names_cap))
        return ERR_NOMEM;
    b->names[b->nnames++] = (struct name_rec){
        .pid = intern(b, ev->pid), .tid = is_thread ? intern(b, ev->tid) : 0,
        .name = intern(b, ev->arg_name), .is_thread = is_thread};
    return 0;
}

static bool has_comm_args(const struct trace_event *ev)
{
    return ev->coll_name.s || ev->pg_name.s || ev->pg_ranks.s || ev->dtype.s ||
           ev->group_size.present || ev->in_nelems.present || ev->out_nelems.present ||
           ev->seq.present || ev->seq_lower.present;
}

static int64_t nonneg_or_absent(struct trace_int v)
{
    return v.present && v.v >= 0 ? v.v : -1;
}

static int add_comm_args(struct rank_builder *b, const struct trace_event *ev)
{
    if (VEC_PUSH_SLOT(b->comm, b->ncomm, b->comm_cap))
        return ERR_NOMEM;
    b->comm[b->ncomm++] = (struct comm_args){
        .pos = (uint32_t)(b->nevents - 1),
        .coll_name = ev->coll_name.s ? intern(b, ev->coll_name) : 0,
        .pg_name = ev->pg_name.s ? intern(b, ev->pg_name) : 0,
        .pg_ranks = ev->pg_ranks.s ? intern(b, ev->pg_ranks) : 0,
        .dtype = ev->dtype.s ? intern(b, ev->dtype) : 0,
        .group_size = nonneg_or_absent(ev->group_size),
        .in_nelems = nonneg_or_absent(ev->in_nelems),
        .out_nelems = nonneg_or_absent(ev->out_nelems),
        .seq = ev->seq.present ? nonneg_or_absent(ev->seq) : nonneg_or_absent(ev->seq_lower)};
    return 0;
}

/* HTA keeps any element with both dur and cat (spec §1.3), whatever its ph. */
static int add_event(struct rank_builder *b, const struct trace_event *ev, struct err *e)
{
    if (!ev->ts.present) {
        b->dropped++;
        rank_builder_warn(b, "event %llu: has dur and cat but no numeric ts; skipped",
                          (unsigned long long)ev->index);
        return 0;
    }
    if (ev->ts.ns <= -MODEL_TIME_LIMIT_NS || ev->ts.ns >= MODEL_TIME_LIMIT_NS ||
        ev->dur.ns <= -MODEL_DUR_LIMIT_NS || ev->dur.ns >= MODEL_DUR_LIMIT_NS) {
        b->dropped++;
        rank_builder_warn(b, "event %llu: ts or dur beyond what a profiler writes "
                          "(146 years); skipped", (unsigned long long)ev->index);
        return 0;
    }
    /* A negative duration is not something a profiler measures; kept, it
     * would make minimums and busy times negative. Skipped like the other
     * out-of-range values (both semantics). */
    if (ev->dur.ns < 0) {
        b->dropped++;
        rank_builder_warn(b, "event %llu: negative dur; skipped", (unsigned long long)ev->index);
        return 0;
    }
    if (ev->index > UINT32_MAX - 1)
        return err_set(e, ERR_LIMIT, "more than %u events in one file", UINT32_MAX - 1);
    uint32_t name = intern_hinted(b, ev->name, &b->hint[HINT_NAME]);
    uint32_t cat_id = intern_hinted(b, ev->cat, &b->hint[HINT_CAT]);
    uint32_t pid = intern_hinted(b, ev->pid, &b->hint[HINT_PID]);
    uint32_t tid = intern_hinted(b, ev->tid, &b->hint[HINT_TID]);
    b->ids_index = ev->index;
    b->ids[HINT_NAME] = name;
    b->ids[HINT_CAT] = cat_id;
    b->ids[HINT_PID] = pid;
    b->ids[HINT_TID] = tid;
    uint32_t thread = thread_index(b, pid, tid), cat = cat_index(b, cat_id);
    if (b->error || thread == UINT32_MAX || cat == UINT32_MAX)
        return err_set(e, ERR_NOMEM, "out of memory interning names");
    if (cat == MODEL_MAX_CATS) {
        b->dropped++;
        rank_builder_warn(b, "event %llu: a category beyond the first %u distinct ones; skipped",
                          (unsigned long long)ev->index, MODEL_MAX_CATS);
        return 0;
    }
    if (VEC_PUSH_SLOT(b->events, b->nevents, b->events_cap))
        return err_set(e, ERR_NOMEM, "out of memory after %zu events", b->nevents);
    if (b->nevents == b->events_populated) {
        size_t upto = b->nevents + POPULATE_EVENTS < b->events_cap ? b->nevents + POPULATE_EVENTS
                                                                   : b->events_cap;
        util_populate(b->events + b->nevents, (upto - b->nevents) * sizeof *b->events);
        b->events_populated = upto;
    }
    struct event *out = &b->events[b->nevents++];
    out->ts = ev->ts.ns;
    out->dur = ev->dur.ns;
    bool has_corr = ev->correlation.present && ev->correlation.v != -1;
    if (has_corr && (ev->correlation.v < 0 || ev->correlation.v > UINT32_MAX)) {
        b->repaired++;
        rank_builder_warn(b, "event %llu: correlation %lld is not a 32-bit id; read as none",
                          (unsigned long long)ev->index, (long long)ev->correlation.v);
        has_corr = false;
    }
    bool has_stream = ev->stream.present;
    if (has_stream && (ev->stream.v < INT32_MIN || ev->stream.v > INT32_MAX)) {
        b->repaired++;
        rank_builder_warn(b, "event %llu: stream %lld is beyond 32 bits; read as none",
                          (unsigned long long)ev->index, (long long)ev->stream.v);
        has_stream = false;
    }
    out->corr = has_corr ? (uint32_t)ev->correlation.v : 0;
    if (has_corr) {
        b->corr_lo = out->corr < b->corr_lo ? out->corr : b->corr_lo;
        b->corr_hi = out->corr > b->corr_hi ? out->corr : b->corr_hi;
        b->ncorr++;
    }
    out->stream = has_stream ? (int32_t)ev->stream.v : -1;
    out->name = name;
    out->thread = thread;
    out->cat = (uint16_t)cat;
    out->index = (uint32_t)ev->index;
    out->partner = MODEL_NONE;
    out->iteration = MODEL_ITER_NONE;
    out->kind = (uint8_t)kind_for(b, cat_id);
    out->flags = (uint8_t)((ev->ph == TRACE_PH_X ? EV_FLAG_COMPLETE : 0) |
                           (ev->ts.is_float ? EV_FLAG_TS_FLOAT : 0) |
                           (has_stream ? EV_FLAG_HAS_STREAM : 0) |
                           (has_corr ? EV_FLAG_HAS_CORR : 0) |
                           (ev->has_mem_bw ? EV_FLAG_HAS_BW : 0) |
                           (has_comm_args(ev) ? EV_FLAG_HAS_COMM : 0));
    if (ev->has_mem_bw) {
        if (VEC_PUSH_SLOT(b->bw, b->nbw, b->bw_cap))
            return err_set(e, ERR_NOMEM, "out of memory after %zu events", b->nevents);
        b->bw[b->nbw++] = (struct bw_entry){(uint32_t)(b->nevents - 1), ev->mem_bw_gbps};
    }
    if ((out->flags & EV_FLAG_HAS_COMM) && add_comm_args(b, ev))
        return err_set(e, ERR_NOMEM, "out of memory after %zu events", b->nevents);
    if (ev->ph == TRACE_PH_X) {
        b->complete_events++;
        b->complete_by_kind[out->kind]++;
    }
    if (b->error)
        return err_set(e, b->error, "out of memory interning names");
    return 0;
}

static int sink_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    struct rank_builder *b = ctx;
    b->elements++;
    if (ev->ts.present && ev->ts.is_float)
        b->has_float_ts = true;
    int rc = 0;
    if (ev->dur.present && ev->has_cat)
        rc = add_event(b, ev, e);
    else if (ev->ph == TRACE_PH_FLOW_S || ev->ph == TRACE_PH_FLOW_F)
        rc = add_flow(b, ev);
    else if (ev->ph == TRACE_PH_M)
        rc = add_name(b, ev);
    if (rc && !e->code)
        err_set(e, rc, "out of memory");
    return rc;
}

static void sink_warning(void *ctx, const struct trace_warning *w)
{
    struct rank_builder *b = ctx;
    b->elements++;
    b->dropped++;
    rank_builder_warn(b, "event %llu (byte %llu): %s; skipped", (unsigned long long)w->index,
                      (unsigned long long)w->offset, w->what);
}

static int sink_meta(void *ctx, const struct trace_meta *m, struct err *e)
{
    struct rank_builder *b = ctx;
    b->meta = *m;
    b->meta.source_path = (struct trace_str){NULL, 0};   // borrowed: copied below
    b->has_meta = true;
    free(b->source_path);
    b->source_path = m->source_path.s ? strndup(m->source_path.s, m->source_path.len) : NULL;
    if (m->source_path.s && !b->source_path)
        return err_set(e, ERR_NOMEM, "out of memory");
    return 0;
}

static int sink_progress(void *ctx, uint64_t bytes)
{
    struct rank_builder *b = ctx;
    return b->progress ? b->progress(b->progress_ctx, bytes) : 0;
}

const uint32_t *rank_builder_event_ids(void *ctx, uint64_t index)
{
    const struct rank_builder *b = ctx;
    return !b->error && b->ids_index == index ? b->ids : NULL;
}

void rank_builder_sink(struct rank_builder *b, struct trace_sink *out)
{
    out->ctx = b;
    out->event = sink_event;
    out->warning = sink_warning;
    out->meta = sink_meta;
    out->progress = sink_progress;
}

/* ---- joining the builder of a file's second half ------------------------- */

/* Whether t's categories fit beside b's: the sequential read would have
 * skipped the extra ones with a warning. Looks only; b is unchanged. */
static bool cats_fit(const struct rank_builder *b, const struct rank_builder *t)
{
    size_t added = 0;
    for (size_t k = 0; k < t->ncats; k++) {
        uint32_t id = strtab_find(&b->strings, strtab_str(&t->strings, t->cats[k]),
                                  strtab_len(&t->strings, t->cats[k]));
        if (id == STRTAB_NONE || !hmap_get(&b->cat_of, id))
            added++;
    }
    return b->ncats + added <= MODEL_MAX_CATS;
}

/* t's ids in b: strings (in t's order, which is the order a sequential read
 * would have met the new ones in), threads and categories. */
static int map_tables(struct rank_builder *b, const struct rank_builder *t, uint32_t **strs,
                      uint32_t **threads, uint32_t **cats)
{
    size_t ns = strtab_count(&t->strings);
    *strs = malloc((ns ? ns : 1) * sizeof **strs);
    *threads = malloc((t->npidtids ? t->npidtids : 1) * sizeof **threads);
    *cats = malloc((t->ncats ? t->ncats : 1) * sizeof **cats);
    if (!*strs || !*threads || !*cats)
        return ERR_NOMEM;
    for (size_t i = 0; i < ns; i++) {
        (*strs)[i] = strtab_intern(&b->strings, strtab_str(&t->strings, (uint32_t)i),
                                   strtab_len(&t->strings, (uint32_t)i));
        if ((*strs)[i] == STRTAB_NONE)
            return ERR_NOMEM;
    }
    for (size_t k = 0; k < t->npidtids; k++) {
        uint32_t pid = (*strs)[t->pidtids[k].pid], tid = (*strs)[t->pidtids[k].tid];
        int64_t key = (int64_t)((uint64_t)pid << 32 | tid);
        bool added;
        if (hmap_number(&b->pidtid_of, key, (uint32_t)b->npidtids, &(*threads)[k], &added) ||
            (added && VEC_PUSH_SLOT(b->pidtids, b->npidtids, b->pidtids_cap)))
            return ERR_NOMEM;
        if (added)
            b->pidtids[b->npidtids++] = (struct pid_tid){pid, tid};
    }
    for (size_t k = 0; k < t->ncats; k++) {
        uint32_t id = (*strs)[t->cats[k]], *known = hmap_get(&b->cat_of, id);
        if (known) {
            (*cats)[k] = *known;
            continue;
        }
        if (VEC_PUSH_SLOT(b->cats, b->ncats, b->cats_cap) ||
            hmap_put(&b->cat_of, id, (uint32_t)b->ncats))
            return ERR_NOMEM;
        b->cats[b->ncats] = id;
        (*cats)[k] = (uint32_t)b->ncats++;
    }
    return 0;
}

/* Shrinks *array to its first `keep` elements of `size` bytes (at least one
 * element), giving the rest back; left as it is when realloc fails. */
static void give_back(void **array, size_t *cap, size_t keep, size_t size)
{
    void *smaller = realloc(*array, (keep ? keep : 1) * size);
    if (smaller) {
        *array = smaller;
        *cap = keep ? keep : 1;
    }
}

void rank_builder_fit_events(struct rank_builder *b)
{
    if (!b->events)
        return;
    if (b->events_cap > b->nevents)
        give_back((void **)&b->events, &b->events_cap, b->nevents, sizeof *b->events);
    b->events_populated = b->nevents < b->events_populated ? b->nevents : b->events_populated;
    util_huge_written(b->events, b->nevents * sizeof *b->events);
}

/* Keeps t's flows apart, behind b's, with t's threads as they are and
 * their map to b's, *threads, which it takes (rank_builder_flow reads them
 * in place): a quarter of a file's elements, which only a trace with GPU
 * events lacking correlation reads, so the join neither copies nor reads
 * them. */
static int keep_tail_flows(struct rank_builder *b, struct rank_builder *t, uint32_t **threads)
{
    if (!t->nflows)
        return 0;
    if (b->ntail_flows) {   /* a builder keeps one half apart: a later one is appended */
        if (vec_reserve((void **)&b->flows, &b->flows_cap, sizeof *b->flows,
                        b->nflows + t->nflows))
            return ERR_NOMEM;
        for (size_t i = 0; i < t->nflows; i++) {
            b->flows[b->nflows + i] = t->flows[i];
            b->flows[b->nflows + i].thread = (*threads)[t->flows[i].thread];
        }
        b->nflows += t->nflows;
        t->nflows = 0;
        return 0;
    }
    give_back((void **)&t->flows, &t->flows_cap, t->nflows, sizeof *t->flows);
    b->tail_flows = t->flows;
    b->ntail_flows = t->nflows;
    b->tail_at = b->nflows;
    b->tail_threads = *threads;
    *threads = NULL;
    t->flows = NULL;
    t->nflows = t->flows_cap = 0;
    return 0;
}

size_t rank_builder_nflows(const struct rank_builder *b)
{
    return b->nflows + b->ntail_flows;
}

struct flow_rec rank_builder_flow(const struct rank_builder *b, size_t i)
{
    if (i < b->tail_at || !b->ntail_flows)
        return b->flows[i];
    if (i - b->tail_at >= b->ntail_flows)
        return b->flows[i - b->ntail_flows];
    struct flow_rec f = b->tail_flows[i - b->tail_at];
    f.thread = b->tail_threads[f.thread];
    return f;
}

void rank_builder_drop_flows(struct rank_builder *b)
{
    free(b->flows);
    free(b->tail_flows);
    free(b->tail_threads);
    b->tail_threads = NULL;
    b->flows = b->tail_flows = NULL;
    b->nflows = b->flows_cap = b->ntail_flows = b->tail_at = 0;
}

/* Bytes of t's events a task of the join moves: whole huge pages. */
#define MOVE_SLICE_BYTES ((size_t)2 << 20)

struct move_run {
    struct event *to;              /* where t's first event goes */
    const struct event *from;      /* t's events */
    size_t n;
    size_t first_edge;             /* the first slice's end, in bytes from `from` */
    struct event *across;          /* [k]: the event across slice k's start, if any */
    const uint32_t *strs, *threads, *cats;
    uint32_t first_index;
};

static void move_one(const struct move_run *m, size_t i, struct event ev)
{
    ev.name = m->strs[ev.name];
    ev.thread = m->threads[ev.thread];
    ev.cat = (uint16_t)m->cats[ev.cat];
    ev.index += m->first_index;
    m->to[i] = ev;
}

/* Where slice k of t's array starts, in bytes from its start: slices after
 * the first start at a multiple of MOVE_SLICE_BYTES in memory. */
static size_t slice_edge(const struct move_run *m, size_t k)
{
    size_t bytes = m->n * sizeof *m->from;
    if (k == 0)
        return 0;
    size_t at = m->first_edge + (k - 1) * MOVE_SLICE_BYTES;
    return at < bytes ? at : bytes;
}

/* Moves the events that start in slice k of t's array, renumbered, and
 * gives the slice's pages back: the arrays never hold the second half
 * twice, and the pages the next slices are written to are mostly those
 * given back (a page the system never gave before costs several times
 * more). Slices are independent, so both cores move them at once
 * (pool_run), the core that read the second half being idle; an event
 * across the slice's end is read from the copy made before (m->across),
 * since the next slice may have given its end back. */
static int move_slice(void *ctx, size_t k)
{
    struct move_run *m = ctx;
    const size_t size = sizeof *m->from;
    size_t from = slice_edge(m, k), to = slice_edge(m, k + 1);
    size_t lo = (from + size - 1) / size, hi = to / size;
    util_populate(m->to + lo, (hi - lo) * sizeof *m->to);
    for (size_t i = lo; i < hi; i++)
        move_one(m, i, m->from[i]);
    if (to % size)
        move_one(m, hi, m->across[k + 1]);
    util_release((char *)m->from + from, to - from);
    return 0;
}

/* Moves t's events behind b's, renumbered. */
static int move_events(struct rank_builder *b, struct rank_builder *t, const uint32_t *strs,
                       const uint32_t *threads, const uint32_t *cats, uint32_t first_index)
{
    size_t base = b->nevents;
    if (vec_reserve((void **)&b->events, &b->events_cap, sizeof *b->events,
                    base + t->nevents + 1))
        return ERR_NOMEM;
    if (!t->nevents)
        return 0;
    struct move_run m = {b->events + base, t->events, t->nevents, 0, NULL, strs, threads, cats,
                         first_index};
    uintptr_t at = (uintptr_t)t->events, align = MOVE_SLICE_BYTES - 1;
    m.first_edge = (size_t)(((at + align) & ~align) - at);
    size_t slices = 1;
    while (slice_edge(&m, slices) < m.n * sizeof *m.from)
        slices++;
    if (!(m.across = malloc((slices + 1) * sizeof *m.across)))
        return ERR_NOMEM;
    for (size_t k = 1; k < slices; k++)
        m.across[k] = m.from[slice_edge(&m, k) / sizeof *m.from];
    pool_run(slices, 2, move_slice, &m);
    free(m.across);
    free(t->events);
    t->events = NULL;
    t->nevents = t->events_cap = 0;
    b->nevents = base + m.n;
    b->events_populated = b->nevents;
    return 0;
}

static int move_side_tables(struct rank_builder *b, const struct rank_builder *t,
                            const uint32_t *strs, size_t base)
{
    if (vec_reserve((void **)&b->bw, &b->bw_cap, sizeof *b->bw, b->nbw + t->nbw) ||
        vec_reserve((void **)&b->comm, &b->comm_cap, sizeof *b->comm, b->ncomm + t->ncomm) ||
        vec_reserve((void **)&b->names, &b->names_cap, sizeof *b->names, b->nnames + t->nnames))
        return ERR_NOMEM;
    for (size_t i = 0; i < t->nbw; i++)
        b->bw[b->nbw++] = (struct bw_entry){(uint32_t)(t->bw[i].pos + base), t->bw[i].gbps};
    for (size_t i = 0; i < t->ncomm; i++) {
        struct comm_args c = t->comm[i];
        c.pos = (uint32_t)(c.pos + base);
        c.coll_name = strs[c.coll_name];
        c.pg_name = strs[c.pg_name];
        c.pg_ranks = strs[c.pg_ranks];
        c.dtype = strs[c.dtype];
        b->comm[b->ncomm++] = c;
    }
    for (size_t i = 0; i < t->nnames; i++) {
        struct name_rec n = t->names[i];
        n.pid = strs[n.pid];
        n.tid = n.is_thread ? strs[n.tid] : 0;
        n.name = strs[n.name];
        b->names[b->nnames++] = n;
    }
    return 0;
}

int rank_builder_adopt(struct rank_builder *b, struct rank_builder *t, uint64_t first_index,
                       struct err *e)
{
    if (t->error || t->nwarnings || b->error || first_index > UINT32_MAX - 1 ||
        t->elements > UINT32_MAX - 1 - first_index || !cats_fit(b, t))
        return 1;
    uint32_t *strs = NULL, *threads = NULL, *cats = NULL;
    size_t base = b->nevents;
    int rc = map_tables(b, t, &strs, &threads, &cats);
    if (rc == 0)
        rc = move_side_tables(b, t, strs, base);
    if (rc == 0)
        rc = move_events(b, t, strs, threads, cats, (uint32_t)first_index);
    if (rc == 0)
        rc = keep_tail_flows(b, t, &threads);   // (takes threads)
    free(strs);
    free(threads);
    free(cats);
    if (rc)
        return err_set(e, ERR_NOMEM, "out of memory joining the halves of the file");
    b->elements += t->elements;
    b->has_float_ts |= t->has_float_ts;
    b->corr_lo = t->corr_lo < b->corr_lo ? t->corr_lo : b->corr_lo;
    b->corr_hi = t->corr_hi > b->corr_hi ? t->corr_hi : b->corr_hi;
    b->ncorr += t->ncorr;
    b->complete_events += t->complete_events;
    for (int k = 0; k < EV_KIND_COUNT; k++)
        b->complete_by_kind[k] += t->complete_by_kind[k];
    return 0;
}
