#include "config.h"
#include "app/format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Pieces every writer shares: number text that round-trips, UTF-8
 * decoding, and the escaping that keeps trace names from driving the
 * terminal. */

void format_opts_default(struct format_opts *o)
{
    memset(o, 0, sizeof *o);
    o->bar_width = 10;
    o->max_text_width = 100;
}

/* Most doubles in the tables are times, ns / 1000.0: x == k / 1000.0 for an
 * integer k. For 0 < |k| < 10^15, k / 1000 has at most 15 significant
 * digits and x lies within half an ulp of it, far closer than half a step
 * of the 15-digit grid, so "%.15g" prints exactly the decimal k / 1000
 * (trailing zeros dropped, never an exponent for 0.001 <= |x| < 10^12)
 * and reads back as x. Writes that text without printf; false when x is
 * not such a number. */
static size_t write_thousandths(double x, char out[32])
{
    if (!(fabs(x) >= 0.001 && fabs(x) < 1e12))
        return 0;
    // llround without the call: |x * 1000| < 10^15, and a k off by one
    // for a value not k / 1000 fails the check below as llround's would
    double y = x * 1000.0;
    long long k = (long long)(y + (y < 0 ? -0.5 : 0.5));
    if ((double)k / 1000.0 != x)
        return 0;
    unsigned long long mag = k < 0 ? 0ULL - (unsigned long long)k : (unsigned long long)k;
    char digits[24];
    int n = 0;
    unsigned frac = (unsigned)(mag % 1000);
    for (unsigned long long w = mag / 1000; n == 0 || w; w /= 10)
        digits[n++] = (char)('0' + w % 10);
    char *p = out;
    if (k < 0)
        *p++ = '-';
    while (n)
        *p++ = digits[--n];
    if (frac) {
        *p++ = '.';
        *p++ = (char)('0' + frac / 100);
        *p++ = (char)('0' + frac / 10 % 10);
        *p++ = (char)('0' + frac % 10);
        while (p[-1] == '0')
            p--;
    }
    *p = '\0';
    return (size_t)(p - out);
}

size_t format_double_text(double x, char out[32])
{
    size_t n = write_thousandths(x, out);
    if (n)
        return n;
    for (int prec = 15;; prec++) {
        int len = snprintf(out, 32, "%.*g", prec, x);
        if (prec == 17 || strtod(out, NULL) == x)
            return len > 0 ? (size_t)len : 0;
    }
}

void format_double_roundtrip(double x, char out[32])
{
    format_double_text(x, out);
}

/* The digits of v, without printf (a launch table has two integers a
 * row), at the end of buf; returns where they start. */
static size_t digits(unsigned long long v, bool negative, char buf[24])
{
    size_t at = 24;
    do {
        buf[--at] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (negative)
        buf[--at] = '-';
    return at;
}

static unsigned long long magnitude(long long v)
{
    return v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
}

void format_int(FILE *f, long long v)
{
    char buf[24];
    size_t at = digits(magnitude(v), v < 0, buf);
    fwrite_unlocked(buf + at, 1, sizeof buf - at, f);
}

void format_uint(FILE *f, unsigned long long v)
{
    char buf[24];
    size_t at = digits(v, false, buf);
    fwrite_unlocked(buf + at, 1, sizeof buf - at, f);
}

size_t format_int_text(long long v, char out[24])
{
    char buf[24];
    size_t at = digits(magnitude(v), v < 0, buf);
    memcpy(out, buf + at, sizeof buf - at);
    return sizeof buf - at;
}

/* The escape for a control code point or a stray byte; "" when none. */
static void escape_for(uint32_t cp, bool stray_byte, char out[16])
{
    out[0] = '\0';
    if (stray_byte)
        snprintf(out, 16, "\\x%02X", (unsigned)cp);
    else if (cp == '\n')
        strcpy(out, "\\n");
    else if (cp == '\t')
        strcpy(out, "\\t");
    else if (cp == '\r')
        strcpy(out, "\\r");
    else if (cp < 0x20 || cp == 0x7F)
        snprintf(out, 16, "\\x%02X", (unsigned)cp);
    else if (utf8_needs_escape(cp))
        snprintf(out, 16, "\\u{%02X}", (unsigned)cp);
}

/* Calls emit for each piece of s as it should appear on a terminal. */
static void walk_escaped(const char *s, void (*emit)(void *ctx, const char *p, size_t n),
                         void *ctx)
{
    while (*s) {
        uint32_t cp = 0;
        size_t n = utf8_decode(s, SIZE_MAX, &cp);
        char esc[16];
        escape_for(n ? cp : (unsigned char)*s, n == 0, esc);
        if (esc[0]) {
            emit(ctx, esc, strlen(esc));
            s += n ? n : 1;
        } else {
            emit(ctx, s, n);
            s += n;
        }
    }
}

static void emit_file(void *ctx, const char *p, size_t n)
{
    fwrite(p, 1, n, (FILE *)ctx);
}

void format_write_escaped(FILE *f, const char *s)
{
    walk_escaped(s, emit_file, f);
}

static void emit_count(void *ctx, const char *p, size_t n)
{
    size_t *w = ctx;
    /* An escape is ASCII (n cells); a code point is one cell. */
    *w += (unsigned char)p[0] < 0x80 ? n : 1;
}

size_t format_display_width(const char *s)
{
    size_t w = 0;
    walk_escaped(s, emit_count, &w);
    return w;
}

const struct cell_style FORMAT_CELL_VIEW = {-1, "", ""};

void format_cell(const struct cell *c, const struct cell_style *st, char *buf, size_t n)
{
    double d;

    switch (c->type) {
    case CELL_INT:
        snprintf(buf, n, "%lld", (long long)c->v.i);
        return;
    case CELL_DOUBLE:
        d = c->v.d;
        if (isnan(d))
            snprintf(buf, n, "%s", st->nan);
        else if (isinf(d))
            snprintf(buf, n, "%s", d > 0 ? "inf" : "-inf");
        else if (st->decimals >= 0)
            snprintf(buf, n, "%.*f", st->decimals, d);
        else if (fabs(d) < 1e15 && d == rint(d))
            snprintf(buf, n, "%.0f", d);
        else if (d != 0 && fabs(d) < 0.01)
            snprintf(buf, n, "%.3g", d);
        else
            snprintf(buf, n, "%.2f", d);
        return;
    case CELL_STR:
        snprintf(buf, n, "%s", c->v.s ? c->v.s : "");
        return;
    case CELL_BOOL:
        snprintf(buf, n, "%s", c->v.b ? "true" : "false");
        return;
    default:
        snprintf(buf, n, "%s", st->null);
        return;
    }
}
