#ifndef HTX_TESTS_TRACE_EVENT_LOG_H
#define HTX_TESTS_TRACE_EVENT_LOG_H

/* A sink that writes every call it gets (events with every field, warnings,
 * metadata) as one canonical line of text, so two readings of a trace can
 * be compared whole: the JSON reader and a replayed pack (trace/pack.h)
 * must give the same log. Used by the Check suite and the reader fuzz
 * target. */

#include <stddef.h>

#include "trace/event.h"

struct event_log {
    char *text;
    size_t len, cap;
    int failed;   /* out of memory */
};

struct trace_sink event_log_sink(struct event_log *log);
void event_log_fini(struct event_log *log);

#endif
