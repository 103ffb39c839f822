#include "config.h"
#include "trace/scan.h"

#include <stdlib.h>
#include <string.h>

#include "trace/jstring.h"

enum split_state {
    SPLIT_START,
    SPLIT_CONTAINER,
    SPLIT_STRING_IN_CONTAINER,
    SPLIT_STRING,         /* the value itself is a string */
    SPLIT_SCALAR,
};

#define DEFAULT_EVENT_BYTES ((size_t)256 << 20)
#define DEFAULT_META_BYTES ((size_t)64 << 20)
#define DEFAULT_DEPTH 512
/* Text is read this much at a time: the parser then finds it in the cache
 * the read just wrote it to. */
#define SCAN_READ_STEP ((size_t)256 << 10)

struct trace_limits trace_limits_resolve(const struct trace_limits *lim)
{
    struct trace_limits r = {0};
    if (lim)
        r = *lim;
    if (!r.max_event_bytes)
        r.max_event_bytes = DEFAULT_EVENT_BYTES;
    if (!r.max_meta_bytes)
        r.max_meta_bytes = DEFAULT_META_BYTES;
    if (r.max_depth <= 0)
        r.max_depth = DEFAULT_DEPTH;
    return r;
}

void trace_split_init(struct trace_split *sp, int max_depth)
{
    memset(sp, 0, sizeof *sp);
    sp->max_depth = max_depth;
    sp->state = SPLIT_START;
}

/* Bytes that matter between strings inside a container. */
enum { C_NONE, C_QUOTE, C_OPEN, C_CLOSE };
static const unsigned char container_class[256] = {
    ['"'] = C_QUOTE, ['{'] = C_OPEN, ['['] = C_OPEN, ['}'] = C_CLOSE, [']'] = C_CLOSE,
};

static bool is_scalar_byte(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '-' || c == '+' || c == '.';
}

/* Crosses a string body from sp->pos; true when its closing quote was found
 * (sp->pos is then just after it). A backslash escapes the next byte, so a
 * text ending in a backslash resumes at that backslash. */
static bool cross_string(struct trace_split *sp, const char *text, size_t len)
{
    const char *p = text + sp->pos, *end = text + len;
    for (;;) {
        p = trace_jstring_special(p, end);
        if (p >= end) {
            sp->pos = len;
            return false;
        }
        if (*p == '"') {
            sp->pos = (size_t)(p - text) + 1;
            return true;
        }
        if (end - p < 2) {
            sp->pos = (size_t)(p - text);
            return false;
        }
        p += 2;
    }
}

static enum trace_split_result cross_container(struct trace_split *sp, const char *text,
                                               size_t len)
{
    size_t i = sp->pos;
    while (i < len) {
        unsigned char k = container_class[(unsigned char)text[i]];
        if (k == C_NONE) {
            i++;
            continue;
        }
        if (k == C_QUOTE) {
            sp->pos = i + 1;
            if (!cross_string(sp, text, len)) {
                sp->state = SPLIT_STRING_IN_CONTAINER;
                return TRACE_SPLIT_MORE;
            }
            i = sp->pos;
            continue;
        }
        if (k == C_OPEN) {
            if (sp->depth >= sp->max_depth) {
                sp->pos = i;
                return TRACE_SPLIT_DEPTH;
            }
            sp->depth++;
        } else if (--sp->depth == 0) {
            sp->pos = i + 1;
            return TRACE_SPLIT_DONE;
        }
        i++;
    }
    sp->pos = i;
    return TRACE_SPLIT_MORE;
}

static enum trace_split_result split_start(struct trace_split *sp, const char *text)
{
    unsigned char c = (unsigned char)text[0];
    sp->pos = 1;
    if (c == '{' || c == '[') {
        if (sp->max_depth < 1) {
            sp->pos = 0;
            return TRACE_SPLIT_DEPTH;
        }
        sp->depth = 1;
        sp->state = SPLIT_CONTAINER;
    } else if (c == '"') {
        sp->state = SPLIT_STRING;
    } else if (is_scalar_byte(c)) {
        sp->state = SPLIT_SCALAR;
    } else {
        sp->pos = 0;
        return TRACE_SPLIT_BAD;
    }
    return TRACE_SPLIT_MORE;
}

