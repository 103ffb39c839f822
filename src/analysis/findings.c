#include "config.h"
#include "analysis/findings.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/classify.h"
#include "analysis/findings_rules.h"
#include "util/sort.h"
#include "util/vec.h"

/* ---- names ---- */

const char *finding_kind_name(enum finding_kind k)
{
    static const char *const names[FINDING_KIND_COUNT] = {
        "straggler", "exposed_communication", "host_bound", "launch_overhead",
        "sync_stall", "pageable_copy", "step_gap", "imbalance", "slow_kernel",
        "bandwidth_outlier", "hot_kernel", "hot_annotation",
    };
    return (unsigned)k < FINDING_KIND_COUNT ? names[k] : "?";
}

bool finding_kind_is_hot_spot(enum finding_kind k)
{
    return k == FINDING_HOT_KERNEL || k == FINDING_HOT_ANNOTATION;
}

const char *finding_view_name(enum finding_view v)
{
    static const char *const names[FINDING_VIEW_COUNT] = {
        "timeline", "overview", "kernels", "idle", "overlap", "launch", "annotations",
        "ranks", "collectives",
    };
    return (unsigned)v < FINDING_VIEW_COUNT ? names[v] : "?";
}

void finding_evidence_text(const struct finding_evidence *ev, char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    if (ev->kind == FINDING_EVIDENCE_VIEW) {
        str_appendf(buf, n, "%s %s %s", finding_view_name(ev->view), ev->table, ev->row);
        return;
    }
    str_appendf(buf, n, "timeline");
    if (ev->rank >= 0)
        str_appendf(buf, n, " rank=%lld", (long long)ev->rank);
    if (ev->stream >= 0)
        str_appendf(buf, n, " stream=%lld", (long long)ev->stream);
    str_appendf(buf, n, " %lld-%lld", (long long)ev->start_ns, (long long)ev->end_ns);
}

/* ---- helpers for the rules ---- */

void fctx_list_text(char *buf, size_t n, int64_t *v, size_t k)
{
    trust_list_text(buf, n, v, sort_unique_i64(v, k));
}

void fctx_name(const struct fctx *c, uint32_t name, char *buf, size_t n)
{
    const char *s = model_str(c->m, name);
    if (c->o->shorten_names)
        shorten_name(s, buf, n);
    else
        snprintf(buf, n, "%s", s);
}

void fctx_duration(char *buf, size_t n, double ns)
{
    if (ns < 1e3)
        snprintf(buf, n, "%.0f ns", ns);
    else if (ns < 1e6)
        snprintf(buf, n, "%.1f us", ns / 1e3);
    else if (ns < 1e9)
        snprintf(buf, n, "%.2f ms", ns / 1e6);
    else
        snprintf(buf, n, "%.2f s", ns / 1e9);
}

struct finding *fctx_add(struct fctx *c, enum finding_kind k)
{
    if (VEC_PUSH_SLOT(c->items, c->n, c->cap))
        return NULL;
    struct finding *f = &c->items[c->n++];
    memset(f, 0, sizeof *f);
    f->kind = k;
    f->evidence.kind = FINDING_EVIDENCE_TIMELINE;
    f->evidence.rank = -1;
    f->evidence.stream = -1;
    f->evidence.pos = MODEL_NONE;
    f->confidence = 1.0;
    return f;
}

void fctx_cost(const struct fctx *c, struct finding *f, double cost_ns)
{
    if (!(cost_ns > 0))
        cost_ns = 0;
    if (cost_ns > c->iter_ns)
        cost_ns = c->iter_ns;
    f->cost_ns = cost_ns;
    f->cost_share = c->iter_ns > 0 ? cost_ns / c->iter_ns : 0;
}

double fctx_per_iteration(const struct frank *fr, double lost_ns)
{
    return fr->nsteps ? lost_ns / (double)fr->nsteps : lost_ns;
}

