#include "config.h"
#include "analysis/trust.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/clocks.h"
#include "util/sort.h"
#include "util/str.h"

/* ---- text of rank lists ---- */

/* Appends to buf (size n, always terminated) as snprintf would. */
/* Appends the run [a, b] to a "3, 5-7" list; "..." once the list is full. */
static void append_run(char *buf, size_t n, bool *first, int64_t a, int64_t b)
{
    size_t used = strnlen(buf, n);
    if (used >= n - 1 || (used >= 3 && strcmp(buf + used - 3, "...") == 0))
        return;
    char run[64];
    if (a == b)
        snprintf(run, sizeof run, "%s%lld", *first ? "" : ", ", (long long)a);
    else
        snprintf(run, sizeof run, "%s%lld%s%lld", *first ? "" : ", ", (long long)a,
                 b == a + 1 ? ", " : "-", (long long)b);
    if (used + strlen(run) + 6 > n)
        snprintf(run, sizeof run, "%s...", *first ? "" : ", ");
    str_appendf(buf, n, "%s", run);
    *first = false;
}

void trust_list_text(char *buf, size_t n, const int64_t *v, size_t k)
{
    buf[0] = '\0';
    bool first = true;
    for (size_t i = 0; i < k;) {
        size_t j = i;
        while (j + 1 < k && v[j + 1] == v[j] + 1)
            j++;
        append_run(buf, n, &first, v[i], v[j]);
        i = j + 1;
    }
}

static struct trust_finding *add(struct trust_report *r, enum trust_check c, bool severe,
                                 uint64_t count)
{
    struct trust_finding *f = &r->findings[r->n++];
    memset(f, 0, sizeof *f);
    f->check = c;
    f->severe = severe;
    f->count = count;
    return f;
}

/* ---- the job's ranks ---- */

/* The world size most ranks give (ties: the one given first), -1 if none. */
static int64_t job_world_size(const struct trust_rank *ranks, size_t n)
{
    int64_t best = -1;
    size_t best_count = 0;
    for (size_t i = 0; i < n; i++) {
        if (ranks[i].world_size <= 0)
            continue;
        size_t count = 0;
        for (size_t j = 0; j < n && count <= n / 2; j++)
            count += ranks[j].world_size == ranks[i].world_size;
        if (count > best_count) {
            best = ranks[i].world_size;
            best_count = count;
        }
        if (best_count > n / 2)
            break;
    }
    return best;
}

/* "7 of 8 ranks: rank 3 missing": the ranks below the world size no file
 * holds. sorted[0..n): the ranks, ascending, without repeats. */
static void check_missing(const int64_t *sorted, size_t n, int64_t world, struct trust_report *r)
{
    if (world <= 0)
        return;
    size_t present = 0;
    for (size_t i = 0; i < n; i++)
        present += sorted[i] >= 0 && sorted[i] < world;
    if ((int64_t)present == world)
        return;
    uint64_t missing = (uint64_t)world - present;
    struct trust_finding *f = add(r, TRUST_MISSING_RANKS, true, missing);
    bool first = true;
    int64_t next = 0;   // the lowest rank not yet accounted for
    for (size_t i = 0; i <= n; i++) {
        int64_t upto = i < n ? sorted[i] : world;
        if (upto < next)
            continue;
        if (upto > world)
            upto = world;
        if (upto > next)
            append_run(f->ranks, sizeof f->ranks, &first, next, upto - 1);
        next = upto + 1;
        if (next >= world)
            break;
    }
    char list[TRUST_RANKS_TEXT];
    memcpy(list, f->ranks, sizeof list);
    snprintf(f->text, sizeof f->text, "%zu of %lld ranks: rank%s %s missing", present,
             (long long)world, missing == 1 ? "" : "s", list);
}

/* Variants of the process groups the ranks list: a group name with its
 * size and ranks, and how many ranks list it so. */
#define TRUST_MAX_VARIANTS 256
struct pg_variant {
    const struct trace_pg *pg;
    size_t count;
};

static bool same_pg(const struct trace_pg *a, const struct trace_pg *b)
{
    return strcmp(a->name, b->name) == 0 && a->size == b->size && a->ranks_hash == b->ranks_hash;
}

