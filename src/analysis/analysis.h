#ifndef HTX_ANALYSIS_ANALYSIS_H
#define HTX_ANALYSIS_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/table.h"
#include "model/model.h"
#include "util/arena.h"
#include "util/err.h"

/* The HTA analyses. Each is a pure function over the model's current
 * selection (model_select): it reads m (and m->sem for the semantics flags),
 * allocates its tables in the caller's scratch arena, appends them to out,
 * and does no I/O. A trace with nothing to analyse gives empty tables with a
 * note, never an error. Defaults are HTA's (spec §3). */

struct busy_memo;
struct busy_memo_set;
struct trust_report;

struct analysis_opts {
    /* kernel breakdown (§3.2) */
    int num_kernels;                  /* 10 */
    double duration_ratio;            /* 0.8 */
    bool include_memory_kernels;      /* true */
    /* idle time (§3.4) */
    int64_t consecutive_kernel_delay_ns; /* 30 us */
    /* launch stats (§3.5) */
    int64_t runtime_cutoff_ns;        /* 50 us */
    int64_t launch_delay_cutoff_ns;   /* 100 us */
    bool include_memory_events;       /* true */
    /* queue length (§3.6) */
    int64_t max_queue_length;         /* 1024 */
    /* annotations (§3.8) */
    bool use_gpu_annotation;          /* true */
    int annotation_num_kernels;       /* 1000 */
    double annotation_duration_ratio; /* 0.8 */
    bool shorten_names;               /* true */
    /* htx: kernels_by_annotation_stack also walks cpu_op and
     * python_function events (--annotation-stack=ops) */
    bool annotation_stack_ops;        /* false */
    /* frequent sequences (§3.9) */
    const char *operator_name;        /* "aten::linear" */
    int min_pattern_len;              /* 3 */
    int top_k;                        /* 5 */
    /* potential stragglers (HTA's get_potential_stragglers) */
    int num_candidates;               /* 2 */
    /* htx semantics: extra name patterns (comma-separated prefixes) that
     * classify kernels, overriding the built-in rules. NULL = none. */
    const char *comm_patterns;
    const char *memory_patterns;
    /* Not an option: the busy intervals of one rank, made once for the
     * analyses run on it (busy.h, struct busy_memo); NULL: each makes its
     * own. */
    const struct busy_memo *busy_memo;
    /* ... or every rank's, made as the analyses first ask (busy.h, struct
     * busy_memo_set; the only field an analysis writes through: under its
     * locks); NULL: none. */
    struct busy_memo_set *busy_memos;
    /* Not an option either: the trust report of the model (trust.h), made
     * once by the caller that also shows it; NULL: findings_run makes its
     * own. */
    const struct trust_report *trust;
    /* Not an option: for a caller that shows only the largest rows of the
     * per-launch tables (the report's text), launch_run keeps of each just
     * its launch_top_rows largest by launch_text_metric, largest first
     * (ties, and a table of no more rows, in table order), and counts every
     * row in the table's nrows_total; 0: every row. */
    size_t launch_top_rows;
};

/* Fills o with HTA's defaults; the strings it sets are static. */
void analysis_opts_default(struct analysis_opts *o);

enum analysis_id {
    ANALYSIS_TEMPORAL = 0,
    ANALYSIS_KERNELS,
    ANALYSIS_IDLE,
    ANALYSIS_OVERLAP,
    ANALYSIS_LAUNCH,
    ANALYSIS_QUEUE,
    ANALYSIS_MEMBW,
    ANALYSIS_ANNOTATIONS,
    ANALYSIS_SEQUENCES,
    ANALYSIS_COLLECTIVES,
    ANALYSIS_STRAGGLERS,
    ANALYSIS_UTILIZATION,   /* after the others: summaries store analyses by number */
    ANALYSIS_FINDINGS,
    ANALYSIS_COUNT
};

typedef int (*analysis_fn)(const struct model *m, const struct analysis_opts *o,
                           struct arena *scratch, struct table_list *out, struct err *e);

