#ifndef HTX_TRACE_READ_H
#define HTX_TRACE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"
#include "trace/source.h"

/* What trace_read_file and trace_read_buffer do, over any source and with a
 * chosen scan buffer size (0 = the default; tests use tiny ones to split
 * elements across refills). Errors are prefixed with name. Borrows
 * everything until return; the caller still closes src. */
int trace_read_source(struct trace_source *src, const char *name, const struct trace_sink *sink,
                      const struct trace_limits *limits, size_t buf_size, struct err *e);

/* The memory guard (trace_limits.max_memory): ERR_LIMIT naming the limit
 * when the process's resident set is over it, else 0 (also when it is 0).
 * Readers call it every READER_MEMORY_CHECK_EVERY elements. */
int trace_memory_guard(uint64_t max_memory, struct err *e);
#define READER_MEMORY_CHECK_EVERY 4096

#endif
