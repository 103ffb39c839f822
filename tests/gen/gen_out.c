#include "config.h"

#include "gen_out.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

int gen_out_open(struct gen_out *o, const char *path, int gzip, int level)
{
    o->fp = NULL;
    o->gz = NULL;
    o->total = 0;
    o->failed = 0;
    o->compact = o->in_str = o->esc = 0;
    o->len = 0;
    if (!path)
        return 0;
    if (gzip) {
        char mode[8];
        snprintf(mode, sizeof mode, "wb%d", level);
        gzFile gz = gzopen(path, mode);
        if (!gz)
            return -1;
        gzbuffer(gz, 1u << 18);
        o->gz = gz;
        return 0;
    }
    o->fp = fopen(path, "wb");
    return o->fp ? 0 : -1;
}

static void flush(struct gen_out *o)
{
    if (o->len == 0 || o->failed) {
        o->len = 0;
        return;
    }
    if (o->gz) {
        if (gzwrite(o->gz, o->buf, (unsigned)o->len) != (int)o->len)
            o->failed = 1;
    } else if (o->fp) {
        if (fwrite(o->buf, 1, o->len, o->fp) != o->len)
            o->failed = 1;
    }
    o->len = 0;
}

int gen_out_close(struct gen_out *o)
{
    flush(o);
    if (o->gz && gzclose(o->gz) != Z_OK)
        o->failed = 1;
    if (o->fp && fclose(o->fp) != 0)
        o->failed = 1;
    o->gz = NULL;
    o->fp = NULL;
    if (o->failed && errno == 0)
        errno = EIO;
    return o->failed ? -1 : 0;
}

void gen_out_set_compact(struct gen_out *o, int on)
{
    o->compact = on;
}

static void put(struct gen_out *o, const char *s, size_t n)
{
    o->total += n;
    if (!o->fp && !o->gz)
        return;
    while (n > 0) {
        size_t room = GEN_OUT_BUFSZ - o->len;
        size_t k = n < room ? n : room;
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
        if (o->len == GEN_OUT_BUFSZ)
            flush(o);
    }
}

/* Writes s without the spaces and newlines that lie outside strings. */
static void put_compact(struct gen_out *o, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (o->in_str) {
            if (o->esc)
                o->esc = 0;
            else if (c == '\\')
                o->esc = 1;
            else if (c == '"')
                o->in_str = 0;
        } else if (c == '"') {
            o->in_str = 1;
        } else if (c == ' ' || c == '\n') {
            put(o, s + run, i - run);
            run = i + 1;
        }
    }
    put(o, s + run, n - run);
}

void gen_out_mem(struct gen_out *o, const char *s, size_t n)
{
    if (o->compact)
        put_compact(o, s, n);
    else
        put(o, s, n);
}

void gen_out_str(struct gen_out *o, const char *s)
{
    gen_out_mem(o, s, strlen(s));
}

void gen_out_json_str(struct gen_out *o, const char *s)
{
    gen_out_mem(o, "\"", 1);
    const char *run = s;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c != '"' && c != '\\' && c >= 0x20)
            continue;
        gen_out_mem(o, run, (size_t)(s - run));
        char esc[8];
        if (c == '"' || c == '\\')
            snprintf(esc, sizeof esc, "\\%c", c);
        else
            snprintf(esc, sizeof esc, "\\u%04x", c);
        gen_out_str(o, esc);
        run = s + 1;
    }
    gen_out_mem(o, run, (size_t)(s - run));
    gen_out_mem(o, "\"", 1);
}

/* Formats an unsigned number into the end of buf; returns its first digit. */
static char *utoa_end(uint64_t v, char *end)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

void gen_out_i64(struct gen_out *o, int64_t v)
{
    char buf[24];
    char *end = buf + sizeof buf;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char *p = utoa_end(u, end);
    if (v < 0)
        *--p = '-';
    gen_out_mem(o, p, (size_t)(end - p));
}

void gen_out_us(struct gen_out *o, int64_t ns, int frac)
{
    int64_t us = ns / 1000, rest = ns % 1000;
    gen_out_i64(o, us);
    if (!frac || rest == 0)
        return;
    char d[4] = {'.', (char)('0' + rest / 100), (char)('0' + rest / 10 % 10),
                 (char)('0' + rest % 10)};
    size_t n = 4;
    while (d[n - 1] == '0')
        n--;
    gen_out_mem(o, d, n);
}

void gen_out_f64(struct gen_out *o, double v)
{
    gen_out_fmt(o, "%.17g", v);
}

void gen_out_fmt(struct gen_out *o, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof buf)
        n = (int)sizeof buf - 1;
    gen_out_mem(o, buf, (size_t)n);
}
