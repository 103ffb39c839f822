#ifndef HTX_ANALYSIS_FINDINGS_H
#define HTX_ANALYSIS_FINDINGS_H

/* What is wrong with a job, why, and what it costs (DESIGN.md "Findings").
 * Rules read the model's current selection (and the analyses of this
 * directory) and each raises findings: a stable kind, a title and a cause in
 * plain words, a cost in time lost per iteration measured from the trace's
 * own numbers, where it is (ranks, iterations, a window), a pointer to the
 * evidence a front end can jump to, and a confidence.
 *
 * Cost: the iteration is the mean ProfilerStep of the selected ranks (the
 * selected span of the job when it has no step). A finding's cost is the
 * time per iteration its rule attributes to the problem, never more than
 * the iteration; cost_share = cost / iteration. Findings are ranked by
 * cost, problems before pointers (FINDING_HOT_*), whatever their cost.
 *
 * Confidence (0..1): the share of the trace that supports the finding (the
 * iterations or ranks where its condition holds), lowered when a trust
 * check (trust.h) fired on the ranks involved: halved for a severe one,
 * times 0.8 for the others. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/table.h"
#include "analysis/trust.h"
#include "model/model.h"
#include "util/arena.h"
#include "util/err.h"

/* Stable ids: the report's "kind" column gives finding_kind_name. Problems
 * first, in the order of their value; hot spots last. */
enum finding_kind {
    FINDING_STRAGGLER = 0,       /* "straggler": a rank the others wait for at collectives */
    FINDING_EXPOSED_COMM,        /* "exposed_communication": comm not hidden by compute */
    FINDING_HOST_BOUND,          /* "host_bound": GPU idle waiting for the host */
    FINDING_LAUNCH_OVERHEAD,     /* "launch_overhead": short kernels slower to launch than run */
    FINDING_SYNC,                /* "sync_stall": host synchronizations draining the queue */
    FINDING_PAGEABLE_COPY,       /* "pageable_copy": pageable or small host-device copies */
    FINDING_STEP_GAP,            /* "step_gap": GPU idle at iteration boundaries */
    FINDING_IMBALANCE,           /* "imbalance": step time spread across ranks */
    FINDING_SLOW_KERNEL,         /* "slow_kernel": one kernel much slower on one rank */
    FINDING_BANDWIDTH_OUTLIER,   /* "bandwidth_outlier": a collective far below its peers' busbw */
    FINDING_HOT_KERNEL,          /* "hot_kernel": a kernel with a large share of GPU time */
    FINDING_HOT_ANNOTATION,      /* "hot_annotation": an annotation with a large share */
    FINDING_KIND_COUNT
};

/* Where a front end finds the proof. */
enum finding_evidence_kind {
    FINDING_EVIDENCE_TIMELINE = 0,   /* the timeline on [start_ns, end_ns) of rank (stream) */
    FINDING_EVIDENCE_VIEW,           /* the row of a view's table whose key is row */
};

/* The views evidence points at (the TUI maps them to its own). */
enum finding_view {
    FINDING_VIEW_TIMELINE = 0,
    FINDING_VIEW_OVERVIEW,
    FINDING_VIEW_KERNELS,
    FINDING_VIEW_IDLE,
    FINDING_VIEW_OVERLAP,
    FINDING_VIEW_LAUNCH,
    FINDING_VIEW_ANNOTATIONS,
    FINDING_VIEW_RANKS,
    FINDING_VIEW_COLLECTIVES,
    FINDING_VIEW_COUNT
};

#define FINDING_TITLE_TEXT 128
#define FINDING_CAUSE_TEXT 512
#define FINDING_LIST_TEXT 96
#define FINDING_KEY_TEXT 160
#define FINDING_TABLE_TEXT 48

struct finding_evidence {
    enum finding_evidence_kind kind;
    /* FINDING_EVIDENCE_TIMELINE (and, for a view, where the row lives) */
    int64_t rank;                  /* the rank to show, -1: all */
    int64_t stream;                /* the GPU stream, -1: any */
    int64_t start_ns, end_ns;      /* ns from model->origin_ns */
    uint32_t pos;                  /* an event of rank to select, MODEL_NONE */
    /* FINDING_EVIDENCE_VIEW */
    enum finding_view view;
    char table[FINDING_TABLE_TEXT];/* the table's JSON key, "comm_comp_overlap" */
    char row[FINDING_KEY_TEXT];    /* its key column(s): "rank=3", "name=ncclKernel..." */
};

