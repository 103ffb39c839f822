#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/build.h"
#include "util/sort.h"
#include "util/hmap.h"
#include "util/memory.h"
#include "util/pool.h"
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

size_t model_step_names(const struct model *m)
{
    size_t n = 0;
    for (size_t id = 0; id < strtab_count(&m->strings); id++)
        if (strtab_len(&m->strings, (uint32_t)id) >= 12 &&
            memcmp(strtab_str(&m->strings, (uint32_t)id), "ProfilerStep", 12) == 0)
            n++;
    return n;
}

/* Room for n rows at once, in huge pages (util_alloc_huge): most of a
 * trace's events are rows, written once and then kept. */
static int reserve_rows(struct rowbuf *out, size_t n)
{
    if (!out->rows && n && !(out->rows = util_alloc_huge(n, sizeof *out->rows)))
        return ERR_NOMEM;
    if (out->rows && !out->cap)
        out->cap = n;
    if (vec_reserve((void **)&out->rows, &out->cap, sizeof *out->rows, n ? n : 1))
        return ERR_NOMEM;
    util_populate(out->rows, n * sizeof *out->rows);
    return 0;
}

/* Every event but the trace spans, in file order, and their span as
 * compute_span gives it (span[0] the start, span[1] the end): one pass. */
static int all_rows(const struct rank_model *r, struct rowbuf *out, int64_t span[2])
{
    if (reserve_rows(out, r->nevents))
        return ERR_NOMEM;
    int64_t start = 0, end = 0;
    bool any = false;
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        if (ev->kind == EV_KIND_TRACE_SPAN)
            continue;
        out->rows[out->n++] = (uint32_t)i;   // (room for every event)
        int64_t ends = ev->ts + (ev->dur > 0 ? ev->dur : 0);
        start = !any || ev->ts < start ? ev->ts : start;
        end = !any || ends > end ? ends : end;
        any = true;
    }
    span[0] = start;
    span[1] = end;
    return 0;
}

/* How many kept CPU events carry each correlation (-1: none, which pandas'
 * join matches too): an array over the ids' range where they are dense, as
 * CUPTI numbers them, else a hash map. */
struct corr_counts {
    uint32_t none;        /* events without a correlation */
    uint32_t lo;
    size_t range;
    uint32_t *dense;      /* [id - lo], when the range is dense */
    struct hmap sparse;
};

static int corr_counts_init(struct corr_counts *c, const struct rank_model *r)
{
    memset(c, 0, sizeof *c);
    uint32_t lo;
    uint64_t range;
    size_t n;
    if (model_corr_range(r, &lo, &range, &n)) {
        c->lo = lo;
        c->range = (size_t)range;
        c->dense = calloc(c->range, sizeof *c->dense);
        return c->dense ? 0 : ERR_NOMEM;
    }
    return hmap_init(&c->sparse, 1024) ? ERR_NOMEM : 0;
}

static void corr_counts_fini(struct corr_counts *c)
{
    if (c->dense)
        free(c->dense);
    else
        hmap_fini(&c->sparse);
}

static uint32_t *corr_count(struct corr_counts *c, const struct event *ev)
{
    if (!(ev->flags & EV_FLAG_HAS_CORR))
        return &c->none;
    if (c->dense)
        return &c->dense[ev->corr - c->lo];
    return hmap_get(&c->sparse, ev->corr);
}

