#ifndef HTX_TRACE_META_H
#define HTX_TRACE_META_H

#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"
#include "util/err.h"

/* The document-level facts outside traceEvents (struct trace_meta), read
 * from the top-level values one by one. Each value is parsed with cJSON,
 * which also checks that it is JSON; the first occurrence of a key counts. */

struct trace_meta_state {
    struct trace_meta meta;
    unsigned seen;
};

/* Starts with no key seen. The state owns nothing on the heap: strings
 * found are copied into fixed buffers of struct trace_meta. */
void trace_meta_init(struct trace_meta_state *st);

/* Takes the top-level member key: text (len bytes, the raw value found at
 * byte offset of the document). Returns 0, or ERR_PARSE ("byte N: ...") when
 * the value is not JSON. Borrows key and text until return. */
int trace_meta_add(struct trace_meta_state *st, const char *key, size_t key_len, uint64_t offset,
                   const char *text, size_t len, struct err *e);

#endif
