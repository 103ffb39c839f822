#include "config.h"
#include "trace/fields.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "trace/jstring.h"
#include "trace/number.h"

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

/* The fast path: a strict JSON reader over one element's text that keeps
 * only the fields htx needs and skips (while checking) everything else. It
 * finds the element's end itself, so it can run on the scanner's buffer
 * before the element has been split out. Whatever it does not take (text
 * that ends too early, non-strict syntax cJSON may still accept, deep
 * nesting, not enough scratch) comes back UNSUPPORTED and goes the slow way.
 * Duplicate keys: the first one counts, as with
 * cJSON_GetObjectItemCaseSensitive. */

#define FAST_DEPTH TRACE_FIELDS_FAST_DEPTH

struct cur {
    const char *p, *end;
    char *out, *out_end;    /* scratch for decoded strings and numbers */
    int max_nest;           /* open containers allowed, the element included */
    const char *malformed;  /* first reason the element is not an event */
    bool unsupported;
};

/* Which fields were seen (first occurrence wins). */
enum {
    SEEN_PH = 1 << 0, SEEN_NAME = 1 << 1, SEEN_CAT = 1 << 2, SEEN_PID = 1 << 3,
    SEEN_TID = 1 << 4, SEEN_TS = 1 << 5, SEEN_DUR = 1 << 6, SEEN_ID = 1 << 7,
    SEEN_BP = 1 << 8, SEEN_ARGS = 1 << 9, SEEN_STREAM = 1 << 10, SEEN_CORR = 1 << 11,
    SEEN_BW = 1 << 12, SEEN_BYTES = 1 << 13, SEEN_ARGNAME = 1 << 14,
    SEEN_COLL = 1 << 15, SEEN_PG = 1 << 16, SEEN_PGRANKS = 1 << 17, SEEN_DTYPE = 1 << 18,
    SEEN_GSIZE = 1 << 19, SEEN_IN = 1 << 20, SEEN_OUT = 1 << 21, SEEN_SEQ = 1 << 22,
    SEEN_SEQ_LOWER = 1 << 23,
};

struct state {
    struct cur c;
    struct trace_event *ev;
    unsigned seen;
};

/* Kineto pretty-prints with a space or a newline, then runs of spaces:
 * the run after either is skipped eight bytes at a time. */
static void skip_ws_run(struct cur *c)
{
    const char *p = c->p, *end = c->p < c->end ? c->end : c->p;
    while (p < end) {
        unsigned char ch = (unsigned char)*p;
        if (ch > ' ')
            break;
        if (ch == ' ' || ch == '\n') {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            if (end - p > 8) {
                uint64_t x;
                memcpy(&x, p + 1, 8);
                x ^= 0x2020202020202020u;
                p += 1 + (x ? __builtin_ctzll(x) >> 3 : 8);
                continue;
            }
#endif
            p++;
        } else if (ch == '\r' || ch == '\t') {
            p++;
        } else {
            break;
        }
    }
    c->p = p;
}

/* Most calls find no whitespace, the one space after ':' or ',', or a
 * newline and the indent of the next line. */
static inline void skip_ws(struct cur *c)
{
    const char *p = c->p;
    if (c->end - p >= 10) {
        if ((unsigned char)p[0] > ' ')
            return;
        if (p[0] == ' ' && (unsigned char)p[1] > ' ') {
            c->p = p + 1;
            return;
        }
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (p[0] == '\n') {
            uint64_t x;
            memcpy(&x, p + 1, 8);
            x ^= 0x2020202020202020u;
            if (x) {
                const char *q = p + 1 + (__builtin_ctzll(x) >> 3);
                if ((unsigned char)*q > ' ') {
                    c->p = q;
                    return;
                }
            }
        }
#endif
    } else if (p < c->end && (unsigned char)p[0] > ' ') {
        return;
    }
    skip_ws_run(c);
}

/* Bytes that can continue a number or a literal: 1 for digits, 2 for the
 * other ones (letters, '-', '+', '.'). */
