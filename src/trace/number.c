#include "config.h"
#include "trace/number.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number split into its decimal significand D (the digits of the integer
 * and fraction parts, leading zeros dropped) and the power of ten that D is
 * scaled by: value = sign * D * 10^exp10. */
struct decimal {
    bool neg;
    const char *int_s, *frac_s;  /* digit runs */
    size_t int_n, frac_n;
    size_t skip;                 /* leading zeros of the concatenated digits */
    size_t n;                    /* significant digits: int_n + frac_n - skip */
    int64_t exp10;
};

/* Saturates the exponent well beyond anything that fits int64, so that
 * "1e99999999999999999999" cannot overflow our own arithmetic. */
#define EXP_SATURATE 100000

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static size_t digit_run(const char *s, size_t i, size_t len)
{
    size_t j = i;
    while (j < len && is_digit(s[j]))
        j++;
    return j - i;
}

size_t trace_number_scan(const char *s, size_t len)
{
    size_t i = 0;
    if (i < len && s[i] == '-')
        i++;
    if (i >= len || !is_digit(s[i]))
        return 0;
    if (s[i] == '0')
        i++;
    else
        i += digit_run(s, i, len);
    if (i < len && s[i] == '.') {
        size_t n = digit_run(s, i + 1, len);
        if (n == 0)
            return 0;
        i += 1 + n;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < len && (s[j] == '+' || s[j] == '-'))
            j++;
        size_t n = digit_run(s, j, len);
        if (n == 0)
            return 0;
        i = j + n;
    }
    return i;
}

static int64_t parse_exponent(const char *s, size_t i, size_t len, bool *ok)
{
    bool neg = false;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    if (i >= len) {
        *ok = false;
        return 0;
    }
    int64_t e = 0;
    for (; i < len; i++) {
        if (!is_digit(s[i])) {
            *ok = false;
            return 0;
        }
        if (e < EXP_SATURATE)
            e = e * 10 + (s[i] - '0');
    }
    return neg ? -e : e;
}

static bool decimal_parse(const char *s, size_t len, struct decimal *d)
{
    size_t i = 0;
    memset(d, 0, sizeof *d);
    if (i < len && s[i] == '-') {
        d->neg = true;
        i++;
    }
    d->int_s = s + i;
    d->int_n = digit_run(s, i, len);
    i += d->int_n;
    d->frac_s = s + i;
    if (i < len && s[i] == '.') {
        d->frac_s = s + i + 1;
        d->frac_n = digit_run(s, i + 1, len);
        i += 1 + d->frac_n;
    }
    if (d->int_n + d->frac_n == 0)
        return false;
    bool ok = true;
    if (i < len && (s[i] == 'e' || s[i] == 'E'))
        d->exp10 = parse_exponent(s, i + 1, len, &ok);
    else if (i != len)
        ok = false;
    if (!ok)
        return false;
    d->exp10 -= (int64_t)d->frac_n;
    size_t total = d->int_n + d->frac_n;
    while (d->skip < total) {
        size_t k = d->skip;
        char c = k < d->int_n ? d->int_s[k] : d->frac_s[k - d->int_n];
        if (c != '0')
            break;
        d->skip++;
    }
    d->n = total - d->skip;
    return true;
}

/* The k-th significant digit (0-based) of D. */
static int decimal_digit(const struct decimal *d, size_t k)
{
    size_t at = d->skip + k;
    char c = at < d->int_n ? d->int_s[at] : d->frac_s[at - d->int_n];
    return c - '0';
}

static bool accumulate(uint64_t *acc, int digit, uint64_t limit)
{
    if (*acc > (limit - (uint64_t)digit) / 10)
        return false;
    *acc = *acc * 10 + (uint64_t)digit;
    return true;
}

static const double pow10_exact[] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* Most numbers in a trace are plain: [-]digits[.digits], at most 19 digits
 * in all, no exponent. They take a one-pass path: the significand D as an
 * integer and the number of fraction digits. Returns false otherwise. */
