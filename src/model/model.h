#ifndef HTX_MODEL_MODEL_H
#define HTX_MODEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/semantics.h"
#include "trace/event.h"
#include "util/err.h"
#include "util/strtab.h"

/* The per-rank model every analysis and view reads.
 *
 * Ownership: a struct model owns everything reachable from it (events, names,
 * indices). Every pointer into it is valid until model_free, except the
 * derived arrays (rows, streams, threads) which model_select rebuilds: do not
 * keep those across a model_select call.
 *
 * Time: int64 nanoseconds, relative to model->origin_ns (the smallest ts of
 * any kept event of any rank, spec §1.6). Trace files write microseconds;
 * analyses that report HTA's "(us)" columns divide by 1000. */

#define MODEL_NONE UINT32_MAX       /* no event (partner, parent) */
#define MODEL_ITER_NONE (-1)        /* outside every ProfilerStep */
#define MODEL_ITER_NAN INT32_MIN    /* HTA gives no iteration at all (§1.7 rule 4) */
#define MODEL_MAX_WARNING_TEXTS 32

enum ev_kind {
    EV_KIND_OTHER = 0,
    EV_KIND_KERNEL,           /* kernel, Kernel, mtia_ccp_events */
    EV_KIND_MEMCPY,           /* gpu_memcpy, Memcpy */
    EV_KIND_MEMSET,           /* gpu_memset, Memset */
    EV_KIND_CPU_OP,           /* cpu_op, Operator */
    EV_KIND_RUNTIME,          /* cuda_runtime, Runtime, mtia_runtime */
    EV_KIND_DRIVER,           /* cuda_driver */
    EV_KIND_USER_ANNOTATION,  /* user_annotation */
    EV_KIND_GPU_USER_ANNOTATION,
    EV_KIND_SYNC,             /* cuda_sync */
    EV_KIND_PYTHON,           /* python_function */
    EV_KIND_TRACE_SPAN,       /* cat "Trace": the profiler's own span, never analysed */
    EV_KIND_COUNT
};

enum ev_flag {
    EV_FLAG_COMPLETE = 1 << 0,    /* ph "X" */
    EV_FLAG_TS_FLOAT = 1 << 1,    /* ts written with a fraction */
    EV_FLAG_HAS_STREAM = 1 << 2,  /* numeric args.stream present */
    EV_FLAG_HAS_BW = 1 << 3,      /* args "memory bandwidth (GB/s)" present */
    EV_FLAG_FLOW_LINKED = 1 << 4, /* partner found through an ac2g flow, not correlation */
    EV_FLAG_OVERLAPS = 1 << 5,    /* overlaps the previous event on its GPU stream */
    EV_FLAG_HAS_COMM = 1 << 6,    /* some collective arg present (struct comm_args) */
    EV_FLAG_HAS_CORR = 1 << 7,    /* args.correlation present: see event_correlation */
};

/* 48 bytes: the model holds one per kept element, so this is most of a
 * loaded trace's memory (the budget: <= 64 resident bytes an event in all).
 * - Correlation and stream are 32-bit: CUPTI's correlation ids are
 *   unsigned 32-bit and streams are small numbers; a value outside those
 *   ranges is read as absent, with a warning (the builder's). Read the
 *   correlation with event_correlation.
 * - An event names its (pid, tid) and its category by an index into the
 *   model's tables of them (a trace has a few dozen threads and categories):
 *   read them with model_event_pid, model_event_tid and model_event_cat. */
struct event {
    int64_t ts;            /* ns from model->origin_ns */
    int64_t dur;           /* ns; negative only under semantics.ns_rounding */
    uint32_t name;         /* id in model->strings */
    uint32_t thread;       /* index into model->pidtids */
    uint32_t index;        /* position in the file's traceEvents */
    uint32_t partner;      /* position in rank->events of the correlated event */
    int32_t iteration;     /* ProfilerStep N, MODEL_ITER_NONE or MODEL_ITER_NAN */
    uint32_t corr;         /* args.correlation when EV_FLAG_HAS_CORR */
    int32_t stream;        /* numeric args.stream, -1 when absent or not a number */
    uint16_t cat;          /* index into model->cats */
    uint8_t kind;          /* enum ev_kind */
    uint8_t flags;         /* enum ev_flag */
};
/* DESIGN.md budgets 100 resident bytes per event, indices included. */
_Static_assert(sizeof(struct event) <= 48, "struct event grew past 48 bytes");
#define MODEL_MAX_CATS 65536   /* distinct categories: struct event's cat is 16-bit */