static const unsigned char scalar_class[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1,
    ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['-'] = 2, ['+'] = 2, ['.'] = 2,
    ['a'] = 2, ['b'] = 2, ['c'] = 2, ['d'] = 2, ['e'] = 2, ['f'] = 2, ['g'] = 2,
    ['h'] = 2, ['i'] = 2, ['j'] = 2, ['k'] = 2, ['l'] = 2, ['m'] = 2, ['n'] = 2,
    ['o'] = 2, ['p'] = 2, ['q'] = 2, ['r'] = 2, ['s'] = 2, ['t'] = 2, ['u'] = 2,
    ['v'] = 2, ['w'] = 2, ['x'] = 2, ['y'] = 2, ['z'] = 2,
    ['A'] = 2, ['B'] = 2, ['C'] = 2, ['D'] = 2, ['E'] = 2, ['F'] = 2, ['G'] = 2,
    ['H'] = 2, ['I'] = 2, ['J'] = 2, ['K'] = 2, ['L'] = 2, ['M'] = 2, ['N'] = 2,
    ['O'] = 2, ['P'] = 2, ['Q'] = 2, ['R'] = 2, ['S'] = 2, ['T'] = 2, ['U'] = 2,
    ['V'] = 2, ['W'] = 2, ['X'] = 2, ['Y'] = 2, ['Z'] = 2,
};

static inline bool is_scalar_byte(char ch)
{
    return scalar_class[(unsigned char)ch] != 0;
}

static void unsupported(struct cur *c)
{
    c->unsupported = true;
    c->p = c->end;
}

static void malformed(struct cur *c, const char *what)
{
    if (!c->malformed)
        c->malformed = what;
}

/* Decodes an escaped string body into scratch for out, or only checks its
 * escapes when out is NULL. */
static bool decode(struct cur *c, const char *body, size_t n, struct trace_str *out)
{
    if (out && (size_t)(c->out_end - c->out) < n) {
        unsupported(c);
        return false;
    }
    long d = trace_jstring_decode(body, n, out ? c->out : NULL);
    if (d < 0) {
        malformed(c, "invalid escape in a string");
        return true;
    }
    if (out) {
        out->s = c->out;
        out->len = (size_t)d;
        c->out += d;
    }
    return true;
}

/* Reads the string at c->p (a '"'). With out, stores its decoded text
 * (pointing into the element when it has no escape). Escapes are checked
 * either way. Returns false when the element cannot go on. */
static bool read_string(struct cur *c, struct trace_str *out)
{
    const char *body = c->p + 1;
    bool esc;
    const char *q = trace_jstring_end(body, c->end, &esc);
    if (!q) {
        unsupported(c);
        return false;
    }
    c->p = q + 1;
    size_t n = (size_t)(q - body);
    if (esc)
        return decode(c, body, n, out);
    if (out) {
        out->s = body;
        out->len = n;
    }
    return true;
}

/* The integer [-][1-9]digits at c->p when a byte that ends it follows:
 * its length, else 0 (trace_number_scan then tells). Most numbers of a
 * trace (ids, pids, dims) are such integers. */
static inline size_t simple_int(const struct cur *c)
{
    const char *p = c->p, *end = c->end;
    const char *q = p + (p < end && *p == '-');
    if (q >= end || *q < '1' || *q > '9')
        return 0;
    q++;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* Eight bytes a step: a byte of x is zero where the byte is a digit (a
     * carry of the +6 only reaches bytes after a non-digit). */
    while (end - q >= 8) {
        uint64_t w;
        memcpy(&w, q, 8);
        uint64_t x = ((w & 0xF0F0F0F0F0F0F0F0u) |
                      (((w + 0x0606060606060606u) & 0xF0F0F0F0F0F0F0F0u) >> 4)) ^
                     0x3333333333333333u;
        if (x) {
            q += __builtin_ctzll(x) >> 3;
            return !is_scalar_byte(*q) ? (size_t)(q - p) : 0;
        }
        q += 8;
    }
#endif
    while (q < end && scalar_class[(unsigned char)*q] == 1)
        q++;
    return q < end && !is_scalar_byte(*q) ? (size_t)(q - p) : 0;
}

/* Reads the number at c->p; false (and unsupported) when it is not strict
 * or the text ends right after it (the number might go on). */