static int corr_count_add(struct corr_counts *c, const struct event *ev)
{
    uint32_t *n = corr_count(c, ev);
    if (n) {
        ++*n;
        return 0;
    }
    return hmap_put(&c->sparse, ev->corr, 1);
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
    int64_t span[2];
    if (!have_step && !m->sem.filter_empties_stepless_rank)
        return all_rows(r, out, span);
    struct corr_counts kept;   /* correlation -> number of kept CPU events */
    if (corr_counts_init(&kept, r))
        return ERR_NOMEM;
    // The kept CPU events' positions, which follow the GPU rows; most of a
    // trace's events are rows, written once: resident from the start.
    struct rowbuf cpu = {0};
    size_t most = r->nevents ? r->nevents : 1;
    int rc = vec_reserve((void **)&cpu.rows, &cpu.cap, sizeof *cpu.rows, most) ||
                     reserve_rows(out, most)
                 ? ERR_NOMEM
                 : 0;
    for (size_t i = 0; i < r->nevents && !rc; i++) {
        const struct event *ev = &r->events[i];
        if (ev->kind == EV_KIND_TRACE_SPAN || model_is_gpu_kernel_pred(m, ev))
            continue;
        if (!have_step || ev->ts >= cut)
            continue;   /* no step: HTA's cut is the smallest CPU ts, so nothing stays */
        rc = corr_count_add(&kept, ev);
        cpu.rows[cpu.n++] = (uint32_t)i;
    }
    for (size_t i = 0; i < r->nevents && !rc; i++) {
        const struct event *ev = &r->events[i];
        if (!model_is_gpu_kernel_pred(m, ev))
            continue;
        const uint32_t *c = corr_count(&kept, ev);
        uint32_t copies = !c || !*c ? 0 : m->sem.filter_duplicates_rows ? *c : 1;
        for (uint32_t k = 0; k < copies && !rc; k++)
            rc = push_row(out, (uint32_t)i);
    }
    for (size_t i = 0; i < cpu.n && !rc; i++)
        rc = push_row(out, cpu.rows[i]);
    free(cpu.rows);
    corr_counts_fini(&kept);
    return rc;
}

static bool has_prefix(const struct model *m, uint32_t id, const char *prefix)
{
    size_t n = strlen(prefix);
    return strtab_len(&m->strings, id) >= n && memcmp(model_str(m, id), prefix, n) == 0;
}

/* §1.9's category groups, as HTA's MTIA filter tests them. */
static bool cpu_category(const struct model *m, uint32_t cat)
{
    const char *s = model_str(m, cat);
    size_t n = strtab_len(&m->strings, cat);
    return has_prefix(m, cat, "cpu_op") || strcmp(s, "user_annotation") == 0 ||
           (n > 8 && strcmp(s + n - 8, "_runtime") == 0);
}

static bool kernel_category(const struct model *m, uint32_t cat)
{
    return has_prefix(m, cat, "kernel") || has_prefix(m, cat, "mtia_ccp_events") ||
           (has_prefix(m, cat, "gpu_mem") && strtab_len(&m->strings, cat) > 7);
}

static bool memory_named(const struct model *m, uint32_t name)
{
    return has_prefix(m, name, "Memcpy") || has_prefix(m, name, "Memset") ||
           has_prefix(m, name, "dma");
}

static const struct iteration *step_holding(const struct rank_model *r, int64_t ts)
{
    for (size_t i = 0; i < r->niterations; i++)
        if (r->iterations[i].ts <= ts && ts < r->iterations[i].ts + r->iterations[i].dur)
            return &r->iterations[i];
    return NULL;
}

/* §1.10, MTIA jobs: CPU events wholly inside the profiled steps, the kernels
 * they launched, and memory transfers that start inside a step (which take
 * that step's number and, without a stream, their tid as stream). Rows stay
 * in file order: HTA's order here is not pinned by any reference output. */
