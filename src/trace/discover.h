#ifndef HTX_TRACE_DISCOVER_H
#define HTX_TRACE_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Turning the user's PATH arguments into a list of trace files. */

struct trace_file {
    char *path;        /* as opened (dir + "/" + name for directory entries) */
    uint64_t size;     /* bytes on disk */
};

struct trace_file_list {
    struct trace_file *files;
    size_t count, cap;
    /* Notes about what was skipped (other files in a directory), one per line. */
    char *notes;
    size_t notes_len, notes_cap;
};

/* Expands each path: a directory contributes every regular file whose name
 * ends in .json, .json.gz or .htxs (a rank summary, read as the trace it was
 * made from; sorted by name, not recursive), a file is taken
 * as it is. Missing paths, unreadable directories, FIFOs and devices are
 * errors naming the path. Caller owns the list; free with trace_file_list_fini. */
int trace_discover(const char *const *paths, size_t npaths, struct trace_file_list *out,
                   struct err *e);
void trace_file_list_fini(struct trace_file_list *l);
/* Adds a line to the notes: 0, or ERR_NOMEM. */
int trace_file_list_note(struct trace_file_list *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Whether a directory entry's name is a trace's: *.json, *.json.gz, *.htxs. */
bool trace_is_trace_name(const char *name);

/* A rank number written in a file name: "rank-3", "rank3", "rank_3" (case
 * insensitive, last occurrence wins). Returns it, or -1 when there is none.
 * Borrows path until return. */
long trace_rank_from_filename(const char *path);

#endif