static bool read_number(struct cur *c, const char **s, size_t *n)
{
    size_t k = simple_int(c);
    if (k) {
        *s = c->p;
        *n = k;
        c->p += k;
        return true;
    }
    k = trace_number_scan(c->p, (size_t)(c->end - c->p));
    if (k == 0 || c->p + k >= c->end || is_scalar_byte(c->p[k])) {
        unsupported(c);
        return false;
    }
    *s = c->p;
    *n = k;
    c->p += k;
    return true;
}

static bool literal_at(const struct cur *c, const char *lit, size_t n)
{
    return (size_t)(c->end - c->p) > n && memcmp(c->p, lit, n) == 0 && !is_scalar_byte(c->p[n]);
}

static bool starts_number(char ch)
{
    return ch == '-' || (ch >= '0' && ch <= '9');
}

/* Skips a literal, a number or a string; false when none is there. */
static bool skip_scalar(struct cur *c)
{
    char ch = *c->p;
    if (ch == '"')
        return read_string(c, NULL);
    if (starts_number(ch)) {
        const char *s;
        size_t n;
        return read_number(c, &s, &n);
    }
    size_t n = ch == 'f' ? 5 : 4;
    if (literal_at(c, "true", 4) || literal_at(c, "null", 4) || literal_at(c, "false", 5)) {
        c->p += n;
        return true;
    }
    unsupported(c);
    return false;
}

/* After '{' or ',' in an object: a key and its colon. */
static bool skip_key(struct cur *c)
{
    skip_ws(c);
    if (c->p >= c->end || *c->p != '"' || !read_string(c, NULL))
        return false;
    skip_ws(c);
    if (c->p >= c->end || *c->p != ':')
        return false;
    c->p++;
    return true;
}

/* After a value in an array, the elements that follow while they are
 * integers or strings (as "Input Dims" and "Input type" hold them), each
 * after "," or ", ". True when it stops just after a ',' whose value the
 * caller reads; false at anything else (c->p at it). */
static bool skip_array_run(struct cur *c)
{
    while (c->end - c->p >= 2 && c->p[0] == ',') {
        c->p += 1 + (c->p[1] == ' ');
        size_t k = simple_int(c);
        if (k) {
            c->p += k;
        } else if (c->p < c->end && *c->p == '"') {
            if (!read_string(c, NULL))
                return false;
        } else {
            return true;
        }
    }
    return false;
}

/* Skips one value, checking its syntax, without recursion. open is the
 * number of containers already open around it. */
static void skip_value(struct cur *c, int open)
{
    bool is_obj[FAST_DEPTH];
    int depth = 0;
    if (c->p < c->end) {   /* most values skipped are integers or strings */
        size_t k = simple_int(c);
        if (k) {
            c->p += k;
            return;
        }
        if (*c->p == '"') {
            if (!read_string(c, NULL))
                unsupported(c);
            return;
        }
    }
    for (;;) {
        skip_ws(c);
        if (c->p >= c->end)
            return unsupported(c);
        char ch = *c->p;
        if (ch == '{' || ch == '[') {
            if (depth == FAST_DEPTH || open + depth >= c->max_nest)
                return unsupported(c);
            is_obj[depth++] = ch == '{';
            c->p++;
            skip_ws(c);
            if (c->p < c->end && *c->p == (ch == '{' ? '}' : ']')) {
                c->p++;
                depth--;
            } else {
                if (ch == '{' && !skip_key(c))
                    return unsupported(c);
                continue;
            }
        } else if (!skip_scalar(c)) {
            return unsupported(c);
        }
        /* After a value: close containers or move to the next member. */
        for (;;) {
            if (depth == 0)
                return;
            if (!is_obj[depth - 1] && skip_array_run(c))
                break;
            skip_ws(c);
            if (c->p >= c->end)
                return unsupported(c);
            char close = is_obj[depth - 1] ? '}' : ']';
            if (*c->p == close) {
                c->p++;
                depth--;
                continue;
            }
            if (*c->p != ',')
                return unsupported(c);
            c->p++;
            if (is_obj[depth - 1] && !skip_key(c))
                return unsupported(c);
            break;
        }
    }
}

static bool at_null(struct cur *c)
{
    if (!literal_at(c, "null", 4))
        return false;
    c->p += 4;
    return true;
}