#define plain trace_number_plain

static bool plain_decimal(const char *s, size_t len, struct plain *pl)
{
    size_t i = len > 0 && s[0] == '-';
    uint64_t D = 0;
    int digits = 0, nfrac = -1;
    for (; i < len; i++) {
        char c = s[i];
        if (is_digit(c)) {
            D = D * 10 + (uint64_t)(c - '0');
            digits++;
            nfrac += nfrac >= 0;
        } else if (c == '.' && nfrac < 0) {
            nfrac = 0;
        } else {
            return false;
        }
    }
    if (digits == 0 || digits > 19 || nfrac == 0)
        return false;
    pl->D = D;
    pl->nfrac = nfrac < 0 ? 0 : nfrac;
    pl->neg = len > 0 && s[0] == '-';
    return true;
}

static const uint64_t pow10_u64[] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
    1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
    100000000000000u, 1000000000000000u, 10000000000000000u, 100000000000000000u,
    1000000000000000000u, 10000000000000000000u,
};

/* pl's value times 10^scale (0 <= scale <= 3), rounded half away from zero
 * or truncated; false when it does not fit int64. */
static bool plain_scaled(const struct plain *pl, int scale, bool round_half, int64_t *out,
                         bool *exact)
{
    uint64_t limit = pl->neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t mag;
    bool is_exact = true;
    if (pl->nfrac <= scale) {
        /* A multiply checked for overflow, not a division: every ts passes here. */
        if (__builtin_mul_overflow(pl->D, pow10_u64[scale - pl->nfrac], &mag) || mag > limit)
            return false;
    } else {
        uint64_t div = pow10_u64[pl->nfrac - scale];
        uint64_t r = pl->D % div;
        mag = pl->D / div;
        is_exact = r == 0;
        if (round_half && r >= div - r)
            mag++;
        if (mag > limit)
            return false;
    }
    if (exact)
        *exact = is_exact;
    *out = pl->neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return true;
}

bool trace_number_scaled(const char *s, size_t len, int scale, bool round_half,
                         int64_t *out, bool *exact)
{
    struct decimal d;
    bool is_exact = true;
    struct plain pl;
    if (scale >= 0 && scale <= 3 && plain_decimal(s, len, &pl))
        return plain_scaled(&pl, scale, round_half, out, exact);
    *out = 0;
    if (!decimal_parse(s, len, &d))
        return false;
    if (exact)
        *exact = true;
    if (d.n == 0)
        return true;
    uint64_t limit = d.neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    int64_t k = d.exp10 + scale;
    /* Digits kept before the decimal point of D * 10^k. */
    int64_t keep = (int64_t)d.n + k;
    if (keep > 19)
        return false;
    uint64_t acc = 0;
    for (int64_t i = 0; i < keep && i < (int64_t)d.n; i++)
        if (!accumulate(&acc, decimal_digit(&d, (size_t)i), limit))
            return false;
    for (int64_t i = (int64_t)d.n; i < keep; i++)
        if (!accumulate(&acc, 0, limit))
            return false;
    if (keep < (int64_t)d.n) {
        int64_t first = keep < 0 ? -1 : keep;  /* first dropped digit, -1: a zero */
        int rd = first < 0 ? 0 : decimal_digit(&d, (size_t)first);
        is_exact = false;
        if (first >= 0) {
            is_exact = true;
            for (size_t i = (size_t)first; i < d.n && is_exact; i++)
                is_exact = decimal_digit(&d, i) == 0;
        }
        if (round_half && rd >= 5) {
            if (acc == limit)
                return false;
            acc++;
        }
    }
    if (exact)
        *exact = is_exact;
    *out = d.neg ? (int64_t)(0 - acc) : (int64_t)acc;
    return true;
}


