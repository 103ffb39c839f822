#include "config.h"
#include "model/model.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/build.h"
#include "trace/read.h"
#include "trace/discover.h"
#include "trace/pack.h"
#include "util/hmap.h"
#include "util/memory.h"
#include "util/pool.h"
#include "util/str.h"
#include "util/vec.h"

/* One file to load: either a path or an in-memory buffer. */
struct load_job {
    const char *path;
    const void *buf;
    size_t len;
    uint64_t size;
    struct rank_builder b;
    int rc;
    struct err err;
    uint64_t bytes_read;
    uint64_t events;          /* kept so far (the builder's count at its last report) */
    struct rank_model rank;   /* built by the worker, names still in b.strings */
    bool from_cache;          /* read from the summary opts->cached gave */
    double progress_scale;    /* bytes of the file read for bytes of the trace, or 0 */
    size_t spans_from, threads_from, names_from;   /* handed to opts->spans so far */
    struct loader *loader;
};

struct loader {
    struct load_job *jobs;
    size_t njobs;
    size_t next;
    size_t done;
    uint64_t total_bytes;
    bool cancelled;
    bool read_ahead;          /* more threads than files: gzip files inflate ahead */
    pthread_mutex_t lock;
    const struct load_opts *opts;
    const struct semantics *sem;
};

static int report_progress_locked(struct loader *l)
{
    if (!l->opts || !l->opts->progress)
        return 0;
    struct load_progress p = {0, l->total_bytes, l->done, l->njobs, 0};
    for (size_t i = 0; i < l->njobs; i++) {
        p.bytes_read += l->jobs[i].bytes_read;
        p.events += l->jobs[i].events;
    }
    if (l->opts->progress(l->opts->progress_ctx, &p))
        l->cancelled = true;
    return l->cancelled;
}

/* Hands opts->spans the builder's events, threads and thread names kept
 * since the last batch, a chunk at a time (on the file's loading thread:
 * the builder is its own). */
static void hand_spans(struct load_job *j)
{
    enum { CHUNK = 1024 };
    const struct load_opts *o = j->loader->opts;
    struct rank_builder *b = &j->b;
    struct load_span spans[CHUNK];
    struct load_thread threads[64];
    struct load_thread_name names[16];
    struct load_batch batch = {.file = (size_t)(j - j->loader->jobs), .spans = spans};
    while (j->threads_from < b->npidtids || j->names_from < b->nnames ||
           j->spans_from < b->nevents) {
        batch.nthreads = batch.nnames = batch.nspans = 0;
        for (; j->threads_from < b->npidtids && batch.nthreads < 64; j->threads_from++)
            threads[batch.nthreads++] = (struct load_thread){
                (uint32_t)j->threads_from, strtab_str(&b->strings, b->pidtids[j->threads_from].pid),
                strtab_str(&b->strings, b->pidtids[j->threads_from].tid)};
        for (; j->names_from < b->nnames && batch.nnames < 16; j->names_from++) {
            const struct name_rec *n = &b->names[j->names_from];
            if (n->is_thread)
                names[batch.nnames++] = (struct load_thread_name){
                    strtab_str(&b->strings, n->pid), strtab_str(&b->strings, n->tid),
                    strtab_str(&b->strings, n->name)};
        }
        // (a span's thread is always named in an earlier batch or its own)
        for (; j->threads_from == b->npidtids && j->spans_from < b->nevents &&
               batch.nspans < CHUNK; j->spans_from++) {
            const struct event *ev = &b->events[j->spans_from];
            if (ev->dur <= 0 || ev->kind == EV_KIND_TRACE_SPAN)
                continue;
            bool gpu = ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY ||
                       ev->kind == EV_KIND_MEMSET;
            int64_t lane = gpu ? (int64_t)ev->stream : (int64_t)ev->thread;
            spans[batch.nspans++] = (struct load_span){ev->ts, ev->ts + ev->dur, lane, gpu};
        }
        batch.threads = threads;
        batch.names = names;
        o->spans(o->spans_ctx, &batch);
    }
}