static size_t pg_variants(const struct trust_rank *ranks, size_t n, struct pg_variant *v)
{
    size_t nv = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < ranks[i].npgs; k++) {
            size_t j = 0;
            while (j < nv && !same_pg(v[j].pg, &ranks[i].pgs[k]))
                j++;
            if (j == nv) {
                if (nv == TRUST_MAX_VARIANTS)
                    return 0;   // too many to tell a job by: not compared
                v[nv++] = (struct pg_variant){&ranks[i].pgs[k], 0};
            }
            v[j].count++;
        }
    return nv;
}

/* Whether pg is the variant of its name most ranks list (ties: the first). */
static bool common_pg(const struct pg_variant *v, size_t nv, const struct trace_pg *pg)
{
    const struct pg_variant *best = NULL, *mine = NULL;
    for (size_t j = 0; j < nv; j++) {
        if (strcmp(v[j].pg->name, pg->name) != 0)
            continue;
        if (!best || v[j].count > best->count)
            best = &v[j];
        if (same_pg(v[j].pg, pg))
            mine = &v[j];
    }
    return !mine || mine == best;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The lower median of the ranks' first events, or false when none has one
 * (or out of memory: the time check is then skipped). */
static bool median_start(const struct trust_rank *ranks, size_t n, int64_t *out)
{
    int64_t *v = malloc((n ? n : 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = 0; v && i < n; i++)
        if (ranks[i].has_start)
            v[k++] = ranks[i].start_ns;
    bool ok = v && k > 0;
    if (ok) {
        qsort(v, k, sizeof *v, cmp_i64);
        *out = v[(k - 1) / 2];
    }
    free(v);
    return ok;
}

static int64_t abs_diff(int64_t a, int64_t b)
{
    uint64_t d = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
    return d > INT64_MAX ? INT64_MAX : (int64_t)d;
}

/* Why rank r is not of the job (into why, empty when it is). */
static void foreign_reason(const struct trust_rank *r, int64_t world, const struct pg_variant *v,
                           size_t nv, bool has_median, int64_t median, char *why, size_t n)
{
    why[0] = '\0';
    if (world > 0 && r->world_size > 0 && r->world_size != world) {
        snprintf(why, n, "world size %lld, not %lld", (long long)r->world_size, (long long)world);
        return;
    }
    if (world > 0 && (r->rank < 0 || r->rank >= world)) {
        snprintf(why, n, "rank %lld outside world size %lld", (long long)r->rank,
                 (long long)world);
        return;
    }
    for (size_t k = 0; k < r->npgs; k++)
        if (!common_pg(v, nv, &r->pgs[k])) {
            snprintf(why, n, "process group \"%s\" differs", r->pgs[k].name);
            return;
        }
    if (has_median && r->has_start && abs_diff(r->start_ns, median) > TRUST_TIME_APART_NS) {
        double h = (double)abs_diff(r->start_ns, median) / 3.6e12;
        snprintf(why, n, "starts %.1f h %s the others", h,
                 r->start_ns > median ? "after" : "before");
    }
}

/* Ranks that say they belong to another job: another world size, a rank
 * outside it, a process group other ranks list otherwise, or a trace
 * started far from the others'. */
static void check_mixed(const struct trust_rank *ranks, size_t n, int64_t world,
                        struct trust_report *r)
{
    struct pg_variant *v = malloc(TRUST_MAX_VARIANTS * sizeof *v);
    size_t nv = v ? pg_variants(ranks, n, v) : 0;
    int64_t median = 0;
    bool has_median = median_start(ranks, n, &median);
    int64_t *odd = malloc((n ? n : 1) * sizeof *odd);
    size_t nodd = 0;
    char first[128] = "", why[128];
    int64_t first_rank = 0;
    for (size_t i = 0; odd && i < n; i++) {
        foreign_reason(&ranks[i], world, v, nv, has_median, median, why, sizeof why);
        if (!why[0])
            continue;
        if (!first[0] || ranks[i].rank < first_rank) {
            memcpy(first, why, sizeof first);
            first_rank = ranks[i].rank;
        }
        odd[nodd++] = ranks[i].rank;
    }
    if (nodd) {
        nodd = sort_unique_i64(odd, nodd);
        struct trust_finding *f = add(r, TRUST_MIXED_JOB, true, nodd);
        trust_list_text(f->ranks, sizeof f->ranks, odd, nodd);
        if (nodd == 1)
            snprintf(f->text, sizeof f->text, "rank %lld is of another job: %s",
                     (long long)first_rank, first);
        else {
            char list[TRUST_RANKS_TEXT];
            memcpy(list, f->ranks, sizeof list);
            snprintf(f->text, sizeof f->text, "%zu ranks are of another job (%s; rank %lld: %s)",
                     nodd, list, (long long)first_rank, first);
        }
    }
    free(odd);
    free(v);
}

enum counted { COUNT_DROPPED, COUNT_OVERLAPPING, COUNT_GRAPH_KERNELS };

static uint64_t count_of(const struct trust_rank *r, enum counted what)
{
    switch (what) {
    case COUNT_DROPPED:
        return r->dropped + r->repaired;
    case COUNT_OVERLAPPING:
        return r->overlapping;
    default:
        return r->graph_kernels;
    }
}

/* The ranks with a nonzero count of what as text, and the total. */
static uint64_t ranks_with(const struct trust_rank *ranks, size_t n, enum counted what, char *buf,
                           size_t cap)
{
    int64_t *v = malloc((n ? n : 1) * sizeof *v);
    uint64_t total = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t c = count_of(&ranks[i], what);
        if (c == 0)
            continue;
        total = total + c < total ? UINT64_MAX : total + c;
        if (v)
            v[k++] = ranks[i].rank;
    }
    buf[0] = '\0';
    if (v)
        trust_list_text(buf, cap, v, sort_unique_i64(v, k));
    free(v);
    return total;
}

/* Events the load skipped (malformed, out of range) or kept with a field
 * read as absent: the figures are of the others. */
static void check_dropped(const struct trust_rank *ranks, size_t n, struct trust_report *r)
{
    char list[TRUST_RANKS_TEXT];
    uint64_t total = ranks_with(ranks, n, COUNT_DROPPED, list, sizeof list);
    if (total == 0)
        return;
    uint64_t dropped = 0, repaired = 0;
    for (size_t i = 0; i < n; i++) {
        dropped += ranks[i].dropped;
        repaired += ranks[i].repaired;
    }
    struct trust_finding *f = add(r, TRUST_DROPPED_EVENTS, false, total);
    memcpy(f->ranks, list, sizeof list);
    char what[128];
    if (dropped && repaired)
        snprintf(what, sizeof what, "%llu event%s dropped (malformed or out of range) and %llu "
                 "repaired (a field read as absent)", (unsigned long long)dropped,
                 dropped == 1 ? "" : "s", (unsigned long long)repaired);
    else if (dropped)
        snprintf(what, sizeof what, "%llu event%s dropped (malformed or out of range)",
                 (unsigned long long)dropped, dropped == 1 ? "" : "s");
    else
        snprintf(what, sizeof what, "%llu event%s repaired (a field read as absent)",
                 (unsigned long long)repaired, repaired == 1 ? "" : "s");
    snprintf(f->text, sizeof f->text, "%s at load: rank%s %s", what,
             strchr(list, ',') || strchr(list, '-') ? "s" : "", list);
}

/* GPU events starting before the one before them on their stream ended:
 * kept, and counted once by the unions, in full by the sums (TRUST in the
 * man page says which analysis does what). */
static void check_overlapping(const struct trust_rank *ranks, size_t n, struct trust_report *r)
{
    char list[TRUST_RANKS_TEXT];
    uint64_t total = ranks_with(ranks, n, COUNT_OVERLAPPING, list, sizeof list);
    if (total == 0)
        return;
    struct trust_finding *f = add(r, TRUST_OVERLAPPING_EVENTS, false, total);
    memcpy(f->ranks, list, sizeof list);
    snprintf(f->text, sizeof f->text, "%llu GPU event%s overlapping the one before on %s "
             "stream (kept): rank%s %s", (unsigned long long)total, total == 1 ? "" : "s",
             total == 1 ? "its" : "their", strchr(list, ',') || strchr(list, '-') ? "s" : "",
             list);
}

/* GPU work CUDA or HIP graphs launched: one runtime call, many kernels.
 * Their launch delay is the graph's: the launch statistics flag them and
 * leave them out of the delay outliers (htx's semantics). */
static void check_graphs(const struct trust_rank *ranks, size_t n, struct trust_report *r)
{
    char list[TRUST_RANKS_TEXT];
    uint64_t total = ranks_with(ranks, n, COUNT_GRAPH_KERNELS, list, sizeof list);
    if (total == 0)
        return;
    uint64_t launches = 0;
    for (size_t i = 0; i < n; i++)
        launches += ranks[i].graph_launches;
    struct trust_finding *f = add(r, TRUST_GRAPH_LAUNCHES, false, total);
    memcpy(f->ranks, list, sizeof list);
    snprintf(f->text, sizeof f->text, "%llu GPU event%s from %llu CUDA/HIP graph launch%s "
             "(launch delays are the graph's): rank%s %s", (unsigned long long)total,
             total == 1 ? "" : "s", (unsigned long long)launches, launches == 1 ? "" : "es",
             strchr(list, ',') || strchr(list, '-') ? "s" : "", list);
}

/* "5.00 ms", "120 us", "800 ns". */
static void duration_text(char *buf, size_t n, int64_t ns)
{
    double a = ns < 0 ? -(double)ns : (double)ns;
    if (a >= 1e9)
        snprintf(buf, n, "%.2f s", a / 1e9);
    else if (a >= 1e6)
        snprintf(buf, n, "%.2f ms", a / 1e6);
    else if (a >= 1e3)
        snprintf(buf, n, "%.0f us", a / 1e3);
    else
        snprintf(buf, n, "%.0f ns", a);
}

/* Ranks whose clock disagrees with the reference rank's beyond what one
 * collective allows: their collectives end off the others' (another host's
 * clock). Named with the largest; --align=collectives shifts them. */
static void check_clocks(const struct trust_rank *ranks, size_t n, struct trust_report *r)
{
    int64_t *v = malloc((n ? n : 1) * sizeof *v);
    size_t k = 0, worst = SIZE_MAX;
    bool aligned = false;
    for (size_t i = 0; v && i < n; i++) {
        if (!ranks[i].clock_skewed)
            continue;
        v[k++] = ranks[i].rank;
        aligned |= ranks[i].clock_aligned;
        if (worst == SIZE_MAX ||
            abs_diff(ranks[i].clock_skew_ns, 0) > abs_diff(ranks[worst].clock_skew_ns, 0))
            worst = i;
    }
    if (k == 0) {
        free(v);
        return;
    }
    struct trust_finding *f = add(r, TRUST_CLOCK_SKEW, false, k);
    trust_list_text(f->ranks, sizeof f->ranks, v, sort_unique_i64(v, k));
    free(v);
    const struct trust_rank *w = &ranks[worst];
    char size[32], allow[32], who[96];
    duration_text(size, sizeof size, w->clock_skew_ns);
    duration_text(allow, sizeof allow, w->clock_allowance_ns);
    who[0] = '\0';   // (append: a part may be cut, never overrun)
    if (k == 1)
        str_appendf(who, sizeof who, "rank %lld's clock is", (long long)w->rank);
    else
        str_appendf(who, sizeof who, "%zu ranks' clocks are off by up to %s: rank %lld's is", k,
               size, (long long)w->rank);
    str_appendf(f->text, sizeof f->text, "%s %s %s rank %lld's (median over %llu matched "
           "collectives; one allows %s): %s", who, size,
           w->clock_skew_ns > 0 ? "ahead of" : "behind", (long long)w->clock_reference,
           (unsigned long long)w->clock_collectives, allow,
           aligned ? "aligned by --align=collectives" : "--align=collectives aligns the clocks");
}

void trust_check(const struct trust_rank *ranks, size_t n, struct trust_report *out)
{
    memset(out, 0, sizeof *out);
    out->world_size = job_world_size(ranks, n);
    int64_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (sorted) {
        for (size_t i = 0; i < n; i++)
            sorted[i] = ranks[i].rank;
        check_missing(sorted, sort_unique_i64(sorted, n), out->world_size, out);
        free(sorted);
    }
    check_mixed(ranks, n, out->world_size, out);
    check_dropped(ranks, n, out);
    check_overlapping(ranks, n, out);
    check_graphs(ranks, n, out);
    check_clocks(ranks, n, out);
}

/* ---- facts of a model ---- */

static bool is_gpu_work(const struct event *ev)
{
    return ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY || ev->kind == EV_KIND_MEMSET;
}

/* A kernel, memcpy or memset on a stream, for the overlap count. */
struct work {
    int64_t stream, ts, end;
    uint32_t index;
};

static int cmp_work(const void *a, const void *b)
{
    const struct work *x = a, *y = b;
    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The overlap count over w[0..k) sorted by (stream, ts, index). */
static uint64_t count_sorted(const struct work *w, size_t k)
{
    uint64_t n = 0;
    int64_t max_end = 0;
    for (size_t i = 0; i < k; i++) {
        bool first = i == 0 || w[i].stream != w[i - 1].stream;
        n += !first && w[i].ts < max_end;
        max_end = first || w[i].end > max_end ? w[i].end : max_end;
    }
    return n;
}

/* A stream's state in the one pass of scan_in_file_order. */
struct stream_run {
    int64_t stream, ts, max_end;
    uint32_t index;
};
#define TRUST_RUN_STREAMS 64

/* One pass over r's events (at least one): *first, the smallest ts; and
 * the overlap count in *out where each stream's work comes in (ts, index)
 * order in the file (as the profiler writes it) and there are at most
 * TRUST_RUN_STREAMS streams: then no sort is needed. False when the events
 * are not so (count_sorted then counts). */
static bool scan_in_file_order(const struct rank_model *r, uint64_t *out, int64_t *first)
{
    struct stream_run runs[TRUST_RUN_STREAMS];
    size_t nruns = 0, at = 0;
    uint64_t n = 0;
    bool ordered = true;
    int64_t t = r->events[0].ts;
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        t = ev->ts < t ? ev->ts : t;
        if (!ordered || !is_gpu_work(ev) || ev->stream < 0)
            continue;
        if (at >= nruns || runs[at].stream != ev->stream) {
            for (at = 0; at < nruns && runs[at].stream != ev->stream; at++)
                ;
            if (at == nruns) {
                ordered = nruns < TRUST_RUN_STREAMS;
                if (ordered)
                    runs[nruns++] = (struct stream_run){ev->stream, ev->ts, ev->ts + ev->dur,
                                                        ev->index};
                continue;
            }
        }
        struct stream_run *s = &runs[at];
        if (ev->ts < s->ts || (ev->ts == s->ts && ev->index <= s->index)) {
            ordered = false;
            continue;
        }
        n += ev->ts < s->max_end;
        s->max_end = ev->ts + ev->dur > s->max_end ? ev->ts + ev->dur : s->max_end;
        s->ts = ev->ts;
        s->index = ev->index;
    }
    *first = t;
    *out = n;
    return ordered;
}

/* Kernels, memcpys and memsets of every event of r (whatever the
 * selection and the semantics: a fact of the trace, as a summary records
 * it) starting before the latest end of those before them on their stream
 * (ties in file order). Sync events on a stream are not GPU work. 0 when
 * out of memory (the count is then not shown). With r's smallest ts in
 * *first (r has events). */
static uint64_t overlapping_work(const struct rank_model *r, int64_t *first)
{
    uint64_t n;
    if (scan_in_file_order(r, &n, first))
        return n;
    size_t k = 0;
    for (size_t i = 0; i < r->nevents; i++)
        k += is_gpu_work(&r->events[i]) && r->events[i].stream >= 0;
    struct work *w = k ? malloc(k * sizeof *w) : NULL;
    if (!w)
        return 0;
    k = 0;
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        if (is_gpu_work(ev) && ev->stream >= 0)
            w[k++] = (struct work){ev->stream, ev->ts, ev->ts + ev->dur, ev->index};
    }
    qsort(w, k, sizeof *w, cmp_work);
    n = count_sorted(w, k);
    free(w);
    return n;
}

