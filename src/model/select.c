#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/build.h"
#include "util/hmap.h"
#include "util/vec.h"

struct rowbuf {
    uint32_t *rows;
    size_t n, cap;
};

static int push_row(struct rowbuf *b, uint32_t pos)
{
    if (VEC_PUSH_SLOT(b->rows, b->n, b->cap))
        return ERR_NOMEM;
    b->rows[b->n++] = pos;
    return 0;
}

static size_t count_step_names(const struct model *m)
{
    size_t n = 0;
    for (size_t id = 0; id < strtab_count(&m->strings); id++)
        if (strtab_len(&m->strings, (uint32_t)id) >= 12 &&
            memcmp(strtab_str(&m->strings, (uint32_t)id), "ProfilerStep", 12) == 0)
            n++;
    return n;
}

static int all_rows(const struct rank_model *r, struct rowbuf *out)
{
    for (size_t i = 0; i < r->nevents; i++)
        if (r->events[i].kind != EV_KIND_TRACE_SPAN && push_row(out, (uint32_t)i))
            return ERR_NOMEM;
    return 0;
}

/* §1.10: keep CPU-side events before the last ProfilerStep starts, and the
 * GPU kernels that a kept CPU event launched (an inner join on correlation,
 * which HTA lets duplicate rows). GPU rows first, then CPU rows. */
static int trailing_step_rows(const struct model *m, const struct rank_model *r,
                              struct rowbuf *out)
{
    bool have_step = r->niterations > 0;
    int64_t cut = 0;
    for (size_t i = 0; i < r->niterations; i++)
        if (i == 0 || r->iterations[i].ts > cut)
            cut = r->iterations[i].ts;
    if (!have_step && !m->sem.filter_empties_stepless_rank)
        return all_rows(r, out);
    struct hmap kept_corr;   /* correlation -> number of kept CPU events */
    if (hmap_init(&kept_corr, r->nevents / 4))
        return ERR_NOMEM;
    int rc = 0;
    for (size_t i = 0; i < r->nevents && !rc; i++) {
        const struct event *ev = &r->events[i];
        if (ev->kind == EV_KIND_TRACE_SPAN || model_is_gpu_kernel_pred(m, ev))
            continue;
        if (!have_step || ev->ts >= cut)
            continue;   /* no step: HTA's cut is the smallest CPU ts, so nothing stays */
        uint32_t *c = hmap_get(&kept_corr, ev->correlation);
        rc = c ? (++*c, 0) : hmap_put(&kept_corr, ev->correlation, 1);
    }
    for (size_t i = 0; i < r->nevents && !rc; i++) {
        const struct event *ev = &r->events[i];
        if (!model_is_gpu_kernel_pred(m, ev))
            continue;
        uint32_t *c = hmap_get(&kept_corr, ev->correlation);
        uint32_t copies = !c ? 0 : m->sem.filter_duplicates_rows ? *c : 1;
        for (uint32_t k = 0; k < copies && !rc; k++)
            rc = push_row(out, (uint32_t)i);
    }
    for (size_t i = 0; i < r->nevents && !rc; i++) {
        const struct event *ev = &r->events[i];
        if (ev->kind != EV_KIND_TRACE_SPAN && !model_is_gpu_kernel_pred(m, ev) && have_step &&
            ev->ts < cut)
            rc = push_row(out, (uint32_t)i);
    }
    hmap_fini(&kept_corr);
    return rc;
}

static bool in_list(const int64_t *list, size_t n, int64_t v)
{
    for (size_t i = 0; i < n; i++)
        if (list[i] == v)
            return true;
    return false;
}

static void apply_selection(const struct rank_model *r, const struct selection *sel,
                            struct rowbuf *rows)
{
    if (!sel || (!sel->niterations && !sel->has_window))
        return;
    size_t k = 0;
    for (size_t i = 0; i < rows->n; i++) {
        const struct event *ev = &r->events[rows->rows[i]];
        if (sel->niterations && (ev->iteration == MODEL_ITER_NAN ||
                                 !in_list(sel->iterations, sel->niterations, ev->iteration)))
            continue;
        if (sel->has_window && (ev->ts < sel->window_start || ev->ts >= sel->window_end))
            continue;
        rows->rows[k++] = rows->rows[i];
    }
    rows->n = k;
}

