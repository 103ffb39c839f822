#include "config.h"
#include "fuzz.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/number.h"

/* The number fuzz target: JSON numbers from their text (src/trace/number.c),
 * checked against independent reference code. The first input byte picks the
 * scale (low nibble mod 10) and the rounding (high bit); the rest is the
 * text. For every strict JSON number, the scaled int64 must be exactly what
 * decimal arithmetic gives (no digit lost, half away from zero), the double
 * must be strtod's, the time must agree with the scaled value, and the
 * canonical text must read back as the same number. */

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

/* RFC 8259: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, written
 * as its own little state machine. Returns the length of the longest prefix
 * that is a number, 0 for none. */
static size_t ref_scan(const char *s, size_t len)
{
    size_t i = 0, best = 0;
    if (i < len && s[i] == '-')
        i++;
    if (i >= len || !digit(s[i]))
        return 0;
    if (s[i++] != '0')
        while (i < len && digit(s[i]))
            i++;
    best = i;
    if (i + 1 < len && s[i] == '.' && digit(s[i + 1])) {
        i += 2;
        while (i < len && digit(s[i]))
            i++;
        best = i;
    } else if (i < len && s[i] == '.') {
        return 0;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < len && (s[j] == '+' || s[j] == '-'))
            j++;
        if (j >= len || !digit(s[j]))
            return 0;
        while (j < len && digit(s[j]))
            j++;
        best = j;
    }
    return best;
}

/* value * 10^scale of a strict JSON number, from its digits with 128-bit
 * arithmetic: false when it does not fit int64. */
static bool ref_scaled(const char *s, size_t len, int scale, bool round_half, int64_t *out,
                       bool *exact)
{
    char digits[4096];
    size_t n = 0, i = 0;
    bool neg = s[0] == '-';
    if (neg)
        i++;
    long long exp10 = 0;
    for (; i < len && s[i] != 'e' && s[i] != 'E'; i++) {
        if (s[i] == '.')
            continue;
        if (n == sizeof digits)
            return false;   /* the caller keeps inputs shorter than this */
        digits[n++] = s[i];
    }
    for (size_t k = 0; k < len && k < i; k++)
        if (s[k] == '.')
            exp10 = -(long long)(i - k - 1);
    if (i < len) {
        long long e = 0;
        bool eneg = false;
        size_t k = i + 1;
        if (s[k] == '+' || s[k] == '-')
            eneg = s[k++] == '-';
        for (; k < len; k++)
            e = e > 100000000 ? e : e * 10 + (s[k] - '0');
        exp10 += eneg ? -e : e;
    }
    exp10 += scale;
    /* Integer part: digits[0 .. n + exp10) followed by exp10 zeros. */
    __int128 v = 0;
    const __int128 max = (__int128)INT64_MAX + (neg ? 1 : 0);
    long long keep = (long long)n + exp10;
    *exact = true;
    for (long long k = 0; k < keep; k++) {
        if (k >= (long long)n && v == 0)
            break;   /* only zeros follow: "0e99999999" */
        v = v * 10 + (k < (long long)n ? digits[k] - '0' : 0);
        if (v > max)
            return false;
    }
    for (long long k = keep < 0 ? 0 : keep; k < (long long)n; k++)
        if (digits[k] != '0')
            *exact = false;
    if (round_half && keep >= 0 && keep < (long long)n && digits[keep] >= '5')
        v++;
    if (v > max)
        return false;
    *out = neg ? (int64_t)(-v) : (int64_t)v;
    return true;
}

static double c_strtod(const char *s, size_t len)
{
    char buf[4200];
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return strtod(buf, NULL);
}

static void check_number(const char *s, size_t len, int scale, bool round_half)
{
    int64_t got = 0, want = 0;
    bool got_exact = false, want_exact = false;
    bool got_ok = trace_number_scaled(s, len, scale, round_half, &got, &got_exact);
    bool want_ok = ref_scaled(s, len, scale, round_half, &want, &want_exact);
    CHECK(got_ok == want_ok);
    if (got_ok) {
        CHECK(got == want);
        CHECK(got_exact == want_exact);
    }

    double d = trace_number_double(s, len);
    double ref = c_strtod(s, len);
    CHECK(memcmp(&d, &ref, sizeof d) == 0 || (isnan(d) && isnan(ref)));

    struct trace_time t;
    memset(&t, 0xa5, sizeof t);
    bool t_ok = trace_number_time(s, len, &t);
    CHECK(t_ok == t.present);
    int64_t ns = 0;
    bool ns_exact;
    bool ns_ok = ref_scaled(s, len, 3, true, &ns, &ns_exact);
    CHECK(t_ok == ns_ok);
    if (t_ok) {
        CHECK(t.ns == ns);
        CHECK(t.is_float == (memchr(s, '.', len) || memchr(s, 'e', len) || memchr(s, 'E', len)));
        CHECK(memcmp(&t.us, &ref, sizeof ref) == 0);
    }

    char canon[40];
    memset(canon, 'Z', sizeof canon);
    size_t clen = trace_number_canonical(s, len, canon, 32);
    CHECK(clen > 0 && clen <= 32);
    CHECK(canon[32] == 'Z');
    if (isfinite(ref)) {
        double back = trace_number_double(canon, clen);
        CHECK(back == ref || (back == 0 && ref == 0));
    }
    if (trace_number_is_canonical(s, len))
        CHECK(clen == len && memcmp(canon, s, len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4000)
        return 0;
    int scale = (data[0] & 0x0f) % 10;
    bool round_half = data[0] & 0x80;
    const char *s = (const char *)data + 1;
    size_t len = size - 1;

    size_t n = trace_number_scan(s, len);
    CHECK(n == ref_scan(s, len));
    CHECK(n <= len);
    /* Anything the scanner accepts, and every prefix it stops at. */
    if (n > 0)
        check_number(s, n, scale, round_half);

    /* The lenient entry points must not misbehave on any text. */
    int64_t v;
    bool exact;
    (void)trace_number_scaled(s, len, scale, round_half, &v, &exact);
    struct trace_time t;
    (void)trace_number_time(s, len, &t);
    char canon[32];
    size_t clen = trace_number_canonical(s, len, canon, sizeof canon);
    CHECK(clen <= sizeof canon);
    (void)trace_number_is_canonical(s, len);
    return 0;
}
