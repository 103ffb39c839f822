#include "config.h"
#include "analysis/lane_fill.h"

#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/vec.h"

/* The first span's bin width: a power of two near a 64th of its length,
 * and no finer than a microsecond. */
#define FIRST_WIDTH_NS 1024
/* The widest bin: LANE_FILL_BINS of them span 2^61 ns, which every trace's
 * times fit in (MODEL_TIME_LIMIT_NS), with no overflow at either end. */
#define MAX_WIDTH_NS ((int64_t)1 << 53)

int lane_fill_init(struct lane_fill *f)
{
    memset(f, 0, sizeof *f);
    f->last_key = -1;
    f->lanes = calloc(LANE_FILL_MAX_LANES, sizeof *f->lanes);
    if (!f->lanes || hmap_init(&f->thread_of, 64) || hmap_init(&f->lane_of, 64)) {
        lane_fill_fini(f);
        return ERR_NOMEM;
    }
    return 0;
}

void lane_fill_fini(struct lane_fill *f)
{
    free(f->lanes);
    free(f->threads);
    free(f->names);
    hmap_fini(&f->thread_of);
    hmap_fini(&f->lane_of);
    memset(f, 0, sizeof *f);
}

static void copy_text(char *dst, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    n = n < LANE_FILL_TEXT - 1 ? n : LANE_FILL_TEXT - 1;
    memcpy(dst, src ? src : "", n);
    dst[n] = '\0';
}

static int64_t thread_key(size_t file, uint32_t index)
{
    return (int64_t)((uint64_t)file << 32 | index);
}

static int64_t lane_key(size_t file, bool gpu, int64_t id)
{
    return (int64_t)((uint64_t)file << 33 | (uint64_t)gpu << 32 | (uint32_t)id);
}

/* Gives lane the name its thread has, if one was read. */
static void name_lane(const struct lane_fill *f, struct lane_fill_lane *lane)
{
    for (size_t i = 0; i < f->nnames && !lane->gpu; i++) {
        const struct lane_fill_name *n = &f->names[i];
        if (n->file == lane->file && !strcmp(n->pid, lane->pid) && !strcmp(n->tid, lane->tid))
            copy_text(lane->name, n->name);
    }
}

static int add_threads(struct lane_fill *f, const struct load_batch *b)
{
    for (size_t i = 0; i < b->nthreads; i++) {
        bool added;
        uint32_t slot;
        if (hmap_number(&f->thread_of, thread_key(b->file, b->threads[i].index),
                        (uint32_t)f->nthreads, &slot, &added) ||
            (added && VEC_PUSH_SLOT(f->threads, f->nthreads, f->threads_cap)))
            return ERR_NOMEM;
        struct lane_fill_thread *t = &f->threads[slot];
        if (added)
            f->nthreads++;
        t->file = b->file;
        copy_text(t->pid, b->threads[i].pid);
        copy_text(t->tid, b->threads[i].tid);
    }
    return 0;
}

static int add_names(struct lane_fill *f, const struct load_batch *b)
{
    for (size_t i = 0; i < b->nnames && f->nnames < LANE_FILL_MAX_NAMES; i++) {
        if (VEC_PUSH_SLOT(f->names, f->nnames, f->names_cap))
            return ERR_NOMEM;
        struct lane_fill_name *n = &f->names[f->nnames++];
        n->file = b->file;
        copy_text(n->pid, b->names[i].pid);
        copy_text(n->tid, b->names[i].tid);
        copy_text(n->name, b->names[i].name);
    }
    for (size_t i = 0; i < f->nlanes && b->nnames; i++)
        name_lane(f, &f->lanes[i]);
    return 0;
}

/* The lane of a span (a new one when there is room), or UINT32_MAX. */
static int lane_of(struct lane_fill *f, size_t file, const struct load_span *s, uint32_t *out)
{
    int64_t key = lane_key(file, s->gpu, s->lane);
    if (key == f->last_key) {
        *out = f->last_lane;
        return 0;
    }
    bool room = f->nlanes < LANE_FILL_MAX_LANES, added;
    uint32_t lane;
    if (hmap_number(&f->lane_of, key, room ? (uint32_t)f->nlanes : UINT32_MAX, &lane, &added))
        return ERR_NOMEM;
    if (added && !room)
        f->lanes_over++;
    if (added && room) {
        struct lane_fill_lane *l = &f->lanes[f->nlanes++];
        memset(l, 0, sizeof *l);
        *l = (struct lane_fill_lane){.file = file, .gpu = s->gpu, .id = s->lane,
                                     .last_ts = INT64_MIN, .covered_to = INT64_MIN};
        uint32_t *t = s->gpu ? NULL : hmap_get(&f->thread_of, thread_key(file, (uint32_t)s->lane));
        if (t) {
            memcpy(l->pid, f->threads[*t].pid, sizeof l->pid);
            memcpy(l->tid, f->threads[*t].tid, sizeof l->tid);
        }
        name_lane(f, l);
    }
    f->last_key = key;
    f->last_lane = *out = lane;
    return 0;
}

