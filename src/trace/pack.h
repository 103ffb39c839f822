#ifndef HTX_TRACE_PACK_H
#define HTX_TRACE_PACK_H

/* A packed trace: what the reader handed its sink (every trace_event,
 * warning and the metadata, field by field), recorded compactly and
 * deflated, so that replaying it into a sink gives that sink exactly the
 * calls reading the trace gave. The model built from a pack is therefore
 * the model of the trace, under either semantics, and so is every analysis
 * on it: this is how a rank summary (the SUMMARY_FILE_EVENTS section of
 * util/summary_file.h) and the cache answer everything the trace answers.
 *
 * Layout of a pack (little-endian):
 *   u32 version | u64 raw length | u32 source path length | source path |
 *   zlib stream of the raw records (from version 3 with trace/pack_dict.h's
 *   preset dictionary)
 * Raw records, each an op byte: 1 event, 2 warning, 3 metadata, 0 end;
 * from version 4 their fields are stored by columns (pack_format.h), and
 * from version 5 a file read by two threads is packed by two recorders, the
 * second half's blocks marked as having a dictionary of their own.
 * Integers are LEB128 varints (signed ones zigzag'd, times and correlations
 * as deltas from the previous event's), strings go through a dictionary
 * (a reference to an earlier string, or the next id followed by the bytes),
 * and a float time's double is stored only when it is not ns / 1000. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"
#include "util/err.h"

/* 4: records by columns, in blocks (pack_format.h). 3: deflated with the
 * preset dictionary of trace/pack_dict.h (so is 4). 2: a new
 * string is its length and bytes, or, when it is the text of a run of
 * evenly spaced integers ("[0, 1, ..., 1023]", a process group's ranks),
 * its first value, step and count. 1: length and bytes only. All read. */
/* 5: also blocks of a second reading thread's records (pack_format.h).
 * 6: a block's new strings before its other columns (pack_format.h), with
 * or without a second half's blocks: what is written. All read. */
#define TRACE_PACK_VERSION 6
#define TRACE_PACK_VERSION_MAX 6
/* The source path is the trace's path as given when it was packed. */
#define TRACE_PACK_PATH_MAX 4096
/* A pack starts with u32 version | u64 raw records' length | u32 path
 * length, all little-endian, then the path, then the records' zlib stream. */
#define TRACE_PACK_HEADER_FIXED 16

struct trace_pack;

/* A recorder for the file at source_path (recorded in the pack). NULL when
 * out of memory. */
struct trace_pack *trace_pack_new(const char *source_path);
void trace_pack_free(struct trace_pack *p);
/* A sink that records each call, then makes the same call on next (which
 * must outlive out's use). */
void trace_pack_sink(struct trace_pack *p, const struct trace_sink *next, struct trace_sink *out);
/* The ids the next sink gave the strings of the element it was just
 * handed, if it was element index: {name, cat, pid, tid}, in a numbering of
 * its own where one string has one id, UINT32_MAX for a string it gave
 * none; NULL when it gave none. */
typedef const uint32_t *(*trace_pack_ids_fn)(void *ctx, uint64_t index);
/* Records each event after the next sink took it, asking ids for the ids
 * of its strings: an id seen before stands for the string, which is then
 * not hashed again (the pack is the same). Call it before the first record. */
void trace_pack_reuse_ids(struct trace_pack *p, trace_pack_ids_fn ids, void *ctx);
/* Makes p (new, nothing recorded yet) the recorder of a file's second
 * half, read by a thread of its own (trace_read_file_split): its records
 * join another pack's with trace_pack_adopt, and it is never finished. */
void trace_pack_mark_second(struct trace_pack *p);
/* Appends the records of second (trace_pack_mark_second), whose element
 * indices count from 0, after p's, as the elements from first_index on:
 * what adopting a second half (trace_split_opts.adopt) does to the pack.
 * 0, or the error either recorder met (ERR_NOMEM). */
int trace_pack_adopt(struct trace_pack *p, struct trace_pack *second, uint64_t first_index);
/* Deflates the records on a thread of their own while they are recorded,
 * instead of all at trace_pack_finish, so that a caller with a core to
 * spare (summarize) gets the pack when the reading ends; the raw records
 * are then never held whole. reading_busy: the file is read on every core
 * (trace_file_size_of: large), so the first records are held rather than also
 * deflated by zlib in case the pack ends small (trace_deflater_hold_only);
 * the pack is the same either way. Call it before the first record; 0, or
 * ERR_NOMEM. Without a thread to spare it silently keeps the default. */
int trace_pack_deflate_behind(struct trace_pack *p, bool reading_busy);
/* The trace is small (trace_file_size_of: small): its records are deflated at
 * zlib's strongest level, where a byte counts most (a summary within 2 %
 * of its trace) and costs least. Call it before the first record. */
void trace_pack_small(struct trace_pack *p);
/* Records the end: a deflating thread gets the last records now and
 * finishes while the caller does other work; trace_pack_finish then only
 * waits for it. Nothing may be recorded after. */
void trace_pack_seal(struct trace_pack *p);
/* Ends the recording (deflating the records, once: a later call gives the
 * same pack); *out and *len are the pack, owned by p. ERR_NOMEM, or the
 * first error met while recording. */
int trace_pack_finish(struct trace_pack *p, const uint8_t **out, size_t *len, struct err *e);

/* How a pack stands in for a file: the state of the trace it was made from,
 * which the replayed metadata carries, and the size of the file holding the
 * pack, which progress counts up to. */
struct trace_pack_origin {
    enum trace_source_state state;
    uint64_t file_bytes;
};

/* Replays a pack into sink, as trace_read_buffer reads a trace: name is used
 * in messages; the pack is hostile input (every length, id and varint is
 * checked; ERR_PARSE naming what is wrong). limits->max_uncompressed bounds
 * the raw records. origin may be NULL (no state; progress in bytes of the
 * pack). Borrows everything until return. */
int trace_unpack(const char *name, const void *pack, size_t len,
                 const struct trace_pack_origin *origin, const struct trace_sink *sink,
                 const struct trace_limits *limits, struct err *e);

/* trace_unpack on two threads (from version 4, records of 1 MiB or more):
 * split->tail receives, from a second thread, the elements of the blocks
 * from the middle on, numbered from 0, and split->adopt(ctx, the index of
 * the first) takes them over (0), refuses them (> 0: the caller's thread
 * replays them itself) or fails (< 0, e set), as for trace_read_file_split.
 * sink gets the same calls as from trace_unpack, less the adopted ones.
 * tail's contents are to be dropped unless adopted. */
struct trace_split_opts;
int trace_unpack_split(const char *name, const void *pack, size_t len,
                       const struct trace_pack_origin *origin, const struct trace_sink *sink,
                       const struct trace_split_opts *split, const struct trace_limits *limits,
                       struct err *e);

/* The source path recorded in a pack (not NUL-terminated), or NULL when the
 * header is malformed. */
const char *trace_pack_source(const void *pack, size_t len, size_t *path_len);

#endif
