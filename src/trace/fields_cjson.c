#include "config.h"
#include "trace/fields.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/jstring.h"
#include "trace/number.h"

/* The cJSON reading of an element, for what the fast path does not take.
 * It gives the same fields by the same rules; only what cJSON itself loses
 * differs: numbers are cJSON's doubles (a time keeps the digits a double
 * holds, and "123.0" is not seen as a float), and strings end at an
 * embedded \u0000. */

/* Whether d is an integer that an int64 holds. */
static bool int64_of(double d, int64_t *out)
{
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
        return false;
    *out = (int64_t)d;
    return true;
}

/* Whether every escape in the strings of text is valid. cJSON rejects some
 * invalid escapes and reads others (a bad \u as U+0000); the fast path calls
 * the element malformed either way, and so does this path. */
static bool escapes_valid(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *q = memchr(p, '"', (size_t)(end - p));
        if (!q)
            return true;
        bool esc;
        const char *close = trace_jstring_end(q + 1, end, &esc);
        if (!close)
            return true;  /* unterminated: cJSON says where */
        if (esc && trace_jstring_decode(q + 1, (size_t)(close - q - 1), NULL) < 0)
            return false;
        p = close + 1;
    }
    return true;
}

struct extract {
    char *out;             /* scratch */
    const char *malformed;
};

static void bad(struct extract *x, const char *what)
{
    if (!x->malformed)
        x->malformed = what;
}

static void get_string(struct extract *x, const cJSON *o, const char *key, struct trace_str *s,
                       bool *has, const char *bad_type)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it || cJSON_IsNull(it))
        return;
    if (!cJSON_IsString(it)) {
        bad(x, bad_type);
        return;
    }
    s->s = it->valuestring;
    s->len = strlen(it->valuestring);
    if (has)
        *has = true;
}

static void get_key(struct extract *x, const cJSON *o, const char *key, struct trace_str *s,
                    bool *is_num, const char *bad_type)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it || cJSON_IsNull(it))
        return;
    if (cJSON_IsString(it)) {
        s->s = it->valuestring;
        s->len = strlen(it->valuestring);
    } else if (cJSON_IsNumber(it)) {
        s->len = trace_number_format_double(it->valuedouble, x->out, 32);
        s->s = x->out;
        x->out += s->len;
        *is_num = true;
    } else {
        bad(x, bad_type);
    }
}

static void get_time(struct extract *x, const cJSON *o, const char *key, struct trace_time *t,
                     const char *not_num, const char *range)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!it || cJSON_IsNull(it))
        return;
    if (!cJSON_IsNumber(it)) {
        bad(x, not_num);
        return;
    }
    char text[40];
    size_t n = trace_number_format_double(it->valuedouble, text, sizeof text);
    if (!isfinite(it->valuedouble) || !trace_number_time(text, n, t)) {
        memset(t, 0, sizeof *t);
        bad(x, range);
        return;
    }
    t->us = it->valuedouble;
    t->is_float = trunc(it->valuedouble) != it->valuedouble;
}

static void get_int(const cJSON *o, const char *key, struct trace_int *out)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (it && cJSON_IsNumber(it))
        out->present = int64_of(trunc(it->valuedouble), &out->v);
}

static void get_str(const cJSON *o, const char *key, struct trace_str *out)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    if (it && cJSON_IsString(it)) {
        out->s = it->valuestring;
        out->len = strlen(it->valuestring);
    }
}

static void get_args(const cJSON *args, struct trace_event *ev)
{
    if (!cJSON_IsObject(args))
        return;
    get_int(args, "stream", &ev->stream);
    get_int(args, "correlation", &ev->correlation);
    get_int(args, "bytes", &ev->bytes);
    const cJSON *bw = cJSON_GetObjectItemCaseSensitive(args, "memory bandwidth (GB/s)");
    if (bw && cJSON_IsNumber(bw)) {
        ev->mem_bw_gbps = bw->valuedouble;
        ev->has_mem_bw = true;
    }
    get_str(args, "Collective name", &ev->coll_name);
    get_str(args, "Process Group Name", &ev->pg_name);
    get_str(args, "Process Group Ranks", &ev->pg_ranks);
    get_str(args, "dtype", &ev->dtype);
    get_int(args, "Group size", &ev->group_size);
    get_int(args, "In msg nelems", &ev->in_nelems);
    get_int(args, "Out msg nelems", &ev->out_nelems);
    get_int(args, "Seq", &ev->seq);
    get_int(args, "seq", &ev->seq_lower);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(args, "name");
    if (name && cJSON_IsString(name)) {
        ev->arg_name.s = name->valuestring;
        ev->arg_name.len = strlen(name->valuestring);
    }
}

static void get_event(struct extract *x, const cJSON *o, struct trace_event *ev)
{
    struct trace_str ph = {0};
    bool has_ph = false;
    get_string(x, o, "ph", &ph, &has_ph, "\"ph\" is not a string");
    if (has_ph)
        ev->ph = trace_fields_ph(ph.s, ph.len);
    get_string(x, o, "name", &ev->name, &ev->has_name, "\"name\" is not a string");
    get_string(x, o, "cat", &ev->cat, &ev->has_cat, "\"cat\" is not a string");
    get_key(x, o, "pid", &ev->pid, &ev->pid_is_num, "\"pid\" is not a string or a number");
    get_key(x, o, "tid", &ev->tid, &ev->tid_is_num, "\"tid\" is not a string or a number");
    get_time(x, o, "ts", &ev->ts, "\"ts\" is not a number", "\"ts\" is out of range");
    get_time(x, o, "dur", &ev->dur, "\"dur\" is not a number", "\"dur\" is out of range");
    get_int(o, "id", &ev->flow_id);
    const cJSON *bp = cJSON_GetObjectItemCaseSensitive(o, "bp");
    ev->flow_bind_enclosing = bp && cJSON_IsString(bp) && strcmp(bp->valuestring, "e") == 0;
    get_args(cJSON_GetObjectItemCaseSensitive(o, "args"), ev);
}

enum trace_fields_result trace_fields_parse_cjson(const char *text, size_t len, char *scratch,
                                                  struct trace_event *ev, const char **what,
                                                  size_t *error_at, void **tree)
{
    memset(ev, 0, sizeof *ev);
    *tree = NULL;
    if (!escapes_valid(text, len)) {
        *what = "invalid escape in a string";
        return TRACE_FIELDS_MALFORMED;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    size_t stop = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
    while (root && stop < len && (unsigned char)text[stop] <= ' ')
        stop++;
    if (!root || stop != len) {
        cJSON_Delete(root);
        *error_at = stop;
        return TRACE_FIELDS_INVALID;
    }
    *tree = root;
    if (!cJSON_IsObject(root)) {
        *what = "not a JSON object";
        return TRACE_FIELDS_MALFORMED;
    }
    struct extract x = {.out = scratch};
    get_event(&x, root, ev);
    if (x.malformed) {
        *what = x.malformed;
        return TRACE_FIELDS_MALFORMED;
    }
    return TRACE_FIELDS_OK;
}

void trace_fields_free_tree(void *tree)
{
    cJSON_Delete(tree);
}