static int job_progress(void *ctx, uint64_t bytes)
{
    struct load_job *j = ctx;
    struct loader *l = j->loader;
    if (l->opts && l->opts->spans)
        hand_spans(j);
    size_t events = j->b.nevents;   // the job's own thread: no race with its builder
    pthread_mutex_lock(&l->lock);
    j->bytes_read = j->progress_scale > 0 ? (uint64_t)((double)bytes * j->progress_scale) : bytes;
    j->events = events;
    int cancel = report_progress_locked(l);
    pthread_mutex_unlock(&l->lock);
    return cancel;
}

static int take_builder(struct rank_model *r, struct rank_builder *b, const char *path,
                        bool from_cache, struct err *e)
{
    rank_builder_fit_events(b);
    r->names = calloc(b->nnames ? b->nnames : 1, sizeof *r->names);
    bool packed = b->source_path && !from_cache;
    r->path = strdup(packed ? b->source_path : path);
    r->summary_path = packed ? strdup(path) : NULL;
    r->summary_stale = packed && b->meta.source_state == TRACE_SOURCE_STALE;
    r->from_cache = from_cache;
    if (!r->names || !r->path || (packed && !r->summary_path))
        return err_set(e, ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < b->nnames; i++)
        r->names[i] = (struct proc_name){b->names[i].pid, b->names[i].tid, b->names[i].name,
                                         b->names[i].is_thread};
    r->nnames = b->nnames;
    r->events = b->events;
    r->nevents = b->nevents;
    b->events = NULL;
    b->nevents = b->events_cap = 0;
    r->bw = b->bw;
    r->nbw = b->nbw;
    b->bw = NULL;
    b->nbw = b->bw_cap = 0;
    r->comm = b->comm;
    r->ncomm = b->ncomm;
    b->comm = NULL;
    b->ncomm = b->comm_cap = 0;
    r->elements = b->elements;
    r->corr_lo = b->corr_lo;
    r->corr_hi = b->corr_hi;
    r->ncorr = b->ncorr;
    memcpy(r->complete_by_kind, b->complete_by_kind, sizeof r->complete_by_kind);
    r->complete_events = b->complete_events;
    r->has_float_ts = b->has_float_ts;
    r->world_size = b->meta.has_world_size ? b->meta.world_size : -1;
    r->base_time_ns = b->meta.has_base_time ? b->meta.base_time_ns : 0;
    memcpy(r->device_name, b->meta.device_name, sizeof r->device_name);
    memcpy(r->backend, b->meta.backend, sizeof r->backend);
    memcpy(r->pgs, b->meta.pgs, sizeof r->pgs);
    r->npgs = b->meta.npgs;
    r->device_name[sizeof r->device_name - 1] = '\0';
    r->backend[sizeof r->backend - 1] = '\0';
    r->nwarnings = b->nwarnings;
    r->events_dropped = b->dropped;
    r->events_repaired = b->repaired;
    for (size_t i = 0; i < b->nwarning_texts; i++) {
        r->warning_texts[i] = b->warning_texts[i];
        b->warning_texts[i] = NULL;
    }
    r->nwarning_texts = b->nwarning_texts;
    b->nwarning_texts = 0;
    return 0;
}

/* Runs in the loading thread: everything per rank that needs no other rank
 * (linking, iterations, device) works on the builder's own string ids, so
 * ranks finish in parallel; collect() translates the ids afterwards. */
static int finish_in_worker(struct load_job *j, const struct semantics *sem)
{
    int rc = take_builder(&j->rank, &j->b, j->path, j->from_cache, &j->err);
    if (rc)
        return rc;
    struct model local;
    memset(&local, 0, sizeof local);
    local.sem = *sem;
    local.strings = j->b.strings;   /* read-only views of the builder's tables */
    local.pidtids = j->b.pidtids;
    local.npidtids = j->b.npidtids;
    local.cats = j->b.cats;
    local.ncats = j->b.ncats;
    rc = model_finish_rank(&local, &j->rank, &j->b, &j->err);
    // The flows served the linking: a quarter of a trace's elements, whose
    // memory the selection that follows can use.
    rank_builder_drop_flows(&j->b);
    return rc;
}

