#ifndef HTX_UTIL_SUMMARY_FILE_H
#define HTX_UTIL_SUMMARY_FILE_H

/* The container of a rank summary file (rank-NNNNN.htxs).
 *
 * Layout, all integers little-endian, no pointers, no padding:
 *   header   magic "HTXSUMM\0" (8) | u16 major | u16 minor | u32 section count | u64 file length
 *   section  u32 kind | u32 reserved (0) | u64 payload length | payload   (repeated)
 *   trailer  u32 CRC-32 (IEEE, as zlib's crc32) of every byte before it
 * From minor 5 the last section is SUMMARY_FILE_CHECKS: the CRC-32 of the
 * file header, then of each section before it, of its header and of its
 * payload, so a reader that wants the small sections (not a rank's
 * events) checks them without reading the rest.
 *
 * Sections are typed so a new kind (e.g. the collective records) is
 * one writer and one reader function: readers of the same major version skip
 * kinds they do not know; another major version is refused. The reader
 * treats the file as hostile and validates the whole file (length, checksum,
 * every section bound) before handing out any section, so a bad file is
 * never half-read. */

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define SUMMARY_FILE_SUFFIX ".htxs"   /* rank-NNNNN.htxs */
#define SUMMARY_FILE_MAGIC "HTXSUMM"
#define SUMMARY_FILE_MAGIC_LEN 8
#define SUMMARY_FILE_MAJOR 1
/* 7: the thread lanes' names (SUMMARY_FILE_THREADS);
 * 6: the stored analyses' tables under both semantics (SUMMARY_FILE_TABLES_PAIR);
 * 5: a last section of per-section checksums (SUMMARY_FILE_CHECKS);
 * 4: the kernel breakdown's per-rank parts among the tables, and the
 * collective records (SUMMARY_FILE_COLLS); 3: a tiles
 * section (SUMMARY_FILE_TILES); 2: tables and events deflated with
 * trace/pack_dict.h's dictionary; 1: tables deflated (SUMMARY_FILE_TABLES_Z);
 * 0: plain tables. All read. */
#define SUMMARY_FILE_MINOR 7
#define SUMMARY_FILE_HEADER_LEN 24
#define SUMMARY_FILE_SECTION_HEADER_LEN 16
#define SUMMARY_FILE_TRAILER_LEN 4
/* Summaries are small (< 2 % of a trace); anything bigger is refused. */
#define SUMMARY_FILE_MAX_FILE ((uint64_t)1 << 30)

enum summary_file_kind {
    SUMMARY_FILE_SOURCE = 1, /* struct summary_file_source: the trace this summary was made from */
    SUMMARY_FILE_RANK = 2,   /* struct summary_file_rank: the rank and its report "inputs" record */
    SUMMARY_FILE_TABLES = 3, /* one analysis' result tables under one semantics (summary/tables.h) */
    SUMMARY_FILE_EVENTS = 4, /* the rank's events, packed (trace/pack.h): what the trace reader read */
    SUMMARY_FILE_TABLES_Z = 5, /* SUMMARY_FILE_TABLES' contents deflated: its length (u64), then the stream */
    SUMMARY_FILE_TILES = 6,    /* the rank's busy time over time (analysis/tiles.h), deflated (summary/tiles_io.h) */
    SUMMARY_FILE_COLLS = 7,    /* the rank's communication kernels as collective records, deflated
                                  (summary/colls_io.h) */
    SUMMARY_FILE_TABLES_VZ = 9, /* SUMMARY_FILE_TABLES' contents with varint counts and cells, deflated
                                   (summary/tables.c) */
    SUMMARY_FILE_CHECKS = 8,   /* last: u32 CRC-32 of the file header, then of each section
                                  before it, of its header and of its payload */
    SUMMARY_FILE_TABLES_PAIR = 10, /* one analysis' tables under htx's then HTA's semantics, each
                                      as SUMMARY_FILE_TABLES_VZ holds them, deflated as one stream (the
                                      second's names refer to the first's) */
    SUMMARY_FILE_TRUST = 11,   /* what the rank's trace said of its job and what its load dropped
                                  (summary/tables.h: summary_file_trust_write) */
    SUMMARY_FILE_THREADS = 12, /* the names its thread_name metadata gives the rank's thread
                                  lanes (summary/tiles_io.h) */
};

