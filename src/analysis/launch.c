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

struct gkey {
    int64_t corr;
    size_t seq;      /* row order */
    uint32_t pos;    /* into rank->events */
};

static inline bool gkey_less(const struct gkey *a, const struct gkey *b)
{
    return a->corr < b->corr;
}

/* Stable: equal correlations stay in row order (seq ascending). */
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
        g[(*n)++] = (struct gkey){event_correlation(ev), i, r->rows[i]};
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
        if (g[mid].corr < corr)
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

/* Appends the row of a CPU launch c joined with its GPU event gev (of r).
 * With the graph column, graph work (whose delay is the graph's) is
 * flagged and never a delay outlier. */
static int add_launch_row(struct table *t, const struct rank_model *r, const struct event *c,
                          const struct event *gev, unsigned *in, const struct analysis_opts *o)
{
    struct cell *row = table_add_row(t);
    if (!row)
        return ERR_NOMEM;
    int64_t delay = gev->ts - c->ts - c->dur;
    if (delay < 0)
        delay = 0;
    row[0] = cell_int(r->rank);
    row[1] = cell_int(event_correlation(c));
    row[2] = cell_double((double)c->dur / 1000.0);
    row[3] = cell_double((double)gev->dur / 1000.0);
    row[4] = cell_double((double)delay / 1000.0);
    *in = lists_of(o, c->dur, gev->dur, delay);
    if (t->ncols > N_OF(launch_cols) - 1) {
        bool graph = model_is_graph_work(r, gev);
        row[5] = cell_bool(graph);
        if (graph)
            *in &= ~(unsigned)IN_DELAY;
    }
    return 0;
}

/* A rank's launches: the inner join of §3.5 in HTA's order (CPU rows as
 * they appear, each with its GPU rows in row order), appended to the table
 * of every launch as they are found. The rows are the only copy of a
 * launch: *in (caller frees) says which lists each of the *n goes in. */
static int join_rank(const struct model *m, const struct analysis_opts *o,
                     const struct rank_model *r, struct table *all, uint8_t **in, size_t *n)
{
    struct name_set names;
    launch_names(m, o, &names);
    int64_t *set;
    size_t nset = launch_correlations(m, r, &names, &set), ng = 0;
    struct gkey *g = nset == SIZE_MAX ? NULL : gpu_rows(m, r, set, nset, &ng);
    free(set);
    size_t cap = ng ? ng : 1;
    *n = 0;
    *in = g && table_reserve(all, ng) == 0 ? malloc(cap) : NULL;
    int rc = *in ? 0 : ERR_NOMEM;
    for (size_t i = 0; i < r->nrows && rc == 0 && ng; i++) {
        const struct event *c = &r->events[r->rows[i]];
        int64_t corr = event_correlation(c);
        /* most CPU rows (operators, correlation -1) fall outside g's range */
        if (!is_cpu_row(m, &names, c) || corr < g[0].corr || corr > g[ng - 1].corr)
            continue;
        for (size_t k = gpu_first(g, ng, corr); k < ng && g[k].corr == corr && rc == 0; k++) {
            if (*n == cap) {   /* several CPU rows per correlation */
                uint8_t *bigger = realloc(*in, 2 * cap);
                if (!bigger) {
                    rc = ERR_NOMEM;
                    break;
                }
                *in = bigger;
                cap *= 2;
            }
            unsigned lists;
            rc = add_launch_row(all, r, c, &r->events[g[k].pos], &lists, o);
            (*in)[(*n)++] = (uint8_t)lists;
        }
    }
    free(g);
    if (rc) {
        free(*in);
        *in = NULL;
    }
    return rc;
}

/* The distribution of one column over rows [first, first + n) of t. The
 * values are the rows' own cells, so the summary is of what is printed. */
static int add_summary(struct table *t, int64_t rank, const struct table *all, size_t first,
                       size_t n)
{
    static const char *const metrics[] = {"cpu_duration", "gpu_duration", "launch_delay"};
    double *v = malloc(n * sizeof *v);   // (freed here, not held with the tables)
    if (!v)
        return ERR_NOMEM;
    for (size_t k = 0; k < N_OF(metrics); k++) {
        for (size_t i = 0; i < n; i++)
            v[i] = table_cell(all, first + i, 2 + k)->v.d;
        struct describe d;
        describe_values(v, n, &d);
        struct cell *row = table_add_row(t);
        if (!row) {
            free(v);
            return ERR_NOMEM;
        }
        row[0] = cell_int(rank);
        row[1] = cell_str(t, metrics[k]);
        describe_put_cells(row, 2, &d);
    }
    free(v);
    return 0;
}

static int launch_rank(const struct model *m, const struct analysis_opts *o,
                       const struct rank_model *r, struct table *t[T_COUNT])
{
    struct table *all = t[T_ALL];
    size_t first = all->nrows, n;
    uint8_t *in;
    if (join_rank(m, o, r, all, &in, &n))
        return ERR_NOMEM;
    static const struct { int table; unsigned bit; } lists[] = {
        {T_SHORT, IN_SHORT}, {T_RUNTIME, IN_RUNTIME}, {T_DELAY, IN_DELAY},
    };
    // The summary's scratch (a sorted copy of each column) comes and goes
    // before the lists are made, so that it never adds to them.
    int rc = n ? add_summary(t[T_SUMMARY], r->rank, all, first, n) : 0;
    for (size_t l = 0; l < N_OF(lists) && rc == 0; l++) {
        struct table *list = t[lists[l].table];
        size_t count = 0;
        for (size_t i = 0; i < n; i++)
            count += (in[i] & lists[l].bit) != 0;
        rc = table_reserve(list, count);
        for (size_t i = 0; i < n && rc == 0; i++) {
            if (!(in[i] & lists[l].bit))
                continue;
            struct cell *row = table_add_row(list);
            if (!row)
                rc = ERR_NOMEM;
            else
                memcpy(row, table_cell(all, first + i, 0), all->ncols * sizeof *row);
        }
    }
    free(in);
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

int launch_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
               struct table_list *out, struct err *e)
{
    struct table *t[T_COUNT];
    if (make_tables(scratch, t, launch_graphs(m)))
        return err_set(e, ERR_NOMEM, "launch statistics: out of memory");
    for (size_t i = 0; i < m->nranks; i++) {
        if (m->ranks[i].selected && launch_rank(m, o, &m->ranks[i], t))
            return err_set(e, ERR_NOMEM, "launch statistics: out of memory");
    }
    set_notes(m, o, t);
    for (int i = 0; i < T_COUNT; i++)
        if (table_list_add(out, t[i]))
            return err_set(e, ERR_INTERNAL, "launch statistics: too many tables");
    return 0;
}
