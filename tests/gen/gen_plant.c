#include "config.h"
#include "gen_coll.h"

#include <stdbool.h>
#include <stdio.h>

/* The collectives job in a dense layout, with the findings' problems
 * planted (gen_coll.h, enum gen_plant). One slot per collective, nothing
 * idle unless planted:
 *
 *   stream 7:  |-- A compute 1 ms --|-- B1 (hides the collective) --|[planted]|-- B2 --|
 *   stream 40:                      |-- NCCL kernel --|
 *
 * Each planted problem costs a known time per slot (gen_coll.h), so a test
 * knows the cost per iteration a rule must find. */

#define ORIGIN_US 1700000000000LL
#define SLOT_US 4000
#define A_US 1000
#define LEAD_US 50
#define COMPUTE_STREAM 7
#define COPY_STREAM 8
#define COMM_STREAM 40

struct slot_ctx {
    const struct gen_coll_cfg *c;
    int rank;
    struct gen_out *o;
    int64_t corr, seq;
};

static bool has(const struct gen_coll_cfg *c, unsigned p)
{
    return (c->plant & p) != 0;
}

static int64_t delay_of(const struct gen_coll_cfg *c)
{
    return c->straggler >= 0 ? c->delay_us : has(c, GEN_PLANT_SLOW_KERNEL) ? GEN_PLANT_SLOW_US : 0;
}

static int64_t slot_us(const struct gen_coll_cfg *c)
{
    return SLOT_US + delay_of(c);
}

static int64_t gap_us(const struct gen_coll_cfg *c)
{
    return has(c, GEN_PLANT_STEP_GAP) ? GEN_PLANT_STEP_GAP_US : 0;
}

static int64_t step_us(const struct gen_coll_cfg *c)
{
    return gap_us(c) + (int64_t)c->per_step * slot_us(c);
}

/* A kernel on stream, launched ahead (or `late`: right before it). */
static void gpu(struct slot_ctx *x, const char *name, int64_t stream, int64_t ts, int64_t dur,
                bool late)
{
    if (dur <= 0)
        return;
    char args[64];
    snprintf(args, sizeof args, "\"correlation\": %lld", (long long)x->corr);
    gen_coll_cpu_event(x->o, "cuda_runtime", "cudaLaunchKernel", x->rank,
                       ts - (late ? 5 : LEAD_US), 5, args);
    gen_coll_kernel(x->o, name, stream, ts, dur, x->corr++);
    gen_out_str(x->o, "}}");
}

/* Launch overhead: GEN_PLANT_TINY kernels of 5 us, each launch 20 us. */
static int64_t tiny_kernels(struct slot_ctx *x, int64_t t)
{
    for (int j = 0; j < GEN_PLANT_TINY; j++, x->corr++) {
        char args[64];
        snprintf(args, sizeof args, "\"correlation\": %lld", (long long)x->corr);
        gen_coll_cpu_event(x->o, "cuda_runtime", "cudaLaunchKernel", x->rank, t + 20 * j - 15, 20,
                           args);
        gen_coll_kernel(x->o, "tiny_elementwise_kernel", COMPUTE_STREAM, t + 20 * j, 5, x->corr);
        gen_out_str(x->o, "}}");
    }
    return t + 20 * GEN_PLANT_TINY;
}

/* The host's planted waits after B1 (ending at t); the end of the last. */
static int64_t host_waits(struct slot_ctx *x, int64_t t, bool *late)
{
    const struct gen_coll_cfg *c = x->c;
    if (has(c, GEN_PLANT_LAUNCH))
        t = tiny_kernels(x, t);
    if (has(c, GEN_PLANT_SYNC)) {
        gen_coll_cpu_event(x->o, "cpu_op", "aten::item", x->rank, t - 120, 130, NULL);
        gen_coll_cpu_event(x->o, "cpu_op", "aten::_local_scalar_dense", x->rank, t - 115, 123, NULL);
        gen_coll_cpu_event(x->o, "cuda_runtime", "cudaStreamSynchronize", x->rank, t - 110, 112,
                           NULL);
        t += GEN_PLANT_SYNC_US;
        *late = true;
    }
    if (has(c, GEN_PLANT_HOST_BOUND)) {
        if (*late)   // the wait after the sync ends with a launch: B0 marks it
            gpu(x, "ampere_sgemm_64x64_nn", COMPUTE_STREAM, t, 10, true), t += 10;
        gen_coll_cpu_event(x->o, "cpu_op", "aten::host_work", x->rank, t - 20, GEN_PLANT_HOST_US + 10,
                           NULL);
        t += GEN_PLANT_HOST_US;
        *late = true;
    }
    if (has(c, GEN_PLANT_PAGEABLE)) {
        char args[64];
        snprintf(args, sizeof args, "\"correlation\": %lld", (long long)x->corr);
        gen_coll_cpu_event(x->o, "cpu_op", "aten::to", x->rank, t - 60, 30, NULL);
        gen_coll_cpu_event(x->o, "cuda_runtime", "cudaMemcpyAsync", x->rank, t - 55, 10, args);
        gen_out_fmt(x->o, ",\n{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": "
                          "\"Memcpy HtoD (Pageable -> Device)\", \"pid\": 0, \"tid\": %d, "
                          "\"ts\": %lld, \"dur\": %d, \"args\": {\"device\": 0, \"stream\": %d, "
                          "\"correlation\": %lld}}",
                    COPY_STREAM, (long long)(t + 10), GEN_PLANT_PAGEABLE_US, COPY_STREAM,
                    (long long)x->corr++);
    }
    return t;
}