/* About how many events the job's file holds at most, for its builders
 * (rank_builder_expect): a trace's events take 200 to 500 bytes of JSON
 * each, and it deflates about twentyfold; no more than a quarter of the
 * memory would hold. A summary holds the events of its trace, whose size
 * the job has. */
static uint64_t expected_events(const struct load_job *j)
{
    uint64_t bytes = j->size;
    if (!j->buf && str_ends_with(j->path, ".gz"))
        bytes = bytes > UINT64_MAX / 20 ? UINT64_MAX : bytes * 20;
    uint64_t most = util_physical_memory() / 4 / sizeof(struct event);
    return bytes / 160 < most ? bytes / 160 : most;
}

static int start_builder(struct load_job *j, struct trace_sink *sink)
{
    int rc = rank_builder_init(&j->b);
    if (rc)
        return err_set(&j->err, rc, "%s: out of memory", j->path);
    rank_builder_expect(&j->b, expected_events(j));
    j->b.progress = job_progress;
    j->b.progress_ctx = j;
    j->spans_from = j->threads_from = j->names_from = 0;   // (a builder fresh again)
    rank_builder_sink(&j->b, sink);
    return 0;
}

/* The second half of a large file or of a summary's events, read by a
 * thread of its own; packed by a recorder of its own when the file is. */
struct tail_half {
    struct rank_builder *b, tail;
    struct trace_pack *pack, *second;
};

static int adopt_tail(void *ctx, uint64_t first_index, struct err *e)
{
    struct tail_half *t = ctx;
    int rc = rank_builder_adopt(t->b, &t->tail, first_index, e);
    if (rc == 0 && t->pack && trace_pack_adopt(t->pack, t->second, first_index) != 0)
        rc = err_set(e, ERR_NOMEM, "out of memory");
    return rc;
}

/* A core no file needs reads the second half of a large file or of a
 * summary's events (trace_read_file_split); the builders (and the packs,
 * with pack) join where the halves meet. path is the job's file or the
 * summary standing in for it. */
static int read_split(struct load_job *j, const char *path, const struct trace_sink *sink,
                      const struct trace_limits *lim, struct trace_pack *pack)
{
    struct tail_half t = {.b = &j->b, .pack = pack};
    if (rank_builder_init(&t.tail))
        return err_set(&j->err, ERR_NOMEM, "%s: out of memory", j->path);
    rank_builder_expect(&t.tail, expected_events(j));
    struct trace_sink tail_sink, builder_sink;
    rank_builder_sink(&t.tail, &builder_sink);
    tail_sink = builder_sink;
    if (pack) {
        if (!(t.second = trace_pack_new(j->path))) {
            rank_builder_fini(&t.tail);
            return err_set(&j->err, ERR_NOMEM, "%s: out of memory", j->path);
        }
        trace_pack_mark_second(t.second);
        trace_pack_sink(t.second, &builder_sink, &tail_sink);
        trace_pack_reuse_ids(t.second, rank_builder_event_ids, &t.tail);
    }
    struct trace_split_opts split = {&tail_sink, adopt_tail, &t};
    int rc = trace_read_file_split(path, sink, &split, lim, &j->err);
    trace_pack_free(t.second);
    rank_builder_fini(&t.tail);
    return rc;
}

/* Reads the fresh summary the cache has for the file, if any; false when
 * the file is to be read itself (no summary, or one that failed to read:
 * the builder is then fresh again). */
