#include "config.h"
#include "app/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/json_escape.h"

/* The JSON writer. Output is valid JSON whatever the input: strings are
 * escaped per RFC 8259 (control characters as \u00XX, and also DEL and the
 * C1 controls so a terminal showing the output stays safe), bytes that are
 * not UTF-8 become U+FFFD, and non-finite numbers become null.
 *
 * A writer's FILE is written by one thread at a time (the report hands its
 * writer from thread to thread under a mutex), so the unlocked stdio calls
 * are used: a launch table is millions of calls, each a lock otherwise. */

static void put_file(void *f, const char *bytes, size_t n)
{
    fwrite_unlocked(bytes, 1, n, f);
}

void format_json_string(FILE *f, const char *s)
{
    putc_unlocked('"', f);
    json_escape(s, put_file, f);
    putc_unlocked('"', f);
}

void jsonw_init(struct jsonw *w, FILE *f, int compact_depth)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->compact_depth = compact_depth;
    w->first[0] = true;
}

static void newline_indent(struct jsonw *w)
{
    putc_unlocked('\n', w->f);
    for (int i = 0; i < w->depth; i++)
        fputs_unlocked("  ", w->f);
}

/* Separator and layout before a value or a key. */
static void before_item(struct jsonw *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth == 0)
        return;
    if (!w->first[w->depth])
        putc_unlocked(',', w->f);
    if (w->depth <= w->compact_depth)
        newline_indent(w);
    else if (!w->first[w->depth])
        putc_unlocked(' ', w->f);
    w->first[w->depth] = false;
}

static void open_container(struct jsonw *w, char c)
{
    before_item(w);
    putc_unlocked(c, w->f);
    if (w->depth + 1 < JSONW_MAX_DEPTH)
        w->depth++;
    w->first[w->depth] = true;
}

