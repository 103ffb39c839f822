/* Reading a pack's records (pack_format.h) into a trace sink: the
 * reader of one run of blocks and its delta state. unpack.c drives one or
 * two of them over a pack; nothing outside src/trace includes this. */
#ifndef HTX_TRACE_UNPACK_RECORDS_H
#define HTX_TRACE_UNPACK_RECORDS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/pack.h"
#include "trace/pack_format.h"
#include "util/err.h"

struct cursor {
    const uint8_t *p, *end;
};

/* Each field is read from its column's cursor (pack_format.h); before
 * version 4 every column is the one cursor over the whole raw stream. */
struct reader {
    struct cursor cur[PACK_NCOLS];
    struct cursor *col[PACK_NCOLS];
    struct cursor blocks;   // version 4: the raw stream's blocks not yet read
    uint64_t blocks_read;
    const uint8_t *raw;
    bool columns;
    bool bad;
    const char *why;   // static text for the first problem
    uint32_t version;  // the pack's TRACE_PACK_VERSION
    struct trace_str *dict;
    size_t ndict, dict_cap;
    /* The pack's string ids -> dict: one numbering for the first reading
     * thread's blocks, one for the second's (version 5, pack_format.h). */
    bool second;       // the current block is the second's
    uint32_t *ids[2];
    size_t nids[2], ids_cap[2];
    char **runs;       // the texts of strings written as runs, owned
    size_t nruns, runs_cap;
    uint64_t run_bytes;
    /* Version 4 on: the pages of a block read through are given back to
     * the system (release_block), but for its new strings' bytes, which
     * the dictionary points into: the records are inflated whole, and the
     * model they build grows while they are read. */
    size_t page;       // the page size; 0: nothing given back
    const uint8_t *blk_lo, *blk_hi, *str_lo, *str_hi;   // the current block, its strings
    bool released;     // some page was given back
};

struct replay {
    uint64_t prev_index;
    int64_t *prev_ts;   /* by tid string id, as recorded */
    size_t prev_ts_cap;
    int64_t prev_corr;
};

/* One reading of a pack's records: its reader, the delta state, and what
 * it has met. */
struct decode {
    struct reader r;
    struct replay st;
    uint64_t block;   /* r.blocks_read when st last started afresh */
    bool ended, had_meta;
    uint64_t records;
};

/* What every reading of one pack shares. */
struct pack_run {
    const char *name;
    uint32_t version;
    const uint8_t *raw;
    size_t raw_len;
    const uint8_t *z;    /* the deflated records raw was inflated from */
    size_t zlen;
    size_t page;         /* reader.page */
    const struct trace_pack_origin *origin;
    struct trace_str source;
    uint64_t max_memory;
};

/* A reading of the records from raw + from (a block's start from version
 * 4) to raw + to; ERR_NOMEM, with nothing to let go, when it fails. */
int unpack_decode_init(struct decode *d, const struct pack_run *pr, size_t from, size_t to);
void unpack_decode_fini(struct decode *d);
/* Replays d's records into sink until the end record, or, with tail set,
 * until a record that is no element (left unread), indices counted from
 * the first element's (*first). stop, when set, ends it early. */
int unpack_decode_run(struct decode *d, const struct pack_run *pr, const struct trace_sink *sink,
                      bool tail, uint64_t *first, const atomic_bool *stop, struct err *e);
/* After the last record: the end record met, every byte read. */
int unpack_decode_check_end(const struct decode *d, const struct pack_run *pr, struct err *e);
/* The offset of the first block starting in the second half of the
 * records, or 0 for none. */
size_t unpack_middle_block(const struct pack_run *pr);
/* Adds to d's dictionary the strings the blocks in raw[0..at) add, from
 * their string columns alone; false when they are malformed. */
bool unpack_learn_strings(struct decode *d, const struct pack_run *pr, size_t at);
/* Gives back the whole pages within [lo, hi) (read, never read again). */
void unpack_release_pages(struct reader *r, const uint8_t *lo, const uint8_t *hi);

#endif