void trust_rank_of(const struct model *m, const struct rank_model *r, struct trust_rank *out)
{
    *out = (struct trust_rank){.rank = r->rank, .world_size = r->world_size, .pgs = r->pgs,
                               .npgs = r->npgs > 0 ? (size_t)r->npgs : 0,
                               .dropped = r->events_dropped, .repaired = r->events_repaired,
                               .graph_kernels = r->graph_kernels,
                               .graph_launches = r->ngraph_launches};
    int64_t first;
    if (r->nevents) {   // the first event's absolute time, from its smallest ts
        out->overlapping = overlapping_work(r, &first);
        out->has_start = true;
        out->start_ns = first + m->origin_ns;
    }
}

/* The ranks' clocks from m's matched collectives (analysis/clocks.h): the
 * skew as loaded is what remains plus what --align took off. A job of one
 * rank has nothing to compare. */
static int clocks_of_model(const struct model *m, struct trust_rank *v)
{
    if (m->nranks < 2)
        return 0;
    struct clock_estimate c;
    struct err e = {0, ""};
    if (clock_estimate(m, &c, &e) < 0)
        return ERR_NOMEM;
    for (size_t i = 0; i < m->nranks; i++)
        v[i].clock_skew_ns = m->ranks[i].clock_shift_ns;
    trust_clocks_of(&c, v, m->nranks);
    clock_estimate_fini(&c);
    return 0;
}

