#ifndef HTX_TRACE_READ_H
#define HTX_TRACE_READ_H

#include <stdbool.h>
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

/* trace_read_file on two threads: split->tail receives, from a second
 * thread, the elements from an element start guessed in the middle of a
 * large plain file to the end of traceEvents, numbered from 0. When the
 * caller's thread reaches that element, split->adopt(ctx, its index) is to
 * take them over (0), refuse them (> 0: they are read again by the caller's
 * thread) or fail (< 0, e set). Files too small, gzip, a wrong guess or a
 * second half that fails: sink gets every element itself, as from
 * trace_read_file. tail's contents are to be dropped unless adopted. */
struct trace_split_opts {
    const struct trace_sink *tail;
    int (*adopt)(void *ctx, uint64_t first_index, struct err *e);
    void *ctx;
};
int trace_read_file_split(const char *path, const struct trace_sink *sink,
                          const struct trace_split_opts *split, const struct trace_limits *limits,
                          struct err *e);
/* What the trace at path is, by its size and compression alone (both
 * false when it cannot be read):
 *   large: enough for trace_read_file_split to read it on two threads (a
 *          plain file may still have no element start where it looks);
 *   small: at most 4 MiB of JSON: the file's size, or a gzip file's own
 *          (its trailer's) when it is that small itself. Such a trace's
 *          pack is deflated at zlib's level 9 (trace_pack_small). */
struct trace_file_size {
    bool large, small;
};
struct trace_file_size trace_file_size_of(const char *path);

/* The memory guard (trace_limits.max_memory): ERR_LIMIT naming the limit
 * when the process's resident set is over it, else 0 (also when it is 0).
 * Readers call it every READER_MEMORY_CHECK_EVERY elements. */
int trace_memory_guard(uint64_t max_memory, struct err *e);
#define READER_MEMORY_CHECK_EVERY 4096

#endif