static bool read_cached(struct load_job *j, struct trace_sink *sink,
                        const struct trace_limits *lim)
{
    const struct load_opts *o = j->loader->opts;
    bool summary = str_ends_with(j->path, ".htxs");   // read as it is: it is a pack already
    char why[512] = "";
    char *instead = o && o->cached && !j->buf && !summary
                        ? o->cached(o->cached_ctx, j->path, why, sizeof why)
                        : NULL;
    if (!instead) {
        if (why[0])
            rank_builder_warn(&j->b, "%s", why);
        return false;
    }
    struct stat st;   // progress is in bytes of the cached file: shown as the trace's
    j->progress_scale = stat(instead, &st) == 0 && st.st_size > 0
                            ? (double)j->size / (double)st.st_size : 0;
    j->rc = j->loader->read_ahead ? read_split(j, instead, sink, lim, NULL)
                                  : trace_read_file(instead, sink, lim, &j->err);
    j->progress_scale = 0;
    free(instead);
    if (j->rc == 0 || j->rc == ERR_CANCEL || j->rc == ERR_NOMEM) {
        j->from_cache = j->rc == 0;
        return true;
    }
    rank_builder_fini(&j->b);
    err_clear(&j->err);
    j->rc = start_builder(j, sink);
    return j->rc != 0;
}

/* Reads the trace itself, packing it on the way when opts->packed asks. */
static void read_trace(struct load_job *j, struct trace_sink sink, const struct trace_limits *lim)
{
    const struct load_opts *o = j->loader->opts;
    struct trace_pack *pack = NULL;
    struct trace_sink tee;
    if (o && o->packed && !str_ends_with(j->path, ".htxs")) {
        struct trace_file_size size = {false, false};
        if (!j->buf)
            size = trace_file_size_of(j->path);
        if (!(pack = trace_pack_new(j->path)) ||
            (o->pack_behind &&
             trace_pack_deflate_behind(pack, j->loader->read_ahead && size.large))) {
            trace_pack_free(pack);
            j->rc = err_set(&j->err, ERR_NOMEM, "%s: out of memory", j->path);
            return;
        }
        if (size.small)
            trace_pack_small(pack);
        trace_pack_sink(pack, &sink, &tee);
        trace_pack_reuse_ids(pack, rank_builder_event_ids, &j->b);
        sink = tee;
    }
    if (j->buf)
        j->rc = trace_read_buffer(j->path, j->buf, j->len, &sink, lim, &j->err);
    else if (j->loader->read_ahead)
        j->rc = read_split(j, j->path, &sink, lim, pack);
    else
        j->rc = trace_read_file(j->path, &sink, lim, &j->err);
    if (!j->rc && !j->b.error && pack) {   // a builder error is reported by run_job
        trace_pack_seal(pack);
        j->rc = o->packed(o->packed_ctx, j->path, pack, &j->err);
        pack = NULL;   // the callee's now
    }
    trace_pack_free(pack);
}

static void run_job(struct load_job *j)
{
    struct loader *l = j->loader;
    err_clear(&j->err);
    struct trace_sink sink;
    struct trace_limits lim = {0};
    if (l->opts)
        lim = l->opts->limits;
    lim.read_ahead = l->read_ahead;
    if (!(j->rc = start_builder(j, &sink)) && !read_cached(j, &sink, &lim))
        read_trace(j, sink, &lim);
    if (!j->rc && j->b.error)
        j->rc = err_set(&j->err, j->b.error, "%s: out of memory", j->path);
    // What the last report left: a small file's events, a second half's
    if (!j->rc && l->opts && l->opts->spans)
        hand_spans(j);
    if (!j->rc)
        j->rc = finish_in_worker(j, l->sem);
    pthread_mutex_lock(&l->lock);
    j->bytes_read = j->size;
    j->events = j->rc ? 0 : j->rank.nevents;
    l->done++;
    report_progress_locked(l);
    pthread_mutex_unlock(&l->lock);
}