static void slot(struct slot_ctx *x, int step, int k, int64_t s, bool first)
{
    const struct gen_coll_cfg *c = x->c;
    bool straggle = c->straggler >= 0 && step == c->step && k == c->coll;
    bool slow = has(c, GEN_PLANT_SLOW_KERNEL);
    int64_t late = (straggle && x->rank == c->straggler) || (slow && x->rank == c->slow_rank)
                       ? delay_of(c) : 0;
    int64_t arrive = s + A_US, last = arrive + (straggle || slow ? delay_of(c) : 0);
    int64_t xfer = gen_coll_xfer_us(k);
    if (has(c, GEN_PLANT_SLOW_COLLECTIVE) && step == c->slow_step && k == c->slow_coll)
        xfer *= GEN_PLANT_SLOW_XFER;
    bool gap_before = first && has(c, GEN_PLANT_STEP_GAP);
    if (gap_before)
        gen_coll_cpu_event(x->o, "cpu_op", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                           x->rank, s - gap_us(c) + 5, gap_us(c) - 15, NULL);
    gpu(x, "ampere_sgemm_128x64_nn", COMPUTE_STREAM, s, A_US + late, gap_before);
    /* the collective */
    int64_t start = arrive + late, end = last + xfer;
    gen_out_fmt(x->o, ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", "
                      "\"pid\": %d, \"tid\": %d, \"ts\": %lld, \"dur\": 20, \"args\": "
                      "{\"External id\": %lld",
                1000 + x->rank, 1000 + x->rank, (long long)(start - LEAD_US - 5),
                (long long)x->corr);
    gen_coll_comm_args(x->o, c, k, x->seq);
    gen_out_str(x->o, "}}");
    gen_coll_launch(x->o, x->rank, start, x->corr);
    gen_coll_kernel(x->o, gen_coll_kernel_name(k), COMM_STREAM, start, end - start, x->corr++);
    gen_coll_comm_args(x->o, c, k, x->seq++);
    gen_out_str(x->o, "}}");
    if (!has(c, GEN_PLANT_EXPOSED))
        gpu(x, "ampere_sgemm_64x64_nn", COMPUTE_STREAM, start, end - start, false);
    bool b2_late = false;
    int64_t t = host_waits(x, end, &b2_late);
    gpu(x, "ampere_sgemm_64x64_nn", COMPUTE_STREAM, t, s + slot_us(c) - t, b2_late);
}

void gen_plant_rank(const struct gen_coll_cfg *c, int rank, struct gen_out *o)
{
    gen_out_fmt(o, "{\n\"schemaVersion\": 1,\n\"distributedInfo\": {\"backend\": \"nccl\", "
                   "\"rank\": %d, \"world_size\": %d},\n\"traceEvents\": [\n"
                   "{\"ph\": \"X\", \"cat\": \"Trace\", \"name\": \"PyTorch Profiler (0)\", "
                   "\"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\", \"ts\": %lld, "
                   "\"dur\": %lld}",
                rank, c->world, (long long)ORIGIN_US,
                (long long)(c->iterations * step_us(c) + 1000));
    struct slot_ctx x = {c, rank, o, 1, 1};
    int64_t shorter = has(c, GEN_PLANT_IMBALANCE) && rank != c->imbalance_rank ? step_us(c) / 10 : 0;
    for (int i = 0; i < c->iterations; i++) {
        int step = c->first_step + i;
        int64_t t0 = ORIGIN_US + 100 + (int64_t)i * step_us(c);
        char name[48];
        snprintf(name, sizeof name, "ProfilerStep#%d", step);
        gen_coll_cpu_event(o, "user_annotation", name, rank, t0, step_us(c) - shorter, NULL);
        for (int k = 0; k < c->per_step; k++)
            slot(&x, step, k, t0 + gap_us(c) + (int64_t)k * slot_us(c), k == 0 && i > 0);
    }
    gen_out_str(o, "\n]\n}\n");
}
