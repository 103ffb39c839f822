#ifndef HTX_TRACE_PACK_FORMAT_H
#define HTX_TRACE_PACK_FORMAT_H

/* Internal to trace/pack.c (recording) and trace/unpack.c (replaying): the
 * record format of trace/pack.h, and what both sides compute alike. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/event.h"
#include "trace/pack.h"

enum { OP_END = 0, OP_EVENT = 1, OP_WARNING = 2, OP_META = 3 };

/* Event mask bits: which optional parts follow, and the booleans. */
enum {
    M_HAS_NAME = 1u << 0, M_HAS_CAT = 1u << 1, M_NAME = 1u << 2, M_CAT = 1u << 3,
    M_PID = 1u << 4, M_PID_NUM = 1u << 5, M_TID = 1u << 6, M_TID_NUM = 1u << 7,
    M_TS = 1u << 8, M_TS_FLOAT = 1u << 9, M_TS_US = 1u << 10,
    M_DUR = 1u << 11, M_DUR_FLOAT = 1u << 12, M_DUR_US = 1u << 13,
    M_STREAM = 1u << 14, M_CORR = 1u << 15, M_MEMBW = 1u << 16, M_BYTES = 1u << 17,
    M_ARG_NAME = 1u << 18, M_COLL_NAME = 1u << 19, M_PG_NAME = 1u << 20,
    M_PG_RANKS = 1u << 21, M_DTYPE = 1u << 22, M_GROUP_SIZE = 1u << 23,
    M_IN_NELEMS = 1u << 24, M_OUT_NELEMS = 1u << 25, M_SEQ = 1u << 26,
    M_SEQ_LOWER = 1u << 27, M_FLOW_ID = 1u << 28, M_FLOW_BIND = 1u << 29,
    M_ALL = (1u << 30) - 1,
};

enum { UNITS_TS_US = 1, UNITS_DUR_US = 2 };

/* From version 4 the records are stored by columns: each field goes to the
 * column of its kind, so that deflate meets times next to times and ids
 * next to ids (a quarter smaller than whole records in a row). The raw
 * stream is then blocks, each holding whole records: a varint PACK_NCOLS,
 * each column's length (varint), then the columns in this order. Each
 * block's deltas (index, times by thread, correlations) start afresh, as
 * at the pack's start, so a block can be decoded knowing only the strings
 * the blocks before it added. Up to version 3 every field is in one row,
 * as if every column were one. */
enum pack_col {
    C_SHAPE,     /* the op byte; an event's mask and phase */
    C_INDEX,     /* element index deltas */
    C_NAME, C_CAT, C_PID, C_TID,   /* those strings' ids */
    C_STRLEN,    /* a new string's length, or its run */
    C_STRBYTES,  /* a new string's bytes */
    C_UNITS,
    C_TS, C_DUR, /* time deltas and durations */
    C_F64,       /* the doubles: stored times, bandwidths */
    C_STREAM,
    C_CORR,      /* correlation and flow id deltas */
    C_BYTES,
    C_ARGS,      /* the optional args */
    C_MISC,      /* warnings' offsets and texts, the metadata */
    PACK_NCOLS
};
#define PACK_COLUMNS_VERSION 4
/* Version 5 (TRACE_PACK_VERSION_MAX): a block may hold the records of a
 * file's second half, read by a thread of its own (trace_pack_adopt): its
 * strings go through a dictionary of their own, and its header's first
 * varint is PACK_NCOLS | PACK_BLOCK_SECOND. */
#define PACK_SECOND_VERSION 5
#define PACK_BLOCK_SECOND 0x100
/* Version 6 (TRACE_PACK_VERSION): a block's new strings come first, their
 * lengths then their bytes, and the other columns after them in their
 * order (the header still gives the lengths in enum order). A small rank's
 * one block then has its names within deflate's 32 KiB window of the
 * preset dictionary (trace/pack_dict.h) instead of some 40 KiB of ids and
 * shapes past it: the events of a 1.7 MB trace deflate 6 % smaller. Any
 * block may be a second half's. */
#define PACK_STRINGS_FIRST_VERSION 6

/* The column stored i-th in a block of a pack of this version. */
static inline int pack_column_at(uint32_t version, int i)
{
    if (version < PACK_STRINGS_FIRST_VERSION)
        return i;
    if (i < 2)
        return C_STRLEN + i;   // C_STRLEN, C_STRBYTES
    return i - 2 < C_STRLEN ? i - 2 : i;
}
/* A block closes after this many records, or once its new strings pass
 * PACK_BLOCK_STRBYTES: deflate's 32 KiB window sees each column's recent
 * past, and the recorder holds one block. */
