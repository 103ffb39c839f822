#ifndef HTX_TRACE_COUNTERS_WRITE_H
#define HTX_TRACE_COUNTERS_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* `htx counters`: a copy of one trace file with Chrome-trace counter events
 * ("ph": "C") added to its traceEvents array, as HTA's
 * generate_trace_with_counters does (spec §3.11), so that Perfetto and
 * chrome://tracing draw queue length and memcpy bandwidth as counter tracks.
 *
 * The source document is streamed through unchanged, byte for byte: the
 * writer finds the closing ']' of the top-level "traceEvents" array (or of a
 * bare top-level array) with a small JSON scanner and inserts the counter
 * events there. No DOM is built, so memory does not grow with the file.
 * This layer knows nothing about the model: series arrive as plain arrays. */

/* One counter track: n points (ts, value). Each point becomes
 *   {"ph":"C","name":NAME,"pid":PID[,"tid":TID][,"id":ID],"ts":TS,
 *    "args":{ARG:VALUE}}
 * PID/TID/ID are written as JSON integers when the text is one, else as JSON
 * strings. TS is ts_ns / 1000 written exactly (microseconds with up to three
 * decimals), so pass absolute trace time: model->origin_ns + t. Points whose
 * value is not finite are skipped. The writer borrows every pointer. */
struct counter_series {
    const char *name;        /* "Queue Length", "Memcpy HtoD", ... */
    const char *arg;         /* args key: "queue_length", "memory_bw_gbps" */
    const char *pid;         /* required */
    const char *tid;         /* NULL: no "tid" field */
    const char *id;          /* NULL: no "id" (id separates same-name tracks of one pid) */
    const int64_t *ts_ns;
    const double *values;
    size_t n;
    bool integer_values;     /* write values rounded to integers */
};

/* The file name HTA's convention gives the output: the source path without a
 * trailing ".json.gz" or ".json", plus "_with_counters.json.gz". Writes into
 * the caller's out (outsz bytes); borrows src_path until return. Returns 0,
 * or ERR_USAGE when it does not fit. */
int counters_output_path(const char *src_path, char *out, size_t outsz, struct err *e);

/* Writes dst_path (gzip) = src_path (plain or gzip JSON) plus the counter
 * events of series[0..nseries), through util/outfile: never writes to the
 * source or to any of inputs[0..ninputs) (the run's other files; compared
 * by inode, so links count), refuses a symbolic link at dst_path, and an
 * existing dst_path unless force. The file appears atomically (written to a temporary
 * file beside it, then linked or renamed into place); on failure nothing is
 * left behind. Returns 0 or a negative ERR_* with e naming the file (ERR_USAGE
 * for the refusals, ERR_IO, ERR_PARSE when no traceEvents array is found).
 * Borrows everything until return. */
int counters_write_file(const char *src_path, const char *dst_path, bool force,
                        const char *const *inputs, size_t ninputs,
                        const struct counter_series *series, size_t nseries, struct err *e);

#endif