struct keyed {
    int64_t key, ts;
    uint64_t order;   /* row index: keeps ties in row order */
    uint32_t pos;
};

static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

static int fill_stream(struct stream_index *s, const struct keyed *k, size_t n, struct event *ev)
{
    s->stream = k[0].key;
    s->n = n;
    s->pos = malloc(n * sizeof *s->pos);
    s->max_end = malloc(n * sizeof *s->max_end);
    if (!s->pos || !s->max_end)
        return ERR_NOMEM;
    int64_t max_end = 0;
    for (size_t i = 0; i < n; i++) {
        struct event *e = &ev[k[i].pos];
        s->pos[i] = k[i].pos;
        if (i && e->ts < max_end) {
            s->overlapping++;
            e->flags |= EV_FLAG_OVERLAPS;
        }
        int64_t end = e->ts + e->dur;
        max_end = i == 0 || end > max_end ? end : max_end;
        s->max_end[i] = max_end;
        s->kernels += e->kind == EV_KIND_KERNEL;
        s->memcpys += e->kind == EV_KIND_MEMCPY;
        s->memsets += e->kind == EV_KIND_MEMSET;
        s->others += e->kind != EV_KIND_KERNEL && e->kind != EV_KIND_MEMCPY &&
                     e->kind != EV_KIND_MEMSET;
    }
    return 0;
}

static int build_streams(const struct model *m, struct rank_model *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nrows; i++)
        n += model_is_gpu_side(m, &r->events[r->rows[i]]);
    struct keyed *k = malloc((n ? n : 1) * sizeof *k);
    if (!k)
        return ERR_NOMEM;
    size_t j = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (model_is_gpu_side(m, ev))
            k[j++] = (struct keyed){ev->stream, ev->ts, i, r->rows[i]};
    }
    qsort(k, n, sizeof *k, cmp_keyed);
    size_t groups = 0;
    for (size_t i = 0; i < n; i++)
        groups += i == 0 || k[i].key != k[i - 1].key;
    r->streams = calloc(groups ? groups : 1, sizeof *r->streams);
    int rc = r->streams ? 0 : ERR_NOMEM;
    for (size_t i = 0, start = 0; i <= n && !rc && n; i++) {
        if (i < n && k[i].key == k[start].key)
            continue;
        rc = fill_stream(&r->streams[r->nstreams++], &k[start], i - start, r->events);
        start = i;
    }
    for (size_t i = 0; i < r->nstreams; i++)
        r->overlapping_kernels += r->streams[i].overlapping;
    free(k);
    return rc;
}

static uint32_t thread_name(const struct rank_model *r, uint32_t pid, uint32_t tid)
{
    for (size_t i = 0; i < r->nnames; i++)
        if (r->names[i].is_thread && r->names[i].pid == pid && r->names[i].tid == tid)
            return r->names[i].name;
    return 0;
}

static int nest_thread(struct thread_index *t, const struct event *ev)
{
    t->parent = malloc(t->n * sizeof *t->parent);
    t->depth = malloc(t->n * sizeof *t->depth);
    uint32_t *stack = malloc(t->n * sizeof *stack);
    if (!t->parent || !t->depth || !stack) {
        free(stack);
        return ERR_NOMEM;
    }
    size_t top = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct event *e = &ev[t->pos[i]];
        while (top) {
            const struct event *open = &ev[t->pos[stack[top - 1]]];
            if (open->ts + open->dur > e->ts)
                break;
            top--;
        }
        t->parent[i] = top ? stack[top - 1] : MODEL_NONE;
        t->depth[i] = (uint16_t)(top < UINT16_MAX ? top : UINT16_MAX);
        stack[top++] = (uint32_t)i;
    }
    free(stack);
    return 0;
}