struct finding {
    enum finding_kind kind;
    char title[FINDING_TITLE_TEXT];  /* one line: "Rank 3 waits 1.2 ms per step on NCCL" */
    char cause[FINDING_CAUSE_TEXT];  /* why, and what was measured */
    double cost_ns;                  /* time lost per iteration, 0 <= cost <= iteration */
    double cost_share;               /* cost_ns / the iteration, 0..1 */
    char ranks[FINDING_LIST_TEXT];   /* "3, 5-7" (cut with "...") */
    char iterations[FINDING_LIST_TEXT];  /* the iterations where it shows, "" none */
    int64_t start_ns, end_ns;        /* the window where it shows most, ns from origin */
    struct finding_evidence evidence;
    double confidence;               /* 0..1 */
};

struct findings {
    struct finding *items;           /* by rank: problems by cost descending, then hot spots */
    size_t n;
    double iteration_ns;             /* the iteration costs are shares of */
    size_t iterations;               /* steps it is the mean of (0: the span) */
    /* Rules that could not run because the ranks hold no events (summaries):
     * a note for the report, "" when every rule ran. */
    char needs_events[FINDING_CAUSE_TEXT];
};

/* Runs every rule on m's current selection into out, whose items live in a.
 * trust may be NULL (no check lowers a confidence). Returns 0, or ERR_NOMEM
 * with e set; a job with nothing wrong gives 0 findings. Borrows m and trust
 * until return. */
int findings_of_model(const struct model *m, const struct analysis_opts *o,
                      const struct trust_report *trust, struct arena *a, struct findings *out,
                      struct err *e);

/* What rank summaries hold that the rules read without events (the TUI
 * and `htx report` on summaries: app/summary_job.h gives each table): the
 * straggler and the bandwidth outliers from the collectives, the spread of
 * step times from the steps, exposed communication from each rank's
 * communication share (comm %) of its GPU span (kernel_time) and its
 * overlap. Any table may be NULL (its rules stay silent). Borrowed until
 * return. */
struct findings_facts {
    const struct coll_result *colls;      /* the job's matched collectives */
    const struct table *rank_steps;       /* rank, iteration, step_time (us) */
    const struct table *rank_overview;    /* rank, ..., comm (%), ... */
    const struct table *temporal;         /* temporal_breakdown */
    const struct table *overlap;          /* comm_comp_overlap */
    const int64_t *ranks;                 /* the selected ranks, ascending */
    size_t nranks;
};
struct coll_result;

/* findings_of_model on the facts of a job read from its summaries; the
 * rules that need events are named in out->needs_events. */
int findings_of_facts(const struct findings_facts *facts, const struct trust_report *trust,
                      struct arena *a, struct findings *out, struct err *e);

/* The report table "findings" (kind, title, cause, cost_us, cost_share,
 * ranks, iterations, start_ns, end_ns, evidence, confidence), one row per
 * finding in f's order, in a; NULL on ENOMEM. */
struct table *findings_table(const struct findings *f, struct arena *a);

/* The analysis: findings_of_model (with trust_of_model) and its table. */
int findings_run(const struct model *m, const struct analysis_opts *o, struct arena *a,
                 struct table_list *out, struct err *e);

/* "straggler", "exposed_communication", ...; "?" out of range. */
const char *finding_kind_name(enum finding_kind k);
/* Whether k is a pointer (a hot spot), not a problem. */
bool finding_kind_is_hot_spot(enum finding_kind k);
/* "timeline", "overview", "kernels", "idle", "overlap", "launch",
 * "annotations", "ranks", "collectives" (the --analysis and view names). */
const char *finding_view_name(enum finding_view v);
/* The evidence as one line, "timeline rank=3 stream=7 1000-2000" or
 * "overlap comm_comp_overlap rank=3", into buf (size n, terminated). */
void finding_evidence_text(const struct finding_evidence *ev, char *buf, size_t n);

#endif
