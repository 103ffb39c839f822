#ifndef HTX_GEN_SIM_H
#define HTX_GEN_SIM_H

/* Simulates one rank of the training job of gen_model.h and streams its
 * Kineto trace. The simulation is deterministic for a configuration, so the
 * file is written in Kineto's order (CPU ops, then runtime calls with their
 * GPU work, then GPU annotations, then metadata) by re-running it once per
 * block instead of holding events in memory. */

#include <stdint.h>

#include "gen_out.h"
#include "gen_write.h"

struct gen_cfg {
    uint64_t seed;
    int world;           /* ranks in the job (distributedInfo.world_size) */
    int iterations;      /* ProfilerStep count */
    int first_step;      /* N of the first ProfilerStep#N */
    int layers;          /* transformer layers: the size knob */
    int bucket_layers;   /* layers per DDP all-reduce bucket */
    int frac;            /* ns-resolution timestamps ("ts": 12.345) */
    int test;            /* the test half of a --pair */
    int64_t origin_us;   /* trace start of rank 0, µs after base_ns */
    int64_t base_ns;     /* baseTimeNanoseconds */
    /* Planted problems (htx's trust checks): rank `foreign` (-1: none) is of
     * another job by foreign_kind (GEN_FOREIGN_*); rank 0 has bad_events
     * malformed events, `overlaps` pairs of overlapping kernels and
     * `graphs` CUDA graph launches. */
    int foreign, foreign_kind, bad_events, overlaps, graphs;
    /* Rank clock_rank's clock (-1: none) is clock_offset_ns late. */
    int clock_rank;
    int64_t clock_offset_ns;
};

enum { GEN_FOREIGN_WORLD = 1, GEN_FOREIGN_PG, GEN_FOREIGN_TIME };
/* A foreign rank's trace starts this long after the others' (GEN_FOREIGN_TIME). */
#define GEN_FOREIGN_SHIFT_NS ((int64_t)86400 * 1000000000)

/* Writes rank `rank`'s whole trace document to `o` and fills `st`.
 * Borrows everything; `trace_name` goes into "traceName". */
void gen_sim_rank(const struct gen_cfg *cfg, int rank, struct gen_out *o,
                  const char *trace_name, struct gen_stats *st);

#endif
