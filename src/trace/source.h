#ifndef HTX_TRACE_SOURCE_H
#define HTX_TRACE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* The bytes of a trace document, plain or gzip (detected by the magic bytes
 * 1f 8b, never by the name), read from a file or from memory. A gzip stream
 * is inflated on the fly, member after member (concatenated gzip files are
 * one document); the uncompressed document is never held whole. */

struct trace_source;

/* Reports compressed (file) bytes consumed so far; non-zero cancels. */
typedef int (*trace_progress_fn)(void *ctx, uint64_t file_bytes_read);

struct trace_source_opts {
    uint64_t max_uncompressed;    /* 0 = no limit; more is ERR_LIMIT */
    trace_progress_fn progress;   /* may be NULL */
    void *progress_ctx;
    uint64_t progress_every;      /* bytes of input between calls; 0 = 4 MiB */
    /* gzip only: a thread of its own inflates ahead of the caller into a
     * ring of blocks, so inflating and parsing one file use two cores.
     * Same bytes, same errors (after the bytes before them). */
    bool read_ahead;
};

/* Opens path for reading. Returns NULL with e set (ERR_IO: strerror or "not
 * a regular file", without the path, which the caller adds; ERR_NOMEM).
 * Borrows opts until trace_source_close; caller owns the source and closes
 * it with trace_source_close. */
struct trace_source *trace_source_open_file(const char *path, const struct trace_source_opts *opts,
                                             struct err *e);

/* Reads from len bytes at buf, which are borrowed until trace_source_close. */
struct trace_source *trace_source_open_buffer(const void *buf, size_t len,
                                              const struct trace_source_opts *opts,
                                              struct err *e);

/* Reads up to cap bytes of the uncompressed document into dst. Sets *got
 * (0 only at the end of the document). Returns 0 or a negative ERR_*: ERR_IO,
 * ERR_PARSE for broken gzip (truncated, bad CRC, trailing garbage), ERR_LIMIT,
 * ERR_CANCEL. Messages carry no file name; the caller prefixes it. */
int trace_source_read(struct trace_source *s, char *dst, size_t cap, size_t *got, struct err *e);

/* Compressed bytes consumed and uncompressed bytes produced so far; they
 * only read s. */
uint64_t trace_source_doc_bytes(const struct trace_source *s);

/* A guess at the document's size before reading, for sizing buffers: a
 * plain document in memory, or gzip's recorded length in memory; else 0. */
uint64_t trace_source_size_hint(const struct trace_source *s);

/* Whether a and b were opened on the same file in the same state (device,
 * inode, size and modification time): a file renamed over or written
 * between two opens is another file. */
bool trace_source_same_file(const struct trace_source *a, const struct trace_source *b);

/* Goes to byte offset of the document: the next read starts there. A plain
 * file goes anywhere; a gzip document (file or memory) only forward, by
 * inflating what is skipped, so its errors (a bad CRC, the limit) are met
 * there as by reading. ERR_INTERNAL for a plain document in memory or a
 * gzip one backward, ERR_IO when the seek fails. */
int trace_source_seek(struct trace_source *s, uint64_t offset, struct err *e);

/* Input (compressed, for gzip) bytes consumed so far: what the document
 * read so far took of the file. With read_ahead, as of the block read last. */
uint64_t trace_source_input_bytes(const struct trace_source *s);

/* Whether the document turned out to be gzip (false before the first read). */
bool trace_source_is_gzip(const struct trace_source *s);

/* The first byte of the input (compressed or not); -1 when empty or unread. */
int trace_source_first_byte(const struct trace_source *s);

/* File mode: whether the file's size or modification time differs from when
 * it was opened (someone wrote to it while it was read). */
bool trace_source_changed(const struct trace_source *s);

/* Releases everything the source holds; s may be NULL. */
void trace_source_close(struct trace_source *s);

#endif
