#include "config.h"
#include "summary/colls_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary/deflated.h"

#define COLLS_MAX_RAW ((uint64_t)256 << 20)
#define COLLS_TIME_LIMIT (INT64_C(1) << 62)   /* |ts|, |origin| and durations within it */

/* The records' string ids as indices into the strings they use (0: ""). */
struct local_ids {
    uint32_t *index;      /* by id, 0 when unused so far */
    uint32_t *ids;        /* by index */
    size_t n;
};

static uint32_t local_id(struct local_ids *l, uint32_t id)
{
    if (id == 0)
        return 0;
    if (!l->index[id]) {
        l->index[id] = (uint32_t)l->n;
        l->ids[l->n++] = id;
    }
    return l->index[id];
}

/* "[a, a+d, a+2d, ...]" (PyTorch's Process Group Ranks: a job's groups
 * list many ranks, 5 KB for 1024 of them in every rank's summary) as
 * (a, d, count): *count 0 when s is not exactly such a list of 3 or more. */
struct rank_list {
    int64_t first, step;
    uint64_t count;
};

static size_t render_list(const struct rank_list *l, char *out, size_t cap)
{
    size_t len = 0;
    int64_t v = l->first;
    for (uint64_t i = 0; i < l->count && len < cap; i++, v += l->step) {
        int k = snprintf(out + len, cap - len, "%s%lld", i ? ", " : "[", (long long)v);
        len += k > 0 ? (size_t)k : cap;
    }
    if (len < cap)
        out[len++] = ']';
    return len < cap ? len : cap;   // cap: it did not fit
}

static bool as_list(const char *s, size_t len, struct rank_list *l, char *scratch)
{
    l->count = 0;
    if (len < 9 || s[0] != '[' || s[len - 1] != ']' || len >= COLLS_MAX_STRING)
        return false;
    int64_t prev = 0;
    uint64_t n = 0;
    for (size_t i = 1; i < len;) {
        char *end;
        if (s[i] < '0' || s[i] > '9')
            return false;
        errno = 0;
        long long v = strtoll(s + i, &end, 10);
        if (errno || v > INT64_MAX / 4)
            return false;
        if (n == 1)
            l->step = (int64_t)v - prev;
        else if (n > 1 && (int64_t)v - prev != l->step)
            return false;
        if (n == 0)
            l->first = v;
        prev = v;
        n++;
        i = (size_t)(end - s);
        if (i + 1 == len)
            break;
        if (i + 2 >= len || s[i] != ',' || s[i + 1] != ' ')
            return false;
        i += 2;
    }
    l->count = n;
    if (n < 3 || render_list(l, scratch, len + 1) != len || memcmp(scratch, s, len) != 0)
        l->count = 0;   // not written the way it is rendered: kept as bytes
    return l->count > 0;
}

static void put_colls(struct summary_file_writer *w, int64_t rank, const int64_t *origin,
                      const struct strtab *strings, const struct coll_record *recs, size_t n,
                      struct local_ids *l)
{
    uint32_t (*map)[4] = malloc((n ? n : 1) * sizeof *map);
    if (!map) {
        w->failed = 1;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        map[i][0] = local_id(l, recs[i].name);
        map[i][1] = local_id(l, recs[i].coll_name);
        map[i][2] = local_id(l, recs[i].group);
        map[i][3] = local_id(l, recs[i].pg_ranks);
    }
    summary_file_put_svarint(w, rank);
    summary_file_put_varint(w, origin != NULL);
    summary_file_put_svarint(w, origin ? *origin : 0);
    summary_file_put_varint(w, l->n);
    char *scratch = NULL;
    for (size_t i = 1; i < l->n; i++) {
        size_t len = strtab_len(strings, l->ids[i]);
        const char *str = strtab_str(strings, l->ids[i]);
        struct rank_list list;
        char *more = len + 1 > 1 ? realloc(scratch, len + 1) : scratch;
        if (more)
            scratch = more;
        if (more && as_list(str, len, &list, scratch)) {
            summary_file_put_varint(w, 1);
            summary_file_put_svarint(w, list.first);
            summary_file_put_svarint(w, list.step);
            summary_file_put_varint(w, list.count);
        } else {
            summary_file_put_varint(w, (uint64_t)len << 1);
            summary_file_put_bytes(w, str, len);
        }
    }
    free(scratch);
    summary_file_put_varint(w, n);
    int64_t ts = 0;
    uint32_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        const struct coll_record *c = &recs[i];
        for (int k = 0; k < 4; k++)
            summary_file_put_varint(w, map[i][k]);
        summary_file_put_svarint(w, c->stream);
        summary_file_put_svarint(w, c->seq);
        summary_file_put_svarint(w, c->group_size);
        summary_file_put_svarint(w, c->bytes);
        summary_file_put_svarint(w, c->ts - ts);
        summary_file_put_varint(w, (uint64_t)(c->end - c->ts));
        summary_file_put_svarint(w, c->iteration);
        summary_file_put_svarint(w, (int64_t)c->pos - (int64_t)pos);
        ts = c->ts;
        pos = c->pos;
    }
    free(map);
}

