#include "config.h"
#include "util/json_escape.h"

#include <stdint.h>
#include <stdio.h>

#include "util/utf8.h"

/* The escape of a code point that needs one (n = 0: a byte that is not
 * UTF-8). */
static void put_escape(size_t n, uint32_t cp, void (*put)(void *, const char *, size_t),
                       void *ctx)
{
    char buf[8];
    const char *e = buf;
    if (n == 0) {
        e = "\\ufffd";
    } else {
        switch (cp) {
        case '"': e = "\\\""; break;
        case '\\': e = "\\\\"; break;
        case '\n': e = "\\n"; break;
        case '\r': e = "\\r"; break;
        case '\t': e = "\\t"; break;
        case '\b': e = "\\b"; break;
        case '\f': e = "\\f"; break;
        default: snprintf(buf, sizeof buf, "\\u%04x", (unsigned)cp); break;
        }
    }
    size_t len = 0;
    while (e[len])
        len++;
    put(ctx, e, len);
}

void json_escape(const char *s, void (*put)(void *ctx, const char *bytes, size_t n), void *ctx)
{
    const char *run = s;
    while (*s) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
            s++;
            continue;
        }
        uint32_t cp = 0;
        size_t n = utf8_decode(s, SIZE_MAX, &cp);
        if (n > 1 && !utf8_needs_escape(cp)) {
            s += n;
            continue;
        }
        if (s > run)
            put(ctx, run, (size_t)(s - run));
        put_escape(n, cp, put, ctx);
        s += n ? n : 1;
        run = s;
    }
    if (s > run)
        put(ctx, run, (size_t)(s - run));
}