/* A pool task: one file; non-zero once the load is cancelled. */
static int load_task(void *ctx, size_t i)
{
    struct loader *l = ctx;
    run_job(&l->jobs[i]);
    pthread_mutex_lock(&l->lock);
    bool cancelled = l->cancelled;
    pthread_mutex_unlock(&l->lock);
    return cancelled;
}

static int run_loader(struct loader *l, int threads)
{
    if (threads <= 0)
        threads = pool_cores();
    // A core no file needs inflates gzip ahead of the parsing (one file, two cores).
    l->read_ahead = (size_t)threads > l->njobs;
    pool_run(l->njobs, threads, load_task, l);
    return l->cancelled ? ERR_CANCEL : 0;
}

/* The model's tables of (pid, tid) pairs and categories, which every
 * rank's events index, and the maps that find an entry while ranks join. */
struct shared_tables {
    struct hmap pidtid_of;   /* pid << 32 | tid (model ids) -> index in m->pidtids */
    struct hmap cat_of;      /* string id -> index in m->cats */
    size_t pidtids_cap, cats_cap;
};

/* Maps the builder's thread and category indices (over its string ids,
 * which map takes to the model's) to the model's, adding what is new. */
static int adopt_tables(struct model *m, struct shared_tables *t, const struct rank_builder *b,
                        const uint32_t *map, uint32_t *thread_map, uint32_t *cat_map,
                        struct err *e)
{
    bool added;
    for (size_t i = 0; i < b->npidtids; i++) {
        struct pid_tid pt = {map[b->pidtids[i].pid], map[b->pidtids[i].tid]};
        int64_t key = (int64_t)((uint64_t)pt.pid << 32 | pt.tid);
        if (hmap_number(&t->pidtid_of, key, (uint32_t)m->npidtids, &thread_map[i], &added) ||
            (added && VEC_PUSH_SLOT(m->pidtids, m->npidtids, t->pidtids_cap)))
            return err_set(e, ERR_NOMEM, "out of memory merging threads");
        if (added)
            m->pidtids[m->npidtids++] = pt;
    }
    for (size_t i = 0; i < b->ncats; i++) {
        uint32_t id = map[b->cats[i]];
        if (hmap_number(&t->cat_of, id, (uint32_t)m->ncats, &cat_map[i], &added) ||
            (added && VEC_PUSH_SLOT(m->cats, m->ncats, t->cats_cap)))
            return err_set(e, ERR_NOMEM, "out of memory merging categories");
        if (added && m->ncats == MODEL_MAX_CATS)
            return err_set(e, ERR_LIMIT, "more than %u event categories over the ranks",
                           MODEL_MAX_CATS);
        if (added)
            m->cats[m->ncats++] = id;
    }
    return 0;
}

static bool identity(const uint32_t *map, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (map[i] != i)
            return false;
    return true;
}

/* Translates a worker-built rank's string ids into the model's table. */
static int adopt_rank(struct model *m, struct shared_tables *t, struct load_job *j,
                      struct err *e)
{
    struct rank_builder *b = &j->b;
    struct rank_model *r = &j->rank;
    size_t nlocal = strtab_count(&b->strings);
    uint32_t *map = malloc((nlocal ? nlocal : 1) * sizeof *map);
    if (!map)
        return err_set(e, ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < nlocal; i++) {
        map[i] = strtab_intern(&m->strings, strtab_str(&b->strings, (uint32_t)i),
                               strtab_len(&b->strings, (uint32_t)i));
        if (map[i] == STRTAB_NONE) {
            free(map);
            return err_set(e, ERR_NOMEM, "out of memory merging names");
        }
    }
    uint32_t *thread_map = malloc((b->npidtids ? b->npidtids : 1) * sizeof *thread_map);
    uint32_t *cat_map = malloc((b->ncats ? b->ncats : 1) * sizeof *cat_map);
    int rc = thread_map && cat_map ? adopt_tables(m, t, b, map, thread_map, cat_map, e)
                                   : err_set(e, ERR_NOMEM, "out of memory");
    // The first rank's ids are mostly the model's already: then its events
    // (most of the memory a load touches) are left as they are.
    bool same = rc == 0 && identity(map, nlocal) && identity(thread_map, b->npidtids) &&
                identity(cat_map, b->ncats);
    for (size_t i = 0; i < r->nevents && rc == 0 && !same; i++) {
        struct event *ev = &r->events[i];
        ev->name = map[ev->name];
        ev->thread = thread_map[ev->thread];
        ev->cat = (uint16_t)cat_map[ev->cat];
    }
    free(thread_map);
    free(cat_map);
    if (rc) {
        free(map);
        return rc;
    }
    for (size_t i = 0; i < r->ncomm; i++) {
        struct comm_args *c = &r->comm[i];
        c->coll_name = map[c->coll_name];
        c->pg_name = map[c->pg_name];
        c->pg_ranks = map[c->pg_ranks];
        c->dtype = map[c->dtype];
    }
    for (size_t i = 0; i < r->nnames; i++) {
        r->names[i].pid = map[r->names[i].pid];
        r->names[i].tid = map[r->names[i].tid];
        r->names[i].name = map[r->names[i].name];
    }
    free(map);
    return 0;
}

