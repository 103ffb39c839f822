#ifndef HTX_SUMMARY_TILES_IO_H
#define HTX_SUMMARY_TILES_IO_H

/* A rank's tiles (analysis/tiles.h) in a summary: section SUMMARY_FILE_TILES, its
 * raw length (u64) then the deflate stream of:
 *   varint width_log2 | svarint rank | svarint first | varint count | varint nlanes
 *   per lane: varint kind | svarint stream (streams) or str pid, str tid
 *             (threads; varint length then bytes) | varint class mask
 *             per class in the mask: varint n | per bucket: varint gap from
 *             the previous (the first: from `first`) | varint busy ns, 0
 *             for a full bucket
 * Full buckets are written as 0 because a busy lane is mostly full ones,
 * which then deflate to almost nothing. */

#include "analysis/tiles.h"
#include "summary/deflated.h"
#include "util/arena.h"
#include "util/err.h"
#include "util/summary_file.h"

/* Appends the section; a failure is the writer's (sticky). */
void summary_file_tiles_write(struct summary_file_writer *w, const struct tiles *t);
/* The same in two steps (summary/deflated.h), the deflating on any thread:
 * d->z NULL when it failed. */
void summary_file_tiles_deflate(const struct tiles *t, struct summary_file_deflated *d);

/* Reads the doc's tiles into t (arrays in a). ERR_EMPTY when it has
 * none (made before they were), ERR_PARSE naming `name` when malformed or
 * unsound (tiles_check), ERR_NOMEM. */
int summary_file_tiles_read(const struct summary_file_doc *doc, const char *name, struct arena *a,
                            struct tiles *t, struct err *e);

/* The names of a rank's thread lanes (its thread_name metadata): section
 * SUMMARY_FILE_THREADS, not deflated:
 *   varint n | per thread: pid, tid, name (varint length then bytes)
 * A summary made before it has none: its lanes are shown unnamed. */
#define TILES_THREAD_NAME_MAX 256   /* a longer name is not stored */
struct summary_thread_name {
    const char *pid, *tid, *name;   /* their text, NUL-terminated */
};

/* Appends the section of the n names; a failure is the writer's (sticky). */
void summary_file_threads_write(struct summary_file_writer *w, const struct summary_thread_name *v,
                                size_t n);
/* Reads the doc's names into *v (*n of them, in a). ERR_EMPTY when it has
 * none, ERR_PARSE naming `name` when malformed, ERR_NOMEM. */
int summary_file_threads_read(const struct summary_file_doc *doc, const char *name, struct arena *a,
                              struct summary_thread_name **v, size_t *n, struct err *e);

#endif
