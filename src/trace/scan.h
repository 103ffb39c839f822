#ifndef HTX_TRACE_SCAN_H
#define HTX_TRACE_SCAN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"
#include "trace/source.h"
#include "util/err.h"

/* The document scanner: walks the top-level JSON object of a trace through a
 * bounded buffer, splits the "traceEvents" array into its elements and hands
 * out every other top-level value as text. It checks the document's shape
 * (one object, key/value separators, a traceEvents array, nothing after the
 * object) and the limits; what is inside an element or a value is checked by
 * whoever parses it. */

/* Splitting one JSON value out of a stream of text, resumable when the text
 * so far ends inside the value. Strings (and their escapes) are respected;
 * brackets are counted, not matched (the parser checks that). */
struct trace_split {
    size_t pos;          /* bytes of the value examined; its length when done */
    int depth;           /* open containers */
    int max_depth;       /* more than this many open containers is an error */
    unsigned char state;
};

enum trace_split_result {
    TRACE_SPLIT_MORE,    /* the text ends inside the value */
    TRACE_SPLIT_DONE,    /* the value is text[0 .. pos) */
    TRACE_SPLIT_DEPTH,   /* nesting deeper than max_depth at text[pos] */
    TRACE_SPLIT_BAD,     /* text[0] cannot start a value */
};

/* Starts a split; sp is a plain value (no heap, nothing to free). */
void trace_split_init(struct trace_split *sp, int max_depth);

/* Continues over text[sp->pos .. len), where text starts at the value's
 * first byte (the same bytes as the previous call, plus more). at_eof says no
 * more text will come, which ends a bare number or literal. Borrows text. */
enum trace_split_result trace_split_run(struct trace_split *sp, const char *text, size_t len,
                                        bool at_eof);

struct trace_jump {
    uint64_t offset, count;
    /* When not NULL: the document's bytes from offset to its end, read by
     * the scan that read the elements; the scan then reads no more of its
     * source (a gzip one would inflate them all again). Borrowed. */
    const char *rest;
    size_t rest_len;
};

/* What follows the elements a second scan read: the document's bytes from
 * the ']' that ends their array (malloc'd; text NULL when they could not be
 * read, or are longer than the limit on metadata). */
struct trace_scan_rest {
    char *text;
    size_t len;
};

struct trace_scan_handler {
    void *ctx;
    /* One element of traceEvents: its index, the byte offset of its first
     * byte in the document, and its text. Non-zero aborts the scan. */
    int (*element)(void *ctx, uint64_t index, uint64_t offset, const char *text, size_t len,
                   struct err *e);
    /* May be NULL. Offered each element before it is split out: text holds
     * avail bytes from its first byte (the element may end before or go on
     * after). Sets *used to the element's length when it took the element,
     * or to 0 to have it split out and passed to element(). */
    int (*element_prefix)(void *ctx, uint64_t index, uint64_t offset, const char *text,
                          size_t avail, size_t *used, struct err *e);
    /* May be NULL. Called before each element of traceEvents (at offset,
     * its first byte) is read: setting jump->count has the scan take the
     * next jump->count elements as read and go on at jump->offset, which
     * must be the ']' that closes the array. */
    int (*at_element)(void *ctx, uint64_t index, uint64_t offset, struct trace_jump *jump,
                      struct err *e);
    /* A top-level member other than traceEvents: the decoded key and the raw
     * value text. May be NULL. Non-zero aborts the scan. */
    int (*member)(void *ctx, const char *key, size_t key_len, uint64_t offset, const char *text,
                  size_t len, struct err *e);
};

/* The default read buffer: 4 MiB of uncompressed text at a time. */
#define TRACE_SCAN_BUFFER ((size_t)4 << 20)

/* Scans the document of src. buf_size is the initial buffer (tests use tiny
 * ones; 0 = TRACE_SCAN_BUFFER); it grows only to hold an element or value
 * longer than itself, within the limits. lim may be NULL (defaults). Errors
 * are "byte N: ..." with N the offset in the uncompressed document (ERR_PARSE,
 * ERR_LIMIT, ERR_NOMEM, or what the source or a handler returned). Borrows
 * everything until return; the text handed to handlers is valid only during
 * the call. */
int trace_scan_document(struct trace_source *src, const struct trace_limits *lim, size_t buf_size,
                        const struct trace_scan_handler *h, struct err *e);

/* Reads traceEvents elements from offset start of a document to the ']'
 * that ends their array, numbering them from 0: *end is the offset of that
 * ']', *count how many. With nread 0, src seeks to start; else src was read
 * up to start + nread already, and read holds those last nread bytes (a
 * gzip document, which seeks only forward). With rest, what follows the
 * array is read too (rest may be NULL). Stops with ERR_CANCEL once
 * *stop is set; ERR_PARSE when start is not an element or what follows is
 * not a list of them. */
int trace_scan_elements_from(struct trace_source *src, uint64_t start, const char *read,
                             size_t nread, const struct trace_limits *lim,
                             const struct trace_scan_handler *h, const atomic_bool *stop,
                             uint64_t *end, uint64_t *count, struct trace_scan_rest *rest,
                             struct err *e);

/* Limits with the defaults of event.h filled in. */
struct trace_limits trace_limits_resolve(const struct trace_limits *lim);

#endif
