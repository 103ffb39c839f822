#include "config.h"
#include "ui/views/diff.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/classify.h"

/* Enter on a diff row: where the op ran on each side. One lane per rank and
 * GPU stream or CPU thread that ran it, each lane's clock starting at its
 * rank's iteration start, so control and test line up. */

#define MAX_LANES 16

/* Does name id `id` of m carry the row's key? Short keys are checked once
 * per name id (cache: 0 unknown, 1 yes, 2 no). */
static bool name_matches(const struct model *m, uint32_t id, const char *key, size_t keylen,
                         bool short_names, uint8_t *cache, uint32_t full_id)
{
    if (!short_names)
        return id == full_id;
    if (cache[id] == 0) {
        const char *name = model_str(m, id);
        size_t len = strlen(name);
        char *buf = malloc(len + 1);
        bool eq = false;
        if (buf) {
            shorten_name(name, buf, len + 1);
            eq = strlen(buf) == keylen && memcmp(buf, key, keylen) == 0;
            free(buf);
        }
        cache[id] = eq ? 1 : 2;
    }
    return cache[id] == 1;
}

/* Where a rank's clock starts: the start of the side's first chosen
 * iteration on that rank, else its first iteration, else its first event. */
static int64_t rank_origin(const struct rank_model *rk, const struct diff_plan *p)
{
    for (size_t i = 0; i < rk->niterations && p->niterations; i++)
        if (rk->iterations[i].number == p->iterations[0])
            return rk->iterations[i].ts;
    if (rk->niterations) {
        int64_t t = rk->iterations[0].ts;
        for (size_t i = 1; i < rk->niterations; i++)
            if (rk->iterations[i].ts < t)
                t = rk->iterations[i].ts;
        return t;
    }
    int64_t t = rk->nevents ? rk->events[0].ts : 0;
    for (size_t i = 1; i < rk->nevents; i++)
        if (rk->events[i].ts < t)
            t = rk->events[i].ts;
    return t;
}

static bool same_lane(const struct model *m, const struct ui_diff_lane *l, uint32_t rank,
                      bool gpu, const struct event *ev)
{
    if (l->rank != rank || l->gpu != gpu)
        return false;
    return gpu ? l->stream == ev->stream
               : l->pid == model_event_pid(m, ev) && l->tid == model_event_tid(m, ev);
}

/* The lane of ev, created when new (NULL when MAX_LANES are taken). */
static struct ui_diff_lane *lane_for(const struct model *m, struct ui_diff_lane *lanes,
                                     size_t *n, uint32_t rank, bool gpu, const struct event *ev)
{
    for (size_t i = 0; i < *n; i++)
        if (same_lane(m, &lanes[i], rank, gpu, ev))
            return &lanes[i];
    if (*n == MAX_LANES)
        return NULL;
    struct ui_diff_lane *l = &lanes[(*n)++];
    memset(l, 0, sizeof *l);
    l->rank = rank;
    l->gpu = gpu;
    l->stream = ev->stream;
    l->pid = model_event_pid(m, ev);
    l->tid = model_event_tid(m, ev);
    return l;
}

/* Visits the side's instances of the key: fn(ctx, rank index, position). */
struct visit {
    const struct ui_diff *d;
    const struct ui_diff_side *s;
    const char *key;
    size_t keylen;
};

static int each_instance(const struct visit *v,
                         int (*fn)(void *ctx, uint32_t r, uint32_t pos), void *ctx)
{
    const struct model *m = v->s->m;
    size_t nstr = strtab_count(&m->strings);
    uint8_t *cache = calloc(nstr ? nstr : 1, 1);
    if (!cache)
        return ERR_NOMEM;
    uint32_t full_id = v->d->short_names ? STRTAB_NONE
                                          : strtab_find(&m->strings, v->key, v->keylen);
    struct diff_filter f = {v->d->device, v->d->short_names, &v->s->plan, true};
    int rc = 0;
    for (size_t p = 0; p < v->s->plan.nranks && !rc; p++) {
        const struct rank_model *rk = model_find_rank(m, v->s->plan.ranks[p]);
        if (!rk)
            continue;
        uint32_t r = (uint32_t)(rk - m->ranks);
        for (size_t i = 0; i < rk->nevents && !rc; i++) {
            const struct event *ev = &rk->events[i];
            if (ev->name < nstr &&
                name_matches(m, ev->name, v->key, v->keylen, v->d->short_names, cache, full_id) &&
                diff_event_wanted(m, ev, &f))
                rc = fn(ctx, r, (uint32_t)i);
        }
    }
    free(cache);
    return rc;
}

