#ifndef HTX_ANALYSIS_COLLECTIVES_H
#define HTX_ANALYSIS_COLLECTIVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "util/arena.h"
#include "util/err.h"

/* Multi-rank triage: every communication kernel of the selection
 * (kernel_classify_with: NCCL/RCCL names and --comm-patterns) becomes an
 * instance on its rank; instances of one collective call are matched across
 * ranks; each matched collective gets its arrivals, waits, skew and
 * bandwidth; each rank its blame (wait it inflicted on the others) and the
 * wait it suffered, per iteration; the ranks are ranked by blame.
 *
 * coll_analyze is the one entry point: the headless tables (collectives,
 * stragglers) and the TUI's Ranks and Collectives views all read its result,
 * so they stay thin. Everything in a coll_result lives in the arena given to
 * coll_analyze and is freed with it; the model must outlive it (string ids
 * point into m->strings, positions into rank->events) and must not be
 * re-selected while the result is used.
 *
 * A kernel's args (model_event_comm) are completed, field by field, from
 * those of the innermost CPU op with collective args (record_param_comms)
 * around its launch on the launching thread.
 *
 * Matching (coll_match_rule), in this order of preference:
 *   COLL_MATCH_SEQ:   (process group name, sequence number "Seq") when the
 *                     kernel carries both;
 *   COLL_MATCH_ORDER: otherwise (process group name, or the stream when the
 *                     kernel has no group, collective name or kernel name,
 *                     iteration, occurrence index of that key within the
 *                     iteration on that rank).
 * Order matching assumes every rank calls the same collectives in the same
 * order within an iteration (a skipped call shifts that rank's later
 * occurrences; only a known group size reveals it); Seq has no such limit.
 * A candidate collective is kept only when it is consistent; otherwise its
 * instances stay unmatched, counted by reason (enum coll_issue), and never
 * enter waits or blame: a silently wrong match is worse than none.
 *
 * Time: arrival = kernel start (ns from model->origin_ns). On a blocking
 * collective an early rank's kernel runs until the last rank arrives, so
 * the wait of rank r = last arrival - arrival(r), bounded by its kernel's
 * duration (a kernel that ended earlier did not wait that long). All the
 * others' waits are the last arriver's blame. */

enum coll_match_rule { COLL_MATCH_SEQ = 0, COLL_MATCH_ORDER, COLL_MATCH_RULES };

/* Why instances were left unmatched, or a collective left out of blame. */
enum coll_issue {
    COLL_ISSUE_ALONE = 0,      /* no instance with the same key on another rank */
    COLL_ISSUE_DUPLICATE,      /* one rank has the key twice (same group and Seq) */
    COLL_ISSUE_NAME_MISMATCH,  /* same group and Seq, different collective names */
    COLL_ISSUE_SIZE_MISMATCH,  /* ranks disagree on "Group size" */
    COLL_ISSUE_NOT_MEMBER,     /* a rank outside its own "Process Group Ranks" */
    COLL_ISSUE_MISSING_RANK,   /* fewer ranks than the group size: some rank never called it */
    COLL_ISSUE_COUNT
};

/* Collective kinds, for the nccl-tests bus bandwidth factor. */
enum coll_kind {
    COLL_KIND_OTHER = 0,       /* busbw unknown (NaN) */
    COLL_KIND_ALLREDUCE,       /* 2(n-1)/n */
    COLL_KIND_ALLGATHER,       /* (n-1)/n */
    COLL_KIND_REDUCESCATTER,   /* (n-1)/n */
    COLL_KIND_ALLTOALL,        /* (n-1)/n */
    COLL_KIND_BROADCAST,       /* 1 */
    COLL_KIND_REDUCE,          /* 1 */
    COLL_KIND_SENDRECV,        /* 1 */
};

/* One rank's kernel of a collective. */
struct coll_instance {
    int64_t rank;
    uint32_t rank_index;       /* index into m->ranks */
    uint32_t pos;              /* position of the kernel in rank->events */
    int64_t stream;
    int32_t iteration;         /* the kernel's iteration (MODEL_ITER_*) */
    int64_t arrival, end;      /* kernel start and end, ns */
    int64_t wait;              /* ns spent waiting for later arrivers */
};

struct collective {
    uint32_t name;             /* string id: "Collective name", else the kernel name */
    uint32_t group;            /* "Process Group Name" id, 0 when absent */
    int64_t stream;            /* the stream of the first instance (the key without group) */
    int64_t seq;               /* "Seq", -1 when matched by order */
    int64_t occurrence;        /* occurrence index (COLL_MATCH_ORDER), else -1 */
    int32_t iteration;         /* the last arriver's iteration */
    enum coll_match_rule rule;
    enum coll_kind kind;
    struct coll_instance *inst;/* one per rank, by rank ascending */
    size_t ninst;
    int64_t group_size;        /* "Group size", else ninst */
    bool partial;              /* members of the group were not loaded (or not selected):
                                  waits are among the ranks at hand */
    size_t first, last;        /* indices into inst of the first and last arriver */
    int64_t skew;              /* last arrival - first arrival, ns */
    int64_t total_wait;        /* sum of the instances' waits = the last arriver's blame */
    int64_t max_wait;
    int64_t bytes;             /* max(in, out nelems) x dtype size, -1 unknown */
    int64_t time;              /* last end - last arrival, ns: the transfer once all arrived */
    double algbw, busbw;       /* GB/s (bytes / ns), NaN unknown */
};

