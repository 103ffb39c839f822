#include "config.h"
#include "trace/counters_write.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "util/json_escape.h"
#include "util/outfile.h"

#define CW_CHUNK (256 * 1024)
#define CW_KEY_MAX 16

/* ---- locating the end of traceEvents in a byte stream ----
 *
 * A JSON scanner that only tracks what it needs: string/escape state, the
 * nesting depth, and at depth 1 of the top-level object which key a value
 * belongs to. It never recurses, so hostile nesting costs nothing. */

struct scan {
    uint64_t depth;
    bool started, in_str, esc;
    bool top_array;          /* the document is a bare array of events */
    bool expect_key;         /* at depth 1: the next string is a key */
    bool key_capture;        /* the current string is a depth-1 key */
    char key[CW_KEY_MAX];
    size_t keylen;
    bool want_array;         /* the key was "traceEvents", its value not yet begun */
    bool in_target;          /* inside the events array */
    uint64_t target_depth;   /* depth inside that array */
    bool has_elems;          /* the events array holds at least one element */
    bool bad;                /* not JSON we can place counters into */
};

static void scan_string_byte(struct scan *s, char c)
{
    if (s->esc) {
        s->esc = false;
    } else if (c == '\\') {
        s->esc = true;
        s->keylen = CW_KEY_MAX;   /* escaped keys never match */
    } else if (c == '"') {
        s->in_str = false;
    } else if (s->key_capture && s->keylen < CW_KEY_MAX) {
        s->key[s->keylen++] = c;
    }
}

static void scan_first_byte(struct scan *s, char c)
{
    s->started = true;
    s->depth = 1;
    if (c == '[') {
        s->top_array = s->in_target = true;
        s->target_depth = 1;
    } else if (c == '{') {
        s->expect_key = true;
    } else {
        s->bad = true;
    }
}

static bool is_key(const struct scan *s, const char *k)
{
    return s->keylen == strlen(k) && memcmp(s->key, k, s->keylen) == 0;
}

/* A structural byte or the start of a scalar, outside strings. */
static bool scan_token(struct scan *s, char c)
{
    bool top = s->depth == 1 && !s->top_array;
    if (s->in_target && s->depth == s->target_depth && c != ']')
        s->has_elems = true;
    switch (c) {
    case '"':
        s->in_str = true;
        s->key_capture = top && s->expect_key;
        s->keylen = 0;
        if (top && !s->expect_key)
            s->want_array = false;
        break;
    case '{':
    case '[':
        if (top && s->want_array && c == '[') {
            s->in_target = true;
            s->target_depth = 2;
        }
        s->want_array = false;
        s->depth++;
        break;
    case '}':
    case ']':
        if (s->in_target && s->depth == s->target_depth && c == ']')
            return true;
        if (s->depth == 0)
            s->bad = true;
        else
            s->depth--;
        break;
    case ':':
        if (top) {
            s->want_array = is_key(s, "traceEvents");
            s->expect_key = false;
        }
        break;
    case ',':
        if (top) {
            s->expect_key = true;
            s->want_array = false;
        }
        break;
    default:
        if (top)
            s->want_array = false;
        break;
    }
    return false;
}

/* Feeds one byte; returns true at the closing ']' of the events array (that
 * byte is not consumed). */