enum trace_split_result trace_split_run(struct trace_split *sp, const char *text, size_t len,
                                        bool at_eof)
{
    if (sp->state == SPLIT_START) {
        if (len == 0)
            return at_eof ? TRACE_SPLIT_BAD : TRACE_SPLIT_MORE;
        enum trace_split_result r = split_start(sp, text);
        if (r != TRACE_SPLIT_MORE)
            return r;
    }
    switch (sp->state) {
    case SPLIT_STRING:
        return cross_string(sp, text, len) ? TRACE_SPLIT_DONE : TRACE_SPLIT_MORE;
    case SPLIT_SCALAR:
        while (sp->pos < len && is_scalar_byte((unsigned char)text[sp->pos]))
            sp->pos++;
        return sp->pos < len || at_eof ? TRACE_SPLIT_DONE : TRACE_SPLIT_MORE;
    case SPLIT_STRING_IN_CONTAINER:
        if (!cross_string(sp, text, len))
            return TRACE_SPLIT_MORE;
        sp->state = SPLIT_CONTAINER;
        return cross_container(sp, text, len);
    default:
        return cross_container(sp, text, len);
    }
}

/* ---- the document walk ---- */

struct scan {
    struct trace_source *src;
    struct trace_limits lim;
    char *buf;
    size_t cap, pos, end;    /* unread text is buf[pos .. end) */
    uint64_t base;           /* document offset of buf[0] */
    bool eof;
    char *key;               /* decoded current top-level key */
    size_t key_cap;
    const struct trace_scan_handler *h;
};

static unsigned long long at(const struct scan *sc, size_t pos)
{
    return (unsigned long long)(sc->base + pos);
}

/* Reads more text after buf[pos .. end), moving that to the front first and
 * growing the buffer (up to grow_to bytes) when it is full. */
static int more(struct scan *sc, size_t grow_to, struct err *e)
{
    if (sc->pos > 0) {
        memmove(sc->buf, sc->buf + sc->pos, sc->end - sc->pos);
        sc->base += sc->pos;
        sc->end -= sc->pos;
        sc->pos = 0;
    }
    if (sc->end == sc->cap) {
        if (sc->cap >= grow_to)
            return err_set(e, ERR_INTERNAL, "scan buffer cannot grow");
        size_t want = sc->cap > grow_to / 2 ? grow_to : sc->cap * 2;
        char *nb = realloc(sc->buf, want);
        if (!nb)
            return err_set(e, ERR_NOMEM, "out of memory for a %zu-byte buffer", want);
        sc->buf = nb;
        sc->cap = want;
    }
    size_t got = 0, room = sc->cap - sc->end;
    size_t step = room < SCAN_READ_STEP ? room : SCAN_READ_STEP;
    int rc = trace_source_read(sc->src, sc->buf + sc->end, step, &got, e);
    if (rc)
        return rc;
    sc->end += got;
    if (got == 0)
        sc->eof = true;
    return 0;
}