void trust_clocks_of(const struct clock_estimate *c, struct trust_rank *v, size_t n)
{
    for (size_t i = 0; c->reference >= 0 && i < n && i < c->nranks; i++) {
        const struct clock_rank *cr = &c->ranks[i];
        int64_t shift = v[i].clock_skew_ns;
        if (cr->collectives == 0)
            continue;
        v[i].clock_reference = c->reference;
        v[i].clock_skew_ns = cr->offset_ns + shift;
        v[i].clock_allowance_ns = cr->allowance_ns;
        v[i].clock_collectives = cr->collectives;
        v[i].clock_aligned = shift != 0;
        v[i].clock_skewed = abs_diff(v[i].clock_skew_ns, 0) > cr->allowance_ns;
    }
}

int trust_ranks_of_model(const struct model *m, struct trust_rank **out)
{
    struct trust_rank *v = calloc(m->nranks ? m->nranks : 1, sizeof *v);
    if (!v)
        return ERR_NOMEM;
    for (size_t i = 0; i < m->nranks; i++)
        trust_rank_of(m, &m->ranks[i], &v[i]);
    if (clocks_of_model(m, v) < 0) {
        free(v);
        return ERR_NOMEM;
    }
    *out = v;
    return 0;
}

int trust_of_model(const struct model *m, struct trust_report *out)
{
    struct trust_rank *v;
    if (trust_ranks_of_model(m, &v) < 0)
        return ERR_NOMEM;
    trust_check(v, m->nranks, out);
    free(v);
    return 0;
}

