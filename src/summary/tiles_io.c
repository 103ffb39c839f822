#include "config.h"
#include "summary/tiles_io.h"

#include <stdlib.h>
#include <string.h>

#include "summary/deflated.h"

#define TILES_MAX_RAW ((uint64_t)256 << 20)

static void put_name(struct summary_file_writer *w, const char *s)
{
    size_t n = strnlen(s ? s : "", TILES_NAME_MAX);
    summary_file_put_varint(w, n);
    summary_file_put_bytes(w, s ? s : "", n);
}

static void put_run(struct summary_file_writer *w, const struct tile_run *run, int64_t first, int64_t width)
{
    summary_file_put_varint(w, run->n);
    int64_t prev = first - 1, cum = 0;
    for (size_t i = 0; i < run->n; i++) {
        int64_t busy = run->cum[i] - cum;
        summary_file_put_varint(w, (uint64_t)(run->index[i] - prev - 1));
        summary_file_put_varint(w, busy == width ? 0 : (uint64_t)busy);
        prev = run->index[i];
        cum = run->cum[i];
    }
}

/* The one class with time on the lane, or -1 (none, or several). */
static int sole_class(const struct tile_lane *lane)
{
    int only = -1;
    for (int cl = 0; cl < TILE_BUSY; cl++)
        if (lane->runs[cl].n) {
            if (only >= 0)
                return -1;
            only = cl;
        }
    return only;
}

static bool same_run(const struct tile_run *a, const struct tile_run *b)
{
    return a->n == b->n && memcmp(a->index, b->index, a->n * sizeof *a->index) == 0 &&
           memcmp(a->cum, b->cum, a->n * sizeof *a->cum) == 0;
}

/* The lane whose run of class cl lane l can refer to instead of writing it,
 * or l: a stream's run that is the GPU lane's (a class carried by one
 * stream). Only that one is compared, so writing stays linear in the lanes
 * however many threads have alike runs (the reader takes any earlier lane). */
static size_t earlier_lane(const struct tiles *t, size_t l, int cl)
{
    if (l > 0 && t->lanes[l].kind == TILE_LANE_STREAM && t->lanes[0].kind == TILE_LANE_GPU &&
        same_run(&t->lanes[0].runs[cl], &t->lanes[l].runs[cl]))
        return 0;
    return l;
}

static void put_tiles(struct summary_file_writer *w, const struct tiles *t)
{
    const int64_t width = (int64_t)1 << t->width_log2;
    summary_file_put_varint(w, t->width_log2);
    summary_file_put_svarint(w, t->rank);
    summary_file_put_svarint(w, t->first);
    summary_file_put_varint(w, (uint64_t)t->count);
    summary_file_put_svarint(w, t->start_ns);
    summary_file_put_svarint(w, t->end_ns);
    summary_file_put_varint(w, t->nlanes);
    for (size_t l = 0; l < t->nlanes; l++) {
        const struct tile_lane *lane = &t->lanes[l];
        summary_file_put_varint(w, lane->kind);
        if (lane->kind == TILE_LANE_STREAM)
            summary_file_put_svarint(w, lane->stream);
        if (lane->kind == TILE_LANE_THREAD) {
            put_name(w, lane->pid);
            put_name(w, lane->tid);
        }
        unsigned mask = 0;
        for (int cl = 0; cl < TILE_NCLASSES; cl++)
            mask |= lane->runs[cl].n ? 1u << cl : 0;
        int only = sole_class(lane);
        if (only >= 0 && same_run(&lane->runs[only], &lane->runs[TILE_BUSY]))
            mask &= ~(1u << TILE_BUSY);   // the reader copies it
        summary_file_put_varint(w, mask);
        for (int cl = 0; cl < TILE_NCLASSES; cl++) {
            if (!(mask & (1u << cl)))
                continue;
            size_t same = earlier_lane(t, l, cl);
            if (same < l) {
                summary_file_put_varint(w, 0);
                summary_file_put_varint(w, same);
            } else {
                put_run(w, &lane->runs[cl], t->first, width);
            }
        }
    }
}

void summary_file_tiles_deflate(const struct tiles *t, struct summary_file_deflated *d)
{
    struct summary_file_writer raw;
    summary_file_writer_init(&raw);
    put_tiles(&raw, t);
    summary_file_deflate_section(SUMMARY_FILE_TILES, 0, &raw, d);
    summary_file_writer_fini(&raw);
}

