#ifndef HTX_ANALYSIS_CLOCKS_H
#define HTX_ANALYSIS_CLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/collectives.h"
#include "model/model.h"
#include "util/err.h"

/* Clocks of ranks on different hosts disagree. A blocking collective ends
 * at about one instant on every rank: when the last rank arrives every
 * rank's kernel is running, and each ends once the transfer is done. So
 * the ends of matched collectives (analysis/collectives.h) tell each
 * rank's clock from the reference's (the lowest rank matched): its offset
 * is the median, over the collectives both took part in, of its kernel's
 * end minus the reference's. A median, so that the few collectives whose
 * ends really differ do not move it.
 *
 * An offset counts as skew when it exceeds what one collective allows:
 * on one clock both kernels are running when the last rank arrives and
 * end after it, so their ends lie within the longer kernel's duration;
 * the allowance is the median of that over the same collectives (the
 * upper one of an even count), and never less than CLOCK_MIN_SKEW_NS. */

/* NCCL kernels of one collective end within a few µs of each other on one
 * host; 50 µs leaves room for the last chunk of a ring. */
#define CLOCK_MIN_SKEW_NS ((int64_t)50 * 1000)

struct clock_rank {
    size_t collectives;        /* matched collectives shared with the reference */
    int64_t offset_ns;         /* its clock minus the reference's (median of end differences) */
    int64_t allowance_ns;      /* what one collective allows (see above) */
    bool skewed;               /* |offset| > allowance */
};

struct clock_estimate {
    int64_t reference;         /* the reference rank, -1 when no collective matched */
    struct clock_rank *ranks;  /* by index in m->ranks (malloc'ed; clock_estimate_fini) */
    size_t nranks;
};

/* Estimates from the matched collectives of r (of a model of nranks ranks).
 * 0 or ERR_NOMEM (e set). */
int clock_estimate_of(const struct coll_result *r, size_t nranks, struct clock_estimate *out,
                      struct err *e);
/* The same from m's current selection (collectives matched with htx's
 * default options). */
int clock_estimate(const struct model *m, struct clock_estimate *out, struct err *e);
void clock_estimate_fini(struct clock_estimate *c);

/* Whether any rank is skewed. */
bool clock_any_skew(const struct clock_estimate *c);

/* --align=collectives: shifts every skewed rank of m by its offset (its
 * clock becomes the reference's; model_shift_clocks) and selects sel again.
 * *aligned receives how many ranks moved. 0, or an error with e set. */
int clock_align(struct model *m, const struct selection *sel, size_t *aligned, struct err *e);

#endif