/* Members of the element are inside 1 open container, args members 2. */
#define TOP_OPEN 1
#define ARGS_OPEN 2

static void field_string(struct cur *c, struct trace_str *out, bool *has, const char *bad)
{
    if (*c->p == '"') {
        read_string(c, out);
        *has = true;
    } else if (!at_null(c)) {
        malformed(c, bad);
        skip_value(c, TOP_OPEN);
    }
}

enum trace_ph trace_fields_ph(const char *s, size_t len)
{
    if (len != 1)
        return len == 0 ? TRACE_PH_NONE : TRACE_PH_OTHER;
    switch (s[0]) {
    case 'X': return TRACE_PH_X;
    case 'B': return TRACE_PH_B;
    case 'E': return TRACE_PH_E;
    case 'i': case 'I': return TRACE_PH_I;
    case 'M': return TRACE_PH_M;
    case 'C': return TRACE_PH_C;
    case 's': return TRACE_PH_FLOW_S;
    case 't': return TRACE_PH_FLOW_T;
    case 'f': return TRACE_PH_FLOW_F;
    default: return TRACE_PH_OTHER;
    }
}

static void field_ph(struct cur *c, struct trace_event *ev)
{
    struct trace_str s = {0};
    bool has = false;
    const char *p = c->p;
    if (c->end - p >= 3 && p[0] == '"' && p[2] == '"' && p[1] != '\\' && p[1] != '"') {
        ev->ph = trace_fields_ph(p + 1, 1);   /* one letter, as every writer puts it */
        c->p = p + 3;
        return;
    }
    field_string(c, &s, &has, "\"ph\" is not a string");
    if (has)
        ev->ph = trace_fields_ph(s.s, s.len);
}

/* pid and tid: a string as it is, a number as canonical decimal text. */
static void field_key(struct cur *c, struct trace_str *out, bool *is_num, const char *bad)
{
    char ch = *c->p;
    if (ch == '"') {
        read_string(c, out);
    } else if (starts_number(ch)) {
        const char *s;
        size_t n = simple_int(c);
        if (n && n - (ch == '-') <= 18) {   /* canonical as it is */
            out->s = c->p;
            out->len = n;
            c->p += n;
            *is_num = true;
            return;
        }
        if (!read_number(c, &s, &n))
            return;
        *is_num = true;
        if (trace_number_is_canonical(s, n)) {
            out->s = s;
            out->len = n;
            return;
        }
        if (c->out_end - c->out < 32)
            return unsupported(c);
        out->len = trace_number_canonical(s, n, c->out, 32);
        out->s = c->out;
        c->out += out->len;
    } else if (!at_null(c)) {
        malformed(c, bad);
        skip_value(c, TOP_OPEN);
    }
}

/* A time written as an integer of at most 15 digits (most ts and dur): its
 * length, with t as trace_number_time fills it (D * 1000 fits int64, and D
 * below 2^53 is an exact double); else 0, t untouched. */
static inline size_t simple_time(const struct cur *c, struct trace_time *t)
{
    size_t k = simple_int(c);
    const char *s = c->p;
    size_t neg = *s == '-';
    if (!k || k - neg > 15)
        return 0;
    uint64_t D = 0;
    for (size_t i = neg; i < k; i++)
        D = D * 10 + (uint64_t)(s[i] - '0');
    int64_t ns = (int64_t)(D * 1000);
    double us = (double)D;
    *t = (struct trace_time){.ns = neg ? -ns : ns, .us = neg ? -us : us, .present = true};
    return k;
}

static void field_time(struct cur *c, struct trace_time *t, const char *not_num,
                       const char *range)
{
    if (starts_number(*c->p)) {
        const char *s;
        size_t n = simple_time(c, t);
        if (n) {
            c->p += n;
            return;
        }
        n = trace_number_plain_time(c->p, (size_t)(c->end - c->p), t);
        if (n) {
            c->p += n;    /* most times: read in one pass */
            return;
        }
        if (read_number(c, &s, &n) && !trace_number_time(s, n, t))
            malformed(c, range);
    } else if (!at_null(c)) {
        malformed(c, not_num);
        skip_value(c, TOP_OPEN);
    }
}