/* Doubles the width, the range growing left (old bins into the upper
 * half) or right (into the lower half). */
static void widen(struct lane_fill *f, bool left)
{
    for (size_t k = 0; k < f->nlanes; k++) {
        int64_t *busy = f->lanes[k].busy, merged[LANE_FILL_BINS / 2];
        for (size_t i = 0; i < LANE_FILL_BINS / 2; i++)
            merged[i] = busy[2 * i] + busy[2 * i + 1];
        memset(busy, 0, sizeof f->lanes[k].busy);
        memcpy(busy + (left ? LANE_FILL_BINS / 2 : 0), merged, sizeof merged);
    }
    if (left)
        f->lo -= f->width * LANE_FILL_BINS;
    f->width *= 2;
}

/* Makes the range hold [ts, end) as far as the widest bins allow. */
static void cover(struct lane_fill *f, int64_t ts, int64_t end)
{
    if (f->width == 0) {
        f->width = FIRST_WIDTH_NS;
        while (f->width < MAX_WIDTH_NS && (end - ts) / 64 > f->width)
            f->width *= 2;
        f->lo = ts;
        f->first = ts;
        f->last = end;
    }
    while (ts < f->lo && f->width < MAX_WIDTH_NS)
        widen(f, true);
    // (in unsigned: end - lo may pass INT64_MAX, times being within ±2^62)
    while (end > f->lo && (uint64_t)end - (uint64_t)f->lo > (uint64_t)f->width * LANE_FILL_BINS &&
           f->width < MAX_WIDTH_NS)
        widen(f, false);
    f->first = ts < f->first ? ts : f->first;
    f->last = end > f->last ? end : f->last;
}

/* Adds [ts, end) to the lane's bins, each held to its width. */
static void add_busy(struct lane_fill *f, struct lane_fill_lane *l, int64_t ts, int64_t end)
{
    int64_t hi = f->lo + f->width * LANE_FILL_BINS;
    ts = ts < f->lo ? f->lo : ts;
    end = end > hi ? hi : end;
    if (ts >= end)
        return;
    int64_t a = (ts - f->lo) / f->width, b = (end - 1 - f->lo) / f->width;
    for (int64_t i = a; i <= b; i++) {
        int64_t bs = f->lo + i * f->width, be = bs + f->width;
        int64_t o = (end < be ? end : be) - (ts > bs ? ts : bs);
        l->busy[i] = l->busy[i] + o < f->width ? l->busy[i] + o : f->width;
    }
}

int lane_fill_add(struct lane_fill *f, const struct load_batch *b)
{
    if (add_threads(f, b) || add_names(f, b))
        return ERR_NOMEM;
    for (size_t i = 0; i < b->nspans; i++) {
        const struct load_span *s = &b->spans[i];
        uint32_t k;
        if (s->end <= s->ts)
            continue;
        if (lane_of(f, b->file, s, &k))
            return ERR_NOMEM;
        cover(f, s->ts, s->end);
        if (k == UINT32_MAX)
            continue;
        struct lane_fill_lane *l = &f->lanes[k];
        if (s->ts >= l->last_ts) {   // in order: only what the lane's earlier spans left
            int64_t from = s->ts > l->covered_to ? s->ts : l->covered_to;
            l->last_ts = s->ts;
            l->covered_to = s->end > l->covered_to ? s->end : l->covered_to;
            add_busy(f, l, from, s->end);
        } else {
            add_busy(f, l, s->ts, s->end);
        }
    }
    return 0;
}

void lane_fill_copy(struct lane_fill *dst, const struct lane_fill *src)
{
    dst->lo = src->lo;
    dst->width = src->width;
    dst->first = src->first;
    dst->last = src->last;
    dst->nlanes = src->nlanes;
    dst->lanes_over = src->lanes_over;
    memcpy(dst->lanes, src->lanes, src->nlanes * sizeof *src->lanes);
}

double lane_fill_busy(const struct lane_fill *f, const struct lane_fill_lane *lane, int64_t a,
                      int64_t b)
{
    if (f->width == 0 || b <= a)
        return 0;
    double busy = 0;
    int64_t hi = f->lo + f->width * LANE_FILL_BINS;
    int64_t from = a > f->lo ? a : f->lo, to = b < hi ? b : hi;
    if (from >= to)
        return 0;
    for (int64_t i = (from - f->lo) / f->width; i <= (to - 1 - f->lo) / f->width; i++) {
        int64_t bs = f->lo + i * f->width, be = bs + f->width;
        int64_t o = (to < be ? to : be) - (from > bs ? from : bs);
        busy += (double)lane->busy[i] * (double)o / (double)f->width;
    }
    double share = busy / (double)(b - a);
    return share > 1 ? 1 : share;
}
