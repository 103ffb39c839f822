/* json-check: a streaming JSON validator for the generator's tests.
 * Reads plain or gzip files (zlib's gzread handles both), checks the whole
 * RFC 8259 grammar with bounded nesting, and prints the number of elements
 * of the top-level "traceEvents" array. Needs no Python and no cJSON, and
 * never holds the document in memory. Exit status: 0 valid, 1 invalid. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define MAX_DEPTH 256

struct reader {
    gzFile gz;
    unsigned char buf[1 << 16];
    size_t len, pos;
    uint64_t off;             /* offset of buf[pos] in the document */
    const char *err;
    int64_t trace_events;     /* elements of top-level "traceEvents", -1 if absent */
};

static int peek(struct reader *r)
{
    if (r->pos == r->len) {
        int n = gzread(r->gz, r->buf, sizeof r->buf);
        if (n <= 0)
            return -1;
        r->len = (size_t)n;
        r->pos = 0;
    }
    return r->buf[r->pos];
}

static int next(struct reader *r)
{
    int c = peek(r);
    if (c >= 0) {
        r->pos++;
        r->off++;
    }
    return c;
}

static int fail(struct reader *r, const char *msg)
{
    if (!r->err)
        r->err = msg;
    return -1;
}

static int skip_ws(struct reader *r)
{
    int c;
    while ((c = peek(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        next(r);
    return c;
}

static int expect(struct reader *r, const char *word)
{
    for (; *word; word++)
        if (next(r) != (unsigned char)*word)
            return fail(r, "invalid literal");
    return 0;
}

/* Reads a string; keeps its first bytes in `key` (NUL-terminated) if given. */
static int string(struct reader *r, char *key, size_t keysz)
{
    size_t k = 0;
    if (next(r) != '"')
        return fail(r, "expected string");
    for (;;) {
        int c = next(r);
        if (c < 0)
            return fail(r, "unterminated string");
        if (c == '"')
            break;
        if (c < 0x20)
            return fail(r, "control character in string");
        if (c == '\\') {
            c = next(r);
            if (c == 'u') {
                for (int i = 0; i < 4; i++) {
                    int h = next(r);
                    if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F')))
                        return fail(r, "bad \\u escape");
                }
            } else if (!c || !strchr("\"\\/bfnrt", c)) {
                return fail(r, "bad escape");
            }
        }
        if (key && k + 1 < keysz)
            key[k++] = (char)c;
    }
    if (key)
        key[k] = 0;
    return 0;
}

static int digits(struct reader *r)
{
    int n = 0;
    while (peek(r) >= '0' && peek(r) <= '9') {
        next(r);
        n++;
    }
    return n;
}

static int number(struct reader *r)
{
    if (peek(r) == '-')
        next(r);
    if (peek(r) == '0')
        next(r);
    else if (digits(r) == 0)
        return fail(r, "bad number");
    if (peek(r) == '.') {
        next(r);
        if (digits(r) == 0)
            return fail(r, "bad fraction");
    }
    if (peek(r) == 'e' || peek(r) == 'E') {
        next(r);
        if (peek(r) == '+' || peek(r) == '-')
            next(r);
        if (digits(r) == 0)
            return fail(r, "bad exponent");
    }
    return 0;
}

static int value(struct reader *r, int depth, int64_t *count);

/* Parses [...]; counts its elements into *count when count is not NULL. */
static int array(struct reader *r, int depth, int64_t *count)
{
    next(r);
    if (skip_ws(r) == ']') {
        next(r);
        return 0;
    }
    for (;;) {
        if (value(r, depth + 1, NULL) != 0)
            return -1;
        if (count)
            (*count)++;
        int c = skip_ws(r);
        next(r);
        if (c == ']')
            return 0;
        if (c != ',')
            return fail(r, "expected , or ] in array");
    }
}

static int object(struct reader *r, int depth)
{
    next(r);
    if (skip_ws(r) == '}') {
        next(r);
        return 0;
    }
    for (;;) {
        char key[32];
        skip_ws(r);
        if (string(r, key, sizeof key) != 0)
            return -1;
        if (skip_ws(r) != ':')
            return fail(r, "expected : after key");
        next(r);
        int top_events = depth == 1 && strcmp(key, "traceEvents") == 0;
        if (top_events) {
            r->trace_events = 0;
            if (skip_ws(r) != '[')
                return fail(r, "traceEvents is not an array");
        }
        if (value(r, depth + 1, top_events ? &r->trace_events : NULL) != 0)
            return -1;
        int c = skip_ws(r);
        next(r);
        if (c == '}')
            return 0;
        if (c != ',')
            return fail(r, "expected , or } in object");
    }
}

static int value(struct reader *r, int depth, int64_t *count)
{
    if (depth > MAX_DEPTH)
        return fail(r, "nesting too deep");
    switch (skip_ws(r)) {
    case '{': return object(r, depth);
    case '[': return array(r, depth, count);
    case '"': return string(r, NULL, 0);
    case 't': return expect(r, "true");
    case 'f': return expect(r, "false");
    case 'n': return expect(r, "null");
    case -1: return fail(r, "unexpected end of input");
    default: return number(r);
    }
}

static int check(const char *path)
{
    static struct reader r;
    memset(&r, 0, sizeof r);
    r.trace_events = -1;
    r.gz = gzopen(path, "rb");
    if (!r.gz) {
        fprintf(stderr, "json-check: %s: cannot open\n", path);
        return 1;
    }
    if (skip_ws(&r) != '{')
        fail(&r, "top level is not an object");
    else if (value(&r, 1, NULL) == 0 && skip_ws(&r) != -1)
        fail(&r, "trailing data after the document");
    int gzerr;
    const char *zmsg = gzerror(r.gz, &gzerr);
    if (!r.err && gzerr != Z_OK && gzerr != Z_BUF_ERROR)
        r.err = zmsg;
    gzclose(r.gz);
    if (!r.err && r.trace_events < 0)
        r.err = "no top-level traceEvents";
    if (r.err) {
        fprintf(stderr, "json-check: %s: byte %llu: %s\n", path, (unsigned long long)r.off, r.err);
        return 1;
    }
    printf("%s: %lld traceEvents\n", path, (long long)r.trace_events);
    return 0;
}

int main(int argc, char **argv)
{
    int bad = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: json-check FILE...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        bad |= check(argv[i]);
    return bad;
}
