#ifndef HTX_TRACE_JSTRING_H
#define HTX_TRACE_JSTRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace/bytescan.h"

/* JSON string bodies (the bytes between the quotes). Borrow their input
 * until return; nothing is allocated. */

/* The first '"' or '\\' in [p, end), or end (16 bytes a step where the
 * CPU allows; see bytescan.h). */
static inline const char *trace_jstring_special(const char *p, const char *end)
{
    return trace_bytescan_special(p, end);
}

/* Finds the closing quote of a string whose body starts at s: the first '"'
 * not escaped by an odd run of backslashes. Returns it, or NULL when there
 * is none before end. *has_escape tells whether the body holds a backslash.
 * (Inline: the reader calls it for every key and string.) */
static inline const char *trace_jstring_end(const char *s, const char *end, bool *has_escape)
{
    bool esc = false;
    const char *p = s;
    for (;;) {
        p = trace_jstring_special(p, end);
        if (p >= end)
            return NULL;
        if (*p == '"') {
            *has_escape = esc;
            return p;
        }
        /* A backslash: the next byte is escaped, whatever it is. (Checked
         * before stepping: a pointer past end + 1 is undefined.) */
        esc = true;
        if (end - p < 2)
            return NULL;
        p += 2;
    }
}

/* Decodes the escapes of a string body of len bytes into out, which must
 * hold len bytes (decoding never grows the text). \uXXXX becomes UTF-8,
 * surrogate pairs included, and \u0000 the two bytes C0 80 (so the result
 * holds no NUL that would cut it); other bytes are copied as they are. Returns the
 * decoded length, or -1 for an invalid escape (unknown letter, bad hex
 * digits, a lone or reversed surrogate). With out NULL, only checks. */
long trace_jstring_decode(const char *s, size_t len, char *out);

#endif