void summary_file_colls_deflate(int64_t rank, const int64_t *origin, const struct strtab *strings,
                                const struct coll_record *recs, size_t n, struct summary_file_deflated *d)
{
    *d = (struct summary_file_deflated){SUMMARY_FILE_COLLS, 0, 0, NULL, 0};
    size_t nstr = strtab_count(strings);
    struct local_ids l = {calloc(nstr ? nstr : 1, sizeof *l.index),
                          malloc((4 * n + 1) * sizeof *l.ids), 1};
    if (l.index && l.ids) {
        l.ids[0] = 0;
        struct summary_file_writer raw;
        summary_file_writer_init(&raw);
        put_colls(&raw, rank, origin, strings, recs, n, &l);
        if (!raw.failed)
            summary_file_deflate_section(SUMMARY_FILE_COLLS, 0, &raw, d);
        summary_file_writer_fini(&raw);
    }
    free(l.index);
    free(l.ids);
}

void summary_file_colls_write(struct summary_file_writer *w, int64_t rank, const int64_t *origin,
                              const struct strtab *strings, const struct coll_record *recs, size_t n)
{
    struct summary_file_deflated d;
    summary_file_colls_deflate(rank, origin, strings, recs, n, &d);
    if (summary_file_put_deflated_section(w, &d) != 0)
        w->failed = 1;
}

static bool within(int64_t v, int64_t lo, int64_t hi)
{
    return v >= lo && v <= hi;
}

static int get_record(struct summary_file_cur *cur, const struct summary_file_colls *c, int64_t *ts, int64_t *pos,
                      struct coll_record *r)
{
    uint64_t id[4];
    for (int k = 0; k < 4; k++)
        id[k] = summary_file_get_varint(cur);
    r->stream = summary_file_get_svarint(cur);
    r->seq = summary_file_get_svarint(cur);
    r->group_size = summary_file_get_svarint(cur);
    r->bytes = summary_file_get_svarint(cur);
    int64_t dts = summary_file_get_svarint(cur);
    uint64_t dur = summary_file_get_varint(cur);
    int64_t iteration = summary_file_get_svarint(cur), dpos = summary_file_get_svarint(cur);
    if (cur->bad)
        return ERR_PARSE;
    for (int k = 0; k < 4; k++)
        if (id[k] >= c->nstrings)
            return ERR_PARSE;
    int64_t at;
    if (__builtin_add_overflow(*ts, dts, &at) || !within(at, -COLLS_TIME_LIMIT, COLLS_TIME_LIMIT) ||
        dur > COLLS_TIME_LIMIT ||
        !within(iteration, INT32_MIN, INT32_MAX) || !within(dpos, -(int64_t)UINT32_MAX,
                                                            UINT32_MAX) ||
        !within(*pos + dpos, 0, UINT32_MAX - 1) || r->seq < -1 || r->group_size < -1 ||
        r->bytes < -1)
        return ERR_PARSE;
    *ts += dts;
    *pos += dpos;
    r->rank = c->rank;
    r->rank_index = 0;
    r->pos = (uint32_t)*pos;
    r->name = (uint32_t)id[0];
    r->coll_name = (uint32_t)id[1];
    r->group = (uint32_t)id[2];
    r->pg_ranks = (uint32_t)id[3];
    r->ts = *ts;
    r->end = *ts + (int64_t)dur;
    r->iteration = (int32_t)iteration;
    return 0;
}

/* A string: its bytes, or a rank list rendered (at most COLLS_MAX_STRING,
 * in *scratch, allocated on the first). */
