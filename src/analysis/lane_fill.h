#ifndef HTX_ANALYSIS_LANE_FILL_H
#define HTX_ANALYSIS_LANE_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "util/hmap.h"

/* Where each lane's events lie, from the events seen so far of a trace
 * still loading (load_opts.spans): per lane, the busy time in each of
 * LANE_FILL_BINS bins of one width over a range that grows to hold every
 * span seen. The range starts where the first span lies; a span outside
 * it doubles the width (two bins merge into one) and extends the range on
 * that side, as often as it takes, so memory stays bounded whatever the
 * order of the events (Kineto files are not in time order).
 *
 * A lane's busy time is the union of its spans where they come in order
 * of start (the nested events of a CPU thread count once) and their sum
 * otherwise, each bin's held to its width. No locking: the caller
 * serialises. */

#define LANE_FILL_BINS 256
#define LANE_FILL_MAX_LANES 256   /* lanes past these are counted, not drawn */
#define LANE_FILL_TEXT 24         /* a lane's pid, tid or name, kept cut to this */

struct lane_fill_lane {
    size_t file;
    bool gpu;
    int64_t id;                    /* the stream (gpu), else the file's thread index */
    char pid[LANE_FILL_TEXT], tid[LANE_FILL_TEXT], name[LANE_FILL_TEXT];
    int64_t last_ts, covered_to;   /* the in-order union so far */
    int64_t busy[LANE_FILL_BINS];  /* ns in each bin */
};

/* A thread a batch named: its texts until its lane is made. */
struct lane_fill_thread {
    size_t file;
    char pid[LANE_FILL_TEXT], tid[LANE_FILL_TEXT];
};
/* A thread's name, read before or after the thread itself. */
struct lane_fill_name {
    size_t file;
    char pid[LANE_FILL_TEXT], tid[LANE_FILL_TEXT], name[LANE_FILL_TEXT];
};
#define LANE_FILL_MAX_NAMES 4096   /* thread names kept (the lanes drawn need few) */

struct lane_fill {
    int64_t lo;                 /* absolute ns where bin 0 starts */
    int64_t width;              /* ns a bin, a power of two; 0 before the first span */
    int64_t first, last;        /* the earliest start and latest end seen */
    struct lane_fill_lane *lanes;   /* LANE_FILL_MAX_LANES of room */
    size_t nlanes;
    size_t lanes_over;          /* lanes seen past the room */
    struct lane_fill_thread *threads;   /* threads named by batches */
    size_t nthreads, threads_cap;
    struct hmap thread_of;      /* file << 32 | thread index -> index in threads */
    struct lane_fill_name *names;
    size_t nnames, names_cap;
    struct hmap lane_of;        /* lane_key -> index in lanes, UINT32_MAX past the room */
    int64_t last_key;           /* the last span's lane (a lookup saved), -1 for none */
    uint32_t last_lane;
};

/* 0 or ERR_NOMEM. Release with lane_fill_fini. */
int lane_fill_init(struct lane_fill *f);
void lane_fill_fini(struct lane_fill *f);

/* Takes in a batch: its threads and names first, then its spans. 0 or
 * ERR_NOMEM (f keeps what it had). */
int lane_fill_add(struct lane_fill *f, const struct load_batch *b);

/* Copies src's range and lanes into dst (dst made by lane_fill_init; its
 * thread table is left as it is). */
void lane_fill_copy(struct lane_fill *dst, const struct lane_fill *src);

/* The share of [a, b) (absolute ns) the lane was busy, in [0, 1], from the
 * bins over it (a partly covered bin counts pro rata). */
double lane_fill_busy(const struct lane_fill *f, const struct lane_fill_lane *lane, int64_t a,
                      int64_t b);

#endif
