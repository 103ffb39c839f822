#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/idle.h"
#include "analysis/busy.h"
#include "util/hmap.h"
#include "util/memory.h"
#include "util/sort.h"
#include "util/vec.h"
#include "analysis/argsort.h"
#include "analysis/stats.h"

/* §3.4 idle time breakdown: every gap before a kernel on its stream is
 * blamed on the host (the launch came after the previous kernel ended), on
 * the kernel queue (a short gap) or on something else.
 *
 * HTA analyses rank 0 unless told otherwise; we do every selected rank. A
 * rank without kernels makes HTA fail ("No objects to concatenate"); we give
 * it no rows and name it in the note. */

static const struct table_col idle_cols[] = {
    {"rank", NULL, COL_KEY},
    {"stream", NULL, COL_KEY},
    {"idle_category", NULL, COL_KEY},
    {"idle_time", "us", 0},
    {"idle_time_ratio", NULL, COL_RATIO},
};

static const struct table_col stats_cols[] = {
    {"rank", NULL, COL_KEY},
    {"stream", NULL, COL_KEY},
    {"idle_category", NULL, COL_KEY},
    {"count", NULL, 0},
    {"mean", "us", 0},
    {"std", "us", 0},
    {"min", "us", 0},
    {"25%", "us", 0},
    {"50%", "us", 0},
    {"75%", "us", 0},
    {"max", "us", 0},
};

#define IDLE_CATS IDLE_CATEGORIES
static const char *const cat_names[IDLE_CATS] = {"host_wait", "kernel_wait", "other"};

const char *idle_category_name(enum idle_category c)
{
    return (unsigned)c < IDLE_CATS ? cat_names[c] : "";
}

struct idle_out {
    struct table *times, *stats;
};


/* §3.4's kernels: GPU side and a kernel/memcpy/memset category. */
static bool is_idle_kernel(const struct model *m, const struct event *ev)
{
    return model_is_gpu_side(m, ev) &&
           (ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY ||
            ev->kind == EV_KIND_MEMSET);
}

/* Per stream: gaps (us, NaN for the first) and their categories; pos,
 * when not NULL, receives the kernels' positions in the same (time) order. */
struct stream_gaps {
    double *gap;
    uint8_t *cat;
    uint32_t *pos;
    size_t n;
};

/* The start of HTA's row 0, the first kept event of the file (lowest
 * index), or NaN when the filter dropped it. */
static double first_event_ts(const struct rank_model *r, const uint8_t *in_rows)
{
    size_t first = SIZE_MAX;
    for (size_t i = 0; i < r->nevents; i++)
        if (first == SIZE_MAX || r->events[i].index < r->events[first].index)
            first = i;
    return first != SIZE_MAX && in_rows[first] ? (double)r->events[first].ts : NAN;
}

/* HTA's row 0's start (first_event_ts), found when a kernel first asks:
 * a pass over every event, which most traces (every kernel launched) never
 * need. */
struct label0 {
    bool found;
    double ts;
};

/* ts of the launch (NaN without index_correlation > 0 or when the launch is
 * not in the filtered table). Under idle_launch_label0, index_correlation 0
 * (no launch in the trace) finds HTA's row 0 instead: the start of the
 * first kept event, NaN when that event was filtered out. */
static double launch_ts(const struct model *m, const struct rank_model *r,
                        const struct event *ev, const uint8_t *in_rows, struct label0 *label0)
{
    int64_t ic = model_index_correlation(r, ev);
    if (ic == 0 && m->sem.idle_launch_label0) {
        if (!label0->found)
            label0->ts = first_event_ts(r, in_rows);
        label0->found = true;
        return label0->ts;
    }
    if (ic <= 0 || !in_rows[ev->partner])
        return NAN;
    return (double)r->events[ev->partner].ts;
}

/* Whether the stream's kernels k[0..n) (positions in rank->events) are
 * theirs as they come: in order of start, and, under HTA's unstable sort,
 * equal starts only between copies of one kernel (HTA's duplicated rows:
 * numpy's order of them can only swap copies, which categorise alike).
 * Most streams are, and then need no sort. */
static bool in_start_order(const struct model *m, const struct rank_model *r, const uint32_t *k,
                           size_t n)
{
    for (size_t i = 1; i < n; i++) {
        int64_t a = r->events[k[i - 1]].ts, b = r->events[k[i]].ts;
        if (b < a || (b == a && m->sem.unstable_sort && k[i] != k[i - 1]))
            return false;
    }
    return true;
}

/* The order of start of the kernels k[0..n) (HTA's sort), in *perm (caller
 * frees); NULL when they are in it already. */
