#ifndef HTX_TRACE_EVENT_H
#define HTX_TRACE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* What the trace reader hands to its consumer: one call per element of
 * `traceEvents`, with the fields htx uses already parsed. The reader never
 * includes model headers; the model implements struct trace_sink.
 *
 * Every string in a trace_event is borrowed: valid only during the
 * sink->event call. Strings are the decoded JSON strings (escapes resolved),
 * not NUL-terminated in general: use the _len fields. */

enum trace_ph {
    TRACE_PH_NONE = 0, /* no "ph" field */
    TRACE_PH_X,        /* complete event */
    TRACE_PH_B,
    TRACE_PH_E,
    TRACE_PH_I,        /* "i" or "I" */
    TRACE_PH_M,        /* metadata */
    TRACE_PH_C,        /* counter */
    TRACE_PH_FLOW_S,   /* flow start "s" */
    TRACE_PH_FLOW_T,   /* flow step "t" */
    TRACE_PH_FLOW_F,   /* flow end "f" */
    TRACE_PH_OTHER,
};

struct trace_str {
    const char *s;
    size_t len;
};

/* A JSON number kept exactly: the value in nanoseconds when the number is a
 * time in microseconds, plus the nearest double of the value as written, which
 * HTA's rounding rules need (spec §1.5). */
struct trace_time {
    int64_t ns;       /* round(value * 1000), exact from the text */
    double us;        /* strtod of the text */
    bool present;     /* field present with a numeric value */
    bool is_float;    /* written with a fraction or exponent (123.0 counts) */
};

/* Optional integer field of args: present and numeric. */
struct trace_int {
    int64_t v;
    bool present;
};

struct trace_event {
    uint64_t index;          /* position in traceEvents, counting every element */
    enum trace_ph ph;
    struct trace_str name;   /* "name"; len 0 and s NULL when absent */
    struct trace_str cat;    /* "cat" */
    bool has_name, has_cat;
    /* pid / tid are opaque keys: numbers are given as their canonical decimal
     * text, strings as their text. */
    struct trace_str pid, tid;
    bool pid_is_num, tid_is_num;
    struct trace_time ts, dur;

    /* args */
    struct trace_int stream;       /* numeric args.stream only (spec §1.4) */
    struct trace_int correlation;  /* args.correlation */
    double mem_bw_gbps;            /* args."memory bandwidth (GB/s)", else 0 */
    bool has_mem_bw;
    struct trace_int bytes;        /* args.bytes */
    struct trace_str arg_name;     /* args.name, for M events (process/thread names) */
    /* Collective args that recent PyTorch writes on communication kernels and
     * on record_param_comms (strings only when they are strings, integers only
     * when numeric, like the other optional args). "Seq" is the collective's
     * sequence number in its process group; "Sequence number" (autograd's) is
     * another thing and is not read. */
    struct trace_str coll_name;    /* args."Collective name" */
    struct trace_str pg_name;      /* args."Process Group Name" */
    struct trace_str pg_ranks;     /* args."Process Group Ranks", e.g. "[0, 1]" */
    struct trace_str dtype;        /* args.dtype, e.g. "Float" */
    struct trace_int group_size;   /* args."Group size" */
    struct trace_int in_nelems;    /* args."In msg nelems" */
    struct trace_int out_nelems;   /* args."Out msg nelems" */
    struct trace_int seq;          /* args.Seq */
    struct trace_int seq_lower;    /* args.seq, used when Seq is absent */

    /* flow events ("s"/"f"): "id" and "bp" */
    struct trace_int flow_id;
    bool flow_bind_enclosing;      /* "bp": "e" */
};

/* Whether the trace a summary was made from still is what it was. */
enum trace_source_state {
    TRACE_SOURCE_NONE = 0,     /* not read from a summary */
    TRACE_SOURCE_FRESH,        /* same size and mtime */
    TRACE_SOURCE_STALE,        /* changed since */
    TRACE_SOURCE_UNREACHABLE,  /* not readable from here (summaries moved) */
};

/* One process group of distributedInfo.pg_config, as much of it as tells
 * two jobs apart: its name (truncated), size and the ranks it lists
 * (FNV-1a of their values in order; 0 when it lists none). */
#define TRACE_PG_NAME_MAX 32
#define TRACE_MAX_PGS 16   /* the first ones of pg_config; the rest are not compared */
struct trace_pg {
    char name[TRACE_PG_NAME_MAX];
    int64_t size;                 /* pg_size, -1 when absent */
    uint64_t ranks_hash;
};

