#ifndef HTX_UTIL_UTF8_H
#define HTX_UTIL_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The one UTF-8 codec: the reader (\u escapes), the output writers and the
 * terminal text layer all decode and encode through it. */

#define UTF8_REPLACEMENT 0xFFFDu

/* Decodes one sequence from s[0..len) (len > 0): returns its length (1-4)
 * and sets *cp, or returns 0 when the bytes there are not UTF-8 (a stray
 * continuation byte, an overlong form, a surrogate, a value past U+10FFFF,
 * a sequence cut short). The one overlong form accepted is C0 80, read as
 * U+0000: the reader stores a name's \u0000 that way (as Java's modified
 * UTF-8 does) so the name is not cut there, and every writer escapes it. Bytes are read one at a time and decoding stops
 * at the first that does not fit, so a NUL-terminated string may pass
 * SIZE_MAX as len: its NUL ends any sequence. Borrows s until return. */
size_t utf8_decode(const char *s, size_t len, uint32_t *cp);

/* As utf8_decode, for showing text: an invalid byte decodes to U+FFFD and
 * counts 1, so the caller always advances. */
size_t utf8_decode_lossy(const char *s, size_t len, uint32_t *cp);

/* Writes cp (<= 0x10FFFF; a lone surrogate is written like any other code
 * point) into out, which has room for 4 bytes; returns the bytes written. */
size_t utf8_encode(uint32_t cp, char *out);

/* Whether cp must never reach a terminal raw: C0 and C1 controls, DEL, and
 * the bidirectional controls (U+202A-U+202E, U+2066-U+2069), which reorder
 * the text around them and can make a name read as another. Every writer
 * of untrusted text escapes these. */
static inline bool utf8_needs_escape(uint32_t cp)
{
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

#endif
