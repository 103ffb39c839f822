#ifndef HTX_TESTS_CHECK_TRACE_H
#define HTX_TESTS_CHECK_TRACE_H

/* Helpers shared by the trace reader's Check suites. */

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"
#include "util/err.h"

/* One event as a test keeps it: the sink copies every string. */
struct kept_event {
    uint64_t index;
    enum trace_ph ph;
    char *name, *cat, *pid, *tid, *arg_name;
    size_t name_len;
    bool has_name, has_cat, pid_is_num, tid_is_num;
    struct trace_time ts, dur;
    struct trace_int stream, correlation, bytes, flow_id;
    double mem_bw_gbps;
    bool has_mem_bw, flow_bind_enclosing;
};

/* A sink that keeps everything it is given. */
struct collect {
    struct kept_event *events;
    size_t nevents, cap;
    struct trace_warning warnings[64];
    size_t nwarnings;
    struct trace_meta meta;
    int meta_calls;
    int progress_calls;
    uint64_t last_progress;
    int cancel_at_progress;   /* cancel on this call (1-based); 0 = never */
};

struct trace_sink collect_sink(struct collect *c);
void collect_fini(struct collect *c);

/* Reads a JSON text (NUL-terminated) with trace_read_source over a memory
 * source and the given scan buffer size (0 = default). */
int load_text(const char *text, struct collect *c, const struct trace_limits *lim,
              size_t buf_size, struct err *e);

/* Same over len bytes (plain or gzip). */
int load_bytes(const void *buf, size_t len, struct collect *c, const struct trace_limits *lim,
               size_t buf_size, struct err *e);

/* $HTX_SRCDIR/rel (or ../rel when HTX_SRCDIR is unset); caller frees. */
char *srcdir_path(const char *rel);

/* gzip (one member) of len bytes; caller frees. */
unsigned char *gzip_bytes(const void *buf, size_t len, size_t *out_len);

/* {"traceEvents": [elements]}; caller frees. */
char *doc_with(const char *elements);

Suite *trace_events_suite(void);
Suite *trace_files_suite(void);
Suite *trace_pack_suite(void);
Suite *trace_deflater_suite(void);
Suite *trace_bytescan_suite(void);

#endif