static void close_container(struct jsonw *w, char c)
{
    bool empty = w->first[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (!empty && w->depth < w->compact_depth)
        newline_indent(w);
    putc_unlocked(c, w->f);
}

void jsonw_begin_object(struct jsonw *w) { open_container(w, '{'); }
void jsonw_end_object(struct jsonw *w) { close_container(w, '}'); }
void jsonw_begin_array(struct jsonw *w) { open_container(w, '['); }
void jsonw_end_array(struct jsonw *w) { close_container(w, ']'); }

void jsonw_key(struct jsonw *w, const char *key)
{
    before_item(w);
    format_json_string(w->f, key);
    fputs_unlocked(": ", w->f);
    w->after_key = true;
}

void jsonw_string(struct jsonw *w, const char *s)
{
    before_item(w);
    format_json_string(w->f, s ? s : "");
}

void jsonw_int(struct jsonw *w, long long v)
{
    before_item(w);
    format_int(w->f, v);
}

void jsonw_uint(struct jsonw *w, unsigned long long v)
{
    before_item(w);
    format_uint(w->f, v);
}

void jsonw_double(struct jsonw *w, double v)
{
    before_item(w);
    if (!isfinite(v)) {
        fputs_unlocked("null", w->f);
        return;
    }
    char buf[32];
    format_double_roundtrip(v, buf);
    fputs_unlocked(buf, w->f);
}

void jsonw_bool(struct jsonw *w, bool v)
{
    before_item(w);
    fputs_unlocked(v ? "true" : "false", w->f);
}

void jsonw_null(struct jsonw *w)
{
    before_item(w);
    fputs_unlocked("null", w->f);
}

void jsonw_finish(struct jsonw *w)
{
    putc_unlocked('\n', w->f);
}

static void write_cell(struct jsonw *w, const struct cell *c)
{
    switch (c->type) {
    case CELL_INT:
        jsonw_int(w, (long long)c->v.i);
        break;
    case CELL_DOUBLE:
        jsonw_double(w, c->v.d);
        break;
    case CELL_STR:
        jsonw_string(w, c->v.s);
        break;
    case CELL_BOOL:
        jsonw_bool(w, c->v.b);
        break;
    default:
        jsonw_null(w);
    }
}

/* The column keys as written ("name": ), escaped once per table instead of
 * once per cell. NULL when out of memory: the caller escapes per cell. */
static char *escaped_keys(const struct table *t, size_t *offsets)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *ms = open_memstream(&buf, &len);
    if (!ms)
        return NULL;
    for (size_t c = 0; c < t->ncols; c++) {
        offsets[c] = (size_t)ftell(ms);
        format_json_string(ms, t->cols[c].name);
        fputs_unlocked(": ", ms);
    }
    offsets[t->ncols] = (size_t)ftell(ms);
    bool bad = ferror(ms) != 0;
    if (fclose(ms) != 0 || bad) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Rows gathered into a buffer and written a buffer at a time: a launch
 * table is hundreds of thousands of rows, and a stdio call a piece would be
 * most of its time. */
struct row_text {
    char buf[1 << 16];
    size_t len;
    FILE *f;
};

static void row_flush(struct row_text *rt)
{
    fwrite_unlocked(rt->buf, 1, rt->len, rt->f);
    rt->len = 0;
}

static void row_put(void *ctx, const char *s, size_t n)
{
    struct row_text *rt = ctx;
    if (n > sizeof rt->buf - rt->len) {
        row_flush(rt);
        if (n > sizeof rt->buf) {
            fwrite_unlocked(s, 1, n, rt->f);
            return;
        }
    }
    memcpy(rt->buf + rt->len, s, n);
    rt->len += n;
}

/* The bytes before a row's object: what before_item and open_container
 * write for an element of the array at w's depth (first or not). */
static size_t row_prefix(const struct jsonw *w, bool first, char *out)
{
    size_t n = 0;
    if (!first)
        out[n++] = ',';
    if (w->depth <= w->compact_depth) {
        out[n++] = '\n';
        for (int i = 0; i < w->depth; i++, n += 2)
            memcpy(out + n, "  ", 2);
    } else if (!first) {
        out[n++] = ' ';
    }
    out[n++] = '{';
    return n;
}

/* Every row of t, each an object on one line (its items past the compact
 * depth): the bytes the item-by-item writer gives, written through a
 * buffer. False, with nothing written, when there is no memory for it. */
static bool write_compact_rows(struct jsonw *w, const struct table *t, const char *keys,
                               const size_t *at)
{
    char prefix[2][2 * JSONW_MAX_DEPTH + 4];
    size_t plen[2] = {row_prefix(w, false, prefix[0]), row_prefix(w, true, prefix[1])};
    struct row_text *rt = malloc(sizeof *rt);
    if (!rt)
        return false;
    rt->len = 0;
    rt->f = w->f;
    bool first = w->first[w->depth];
    for (size_t r = 0; r < t->nrows; r++, first = false) {
        row_put(rt, prefix[first], plen[first]);
        for (size_t c = 0; c < t->ncols; c++) {
            if (c > 0)
                row_put(rt, ", ", 2);
            row_put(rt, keys + at[c], at[c + 1] - at[c]);
            const struct cell *cell = table_cell(t, r, c);
            char num[32];
            switch (cell->type) {
            case CELL_INT:
                row_put(rt, num, format_int_text((long long)cell->v.i, num));
                break;
            case CELL_DOUBLE:
                if (isfinite(cell->v.d))
                    row_put(rt, num, format_double_text(cell->v.d, num));
                else
                    row_put(rt, "null", 4);
                break;
            case CELL_STR:
                row_put(rt, "\"", 1);
                json_escape(cell->v.s ? cell->v.s : "", row_put, rt);
                row_put(rt, "\"", 1);
                break;
            case CELL_BOOL:
                row_put(rt, cell->v.b ? "true" : "false", cell->v.b ? 4 : 5);
                break;
            default:
                row_put(rt, "null", 4);
            }
        }
        row_put(rt, "}", 1);
    }
    row_flush(rt);
    free(rt);
    if (t->nrows)
        w->first[w->depth] = false;
    return true;
}

void format_table_json_rows(struct jsonw *w, const struct table *t)
{
    size_t *at = malloc((t->ncols + 1) * sizeof *at);
    char *keys = at ? escaped_keys(t, at) : NULL;
    jsonw_begin_array(w);
    // The rows' items on one line (deeper than the compact depth), and a
    // row's object one level deeper than the array (below the depth limit).
    if (keys && t->ncols && w->depth + 1 > w->compact_depth && w->depth + 1 < JSONW_MAX_DEPTH &&
        write_compact_rows(w, t, keys, at)) {
        jsonw_end_array(w);
        free(keys);
        free(at);
        return;
    }
    for (size_t r = 0; r < t->nrows; r++) {
        jsonw_begin_object(w);
        for (size_t c = 0; c < t->ncols; c++) {
            if (keys) {
                before_item(w);
                fwrite_unlocked(keys + at[c], 1, at[c + 1] - at[c], w->f);
                w->after_key = true;
            } else {
                jsonw_key(w, t->cols[c].name);
            }
            write_cell(w, table_cell(t, r, c));
        }
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
    free(keys);
    free(at);
}

static const char *file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void jsonw_input_record(struct jsonw *w, const char *path, int64_t rank, uint64_t events)
{
    jsonw_key(w, "path");
    jsonw_string(w, path);
    jsonw_key(w, "rank");
    jsonw_int(w, (long long)rank);
    jsonw_key(w, "file");
    jsonw_string(w, file_name(path));
    jsonw_key(w, "events");
    jsonw_uint(w, (unsigned long long)events);
}

void jsonw_input_fields(struct jsonw *w, const struct rank_model *r)
{
    jsonw_input_record(w, r->path, r->rank, r->complete_events);
}

void jsonw_failed_fields(struct jsonw *w, const struct failed_file *f)
{
    jsonw_key(w, "path");
    jsonw_string(w, f->path);
    jsonw_key(w, "error");
    jsonw_string(w, f->message);
}