void summary_file_tiles_write(struct summary_file_writer *w, const struct tiles *t)
{
    struct summary_file_deflated d;
    summary_file_tiles_deflate(t, &d);
    if (summary_file_put_deflated_section(w, &d) != 0)
        w->failed = 1;
}

static const char *get_text(struct summary_file_cur *c, struct arena *a, size_t max, bool *nomem)
{
    uint64_t n = summary_file_get_varint(c);
    if (c->bad || n > max || n > (uint64_t)(c->end - c->p)) {
        c->bad = 1;
        return NULL;
    }
    char *s = arena_strndup(a, (const char *)c->p, (size_t)n);
    c->p += n;
    *nomem |= s == NULL;
    return s;
}

static const char *get_name(struct summary_file_cur *c, struct arena *a, bool *nomem)
{
    return get_text(c, a, TILES_NAME_MAX, nomem);
}

/* Lane `lane`'s run of class cl: at most `count` buckets, cumulative sums
 * checked for overflow (each bucket's time against the width by
 * tiles_check), or an earlier lane's. */
static int get_run(struct summary_file_cur *c, struct arena *a, const struct tiles *t, uint64_t lane,
                   int cl, struct tile_run *run)
{
    const int64_t width = (int64_t)1 << t->width_log2;
    uint64_t n = summary_file_get_varint(c);
    if (n == 0 && !c->bad) {   // lane `same`'s run of that class (shared, not copied)
        uint64_t same = summary_file_get_varint(c);
        if (c->bad || same >= lane || t->lanes[same].runs[cl].n == 0)
            return ERR_PARSE;
        *run = t->lanes[same].runs[cl];
        return 0;
    }
    if (c->bad || n > (uint64_t)t->count)
        return ERR_PARSE;
    run->index = arena_alloc(a, (size_t)n * sizeof *run->index);   // n <= TILES_MAX_SPAN
    run->cum = arena_alloc(a, (size_t)n * sizeof *run->cum);
    if (!run->index || !run->cum)
        return ERR_NOMEM;
    int64_t prev = t->first - 1, cum = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t gap = summary_file_get_varint(c), busy = summary_file_get_varint(c);
        if (c->bad || gap >= (uint64_t)t->count || busy > (uint64_t)width)
            return ERR_PARSE;
        prev += (int64_t)gap + 1;   // inside the span, or refused below
        if (prev >= t->first + t->count ||
            __builtin_add_overflow(cum, busy ? (int64_t)busy : width, &cum))
            return ERR_PARSE;   // (a run of wide full buckets passes int64)
        run->index[i] = prev;
        run->cum[i] = cum;
    }
    run->n = (size_t)n;
    return 0;
}

static int get_tiles(struct summary_file_cur *c, struct arena *a, struct tiles *t)
{
    memset(t, 0, sizeof *t);
    uint64_t wlog = summary_file_get_varint(c);
    t->rank = summary_file_get_svarint(c);
    t->first = summary_file_get_svarint(c);
    uint64_t count = summary_file_get_varint(c);
    t->start_ns = summary_file_get_svarint(c);
    t->end_ns = summary_file_get_svarint(c);
    uint64_t nlanes = summary_file_get_varint(c);
    if (c->bad || wlog > TILES_MAX_WIDTH_LOG2 || count > TILES_MAX_SPAN ||
        nlanes > TILES_MAX_LANES)
        return ERR_PARSE;
    t->width_log2 = (unsigned)wlog;
    t->count = (int64_t)count;
    const int64_t w = (int64_t)1 << t->width_log2;
    if (t->first < INT64_MIN / w + 1 || t->first > INT64_MAX / w - t->count - 1)
        return ERR_PARSE;
    t->lanes = arena_calloc(a, nlanes ? (size_t)nlanes : 1, sizeof *t->lanes);
    if (!t->lanes)
        return ERR_NOMEM;
    bool nomem = false;
    for (uint64_t l = 0; l < nlanes; l++) {
        struct tile_lane *lane = &t->lanes[l];
        uint64_t kind = summary_file_get_varint(c);
        if (c->bad || kind >= TILE_LANE_KINDS)
            return ERR_PARSE;
        lane->kind = (enum tile_lane_kind)kind;
        lane->stream = kind == TILE_LANE_STREAM ? summary_file_get_svarint(c) : -1;
        if (kind == TILE_LANE_THREAD) {
            lane->pid = get_name(c, a, &nomem);
            lane->tid = get_name(c, a, &nomem);
        }
        uint64_t mask = summary_file_get_varint(c);
        if (nomem)
            return ERR_NOMEM;
        if (c->bad || mask >= (1u << TILE_NCLASSES))
            return ERR_PARSE;
        for (int cl = 0; cl < TILE_NCLASSES; cl++) {
            int rc = mask & (1u << cl) ? get_run(c, a, t, l, cl, &lane->runs[cl]) : 0;
            if (rc)
                return rc;
        }
        int only = sole_class(lane);
        if (!(mask & (1u << TILE_BUSY)) && only >= 0)
            lane->runs[TILE_BUSY] = lane->runs[only];
        t->nlanes++;
    }
    return c->p == c->end ? 0 : ERR_PARSE;
}