/* Optional integers (args.stream, args.correlation, args.bytes, id): a
 * number, truncated toward zero; anything else leaves the field absent. */
static void field_int(struct cur *c, struct trace_int *out, int open)
{
    if (starts_number(*c->p)) {
        const char *s;
        size_t n = trace_number_plain_int(c->p, (size_t)(c->end - c->p), &out->v);
        if (n) {
            c->p += n;
            out->present = true;
            return;
        }
        if (read_number(c, &s, &n))
            out->present = trace_number_scaled(s, n, 0, false, &out->v, NULL);
        if (!out->present)
            out->v = 0;
    } else {
        skip_value(c, open);
    }
}

static void field_double(struct cur *c, double *out, bool *has)
{
    if (starts_number(*c->p)) {
        const char *s;
        size_t n;
        if (read_number(c, &s, &n)) {
            *out = trace_number_double(s, n);
            *has = true;
        }
    } else {
        skip_value(c, ARGS_OPEN);
    }
}

static bool first(struct state *st, unsigned bit)
{
    if (st->seen & bit)
        return false;
    st->seen |= bit;
    return true;
}

/* The length, then the first byte, then the rest: most args keys htx does
 * not read ("External id", "Input Dims") share a length with one it does. */
#define KEY_IS(k, n, lit) \
    ((n) == sizeof(lit) - 1 && (k)[0] == (lit)[0] && memcmp((k), (lit), (n)) == 0)

/* A string arg: read when it is a string, else skipped (left absent). */
static void arg_string(struct cur *c, struct trace_str *out)
{
    if (*c->p == '"')
        read_string(c, out);
    else
        skip_value(c, ARGS_OPEN);
}

/* The collective args (event.h); false when k is none of them. */
static bool comm_member(struct state *st, const char *k, size_t n)
{
    struct cur *c = &st->c;
    struct trace_event *ev = st->ev;
    if (KEY_IS(k, n, "Collective name") && first(st, SEEN_COLL))
        arg_string(c, &ev->coll_name);
    else if (KEY_IS(k, n, "Process Group Name") && first(st, SEEN_PG))
        arg_string(c, &ev->pg_name);
    else if (KEY_IS(k, n, "Process Group Ranks") && first(st, SEEN_PGRANKS))
        arg_string(c, &ev->pg_ranks);
    else if (KEY_IS(k, n, "dtype") && first(st, SEEN_DTYPE))
        arg_string(c, &ev->dtype);
    else if (KEY_IS(k, n, "Group size") && first(st, SEEN_GSIZE))
        field_int(c, &ev->group_size, ARGS_OPEN);
    else if (KEY_IS(k, n, "In msg nelems") && first(st, SEEN_IN))
        field_int(c, &ev->in_nelems, ARGS_OPEN);
    else if (KEY_IS(k, n, "Out msg nelems") && first(st, SEEN_OUT))
        field_int(c, &ev->out_nelems, ARGS_OPEN);
    else if (KEY_IS(k, n, "Seq") && first(st, SEEN_SEQ))
        field_int(c, &ev->seq, ARGS_OPEN);
    else if (KEY_IS(k, n, "seq") && first(st, SEEN_SEQ_LOWER))
        field_int(c, &ev->seq_lower, ARGS_OPEN);
    else
        return false;
    return true;
}

static void args_member(struct state *st, const char *k, size_t n)
{
    struct cur *c = &st->c;
    struct trace_event *ev = st->ev;
    if (KEY_IS(k, n, "stream") && first(st, SEEN_STREAM))
        field_int(c, &ev->stream, ARGS_OPEN);
    else if (KEY_IS(k, n, "correlation") && first(st, SEEN_CORR))
        field_int(c, &ev->correlation, ARGS_OPEN);
    else if (KEY_IS(k, n, "bytes") && first(st, SEEN_BYTES))
        field_int(c, &ev->bytes, ARGS_OPEN);
    else if (KEY_IS(k, n, "memory bandwidth (GB/s)") && first(st, SEEN_BW))
        field_double(c, &ev->mem_bw_gbps, &ev->has_mem_bw);
    else if (KEY_IS(k, n, "name") && first(st, SEEN_ARGNAME) && *c->p == '"')
        read_string(c, &ev->arg_name);
    else if (!comm_member(st, k, n))
        skip_value(c, ARGS_OPEN);
}