static bool scan_byte(struct scan *s, char c)
{
    if (s->in_str) {
        scan_string_byte(s, c);
        return false;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        return false;
    if (!s->started) {
        if ((unsigned char)c < 0x80)    /* skips a UTF-8 byte order mark */
            scan_first_byte(s, c);
        return false;
    }
    return scan_token(s, c);
}

/* ---- writing the counter events ---- */

struct out {
    gzFile gz;
    char buf[CW_CHUNK];
    size_t len;
    bool failed;
};

static void out_flush(struct out *o)
{
    if (o->len && !o->failed && gzwrite(o->gz, o->buf, (unsigned)o->len) != (int)o->len)
        o->failed = true;
    o->len = 0;
}

static void out_bytes(struct out *o, const char *p, size_t n)
{
    while (n) {
        if (o->len == sizeof o->buf)
            out_flush(o);
        size_t k = sizeof o->buf - o->len < n ? sizeof o->buf - o->len : n;
        memcpy(o->buf + o->len, p, k);
        o->len += k;
        p += k;
        n -= k;
    }
}

static void out_str(struct out *o, const char *s)
{
    out_bytes(o, s, strlen(s));
}

static void put_out(void *o, const char *bytes, size_t n)
{
    out_bytes(o, bytes, n);
}

/* A JSON string literal, escaped like every JSON htx writes. */
static void out_json_string(struct out *o, const char *s)
{
    out_bytes(o, "\"", 1);
    json_escape(s, put_out, o);
    out_bytes(o, "\"", 1);
}

/* A JSON integer as written by JSON itself: -?(0|[1-9][0-9]*). */
static bool is_json_integer(const char *s)
{
    const char *p = s + (*s == '-');
    if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] != '\0'))
        return false;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == '\0' && p - s < 20;
}

static void out_scalar(struct out *o, const char *s)
{
    if (is_json_integer(s))
        out_str(o, s);
    else
        out_json_string(o, s);
}

/* Microseconds with the nanoseconds as an exact decimal fraction. */
static void out_time(struct out *o, int64_t ns)
{
    char b[48];
    uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    unsigned frac = (unsigned)(mag % 1000);
    int len = snprintf(b, sizeof b, "%s%" PRIu64, ns < 0 ? "-" : "", mag / 1000);
    if (frac) {
        len += snprintf(b + len, sizeof b - (size_t)len, ".%03u", frac);
        while (b[len - 1] == '0')
            b[--len] = '\0';
    }
    out_str(o, b);
}

/* The shortest %g text that reads back as the same double. */
static void out_double(struct out *o, double v, bool integer)
{
    char b[40];
    if (integer) {
        snprintf(b, sizeof b, "%.0f", v);
    } else {
        for (int prec = 15; prec <= 17; prec++) {
            snprintf(b, sizeof b, "%.*g", prec, v);
            if (strtod(b, NULL) == v)
                break;
        }
    }
    out_str(o, b);
}

static void out_point(struct out *o, const struct counter_series *s, size_t i)
{
    out_str(o, "{\"ph\":\"C\",\"name\":");
    out_json_string(o, s->name);
    out_str(o, ",\"pid\":");
    out_scalar(o, s->pid ? s->pid : "0");
    if (s->tid) {
        out_str(o, ",\"tid\":");
        out_scalar(o, s->tid);
    }
    if (s->id) {
        out_str(o, ",\"id\":");
        out_scalar(o, s->id);
    }
    out_str(o, ",\"ts\":");
    out_time(o, s->ts_ns[i]);
    out_str(o, ",\"args\":{");
    out_json_string(o, s->arg);
    out_str(o, ":");
    out_double(o, s->values[i], s->integer_values);
    out_str(o, "}}");
}

/* Everything inserted before the events array's ']'. */
static void out_counters(struct out *o, const struct counter_series *series, size_t nseries,
                         bool has_elems)
{
    bool first = !has_elems;
    for (size_t k = 0; k < nseries; k++) {
        const struct counter_series *s = &series[k];
        for (size_t i = 0; i < s->n; i++) {
            if (!isfinite(s->values[i]))
                continue;
            out_str(o, first ? "\n" : ",\n");
            first = false;
            out_point(o, s, i);
        }
    }
    if (!first)
        out_str(o, "\n");
}

/* ---- the copy ---- */

