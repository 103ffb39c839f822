#include "config.h"
#include "analysis/analysis.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gpu_util.h"
#include "analysis/weighted.h"
#include "util/sort.h"
#include "util/vec.h"

/* CUDA kernel launch statistics (spec §3.5): per launch, the CPU runtime
 * call's duration, its kernel's duration, and the delay between them. */

static const char *const hta_launches[] = {
    "cudaLaunchKernel", "cudaLaunchKernelExC",
    "runFunction - job_prep_and_submit_for_execution",
};
static const char *const hta_memory_launches[] = {"cudaMemcpyAsync", "cudaMemsetAsync"};
/* htx (semantics.hta_launch_names = false) also knows these. */
static const char *const htx_launches[] = {
    "cuLaunchKernel", "cuLaunchKernelEx", "hipLaunchKernel", "hipExtModuleLaunchKernel",
    "hipModuleLaunchKernel", "cudaGraphLaunch", "cudaGraphLaunch_v10000", "cuGraphLaunch",
    "hipGraphLaunch",
};
static const char *const htx_memory_launches[] = {
    "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream",
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void launch_names(const struct model *m, const struct analysis_opts *o,
                         struct name_set *s)
{
    name_set_init(s, m, hta_launches, N_OF(hta_launches));
    if (o->include_memory_events)
        name_set_add(s, m, hta_memory_launches, N_OF(hta_memory_launches));
    if (m->sem.hta_launch_names)
        return;
    name_set_add(s, m, htx_launches, N_OF(htx_launches));
    if (o->include_memory_events)
        name_set_add(s, m, htx_memory_launches, N_OF(htx_memory_launches));
}

/* A GPU row: its correlation (a launch's, so not -1: 32 bits, as the
 * event holds it) and its position in rank->events. */
struct gkey {
    uint32_t corr;
    uint32_t pos;
};

static inline bool gkey_less(const struct gkey *a, const struct gkey *b)
{
    return a->corr < b->corr;
}

/* Stable: equal correlations stay in row order. */
SORT_DEFINE_STABLE(sort_gkeys, struct gkey, gkey_less)

static bool is_launch(const struct model *m, const struct name_set *names,
                      const struct event *ev)
{
    if (!name_set_has(names, ev->name) || event_correlation(ev) < 0)
        return false;
    return m->sem.hta_launch_names || !model_is_gpu_side(m, ev);
}

/* L of §3.5: correlations of the launch events, as a sorted set in *set
 * (caller frees). HTA takes every event with a launch name; htx only
 * CPU-side ones. A launch without a correlation (-1) is left out in both
 * modes: HTA would join it with every uncorrelated event, a product that
 * can exhaust memory and means nothing. Returns the set's size, or
 * SIZE_MAX on ENOMEM. */
static size_t launch_correlations(const struct model *m, const struct rank_model *r,
                                  const struct name_set *names, int64_t **set)
{
    size_t n = 0, cap = 0;
    *set = NULL;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (!is_launch(m, names, ev))
            continue;
        if (n == cap && VEC_PUSH_SLOT(*set, n, cap))
            return SIZE_MAX;
        (*set)[n++] = event_correlation(ev);
    }
    return sort_unique_i64(*set, n);
}

static bool is_cpu_row(const struct model *m, const struct name_set *names,
                       const struct event *ev)
{
    if (model_is_gpu_side(m, ev))
        return false;
    return m->sem.hta_launch_names || name_set_has(names, ev->name);
}

static bool is_gpu_row(const struct model *m, const int64_t *set, size_t nset,
                       const struct event *ev)
{
    return model_is_gpu_side(m, ev) && i64_set_has(set, nset, event_correlation(ev));
}

/* GPU rows with a correlation in L, sorted by (correlation, row order);
 * caller frees. NULL on ENOMEM. */
static struct gkey *gpu_rows(const struct model *m, const struct rank_model *r,
                             const int64_t *set, size_t nset, size_t *n)
{
    struct gkey *g = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t i = 0; i < r->nrows && nset; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (!is_gpu_row(m, set, nset, ev))
            continue;
        if (*n == cap && VEC_PUSH_SLOT(g, *n, cap)) {
            free(g);
            return NULL;
        }
        g[(*n)++] = (struct gkey){ev->corr, r->rows[i]};
    }
    if (!g)   /* none: an empty array, not a failure */
        g = malloc(sizeof *g);
    if (g && sort_gkeys(g, *n)) {
        free(g);
        g = NULL;
    }
    return g;
}