static int start_order(const struct model *m, const struct rank_model *r, const uint32_t *k,
                       size_t n, size_t **perm)
{
    *perm = NULL;
    if (in_start_order(m, r, k, n))
        return 0;
    int64_t *ts = util_alloc_resident(n, sizeof *ts);
    *perm = util_alloc_resident(n, sizeof **perm);
    int rc = ts && *perm ? 0 : ERR_NOMEM;
    for (size_t i = 0; rc == 0 && i < n; i++)
        ts[i] = r->events[k[i]].ts;
    if (rc == 0) {
        argsort_identity(*perm, n);
        rc = sort_argsort(m->sem.unstable_sort, *perm, n, ts, less_i64);
    }
    free(ts);
    if (rc) {
        free(*perm);
        *perm = NULL;
    }
    return rc;
}

/* Categorises the kernels k[0..n) of one stream (filtered-table order). */
static int stream_categorise(const struct model *m, const struct analysis_opts *o,
                             const struct rank_model *r, const uint32_t *k, size_t n,
                             const uint8_t *in_rows, struct label0 *label0, struct stream_gaps *g)
{
    size_t *perm;
    int rc = start_order(m, r, k, n, &perm);
    double prev_end = NAN;   /* ns, as double so that "none" is NaN */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        uint32_t pos = k[perm ? perm[i] : i];
        const struct event *ev = &r->events[pos];
        double gap = (double)ev->ts - prev_end;
        double launch = launch_ts(m, r, ev, in_rows, label0);
        if (launch > prev_end)   /* false when either is NaN */
            g->cat[i] = IDLE_HOST_WAIT;
        else if (gap < (double)o->consecutive_kernel_delay_ns)
            g->cat[i] = IDLE_KERNEL_WAIT;
        else
            g->cat[i] = IDLE_OTHER;
        g->gap[i] = gap / 1000.0;
        if (g->pos)
            g->pos[i] = pos;
        prev_end = (double)(ev->ts + ev->dur);
    }
    g->n = n;
    free(perm);
    return rc;
}

static int add_stats_row(struct table *t, int64_t rank, int64_t stream, enum idle_category c,
                         double *gaps, size_t n)
{
    struct describe d;
    describe_values(gaps, n, &d);
    struct cell *row = table_add_row(t);
    if (!row)
        return ERR_NOMEM;
    double v[8] = {d.count, d.mean, d.std, d.min, d.p25, d.p50, d.p75, d.max};
    row[0] = cell_int(rank);
    row[1] = cell_int(stream);
    row[2] = cell_str(t, cat_names[c]);
    for (int i = 0; i < 8; i++)
        row[3 + i] = cell_double(hta_round(v[i], 2));
    return 0;
}

/* Writes the stream's rows: categories that occur, in fixed order. */
static int stream_rows(const struct stream_gaps *g, int64_t rank, int64_t stream,
                       struct idle_out *out)
{
    double sum[IDLE_CATS] = {0, 0, 0}, total = 0;
    size_t count[IDLE_CATS] = {0, 0, 0};
    for (size_t i = 0; i < g->n; i++) {
        count[g->cat[i]]++;
        if (!isnan(g->gap[i]))
            sum[g->cat[i]] += g->gap[i];
    }
    for (int c = 0; c < IDLE_CATS; c++)
        total += sum[c];
    double *buf = malloc((g->n ? g->n : 1) * sizeof *buf);
    if (!buf)
        return ERR_NOMEM;
    int rc = 0;
    for (int c = 0; c < IDLE_CATS && rc == 0; c++) {
        if (!count[c])
            continue;
        struct cell *row = table_add_row(out->times);
        if (!row) {
            rc = ERR_NOMEM;
            break;
        }
        row[0] = cell_int(rank);
        row[1] = cell_int(stream);
        row[2] = cell_str(out->times, cat_names[c]);
        row[3] = cell_double(hta_round(sum[c], 2));
        row[4] = cell_double(total != 0 ? hta_round(sum[c] / total, 2) : NAN);
        size_t k = 0;
        for (size_t i = 0; i < g->n; i++)
            if (g->cat[i] == c)
                buf[k++] = g->gap[i];
        rc = add_stats_row(out->stats, rank, stream, (enum idle_category)c, buf, k);
    }
    free(buf);
    return rc;
}

/* One stream's kernels: k[start..end) of the rank's kernel positions. */
struct sgroup {
    int64_t stream;
    size_t start, end;
};

/* The stream's dense number (in order of first appearance), the last one
 * remembered: a rank's kernels come in runs of one stream. */
struct stream_slots {
    struct hmap of;
    int64_t last;
    uint32_t last_slot, n;
};

