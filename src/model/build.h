#ifndef HTX_MODEL_BUILD_H
#define HTX_MODEL_BUILD_H

/* Internal to the model: one rank_builder per file being loaded, owned by the
 * loading thread. It implements struct trace_sink, interning names in its own
 * string table so loader threads share nothing; model_load merges them. */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "trace/event.h"
#include "util/hmap.h"
#include "util/strtab.h"

struct flow_rec {
    int64_t id;
    int64_t ts;          /* absolute ns */
    uint32_t thread;     /* index into the builder's pidtids */
    bool is_start;
};

struct name_rec {
    uint32_t pid, tid;   /* local string ids; tid 0 for process names */
    uint32_t name;
    bool is_thread;
};

enum builder_hint { HINT_NAME, HINT_CAT, HINT_PID, HINT_TID, HINT_COUNT };

struct rank_builder {
    struct strtab strings;            /* local ids until the merge */
    uint32_t hint[HINT_COUNT];        /* the last event's ids (strtab_intern_hinted) */
    uint64_t ids_index;               /* the element whose string ids ids holds */
    uint32_t ids[HINT_COUNT];         /* (rank_builder_event_ids), UINT32_MAX: none */
    struct event *events;             /* ts absolute ns until finish */
    size_t nevents, events_cap;
    size_t events_populated;          /* events[0 .. this) are resident */
    uint32_t corr_lo, corr_hi;        /* the events' correlation ids: ncorr, within [lo, hi] */
    size_t ncorr;
    struct bw_entry *bw;              /* by position, for EV_FLAG_HAS_BW */
    size_t nbw, bw_cap;
    struct comm_args *comm;           /* by position, for EV_FLAG_HAS_COMM (local ids) */
    size_t ncomm, comm_cap;
    struct flow_rec *flows;
    size_t nflows, flows_cap;
    struct flow_rec *tail_flows;      /* a joined second half's, read as if at flows[tail_at], */
    size_t ntail_flows, tail_at;      /* (rank_builder_flow) */
    uint32_t *tail_threads;           /* its threads by its own index: their index here */
    struct name_rec *names;
    size_t nnames, names_cap;
    unsigned char *kind_of_cat;       /* by local cat id; 0xff = not yet known */
    size_t kind_cap;
    struct pid_tid *pidtids;          /* local string ids; struct event's thread indexes */
    size_t npidtids, pidtids_cap;
    struct hmap pidtid_of;            /* pid << 32 | tid (local ids) -> index in pidtids */
    uint32_t *cats;                   /* local string ids; struct event's cat indexes */
    size_t ncats, cats_cap;
    struct hmap cat_of;               /* local string id -> index in cats */
    struct trace_meta meta;       /* its source_path: not kept (see below) */
    char *source_path;            /* the meta's, when read from a pack */
    bool has_meta;
    bool has_float_ts;
    uint64_t elements;
    uint64_t complete_by_kind[EV_KIND_COUNT];
    uint64_t complete_events;
    uint64_t nwarnings;
    uint64_t dropped, repaired;       /* events skipped, events kept with a field read as absent */
    char *warning_texts[MODEL_MAX_WARNING_TEXTS];
    size_t nwarning_texts;
    int error;                        /* first hard error (ERR_NOMEM, ERR_LIMIT) */
    /* progress plumbing, set by the loader */
    int (*progress)(void *ctx, uint64_t file_bytes);
    void *progress_ctx;
};

int rank_builder_init(struct rank_builder *b);
void rank_builder_fini(struct rank_builder *b);
/* Makes room for about `events` events at once, in huge pages
 * (util_alloc_huge), when that many are worth it: the events are most of
 * what a load writes and then reads, and an array grown by realloc leaves
 * huge pages. Best effort: a guess too small grows as usual. Call it on a
 * fresh builder. */
void rank_builder_expect(struct rank_builder *b, uint64_t events);
/* Gives back the room past the events, and asks that their pages be left
 * as they are (util_huge_written): call it once the file is read. */