/* A (pid, tid) pair: ids in model->strings of their canonical text. */
struct pid_tid {
    uint32_t pid, tid;
};

/* args.correlation, -1 when absent. */
static inline int64_t event_correlation(const struct event *ev)
{
    return ev->flags & EV_FLAG_HAS_CORR ? (int64_t)ev->corr : -1;
}

enum rank_source {
    RANK_FROM_DISTRIBUTED_INFO = 0,
    RANK_FROM_FILE_NAME,
    RANK_DEFAULTED,   /* next free number, with a warning */
};

enum device_type {
    DEVICE_CPU_ONLY = 0,  /* no GPU events at all */
    DEVICE_CUDA,          /* NVIDIA: cudaLaunchKernel seen */
    DEVICE_ROCM,          /* AMD: hipLaunchKernel seen */
    DEVICE_MTIA,
    DEVICE_UNKNOWN_GPU,
};

struct iteration {
    int64_t number;       /* N of ProfilerStep#N */
    int64_t ts, dur;      /* ns */
    uint32_t pos;         /* position in rank->events */
};

/* args "memory bandwidth (GB/s)" of one event; few events carry it, so it
 * lives beside the events (64 bytes each) instead of in them. */
struct bw_entry {
    uint32_t pos;          /* position in rank->events */
    double gbps;
};

/* The collective args of one event (trace/event.h: "Collective name",
 * "Process Group Name", ...), which recent PyTorch writes on communication
 * kernels and on record_param_comms. Few events carry them, so they live
 * beside the events, like bw_entry. Absent strings are id 0 (""); absent or
 * negative integers are -1. */
struct comm_args {
    uint32_t pos;                   /* position in rank->events */
    uint32_t coll_name;             /* "Collective name", e.g. "allreduce" */
    uint32_t pg_name;               /* "Process Group Name", e.g. "0" */
    uint32_t pg_ranks;              /* "Process Group Ranks" as written, e.g. "[0, 1]" */
    uint32_t dtype;                 /* "dtype", e.g. "Float" */
    int64_t group_size;             /* "Group size" */
    int64_t in_nelems, out_nelems;  /* "In msg nelems", "Out msg nelems" */
    int64_t seq;                    /* "Seq" (else "seq"): sequence number in the group */
};

/* A process_name (tid == 0) or thread_name metadata event. */
struct proc_name {
    uint32_t pid, tid, name;      /* string ids */
    bool is_thread;
};

/* GPU events of one stream, over the current rows, sorted by ts. */
struct stream_index {
    int64_t stream;
    uint32_t *pos;        /* positions in rank->events, by ts (ties: file order) */
    int64_t *max_end;     /* max_end[i] = max(ts+dur) over pos[0..i] */
    size_t n;
    uint64_t kernels, memcpys, memsets, others;
    uint64_t overlapping; /* events starting before the previous one ended */
};

/* CPU-side events of one (pid, tid), over the current rows, nested. */
struct thread_index {
    uint32_t pid, tid;    /* string ids */
    uint32_t name;        /* thread_name metadata, 0 when none */
    uint32_t *pos;        /* by ts ascending, longer first on ties */
    uint32_t *parent;     /* parent[i]: index into pos of the enclosing event, MODEL_NONE */
    size_t n;
};