double trace_number_double(const char *s, size_t len)
{
    struct plain pl;
    if (plain_decimal(s, len, &pl) && pl.D <= (UINT64_C(1) << 53)) {
        /* Clinger's fast path, as below. */
        double v = (double)pl.D / pow10_exact[pl.nfrac];
        return pl.neg ? -v : v;
    }
    struct decimal d;
    if (decimal_parse(s, len, &d) && d.n <= 16) {
        /* Clinger's fast path: D and 10^|e| are exact doubles, so one
         * correctly rounded operation gives strtod's answer. */
        uint64_t D = 0;
        for (size_t i = 0; i < d.n; i++)
            D = D * 10 + (uint64_t)decimal_digit(&d, i);
        if (D <= (UINT64_C(1) << 53) && d.exp10 >= -22 && d.exp10 <= 22) {
            double v = (double)D;
            v = d.exp10 >= 0 ? v * pow10_exact[d.exp10] : v / pow10_exact[-d.exp10];
            return d.neg ? -v : v;
        }
    }
    char small[128];
    char *copy = len < sizeof small ? small : malloc(len + 1);
    if (!copy)
        return 0.0;
    memcpy(copy, s, len);
    copy[len] = '\0';
    double v = strtod(copy, NULL);
    if (copy != small)
        free(copy);
    return v;
}

/* t from a plain number, as trace_number_time gives it: 1 when done, 0
 * when ns does not fit int64 (t zeroed), -1 when us needs the text (more
 * than 2^53 with a fraction: only strtod's rounding is exact then). */
static int plain_time(const struct plain *pl, struct trace_time *t)
{
    memset(t, 0, sizeof *t);
    if (!plain_scaled(pl, 3, true, &t->ns, NULL)) {
        t->ns = 0;
        return 0;
    }
    t->present = true;
    t->is_float = pl->nfrac > 0;
    if (pl->D <= (UINT64_C(1) << 53)) {
        /* D and 10^nfrac are exact doubles: one correctly rounded division
         * gives what strtod gives. */
        t->us = (double)pl->D / pow10_exact[pl->nfrac];
    } else if (pl->nfrac == 0) {
        /* An integer converts to the nearest double, as strtod does. */
        t->us = (double)pl->D;
    } else {
        return -1;
    }
    if (pl->neg)
        t->us = -t->us;
    return 1;
}

bool trace_number_time(const char *s, size_t len, struct trace_time *t)
{
    struct plain pl;
    if (plain_decimal(s, len, &pl)) {
        int r = plain_time(&pl, t);
        if (r < 0)
            t->us = trace_number_double(s, len);
        return r != 0;
    }
    memset(t, 0, sizeof *t);
    if (!trace_number_scaled(s, len, 3, true, &t->ns, NULL)) {
        t->ns = 0;
        return false;
    }
    t->us = trace_number_double(s, len);
    t->present = true;
    t->is_float = memchr(s, '.', len) || memchr(s, 'e', len) || memchr(s, 'E', len);
    return true;
}