static int mtia_step_rows(const struct model *m, struct rank_model *r, struct rowbuf *out)
{
    int64_t lo = 0, hi = 0;
    for (size_t i = 0; i < r->niterations; i++) {
        const struct iteration *it = &r->iterations[i];
        lo = i == 0 || it->ts < lo ? it->ts : lo;
        hi = i == 0 || it->ts + it->dur > hi ? it->ts + it->dur : hi;
    }
    struct hmap kept_corr;
    if (hmap_init(&kept_corr, 1024))
        return ERR_NOMEM;
    int rc = 0;
    for (size_t i = 0; i < r->nevents && !rc; i++) {
        const struct event *ev = &r->events[i];
        uint32_t cat = model_event_cat(m, ev);
        if (r->niterations && cpu_category(m, cat) && ev->ts >= lo && ev->ts + ev->dur <= hi)
            rc = hmap_put(&kept_corr, event_correlation(ev), 1);
    }
    for (size_t i = 0; i < r->nevents && !rc; i++) {
        struct event *ev = &r->events[i];
        uint32_t cat = model_event_cat(m, ev);
        bool keep = false;
        if (cpu_category(m, cat))
            keep = r->niterations && ev->ts >= lo && ev->ts + ev->dur <= hi;
        else if (kernel_category(m, cat))
            keep = hmap_get(&kept_corr, event_correlation(ev)) != NULL;
        const struct iteration *step = !keep && memory_named(m, ev->name) ? step_holding(r, ev->ts)
                                                                          : NULL;
        if (step) {
            keep = true;
            if (ev->iteration == MODEL_ITER_NONE)
                ev->iteration = (int32_t)step->number;
            char *end;
            const char *tid_text = model_str(m, model_event_tid(m, ev));
            long long tid = strtoll(tid_text, &end, 10);
            if (ev->stream == -1 && *end == '\0' && end != tid_text && tid >= INT32_MIN &&
                tid <= INT32_MAX)
                ev->stream = (int32_t)tid;
        }
        if (keep)
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

/* Sorted copies of the rank's switched-off streams and of the iterations,
 * so each row costs two binary searches whatever the list lengths. */
struct row_filter {
    int64_t *iters, *streams;
    size_t niters, nstreams;
};

static int row_filter_init(struct row_filter *f, const struct rank_model *r,
                           const struct selection *sel)
{
    memset(f, 0, sizeof f[0]);
    f->iters = malloc((sel->niterations ? sel->niterations : 1) * sizeof *f->iters);
    f->streams = malloc((sel->nstreams_off ? sel->nstreams_off : 1) * sizeof *f->streams);
    if (!f->iters || !f->streams)
        return ERR_NOMEM;
    if (sel->niterations)
        memcpy(f->iters, sel->iterations, sel->niterations * sizeof *f->iters);
    f->niters = sort_unique_i64(f->iters, sel->niterations);
    for (size_t i = 0; i < sel->nstreams_off; i++)
        if (sel->streams_off[i].rank == r->rank)
            f->streams[f->nstreams++] = sel->streams_off[i].stream;
    f->nstreams = sort_unique_i64(f->streams, f->nstreams);
    return 0;
}

static bool row_kept(const struct model *m, const struct row_filter *f,
                     const struct selection *sel, const struct event *ev)
{
    if (f->nstreams && model_is_gpu_side(m, ev) && i64_set_has(f->streams, f->nstreams, ev->stream))
        return false;
    if (sel->niterations &&
        (ev->iteration == MODEL_ITER_NAN || !i64_set_has(f->iters, f->niters, ev->iteration)))
        return false;
    return !sel->has_window || (ev->ts >= sel->window_start && ev->ts < sel->window_end);
}

static int apply_selection(const struct model *m, const struct rank_model *r,
                           const struct selection *sel, struct rowbuf *rows)
{
    if (!sel || (!sel->niterations && !sel->has_window && !sel->nstreams_off))
        return 0;
    struct row_filter f;
    int rc = row_filter_init(&f, r, sel);
    size_t k = 0;
    for (size_t i = 0; i < rows->n && !rc; i++)
        if (row_kept(m, &f, sel, &r->events[rows->rows[i]]))
            rows->rows[k++] = rows->rows[i];
    if (!rc)
        rows->n = k;
    free(f.iters);
    free(f.streams);
    return rc;
}

/* Index builds group 4-byte positions by stream or thread with a stable
 * counting sort (groups in order of first appearance), then sort a group
 * only when it is not already in order, which Kineto's output usually is.
 * Transient memory stays at a few bytes per row. */
static bool pos_by_ts_less(const struct event *ev, const uint32_t *a, const uint32_t *b)
{
    const struct event *x = &ev[*a], *y = &ev[*b];
    if (x->ts != y->ts)
        return x->ts < y->ts;
    return *a < *b;
}

/* by start, longer first on ties (the parent before its child) */
static bool pos_by_nesting_less(const struct event *ev, const uint32_t *a, const uint32_t *b)
{
    const struct event *x = &ev[*a], *y = &ev[*b];
    if (x->ts != y->ts)
        return x->ts < y->ts;
    if (x->dur != y->dur)
        return x->dur > y->dur;
    return *a < *b;
}

/* Every tie is broken by position, so the order is unique. */
SORT_DEFINE_STABLE_CTX(sort_pos_by_ts, uint32_t, const struct event *, pos_by_ts_less)
SORT_DEFINE_STABLE_CTX(sort_pos_by_nesting, uint32_t, const struct event *, pos_by_nesting_less)

/* Sorts a group only when it is out of order. 0 or ERR_NOMEM. */
static int sort_group(uint32_t *pos, size_t n, bool nesting, const struct event *ev)
{
    for (size_t i = 1; i < n; i++) {
        bool out_of_order = nesting ? pos_by_nesting_less(ev, &pos[i], &pos[i - 1])
                                    : pos_by_ts_less(ev, &pos[i], &pos[i - 1]);
        if (out_of_order)
            return nesting ? sort_pos_by_nesting(pos, n, ev) : sort_pos_by_ts(pos, n, ev);
    }
    return 0;
}

struct grouping {
    uint32_t *pos;       /* rows of the wanted side, grouped */
    size_t n;
    size_t *start;       /* group g is pos[start[g] .. start[g + 1]) */
    size_t ngroups;
};

static uint64_t stream_key(const struct event *ev) { return (uint64_t)ev->stream; }
static uint64_t thread_key(const struct event *ev) { return ev->thread; }   /* one (pid, tid) */

/* The group of a row's key, numbering new keys in order of first
 * appearance; the last key is remembered, since rows of one stream or
 * thread come in runs. UINT32_MAX when out of memory. */
struct group_of {
    struct hmap slot_of;
    uint64_t last_key;
    uint32_t last_slot;
    size_t ngroups;
};

static uint32_t group_number(struct group_of *go, uint64_t key)
{
    if (go->last_slot != UINT32_MAX && key == go->last_key)
        return go->last_slot;
    uint32_t *s = hmap_get(&go->slot_of, (int64_t)key);
    uint32_t slot = s ? *s : (uint32_t)go->ngroups;
    if (!s) {
        if (go->ngroups >= UINT32_MAX - 1 || hmap_put(&go->slot_of, (int64_t)key, slot))
            return UINT32_MAX;
        go->ngroups++;
    }
    go->last_key = key;
    go->last_slot = slot;
    return slot;
}

/* What group_rows groups: the GPU-side or the CPU-side rows, or every
 * event (rows or not) that is a kernel, memcpy or memset on a stream. */
enum grouped { GROUP_GPU_ROWS, GROUP_CPU_ROWS, GROUP_STREAM_WORK };

static bool is_grouped(const struct model *m, enum grouped what, const struct event *ev)
{
    if (what == GROUP_STREAM_WORK)
        return ev->stream >= 0 && (ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY ||
                                   ev->kind == EV_KIND_MEMSET);
    return model_is_gpu_side(m, ev) == (what == GROUP_GPU_ROWS);
}

/* Two passes over the rows, the second finding each row's group again,
 * rather than a group number a row kept between them: that array (4 bytes
 * a row, twice with streams and threads grouped at once) would be most of
 * the selection's peak memory. */
static int group_rows(const struct model *m, const struct rank_model *r, enum grouped what,
                      uint64_t (*key)(const struct event *), struct grouping *g)
{
    memset(g, 0, sizeof *g);
    struct group_of go = {.last_slot = UINT32_MAX};
    if (hmap_init(&go.slot_of, 64))
        return ERR_NOMEM;
    int rc = 0;
    size_t *count = NULL, cap = 0;
    // Every event is a row of its own position for GROUP_STREAM_WORK.
    const uint32_t *rows = what == GROUP_STREAM_WORK ? NULL : r->rows;
    size_t nrows = rows ? r->nrows : r->nevents;
    for (size_t i = 0; i < nrows && !rc; i++) {
        const struct event *ev = &r->events[rows ? rows[i] : i];
        if (!is_grouped(m, what, ev))
            continue;
        uint32_t slot = group_number(&go, key(ev));
        if (slot == UINT32_MAX ||
            (slot >= cap && vec_reserve((void **)&count, &cap, sizeof *count, go.ngroups))) {
            rc = ERR_NOMEM;
            break;
        }
        if (slot >= g->ngroups) {   /* new */
            count[slot] = 0;
            g->ngroups = go.ngroups;
        }
        count[slot]++;
        g->n++;
    }
    g->start = rc ? NULL : malloc((g->ngroups + 1) * sizeof *g->start);
    // Written once, and kept as rank_model.thread_pos: huge pages.
    g->pos = rc ? NULL : util_alloc_huge(g->n, sizeof *g->pos);
    if (!rc && (!g->start || !g->pos))
        rc = ERR_NOMEM;
    if (!rc) {
        size_t acc = 0;
        for (size_t k = 0; k < g->ngroups; k++) {
            g->start[k] = acc;
            acc += count[k];
            count[k] = g->start[k];
        }
        g->start[g->ngroups] = acc;
        go.last_slot = UINT32_MAX;
        for (size_t i = 0; i < nrows; i++) {
            uint32_t p = rows ? rows[i] : (uint32_t)i;
            const struct event *ev = &r->events[p];
            if (is_grouped(m, what, ev))
                g->pos[count[group_number(&go, key(ev))]++] = p;
        }
        util_huge_written(g->pos, g->n * sizeof *g->pos);
    }
    hmap_fini(&go.slot_of);
    free(count);
    if (rc) {
        free(g->start);
        free(g->pos);
        memset(g, 0, sizeof *g);
    }
    return rc;
}

static bool is_work(const struct event *ev)
{
    return ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY || ev->kind == EV_KIND_MEMSET;
}

/* Copies a stream's sorted positions into s and counts, on the way, its
 * kernels, memcpys and memsets that start before the latest end of those
 * before them (model_stream_work_overlaps' count, for a stream >= 0). */
static int fill_stream(struct stream_index *s, const uint32_t *pos, size_t n, struct event *ev,
                       bool mark, uint64_t *work_overlaps)
{
    s->stream = ev[pos[0]].stream;
    s->n = n;
    s->pos = util_alloc_huge(n, sizeof *s->pos);
    s->max_end = util_alloc_huge(n, sizeof *s->max_end);
    if (!s->pos || !s->max_end)
        return ERR_NOMEM;
    int64_t max_end = 0, work_end = 0;
    bool any_work = false;
    for (size_t i = 0; i < n; i++) {
        struct event *e = &ev[pos[i]];
        s->pos[i] = pos[i];
        if (i && e->ts < max_end) {
            s->overlapping++;
            if (mark)
                e->flags |= EV_FLAG_OVERLAPS;
        }
        int64_t end = e->ts + e->dur;
        max_end = i == 0 || end > max_end ? end : max_end;
        s->max_end[i] = max_end;
        if (is_work(e)) {
            *work_overlaps += any_work && e->ts < work_end;
            work_end = !any_work || end > work_end ? end : work_end;
            any_work = true;
        }
        s->kernels += e->kind == EV_KIND_KERNEL;
        s->memcpys += e->kind == EV_KIND_MEMCPY;
        s->memsets += e->kind == EV_KIND_MEMSET;
        s->others += !is_work(e);
    }
    util_huge_written(s->pos, n * sizeof *s->pos);
    util_huge_written(s->max_end, n * sizeof *s->max_end);
    return 0;
}

static int cmp_stream_id(const void *a, const void *b)
{
    const struct stream_index *x = a, *y = b;
    return (x->stream > y->stream) - (x->stream < y->stream);
}

/* rows_all: the rows are every event but the trace spans, so the stream
 * work of every stream >= 0 is among them, and its overlaps are counted
 * here (rank_model.work_overlaps). */
static int build_streams(const struct model *m, struct rank_model *r, bool rows_all)
{
    struct grouping g;
    if (group_rows(m, r, GROUP_GPU_ROWS, stream_key, &g))
        return ERR_NOMEM;
    r->streams = calloc(g.ngroups ? g.ngroups : 1, sizeof *r->streams);
    int rc = r->streams ? 0 : ERR_NOMEM;
    uint64_t work_overlaps = 0, ignored = 0;
    for (size_t k = 0; k < g.ngroups && !rc; k++) {
        size_t n = g.start[k + 1] - g.start[k];
        bool work = r->events[g.pos[g.start[k]]].stream >= 0;
        rc = sort_group(&g.pos[g.start[k]], n, false, r->events);
        if (!rc)
            rc = fill_stream(&r->streams[r->nstreams++], &g.pos[g.start[k]], n, r->events,
                             !r->shares_events, work ? &work_overlaps : &ignored);
    }
    r->work_overlaps = work_overlaps;
    r->work_overlaps_known = !rc && rows_all;
    if (!rc)
        qsort(r->streams, r->nstreams, sizeof *r->streams, cmp_stream_id);
    for (size_t i = 0; i < r->nstreams; i++)
        r->overlapping_kernels += r->streams[i].overlapping;
    free(g.pos);   // each stream copied its own (fill_stream)
    free(g.start);
    return rc;
}

int model_stream_work_overlaps(const struct model *m, const struct rank_model *r, uint64_t *out)
{
    struct grouping g;
    *out = 0;
    if (r->work_overlaps_known) {   // counted by build_streams
        *out = r->work_overlaps;
        return 0;
    }
    if (group_rows(m, r, GROUP_STREAM_WORK, stream_key, &g))
        return ERR_NOMEM;
    int rc = 0;
    for (size_t k = 0; k < g.ngroups && !rc; k++) {
        uint32_t *pos = &g.pos[g.start[k]];
        size_t n = g.start[k + 1] - g.start[k];
        rc = sort_group(pos, n, false, r->events);
        int64_t max_end = 0;
        for (size_t i = 0; i < n && !rc; i++) {
            const struct event *e = &r->events[pos[i]];
            *out += i && e->ts < max_end;
            max_end = i == 0 || e->ts + e->dur > max_end ? e->ts + e->dur : max_end;
        }
    }
    free(g.pos);
    free(g.start);
    if (rc)
        *out = 0;
    return rc;
}

static uint32_t thread_name(const struct rank_model *r, uint32_t pid, uint32_t tid)
{
    for (size_t i = 0; i < r->nnames; i++)
        if (r->names[i].is_thread && r->names[i].pid == pid && r->names[i].tid == tid)
            return r->names[i].name;
    return 0;
}

/* Each event's parent in t (the innermost open event enclosing its
 * start), and, on the way, the annotation problems the nesting reveals
 * (struct rank_model). parent is written once and kept: huge pages. */
static int nest_thread(struct rank_model *r, struct thread_index *t)
{
    const struct event *ev = r->events;
    t->parent = util_alloc_huge(t->n, sizeof *t->parent);
    // The open events: as deep as the nesting, which is far less than n.
    uint32_t *stack = NULL;
    size_t top = 0, cap = 0;
    if (!t->parent)
        return ERR_NOMEM;
    for (size_t i = 0; i < t->n; i++) {
        const struct event *e = &ev[t->pos[i]];
        while (top) {
            const struct event *open = &ev[t->pos[stack[top - 1]]];
            if (open->ts + open->dur > e->ts)
                break;
            top--;
        }
        t->parent[i] = top ? stack[top - 1] : MODEL_NONE;
        if (e->kind == EV_KIND_USER_ANNOTATION) {
            r->zero_length_annotations += e->dur == 0;
            const struct event *p = top ? &ev[t->pos[stack[top - 1]]] : NULL;
            r->crossing_annotations += p && p->kind == EV_KIND_USER_ANNOTATION &&
                                       e->ts + e->dur > p->ts + p->dur;
        }
        if (VEC_PUSH_SLOT(stack, top, cap)) {
            free(stack);
            return ERR_NOMEM;
        }
        stack[top++] = (uint32_t)i;
    }
    free(stack);
    util_huge_written(t->parent, t->n * sizeof *t->parent);
    return 0;
}

static int build_threads(const struct model *m, struct rank_model *r)
{
    struct grouping g;
    if (group_rows(m, r, GROUP_CPU_ROWS, thread_key, &g))
        return ERR_NOMEM;
    r->threads = calloc(g.ngroups ? g.ngroups : 1, sizeof *r->threads);
    r->thread_pos = g.pos;   // each thread's pos is its slice: no copy
    int rc = r->threads ? 0 : ERR_NOMEM;
    for (size_t k = 0; k < g.ngroups && !rc; k++) {
        uint32_t *pos = &g.pos[g.start[k]];
        struct thread_index *th = &r->threads[r->nthreads++];
        th->n = g.start[k + 1] - g.start[k];
        rc = sort_group(pos, th->n, true, r->events);
        if (rc)
            break;
        th->pid = model_event_pid(m, &r->events[pos[0]]);
        th->tid = model_event_tid(m, &r->events[pos[0]]);
        th->name = thread_name(r, th->pid, th->tid);
        th->pos = pos;
        rc = nest_thread(r, th);
    }
    free(g.start);
    return rc;
}

/* Whether sel keeps every row: it differs from no selection at most in
 * its rank list, which sets rank_model.selected and nothing else. */
static bool keeps_every_row(const struct selection *sel)
{
    return !sel || (!sel->niterations && !sel->has_window && !sel->nstreams_off);
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

/* The rank's rows under the selection, and its span: what both indices
 * below are built from. */
static int select_rows(const struct model *m, struct rank_model *r, size_t step_names,
                       const struct selection *sel)
{
    model_rank_free_derived(r);
    r->overlapping_kernels = 0;
    r->crossing_annotations = r->zero_length_annotations = 0;
    r->selected = !sel || !sel->nranks || in_list(sel->ranks, sel->nranks, r->rank);
    struct rowbuf rows = {0};
    bool filter = m->sem.drop_last_step && step_names >= 2;
    int64_t span[2];
    int rc = !filter ? all_rows(r, &rows, span)
             : m->nranks && m->ranks[0].device == DEVICE_MTIA ? mtia_step_rows(m, r, &rows)
                                                              : trailing_step_rows(m, r, &rows);
    if (rc) {
        free(rows.rows);
        return rc;
    }
    rc = apply_selection(m, r, sel, &rows);
    if (rc) {
        free(rows.rows);
        return rc;
    }
    r->rows = rows.rows;
    r->nrows = rows.n;
    util_huge_written(r->rows, r->nrows * sizeof *r->rows);
    if (!filter && keeps_every_row(sel)) {   // all_rows' span is the rows'
        r->start_ns = span[0];
        r->end_ns = span[1];
    } else {
        compute_span(r);
    }
    return 0;
}

/* Ranks are independent, and so are a rank's stream and thread indices
 * (they write different fields). With at least a rank a core, each task
 * selects a whole rank; with fewer, the rows come first and then the
 * indices are tasks of their own, which keeps both cores busy on a
 * one-rank trace too. */
struct select_run {
    struct model *m;
    const struct selection *sel;
    size_t step_names;
    bool streams_only;
};

/* A summary-only rank (model_new_from_summaries) keeps its lanes: only its selection changes. */
static bool select_summary(struct rank_model *r, const struct selection *sel)
{
    if (r->summary_only)
        r->selected = !sel || !sel->nranks || in_list(sel->ranks, sel->nranks, r->rank);
    return r->summary_only;
}

/* Whether select_rows keeps every event but the trace spans. */
static bool rows_are_all(const struct select_run *run)
{
    return keeps_every_row(run->sel) && !(run->m->sem.drop_last_step && run->step_names >= 2);
}

static int rows_task(void *ctx, size_t i)
{
    struct select_run *run = ctx;
    struct rank_model *r = &run->m->ranks[i];
    return !select_summary(r, run->sel) && select_rows(run->m, r, run->step_names, run->sel) != 0;
}

static int index_task(void *ctx, size_t k)
{
    struct select_run *run = ctx;
    struct rank_model *r = &run->m->ranks[k / 2];
    if (r->summary_only || run->m->rows_only)
        return 0;
    if (k % 2)
        return !run->streams_only && build_threads(run->m, r) != 0;
    return build_streams(run->m, r, rows_are_all(run)) != 0;
}

static int rank_task(void *ctx, size_t i)
{
    struct select_run *run = ctx;
    struct rank_model *r = &run->m->ranks[i];
    if (select_summary(r, run->sel))
        return 0;
    if (select_rows(run->m, r, run->step_names, run->sel) != 0)
        return 1;
    return !run->m->rows_only && (build_streams(run->m, r, rows_are_all(run)) != 0 ||
           (!run->streams_only && build_threads(run->m, r) != 0));
}

/* Whether every rank's derived arrays are already those of a selection
 * keeping every row (a load selects everything, and the front ends then
 * select what the user asked, which is mostly everything again). */
static bool rows_unfiltered(const struct model *m)
{
    for (size_t i = 0; i < m->nranks; i++)
        if (!m->ranks[i].summary_only && !m->ranks[i].rows_unfiltered)
            return false;
    return true;
}

int model_select(struct model *m, const struct selection *sel, struct err *e)
{
    bool all = keeps_every_row(sel);
    if (all && rows_unfiltered(m)) {
        for (size_t i = 0; i < m->nranks; i++) {
            struct rank_model *r = &m->ranks[i];
            r->selected = !sel || !sel->nranks || in_list(sel->ranks, sel->nranks, r->rank);
        }
        return 0;
    }
    struct select_run run = {m, sel, model_step_names(m), false};
    bool stopped = m->nranks >= (size_t)pool_cores()
                       ? pool_run(m->nranks, 0, rank_task, &run)
                       : pool_run(m->nranks, 0, rows_task, &run) ||
                             (!m->rows_only && pool_run(2 * m->nranks, 0, index_task, &run));
    if (stopped)
        return err_set(e, ERR_NOMEM, "out of memory building indices");
    for (size_t i = 0; i < m->nranks; i++)
        m->ranks[i].rows_unfiltered = all && !m->ranks[i].summary_only;
    return 0;
}

int model_select_streams(struct model *m, struct err *e)
{
    struct select_run run = {m, NULL, model_step_names(m), true};
    bool stopped = pool_run(m->nranks, 1, rank_task, &run);
    return stopped ? err_set(e, ERR_NOMEM, "out of memory building indices") : 0;
}
