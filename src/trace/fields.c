#include "config.h"
#include "trace/fields.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "trace/jstring.h"
#include "trace/number.h"

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
static inline void skip_ws(struct cur *c)
{
    const char *p = c->p, *end = c->p < c->end ? c->end : c->p;
    while (p < end) {
        unsigned char ch = (unsigned char)*p;
        if (ch > ' ')
            break;   /* most calls: no whitespace at all */
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

static bool is_scalar_byte(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           ch == '-' || ch == '+' || ch == '.';
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

/* Reads the number at c->p; false (and unsupported) when it is not strict
 * or the text ends right after it (the number might go on). */
static bool read_number(struct cur *c, const char **s, size_t *n)
{
    size_t k = trace_number_scan(c->p, (size_t)(c->end - c->p));
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

/* Skips one value, checking its syntax, without recursion. open is the
 * number of containers already open around it. */
static void skip_value(struct cur *c, int open)
{
    bool is_obj[FAST_DEPTH];
    int depth = 0;
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
        size_t n;
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

static void field_time(struct cur *c, struct trace_time *t, const char *not_num,
                       const char *range)
{
    if (starts_number(*c->p)) {
        const char *s;
        size_t n = trace_number_plain_time(c->p, (size_t)(c->end - c->p), t);
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

#define KEY_IS(k, n, lit) ((n) == sizeof(lit) - 1 && memcmp((k), (lit), (n)) == 0)

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

/* Dispatches on the key's length and first byte before comparing it. */
static void top_member(struct state *st, const char *k, size_t n)
{
    struct cur *c = &st->c;
    struct trace_event *ev = st->ev;
    char k0 = n ? k[0] : 0;
    if (n == 2 && k0 == 'p' && k[1] == 'h' && first(st, SEEN_PH))
        field_ph(c, ev);
    else if (n == 2 && k0 == 't' && k[1] == 's' && first(st, SEEN_TS))
        field_time(c, &ev->ts, "\"ts\" is not a number", "\"ts\" is out of range");
    else if (n == 3 && k0 == 'c' && KEY_IS(k, n, "cat") && first(st, SEEN_CAT))
        field_string(c, &ev->cat, &ev->has_cat, "\"cat\" is not a string");
    else if (n == 3 && k0 == 'd' && KEY_IS(k, n, "dur") && first(st, SEEN_DUR))
        field_time(c, &ev->dur, "\"dur\" is not a number", "\"dur\" is out of range");
    else if (n == 3 && k0 == 'p' && KEY_IS(k, n, "pid") && first(st, SEEN_PID))
        field_key(c, &ev->pid, &ev->pid_is_num, "\"pid\" is not a string or a number");
    else if (n == 3 && k0 == 't' && KEY_IS(k, n, "tid") && first(st, SEEN_TID))
        field_key(c, &ev->tid, &ev->tid_is_num, "\"tid\" is not a string or a number");
    else if (n == 4 && k0 == 'n' && KEY_IS(k, n, "name") && first(st, SEEN_NAME))
        field_string(c, &ev->name, &ev->has_name, "\"name\" is not a string");
    else if (n == 4 && k0 == 'a' && KEY_IS(k, n, "args") && first(st, SEEN_ARGS))
        field_args(st);
    else if (n == 2 && k0 == 'i' && k[1] == 'd' && first(st, SEEN_ID))
        field_int(c, &ev->flow_id, TOP_OPEN);
    else if (n == 2 && k0 == 'b' && k[1] == 'p' && first(st, SEEN_BP))
        field_bp(c, ev);
    else
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
        skip_ws(c);
        if (c->p >= c->end || *c->p != ':')
            return unsupported(c);
        c->p++;
        skip_ws(c);
        if (c->p >= c->end)
            return unsupported(c);
        member(st, k, n);
        if (c->unsupported)
            return;
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

enum trace_fields_result trace_fields_parse(const char *text, size_t avail, char *scratch,
                                            size_t scratch_cap, int max_nest,
                                            struct trace_event *ev, const char **what,
                                            size_t *used)
{
    struct state st = {.ev = ev};
    st.c = (struct cur){.p = text, .end = text + avail, .out = scratch,
                        .out_end = scratch + scratch_cap, .max_nest = max_nest};
    memset(ev, 0, sizeof *ev);
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
