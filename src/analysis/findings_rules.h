#ifndef HTX_ANALYSIS_FINDINGS_RULES_H
#define HTX_ANALYSIS_FINDINGS_RULES_H

/* Private to findings*.c: what every rule reads (the selected ranks with
 * their kept steps, the iteration, the kernel classes) and how it adds a
 * finding. A rule is `int rule(struct fctx *c, struct err *e)`: it adds
 * zero or more findings with fctx_add and returns 0 or ERR_NOMEM. */

#include "analysis/busy.h"
#include "analysis/collectives.h"
#include "analysis/findings.h"
#include "util/str.h"

/* A selected rank, with the steps the selection keeps. */
struct frank {
    int64_t rank;
    const struct rank_model *r;   /* NULL: a rank known from its summary's facts */
    size_t index;                 /* into m->ranks */
    struct iteration *steps;      /* kept ProfilerSteps by ts (malloc'ed), NULL: none */
    size_t nsteps;
    bool has_events;              /* not a summary-only rank */
    bool rows_rise;               /* its rows' positions rise: row order is position order */
    double exposed_ns;            /* without events: exposed communication per step
                                     from the summary's tables, NaN unknown */
    /* per step, filled by findings_host for the straggler's cause */
    double host_wait, sync_wait, launch_wait, step_gap;
};

struct fctx {
    const struct model *m;
    const struct analysis_opts *o;
    const struct trust_report *trust;
    struct arena *a;
    struct finding *items;        /* malloc'ed while rules run */
    size_t n, cap;
    struct frank *ranks;          /* the selected ranks, ascending */
    size_t nranks;
    double iter_ns;               /* the iteration costs are shares of */
    size_t iterations;
    struct busy_classes classes;
    unsigned needs_events;        /* kinds that could not run: bit per enum finding_kind */
    int64_t *scratch;             /* fctx_raise's */
    /* the collectives: coll_analyze's on m, or given (summaries); NULL
     * until fctx_colls */
    const struct coll_result *colls;
    struct coll_result own_colls;
    /* every kernel name of every rank with events: count and time inside
     * its steps, by (name, rank); NULL until fctx_kernels */
    struct kq *kq;
    size_t nkq;
};

struct kq {
    uint32_t name;
    uint32_t rank_at;             /* index into c->ranks */
    int64_t count, sum;           /* kernels, ns */
};

struct coll_result;
/* The job's matched collectives (made once). 0 or ERR_NOMEM. */
int fctx_colls(struct fctx *c, struct err *e);
/* c->kq (made once). 0 or ERR_NOMEM. */
int fctx_kernels(struct fctx *c);
/* The median of v[0..n) (sorted in place); NaN when n is 0. */
double fctx_median(double *v, size_t n);

/* Runs every rule on c (made by its caller: rc is how that went) into out,
 * then releases what c holds (fctx_fini). 0 or ERR_NOMEM with e set. */
int fctx_run(struct fctx *c, int rc, struct findings *out, struct err *e);
void fctx_fini(struct fctx *c);

/* A finding of kind k with no cost, evidence on the whole timeline, "" texts;
 * NULL on ENOMEM. Valid until the next fctx_add. */
struct finding *fctx_add(struct fctx *c, enum finding_kind k);
/* Sets cost_ns (clamped to [0, the iteration]) and cost_share. */
void fctx_cost(const struct fctx *c, struct finding *f, double cost_ns);
/* The rank's figures per iteration: lost_ns over the rank's kept steps (or
 * over the span when it has none) divided by its steps. */
double fctx_per_iteration(const struct frank *fr, double lost_ns);
/* The length of [s, e) inside fr's kept steps (all of it without steps),
 * and in *step the number of the step holding s (or -1). */
int64_t fctx_in_steps(const struct frank *fr, int64_t s, int64_t e, int64_t *step);
/* Confidence: support (0..1) times the trust factor of the ranks of f. */
double fctx_confidence(const struct fctx *c, const struct finding *f, double support);
/* v[0..k) (any order, repeats allowed; sorted in place) as "3, 5-7". */
void fctx_list_text(char *buf, size_t n, int64_t *v, size_t k);
/* A name for a title or cause: the short name (§2.2) when o->shorten_names,
 * cut to fit buf. */
void fctx_name(const struct fctx *c, uint32_t name, char *buf, size_t n);

/* A duration for people: "850 ns", "12.3 us", "4.56 ms", "1.23 s". */
void fctx_duration(char *buf, size_t n, double ns);

/* One rank's part in a job-wide finding: what it lost per iteration, the
 * share of its steps where it shows, and where it shows most. */
struct fhit {
    int64_t rank;
    size_t rank_at;               /* index into c->ranks */
    double per_iter;              /* ns per step */
    double support;               /* 0..1 */
    int64_t start, end;           /* the worst occurrence */
    uint32_t pos;                 /* its event, MODEL_NONE */
    int64_t stream, step;         /* -1 unknown */
};
/* The finding of kind k over the hits whose per_iter reaches min_share of
 * the iteration: cost the mean of theirs, ranks theirs, window, evidence
 * (the timeline on the worst hit) and confidence; *worst its index into
 * hits. NULL without such hit, or on ENOMEM (then *nomem). */
struct finding *fctx_raise(struct fctx *c, enum finding_kind k, const struct fhit *hits, size_t n,
                           double min_share, size_t *worst, bool *nomem);
/* The CPU op of fr's thread `thread` (an index of m->pidtids) that ran
 * longest during [s, e): the outermost when outer, else the innermost
 * holding s; MODEL_NONE when none. */
uint32_t fctx_cpu_op_during(const struct fctx *c, const struct frank *fr, uint32_t thread,
                            int64_t s, int64_t e, bool outer);

/* The rules, by theme. */
int findings_exposed_comm(struct fctx *c, struct err *e);    /* findings_comm.c */
int findings_host(struct fctx *c, struct err *e);            /* findings_host.c: host-bound,
                                                                launch overhead, syncs, step gaps */
int findings_copies(struct fctx *c, struct err *e);          /* findings_host.c */
int findings_straggler(struct fctx *c, struct err *e);       /* findings_ranks.c */
int findings_imbalance(struct fctx *c, struct err *e);       /* findings_ranks.c */
int findings_slow_kernel(struct fctx *c, struct err *e);     /* findings_ranks.c */
int findings_bandwidth(struct fctx *c, struct err *e);       /* findings_ranks.c */
int findings_hot(struct fctx *c, struct err *e);             /* findings_hot.c */

#endif