/* Blame and suffered wait of one rank in one iteration. Blame goes to the
 * iteration of the collective (its last arriver's), suffered wait to the
 * waiting kernel's own iteration. */
struct rank_iter_blame {
    int64_t rank;
    int32_t iteration;
    int64_t blame, suffered;   /* ns */
};

/* One row of the straggler ranking. */
struct straggler {
    int64_t rank;
    uint32_t rank_index;       /* index into m->ranks */
    int64_t blame, suffered;   /* ns over the selection */
    size_t last_count;         /* matched collectives it arrived last at (with wait > 0) */
    size_t collectives;        /* matched collectives it took part in */
    size_t worst;              /* index into colls of the one it did most harm in, SIZE_MAX */
    int32_t worst_iteration;   /* that collective's iteration */
    int64_t worst_blame;       /* that collective's total wait, ns */
};

struct coll_result {
    const struct strtab *strings; /* what the string ids of colls name */
    struct collective *colls;  /* matched collectives, by last arrival; a partial one
                                  may hold one instance (its group's other ranks are
                                  not loaded): it counts for bandwidth, not blame */
    size_t ncolls;
    struct rank_iter_blame *blame; /* by rank, then iteration */
    size_t nblame;
    struct straggler *ranking; /* every selected rank with a matched collective,
                                  by blame descending (ties: rank ascending) */
    size_t nranking;
    /* diagnostics */
    size_t instances;                          /* communication kernels seen */
    size_t matched[COLL_MATCH_RULES];          /* instances matched by each rule */
    size_t unmatched[COLL_ISSUE_COUNT];        /* instances left out, by reason */
    size_t kept_alone;                         /* one-instance partial collectives */
    size_t ranks_with_comm, ranks_selected;
    int64_t missing_rank_example;              /* a rank that never called a collective, -1 */
};

/* Analyses the current selection of m. Returns 0 or ERR_NOMEM (e set). */
int coll_analyze(const struct model *m, const struct analysis_opts *o, struct arena *a,
                 struct coll_result *out, struct err *e);

/* coll_analyze in two steps, so that a job's collectives can be matched
 * from what each rank's summary stores (summary/colls_io.h), without the
 * events. A record is one communication kernel of a rank with
 * its args completed from its launching op's: all that matching, waits,
 * blame and the tables read. String fields are ids in the strtab given
 * with the records (0: absent); times are ns from the job's origin. */
struct coll_record {
    int64_t rank;
    uint32_t rank_index;       /* the rank's index in the job (struct coll_job) */
    uint32_t pos;              /* the kernel's position in its rank's events */
    uint32_t name;             /* the kernel's name */
    uint32_t coll_name, group, pg_ranks;   /* "Collective name", "Process Group Name",
                                              "Process Group Ranks" */
    int64_t stream, seq, group_size, bytes;/* -1 when unknown (not stream) */
    int64_t ts, end;
    int32_t iteration;
};

/* The job records are matched in: every rank, ascending, and whether it is
 * selected; the strings their ids name. */
struct coll_job {
    const struct strtab *strings;
    const int64_t *ranks;
    const bool *selected;
    size_t nranks;
};

/* The records of the ranks m selects, rank by rank (rank_index ascending),
 * malloc'ed (free *out), ids in m->strings. 0 or ERR_NOMEM. */
int coll_records(const struct model *m, const struct analysis_opts *o, struct coll_record **out,
                 size_t *n);
/* The same for one rank, m->ranks[rank_index], selected or not. */
int coll_rank_records(const struct model *m, const struct analysis_opts *o, size_t rank_index,
                      struct coll_record **out, size_t *n);

/* coll_analyze on the records of the selected ranks of job (rank by rank,
 * rank_index ascending, each < job->nranks): the same result as on the
 * events they were made from. */
int coll_analyze_records(const struct coll_job *job, const struct coll_record *recs, size_t n,
                         struct arena *a, struct coll_result *out, struct err *e);

/* The tables of collectives_run and (htx's) stragglers_run from a result,
 * in a. 0 or ERR_NOMEM. */
int coll_collectives_tables(const struct coll_result *r, struct arena *a, struct table_list *out);
int coll_straggler_tables(const struct coll_result *r, struct arena *a, struct table_list *out);

/* Texts for output. */
const char *coll_rule_name(enum coll_match_rule r);    /* "group+seq", "group+name+order" */
const char *coll_issue_text(enum coll_issue i);
const char *coll_kind_name(enum coll_kind k);

/* Kind of a collective from its "Collective name" or kernel name
 * ("allreduce", "ncclKernel_AllReduce_RING_LL_Sum_float", ...). Borrows s. */
enum coll_kind coll_kind_of(const char *s);

/* Size in bytes of a PyTorch dtype name ("Float" 4, "BFloat16" 2, ...), 0
 * when unknown. Borrows s. */
int coll_dtype_size(const char *s);

/* nccl-tests' bus bandwidth factor for n ranks (NaN for COLL_KIND_OTHER). */
double coll_busbw_factor(enum coll_kind k, int64_t n);

#endif