/* Streams src into o, inserting the counters; 0 or ERR_*. */
static int copy_with_counters(gzFile in, struct out *o, const char *src,
                              const struct counter_series *series, size_t nseries,
                              struct err *e)
{
    struct scan s;
    memset(&s, 0, sizeof s);
    char *buf = malloc(CW_CHUNK);
    if (!buf)
        return err_set(e, ERR_NOMEM, "%s: out of memory", src);
    bool done = false;
    uint64_t offset = 0;
    int n;
    while ((n = gzread(in, buf, CW_CHUNK)) > 0) {
        size_t start = 0;
        for (size_t i = 0; !done && i < (size_t)n; i++) {
            if (!scan_byte(&s, buf[i]))
                continue;
            out_bytes(o, buf, i);
            out_counters(o, series, nseries, s.has_elems);
            start = i;
            done = true;
        }
        if (!done && s.bad) {
            free(buf);
            return err_set(e, ERR_PARSE, "%s: byte %" PRIu64 ": not a JSON trace object",
                           src, offset);
        }
        out_bytes(o, buf + start, (size_t)n - start);
        offset += (uint64_t)n;
    }
    free(buf);
    int zerr = Z_OK;
    const char *msg = gzerror(in, &zerr);
    if (n < 0 || (zerr != Z_OK && zerr != Z_STREAM_END))
        return err_set(e, ERR_IO, "%s: cannot read: %s", src,
                       zerr == Z_ERRNO ? strerror(errno) : msg);
    if (!done)
        return err_set(e, ERR_PARSE, "%s: no \"traceEvents\" array found", src);
    return 0;
}

/* Writes the gzip output into the open temporary file fd (closes it). */
static int write_temp(int fd, const char *tmp, const char *src,
                      const struct counter_series *series, size_t nseries, struct err *e)
{
    struct out *o = calloc(1, sizeof *o);
    gzFile in = gzopen(src, "rb");
    if (o)
        o->gz = gzdopen(fd, "wb1");   /* speed over size: traces are large */
    if (!o || !o->gz || !in) {
        int rc = !in ? err_set(e, ERR_IO, "%s: %s", src, strerror(errno))
                     : err_set(e, ERR_NOMEM, "%s: out of memory", tmp);
        if (o && o->gz)
            gzclose(o->gz);
        else
            close(fd);
        if (in)
            gzclose(in);
        free(o);
        return rc;
    }
    gzbuffer(in, CW_CHUNK);
    int rc = copy_with_counters(in, o, src, series, nseries, e);
    gzclose(in);
    out_flush(o);
    int zc = gzclose(o->gz);
    if (!rc && (o->failed || zc != Z_OK))
        rc = err_set(e, ERR_IO, "%s: write failed: %s", tmp, strerror(errno));
    free(o);
    return rc;
}

int counters_write_file(const char *src_path, const char *dst_path, bool force,
                        const char *const *inputs, size_t ninputs,
                        const struct counter_series *series, size_t nseries, struct err *e)
{
    /* The source and every other input of the run, for the writer's check. */
    const char **all = malloc((ninputs + 1) * sizeof *all);
    if (!all)
        return err_set(e, ERR_NOMEM, "%s: out of memory", dst_path);
    all[0] = src_path;
    for (size_t i = 0; i < ninputs; i++)
        all[i + 1] = inputs[i];
    struct outfile o;
    int rc = outfile_begin(&o, dst_path, force, all, ninputs + 1, e);
    free(all);
    if (rc)
        return rc;
    rc = write_temp(o.fd, o.tmp, src_path, series, nseries, e);
    outfile_fd_closed(&o);   /* write_temp closed it */
    if (rc) {
        outfile_abort(&o);
        return rc;
    }
    return outfile_commit(&o, e);
}

int counters_output_path(const char *src_path, char *out, size_t outsz, struct err *e)
{
    static const char *const exts[] = {".json.gz", ".json"};
    static const char suffix[] = "_with_counters.json.gz";
    size_t len = strlen(src_path);
    for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
        size_t el = strlen(exts[i]);
        if (len >= el && strcmp(src_path + len - el, exts[i]) == 0) {
            len -= el;
            break;
        }
    }
    if (len + sizeof suffix > outsz)
        return err_set(e, ERR_USAGE, "%s: output file name too long", src_path);
    memcpy(out, src_path, len);
    memcpy(out + len, suffix, sizeof suffix);
    return 0;
}