int summary_file_tiles_read(const struct summary_file_doc *doc, const char *name, struct arena *a,
                            struct tiles *t, struct err *e)
{
    memset(t, 0, sizeof *t);
    const struct summary_file_section *s = summary_file_find(doc, SUMMARY_FILE_TILES);
    if (!s)
        return err_set(e, ERR_EMPTY, "%s: no tiles (a summary made before they were)", name);
    uint8_t *raw;
    struct summary_file_section plain;
    int rc = summary_file_inflate_section(s, name, "tiles", TILES_MAX_RAW, &raw, &plain, e);
    if (rc)
        return rc;
    struct summary_file_cur c;
    summary_file_cur_init(&c, &plain);
    rc = get_tiles(&c, a, t);
    free(raw);
    const char *why = rc == 0 ? tiles_check(t) : NULL;
    if (rc == ERR_NOMEM)
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
    if (rc || why) {
        memset(t, 0, sizeof *t);
        return err_set(e, ERR_PARSE, "%s: malformed tiles section%s%s", name, why ? ": " : "",
                       why ? why : "");
    }
    return 0;
}

/* Whether a thread's name is stored: not when it or its pid or tid would
 * have to be cut (a lane is then shown unnamed, never with a cut name or
 * another lane's). */
static bool thread_name_kept(const struct summary_thread_name *t)
{
    return t->name && t->name[0] && strlen(t->name) <= TILES_THREAD_NAME_MAX && t->pid && t->tid &&
           strlen(t->pid) <= TILES_NAME_MAX && strlen(t->tid) <= TILES_NAME_MAX;
}

void summary_file_threads_write(struct summary_file_writer *w, const struct summary_thread_name *v,
                                size_t n)
{
    summary_file_begin_section(w, SUMMARY_FILE_THREADS);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        kept += thread_name_kept(&v[i]);
    summary_file_put_varint(w, kept);
    for (size_t i = 0; i < n; i++) {
        if (!thread_name_kept(&v[i]))
            continue;
        put_name(w, v[i].pid);
        put_name(w, v[i].tid);
        summary_file_put_varint(w, strlen(v[i].name));
        summary_file_put_bytes(w, v[i].name, strlen(v[i].name));
    }
    summary_file_end_section(w);
}

int summary_file_threads_read(const struct summary_file_doc *doc, const char *name, struct arena *a,
                              struct summary_thread_name **v, size_t *n, struct err *e)
{
    *v = NULL;
    *n = 0;
    const struct summary_file_section *s = summary_file_find(doc, SUMMARY_FILE_THREADS);
    if (!s)
        return err_set(e, ERR_EMPTY, "%s: no thread names (a summary made before they were)", name);
    struct summary_file_cur c;
    summary_file_cur_init(&c, s);
    uint64_t count = summary_file_get_varint(&c);
    bool nomem = false;
    // Each name takes three bytes at least: a count past that is a lie.
    if (c.bad || count > TILES_MAX_LANES || count > (uint64_t)(c.end - c.p) / 3)
        return err_set(e, ERR_PARSE, "%s: malformed thread names section", name);
    struct summary_thread_name *out = arena_alloc(a, (size_t)count * sizeof *out + 1);
    if (!out)
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
    for (size_t i = 0; i < count && !c.bad && !nomem; i++) {
        out[i].pid = get_name(&c, a, &nomem);
        out[i].tid = get_name(&c, a, &nomem);
        out[i].name = get_text(&c, a, TILES_THREAD_NAME_MAX, &nomem);
    }
    if (nomem)
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
    if (c.bad || c.p != c.end)
        return err_set(e, ERR_PARSE, "%s: malformed thread names section", name);
    *v = out;
    *n = (size_t)count;
    return 0;
}
