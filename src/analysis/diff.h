#ifndef HTX_ANALYSIS_DIFF_H
#define HTX_ANALYSIS_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/table.h"
#include "model/model.h"
#include "model/semantics.h"
#include "util/arena.h"
#include "util/err.h"

/* Trace diff (spec §3.10): per op/kernel name, how often and how long it ran
 * in a control and a test trace, and which names were added, deleted, got
 * more or less frequent.
 *
 * The flow, shared by `htx diff --report` and the TUI diff view:
 *   1. load each side with diff_semantics() (HTA's TraceDiff parses only: no
 *      trailing-step filter);
 *   2. diff_resolve_side() turns the user's rank/iteration request into a
 *      concrete plan (HTA defaults: lowest rank, smallest iteration of the
 *      global symbol table), and diff_plan_selection() gives the selection
 *      for model_select();
 *   3. diff_summarize() each side, pair their ProfilerStep#N rows by
 *      position (htx; diff_pair_steps), diff_join() the two summaries, and
 *      build tables with diff_compare_traces_table()/diff_ops_diff_table().
 * diff_run() does 2 (after the caller's model_select) and 3 in one call.
 *
 * Everything here is pure: no I/O, results in the caller's arena. Pointers to
 * names may point into the models' string tables, so results are valid while
 * both models and the arena live. */

enum diff_device { DIFF_DEVICE_ALL = 0, DIFF_DEVICE_CPU, DIFF_DEVICE_GPU };

/* The five lists of HTA's ops_diff, in its output order. */
enum diff_change {
    DIFF_ADDED = 0,   /* control 0, test > 0 */
    DIFF_DELETED,     /* control > 0, test 0 */
    DIFF_INCREASED,   /* both > 0, more calls in test */
    DIFF_DECREASED,   /* both > 0, fewer calls in test */
    DIFF_UNCHANGED,   /* both > 0, same number of calls */
    DIFF_CHANGE_COUNT
};

/* "added", "deleted", ... (the ops_diff JSON keys). */
const char *diff_change_name(enum diff_change c);

/* What the user asked for on one side. A NULL/empty list without `all_`
 * means the default. Borrowed by the functions below until return. */
struct diff_request_side {
    const int64_t *ranks;
    size_t nranks;
    bool all_ranks;
    const int64_t *iterations;
    size_t niterations;
    bool all_iterations;
};

/* A resolved side: the ranks (ascending) and iterations to use.
 * filter_iterations: the summary keeps only rows whose ev->iteration is in
 * `iterations` (HTA's `iteration ∈ chosen`); otherwise the iterations are
 * passed to model_select like every other analysis (htx). */
struct diff_plan {
    int64_t *ranks;
    size_t nranks;
    int64_t *iterations;
    size_t niterations;
    bool filter_iterations;
    const char *note;   /* e.g. "no ProfilerStep: nothing selected", or NULL */
};

/* The semantics to load a diff side with: a copy of user, and under
 * diff_hta_quirks (HTA's TraceDiff parses only) without the trailing-step
 * filter. ns_rounding and the other flags stay. */
void diff_semantics(const struct semantics *user, struct semantics *out);

/* HTA's valid iterations of a trace (§3.10): N of every `ProfilerStep#N`
 * event name on any rank, ascending and distinct. *out is allocated in a;
 * names with no number after `ProfilerStep#` are skipped (HTA crashes). */
int diff_valid_iterations(const struct model *m, struct arena *a, int64_t **out, size_t *n,
                          struct err *e);

/* Resolves one side. HTA (m->sem.diff_hta_quirks): default rank = lowest,
 * default iteration = smallest valid one, `all` = every valid one, rows
 * filtered by ev->iteration. htx: default = all ranks and all iterations,
 * selection through model_select. Unknown ranks or iterations give
 * ERR_USAGE naming the side (`label`). The plan's arrays live in a. */
int diff_resolve_side(const struct model *m, const struct diff_request_side *req,
                      const char *label, struct arena *a, struct diff_plan *out, struct err *e);