static int stream_slot(struct stream_slots *ss, int64_t stream, uint32_t *slot)
{
    if (ss->last_slot != UINT32_MAX && stream == ss->last)
        return *slot = ss->last_slot, 0;
    bool added;
    if (ss->n == UINT32_MAX - 1 || hmap_number(&ss->of, stream, ss->n, slot, &added))
        return ERR_NOMEM;
    ss->n += added;
    ss->last = stream;
    ss->last_slot = *slot;
    return 0;
}

/* The rank's kernels in filtered-table order: their positions and stream
 * slots (*kpos, *kslot: caller frees), each slot's count in *fill and
 * stream in *stream_of, in one pass over the rows. */
struct kernel_rows {
    uint32_t *kpos, *kslot;
    size_t n, cap;
    size_t *fill;
    int64_t *stream_of;
    size_t nslots, fill_cap, stream_cap;
};

static int kernel_rows(const struct model *m, const struct rank_model *r,
                       struct stream_slots *ss, struct kernel_rows *kr)
{
    int rc = 0;
    for (size_t i = 0; i < r->nrows && !rc; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (!is_idle_kernel(m, ev))
            continue;
        uint32_t slot;
        size_t had = kr->fill_cap, cap = kr->cap;
        if ((rc = stream_slot(ss, ev->stream, &slot)) == 0 && slot >= kr->fill_cap &&
            (rc = vec_reserve((void **)&kr->fill, &kr->fill_cap, sizeof *kr->fill,
                              (size_t)slot + 1)) == 0)
            memset(kr->fill + had, 0, (kr->fill_cap - had) * sizeof *kr->fill);
        if (!rc && slot >= kr->stream_cap)
            rc = vec_reserve((void **)&kr->stream_of, &kr->stream_cap, sizeof *kr->stream_of,
                             (size_t)slot + 1);
        if (!rc && kr->n == kr->cap &&
            (rc = vec_reserve((void **)&kr->kpos, &cap, sizeof *kr->kpos, kr->n + 1)) == 0)
            rc = vec_reserve((void **)&kr->kslot, &kr->cap, sizeof *kr->kslot, kr->n + 1);
        if (!rc) {
            kr->stream_of[slot] = ev->stream;
            kr->fill[slot]++;
            kr->kpos[kr->n] = r->rows[i];
            kr->kslot[kr->n++] = slot;
        }
    }
    kr->nslots = ss->n;
    return rc;
}

/* The rank's *nk kernels grouped by stream (each group in filtered-table
 * order), groups in order of first appearance: found in one pass over the
 * rows, then placed (cheaper than sorting the kernels by stream). Caller
 * frees *k and *g. */
static int group_streams(const struct model *m, const struct rank_model *r, uint32_t **k,
                         size_t *nk, struct sgroup **g, size_t *ng)
{
    *k = NULL;
    *g = NULL;
    *nk = *ng = 0;
    struct stream_slots ss = {.last_slot = UINT32_MAX};
    if (hmap_init(&ss.of, 16))
        return ERR_NOMEM;
    struct kernel_rows kr = {0};
    int rc = kernel_rows(m, r, &ss, &kr);
    if (!rc) {
        *k = util_alloc_resident(kr.n, sizeof **k);
        *g = malloc((kr.nslots ? kr.nslots : 1) * sizeof **g);
        rc = *k && *g ? 0 : ERR_NOMEM;
    }
    if (!rc) {
        size_t at = 0;
        for (size_t s = 0; s < kr.nslots; s++) {
            size_t count = kr.fill[s];
            (*g)[s] = (struct sgroup){kr.stream_of[s], at, at + count};
            kr.fill[s] = at;
            at += count;
        }
        for (size_t i = 0; i < kr.n; i++)
            (*k)[kr.fill[kr.kslot[i]]++] = kr.kpos[i];
        *nk = kr.n;
        *ng = kr.nslots;
    }
    free(kr.kpos);
    free(kr.kslot);
    free(kr.stream_of);
    free(kr.fill);
    hmap_fini(&ss.of);
    return rc;
}

/* Marks the positions of rank->events that are in the filtered table. */
static uint8_t *rows_bitmap(const struct rank_model *r)
{
    uint8_t *in = calloc(r->nevents ? r->nevents : 1, 1);
    if (in)
        for (size_t i = 0; i < r->nrows; i++)
            if (r->rows[i] < r->nevents)
                in[r->rows[i]] = 1;
    return in;
}