/* One function per analysis; the tables each appends, by JSON key:
 *   temporal_run:    temporal_breakdown
 *   kernels_run:     kernel_type_breakdown, kernel_breakdown
 *   idle_run:        idle_time_breakdown, idle_interval_stats
 *   overlap_run:     comm_comp_overlap
 *   launch_run:      cuda_kernel_launch_stats (one row per launch, with rank),
 *                    launch_stats_summary, short_kernels, runtime_outliers,
 *                    launch_delay_outliers
 *   queue_run:       queue_length_summary, queue_length_blocked
 *   membw_run:       memory_bw_summary
 *   annotations_run: kernels_by_annotation, annotation_tree, user_annotation_breakdown,
 *                    and unless semantics.hta_annotations_only kernels_by_annotation_stack
 *                    and kernels_by_annotation_stack_ranks (annotation_stacks.h)
 *   sequences_run:   frequent_kernel_sequences
 *   collectives_run: collectives, collective_bandwidth, collective_matching
 *   stragglers_run:  straggler_ranking, rank_iteration_blame; under
 *                    semantics.hta_stragglers potential_stragglers instead
 *   utilization_run: gpu_utilization_over_time (analysis/tiles.h)
 *   findings_run:    findings (analysis/findings.h)
 * (the last two read analysis/collectives.h and stragglers_hta.h) */
int temporal_run(const struct model *, const struct analysis_opts *, struct arena *,
                 struct table_list *, struct err *);
int kernels_run(const struct model *, const struct analysis_opts *, struct arena *,
                struct table_list *, struct err *);
int idle_run(const struct model *, const struct analysis_opts *, struct arena *,
             struct table_list *, struct err *);
int overlap_run(const struct model *, const struct analysis_opts *, struct arena *,
                struct table_list *, struct err *);
int launch_run(const struct model *, const struct analysis_opts *, struct arena *,
               struct table_list *, struct err *);
/* The column whose largest values a per-launch table of launch_run shows
 * first (static), or NULL for another table. */
const char *launch_text_metric(const char *table);
int queue_run(const struct model *, const struct analysis_opts *, struct arena *,
              struct table_list *, struct err *);
int membw_run(const struct model *, const struct analysis_opts *, struct arena *,
              struct table_list *, struct err *);
/* The htx tables of annotations_run (annotation_stack_tables.c). */
int annotation_stack_tables(const struct model *, const struct analysis_opts *, struct arena *,
                            struct table_list *, struct err *);
int annotations_run(const struct model *, const struct analysis_opts *, struct arena *,
                    struct table_list *, struct err *);
int sequences_run(const struct model *, const struct analysis_opts *, struct arena *,
                  struct table_list *, struct err *);
int collectives_run(const struct model *, const struct analysis_opts *, struct arena *,
                    struct table_list *, struct err *);
int stragglers_run(const struct model *, const struct analysis_opts *, struct arena *,
                   struct table_list *, struct err *);

/* Sets *missing when two or more selected ranks have GPU work and none of it
 * classifies as COMMUNICATION (built-in rules plus o->comm_patterns): a hint
 * that the job's collectives go unrecognised (--comm-patterns). 0 or
 * ERR_NOMEM. */
int analysis_comm_missing(const struct model *m, const struct analysis_opts *o, bool *missing);

/* The diagnostic both front ends show when analysis_comm_missing says so. */
#define ANALYSIS_COMM_MISSING_HINT                                                           \
    "several ranks but no communication kernel recognised: kernel types and the "           \
    "overlap show only computation; name your collectives' kernels with "                  \
    "--comm-patterns=PREFIX,..."

struct analysis_info {
    enum analysis_id id;
    const char *name;     /* --analysis name: temporal, kernels, ... */
    const char *title;    /* for the UI */
    analysis_fn run;
    /* What it holds at most while it runs, in bytes an event of the
     * largest rank (its own peak over the model's, one 1 GB rank): the
     * report runs analyses side by side while their sum stays within the
     * largest one's, so that the peak is that of the largest alone. */
    unsigned memory;
    /* What it holds more, the same way, when its tables keep every row
     * (CSV and JSON: a row per launch) until they are written: the report
     * then starts it only once every analysis before it has started, so
     * that they wait little. */
    unsigned rows_memory;
    /* Its CPU time relative to the others' (ms on a 1 GB rank of 2.65
     * million events): the report starts the costliest first. */
    unsigned cost;
};

/* The registry, in DESIGN.md's order (that of enum analysis_id): static
 * entries, never freed. analysis_get and analysis_find give NULL when
 * unknown; analysis_find borrows name until return. */
const struct analysis_info *analysis_list(size_t *count);
const struct analysis_info *analysis_get(enum analysis_id id);
const struct analysis_info *analysis_find(const char *name);

#endif