static bool is_scalar_byte(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
           c == '+' || c == '.';
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SWAR_DIGITS 1
/* The value of eight digits (0-9 each, the first in the low byte). */
static inline uint64_t eight_digits(uint64_t d)
{
    d = d * 10 + (d >> 8);
    return (((d & 0x000000FF000000FFu) * (100 + (1000000ull << 32))) +
            (((d >> 16) & 0x000000FF000000FFu) * (1 + (10000ull << 32)))) >> 32;
}
#endif

/* Appends the digit run at s[i] (before avail) to *D, which wraps past 19
 * digits; returns the index after the run. Eight bytes a step where eight
 * remain: a timestamp's thirteen digits in two steps. */
static inline size_t digit_run_value(const char *s, size_t i, size_t avail, uint64_t *D)
{
    uint64_t v = *D;
#ifdef SWAR_DIGITS
    while (avail - i >= 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        /* Zero bytes for digits ('0' to '9'); a carry only reaches bytes
         * after a non-digit, which are not counted. */
        uint64_t x = ((w & 0xF0F0F0F0F0F0F0F0u) |
                      (((w + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) >> 4)) ^
                     0x3333333333333333u;
        unsigned n = x ? (unsigned)__builtin_ctzll(x) >> 3 : 8;
        if (n == 0)
            break;
        /* The n digits at the top, zeros (leading digits) below them; a
         * borrow only reaches bytes past the run, shifted out. */
        uint64_t d = (w - 0x3030303030303030u) << (64 - 8 * n);
        v = v * pow10_u64[n] + eight_digits(d);
        i += n;
        if (n < 8) {
            *D = v;
            return i;
        }
    }
#endif
    for (; i < avail && is_digit(s[i]); i++)
        v = v * 10 + (uint64_t)(s[i] - '0');
    *D = v;
    return i;
}

size_t trace_number_plain(const char *s, size_t avail, struct trace_number_plain *pl)
{
    size_t i = avail > 0 && s[0] == '-';
    size_t lead = i;
    uint64_t D = 0;
    i = digit_run_value(s, i, avail, &D);
    size_t int_n = i - lead;
    if (int_n == 0 || (int_n > 1 && s[lead] == '0'))
        return 0;
    int nfrac = 0;
    if (i < avail && s[i] == '.') {
        size_t f = ++i;
        i = digit_run_value(s, i, avail, &D);
        nfrac = (int)(i - f);
        if (nfrac == 0)
            return 0;
    }
    /* Nineteen digits cannot wrap D; the byte after must end the number. */
    if (int_n + (size_t)nfrac > 19 || i >= avail || is_scalar_byte(s[i]))
        return 0;
    pl->D = D;
    pl->nfrac = nfrac;
    pl->neg = lead > 0;
    return i;
}

size_t trace_number_plain_time(const char *s, size_t avail, struct trace_time *t)
{
    struct plain pl;
    struct trace_time v;
    size_t k = trace_number_plain(s, avail, &pl);
    if (k == 0 || plain_time(&pl, &v) <= 0)
        return 0;
    *t = v;
    return k;
}

size_t trace_number_plain_int(const char *s, size_t avail, int64_t *out)
{
    struct plain pl;
    size_t k = trace_number_plain(s, avail, &pl);
    if (k == 0 || !plain_scaled(&pl, 0, false, out, NULL))
        return 0;
    return k;
}

bool trace_number_is_canonical(const char *s, size_t len)
{
    size_t i = len > 0 && s[0] == '-';
    if (len - i == 0 || len - i > 18 || (s[i] == '0' && (len - i > 1 || i)))
        return false;
    for (size_t j = i; j < len; j++)
        if (!is_digit(s[j]))
            return false;
    return true;
}

static size_t format_int64(int64_t v, char *out)
{
    char tmp[24];
    size_t n = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    size_t m = 0;
    if (v < 0)
        out[m++] = '-';
    while (n)
        out[m++] = tmp[--n];
    return m;
}

size_t trace_number_format_double(double d, char *out, size_t cap)
{
    if (cap == 0)
        return 0;
    if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && (double)(int64_t)d == d &&
        cap >= 21)
        return format_int64((int64_t)d, out);
    int n = 0;
    for (int prec = 15; prec <= 17; prec++) {
        n = snprintf(out, cap, "%.*g", prec, d);
        if (n > 0 && (size_t)n < cap && strtod(out, NULL) == d)
            break;
    }
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

size_t trace_number_canonical(const char *s, size_t len, char *out, size_t cap)
{
    int64_t v;
    bool exact;
    if (cap >= 21 && trace_number_scaled(s, len, 0, false, &v, &exact) && exact)
        return format_int64(v, out);
    return trace_number_format_double(trace_number_double(s, len), out, cap);
}