const char *trust_check_name(enum trust_check c)
{
    static const char *const names[TRUST_CHECK_COUNT] = {
        "missing_ranks", "mixed_job", "dropped_events", "overlapping_events",
        "graph_launches", "clock_skew",
    };
    return c < TRUST_CHECK_COUNT ? names[c] : "?";
}

bool trust_severe(const struct trust_report *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->findings[i].severe)
            return true;
    return false;
}

struct table *trust_table(const struct trust_report *r, struct arena *a)
{
    static const struct table_col cols[] = {
        {"check", NULL, COL_KEY}, {"severe", NULL, 0}, {"count", NULL, 0},
        {"ranks", NULL, 0}, {"message", NULL, 0},
    };
    struct table *t = table_new(a, "trust", "What htx could not trust", cols,
                                sizeof cols / sizeof cols[0]);
    for (size_t i = 0; t && i < r->n; i++) {
        const struct trust_finding *f = &r->findings[i];
        struct cell *row = table_add_row(t);
        if (!row)
            return NULL;
        row[0] = cell_str(t, trust_check_name(f->check));
        row[1] = cell_bool(f->severe);
        row[2] = cell_int((int64_t)f->count);
        row[3] = cell_str(t, f->ranks);
        row[4] = cell_str(t, f->text);
        if (row[0].type != CELL_STR || row[3].type != CELL_STR || row[4].type != CELL_STR)
            return NULL;   // out of memory (cell_str)
    }
    return t;
}
