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
    /* The problems of gen_plant.c (GEN_PLANT_*; 0: the layout above). */
    unsigned plant;
    int slow_rank;        /* GEN_PLANT_SLOW_KERNEL, GEN_PLANT_IMBALANCE: the rank */
    int imbalance_rank;
    int slow_step, slow_coll;   /* GEN_PLANT_SLOW_COLLECTIVE: which collective */
    int clock_rank;       /* rank whose clock is off (-1: none) ... */
    int64_t clock_offset_us; /* ... by this much: its every time is later by it */
};

/* Problems for the findings (analysis/findings.h), planted in a dense
 * layout where the GPU never idles and computation hides every
 * collective, so that a job with GEN_PLANT_DENSE alone has none. */
enum gen_plant {
    GEN_PLANT_DENSE = 1u << 0,            /* the dense layout, nothing planted */
    GEN_PLANT_EXPOSED = 1u << 1,          /* collectives not hidden by computation */
    GEN_PLANT_HOST_BOUND = 1u << 2,       /* 500 us a slot waiting for a late launch */
    GEN_PLANT_LAUNCH = 1u << 3,           /* 20 tiny kernels a slot: 19 gaps of 15 us */
    GEN_PLANT_SYNC = 1u << 4,             /* a cudaStreamSynchronize, 300 us drained */
    GEN_PLANT_PAGEABLE = 1u << 5,         /* a 100 us pageable copy a slot */
    GEN_PLANT_STEP_GAP = 1u << 6,         /* 1000 us idle before each step's first kernel */
    GEN_PLANT_SLOW_KERNEL = 1u << 7,      /* slow_rank's compute kernel 1.5x every slot */
    GEN_PLANT_SLOW_COLLECTIVE = 1u << 8,  /* one collective's transfer 8x longer */
    GEN_PLANT_IMBALANCE = 1u << 9,        /* the others' steps 10% shorter */
};
#define GEN_PLANT_HOST_US 500
#define GEN_PLANT_SYNC_US 300
#define GEN_PLANT_TINY 20
#define GEN_PLANT_PAGEABLE_US 100
#define GEN_PLANT_STEP_GAP_US 1000
#define GEN_PLANT_SLOW_US 500
#define GEN_PLANT_SLOW_XFER 8

void gen_plant_rank(const struct gen_coll_cfg *c, int rank, struct gen_out *o);

/* What gen_coll.c writes, for gen_plant.c. */
void gen_coll_cpu_event(struct gen_out *o, const char *cat, const char *name, int rank,
                        int64_t ts, int64_t dur, const char *args);
void gen_coll_comm_args(struct gen_out *o, const struct gen_coll_cfg *c, int k, int64_t seq);
void gen_coll_kernel(struct gen_out *o, const char *name, int64_t stream, int64_t ts, int64_t dur,
                     int64_t corr);
void gen_coll_launch(struct gen_out *o, int rank, int64_t kernel_ts, int64_t corr);
int64_t gen_coll_xfer_us(int k);
const char *gen_coll_kernel_name(int k);

/* Writes rank `rank`'s trace document to o. */
void gen_coll_rank(const struct gen_coll_cfg *c, int rank, struct gen_out *o);

#endif