static int get_string(struct summary_file_cur *cur, struct arena *a, char **scratch, const char **out,
                      size_t *len)
{
    uint64_t tag = summary_file_get_varint(cur);
    if (cur->bad)
        return ERR_PARSE;
    if (tag & 1) {
        struct rank_list l;
        l.first = summary_file_get_svarint(cur);
        l.step = summary_file_get_svarint(cur);
        l.count = summary_file_get_varint(cur);
        /* |a| and |(n-1)d| within 2^61: every value fits */
        if (cur->bad || tag != 1 || l.count < 3 || l.count > COLLS_MAX_STRING / 3 ||
            l.first < 0 || l.first > INT64_MAX / 4 ||
            l.step < -(INT64_MAX / 4 / (int64_t)(l.count - 1)) ||
            l.step > INT64_MAX / 4 / (int64_t)(l.count - 1))
            return ERR_PARSE;
        if (!*scratch && !(*scratch = malloc(COLLS_MAX_STRING)))
            return ERR_NOMEM;
        *len = render_list(&l, *scratch, COLLS_MAX_STRING);
        if (*len == COLLS_MAX_STRING)
            return ERR_PARSE;
        return (*out = arena_strndup(a, *scratch, *len)) ? 0 : ERR_NOMEM;
    }
    uint64_t n = tag >> 1;
    if (n > COLLS_MAX_STRING || n > (uint64_t)(cur->end - cur->p))
        return ERR_PARSE;
    char *s = arena_strndup(a, (const char *)cur->p, (size_t)n);
    if (!s)
        return ERR_NOMEM;
    cur->p += n;
    *out = s;
    *len = (size_t)n;
    return 0;
}

static int get_colls(struct summary_file_cur *cur, struct arena *a, struct summary_file_colls *c)
{
    c->rank = summary_file_get_svarint(cur);
    uint64_t has_origin = summary_file_get_varint(cur);
    c->origin = summary_file_get_svarint(cur);
    c->has_origin = has_origin == 1;
    uint64_t nstrings = summary_file_get_varint(cur);
    if (cur->bad || has_origin > 1 || !within(c->origin, -COLLS_TIME_LIMIT, COLLS_TIME_LIMIT) ||
        nstrings == 0 ||
        nstrings > COLLS_MAX_STRINGS || nstrings > (uint64_t)(cur->end - cur->p) + 1)
        return ERR_PARSE;
    c->strings = arena_calloc(a, (size_t)nstrings, sizeof *c->strings);
    c->lens = arena_calloc(a, (size_t)nstrings, sizeof *c->lens);
    if (!c->strings || !c->lens)
        return ERR_NOMEM;
    c->strings[0] = "";
    char *scratch = NULL;
    for (uint64_t i = 1; i < nstrings; i++) {
        int rc = get_string(cur, a, &scratch, &c->strings[i], &c->lens[i]);
        if (rc) {
            free(scratch);
            return rc;
        }
    }
    free(scratch);
    c->nstrings = (size_t)nstrings;
    uint64_t n = summary_file_get_varint(cur);
    /* a record takes at least 12 bytes: bounds the count before allocating */
    if (cur->bad || n > (uint64_t)(cur->end - cur->p) / 12)
        return ERR_PARSE;
    c->recs = arena_calloc(a, n ? (size_t)n : 1, sizeof *c->recs);
    if (!c->recs)
        return ERR_NOMEM;
    int64_t ts = 0, pos = 0;
    for (uint64_t i = 0; i < n; i++) {
        int rc = get_record(cur, c, &ts, &pos, &c->recs[i]);
        if (rc)
            return rc;
    }
    c->n = (size_t)n;
    return cur->p == cur->end ? 0 : ERR_PARSE;
}

int summary_file_colls_read(const struct summary_file_doc *doc, const char *name, struct arena *a,
                            struct summary_file_colls *c, struct err *e)
{
    memset(c, 0, sizeof *c);
    const struct summary_file_section *s = summary_file_find(doc, SUMMARY_FILE_COLLS);
    if (!s)
        return err_set(e, ERR_EMPTY, "%s: no collective records (a summary made before they "
                                     "were)", name);
    uint8_t *raw;
    struct summary_file_section plain;
    int rc = summary_file_inflate_section(s, name, "collective records", COLLS_MAX_RAW, &raw, &plain, e);
    if (rc)
        return rc;
    struct summary_file_cur cur;
    summary_file_cur_init(&cur, &plain);
    rc = get_colls(&cur, a, c);
    free(raw);
    if (rc) {
        memset(c, 0, sizeof *c);
        return rc == ERR_NOMEM ? err_set(e, ERR_NOMEM, "%s: out of memory", name)
                               : err_set(e, ERR_PARSE, "%s: malformed collective records section",
                                         name);
    }
    return 0;
}