struct rank_model {
    char *path;                   /* the trace (the one a summary was made from) */
    char *summary_path;           /* the rank summary it was read from, or NULL */
    bool summary_stale;           /* ... and path changed since it was made */
    bool from_cache;              /* read from the cache's summary of path (load_opts.cached) */
    int64_t rank;
    enum rank_source rank_source;
    int64_t world_size;           /* -1 when unknown */
    enum device_type device;
    char device_name[128];        /* deviceProperties[0].name */
    char backend[64];             /* distributedInfo.backend */
    struct trace_pg pgs[TRACE_MAX_PGS];   /* distributedInfo.pg_config */
    int npgs;
    int64_t base_time_ns;         /* baseTimeNanoseconds, 0 when absent */
    bool has_float_ts;            /* some element had a fractional ts (§1.5) */

    struct event *events;         /* every kept element, in file order */
    size_t nevents;
    /* The events' correlation ids (EV_FLAG_HAS_CORR): ncorr of them, all
     * within [corr_lo, corr_hi] (noted as they load; model_corr_range). */
    uint32_t corr_lo, corr_hi;
    size_t ncorr;
    struct bw_entry *bw;          /* by pos: events with EV_FLAG_HAS_BW */
    size_t nbw;
    struct comm_args *comm;       /* by pos: events with EV_FLAG_HAS_COMM */
    size_t ncomm;
    uint64_t elements;            /* elements of traceEvents, kept or not */
    uint64_t complete_by_kind[EV_KIND_COUNT];  /* ph "X" events by kind */
    uint64_t complete_events;

    struct iteration *iterations; /* every ProfilerStep#N of the file, by ts */
    size_t niterations;
    struct proc_name *names;      /* process_name / thread_name metadata */
    size_t nnames;

    /* Derived by model_select: HTA's "filtered table" (§1.10) after the
     * selection, as positions into events. A position may repeat under
     * semantics.filter_duplicates_rows. */
    uint32_t *rows;
    size_t nrows;
    struct stream_index *streams; /* by stream id ascending */
    size_t nstreams;
    struct thread_index *threads; /* by (pid, tid) first appearance */
    size_t nthreads;
    uint32_t *thread_pos;         /* one block: every thread's pos is a slice of it */
    int64_t start_ns, end_ns;     /* min ts and max ts+dur over rows */
    bool selected;                /* in the selection's rank list */
    bool rows_unfiltered;         /* the derived arrays are of a selection keeping every row */
    bool work_overlaps_known;     /* work_overlaps was counted as the streams were indexed */
    uint64_t work_overlaps;       /* model_stream_work_overlaps, when work_overlaps_known */

    /* Non-fatal problems: malformed events skipped, assumptions made. */
    uint64_t nwarnings;
    char *warning_texts[MODEL_MAX_WARNING_TEXTS];
    size_t nwarning_texts;
    uint64_t events_dropped;         /* elements skipped with a warning (malformed, out of range) */
    uint64_t events_repaired;        /* events kept with a field read as absent, with a warning */
    uint64_t unmatched_correlations; /* GPU events whose launcher is absent */
    uint64_t overlapping_kernels;    /* same-stream overlaps, kept and marked */
    /* CUDA/HIP graph launches (model_is_graph_launch): the runtime or driver
     * calls that launched a graph's GPU work (named *GraphLaunch, or linked
     * to two kernels or more), by position ascending, and the GPU events
     * they launched. */
    uint32_t *graph_launches;
    size_t ngraph_launches;
    uint64_t graph_kernels;
    int64_t clock_shift_ns;          /* taken off its times (model_shift_clocks) */
    /* Over the current rows (model_select): CPU user_annotation events
     * that start inside another on their thread but end after it (the
     * stack is broken there), and zero-length ones (they enclose nothing). */
    uint64_t crossing_annotations;
    uint64_t zero_length_annotations;

    /* Read from a rank summary without its events (model_new_from_summaries): no
     * events or rows; its streams and threads (from the summary's tiles)
     * have no positions; the selection only (de)selects it. */
    bool summary_only;
    /* An HTA model's rank (model_hta_new) whose events, steps and metadata are its
     * model's, read only: the selection leaves the overlap marks alone. */
    bool shares_events;
};

/* A rank file that failed to load; the others still load. */
struct failed_file {
    char *path;
    char *message;
};

