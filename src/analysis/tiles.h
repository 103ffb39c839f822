#ifndef HTX_ANALYSIS_TILES_H
#define HTX_ANALYSIS_TILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "util/arena.h"

/* A rank's busy time over time, without its events (a pyramid of
 * tiles): for each lane (the GPU as a whole, each GPU stream, each CPU
 * thread) and class, the busy nanoseconds in each bucket of a power-of-two
 * width w, the buckets aligned on absolute time (bucket i covers
 * [i*w, (i+1)*w)).
 *
 * Only the finest level is kept. A coarser level (width w*2^k) is a range
 * sum, answered in O(log n) from cumulative sums, so every zoom level is
 * exact and costs nothing to store; and because widths are powers of two
 * aligned on 0, the buckets of ranks with different widths nest, so a job's
 * axis sums whole buckets of every rank. */

enum tile_class {
    TILE_COMPUTATION = 0,   /* the kernel classes of analysis/classify.h, in order */
    TILE_COMMUNICATION,
    TILE_MEMORY,
    TILE_OTHER,
    TILE_BUSY,              /* any of them (the union, not the sum); CPU lanes have only this */
    TILE_NCLASSES
};

enum tile_lane_kind {
    TILE_LANE_GPU = 0,      /* every GPU stream of the rank together */
    TILE_LANE_STREAM,
    TILE_LANE_THREAD,       /* a CPU thread: its outermost events */
    TILE_LANE_KINDS
};

/* One class on one lane: the buckets with busy time, ascending, and the
 * cumulative busy time up to and including each. */
struct tile_run {
    size_t n;
    int64_t *index;
    int64_t *cum;
};

#define TILES_NAME_MAX 64   /* a thread's pid or tid text, stored */
struct tile_lane {
    enum tile_lane_kind kind;
    int64_t stream;                      /* TILE_LANE_STREAM */
    const char *pid, *tid;               /* TILE_LANE_THREAD: their text */
    struct tile_run runs[TILE_NCLASSES]; /* n = 0 where the class has no time */
};

#define TILES_MAX_WIDTH_LOG2 62
#define TILES_MAX_LANES 4096   /* GPU, streams, then threads: a summary keeps no more */
#define TILES_MAX_SPAN (2 * TILES_MAX_BUCKETS + 2)   /* buckets a rank spans, at most */
struct tiles {
    int64_t rank;
    unsigned width_log2;
    int64_t first, count;    /* the rank's span, in buckets: [first, first + count) */
    int64_t start_ns, end_ns; /* ... and exactly (absolute ns; both 0 without events) */
    struct tile_lane *lanes; /* the GPU lane first when the rank has GPU work */
    size_t nlanes;
};

/* The finest buckets a rank gets: a power of two between 64 and 16384,
 * about one per 64 events, so that a summary's tiles stay a small share of
 * its packed events (on a 665 k-event rank, one per 16 events made them
 * 12 % of the summary). A screen is a few hundred columns: a timeline
 * zoomed in further than that reads the rank's events. */
#define TILES_MIN_BUCKETS 64
#define TILES_MAX_BUCKETS 16384
#define TILES_EVENTS_PER_BUCKET 64
unsigned tiles_width_log2(int64_t span_ns, uint64_t events);

/* Floor division of t by 2^wlog. */
int64_t tiles_bucket_of(int64_t t, unsigned wlog);

/* The tiles of rank r over its current rows (model_select), classes as the
 * analyses classify kernels (busy.h: o's patterns, m's semantics), in a:
 * every lane, or only the GPU lane when gpu_only. 0 or ERR_NOMEM. */
int tiles_build(const struct model *m, const struct rank_model *r, const struct analysis_opts *o,
                bool gpu_only, struct arena *a, struct tiles *out);

/* Busy time of run in buckets [lo, hi) of its lane's width. */
int64_t tiles_sum(const struct tile_run *run, int64_t lo, int64_t hi);

/* The lane of that kind (and stream) in t, or NULL. */
const struct tile_lane *tiles_find_lane(const struct tiles *t, enum tile_lane_kind kind,
                                        int64_t stream);

/* The bytes t's runs take (their index and cumulative arrays). */
size_t tiles_bytes(const struct tiles *t);

/* in at the coarser width 2^width_log2 (>= in's: equal copies it) in a: each
 * bucket the sum of the finer ones it covers, so every range sum at that
 * width or coarser is in's. Lanes' names copied; runs shared within a lane
 * stay shared. 0 or ERR_NOMEM (out partly made). */
int tiles_coarsen(const struct tiles *in, unsigned width_log2, struct arena *a,
                  struct tiles *out);

/* tiles_coarsen at the finest width (from in's up) whose runs take at most
 * budget bytes (0: in's width), in a. */
int tiles_fit(const struct tiles *in, size_t budget, struct arena *a, struct tiles *out);

/* Checks what a reader filled in: widths and spans in range (the exact span
 * inside the buckets'), every run's
 * buckets ascending inside the span, each bucket's time within (0, w], the
 * sums consistent and TILE_BUSY no less than any class. A reason, or NULL
 * when sound. */
const char *tiles_check(const struct tiles *t);

/* The table gpu_utilization_over_time of ranks t[0..n) (in rank order):
 * the job's span cut into at most TILES_TABLE_BUCKETS + 1 buckets of one
 * power-of-two width W (no finer than any rank's), aligned on 0; per rank
 * and bucket the share of W its GPU was busy, by class and in all. Made the
 * same way from a trace's tiles and from a summary's, so both give the same
 * table. 0 or ERR_NOMEM (e says so). */
#define TILES_TABLE_BUCKETS 64
int tiles_table(const struct tiles *t, size_t n, struct arena *a, struct table_list *out,
                struct err *e);

/* The analysis (registry "utilization"): tiles_build over every selected
 * rank, then tiles_table. */
int utilization_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                    struct table_list *out, struct err *e);

#endif