/* The next byte that is not JSON whitespace, left unconsumed; -1 at the end. */
static int peek(struct scan *sc, struct err *e, int *rc)
{
    *rc = 0;
    for (;;) {
        while (sc->pos < sc->end) {
            unsigned char c = (unsigned char)sc->buf[sc->pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
                return c;
            sc->pos++;
        }
        if (sc->eof)
            return -1;
        *rc = more(sc, sc->cap, e);
        if (*rc)
            return -1;
    }
}

static int truncated(struct scan *sc, const char *inside, struct err *e)
{
    return err_set(e, ERR_PARSE, "byte %llu: the document ends inside %s (truncated file?)",
                   at(sc, sc->end), inside);
}

/* Makes buf[pos .. pos + *len) one whole JSON value (by its brackets),
 * consuming it. limit bounds its length, depth the nesting already open. */
static int capture(struct scan *sc, size_t limit, int depth, const char *what, const char **text,
                   size_t *len, struct err *e)
{
    struct trace_split sp;
    trace_split_init(&sp, sc->lim.max_depth - depth);
    size_t grow_to = limit < SIZE_MAX - 2 ? limit + 2 : SIZE_MAX;
    for (;;) {
        enum trace_split_result r =
            trace_split_run(&sp, sc->buf + sc->pos, sc->end - sc->pos, sc->eof);
        if (r == TRACE_SPLIT_DONE && sp.pos <= limit) {
            *text = sc->buf + sc->pos;
            *len = sp.pos;
            sc->pos += sp.pos;
            return 0;
        }
        if (r == TRACE_SPLIT_DEPTH)
            return err_set(e, ERR_LIMIT, "byte %llu: %s nests deeper than the limit of %d",
                           at(sc, sc->pos + sp.pos), what, sc->lim.max_depth);
        if (r == TRACE_SPLIT_BAD)
            return err_set(e, ERR_PARSE, "byte %llu: expected a JSON value for %s",
                           at(sc, sc->pos), what);
        if (sp.pos > limit)
            return err_set(e, ERR_LIMIT, "byte %llu: %s is longer than the limit of %zu bytes",
                           at(sc, sc->pos), what, limit);
        if (sc->eof)
            return truncated(sc, what, e);
        if (sc->end - sc->pos >= grow_to)
            return err_set(e, ERR_LIMIT, "byte %llu: %s is longer than the limit of %zu bytes",
                           at(sc, sc->pos), what, limit);
        int rc = more(sc, grow_to > sc->cap ? grow_to : sc->cap, e);
        if (rc)
            return rc;
    }
}

static int expect_after(struct scan *sc, int c, char close, const char *where, struct err *e)
{
    if (c == ',' || c == close)
        return 0;
    if (c < 0)
        return truncated(sc, where, e);
    return err_set(e, ERR_PARSE, "byte %llu: expected ',' or '%c' after %s", at(sc, sc->pos), close,
                   where);
}

/* One element: taken from the buffer as it is when the handler can, else
 * split out whole first (refilling and growing the buffer as needed). */
static int scan_element(struct scan *sc, uint64_t index, struct err *e)
{
    uint64_t offset = sc->base + sc->pos;
    if (sc->h->element_prefix) {
        size_t used = 0;
        int rc = sc->h->element_prefix(sc->h->ctx, index, offset, sc->buf + sc->pos,
                                       sc->end - sc->pos, &used, e);
        if (rc || used) {
            sc->pos += used;
            return rc;
        }
    }
    const char *text;
    size_t len;
    int rc = capture(sc, sc->lim.max_event_bytes, 2, "a traceEvents element", &text, &len, e);
    if (rc)
        return rc;
    return sc->h->element(sc->h->ctx, index, offset, text, len, e);
}

/* Reads element index and the ',' or ']' after it, left unread in *sep. */
static int element_and_separator(struct scan *sc, uint64_t index, int *sep, struct err *e)
{
    int rc = scan_element(sc, index, e);
    if (rc)
        return rc;
    *sep = peek(sc, e, &rc);
    if (rc)
        return rc;
    return expect_after(sc, *sep, ']', "a traceEvents element", e);
}

/* Continues at offset, where the traceEvents array ends (its elements up to
 * there were read by another scan of the same file). */
static int jump_to_end(struct scan *sc, const struct trace_jump *jump, struct err *e)
{
    int rc = 0;
    uint64_t offset = jump->offset;
    if (jump->rest) {   // the document's last bytes, read by the other scan: the source is done
        if (jump->rest_len > sc->cap) {
            char *nb = realloc(sc->buf, jump->rest_len);
            if (!nb)
                return err_set(e, ERR_NOMEM, "out of memory for a %zu-byte buffer", jump->rest_len);
            sc->buf = nb;
            sc->cap = jump->rest_len;
        }
        memcpy(sc->buf, jump->rest, jump->rest_len);
        sc->base = offset;
        sc->pos = 0;
        sc->end = jump->rest_len;
        sc->eof = true;
    } else if (offset >= sc->base + sc->pos && offset <= sc->base + sc->end) {
        sc->pos = (size_t)(offset - sc->base);   // read already (a gzip source goes forward only)
    } else {
        if ((rc = trace_source_seek(sc->src, offset, e)) != 0)
            return rc;
        sc->base = offset;
        sc->pos = sc->end = 0;
        sc->eof = false;
    }
    int c = peek(sc, e, &rc);
    if (rc)
        return rc;
    if (c != ']')
        return err_set(e, ERR_INTERNAL, "byte %llu: expected the end of traceEvents",
                       at(sc, sc->pos));
    sc->pos++;
    return 0;
}

static int scan_elements(struct scan *sc, struct err *e)
{
    int rc;
    int c = peek(sc, e, &rc);
    if (rc)
        return rc;
    if (c == ']') {
        sc->pos++;
        return 0;
    }
    for (uint64_t index = 0;; index++) {
        if (c < 0)
            return truncated(sc, "\"traceEvents\"", e);
        struct trace_jump jump = {0, 0, NULL, 0};
        if (sc->h->at_element &&
            (rc = sc->h->at_element(sc->h->ctx, index, sc->base + sc->pos, &jump, e)) != 0)
            return rc;
        if (jump.count)
            return jump_to_end(sc, &jump, e);
        rc = element_and_separator(sc, index, &c, e);
        if (rc)
            return rc;
        sc->pos++;
        if (c == ']')
            return 0;
        c = peek(sc, e, &rc);
        if (rc)
            return rc;
    }
}

/* Reads a top-level key into sc->key (decoded); returns its length. */
static int scan_key(struct scan *sc, size_t *key_len, struct err *e)
{
    const char *text;
    size_t len;
    uint64_t offset = sc->base + sc->pos;
    int rc = capture(sc, sc->lim.max_meta_bytes, 1, "a key", &text, &len, e);
    if (rc)
        return rc;
    if (len < 2 || text[0] != '"' || text[len - 1] != '"')
        return err_set(e, ERR_PARSE, "byte %llu: expected a key string",
                       (unsigned long long)offset);
    if (len > sc->key_cap) {
        char *nk = realloc(sc->key, len);
        if (!nk)
            return err_set(e, ERR_NOMEM, "out of memory");
        sc->key = nk;
        sc->key_cap = len;
    }
    long n = trace_jstring_decode(text + 1, len - 2, sc->key);
    if (n < 0)
        return err_set(e, ERR_PARSE, "byte %llu: invalid escape in a key",
                       (unsigned long long)offset);
    *key_len = (size_t)n;
    return 0;
}

static bool key_is(const struct scan *sc, size_t key_len, const char *name)
{
    return key_len == strlen(name) && memcmp(sc->key, name, key_len) == 0;
}

/* One "key": value member of the top-level object. */
static int scan_member(struct scan *sc, bool *seen_events, struct err *e)
{
    size_t key_len = 0;
    int rc = scan_key(sc, &key_len, e);
    if (rc)
        return rc;
    int c = peek(sc, e, &rc);
    if (rc)
        return rc;
    if (c != ':')
        return c < 0 ? truncated(sc, "the top-level object", e)
                     : err_set(e, ERR_PARSE, "byte %llu: expected ':' after a key",
                               at(sc, sc->pos));
    sc->pos++;
    c = peek(sc, e, &rc);
    if (rc)
        return rc;
    if (c < 0)
        return truncated(sc, "the top-level object", e);
    if (key_is(sc, key_len, "traceEvents")) {
        if (*seen_events)
            return err_set(e, ERR_PARSE, "byte %llu: a second \"traceEvents\"", at(sc, sc->pos));
        if (c != '[')
            return err_set(e, ERR_PARSE, "byte %llu: \"traceEvents\" is not an array",
                           at(sc, sc->pos));
        *seen_events = true;
        sc->pos++;
        return scan_elements(sc, e);
    }
    uint64_t offset = sc->base + sc->pos;
    const char *text;
    size_t len;
    rc = capture(sc, sc->lim.max_meta_bytes, 1, "a top-level value", &text, &len, e);
    if (rc || !sc->h->member)
        return rc;
    return sc->h->member(sc->h->ctx, sc->key, key_len, offset, text, len, e);
}

static int scan_object(struct scan *sc, struct err *e)
{
    bool seen_events = false;
    int rc;
    int c = peek(sc, e, &rc);
    if (rc)
        return rc;
    if (c != '}') {
        for (;;) {
            if (c != '"')
                return c < 0 ? truncated(sc, "the top-level object", e)
                             : err_set(e, ERR_PARSE, "byte %llu: expected a key string",
                                       at(sc, sc->pos));
            rc = scan_member(sc, &seen_events, e);
            if (rc)
                return rc;
            c = peek(sc, e, &rc);
            if (rc)
                return rc;
            rc = expect_after(sc, c, '}', "a top-level value", e);
            if (rc)
                return rc;
            sc->pos++;
            if (c == '}')
                break;
            c = peek(sc, e, &rc);
            if (rc)
                return rc;
        }
    } else {
        sc->pos++;
    }
    if (!seen_events)
        return err_set(e, ERR_PARSE, "no \"traceEvents\" array in the document");
    return 0;
}

static int scan_run(struct scan *sc, struct err *e)
{
    int rc = more(sc, sc->cap, e);
    /* A short first read (or a tiny buffer) must not hide a byte order mark. */
    while (rc == 0 && !sc->eof && sc->end < 3)
        rc = more(sc, sc->cap < 3 ? 3 : sc->cap, e);
    if (rc)
        return rc;
    /* A UTF-8 byte order mark is not JSON, but some tools write one. */
    if (sc->end >= 3 && memcmp(sc->buf, "\xEF\xBB\xBF", 3) == 0)
        sc->pos = 3;
    int c = peek(sc, e, &rc);
    if (rc)
        return rc;
    if (c < 0)
        return err_set(e, ERR_PARSE, "the document is empty");
    if (c != '{')
        return err_set(e, ERR_PARSE, "byte %llu: not a JSON object (a trace starts with '{')",
                       at(sc, sc->pos));
    sc->pos++;
    rc = scan_object(sc, e);
    if (rc)
        return rc;
    c = peek(sc, e, &rc);
    if (rc)
        return rc;
    if (c >= 0)
        return err_set(e, ERR_PARSE, "byte %llu: unexpected data after the JSON document",
                       at(sc, sc->pos));
    return 0;
}

/* The elements from where src stands (offset `start` of the document) to
 * the end of their array: what a second thread reads of one file. */
static int scan_element_run(struct scan *sc, const atomic_bool *stop, uint64_t *end,
                            uint64_t *count, struct err *e)
{
    for (uint64_t index = 0;; index++) {
        if (atomic_load_explicit(stop, memory_order_relaxed))
            return err_set(e, ERR_CANCEL, "stopped");
        int rc;
        int c = peek(sc, e, &rc);
        if (rc)
            return rc;
        if (c != '{')
            return err_set(e, ERR_PARSE, "byte %llu: not an element", at(sc, sc->pos));
        rc = element_and_separator(sc, index, &c, e);
        if (rc)
            return rc;
        if (c == ']') {
            *end = sc->base + sc->pos;
            *count = index + 1;
            return 0;
        }
        sc->pos++;
    }
}

static int scan_init(struct scan *sc, struct trace_source *src, const struct trace_limits *lim,
                     size_t buf_size, const struct trace_scan_handler *h, struct err *e)
{
    memset(sc, 0, sizeof *sc);
    sc->src = src;
    sc->lim = trace_limits_resolve(lim);
    sc->h = h;
    sc->cap = buf_size ? buf_size : TRACE_SCAN_BUFFER;
    /* A small plain document in memory needs no 4 MiB buffer (tests and the
     * fuzz targets read thousands of them a second). */
    uint64_t hint = buf_size ? 0 : trace_source_size_hint(src);
    if (hint && hint < TRACE_SCAN_BUFFER)
        sc->cap = hint < 4096 ? 4096 : (size_t)hint + 1;
    sc->buf = malloc(sc->cap);
    if (!sc->buf)
        return err_set(e, ERR_NOMEM, "out of memory for the read buffer");
    return 0;
}

/* The document from buf[pos] (its ']' closing traceEvents) to its end,
 * when that is no longer than the limit on metadata; else nothing. */
static void read_rest(struct scan *sc, struct trace_scan_rest *rest)
{
    size_t cap = sc->lim.max_meta_bytes < SIZE_MAX / 2 ? sc->lim.max_meta_bytes : SIZE_MAX / 2;
    size_t len = sc->end - sc->pos;
    char *buf = len <= cap ? malloc(len ? len : 1) : NULL;
    if (buf)
        memcpy(buf, sc->buf + sc->pos, len);
    for (size_t want = len; buf && !sc->eof;) {
        if (len == want) {
            want = len < 4096 ? 4096 : len * 2;
            char *nb = want <= cap ? realloc(buf, want) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
        }
        size_t got = 0;
        struct err ignored = {0, ""};   // the first scan meets it again when it reads on
        if (trace_source_read(sc->src, buf + len, want - len, &got, &ignored) != 0) {
            free(buf);
            buf = NULL;
        } else if (!got) {
            sc->eof = true;
        }
        len += got;
    }
    rest->text = buf;
    rest->len = buf ? len : 0;
}

int trace_scan_elements_from(struct trace_source *src, uint64_t start, const char *read,
                             size_t nread, const struct trace_limits *lim,
                             const struct trace_scan_handler *h, const atomic_bool *stop,
                             uint64_t *end, uint64_t *count, struct trace_scan_rest *rest,
                             struct err *e)
{
    if (rest)
        *rest = (struct trace_scan_rest){NULL, 0};
    struct scan sc;
    int rc = scan_init(&sc, src, lim, nread > TRACE_SCAN_BUFFER ? nread : nread ? TRACE_SCAN_BUFFER : 0,
                       h, e);
    if (rc == 0 && nread) {
        memcpy(sc.buf, read, nread);
        sc.end = nread;
    } else if (rc == 0) {
        rc = trace_source_seek(src, start, e);
    }
    sc.base = start;
    if (rc == 0)
        rc = scan_element_run(&sc, stop, end, count, e);
    if (rc == 0 && rest)
        read_rest(&sc, rest);
    free(sc.buf);
    free(sc.key);
    return rc;
}

int trace_scan_document(struct trace_source *src, const struct trace_limits *lim, size_t buf_size,
                        const struct trace_scan_handler *h, struct err *e)
{
    struct scan sc;
    int rc = scan_init(&sc, src, lim, buf_size, h, e);
    if (rc)
        return rc;
    rc = scan_run(&sc, e);
    free(sc.buf);
    free(sc.key);
    return rc;
}