struct model {
    struct semantics sem;
    struct strtab strings;
    int64_t origin_ns;            /* absolute ns of time 0 */
    bool has_origin;              /* some rank has a kept event (else origin_ns is 0) */
    struct rank_model *ranks;     /* ascending rank */
    size_t nranks;
    struct failed_file *failed;
    size_t nfailed;
    char *notes;                  /* discovery notes (skipped files), may be NULL */
    /* Well-known string ids, STRTAB_NONE when the string never occurs. */
    uint32_t id_event_sync, id_context_sync;
    struct pid_tid *pidtids;      /* by struct event's thread */
    size_t npidtids;
    uint32_t *cats;               /* by struct event's cat: string ids */
    size_t ncats;
    bool rows_only;               /* load_opts.rows_only: selections build no stream or thread index */
};

/* One GPU stream of one rank. */
struct rank_stream {
    int64_t rank, stream;
};

/* What the views and analyses look at. Empty lists mean "all". */
struct selection {
    const int64_t *ranks;
    size_t nranks;
    const int64_t *iterations;
    size_t niterations;
    bool has_window;
    int64_t window_start, window_end;  /* ns from origin; events starting in [start, end) */
    /* GPU streams switched off: their GPU-side events leave the rows. */
    const struct rank_stream *streams_off;
    size_t nstreams_off;
};

struct load_progress {
    uint64_t bytes_read, bytes_total;  /* on disk (compressed) */
    size_t ranks_done, ranks_total;
    uint64_t events;                   /* kept so far, over every file */
};

struct trace_pack;

/* What a picture of the lanes needs of a kept event (load_opts.spans): its
 * lane and where it lies, in absolute ns. A GPU lane is a stream; a CPU lane
 * is a thread of the batch's file, by an index load_batch.threads named. */
struct load_span {
    int64_t ts, end;
    int64_t lane;         /* the stream (gpu), else the file's thread index */
    bool gpu;
};
/* A thread first seen, or a thread's name (thread_name metadata) first
 * read: texts borrowed until the callback returns. */
struct load_thread {
    uint32_t index;       /* load_span.lane of its events */
    const char *pid, *tid;
};
struct load_thread_name {
    const char *pid, *tid, *name;
};
/* Events kept since the file's last batch, in file order. */
struct load_batch {
    size_t file;                          /* the file's index among those loading */
    const struct load_thread *threads;    /* new since its last batch */
    size_t nthreads;
    const struct load_thread_name *names; /* new since its last batch */
    size_t nnames;
    const struct load_span *spans;
    size_t nspans;
};

struct load_opts {
    int threads;                      /* 0 = number of cores */
    /* The caller reads rows, events and steps but no stream or thread
     * index (htx info): every selection of the model then builds the rows
     * and their span alone, a fifth of a loaded model's memory less. */
    bool rows_only;
    struct trace_limits limits;
    /* Called from loader threads (serialised by a lock); non-zero cancels. */
    int (*progress)(void *ctx, const struct load_progress *p);
    void *progress_ctx;
    /* When set, called from a file's loading thread, before each report of
     * progress and once the file is read, with the events kept since (no
     * trace spans, no events without duration; the second half of a file
     * read by two threads, once read). Files load in parallel: the callee
     * locks. */
    void (*spans)(void *ctx, const struct load_batch *b);
    void *spans_ctx;
    /* When set, each trace file is also packed (trace/pack.h) while it is
     * read, and the unfinished pack handed here, from its loading thread,
     * once the file has loaded (not for rank summaries, which are packs
     * already). The callee owns the pack (trace_pack_finish deflates it,
     * trace_pack_free frees it); non-zero fails that file. */
    int (*packed)(void *ctx, const char *path, struct trace_pack *pack, struct err *e);
    void *packed_ctx;
    /* ... deflating each pack on a thread of its own while the file is read
     * (trace_pack_deflate_behind), for a caller whose next step is to write
     * it; otherwise the pack is deflated by trace_pack_finish. */
    bool pack_behind;
    /* When set, asked from the loading thread for each trace file: the path
     * of a rank summary of it known to be fresh (malloc'd), read instead,
     * or NULL. A summary that then fails to read is never trusted: the
     * trace is read (and packed) as if there had been none. The rank keeps
     * the trace's path either way. A summary refused as untrusted is NULL
     * with why (n bytes) set: the rank gets it as a warning. */
    char *(*cached)(void *ctx, const char *path, char *why, size_t n);
    void *cached_ctx;
};

