#include "config.h"
#include "trace/jstring.h"

#include <stdint.h>
#include <string.h>

#include "util/utf8.h"

static int hex4(const char *s, size_t avail, uint32_t *out)
{
    if (avail < 4)
        return -1;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        uint32_t d;
        if (c >= '0' && c <= '9')
            d = (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (uint32_t)(c - 'A' + 10);
        else
            return -1;
        v = v << 4 | d;
    }
    *out = v;
    return 0;
}

/* Decodes "\uXXXX" (and its low-surrogate partner) at s[i] == 'u'.
 * Returns the bytes of input consumed after the backslash, or 0 if invalid. */
static size_t unicode_escape(const char *s, size_t i, size_t len, char *out, size_t *outn)
{
    uint32_t hi;
    if (hex4(s + i + 1, len - i - 1, &hi) < 0)
        return 0;
    if (hi >= 0xDC00 && hi <= 0xDFFF)
        return 0;
    if (hi == 0) {
        /* \u0000 as C0 80 (modified UTF-8): names are C strings downstream,
         * and a real NUL would cut "a\u0000b" to "a", merging distinct names.
         * The one codec (util/utf8.h) reads C0 80 back as U+0000 and the
         * writers show it as \x00 or \u0000. */
        out[0] = (char)0xC0;
        out[1] = (char)0x80;
        *outn = 2;
        return 5;
    }
    if (hi < 0xD800 || hi > 0xDBFF) {
        *outn = utf8_encode(hi, out);
        return 5;
    }
    uint32_t lo;
    size_t j = i + 5;
    if (len - j < 6 || s[j] != '\\' || s[j + 1] != 'u' || hex4(s + j + 2, len - j - 2, &lo) < 0)
        return 0;
    if (lo < 0xDC00 || lo > 0xDFFF)
        return 0;
    *outn = utf8_encode(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00), out);
    return 11;
}

long trace_jstring_decode(const char *s, size_t len, char *out)
{
    size_t i = 0, o = 0;
    char tmp[4];
    while (i < len) {
        const char *bs = memchr(s + i, '\\', len - i);
        size_t plain = bs ? (size_t)(bs - (s + i)) : len - i;
        if (out)
            memmove(out + o, s + i, plain);
        o += plain;
        i += plain;
        if (i >= len)
            break;
        if (i + 1 >= len)
            return -1;
        char c = s[i + 1];
        static const char simple_from[] = "\"\\/bfnrt";
        static const char simple_to[] = "\"\\/\b\f\n\r\t";
        const char *hit = c ? strchr(simple_from, c) : NULL;
        if (hit) {
            if (out)
                out[o] = simple_to[hit - simple_from];
            o++;
            i += 2;
            continue;
        }
        if (c != 'u')
            return -1;
        size_t n = 0;
        size_t used = unicode_escape(s, i + 1, len, out ? out + o : tmp, &n);
        if (!used)
            return -1;
        o += n;
        i += 1 + used;
    }
    return (long)o;
}
