#include "config.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Used by the shell tests: exits 0 when each file named (or stdin) holds
 * exactly one valid JSON document in valid UTF-8, else prints why and exits
 * 1. cJSON checks the syntax; it does not check UTF-8, so that is done here. */

static char *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *grown = realloc(buf, cap * 2 + 1);
        if (!grown) {
            free(buf);
            return NULL;
        }
        buf = grown;
        cap *= 2;
    }
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

/* Offset of the first byte that is not valid UTF-8, or len. */
static size_t utf8_invalid_at(const unsigned char *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (n == 0 || i + n > len)
            return i;
        for (size_t k = 1; k < n; k++)
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
        if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] > 0x9F) ||
            (c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] > 0x8F))
            return i;
        i += n;
    }
    return len;
}

static int check(const char *name, FILE *f)
{
    size_t len;
    char *buf = read_all(f, &len);
    if (!buf) {
        fprintf(stderr, "%s: cannot read\n", name);
        return 1;
    }
    int bad = 0;
    size_t at = utf8_invalid_at((const unsigned char *)buf, len);
    const char *end = NULL;
    cJSON *doc = NULL;
    if (memchr(buf, '\0', len)) {
        fprintf(stderr, "%s: NUL byte in the output\n", name);
        bad = 1;
    } else if (at != len) {
        fprintf(stderr, "%s: invalid UTF-8 at byte %zu\n", name, at);
        bad = 1;
    } else if (!(doc = cJSON_ParseWithLengthOpts(buf, len, &end, 0))) {
        fprintf(stderr, "%s: invalid JSON near byte %td\n", name, end ? end - buf : (ptrdiff_t)0);
        bad = 1;
    } else {
        for (; end < buf + len; end++)
            if (!strchr(" \t\r\n", *end)) {
                fprintf(stderr, "%s: trailing data at byte %td\n", name, end - buf);
                bad = 1;
                break;
            }
    }
    cJSON_Delete(doc);
    free(buf);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return check("(stdin)", stdin);
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "%s: cannot open\n", argv[i]);
            bad = 1;
            continue;
        }
        bad |= check(argv[i], f);
        fclose(f);
    }
    return bad;
}
