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
    if (hmap_init(&kept_corr, 1024))
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

/* Index builds sort 4-byte positions and read the keys from the events, so
 * that the transient memory stays at 4 bytes per row. */
static int cmp_stream_order(const void *a, const void *b, void *ctx)
{
    const struct event *ev = ctx;
    uint32_t pa = *(const uint32_t *)a, pb = *(const uint32_t *)b;
    const struct event *x = &ev[pa], *y = &ev[pb];
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (pa > pb) - (pa < pb);
}

static int fill_stream(struct stream_index *s, const uint32_t *pos, size_t n, struct event *ev)
{
    s->stream = ev[pos[0]].stream;
    s->n = n;
    s->pos = malloc(n * sizeof *s->pos);
    s->max_end = malloc(n * sizeof *s->max_end);
    if (!s->pos || !s->max_end)
        return ERR_NOMEM;
    int64_t max_end = 0;
    for (size_t i = 0; i < n; i++) {
        struct event *e = &ev[pos[i]];
        s->pos[i] = pos[i];
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
    uint32_t *pos = malloc((n ? n : 1) * sizeof *pos);
    if (!pos)
        return ERR_NOMEM;
    size_t j = 0;
    for (size_t i = 0; i < r->nrows; i++)
        if (model_is_gpu_side(m, &r->events[r->rows[i]]))
            pos[j++] = r->rows[i];
    qsort_r(pos, n, sizeof *pos, cmp_stream_order, r->events);
    size_t groups = 0;
    for (size_t i = 0; i < n; i++)
        groups += i == 0 || r->events[pos[i]].stream != r->events[pos[i - 1]].stream;
    r->streams = calloc(groups ? groups : 1, sizeof *r->streams);
    int rc = r->streams ? 0 : ERR_NOMEM;
    for (size_t i = 0, start = 0; i <= n && !rc && n; i++) {
        if (i < n && r->events[pos[i]].stream == r->events[pos[start]].stream)
            continue;
        rc = fill_stream(&r->streams[r->nstreams++], &pos[start], i - start, r->events);
        start = i;
    }
    for (size_t i = 0; i < r->nstreams; i++)
        r->overlapping_kernels += r->streams[i].overlapping;
    free(pos);
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

static uint64_t thread_key(const struct event *ev)
{
    return ((uint64_t)ev->pid << 32) | ev->tid;
}

/* Per thread: by start, longer first on ties (the parent before its child). */
static int cmp_thread_order(const void *a, const void *b, void *ctx)
{
    const struct event *ev = ctx;
    uint32_t pa = *(const uint32_t *)a, pb = *(const uint32_t *)b;
    const struct event *x = &ev[pa], *y = &ev[pb];
    uint64_t kx = thread_key(x), ky = thread_key(y);
    if (kx != ky)
        return kx < ky ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->dur != y->dur)
        return x->dur > y->dur ? -1 : 1;
    return (pa > pb) - (pa < pb);
}

static int build_threads(const struct model *m, struct rank_model *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nrows; i++)
        n += !model_is_gpu_side(m, &r->events[r->rows[i]]);
    uint32_t *pos = malloc((n ? n : 1) * sizeof *pos);
    if (!pos)
        return ERR_NOMEM;
    size_t j = 0;
    for (size_t i = 0; i < r->nrows; i++)
        if (!model_is_gpu_side(m, &r->events[r->rows[i]]))
            pos[j++] = r->rows[i];
    qsort_r(pos, n, sizeof *pos, cmp_thread_order, r->events);
    size_t groups = 0;
    for (size_t i = 0; i < n; i++)
        groups += i == 0 || thread_key(&r->events[pos[i]]) != thread_key(&r->events[pos[i - 1]]);
    r->threads = calloc(groups ? groups : 1, sizeof *r->threads);
    int rc = r->threads ? 0 : ERR_NOMEM;
    for (size_t i = 0, start = 0; !rc && n && i <= n; i++) {
        if (i < n && thread_key(&r->events[pos[i]]) == thread_key(&r->events[pos[start]]))
            continue;
        struct thread_index *th = &r->threads[r->nthreads++];
        const struct event *first = &r->events[pos[start]];
        th->pid = first->pid;
        th->tid = first->tid;
        th->name = thread_name(r, first->pid, first->tid);
        th->n = i - start;
        th->pos = malloc(th->n * sizeof *th->pos);
        rc = th->pos ? 0 : ERR_NOMEM;
        if (!rc)
            memcpy(th->pos, &pos[start], th->n * sizeof *th->pos);
        rc = rc ? rc : nest_thread(th, r->events);
        start = i;
    }
    free(pos);
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
