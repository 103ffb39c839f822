#include "config.h"
#include "util/utf8.h"

size_t utf8_decode(const char *s, size_t len, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned char c = u[0];
    size_t need;
    uint32_t v, min;

    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c == 0xC0 && len > 1 && u[1] == 0x80) {
        *cp = 0;   // a NUL of the trace (\u0000), kept inside the C string
        return 2;
    }
    if (c >= 0xC2 && c <= 0xDF)
        need = 1, v = c & 0x1Fu, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        need = 2, v = c & 0x0Fu, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        need = 3, v = c & 0x07u, min = 0x10000;
    else
        return 0;
    if (len <= need)
        return 0;
    for (size_t i = 1; i <= need; i++) {
        if ((u[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (u[i] & 0x3Fu);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not text.
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return need + 1;
}

size_t utf8_decode_lossy(const char *s, size_t len, uint32_t *cp)
{
    size_t n = utf8_decode(s, len, cp);
    if (n)
        return n;
    *cp = UTF8_REPLACEMENT;
    return 1;
}

size_t utf8_encode(uint32_t cp, char *out)
{
    unsigned char *o = (unsigned char *)out;

    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | (cp >> 6));
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | (cp >> 12));
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | (cp >> 18));
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}
