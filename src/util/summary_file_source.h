#ifndef HTX_UTIL_SUMMARY_FILE_SOURCE_H
#define HTX_UTIL_SUMMARY_FILE_SOURCE_H

/* The source record of a summary (section SUMMARY_FILE_SOURCE): which trace it was
 * made from, so that a summary whose trace changed is detected as stale
 * without reading the whole trace: size, mtime and a hash of the first and
 * the last MiB (FNV-1a 64, enough to notice a rewrite; not a security hash);
 * and, for a change that keeps the size and mtime (cp -p, rsync -t,
 * touch -r), the hash of its whole content (util/content_hash.h), which the
 * cache checks behind its first screen. */

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/summary_file.h"

#define SUMMARY_FILE_SOURCE_PATH_MAX 4096
#define SUMMARY_FILE_HASH_SPAN ((int64_t)1 << 20)

struct summary_file_source {
    /* Where the trace is: as the summary was given it, or, once read back,
     * where it was found from here (summary_file_source_read). */
    char path[SUMMARY_FILE_SOURCE_PATH_MAX];
    char given[SUMMARY_FILE_SOURCE_PATH_MAX];      /* as recorded */
    char absolute[SUMMARY_FILE_SOURCE_PATH_MAX];   /* its real path then; "" if unknown */
    int64_t size;
    int64_t mtime_ns;
    uint64_t head_hash, tail_hash;
    bool has_content;        /* content_hash recorded (not by older htx) */
    uint64_t content_hash;   /* util_content_hash_fd of the whole trace */
};

/* FNV-1a 64 of n bytes, continuing from h (SUMMARY_FILE_FNV_BASIS to start): the
 * hash of the source record, and of a trace's path in the cache's names. */
#define SUMMARY_FILE_FNV_BASIS 0xcbf29ce484222325ull
uint64_t summary_file_fnv1a(uint64_t h, const void *p, size_t n);

/* Fills src from the file at path (stat, two 1 MiB reads, its real path,
 * and the whole file read once for its content hash). */
int summary_file_source_of(struct summary_file_source *src, const char *path, struct err *e);
void summary_file_source_write(struct summary_file_writer *w, const struct summary_file_source *src);
/* Reads the SUMMARY_FILE_SOURCE section of doc, the summary at name;
 * ERR_PARSE if absent or malformed. src->path is then the first of the
 * trace's candidate paths that exists from here: as recorded (relative to
 * the working directory), relative to the summary's directory, then the
 * real path recorded; the first when none does. */
int summary_file_source_read(struct summary_file_source *src, const struct summary_file_doc *doc, const char *name, struct err *e);
/* The same from the summary at path, its other sections not read
 * (summary_file_peek_section: a hint, its checksum not checked); ERR_PARSE if
 * absent or malformed, or summary_file_peek_section's error. */
int summary_file_source_peek(struct summary_file_source *src, const char *path, struct err *e);

/* The paths summary_file_source_read tries for the summary at name, in its
 * order, in words ("A here and beside the summary, then B") in buf (n
 * bytes); for an error saying what was tried. */
void summary_file_source_tried(const struct summary_file_source *src, const char *name, char *buf,
                               size_t n);

enum summary_file_freshness {
    SUMMARY_FILE_FRESH = 0,
    SUMMARY_FILE_STALE = 1,       /* the trace is there but changed */
    SUMMARY_FILE_UNREACHABLE = 2, /* the trace cannot be read from here */
};

/* Compares the recorded source with the file at its path now: its size and
 * mtime, and when deep also the hashes of the first and last MiB (2 MiB
 * read); never the whole content (summary_file_source_same_content). */
enum summary_file_freshness summary_file_source_check(const struct summary_file_source *recorded, bool deep);

/* Whether the file at recorded->path has the recorded content hash, read
 * whole (*stop, when given, ends the reading: ERR_CANCEL). 1 the same, 0
 * changed (or no hash recorded: nothing vouches for it), or ERR_IO,
 * ERR_NOMEM, ERR_CANCEL. */
int summary_file_source_same_content(const struct summary_file_source *recorded,
                                     const atomic_bool *stop);

#endif