/* Writer: an in-memory buffer that grows; any failure is sticky and reported
 * by summary_file_writer_finish, so callers can chain puts without checks. Large
 * byte runs (a rank's packed events) can be borrowed instead of copied: the
 * file is then the buffer's pieces and the borrowed ones in order. */
#define SUMMARY_FILE_MAX_BORROWED 4
struct summary_file_borrowed {
    size_t at;          /* offset in buf the bytes come before */
    const uint8_t *p;
    size_t n;
};
struct summary_file_writer {
    uint8_t *buf;
    size_t len, cap;          /* of buf */
    size_t section_start;     /* offset of the open section's header, or 0 */
    uint64_t section_borrowed; /* borrowed_len when the open section began */
    uint32_t sections;
    int failed;
    struct summary_file_borrowed borrowed[SUMMARY_FILE_MAX_BORROWED];
    size_t nborrowed;
    uint64_t borrowed_len;
    size_t section_nborrowed;  /* nborrowed when the open section began */
    uint32_t *checks;          /* each ended section's header and payload CRC-32s (SUMMARY_FILE_CHECKS) */
    size_t nchecks, checks_cap;
};
/* A stretch of the file as written: SUMMARY_FILE_MAX_PIECES at most. */
struct summary_file_piece {
    const uint8_t *p;
    size_t n;
};
#define SUMMARY_FILE_MAX_PIECES (2 * SUMMARY_FILE_MAX_BORROWED + 1)

void summary_file_writer_init(struct summary_file_writer *w);
void summary_file_writer_fini(struct summary_file_writer *w);
void summary_file_begin_section(struct summary_file_writer *w, uint32_t kind);
/* The same with a tag in the header (its second word, 0 before tags were):
 * what the section holds, so a reader can skip it without reading it. */
void summary_file_begin_section_tagged(struct summary_file_writer *w, uint32_t kind, uint32_t tag);
void summary_file_end_section(struct summary_file_writer *w);
void summary_file_put_u32(struct summary_file_writer *w, uint32_t v);
void summary_file_put_u64(struct summary_file_writer *w, uint64_t v);
void summary_file_put_i64(struct summary_file_writer *w, int64_t v);
void summary_file_put_f64(struct summary_file_writer *w, double v);
void summary_file_put_bytes(struct summary_file_writer *w, const void *p, size_t n);
/* Like summary_file_put_bytes, but p[0..n) is not copied: it must stay unchanged
 * until the file is written (summary_file_writer_pieces) or summary_file_writer_finish
 * returns. At most SUMMARY_FILE_MAX_BORROWED runs a writer. */
void summary_file_put_borrowed(struct summary_file_writer *w, const void *p, size_t n);
/* LEB128 (7 bits a byte, low first); signed ones zigzag'd first. */
void summary_file_put_varint(struct summary_file_writer *w, uint64_t v);
void summary_file_put_svarint(struct summary_file_writer *w, int64_t v);
/* A string: u32 length then the bytes (no NUL). */
void summary_file_put_str(struct summary_file_writer *w, const char *s, size_t n);
/* Writes the SUMMARY_FILE_CHECKS section, header and checksum; the file is
 * then pieces[0..*n), in order (pointing into w and into the borrowed
 * bytes). ERR_NOMEM when a put failed or the file would pass
 * SUMMARY_FILE_MAX_FILE. Call once. */
int summary_file_writer_pieces(struct summary_file_writer *w,
                               struct summary_file_piece pieces[SUMMARY_FILE_MAX_PIECES], size_t *n,
                               struct err *e);
/* summary_file_writer_pieces in one buffer: on success *out and *len point into w
 * (owned by w), the borrowed bytes copied in. */
