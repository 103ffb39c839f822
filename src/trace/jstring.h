#ifndef HTX_TRACE_JSTRING_H
#define HTX_TRACE_JSTRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* JSON string bodies (the bytes between the quotes). Borrow their input
 * until return; nothing is allocated. */

/* The first '"' or '\\' in [p, end), or end. Eight bytes at a time where
 * the byte order allows: most strings in a trace are short keys, for which
 * a call to memchr costs more than the search. */
static inline const char *trace_jstring_special(const char *p, const char *end)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
        /* A zero byte of q or b marks a hit; the lowest flag is exact. */
        uint64_t hit = (((q - ones) & ~q) | ((b - ones) & ~b)) & highs;
        if (hit)
            return p + (__builtin_ctzll(hit) >> 3);
        p += 8;
    }
#endif
    while (p < end && *p != '"' && *p != '\\')
        p++;
    return p;
}

/* Finds the closing quote of a string whose body starts at s: the first '"'
 * not escaped by an odd run of backslashes. Returns it, or NULL when there
 * is none before end. *has_escape tells whether the body holds a backslash. */
const char *trace_jstring_end(const char *s, const char *end, bool *has_escape);

/* Decodes the escapes of a string body of len bytes into out, which must
 * hold len bytes (decoding never grows the text). \uXXXX becomes UTF-8,
 * surrogate pairs included, and \u0000 the two bytes C0 80 (so the result
 * holds no NUL that would cut it); other bytes are copied as they are. Returns the
 * decoded length, or -1 for an invalid escape (unknown letter, bad hex
 * digits, a lone or reversed surrogate). With out NULL, only checks. */
long trace_jstring_decode(const char *s, size_t len, char *out);

#endif