/* Document-level facts found outside traceEvents. */
struct trace_meta {
    bool has_rank;
    int64_t rank;                 /* distributedInfo.rank */
    bool has_world_size;
    int64_t world_size;
    char backend[64];             /* distributedInfo.backend, truncated */
    struct trace_pg pgs[TRACE_MAX_PGS];   /* distributedInfo.pg_config */
    int npgs;
    int64_t base_time_ns;         /* baseTimeNanoseconds, 0 when absent */
    bool has_base_time;
    char display_time_unit[16];
    int device_properties;        /* number of entries in deviceProperties */
    char device_name[128];        /* deviceProperties[0].name, when present */
    /* Set only when the events come from a pack (trace/pack.h): the path of
     * the trace it was made from, as given then (borrowed during the meta
     * call); the model names the rank after it, so a summary's rank is the
     * trace's rank. */
    struct trace_str source_path;
    enum trace_source_state source_state;
};

/* Malformed elements. An element of traceEvents is passed to sink->event
 * whatever its phase or category (metadata, flows, instants, events without
 * "dur" or "cat": the consumer decides what to keep). It is skipped and
 * reported to sink->warning instead, with the reason in `what`, when it is
 * valid JSON but not an event:
 *   - it is not a JSON object ("not a JSON object");
 *   - "ph", "name" or "cat" is present but not a string;
 *   - "pid" or "tid" is present but neither a string nor a number;
 *   - "ts" or "dur" is present but not a number, or its value in ns does not
 *     fit int64 ("... is out of range");
 *   - a string anywhere in it has an invalid escape (unknown letter, bad
 *     \u hex digits, a lone surrogate): "invalid escape in a string".
 * A field whose value is null counts as absent, not malformed. Optional
 * fields of the wrong type are simply absent: args.stream / correlation /
 * bytes / "memory bandwidth (GB/s)" that are not numbers (AMD's "0x0"
 * stream), args.name or "bp" that are not strings, "id" that is not a
 * number, "args" that is not an object. Integers read from args and "id"
 * are truncated toward zero (stream 7.9 is 7, spec §1.4). When a key
 * appears twice in one object, the first occurrence counts (as cJSON).
 *
 * Not JSON at all is no warning but an error that stops the file: an
 * element cJSON cannot parse, an unterminated string or bracket (a truncated
 * file), a missing ',' between elements, anything after the top-level
 * object. Those give ERR_PARSE with the byte offset in the uncompressed
 * document; exceeding trace_limits gives ERR_LIMIT.
 *
 * Numbers: the reader takes ts/dur digits exactly from the text. The rare
 * element that is not strict JSON but that cJSON accepts (a number written
 * "01", a control byte used as space) is read through cJSON, whose doubles
 * keep only ~16 significant digits and lose "is_float" for "123.0"; its
 * strings end at an embedded \u0000. */

/* Why a malformed event was skipped, for warnings. */
struct trace_warning {
    uint64_t index;
    uint64_t offset;   /* byte offset in the uncompressed document */
    const char *what;  /* static text */
};

struct trace_sink {
    void *ctx;
    /* Called once per element of traceEvents, in order. Non-zero aborts. */
    int (*event)(void *ctx, const struct trace_event *ev, struct err *e);
    /* Called for each element skipped as malformed; may be NULL. */
    void (*warning)(void *ctx, const struct trace_warning *w);
    /* Called once at the end with the document's metadata; may be NULL. */
    int (*meta)(void *ctx, const struct trace_meta *m, struct err *e);
    /* Called every few MB of input: bytes consumed from the file so far.
     * Returns non-zero to cancel the load (ERR_CANCEL). May be NULL. */
    int (*progress)(void *ctx, uint64_t file_bytes_read);
};

struct trace_limits {
    uint64_t max_uncompressed;  /* bytes of the document (after gunzip, or the plain
                                   file); 0 = no limit. More is ERR_LIMIT, which stops
                                   a gzip bomb without inflating it further. */
    size_t max_event_bytes;     /* one element of traceEvents; 0 = default 256 MiB */
    size_t max_meta_bytes;      /* one top-level non-traceEvents value; 0 = 64 MiB */
    int max_depth;              /* JSON nesting, the top-level object being 1 and an
                                   element of traceEvents 3; 0 = default 512 */
    uint64_t max_memory;        /* the memory guard: resident bytes of the whole
                                   process, checked every few thousand elements;
                                   more is ERR_LIMIT. 0 = no guard. */
    bool read_ahead;            /* not a limit but a resource: a core to spare, so a
                                   gzip file is inflated by a thread of its own ahead
                                   of the parser (trace/source.h) */
};

/* Reads one trace file (plain or gzip, detected by content) and feeds the
 * sink. Returns 0, or a negative ERR_* with e naming the file and the byte
 * offset. Borrows path and sink until return. Uses no global state: one
 * call per thread may run at a time on different files. sink->meta is
 * called once, after the last element, only when the whole file was read
 * (whether the metadata came before or after traceEvents). */
int trace_read_file(const char *path, const struct trace_sink *sink,
                    const struct trace_limits *limits, struct err *e);

/* Same over a memory buffer (tests, fuzzing). name is used in messages.
 * Borrows name, buf and sink until return. */
int trace_read_buffer(const char *name, const void *buf, size_t len,
                      const struct trace_sink *sink, const struct trace_limits *limits,
                      struct err *e);

#endif
