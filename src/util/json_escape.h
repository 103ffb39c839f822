#ifndef HTX_UTIL_JSON_ESCAPE_H
#define HTX_UTIL_JSON_ESCAPE_H

#include <stddef.h>

/* The one JSON string escaper, for every JSON htx writes (reports, info,
 * the counters file): printable ASCII and UTF-8 past the C1 controls go out
 * as they are, a run at a time; a quote, a backslash, the C0 and C1
 * controls, DEL and the bidirectional controls (utf8_needs_escape) become
 * escapes (\" \\ \n \r \t \b \f, else \u00XX or \u202e); a
 * byte that is not UTF-8 becomes \ufffd, so the output is always valid
 * JSON whatever the trace held. put(ctx, bytes, n) receives the pieces in
 * order; s is NUL-terminated. Borrows s and ctx until return. */
void json_escape(const char *s, void (*put)(void *ctx, const char *bytes, size_t n), void *ctx);

#endif
