#ifndef HTX_TRACE_READ_H
#define HTX_TRACE_READ_H

#include <stddef.h>

#include "trace/event.h"
#include "trace/source.h"

/* What trace_read_file and trace_read_buffer do, over any source and with a
 * chosen scan buffer size (0 = the default; tests use tiny ones to split
 * elements across refills). Errors are prefixed with name. Borrows
 * everything until return; the caller still closes src. */
int trace_read_source(struct trace_source *src, const char *name, const struct trace_sink *sink,
                      const struct trace_limits *limits, size_t buf_size, struct err *e);

#endif