#define PACK_BLOCK_RECORDS 8192
#define PACK_BLOCK_STRBYTES ((size_t)1 << 20)

/* The optional args written after the bandwidth, in their order: strings
 * through the dictionary, integers zigzag'd. One table for the mask, the
 * recorder and the replay. */
struct pack_arg {
    uint32_t bit;
    size_t offset;   /* of its struct trace_str or struct trace_int in struct trace_event */
    bool is_str;
};

static const struct pack_arg pack_args[] = {
    {M_ARG_NAME, offsetof(struct trace_event, arg_name), true},
    {M_COLL_NAME, offsetof(struct trace_event, coll_name), true},
    {M_PG_NAME, offsetof(struct trace_event, pg_name), true},
    {M_PG_RANKS, offsetof(struct trace_event, pg_ranks), true},
    {M_DTYPE, offsetof(struct trace_event, dtype), true},
    {M_GROUP_SIZE, offsetof(struct trace_event, group_size), false},
    {M_IN_NELEMS, offsetof(struct trace_event, in_nelems), false},
    {M_OUT_NELEMS, offsetof(struct trace_event, out_nelems), false},
    {M_SEQ, offsetof(struct trace_event, seq), false},
    {M_SEQ_LOWER, offsetof(struct trace_event, seq_lower), false},
};
#define PACK_NARGS (sizeof pack_args / sizeof pack_args[0])
#define PACK_ARG_BITS                                                                      \
    (M_ARG_NAME | M_COLL_NAME | M_PG_NAME | M_PG_RANKS | M_DTYPE | M_GROUP_SIZE | M_IN_NELEMS | \
     M_OUT_NELEMS | M_SEQ | M_SEQ_LOWER)

#define HEADER_FIXED TRACE_PACK_HEADER_FIXED   /* version, raw length, path length (pack.h) */

/* Times are deltas from the previous time on the same thread (tid string
 * id): a thread's events are nearly in order, and a flow starts where its
 * event does. */
static inline int64_t *thread_slot(int64_t **prev, size_t *cap, uint32_t id)
{
    if (id >= *cap) {
        size_t n = *cap ? *cap : 64;
        while (n <= id)
            n *= 2;
        int64_t *grown = realloc(*prev, n * sizeof *grown);
        if (!grown)
            return NULL;
        memset(grown + *cap, 0, (n - *cap) * sizeof *grown);
        *prev = grown;
        *cap = n;
    }
    return &(*prev)[id];
}

/* The double a time's text most likely had: exact for whole microseconds,
 * and nearly always right otherwise (one rounding in long double, one to
 * double); the recorder stores the double whenever this misses. */
static inline double derived_us(int64_t ns)
{
    if (ns % 1000 == 0)
        return (double)(ns / 1000);
    return (double)((long double)ns / 1000.0L);
}


/* Strings written as runs (TRACE_PACK_VERSION 2): at least RUN_MIN values,
 * at most RUN_MAX, each below RUN_TOP; a pack's runs expand to at most
 * RUN_TEXT_MAX bytes in all (a reader's bound on hostile packs). */
#define RUN_MIN 4
#define RUN_MAX ((uint64_t)1 << 24)
#define RUN_TOP ((uint64_t)1 << 50)
#define RUN_TEXT_MAX ((uint64_t)1 << 28)

/* Writes "[first, first + step, ...]" (count values) into out, which has
 * room for run_text_len bytes; returns the length. */
static inline size_t run_text(uint64_t first, uint64_t step, uint64_t count, char *out)
{
    size_t n = 0;
    out[n++] = '[';
    for (uint64_t i = 0; i < count; i++) {
        if (i) {
            out[n++] = ',';
            out[n++] = ' ';
        }
        char digits[24];
        size_t k = 0;
        uint64_t v = first + i * step;
        do {
            digits[k++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (k)
            out[n++] = digits[--k];
    }
    out[n++] = ']';
    return n;
}

/* The bytes run_text writes (count < RUN_MAX, values < RUN_TOP: no overflow). */
static inline uint64_t run_text_len(uint64_t first, uint64_t step, uint64_t count)
{
    uint64_t len = 2 + (count ? 2 * (count - 1) : 0);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t v = first + i * step;
        len++;
        while (v >= 10) {
            v /= 10;
            len++;
        }
    }
    return len;
}

#endif
