#ifndef HTX_ANALYSIS_SERIES_H
#define HTX_ANALYSIS_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "trace/counters_write.h"
#include "util/arena.h"
#include "util/err.h"

/* The time series behind the queue-length (§3.6) and memory-bandwidth (§3.7)
 * summaries, for the UI's counter view and `htx counters`. Like the analyses
 * they read the rank's current rows (model_select) and m->sem, do no I/O,
 * and allocate everything in the caller's arena (freed with it). Times are
 * ns from model->origin_ns. */

/* Queue length of one GPU stream: +1 when a launch starts, -1 when its
 * kernel starts, running sum at every change point (HTA's rows, in HTA's
 * order under --semantics=hta, ties in input order under htx). */
struct queue_series {
    int64_t stream;
    uint32_t pid, tid;          /* string ids: the stream's first GPU event */
    size_t n;
    int64_t *ts;                /* ascending */
    int64_t *queue_length;
    uint32_t *index;            /* traceEvents index of each sample's event */
};

/* Builds rank r's series, one per stream, by stream ascending; *nout = 0 when
 * the rank has no launch linked to a GPU event. *unpaired (may be NULL)
 * counts launch events that share a correlation with an earlier launch:
 * HTA's row-count assertion fails on them; htx lets the first launch of a
 * correlation enqueue its kernels and ignores the others. Returns 0 or
 * ERR_NOMEM. */
int queue_series_build(const struct model *m, const struct rank_model *r, struct arena *a,
                       struct queue_series **out, size_t *nout, uint64_t *unpaired,
                       struct err *e);

/* Memory bandwidth (GB/s) of one copy kind ("Memcpy HtoD", "Memset",
 * "Memcpy Unknown", ...): +bw at each transfer's start, -bw at its end,
 * running sum. */
struct membw_series {
    const char *label;          /* in the arena */
    uint32_t pid;               /* string id: the kind's first event */
    size_t n;
    int64_t *ts;                /* ascending */
    double *bw_gbps;
    uint64_t transfers;         /* events of this kind */
    uint64_t with_bw;           /* of those, with a "memory bandwidth (GB/s)" arg */
};

/* Builds rank r's series, one per kind, by label (byte order). *nout = 0 when
 * the rank has no GPU memory event. Returns 0 or ERR_NOMEM. */
int membw_series_build(const struct model *m, const struct rank_model *r, struct arena *a,
                       struct membw_series **out, size_t *nout, struct err *e);

/* Both series of rank r as counter tracks for counters_write_file: "Queue
 * Length" per stream (id = stream, args queue_length) and one track per copy
 * kind (args memory_bw_gbps), with absolute times (origin added back). All
 * arrays and strings live in the arena. Returns 0 or ERR_NOMEM. */
int series_counters_build(const struct model *m, const struct rank_model *r, struct arena *a,
                          struct counter_series **out, size_t *nout, struct err *e);

#endif
