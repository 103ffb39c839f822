#ifndef HTX_GEN_COLL_H
#define HTX_GEN_COLL_H

/* A second, deliberately simple job for the collectives and stragglers
 * tests: every iteration is a row of compute kernels, each
 * followed by a blocking collective on the default process group, with the
 * args recent PyTorch writes on NCCL kernels ("Collective name", "Process
 * Group Name", "Process Group Ranks", "Group size", "In msg nelems",
 * "Out msg nelems", "dtype", "Seq"). All ranks arrive at every collective at
 * the same instant, except one planted straggler whose compute before one
 * chosen collective runs `delay` longer: there every other rank's NCCL
 * kernel starts on time and runs until the straggler arrives, so each of
 * them waits exactly `delay`. Times are whole microseconds, so the figures
 * an analysis derives are exact. */

#include <stdint.h>

#include "gen_out.h"

struct gen_coll_cfg {
    int world;            /* ranks */
    int iterations;       /* ProfilerStep count */
    int first_step;       /* N of the first ProfilerStep#N */
    int per_step;         /* collectives per iteration */
    int seq;              /* write "Seq" (else only order can match them) */
    int straggler;        /* planted rank, -1 for none */
    int step;             /* planted iteration: its ProfilerStep number */
    int coll;             /* planted collective: index within the iteration */
    int64_t delay_us;     /* planted delay */
    int clock_rank;       /* rank whose clock is off (-1: none) ... */
    int64_t clock_offset_us; /* ... by this much: its every time is later by it */
};

/* Writes rank `rank`'s trace document to o. */
void gen_coll_rank(const struct gen_coll_cfg *c, int rank, struct gen_out *o);

#endif