/* First GPU row with this correlation (g sorted by correlation), or n. */
static size_t gpu_first(const struct gkey *g, size_t n, int64_t corr)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((int64_t)g[mid].corr < corr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- launch_run: the tables ---- */

enum { T_ALL = 0, T_SUMMARY, T_SHORT, T_RUNTIME, T_DELAY, T_COUNT };

static const struct table_col launch_cols[] = {
    {"rank", NULL, COL_KEY},
    {"correlation", NULL, COL_KEY},
    {"cpu_duration", "us", 0},
    {"gpu_duration", "us", 0},
    {"launch_delay", "us", 0},
    {"graph", NULL, 0},   /* only with graph launches (launch_graphs) */
};

/* Whether the launch tables flag graph work: htx's semantics, and some
 * selected rank has a CUDA/HIP graph launch. HTA's tables stay HTA's. */
static bool launch_graphs(const struct model *m)
{
    if (m->sem.hta_launch_names)
        return false;
    for (size_t i = 0; i < m->nranks; i++)
        if (m->ranks[i].selected && m->ranks[i].ngraph_launches)
            return true;
    return false;
}

static int make_tables(struct arena *a, struct table *t[T_COUNT], bool graphs)
{
    static const char *const names[T_COUNT][2] = {
        {"cuda_kernel_launch_stats", "Kernel launches"},
        {"launch_stats_summary", "Launch statistics"},
        {"short_kernels", "Short kernels (GPU time below the launch's CPU time)"},
        {"runtime_outliers", "Launches with a long CPU runtime"},
        {"launch_delay_outliers", "Launches with a long launch delay"},
    };
    struct table_col scols[2 + DESCRIBE_NCOLS] = {
        {"rank", NULL, COL_KEY}, {"metric", NULL, COL_KEY},
    };
    describe_cols(scols + 2, "us");
    for (int i = 0; i < T_COUNT; i++) {
        t[i] = i == T_SUMMARY
            ? table_new(a, names[i][0], names[i][1], scols, N_OF(scols))
            : table_new(a, names[i][0], names[i][1], launch_cols,
                        N_OF(launch_cols) - (graphs ? 0 : 1));
        if (!t[i])
            return ERR_NOMEM;
    }
    return 0;
}

/* The three lists HTA only plots (§3.5), with its cut-offs: the bits of
 * enum in_list a launch's row goes in, decided on its nanoseconds. */
enum in_list { IN_SHORT = 1, IN_RUNTIME = 2, IN_DELAY = 4 };

static unsigned lists_of(const struct analysis_opts *o, int64_t cpu_dur, int64_t gpu_dur,
                         int64_t delay)
{
    unsigned in = 0;
    if (cpu_dur <= o->runtime_cutoff_ns && gpu_dur < cpu_dur)
        in |= IN_SHORT;
    if (cpu_dur > o->runtime_cutoff_ns)
        in |= IN_RUNTIME;
    if (delay > o->launch_delay_cutoff_ns)
        in |= IN_DELAY;
    return in;
}

/* One launch: a CPU launch joined with one of its GPU events (positions in
 * rank->events). */
struct launch_pair {
    uint32_t cpu, gpu;
};

static int64_t pair_delay(const struct rank_model *r, struct launch_pair p)
{
    const struct event *c = &r->events[p.cpu];
    int64_t delay = r->events[p.gpu].ts - c->ts - c->dur;
    return delay < 0 ? 0 : delay;
}

/* Fills the ncols cells of the launch's row and returns the lists it goes
 * in. With the graph column, graph work (whose delay is the graph's) is
 * flagged and never a delay outlier. */
static unsigned launch_row(const struct rank_model *r, struct launch_pair p, size_t ncols,
                           const struct analysis_opts *o, struct cell *row)
{
    const struct event *c = &r->events[p.cpu], *gev = &r->events[p.gpu];
    int64_t delay = pair_delay(r, p);
    row[0] = cell_int(r->rank);
    row[1] = cell_int(event_correlation(c));
    row[2] = cell_double((double)c->dur / 1000.0);
    row[3] = cell_double((double)gev->dur / 1000.0);
    row[4] = cell_double((double)delay / 1000.0);
    unsigned in = lists_of(o, c->dur, gev->dur, delay);
    if (ncols > N_OF(launch_cols) - 1) {
        bool graph = model_is_graph_work(r, gev);
        row[5] = cell_bool(graph);
        if (graph)
            in &= ~(unsigned)IN_DELAY;
    }
    return in;
}

/* A rank's launches: the inner join of §3.5 in HTA's order (CPU rows as
 * they appear, each with its GPU rows in row order), in *pairs (caller
 * frees; 8 bytes a launch). */
static int join_rank(const struct model *m, const struct analysis_opts *o,
                     const struct rank_model *r, struct launch_pair **pairs, size_t *n)
{
    struct name_set names;
    launch_names(m, o, &names);
    int64_t *set;
    size_t nset = launch_correlations(m, r, &names, &set), ng = 0;
    struct gkey *g = nset == SIZE_MAX ? NULL : gpu_rows(m, r, set, nset, &ng);
    free(set);
    size_t cap = ng ? ng : 1;
    *n = 0;
    *pairs = g ? malloc(cap * sizeof **pairs) : NULL;
    int rc = *pairs ? 0 : ERR_NOMEM;
    for (size_t i = 0; i < r->nrows && rc == 0 && ng; i++) {
        const struct event *c = &r->events[r->rows[i]];
        int64_t corr = event_correlation(c);
        /* most CPU rows (operators, correlation -1) fall outside g's range */
        if (!is_cpu_row(m, &names, c) || corr < g[0].corr || corr > g[ng - 1].corr)
            continue;
        for (size_t k = gpu_first(g, ng, corr); k < ng && g[k].corr == corr; k++) {
            if (*n == cap) {   /* several CPU rows per correlation */
                struct launch_pair *bigger = cap > SIZE_MAX / 2 / sizeof *bigger
                    ? NULL : realloc(*pairs, 2 * cap * sizeof *bigger);
                if (!bigger) {
                    rc = ERR_NOMEM;
                    break;
                }
                *pairs = bigger;
                cap *= 2;
            }
            (*pairs)[(*n)++] = (struct launch_pair){r->rows[i], g[k].pos};
        }
    }
    free(g);
    if (rc) {
        free(*pairs);
        *pairs = NULL;
    }
    return rc;
}

/* The distribution of the three durations over the rank's n launches: the
 * values the rows print, so the summary is of what is printed. */
static int add_summary(struct table *t, const struct rank_model *r,
                       const struct launch_pair *p, size_t n)
{
    static const char *const metrics[] = {"cpu_duration", "gpu_duration", "launch_delay"};
    double *v = malloc(n * sizeof *v);   // (freed here, not held with the tables)
    if (!v)
        return ERR_NOMEM;
    for (size_t k = 0; k < N_OF(metrics); k++) {
        for (size_t i = 0; i < n; i++) {
            int64_t ns = k == 0 ? r->events[p[i].cpu].dur
                       : k == 1 ? r->events[p[i].gpu].dur : pair_delay(r, p[i]);
            v[i] = (double)ns / 1000.0;
        }
        struct describe d;
        describe_values(v, n, &d);
        struct cell *row = table_add_row(t);
        if (!row) {
            free(v);
            return ERR_NOMEM;
        }
        row[0] = cell_int(r->rank);
        row[1] = cell_str(t, metrics[k]);
        describe_put_cells(row, 2, &d);
    }
    free(v);
    return 0;
}

/* Of the per-launch tables (every launch, and the three lists), the bit
 * each list keeps and the column that orders the rows text shows. */
static const struct {
    int table;
    unsigned bit;      /* 0: every launch */
    int metric;        /* a column of launch_cols */
} per_launch[] = {
    {T_ALL, 0, 4}, {T_SHORT, IN_SHORT, 2}, {T_RUNTIME, IN_RUNTIME, 2}, {T_DELAY, IN_DELAY, 4},
};
#define PER_LAUNCH N_OF(per_launch)

const char *launch_text_metric(const char *table)
{
    static const char *const names[T_COUNT] = {
        "cuda_kernel_launch_stats", NULL, "short_kernels", "runtime_outliers",
        "launch_delay_outliers",
    };
    for (size_t l = 0; l < PER_LAUNCH; l++)
        if (strcmp(names[per_launch[l].table], table) == 0)
            return launch_cols[per_launch[l].metric].name;
    return NULL;
}

/* One rank's launches (join_rank). */
struct rank_pairs {
    const struct rank_model *r;
    struct launch_pair *p;
    size_t n;
};

/* Every launch's row in t[T_ALL], rank after rank, then the lists' rows
 * copied from them; each table reserved once at its size (an arena keeps
 * every block a growing table leaves behind). Frees the pairs as their
 * rows are made. */
static int put_all_rows(const struct analysis_opts *o, struct rank_pairs *rp, size_t nr,
                        size_t total, struct table *t[T_COUNT])
{
    struct table *all = t[T_ALL];
    size_t first = all->nrows, at = 0;
    uint8_t *in = malloc(total ? total : 1);
    int rc = in && table_reserve(all, total) == 0 ? 0 : ERR_NOMEM;
    for (size_t k = 0; k < nr && rc == 0; k++) {
        for (size_t i = 0; i < rp[k].n; i++)
            in[at++] = (uint8_t)launch_row(rp[k].r, rp[k].p[i], all->ncols, o,
                                           table_add_row(all));
        free(rp[k].p);
        rp[k].p = NULL;
    }
    for (size_t l = 1; l < PER_LAUNCH && rc == 0; l++) {
        struct table *list = t[per_launch[l].table];
        size_t count = 0;
        for (size_t i = 0; i < total; i++)
            count += (in[i] & per_launch[l].bit) != 0;
        rc = table_reserve(list, count);
        for (size_t i = 0; i < total && rc == 0; i++)
            if (in[i] & per_launch[l].bit)
                memcpy(table_add_row(list), table_cell(all, first + i, 0),
                       all->ncols * sizeof(struct cell));
    }
    free(in);
    return rc;
}

/* The rows text shows of a per-launch table (o->launch_top_rows): the
 * largest by its metric, ties in table order, among the total offered. */
struct top_rows {
    size_t k, n, total;
    struct top_row {
        double key;
        size_t seq;
        struct cell row[N_OF(launch_cols)];
    } *e;
};

static void top_offer(struct top_rows *t, const struct cell *row, size_t ncols, int metric)
{
    double key = row[metric].v.d;
    size_t seq = t->total++;
    if (t->n == t->k && (t->k == 0 || !(key > t->e[t->n - 1].key)))
        return;   /* a later row ties: the earlier stays first */
    size_t i = t->n < t->k ? t->n++ : t->n - 1;
    for (; i > 0 && key > t->e[i - 1].key; i--)
        t->e[i] = t->e[i - 1];
    t->e[i].key = key;
    t->e[i].seq = seq;
    memcpy(t->e[i].row, row, ncols * sizeof *row);
}

/* Offers every launch's row to the tops of the tables it goes in. */
static void offer_rows(const struct analysis_opts *o, const struct rank_model *r,
                       const struct launch_pair *p, size_t n, size_t ncols,
                       struct top_rows top[PER_LAUNCH])
{
    struct cell row[N_OF(launch_cols)];
    for (size_t i = 0; i < n; i++) {
        unsigned in = launch_row(r, p[i], ncols, o, row);
        for (size_t l = 0; l < PER_LAUNCH; l++)
            if (!per_launch[l].bit || (in & per_launch[l].bit))
                top_offer(&top[l], row, ncols, per_launch[l].metric);
    }
}

/* Writes each top's rows into its table: by the metric, largest first,
 * or in table order when it kept every row (as text shows a short table). */
static int put_top_rows(struct top_rows top[PER_LAUNCH], struct table *t[T_COUNT])
{
    for (size_t l = 0; l < PER_LAUNCH; l++) {
        struct top_rows *tp = &top[l];
        struct table *tab = t[per_launch[l].table];
        if (tp->total == tp->n)
            for (size_t i = 1; i < tp->n; i++)
                for (size_t j = i; j > 0 && tp->e[j - 1].seq > tp->e[j].seq; j--) {
                    struct top_row x = tp->e[j];
                    tp->e[j] = tp->e[j - 1];
                    tp->e[j - 1] = x;
                }
        if (table_reserve(tab, tp->n))
            return ERR_NOMEM;
        for (size_t i = 0; i < tp->n; i++)
            memcpy(table_add_row(tab), tp->e[i].row, tab->ncols * sizeof(struct cell));
        tab->nrows_total = tp->total;
    }
    return 0;
}

/* Joins every selected rank (its summary made from its pairs, whose
 * scratch comes and goes before any row is made), then puts every row
 * (put_all_rows), or offers them to the tops. */
static int launch_ranks_each(const struct model *m, const struct analysis_opts *o,
                             struct table *t[T_COUNT], struct top_rows *top)
{
    struct rank_pairs *rp = calloc(m->nranks ? m->nranks : 1, sizeof *rp);
    size_t nr = 0, total = 0;
    int rc = rp ? 0 : ERR_NOMEM;
    for (size_t i = 0; i < m->nranks && rc == 0; i++) {
        if (!m->ranks[i].selected)
            continue;
        struct rank_pairs *k = &rp[nr++];
        k->r = &m->ranks[i];
        rc = join_rank(m, o, k->r, &k->p, &k->n);
        if (rc == 0 && k->n)
            rc = add_summary(t[T_SUMMARY], k->r, k->p, k->n);
        total += k->n;
        if (rc == 0 && top) {   // the tops keep what they need: no pairs held
            offer_rows(o, k->r, k->p, k->n, t[T_ALL]->ncols, top);
            free(k->p);
            k->p = NULL;
        }
    }
    if (rc == 0 && !top)
        rc = put_all_rows(o, rp, nr, total, t);
    for (size_t k = 0; rp && k < nr; k++)
        free(rp[k].p);
    free(rp);
    return rc;
}

static void set_notes(const struct model *m, const struct analysis_opts *o,
                      struct table *t[T_COUNT])
{
    if (t[T_ALL]->nrows == 0) {
        const char *why = m->sem.hta_launch_names
            ? "no cudaLaunchKernel/cudaLaunchKernelExC/runFunction launch linked to a GPU "
              "event (HTA ignores cuLaunchKernel and hip* launches; --semantics=htx counts them)"
            : "no kernel launch linked to a GPU event in the selection";
        for (int i = 0; i < T_COUNT; i++)
            table_set_note(t[i], "%s", why);
        return;
    }
    if (!o->include_memory_events)
        table_set_note(t[T_ALL], "memory copies and sets left out");
    double rc = (double)o->runtime_cutoff_ns / 1000.0;
    double dc = (double)o->launch_delay_cutoff_ns / 1000.0;
    table_set_note(t[T_SHORT], "cpu_duration <= %g us and gpu_duration < cpu_duration", rc);
    table_set_note(t[T_RUNTIME], "cpu_duration > %g us", rc);
    if (t[T_DELAY]->ncols == N_OF(launch_cols))
        table_set_note(t[T_DELAY], "launch_delay > %g us; graph work left out (its delay is "
                       "the graph's)", dc);
    else
        table_set_note(t[T_DELAY], "launch_delay > %g us", dc);
}

/* The ranks' launches into t: every row, or with o->launch_top_rows only
 * the rows text shows (a few, whatever the launches). */
static int launch_ranks(const struct model *m, const struct analysis_opts *o,
                        struct table *t[T_COUNT])
{
    struct top_rows top[PER_LAUNCH];
    struct top_rows *tops = NULL;
    if (o->launch_top_rows) {
        for (size_t l = 0; l < PER_LAUNCH; l++) {
            top[l] = (struct top_rows){o->launch_top_rows, 0, 0, NULL};
            top[l].e = arena_calloc(t[T_ALL]->arena, o->launch_top_rows, sizeof *top[l].e);
            if (!top[l].e)
                return ERR_NOMEM;
        }
        tops = top;
    }
    if (launch_ranks_each(m, o, t, tops))
        return ERR_NOMEM;
    return tops ? put_top_rows(tops, t) : 0;
}

int launch_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
               struct table_list *out, struct err *e)
{
    struct table *t[T_COUNT];
    if (make_tables(scratch, t, launch_graphs(m)) || launch_ranks(m, o, t))
        return err_set(e, ERR_NOMEM, "launch statistics: out of memory");
    set_notes(m, o, t);
    for (int i = 0; i < T_COUNT; i++)
        if (table_list_add(out, t[i]))
            return err_set(e, ERR_INTERNAL, "launch statistics: too many tables");
    return 0;
}