void rank_builder_fit_events(struct rank_builder *b);
void rank_builder_sink(struct rank_builder *b, struct trace_sink *out);
/* Adds a warning line to the rank (kept up to MODEL_MAX_WARNING_TEXTS,
 * always counted). */
void rank_builder_warn(struct rank_builder *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The builder's ids of the name, cat, pid and tid strings of the element it
 * was last given, if that is element index (UINT32_MAX for a string it did
 * not intern), else NULL: a trace_pack_ids_fn, for a pack recording the
 * same elements (trace_pack_reuse_ids). ctx is the builder. */
const uint32_t *rank_builder_event_ids(void *ctx, uint64_t index);

/* The flows in file order: b->flows with a joined second half's in their
 * place, its threads b's; i < rank_builder_nflows(b). */
size_t rank_builder_nflows(const struct rank_builder *b);
struct flow_rec rank_builder_flow(const struct rank_builder *b, size_t i);

/* Frees the flows (the linking is their one reader). */
void rank_builder_drop_flows(struct rank_builder *b);

/* Appends t, the builder of the elements of the same file from index
 * first_index on (read by a second thread), to b, as if b had read them
 * itself: the same string ids, threads, categories and positions. Returns
 * 0, 1 when t cannot join without changing the result (it warned: its
 * warnings would name local indices; an error; the category limit), with b
 * untouched, or ERR_NOMEM (b is then unusable). t is left to be freed. */
int rank_builder_adopt(struct rank_builder *b, struct rank_builder *t, uint64_t first_index,
                       struct err *e);

/* finish.c: per-rank steps after the merge into global ids. */
int model_finish_rank(struct model *m, struct rank_model *r, const struct rank_builder *b,
                      struct err *e);
int model_finish(struct model *m, struct err *e);
/* The range of r's correlation ids (*lo, *range; *n events carry one), and
 * whether it is dense enough for an array indexed by id - lo. Read from
 * what the builder noted (rank_model.corr_lo): no pass over the events. */
bool model_corr_range(const struct rank_model *r, uint32_t *lo, uint64_t *range, size_t *n);
/* Finds r's graph launches (rank_model.graph_launches), after linking
 * (graphs.c). 0 or ERR_NOMEM. */
int model_find_graphs(const struct model *m, struct rank_model *r, struct err *e);
/* model_hta_new: a rank linked already, its events' times absolute, its steps
 * and iterations those of another semantics: rounded, and its steps and
 * iterations made again where m's semantics round its times; else the GPU
 * side's iterations given again. */
int model_refinish_rank(struct model *m, struct rank_model *r, struct err *e);
/* select.c, for model_hta_new: everything selected, on this thread: rows and
 * stream indices, no thread indices (the analyses of the GPU side read none). */
int model_select_streams(struct model *m, struct err *e);

/* No profiler writes times beyond ±2^62 ns (146 years) or durations beyond
 * ±2^61 ns: events with such values are skipped with a warning, and a model
 * whose times span more than MODEL_TIME_LIMIT_NS fails to load, so that
 * ts - origin and ts + dur always fit int64. */
#define MODEL_TIME_LIMIT_NS (INT64_C(1) << 62)
#define MODEL_DUR_LIMIT_NS (INT64_C(1) << 61)

/* Counts a warning and keeps its text while fewer than the max are kept. */
void model_warn_list_add(char **texts, size_t *ntexts, uint64_t *count, const char *fmt,
                         va_list ap) __attribute__((format(printf, 4, 0)));

/* Adds a warning to a loaded rank (counted always, text kept up to the max). */
void model_rank_warn(struct rank_model *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Frees everything a rank owns and zeroes it (safe on a zeroed rank). */
void model_rank_fini(struct rank_model *r);

/* select.c / load.c: frees rows and indices of one rank. */
void model_rank_free_derived(struct rank_model *r);

#endif