int64_t fctx_in_steps(const struct frank *fr, int64_t s, int64_t e, int64_t *step)
{
    if (step)
        *step = -1;
    if (e <= s)
        return 0;
    if (!fr->steps)
        return e - s;
    // the first step ending after s (steps are by ts and do not overlap)
    size_t lo = 0, hi = fr->nsteps;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (fr->steps[mid].ts + fr->steps[mid].dur <= s)
            lo = mid + 1;
        else
            hi = mid;
    }
    int64_t in = 0;
    for (size_t i = lo; i < fr->nsteps && fr->steps[i].ts < e; i++) {
        int64_t a = s > fr->steps[i].ts ? s : fr->steps[i].ts;
        int64_t b = e < fr->steps[i].ts + fr->steps[i].dur ? e : fr->steps[i].ts + fr->steps[i].dur;
        if (b > a) {
            if (step && *step < 0)
                *step = fr->steps[i].number;
            in += b - a;
        }
    }
    return in;
}

/* Whether rank r is in a "3, 5-7" list; a list cut with "..." holds all. */
static bool list_has(const char *list, int64_t r)
{
    if (strstr(list, "..."))
        return true;
    const char *p = list;
    while (*p) {
        char *end;
        long long a = strtoll(p, &end, 10), b = a;
        if (end == p)
            return false;
        p = end;
        if (*p == '-') {
            b = strtoll(p + 1, &end, 10);
            p = end;
        }
        if (r >= a && r <= b)
            return true;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return false;
}

/* Whether trust finding t concerns some rank of the finding's list. */
static bool trust_touches(const struct trust_finding *t, const struct finding *f)
{
    if (t->check == TRUST_MISSING_RANKS || t->check == TRUST_MIXED_JOB || t->ranks[0] == '\0')
        return true;
    const char *p = f->ranks;
    while (*p) {
        char *end;
        long long a = strtoll(p, &end, 10), b = a;
        if (end == p)
            return true;   // "..." : the finding's ranks are too many to list
        p = end;
        if (*p == '-') {
            b = strtoll(p + 1, &end, 10);
            p = end;
        }
        for (long long r = a; r <= b && r - a < 4096; r++)
            if (list_has(t->ranks, r))
                return true;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return false;
}

double fctx_confidence(const struct fctx *c, const struct finding *f, double support)
{
    double v = support < 0 ? 0 : support > 1 ? 1 : support;
    for (size_t i = 0; c->trust && i < c->trust->n; i++)
        if (trust_touches(&c->trust->findings[i], f))
            v *= c->trust->findings[i].severe ? 0.5 : 0.8;
    return v;
}

/* ---- the job ---- */

/* fr's ProfilerSteps that the selection keeps (one of their events is a
 * selected row), by ts; the summary-only rank keeps all its steps. Holds
 * a set of the step numbers, not of the rows. */
static int kept_steps(struct frank *fr)
{
    const struct rank_model *r = fr->r;
    size_t n = r->niterations;
    if (n == 0)
        return 0;
    fr->steps = malloc(n * sizeof *fr->steps);
    int64_t *num = malloc(n * sizeof *num);
    bool *kept = calloc(n, sizeof *kept);
    if (!fr->steps || !num || !kept) {
        free(num);
        free(kept);
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        num[i] = r->iterations[i].number;
    size_t k = sort_unique_i64(num, n);
    int32_t last = MODEL_ITER_NONE;
    for (size_t i = 0; i < r->nrows; i++) {
        int32_t it = r->events[r->rows[i]].iteration;
        if (it >= 0 && it != last) {   // rows come mostly step by step
            size_t at = i64_set_find(num, k, it);
            if (at < k)
                kept[at] = true;
            last = it;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (!fr->has_events || kept[i64_set_find(num, k, r->iterations[i].number)])
            fr->steps[fr->nsteps++] = r->iterations[i];
    free(num);
    free(kept);
    if (fr->nsteps == 0) {
        free(fr->steps);
        fr->steps = NULL;
    }
    return 0;
}

/* The selected ranks and the iteration: the mean kept step, else the span. */
static int ctx_init(struct fctx *c)
{
    const struct model *m = c->m;
    c->ranks = calloc(m->nranks ? m->nranks : 1, sizeof *c->ranks);
    c->scratch = malloc((m->nranks ? m->nranks : 1) * sizeof *c->scratch);
    if (!c->ranks || !c->scratch || busy_classes_init(&c->classes, m, c->o))
        return ERR_NOMEM;
    double sum = 0;
    size_t steps = 0;
    int64_t s = INT64_MAX, e = INT64_MIN;
    for (size_t i = 0; i < m->nranks; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        struct frank *fr = &c->ranks[c->nranks++];
        fr->r = r;
        fr->rank = r->rank;
        fr->index = i;
        fr->exposed_ns = NAN;
        fr->has_events = !r->summary_only;
        fr->rows_rise = true;
        for (size_t j = 1; j < r->nrows && fr->rows_rise; j++)
            fr->rows_rise = r->rows[j - 1] < r->rows[j];
        if (kept_steps(fr))
            return ERR_NOMEM;
        for (size_t j = 0; j < fr->nsteps; j++)
            sum += (double)fr->steps[j].dur;
        steps += fr->nsteps;
        if (r->end_ns > r->start_ns) {
            s = r->start_ns < s ? r->start_ns : s;
            e = r->end_ns > e ? r->end_ns : e;
        }
    }
    c->iterations = c->nranks ? steps / c->nranks : 0;
    if (steps)
        c->iter_ns = sum / (double)steps;
    else
        c->iter_ns = e > s ? (double)(e - s) : 0;
    return 0;
}

void fctx_fini(struct fctx *c)
{
    for (size_t i = 0; i < c->nranks; i++)
        free(c->ranks[i].steps);
    free(c->ranks);
    free(c->items);
    free(c->scratch);
    free(c->kq);
    if (c->classes.m)
        busy_classes_fini(&c->classes);
    memset(c, 0, sizeof *c);
}

/* Problems before hot spots, then cost descending, then kind, then ranks. */
static int finding_cmp(const void *pa, const void *pb)
{
    const struct finding *a = pa, *b = pb;
    bool ha = finding_kind_is_hot_spot(a->kind), hb = finding_kind_is_hot_spot(b->kind);
    if (ha != hb)
        return ha ? 1 : -1;
    if (a->cost_ns != b->cost_ns)
        return a->cost_ns > b->cost_ns ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return strcmp(a->ranks, b->ranks);
}

typedef int (*rule_fn)(struct fctx *c, struct err *e);

/* The straggler's cause reads what findings_host leaves in each rank. */
static const rule_fn rules[] = {
    findings_exposed_comm, findings_host, findings_copies, findings_straggler,
    findings_imbalance, findings_slow_kernel, findings_bandwidth, findings_hot,
};

/* The note naming the kinds that needed events. */
static void needs_events_note(const struct fctx *c, struct findings *out)
{
    out->needs_events[0] = '\0';
    if (!c->needs_events)
        return;
    str_appendf(out->needs_events, sizeof out->needs_events, "read from summaries: ");
    bool first = true;
    for (int k = 0; k < FINDING_KIND_COUNT; k++)
        if (c->needs_events & (1u << k)) {
            str_appendf(out->needs_events, sizeof out->needs_events, "%s%s", first ? "" : ", ",
                        finding_kind_name((enum finding_kind)k));
            first = false;
        }
    str_appendf(out->needs_events, sizeof out->needs_events, " need the events");
}

int fctx_run(struct fctx *c, int rc, struct findings *out, struct err *e)
{
    if (rc)
        err_set(e, ERR_NOMEM, "findings: out of memory");
    // with no time to be a share of, no cost can be told
    for (size_t i = 0; rc == 0 && c->iter_ns > 0 && i < sizeof rules / sizeof rules[0]; i++)
        rc = rules[i](c, e);
    if (rc == 0 && c->n) {
        qsort(c->items, c->n, sizeof *c->items, finding_cmp);
        out->items = arena_alloc(c->a, c->n * sizeof *c->items);
        if (!out->items)
            rc = err_set(e, ERR_NOMEM, "findings: out of memory");
        else
            memcpy(out->items, c->items, c->n * sizeof *c->items);
        out->n = out->items ? c->n : 0;
    }
    out->iteration_ns = c->iter_ns;
    out->iterations = c->iterations;
    needs_events_note(c, out);
    fctx_fini(c);
    return rc;
}

int findings_of_model(const struct model *m, const struct analysis_opts *o,
                      const struct trust_report *trust, struct arena *a, struct findings *out,
                      struct err *e)
{
    memset(out, 0, sizeof *out);
    struct fctx c = {.m = m, .o = o, .trust = trust, .a = a};
    return fctx_run(&c, ctx_init(&c), out, e);
}

/* ---- the table ---- */

static const struct table_col findings_cols[] = {
    {"kind", NULL, COL_KEY},
    {"title", NULL, 0},
    {"cause", NULL, 0},
    {"cost_us", "us", 0},
    {"cost_share", NULL, COL_RATIO},
    {"ranks", NULL, 0},
    {"iterations", NULL, 0},
    {"start_ns", "ns", 0},
    {"end_ns", "ns", 0},
    {"evidence", NULL, 0},
    {"confidence", NULL, 0},
};

struct table *findings_table(const struct findings *f, struct arena *a)
{
    struct table *t = table_new(a, "findings", "Findings", findings_cols,
                                sizeof findings_cols / sizeof findings_cols[0]);
    if (!t || table_reserve(t, f->n))
        return NULL;
    for (size_t i = 0; i < f->n; i++) {
        const struct finding *x = &f->items[i];
        struct cell *row = table_add_row(t);
        char ev[FINDING_TABLE_TEXT + FINDING_KEY_TEXT + 32];
        finding_evidence_text(&x->evidence, ev, sizeof ev);
        row[0] = cell_str(t, finding_kind_name(x->kind));
        row[1] = cell_str(t, x->title);
        row[2] = cell_str(t, x->cause);
        row[3] = cell_double(round(x->cost_ns) / 1000.0);
        row[4] = cell_double(round(x->cost_share * 10000.0) / 10000.0);
        row[5] = cell_str(t, x->ranks);
        row[6] = cell_str(t, x->iterations);
        row[7] = cell_int(x->start_ns);
        row[8] = cell_int(x->end_ns);
        row[9] = cell_str(t, ev);
        row[10] = cell_double(round(x->confidence * 100.0) / 100.0);
    }
    if (f->n == 0 && f->needs_events[0] == '\0')
        table_set_note(t, "nothing found: no rule fired");
    else if (f->needs_events[0])
        table_set_note(t, "%s", f->needs_events);
    return t;
}

int findings_run(const struct model *m, const struct analysis_opts *o, struct arena *a,
                 struct table_list *out, struct err *e)
{
    struct trust_report own;
    const struct trust_report *trust = o->trust;
    if (!trust) {
        if (trust_of_model(m, &own))
            return err_set(e, ERR_NOMEM, "findings: out of memory");
        trust = &own;
    }
    struct findings f;
    int rc = findings_of_model(m, o, trust, a, &f, e);
    if (rc)
        return rc;
    struct table *t = findings_table(&f, a);
    if (!t)
        return err_set(e, ERR_NOMEM, "findings: out of memory");
    return table_list_add(out, t) ? err_set(e, ERR_NOMEM, "findings: too many tables") : 0;
}

/* ---- shared by the rules ---- */

struct finding *fctx_raise(struct fctx *c, enum finding_kind k, const struct fhit *hits, size_t n,
                           double min_share, size_t *worst, bool *nomem)
{
    size_t w = SIZE_MAX, hit = 0;
    double sum = 0, support = 0;
    *nomem = false;
    for (size_t i = 0; i < n; i++) {
        if (!(hits[i].per_iter > 0) || hits[i].per_iter < min_share * c->iter_ns)
            continue;
        c->scratch[hit++] = hits[i].rank;
        sum += hits[i].per_iter;
        support += hits[i].support;
        if (w == SIZE_MAX || hits[i].per_iter > hits[w].per_iter)
            w = i;
    }
    if (!hit)
        return NULL;
    struct finding *f = fctx_add(c, k);
    if (!f) {
        *nomem = true;
        return NULL;
    }
    const struct fhit *h = &hits[w];
    fctx_cost(c, f, sum / (double)hit);
    fctx_list_text(f->ranks, sizeof f->ranks, c->scratch, hit);
    if (h->step >= 0)
        snprintf(f->iterations, sizeof f->iterations, "%lld", (long long)h->step);
    f->start_ns = h->start;
    f->end_ns = h->end;
    f->evidence.rank = h->rank;
    f->evidence.stream = h->stream;
    f->evidence.start_ns = h->start;
    f->evidence.end_ns = h->end;
    f->evidence.pos = h->pos;
    f->confidence = fctx_confidence(c, f, support / (double)hit);
    *worst = w;
    return f;
}

/* Whether ev, a row at position pos, beats the best so far (best,
 * best_len) as fctx_cpu_op_during's answer; a tie goes to the earlier row. */
static bool op_beats(const struct event *ev, uint32_t pos, int64_t s, int64_t e, bool outer,
                     uint32_t best, int64_t best_len, int64_t *len)
{
    if (ev->kind != EV_KIND_CPU_OP || ev->ts >= e || ev->ts + ev->dur <= s)
        return false;
    if (outer) {
        int64_t a = ev->ts > s ? ev->ts : s;
        int64_t b = ev->ts + ev->dur < e ? ev->ts + ev->dur : e;
        *len = b - a;
    } else if (ev->ts <= s) {
        *len = ev->dur;
    } else {
        return false;
    }
    if (best_len < 0)
        return true;
    bool better = outer ? *len > best_len : *len < best_len;
    return better || (*len == best_len && pos < best);
}

/* The CPU-side events of thread (an index of m->pidtids), or NULL. */
static const struct thread_index *thread_of(const struct model *m, const struct rank_model *r,
                                            uint32_t thread)
{
    if (thread >= m->npidtids)
        return NULL;
    for (size_t i = 0; i < r->nthreads; i++)
        if (r->threads[i].pid == m->pidtids[thread].pid &&
            r->threads[i].tid == m->pidtids[thread].tid)
            return &r->threads[i];
    return NULL;
}

/* The first of t's events (by ts) starting after ts, or at it when at. */
static size_t thread_bound(const struct rank_model *r, const struct thread_index *t, int64_t ts,
                           bool at)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int64_t x = r->events[t->pos[mid]].ts;
        if (x < ts || (!at && x == ts))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The answer from the thread's index: the events holding s are the last
 * one starting at or before s and its ancestors (the nesting keeps an
 * event open until one starts at or after its end), the others start
 * within (s, e). With rows by position, the earlier row is the lower
 * position. */
static uint32_t op_in_thread(const struct rank_model *r, const struct thread_index *t, int64_t s,
                             int64_t e, bool outer)
{
    uint32_t best = MODEL_NONE;
    int64_t best_len = -1, len;
    size_t after = thread_bound(r, t, s, false);
    for (uint32_t v = after ? (uint32_t)(after - 1) : MODEL_NONE; v != MODEL_NONE;
         v = t->parent[v])
        if (op_beats(&r->events[t->pos[v]], t->pos[v], s, e, outer, best, best_len, &len)) {
            best = t->pos[v];
            best_len = len;
        }
    size_t end = thread_bound(r, t, e, true);
    for (size_t i = after; i < end; i++)
        if (op_beats(&r->events[t->pos[i]], t->pos[i], s, e, outer, best, best_len, &len)) {
            best = t->pos[i];
            best_len = len;
        }
    return best;
}

uint32_t fctx_cpu_op_during(const struct fctx *c, const struct frank *fr, uint32_t thread,
                            int64_t s, int64_t e, bool outer)
{
    const struct rank_model *r = fr->r;
    // a CPU op is CPU side, so in its thread's index, but under htx semantics only
    const struct thread_index *t = fr->rows_rise && !c->m->sem.gpu_side_is_stream_field &&
                                           !c->m->rows_only
                                       ? thread_of(c->m, r, thread)
                                       : NULL;
    if (t)
        return op_in_thread(r, t, s, e, outer);
    uint32_t best = MODEL_NONE;
    int64_t best_len = -1, len;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (ev->thread == thread &&
            op_beats(ev, UINT32_MAX, s, e, outer, best, best_len, &len)) {
            best = r->rows[i];
            best_len = len;
        }
    }
    return best;
}

static int double_cmp(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

double fctx_median(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, double_cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int fctx_colls(struct fctx *c, struct err *e)
{
    if (c->colls)
        return 0;
    for (size_t i = 0; i < c->nranks; i++)
        if (!c->ranks[i].has_events)
            return 0;   // from summaries the caller gives them, or there are none
    int rc = coll_analyze(c->m, c->o, c->a, &c->own_colls, e);
    if (rc == 0)
        c->colls = &c->own_colls;
    return rc;
}

static int kq_cmp(const void *pa, const void *pb)
{
    const struct kq *a = pa, *b = pb;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    return (a->rank_at > b->rank_at) - (a->rank_at < b->rank_at);
}

/* Adds fr's kernels to c->kq, one entry per name, by name: summed in
 * place through slot (the entry of a name id below nslot, UINT32_MAX for
 * none; left so), so that only one entry a name is sorted. */
static int rank_kernels(struct fctx *c, size_t at, size_t *cap, uint32_t *slot, size_t nslot)
{
    const struct frank *fr = &c->ranks[at];
    const struct rank_model *r = fr->r;
    size_t first = c->nkq;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (ev->kind != EV_KIND_KERNEL || !busy_is_gpu_event(c->m, ev))
            continue;
        if (fctx_in_steps(fr, ev->ts, ev->ts + ev->dur, NULL) <= 0)
            continue;
        if (ev->name < nslot && slot[ev->name] != UINT32_MAX) {
            struct kq *q = &c->kq[slot[ev->name]];
            q->count++;
            q->sum += ev->dur;
            continue;
        }
        if (c->nkq >= UINT32_MAX || VEC_PUSH_SLOT(c->kq, c->nkq, *cap))
            return ERR_NOMEM;
        if (ev->name < nslot)
            slot[ev->name] = (uint32_t)c->nkq;
        c->kq[c->nkq++] = (struct kq){ev->name, (uint32_t)at, 1, ev->dur};
    }
    for (size_t i = first; i < c->nkq; i++)
        if (c->kq[i].name < nslot)
            slot[c->kq[i].name] = UINT32_MAX;
    size_t n = c->nkq - first;
    if (n)
        qsort(c->kq + first, n, sizeof *c->kq, kq_cmp);
    size_t k = first;
    for (size_t i = first; i < c->nkq; i++) {
        if (k > first && c->kq[k - 1].name == c->kq[i].name) {
            c->kq[k - 1].count += c->kq[i].count;
            c->kq[k - 1].sum += c->kq[i].sum;
        } else {
            c->kq[k++] = c->kq[i];
        }
    }
    c->nkq = k;
    return 0;
}

int fctx_kernels(struct fctx *c)
{
    if (c->kq)
        return 0;
    size_t cap = 0, nslot = strtab_count(&c->m->strings);
    uint32_t *slot = malloc((nslot ? nslot : 1) * sizeof *slot);
    if (!slot)
        return ERR_NOMEM;
    memset(slot, 0xff, nslot * sizeof *slot);
    for (size_t i = 0; i < c->nranks; i++)
        if (c->ranks[i].has_events && rank_kernels(c, i, &cap, slot, nslot)) {
            free(slot);
            return ERR_NOMEM;
        }
    free(slot);
    if (!c->kq && VEC_PUSH_SLOT(c->kq, c->nkq, cap))   // made, though empty
        return ERR_NOMEM;
    if (c->nkq)
        qsort(c->kq, c->nkq, sizeof *c->kq, kq_cmp);
    return 0;
}
