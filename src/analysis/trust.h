#ifndef HTX_ANALYSIS_TRUST_H
#define HTX_ANALYSIS_TRUST_H

/* The job checked before its figures are shown (DESIGN.md "Trust"): what
 * each rank file said of its job, and what its load had to drop or
 * repair, turned into findings a report, `htx info` and the TUI show.
 * Pure: the facts come from a loaded model (trust_ranks_of_model) or from
 * rank summaries (app/summary_job.h), and the checks see only the facts. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/table.h"
#include "model/model.h"
#include "util/arena.h"

/* Ranks of one job start their traces within seconds of each other; ten
 * minutes leaves room for skewed clocks and staggered profiler starts. */
#define TRUST_TIME_APART_NS ((int64_t)600 * 1000000000)

/* What one rank file says of its job and of its own load. */
struct trust_rank {
    int64_t rank;
    int64_t world_size;            /* distributedInfo.world_size, -1 unknown */
    bool has_start;
    int64_t start_ns;              /* its first event, absolute ns (the file's clock) */
    const struct trace_pg *pgs;    /* distributedInfo.pg_config, borrowed */
    size_t npgs;
    uint64_t dropped, repaired;    /* events skipped / kept with a field read as absent */
    uint64_t overlapping;          /* kernels, memcpys and memsets starting before the
                                      latest end of those before them on their stream */
    uint64_t graph_kernels;        /* GPU events launched by CUDA/HIP graph launches */
    uint64_t graph_launches;
    /* Its clock against the reference rank's (analysis/clocks.h), known
     * only from a whole model's matched collectives (trust_ranks_of_model) */
    bool clock_skewed;             /* beyond what one collective allows */
    int64_t clock_reference;       /* the reference rank */
    int64_t clock_skew_ns;         /* its clock minus the reference's, as loaded */
    int64_t clock_allowance_ns;
    uint64_t clock_collectives;    /* matched collectives it was estimated from */
    bool clock_aligned;            /* shifted by --align=collectives */
};

enum trust_check {
    TRUST_MISSING_RANKS = 0,   /* fewer rank files than the world size */
    TRUST_MIXED_JOB,           /* a rank file of another job */
    TRUST_DROPPED_EVENTS,      /* events skipped or repaired at load */
    TRUST_OVERLAPPING_EVENTS,  /* events overlapping on one GPU stream */
    TRUST_GRAPH_LAUNCHES,      /* GPU work launched by CUDA/HIP graphs (informational) */
    TRUST_CLOCK_SKEW,          /* ranks' clocks disagree (different hosts) */
    TRUST_CHECK_COUNT
};

#define TRUST_RANKS_TEXT 96
#define TRUST_TEXT 256

struct trust_finding {
    enum trust_check check;
    bool severe;                   /* the job itself is not what its files claim */
    uint64_t count;                /* ranks missing, ranks of another job, events */
    char ranks[TRUST_RANKS_TEXT];  /* the ranks concerned, "3, 5-7" (cut with "...") */
    char text[TRUST_TEXT];         /* one line for people: "7 of 8 ranks: rank 3 missing" */
};

struct trust_report {
    struct trust_finding findings[TRUST_CHECK_COUNT];   /* in enum order, those that fired */
    size_t n;
    int64_t world_size;            /* the job's (most ranks'), -1 when none says */
};

/* v[0..k) ascending, without repeats, as "3, 5-7" into buf (size n, always
 * terminated), cut with "..." when it does not fit. */
void trust_list_text(char *buf, size_t n, const int64_t *v, size_t k);

/* Checks ranks[0..n) (any order; each rank once: duplicates are refused at
 * load) into out. Never fails; allocates only for the duration. */
void trust_check(const struct trust_rank *ranks, size_t n, struct trust_report *out);

/* The facts of r, a rank of m (its pgs point into r). */
void trust_rank_of(const struct model *m, const struct rank_model *r, struct trust_rank *out);
/* The facts of every rank of m, malloc'ed (the caller frees *out; pgs point
 * into m); m->nranks of them, their clocks compared over m's selection.
 * 0 or ERR_NOMEM. Summary-only ranks say nothing. */
int trust_ranks_of_model(const struct model *m, struct trust_rank **out);
struct clock_estimate;
/* Fills the clock facts of v[0..n) (by index, as c's ranks) from c; each
 * v[i].clock_skew_ns holds on entry what --align took off that rank (0
 * when nothing), so the skew given is the clock's as loaded. */
void trust_clocks_of(const struct clock_estimate *c, struct trust_rank *v, size_t n);
/* trust_check over m's ranks. 0 or ERR_NOMEM. */
int trust_of_model(const struct model *m, struct trust_report *out);

/* "missing_ranks", "mixed_job", "dropped_events", "overlapping_events",
 * "graph_launches", "clock_skew". */
const char *trust_check_name(enum trust_check c);
/* Whether any finding is severe. */
bool trust_severe(const struct trust_report *r);

/* The findings as the report's "trust" table (check, severe, count, ranks,
 * message), in a; NULL on ENOMEM. */
struct table *trust_table(const struct trust_report *r, struct arena *a);

#endif
