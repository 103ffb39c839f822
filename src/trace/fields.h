#ifndef HTX_TRACE_FIELDS_H
#define HTX_TRACE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "trace/event.h"

/* Reading the fields of one traceEvents element into a struct trace_event.
 * Two readers give the same answers: a fast path that reads the element's
 * text directly (strict JSON), and cJSON, used for any element the fast path
 * does not take. */

enum trace_fields_result {
    TRACE_FIELDS_OK,           /* *ev is filled */
    TRACE_FIELDS_MALFORMED,    /* valid JSON, but not an event (*what says why) */
    TRACE_FIELDS_UNSUPPORTED,  /* fast path only: not strict JSON, or unusual; ask cJSON */
    TRACE_FIELDS_INVALID,      /* cJSON only: not JSON at all (*error_at is the offset) */
};

/* Nesting the fast path follows; deeper elements go to cJSON. */
#define TRACE_FIELDS_FAST_DEPTH 64

/* cJSON builds a tree of some 64 bytes a value, so it is never given more
 * text than this: an element or top-level value that needs it and is larger
 * is an ERR_LIMIT error. Strict JSON never needs it, whatever its size. */
#define TRACE_CJSON_MAX_BYTES ((size_t)4 << 20)

/* Scratch needed for an element of len bytes: decoded strings never exceed
 * the text, and the canonical pid and tid numbers need a little more. */
#define TRACE_FIELDS_SLACK 64

/* The fast path, over the element that starts at text[0], of which avail
 * bytes are at hand (the element may end before, or go on after). On OK
 * and MALFORMED, *used is the element's length. scratch_cap bytes of scratch
 * hold decoded strings; len + TRACE_FIELDS_SLACK for an element of len
 * bytes is always enough. max_nest bounds the open containers, the element
 * included. The strings of *ev point into text or scratch (borrowed). Leaves
 * ev->index to the caller. Non-objects are UNSUPPORTED (cJSON tells). */
enum trace_fields_result trace_fields_parse(const char *text, size_t avail, char *scratch,
                                            size_t scratch_cap, int max_nest,
                                            struct trace_event *ev, const char **what,
                                            size_t *used);

/* The cJSON path: parses text with cJSON_ParseWithLengthOpts and fills *ev
 * from the tree. On OK the strings of *ev point into the tree, which the
 * caller frees with trace_fields_free_tree once done with *ev. On INVALID,
 * *error_at is the byte offset in text where cJSON stopped. scratch as above. */
enum trace_fields_result trace_fields_parse_cjson(const char *text, size_t len, char *scratch,
                                                  struct trace_event *ev, const char **what,
                                                  size_t *error_at, void **tree);
void trace_fields_free_tree(void *tree);

/* Whether text is exactly one strict JSON value (with no whitespace around
 * it), checked without building anything. False also for a bare number or
 * literal (whose end cannot be told) and for nesting deeper than the fast
 * path follows: ask cJSON then. Borrows text. */
bool trace_fields_is_json(const char *text, size_t len);

/* The phase named by a "ph" string ("" is TRACE_PH_NONE). Borrows s. */
enum trace_ph trace_fields_ph(const char *s, size_t len);

#endif