struct collect {
    const struct model *m;
    const struct diff_plan *plan;
    struct ui_diff_lane *lanes;
    size_t nlanes;
    bool fill;                 /* second pass: store positions */
    size_t count;
    int64_t total, span;
};

static int collect_one(void *ctx, uint32_t r, uint32_t pos)
{
    struct collect *c = ctx;
    const struct rank_model *rk = &c->m->ranks[r];
    const struct event *ev = &rk->events[pos];
    bool gpu = model_is_gpu_side(c->m, ev);
    struct ui_diff_lane *l = lane_for(c->m, c->lanes, &c->nlanes, r, gpu, ev);
    if (!c->fill) {
        c->count++;
        c->total += ev->dur;
        if (l) {
            l->n++;
            l->t0 = rank_origin(rk, c->plan);
            int64_t end = ev->ts + (ev->dur > 0 ? ev->dur : 0) - l->t0;
            if (end > c->span)
                c->span = end;
        }
    } else if (l) {
        l->pos[l->n++] = pos;   /* events are in file order; sorted below */
    }
    return 0;
}

struct ts_pos {
    int64_t ts;
    uint32_t pos;
};

static int cmp_ts_pos(const void *a, const void *b)
{
    const struct ts_pos *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Orders a lane's instances by start time. */
static int sort_lane(struct ui_diff_lane *l, const struct event *events)
{
    struct ts_pos *v = malloc((l->n ? l->n : 1) * sizeof *v);
    if (!v)
        return ERR_NOMEM;
    for (size_t i = 0; i < l->n; i++)
        v[i] = (struct ts_pos){events[l->pos[i]].ts, l->pos[i]};
    qsort(v, l->n, sizeof *v, cmp_ts_pos);
    for (size_t i = 0; i < l->n; i++)
        l->pos[i] = v[i].pos;
    free(v);
    return 0;
}

static int collect_side(struct ui_diff *d, int k, const struct visit *v)
{
    struct ui_diff_detail *dt = &d->detail;
    struct collect c = {v->s->m, &v->s->plan, NULL, 0, false, 0, 0, 0};
    c.lanes = arena_calloc(&d->detail_arena, MAX_LANES, sizeof *c.lanes);
    if (!c.lanes || each_instance(v, collect_one, &c))
        return ERR_NOMEM;
    for (size_t i = 0; i < c.nlanes; i++) {
        c.lanes[i].pos = arena_calloc(&d->detail_arena, c.lanes[i].n ? c.lanes[i].n : 1,
                                      sizeof *c.lanes[i].pos);
        if (!c.lanes[i].pos)
            return ERR_NOMEM;
        c.lanes[i].n = 0;
    }
    c.fill = true;
    size_t nlanes = c.nlanes;
    if (each_instance(v, collect_one, &c))
        return ERR_NOMEM;
    for (size_t i = 0; i < nlanes; i++)
        if (sort_lane(&c.lanes[i], c.m->ranks[c.lanes[i].rank].events))
            return ERR_NOMEM;
    dt->lanes[k] = c.lanes;
    dt->nlanes[k] = nlanes;
    dt->count[k] = c.count;
    dt->total_ns[k] = c.total;
    if (c.span > dt->span)
        dt->span = c.span;
    return 0;
}

int ui_diff_open_detail(struct ui_diff *d, size_t v)
{
    ui_diff_close_detail(d);
    if (v >= d->nvis)
        return 0;
    const struct diff_row *row = &d->res.rows[d->vis[v]];
    struct ui_diff_detail *dt = &d->detail;
    dt->name = arena_strndup(&d->detail_arena, row->name, row->len);
    if (!dt->name)
        return ERR_NOMEM;
    for (int k = 0; k < 2; k++) {
        struct visit vis = {d, &d->side[k], row->name, row->len};
        char step[64];   // a step pair: each side's own step
        if (diff_step_side(row->name, row->len, k == 1, step, sizeof step)) {
            vis.key = step;
            vis.keylen = strlen(step);
        }
        if (collect_side(d, k, &vis)) {
            ui_diff_close_detail(d);
            return ERR_NOMEM;
        }
    }
    if (dt->span <= 0)
        dt->span = 1;
    dt->open = true;
    return 0;
}

void ui_diff_close_detail(struct ui_diff *d)
{
    memset(&d->detail, 0, sizeof d->detail);
    arena_reset(&d->detail_arena);
}