static void parse_object(struct state *st, void (*member)(struct state *, const char *, size_t));

static void field_args(struct state *st)
{
    if (*st->c.p == '{' && st->c.max_nest >= ARGS_OPEN)
        parse_object(st, args_member);
    else
        skip_value(&st->c, TOP_OPEN);
}

static void field_bp(struct cur *c, struct trace_event *ev)
{
    struct trace_str s = {0};
    if (*c->p != '"')
        return skip_value(c, TOP_OPEN);
    read_string(c, &s);
    ev->flow_bind_enclosing = s.len == 1 && s.s[0] == 'e';
}

/* A key of up to four bytes as one number: its bytes and its length. */
#define KEY4(n, a, b, c, d)                                                               \
    ((uint64_t)(n) << 32 | (uint32_t)(unsigned char)(a) | (uint32_t)(unsigned char)(b) << 8 | \
     (uint32_t)(unsigned char)(c) << 16 | (uint32_t)(unsigned char)(d) << 24)

static inline uint64_t short_key(const char *k, size_t n)
{
    switch (n) {
    case 2: return KEY4(2, k[0], k[1], 0, 0);
    case 3: return KEY4(3, k[0], k[1], k[2], 0);
    case 4: return KEY4(4, k[0], k[1], k[2], k[3]);
    default: return 0;
    }
}

/* Dispatches on the whole key at once (every field htx reads has a key of
 * two to four bytes); a key seen before is skipped like an unknown one. */
static void top_member(struct state *st, const char *k, size_t n)
{
    struct cur *c = &st->c;
    struct trace_event *ev = st->ev;
    switch (short_key(k, n)) {
    case KEY4(2, 'p', 'h', 0, 0):
        if (first(st, SEEN_PH))
            return field_ph(c, ev);
        break;
    case KEY4(2, 't', 's', 0, 0):
        if (first(st, SEEN_TS))
            return field_time(c, &ev->ts, "\"ts\" is not a number", "\"ts\" is out of range");
        break;
    case KEY4(3, 'c', 'a', 't', 0):
        if (first(st, SEEN_CAT))
            return field_string(c, &ev->cat, &ev->has_cat, "\"cat\" is not a string");
        break;
    case KEY4(3, 'd', 'u', 'r', 0):
        if (first(st, SEEN_DUR))
            return field_time(c, &ev->dur, "\"dur\" is not a number", "\"dur\" is out of range");
        break;
    case KEY4(3, 'p', 'i', 'd', 0):
        if (first(st, SEEN_PID))
            return field_key(c, &ev->pid, &ev->pid_is_num, "\"pid\" is not a string or a number");
        break;
    case KEY4(3, 't', 'i', 'd', 0):
        if (first(st, SEEN_TID))
            return field_key(c, &ev->tid, &ev->tid_is_num, "\"tid\" is not a string or a number");
        break;
    case KEY4(4, 'n', 'a', 'm', 'e'):
        if (first(st, SEEN_NAME))
            return field_string(c, &ev->name, &ev->has_name, "\"name\" is not a string");
        break;
    case KEY4(4, 'a', 'r', 'g', 's'):
        if (first(st, SEEN_ARGS))
            return field_args(st);
        break;
    case KEY4(2, 'i', 'd', 0, 0):
        if (first(st, SEEN_ID))
            return field_int(c, &ev->flow_id, TOP_OPEN);
        break;
    case KEY4(2, 'b', 'p', 0, 0):
        if (first(st, SEEN_BP))
            return field_bp(c, ev);
        break;
    default:
        break;
    }
    skip_value(c, TOP_OPEN);
}

/* Reads a key at c->p (a '"') into k and n: the raw text when it has no
 * escape, else decoded into kbuf. A key longer than kbuf cannot be one of
 * ours, so it is only checked and given a length that matches nothing. */