struct threaded {
    uint32_t thread;
    uint32_t pos;
    int64_t ts, dur;
    uint64_t order;
};

/* Per thread: by start, longer first on ties (the parent before its child). */
static int cmp_threaded(const void *a, const void *b)
{
    const struct threaded *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->dur != y->dur)
        return x->dur > y->dur ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

static int64_t thread_key(const struct event *ev)
{
    return (int64_t)(((uint64_t)ev->pid << 32) | ev->tid);
}

static int build_threads(const struct model *m, struct rank_model *r)
{
    struct hmap ids;
    struct threaded *t = malloc((r->nrows ? r->nrows : 1) * sizeof *t);
    if (!t || hmap_init(&ids, 64)) {
        free(t);
        return ERR_NOMEM;
    }
    size_t n = 0, nthreads = 0;
    int rc = 0;
    for (size_t i = 0; i < r->nrows && !rc; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (model_is_gpu_side(m, ev))
            continue;
        uint32_t *id = hmap_get(&ids, thread_key(ev));
        if (!id && (rc = hmap_put(&ids, thread_key(ev), (uint32_t)nthreads++)) == 0)
            id = hmap_get(&ids, thread_key(ev));
        if (id)
            t[n++] = (struct threaded){*id, r->rows[i], ev->ts, ev->dur, i};
    }
    hmap_fini(&ids);
    if (!rc)
        qsort(t, n, sizeof *t, cmp_threaded);
    r->threads = rc ? NULL : calloc(nthreads ? nthreads : 1, sizeof *r->threads);
    rc = rc ? rc : r->threads ? 0 : ERR_NOMEM;
    for (size_t i = 0, start = 0; !rc && n && i <= n; i++) {
        if (i < n && t[i].thread == t[start].thread)
            continue;
        struct thread_index *th = &r->threads[r->nthreads++];
        const struct event *first = &r->events[t[start].pos];
        th->pid = first->pid;
        th->tid = first->tid;
        th->name = thread_name(r, first->pid, first->tid);
        th->n = i - start;
        th->pos = malloc(th->n * sizeof *th->pos);
        rc = th->pos ? 0 : ERR_NOMEM;
        for (size_t k = 0; !rc && k < th->n; k++)
            th->pos[k] = t[start + k].pos;
        rc = rc ? rc : nest_thread(th, r->events);
        start = i;
    }
    free(t);
    return rc;
}

static void compute_span(struct rank_model *r)
{
    r->start_ns = r->end_ns = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        int64_t end = ev->ts + (ev->dur > 0 ? ev->dur : 0);
        if (i == 0 || ev->ts < r->start_ns)
            r->start_ns = ev->ts;
        if (i == 0 || end > r->end_ns)
            r->end_ns = end;
    }
}

static int select_rank(const struct model *m, struct rank_model *r, size_t step_names,
                       const struct selection *sel)
{
    model_rank_free_derived(r);
    r->overlapping_kernels = 0;
    r->selected = !sel || !sel->nranks || in_list(sel->ranks, sel->nranks, r->rank);
    struct rowbuf rows = {0};
    int rc = m->sem.drop_last_step && step_names >= 2 ? trailing_step_rows(m, r, &rows)
                                                       : all_rows(r, &rows);
    if (rc) {
        free(rows.rows);
        return rc;
    }
    apply_selection(r, sel, &rows);
    r->rows = rows.rows;
    r->nrows = rows.n;
    compute_span(r);
    rc = build_streams(m, r);
    return rc ? rc : build_threads(m, r);
}

int model_select(struct model *m, const struct selection *sel, struct err *e)
{
    size_t step_names = count_step_names(m);
    for (size_t i = 0; i < m->nranks; i++)
        if (select_rank(m, &m->ranks[i], step_names, sel))
            return err_set(e, ERR_NOMEM, "out of memory building indices");
    return 0;
}