/* Loads every trace file named by paths (directories are expanded), builds
 * the model with the given semantics and selects everything. Files that fail
 * are listed in model->failed; if none loads, returns NULL with e set.
 * Caller owns the result; free with model_free. */
struct model *model_load(const char *const *paths, size_t npaths, const struct semantics *sem,
                         const struct load_opts *opts, struct err *e);

/* Builds a model from in-memory documents (tests, fuzzing). names[i] is used
 * as the file name (for rank detection and messages). */
struct model *model_load_buffers(const char *const *names, const void *const *bufs,
                                 const size_t *lens, size_t n, const struct semantics *sem,
                                 struct err *e);
/* The same under opts (threads, limits, progress and its cancelling; the
 * cache and packing hooks are not for buffers and must be unset): the
 * cache's entries are made from the entry it holds in memory. */
struct model *model_load_buffers_opts(const char *const *names, const void *const *bufs,
                                      const size_t *lens, size_t n, const struct semantics *sem,
                                      const struct load_opts *opts, struct err *e);

void model_free(struct model *m);

/* A rank known from its summary alone: what model_new_from_summaries needs. */
struct model_summary_rank {
    int64_t rank;
    const char *path, *summary_path;   /* copied */
    uint64_t complete_events;
    int64_t start_ns, end_ns;          /* absolute: the file's own times */
    const int64_t *streams;            /* GPU stream ids */
    size_t nstreams;
    const char *const *thread_pids, *const *thread_tids;   /* their text, NUL-terminated */
    const char *const *thread_names;   /* their names, NULL for none (or NULL: none named) */
    size_t nthreads;
};

/* A model of summary-only ranks (rank_model.summary_only), ranks[i] made from in[i] (in
 * ascending rank, one each), every rank selected; time 0 is the earliest
 * start. NULL with e set (ERR_NOMEM, ERR_USAGE for an unsorted or
 * repeated rank). */
struct model *model_new_from_summaries(const struct semantics *sem, const struct model_summary_rank *in,
                                       size_t n, struct err *e);

/* The HTA model of m: m's events as model_load would select them from m's
 * files under sem (HTA's, for the analyses a summary stores under HTA's
 * semantics), with everything selected, for the analyses of the GPU side:
 * the rows, steps, times and stream indices of such a load, no thread
 * indices. Made from m (loaded under exact times, not
 * semantics.ns_rounding): where sem leaves the times as they are (no
 * ns_rounding of a fractional-time rank) and the job is not MTIA's (whose
 * filter rewrites events), it reads m's events (rank_model.shares_events:
 * the GPU side's iterations and the overlap marks are then m's), else a
 * copy rounded and given sem's iterations. It borrows m's strings, threads
 * and categories (and events): free it with model_hta_free before m. NULL
 * with e set: ERR_NOMEM, or ERR_EMPTY when m cannot tell (summary-only
 * ranks; GPU events linked by flows at fractional times under
 * ns_rounding). */
struct model *model_hta_new(const struct model *m, const struct semantics *sem, struct err *e);
void model_hta_free(struct model *t);

/* How many distinct ProfilerStep names m holds: under semantics.drop_last_step
 * a job with two or more drops its last step on every rank (§1.10). */
size_t model_step_names(const struct model *m);

/* Moves rank i's clock back by shift[i] ns (m->nranks of them): its events
 * and steps start that much earlier, and its clock_shift_ns adds it; time 0
 * is then the earliest event again (origin_ns moves with it). The derived
 * arrays are then stale: call model_select. 0, or ERR_LIMIT (e set; m
 * unchanged) for a shift of more than 2^60 ns or times leaving the model's
 * range. */