static bool read_key(struct cur *c, char *kbuf, size_t kcap, const char **k, size_t *n)
{
    const char *body = c->p + 1;
    bool esc;
    const char *q = trace_jstring_end(body, c->end, &esc);
    if (!q) {
        unsupported(c);
        return false;
    }
    c->p = q + 1;
    size_t raw = (size_t)(q - body);
    *k = body;
    *n = raw;
    if (!esc)
        return true;
    if (raw > kcap) {
        *n = SIZE_MAX;
        return decode(c, body, raw, NULL);
    }
    long d = trace_jstring_decode(body, raw, kbuf);
    if (d < 0)
        malformed(c, "invalid escape in a string");
    *k = kbuf;
    *n = d < 0 ? SIZE_MAX : (size_t)d;
    return true;
}

/* Walks the object at c->p (a '{'), calling member() with c->p at each value. */
static void parse_object(struct state *st, void (*member)(struct state *, const char *, size_t))
{
    struct cur *c = &st->c;
    char kbuf[48];
    c->p++;
    skip_ws(c);
    if (c->p < c->end && *c->p == '}') {
        c->p++;
        return;
    }
    for (;;) {
        const char *k;
        size_t n;
        if (c->p >= c->end || *c->p != '"' || !read_key(c, kbuf, sizeof kbuf, &k, &n))
            return unsupported(c);
        const char *p = c->p;
        if (c->end - p >= 3 && p[0] == ':' && p[1] == ' ' && (unsigned char)p[2] > ' ') {
            c->p = p + 2;   /* "key": value, as most writers put it */
        } else {
            skip_ws(c);
            if (c->p >= c->end || *c->p != ':')
                return unsupported(c);
            c->p++;
            skip_ws(c);
            if (c->p >= c->end)
                return unsupported(c);
        }
        member(st, k, n);
        if (c->unsupported)
            return;
        p = c->p;
        if (c->end - p >= 3 && p[0] == ',' && p[1] == ' ' && p[2] == '"') {
            c->p = p + 2;   /* value, "key" */
            continue;
        }
        skip_ws(c);
        if (c->p < c->end && *c->p == '}') {
            c->p++;
            return;
        }
        if (c->p >= c->end || *c->p != ',')
            return unsupported(c);
        c->p++;
        skip_ws(c);
    }
}

/* memset(ev, 0, ...) as plain 16-byte stores: the string instruction that
 * memset of this size compiles to takes longer to start than the stores
 * take (perf: half of trace_fields_parse's own time). */
static inline void clear_event(struct trace_event *ev)
{
#if defined(__SSE2__) && defined(__GNUC__)
    char *p = (char *)ev;
    size_t i = 0;
    for (; i + 16 <= sizeof *ev; i += 16) {
        _mm_storeu_si128((__m128i *)(void *)(p + i), _mm_setzero_si128());
        __asm__("" : : "r"(p) : "memory");   /* keeps the loop from becoming memset */
    }
    memset(p + i, 0, sizeof *ev - i);
#else
    memset(ev, 0, sizeof *ev);
#endif
}

enum trace_fields_result trace_fields_parse(const char *text, size_t avail, char *scratch,
                                            size_t scratch_cap, int max_nest,
                                            struct trace_event *ev, const char **what,
                                            size_t *used)
{
    struct state st = {.ev = ev};
    st.c = (struct cur){.p = text, .end = text + avail, .out = scratch,
                        .out_end = scratch + scratch_cap, .max_nest = max_nest};
    clear_event(ev);
    *used = 0;
    if (avail == 0 || text[0] != '{' || max_nest < 1)
        return TRACE_FIELDS_UNSUPPORTED;
    parse_object(&st, top_member);
    if (st.c.unsupported)
        return TRACE_FIELDS_UNSUPPORTED;
    *used = (size_t)(st.c.p - text);
    if (st.c.malformed) {
        *what = st.c.malformed;
        return TRACE_FIELDS_MALFORMED;
    }
    return TRACE_FIELDS_OK;
}

bool trace_fields_is_json(const char *text, size_t len)
{
    struct cur c = {.p = text, .end = text + len, .max_nest = FAST_DEPTH};
    if (len == 0)
        return false;
    skip_value(&c, 0);
    return !c.unsupported && !c.malformed && c.p == c.end;
}