/* The selection to pass to model_select for a plan. Borrows plan's arrays. */
void diff_plan_selection(const struct diff_plan *plan, struct selection *out);

/* Per-key totals of one side, sorted by key (byte order = code point order). */
struct diff_entry {
    const char *key;
    size_t len;
    int64_t count;
    int64_t dur_ns;
};

struct diff_summary {
    struct diff_entry *entries;
    size_t n;
    bool whole_us;   /* every total is a whole number of microseconds */
};

/* What a summary counts. */
struct diff_filter {
    enum diff_device device;   /* CPU/GPU = !/model_is_gpu_side */
    bool short_names;          /* key = shorten_name(name) (§2.2) */
    const struct diff_plan *plan; /* iteration filter when plan->filter_iterations */
    /* Read the plan's ranks and iterations straight from the events instead
     * of the rows of a model_select: the same rows when the model keeps the
     * last step (diff_semantics) and no window applies, without changing
     * the model (the TUI's diff view). Needs plan. */
    bool from_events;
};

/* Whether ev counts under f: its device side and, when the plan filters
 * them, its iteration (not its rank). */
bool diff_event_wanted(const struct model *m, const struct event *ev, const struct diff_filter *f);

/* HTA reads `int(name.replace("ProfilerStep#", ""))`: digits, optionally
 * surrounded by whitespace. The number of s[0..len) when it is such a
 * name, else false. */
bool diff_step_number(const char *s, size_t len, int64_t *out);

/* Pairs the ProfilerStep#N entries of two summaries by position: the k-th
 * step of control (in step order) and the k-th of test. A pair whose
 * numbers differ gets one key on both sides, "ProfilerStep#C vs #T" (in
 * a), so the join makes it one row; steps beyond the shorter side keep
 * their names. The entries are then out of key order: *renamed says to
 * sort them again. HTA's TraceDiff matches by name (the caller keeps that
 * under diff_hta_quirks). 0 or ERR_NOMEM. */
int diff_pair_steps(struct diff_summary *control, struct diff_summary *test, struct arena *a,
                    bool *renamed);

/* The name one side ran under a paired key ("ProfilerStep#C vs #T"):
 * "ProfilerStep#T" into buf when `test`, else "ProfilerStep#C". False
 * (buf untouched) when key is not such a pair. */
bool diff_step_side(const char *key, size_t len, bool test, char *buf, size_t n);

/* One op or kernel, both sides. */
struct diff_row {
    const char *name;
    size_t len;
    int64_t control_count, test_count;
    int64_t control_dur_ns, test_dur_ns;
    enum diff_change change;
};

struct diff_result {
    struct diff_row *rows;
    size_t nrows;
    bool same_keys;       /* both sides have exactly the same keys */
    bool whole_us;        /* every duration is a whole number of microseconds */
    size_t counts[DIFF_CHANGE_COUNT];
};

/* How the tables are written. */
struct diff_table_opts {
    bool hta_types;     /* HTA's dtypes: floats when the key sets differ, no means */
    bool short_names;   /* the key column is `short_name` instead of `name` */
};

/* compare_traces: key, Control_counts, Control_total_duration, Test_counts,
 * Test_total_duration, diff_counts, diff_duration, counts_change_categories
 * (durations in µs); without hta_types also Control_mean_duration,
 * Test_mean_duration, diff_mean_duration. The table lives in a. */
struct table *diff_compare_traces_table(const struct diff_result *r,
                                        const struct diff_table_opts *o, struct arena *a);

/* Appends the rows of one rank pair to a `compare_traces_by_rank` table
 * (created by diff_by_rank_table_new), with control_rank and test_rank
 * columns first. Returns 0 or ERR_NOMEM. */
struct table *diff_by_rank_table_new(const struct diff_table_opts *o, struct arena *a);
int diff_by_rank_table_add(struct table *t, int64_t control_rank, int64_t test_rank,
                           const struct diff_result *r, const struct diff_table_opts *o);