int model_shift_clocks(struct model *m, const int64_t *shift, struct err *e);

/* Recomputes rows, stream and thread indices for a selection (NULL = all):
 * the rows alone for a model loaded rows_only. */
int model_select(struct model *m, const struct selection *sel, struct err *e);

/* Is this event GPU work for the analyses (semantics.gpu_side_is_stream_field)? */
static inline bool model_is_gpu_side(const struct model *m, const struct event *ev)
{
    if (m->sem.gpu_side_is_stream_field)
        return ev->stream != -1;
    return ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY || ev->kind == EV_KIND_MEMSET;
}

/* HTA's GPU-kernel predicate (§1.8): (stream >= 0 and correlation >= 0) or
 * the name is "Event Sync"/"Context Sync". (Inline: asked of every event,
 * several times a load.) */
static inline bool model_is_gpu_kernel_pred(const struct model *m, const struct event *ev)
{
    if (ev->stream >= 0 && event_correlation(ev) >= 0)
        return true;
    return ev->name == m->id_event_sync || ev->name == m->id_context_sync;
}

/* How many kernels, memcpys and memsets on a stream (>= 0) of every event
 * of r (whatever the selection: a fact of the trace) start before the
 * latest end of those before them on their stream (by ts, ties in file
 * order). Transient memory: 6 bytes an event counted. 0, or ERR_NOMEM
 * (*out 0). */
int model_stream_work_overlaps(const struct model *m, const struct rank_model *r, uint64_t *out);

/* HTA's index_correlation (§1.8): -1 without correlation, 0 without partner
 * (or partner at index 0), else the partner's traceEvents index. */
int64_t model_index_correlation(const struct rank_model *r, const struct event *ev);

/* The file a rank was read from: its summary, or its trace. */
static inline const char *model_rank_file(const struct rank_model *r)
{
    return r->summary_path ? r->summary_path : r->path;
}

static inline const char *model_str(const struct model *m, uint32_t id)
{
    return strtab_str(&m->strings, id);
}

/* The string ids of an event's pid, tid and category. */
static inline uint32_t model_event_pid(const struct model *m, const struct event *ev)
{
    return m->pidtids[ev->thread].pid;
}

static inline uint32_t model_event_tid(const struct model *m, const struct event *ev)
{
    return m->pidtids[ev->thread].tid;
}

static inline uint32_t model_event_cat(const struct model *m, const struct event *ev)
{
    return m->cats[ev->cat];
}

/* args "memory bandwidth (GB/s)" of an event of r, 0 when absent. O(log n). */
double model_event_bw(const struct rank_model *r, const struct event *ev);

/* Collective args of an event of r, NULL when it has none. O(log n). */
const struct comm_args *model_event_comm(const struct rank_model *r, const struct event *ev);

/* Whether the event at pos of r launched a CUDA or HIP graph. O(log n). */
bool model_is_graph_launch(const struct rank_model *r, uint32_t pos);
/* Whether ev (of r) is GPU work a graph launch launched: it starts when the
 * graph reaches it, so its launch delay is the graph's. O(log n). */
bool model_is_graph_work(const struct rank_model *r, const struct event *ev);

/* Finds the rank with this number, or NULL. */
const struct rank_model *model_find_rank(const struct model *m, int64_t rank);
/* Its index in m->ranks, or SIZE_MAX. */
size_t model_rank_index(const struct model *m, int64_t rank);

/* Events of one stream overlapping [t0, t1): *first is set to the first index
 * into s->pos that may overlap, and the return value is one past the last
 * (events in between start before t1; callers skip those ending <= t0).
 * O(log n). */
size_t model_stream_window(const struct stream_index *s, const struct event *events,
                           int64_t t0, int64_t t1, size_t *first);

/* Names of enum values for output. */
const char *model_kind_name(enum ev_kind k);
const char *model_device_name(enum device_type d);
const char *model_rank_source_name(enum rank_source s);

#endif