static void add_failed(struct model *m, const char *path, const char *msg)
{
    struct failed_file *f = realloc(m->failed, (m->nfailed + 1) * sizeof *f);
    if (!f)
        return;
    m->failed = f;
    f[m->nfailed].path = strdup(path);
    f[m->nfailed].message = strdup(msg);
    m->nfailed++;
}

static int cmp_rank(const void *a, const void *b)
{
    const struct rank_model *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* distributedInfo.rank first, then a number in the file name, else the next
 * free number; two files claiming one rank is an error naming both. */
static int assign_ranks(struct model *m, const struct rank_builder *const *builders, struct err *e)
{
    struct hmap owner;   /* rank -> index of the file that claims it */
    if (hmap_init(&owner, m->nranks))
        return err_set(e, ERR_NOMEM, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < m->nranks && !rc; i++) {
        struct rank_model *r = &m->ranks[i];
        const struct trace_meta *meta = &builders[i]->meta;
        long from_name = trace_rank_from_filename(r->path);
        if (meta->has_rank && meta->rank >= 0 && meta->rank <= INT32_MAX) {
            r->rank = meta->rank;
            r->rank_source = RANK_FROM_DISTRIBUTED_INFO;
        } else if (from_name >= 0 && from_name <= INT32_MAX) {
            r->rank = from_name;
            r->rank_source = RANK_FROM_FILE_NAME;
        } else {
            r->rank_source = RANK_DEFAULTED;
            continue;
        }
        uint32_t *other = hmap_get(&owner, r->rank);
        if (other)
            rc = err_set(e, ERR_PARSE, "%s and %s both claim rank %lld",
                         model_rank_file(&m->ranks[*other]), model_rank_file(r),
                         (long long)r->rank);
        else if (hmap_put(&owner, r->rank, (uint32_t)i))
            rc = err_set(e, ERR_NOMEM, "out of memory");
    }
    int64_t candidate = 0;
    for (size_t i = 0; i < m->nranks && !rc; i++) {
        struct rank_model *r = &m->ranks[i];
        if (r->rank_source != RANK_DEFAULTED)
            continue;
        while (hmap_get(&owner, candidate))
            candidate++;
        r->rank = candidate;
        if (hmap_put(&owner, candidate, (uint32_t)i))
            rc = err_set(e, ERR_NOMEM, "out of memory");
        model_rank_warn(r, "no distributedInfo.rank and no rank in the file name: using rank %lld",
                        (long long)candidate);
    }
    hmap_fini(&owner);
    if (!rc)
        qsort(m->ranks, m->nranks, sizeof *m->ranks, cmp_rank);
    return rc;
}

static struct model *model_alloc(const struct semantics *sem, struct err *e)
{
    struct model *m = calloc(1, sizeof *m);
    if (!m || strtab_init(&m->strings)) {
        free(m);
        err_set(e, ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (sem)
        m->sem = *sem;
    else
        semantics_init(&m->sem, SEMANTICS_HTX);
    return m;
}

/* Turns finished jobs into ranks; jobs that failed become failed files. */
static struct model *collect(struct load_job *jobs, size_t njobs, const struct semantics *sem,
                             bool rows_only, struct err *e)
{
    struct model *m = model_alloc(sem, e);
    if (m)
        m->rows_only = rows_only;
    const struct rank_builder **builders = calloc(njobs ? njobs : 1, sizeof *builders);
    m = m && builders ? m : (model_free(m), NULL);
    if (!m) {
        free(builders);
        err_set(e, ERR_NOMEM, "out of memory");
        return NULL;
    }
    m->ranks = calloc(njobs ? njobs : 1, sizeof *m->ranks);
    struct shared_tables shared = {0};
    int rc = m->ranks && !hmap_init(&shared.pidtid_of, 64) && !hmap_init(&shared.cat_of, 32)
                 ? 0
                 : err_set(e, ERR_NOMEM, "out of memory");
    struct err first = {0, ""};
    for (size_t i = 0; i < njobs && !rc; i++) {
        if (jobs[i].rc) {
            if (!first.code)
                first = jobs[i].err;
            add_failed(m, jobs[i].path, jobs[i].err.msg);
            continue;
        }
        builders[m->nranks] = &jobs[i].b;
        rc = adopt_rank(m, &shared, &jobs[i], e);
        m->ranks[m->nranks++] = jobs[i].rank;
        memset(&jobs[i].rank, 0, sizeof jobs[i].rank);   /* now owned by m */
    }
    hmap_fini(&shared.pidtid_of);
    hmap_fini(&shared.cat_of);
    m->id_event_sync = strtab_find(&m->strings, "Event Sync", 10);
    m->id_context_sync = strtab_find(&m->strings, "Context Sync", 12);
    if (!rc && m->nranks == 0)
        rc = first.code ? (*e = first, first.code) : err_set(e, ERR_EMPTY, "no trace files");
    if (!rc)
        rc = assign_ranks(m, builders, e);
    if (!rc)
        rc = model_finish(m, e);
    if (!rc)
        rc = model_select(m, NULL, e);
    free(builders);
    if (rc) {
        model_free(m);
        return NULL;
    }
    return m;
}

static struct model *load_jobs(struct load_job *jobs, size_t njobs, const struct semantics *sem,
                               const struct load_opts *opts, struct err *e)
{
    struct semantics htx;
    if (!sem) {
        semantics_init(&htx, SEMANTICS_HTX);
        sem = &htx;
    }
    struct loader l = {.jobs = jobs, .njobs = njobs, .opts = opts, .sem = sem};
    pthread_mutex_init(&l.lock, NULL);
    for (size_t i = 0; i < njobs; i++) {
        jobs[i].loader = &l;
        l.total_bytes += jobs[i].size;
    }
    int rc = run_loader(&l, opts ? opts->threads : 0);
    pthread_mutex_destroy(&l.lock);
    util_memory_map_large_blocks();
    struct model *m = NULL;
    if (rc)
        err_set(e, rc, "loading cancelled");
    else
        m = collect(jobs, njobs, sem, opts && opts->rows_only, e);
    for (size_t i = 0; i < njobs; i++) {
        model_rank_fini(&jobs[i].rank);   /* ranks not moved into m */
        rank_builder_fini(&jobs[i].b);
    }
    return m;
}

/* A summary whose trace changed since is still read (the trace may be the
 * one that is wrong), but named among the notes. */
static int add_stale_notes(const struct model *m, struct trace_file_list *files)
{
    for (size_t i = 0; i < m->nranks; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (r->summary_stale &&
            trace_file_list_note(files, "%s: stale: %s changed since the summary was made "
                                 "(htx summarize again)", r->summary_path, r->path))
            return ERR_NOMEM;
    }
    return 0;
}

struct model *model_load(const char *const *paths, size_t npaths, const struct semantics *sem,
                         const struct load_opts *opts, struct err *e)
{
    struct trace_file_list files = {0};
    if (trace_discover(paths, npaths, &files, e)) {
        trace_file_list_fini(&files);
        return NULL;
    }
    if (files.count == 0) {
        err_set(e, ERR_EMPTY, "%s: no .json or .json.gz trace files found",
                npaths ? paths[0] : "(no path)");
        trace_file_list_fini(&files);
        return NULL;
    }
    struct load_job *jobs = calloc(files.count, sizeof *jobs);
    if (!jobs) {
        trace_file_list_fini(&files);
        err_set(e, ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < files.count; i++) {
        jobs[i].path = files.files[i].path;
        jobs[i].size = files.files[i].size;
    }
    struct model *m = load_jobs(jobs, files.count, sem, opts, e);
    if (m && add_stale_notes(m, &files)) {
        model_free(m);
        m = NULL;
        err_set(e, ERR_NOMEM, "out of memory");
    }
    if (m && files.notes && files.notes_len)
        m->notes = strndup(files.notes, files.notes_len);
    free(jobs);
    trace_file_list_fini(&files);
    return m;
}

struct model *model_load_buffers(const char *const *names, const void *const *bufs,
                                 const size_t *lens, size_t n, const struct semantics *sem,
                                 struct err *e)
{
    struct load_opts opts = {.threads = 1};
    return model_load_buffers_opts(names, bufs, lens, n, sem, &opts, e);
}

struct model *model_load_buffers_opts(const char *const *names, const void *const *bufs,
                                      const size_t *lens, size_t n, const struct semantics *sem,
                                      const struct load_opts *opts, struct err *e)
{
    if (n == 0) {
        err_set(e, ERR_EMPTY, "no trace buffers");
        return NULL;
    }
    struct load_job *jobs = calloc(n, sizeof *jobs);
    if (!jobs) {
        err_set(e, ERR_NOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        jobs[i].path = names[i];
        jobs[i].buf = bufs[i];
        jobs[i].len = lens[i];
        jobs[i].size = lens[i];
    }
    struct model *m = load_jobs(jobs, n, sem, opts, e);
    free(jobs);
    return m;
}

static void free_derived(struct rank_model *r)
{
    free(r->rows);
    for (size_t i = 0; i < r->nstreams; i++) {
        free(r->streams[i].pos);
        free(r->streams[i].max_end);
    }
    free(r->streams);
    free(r->thread_pos);
    for (size_t i = 0; i < r->nthreads; i++) {
        free(r->threads[i].parent);
    }
    free(r->threads);
    r->rows = NULL;
    r->streams = NULL;
    r->threads = NULL;
    r->thread_pos = NULL;
    r->nrows = r->nstreams = r->nthreads = 0;
    r->rows_unfiltered = false;
    r->work_overlaps_known = false;
}

void model_rank_free_derived(struct rank_model *r)
{
    free_derived(r);
}

void model_rank_fini(struct rank_model *r)
{
    free_derived(r);
    free(r->path);
    free(r->summary_path);
    free(r->events);
    free(r->bw);
    free(r->comm);
    free(r->iterations);
    free(r->names);
    free(r->graph_launches);
    for (size_t k = 0; k < r->nwarning_texts; k++)
        free(r->warning_texts[k]);
    memset(r, 0, sizeof *r);
}

void model_free(struct model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nranks; i++)
        model_rank_fini(&m->ranks[i]);
    free(m->ranks);
    for (size_t i = 0; i < m->nfailed; i++) {
        free(m->failed[i].path);
        free(m->failed[i].message);
    }
    free(m->failed);
    free(m->notes);
    free(m->pidtids);
    free(m->cats);
    strtab_fini(&m->strings);
    free(m);
}