/* Returns 1 when the rank has kernels, 0 when not, or ERR_NOMEM. */
static int rank_idle(const struct model *m, const struct analysis_opts *o,
                     const struct rank_model *r, struct idle_out *out)
{
    uint32_t *k;
    struct sgroup *g;
    size_t nk, ng;
    struct stream_gaps gaps = {NULL, NULL, NULL, 0};
    uint8_t *in_rows = rows_bitmap(r);
    int rc = group_streams(m, r, &k, &nk, &g, &ng);
    if (rc == 0 && ng) {   /* room for the largest stream: all kernels */
        gaps.gap = malloc(nk * sizeof *gaps.gap);
        gaps.cat = malloc(nk);
    }
    if (rc == 0 && (!in_rows || (ng && (!gaps.gap || !gaps.cat))))
        rc = ERR_NOMEM;
    struct label0 label0 = {false, NAN};
    for (size_t i = 0; rc == 0 && i < ng; i++) {
        rc = stream_categorise(m, o, r, k + g[i].start, g[i].end - g[i].start, in_rows,
                               &label0, &gaps);
        if (rc == 0)
            rc = stream_rows(&gaps, r->rank, g[i].stream, out);
    }
    free(gaps.gap);
    free(gaps.cat);
    free(in_rows);
    free(k);
    free(g);
    return rc ? rc : ng > 0;
}

int idle_stream_gaps(const struct model *m, const struct analysis_opts *o,
                     const struct rank_model *r, int64_t stream, struct idle_gap **out,
                     size_t *n)
{
    uint32_t *k;
    struct sgroup *g;
    size_t nk, ng;
    *out = NULL;
    *n = 0;
    uint8_t *in_rows = rows_bitmap(r);
    int rc = in_rows ? group_streams(m, r, &k, &nk, &g, &ng) : ERR_NOMEM;
    if (!in_rows)
        return rc;
    size_t s = 0;
    while (rc == 0 && s < ng && g[s].stream != stream)
        s++;
    if (rc == 0 && s < ng) {
        size_t len = g[s].end - g[s].start;
        struct stream_gaps gaps = {malloc(len * sizeof(double)), malloc(len),
                                   malloc(len * sizeof(uint32_t)), 0};
        *out = malloc(len * sizeof **out);
        rc = gaps.gap && gaps.cat && gaps.pos && *out ? 0 : ERR_NOMEM;
        struct label0 label0 = {false, NAN};
        if (rc == 0)
            rc = stream_categorise(m, o, r, k + g[s].start, len, in_rows, &label0, &gaps);
        for (size_t i = 1; rc == 0 && i < gaps.n; i++) {
            const struct event *prev = &r->events[gaps.pos[i - 1]];
            const struct event *next = &r->events[gaps.pos[i]];
            int64_t start = prev->ts + prev->dur;
            (*out)[(*n)++] = (struct idle_gap){gaps.pos[i], gaps.pos[i - 1], start,
                                               next->ts - start, gaps.cat[i]};
        }
        free(gaps.gap);
        free(gaps.cat);
        free(gaps.pos);
    }
    if (rc || *n == 0) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    free(in_rows);
    free(k);
    free(g);
    return rc;
}

static void note_rank(char *buf, size_t size, size_t *len, int64_t rank)
{
    if (*len >= size)
        return;
    int n = snprintf(buf + *len, size - *len, "%s%lld", *len ? ", " : "", (long long)rank);
    if (n > 0)
        *len += (size_t)n;
}

static void set_notes(struct idle_out *out, const char *missing, size_t nmissing)
{
    if (nmissing) {
        table_set_note(out->times, "%s %s %s no GPU kernels, so no rows",
                       nmissing > 1 ? "ranks" : "rank", missing, nmissing > 1 ? "have" : "has");
        table_set_note(out->stats, "%s", out->times->note);
    } else if (out->times->nrows == 0) {
        table_set_note(out->times, "no rank selected");
        table_set_note(out->stats, "no rank selected");
    }
}

int idle_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
             struct table_list *out, struct err *e)
{
    struct idle_out t = {
        table_new(scratch, "idle_time_breakdown", "Idle time breakdown", idle_cols,
                  sizeof idle_cols / sizeof idle_cols[0]),
        table_new(scratch, "idle_interval_stats", "Idle interval statistics", stats_cols,
                  sizeof stats_cols / sizeof stats_cols[0]),
    };
    if (!t.times || !t.stats)
        return err_set(e, ERR_NOMEM, "idle time: out of memory");
    char missing[256] = "";
    size_t mlen = 0, nmissing = 0;
    int rc = 0;
    for (size_t i = 0; i < m->nranks && rc >= 0; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        rc = rank_idle(m, o, r, &t);
        if (rc == 0) {
            note_rank(missing, sizeof missing, &mlen, r->rank);
            nmissing++;
        }
    }
    if (rc < 0)
        return err_set(e, ERR_NOMEM, "idle time: out of memory");
    set_notes(&t, missing, nmissing);
    if (table_list_add(out, t.times) || table_list_add(out, t.stats))
        return err_set(e, ERR_NOMEM, "idle time: too many tables");
    return 0;
}