/* ops_diff as a table of (change, name) rows, grouped by change in the order
 * of enum diff_change, each group in row order. The JSON writer turns it into
 * HTA's object of five lists (table name "ops_diff"). The table lives in a. */
struct table *diff_ops_diff_table(const struct diff_result *r, struct arena *a);

/* The regression gate (beyond HTA). Something crossed the line when its test
 * total exceeds the control total by more than pct percent: the total GPU
 * time (is_total), or a GPU kernel whose larger total is above min_ns. A
 * kernel that only the test has counts as infinite growth. */
struct diff_regression {
    const char *name;     /* kernel name, or "total GPU time" */
    bool is_total;
    int64_t control_ns, test_ns;
    double growth_pct;    /* INFINITY when the control total is 0 */
};

/* gpu must be a join of GPU-side summaries (full names). Results in a,
 * total first, then kernels by descending growth (ties by name). */
int diff_find_regressions(const struct diff_result *gpu, double pct, int64_t min_ns,
                          struct arena *a, struct diff_regression **out, size_t *n,
                          struct err *e);

/* The regressions as a table: kind (total|kernel), name,
 * Control_total_duration, Test_total_duration, growth (%; null when new). */
struct table *diff_regressions_table(const struct diff_regression *r, size_t n,
                                     struct arena *a);

/* Everything `htx diff --report` and the diff view show, from two models on
 * which the caller already ran model_select(diff_plan_selection(...)) (or
 * any models with from_events). */
struct diff_run_opts {
    enum diff_device device;
    bool short_names;
    const struct diff_plan *control, *test;
    bool per_rank;          /* add compare_traces_by_rank (htx only) */
    bool from_events;       /* see struct diff_filter */
};

struct diff_output {
    struct diff_result result;   /* what compare_traces shows */
    struct diff_result ops;      /* what ops_diff lists (full names under HTA) */
    struct table_list tables;    /* compare_traces, [compare_traces_by_rank], ops_diff */
};

/* One side of a diff: a loaded model, or the per-rank parts a
 * job's summaries store (diff_parts_run), which answer a diff of whole
 * ranks (no iteration chosen, no window) under htx's semantics without the
 * events. */
struct diff_side {
    const struct model *m;        /* NULL: parts */
    const struct table *parts;    /* DIFF_PARTS rows of the side's ranks, by rank */
};

/* A rank's part: per name, how often and how long it ran on the CPU side
 * and on the GPU side, over the rank's rows: table DIFF_PARTS with the
 * columns rank, name, cpu_count, cpu_dur_ns, gpu_count, gpu_dur_ns (the
 * selected ranks of m, in rank order). */
#define DIFF_PARTS "diff_ops_by_rank"
int diff_parts_run(const struct model *m, const struct analysis_opts *o, struct arena *a,
                   struct table_list *out, struct err *e);
/* NULL when t is such a part (read from a summary), else what is wrong. */
const char *diff_parts_check(const struct table *t);

/* Summarizes both sides (only = one rank each, NULL = the selected ranks)
 * and joins them in the order of control->sem. Results live in a. */
int diff_compare_sides(const struct model *control, const struct rank_model *control_only,
                       const struct model *test, const struct rank_model *test_only,
                       const struct diff_run_opts *o, bool short_names, struct arena *a,
                       struct diff_result *out, struct err *e);

/* The same for two sides, their plans' ranks. */
int diff_compare_side_pair(const struct diff_side *control, const struct diff_side *test,
                           const struct diff_run_opts *o, bool short_names, struct arena *a,
                           struct diff_result *out, struct err *e);

/* Runs the whole diff; semantics come from control->sem (diff_hta_quirks).
 * Results live in a. */
int diff_run(const struct model *control, const struct model *test,
             const struct diff_run_opts *o, struct arena *a, struct diff_output *out,
             struct err *e);
/* The same for two sides (parts: htx's semantics). */
int diff_run_sides(const struct diff_side *control, const struct diff_side *test,
                   const struct diff_run_opts *o, struct arena *a, struct diff_output *out,
                   struct err *e);

#endif