int summary_file_writer_finish(struct summary_file_writer *w, const uint8_t **out, size_t *len, struct err *e);
/* What was put so far, without the header finish writes (a writer used as
 * a growing buffer, never with borrowed bytes); NULL when a put failed. */
const uint8_t *summary_file_writer_body(const struct summary_file_writer *w, size_t *len);

/* Reader over a validated buffer. */
struct summary_file_section {
    uint32_t kind;
    const uint8_t *data;
    uint64_t len;
    uint32_t tag;   /* the header's second word: what the section holds, 0 unknown */
};

struct summary_file_doc {
    uint8_t *owned; /* file contents when loaded by summary_file_load_file */
    uint64_t len;   /* bytes of the whole file */
    uint16_t major, minor;
    uint32_t nsections;
    struct summary_file_section *sections;
};

/* Validates buf (name is used in messages) and indexes its sections; buf must
 * outlive doc. Errors: ERR_PARSE naming what is wrong (magic, version,
 * truncated, checksum, section bounds). */
int summary_file_parse(struct summary_file_doc *doc, const uint8_t *buf, size_t len, const char *name, struct err *e);
int summary_file_load_file(struct summary_file_doc *doc, const char *path, struct err *e);
/* summary_file_load_file without the payloads of the sections of kind skip (their
 * data NULL, their len kept): the others are read alone and each checked
 * against SUMMARY_FILE_CHECKS, the header and every section bound as summary_file_parse
 * checks them; the skipped ones are neither read nor checked. A summary
 * older than the checks is loaded whole. Errors as summary_file_load_file's. */
int summary_file_load_file_sparse(struct summary_file_doc *doc, const char *path, uint32_t skip,
                                  struct err *e);
void summary_file_doc_fini(struct summary_file_doc *doc);
/* Reads up to n bytes of fd from offset at (pread, again when interrupted
 * or short): how many, fewer only at the end of the file, or -1. */
long long summary_file_read_at(int fd, void *buf, size_t n, uint64_t at);
/* The first section of `kind` of the summary at path, read without the
 * rest of the file, and so without the check of its checksum: for a hint
 * (how many events a rank has, to choose how to open a job), never for
 * what is shown. Malloc'ed into *data (the caller frees it); with data
 * NULL, only whether there is one (and its length). ERR_EMPTY
 * when it has none, ERR_PARSE when the file is not a summary of this
 * version or its sections do not fit it, ERR_IO, ERR_NOMEM. */
int summary_file_peek_section(const char *path, uint32_t kind, uint8_t **data, uint64_t *len,
                              struct err *e);
/* The first section of that kind, or NULL. */
const struct summary_file_section *summary_file_find(const struct summary_file_doc *doc, uint32_t kind);

/* Bounds-checked cursor over one section; a read past the end sets bad and
 * yields zeros, so a reader checks bad once at the end. */
struct summary_file_cur {
    const uint8_t *p, *end;
    int bad;
};

void summary_file_cur_init(struct summary_file_cur *c, const struct summary_file_section *s);
uint32_t summary_file_get_u32(struct summary_file_cur *c);
uint64_t summary_file_get_u64(struct summary_file_cur *c);
int64_t summary_file_get_i64(struct summary_file_cur *c);
double summary_file_get_f64(struct summary_file_cur *c);
/* As summary_file_put_varint wrote them; more than 64 bits is bad. */
uint64_t summary_file_get_varint(struct summary_file_cur *c);
int64_t summary_file_get_svarint(struct summary_file_cur *c);
/* A string as written by summary_file_put_str: points into the section, not NUL-terminated. */
const char *summary_file_get_str(struct summary_file_cur *c, size_t *n);

/* CRC-32 (IEEE 802.3, reflected, init and xorout 0xFFFFFFFF): the same value
 * as zlib's crc32(). Hand-rolled because zlib belongs to src/trace only
 * (tests/layering.sh) and a table CRC is a few lines. */
uint32_t summary_file_crc32(uint32_t crc, const void *p, size_t n);

#endif
