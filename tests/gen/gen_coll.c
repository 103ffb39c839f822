#include "config.h"
#include "gen_coll.h"

#include <stdio.h>

/* The collectives job of gen_coll.h. One slot per collective:
 *
 *   |-- compute (1 ms, + delay on the straggler) --|-- NCCL kernel --|
 *                                                  ^ arrival
 *
 * The NCCL kernels of a collective all end at the last arrival plus the
 * transfer time, as a blocking collective does. Slots are long enough for
 * the delay, so nothing else moves. */

#define ORIGIN_US 1700000000000LL  /* trace start, µs */
#define COMPUTE_US 1000
#define LAUNCH_LEAD_US 50         /* launch call before its kernel starts */
#define COMPUTE_STREAM 7
#define COMM_STREAM 40

static const struct {
    const char *kernel, *collective;
    int gather;                    /* 1 allgather (out = n x in), 2 reduce-scatter */
} KINDS[] = {
    {"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
     "allreduce", 0},
    {"ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
     "allgather", 1},
    {"ncclKernel_ReduceScatter_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
     "reduce_scatter", 2},
};
#define NKINDS (int)(sizeof KINDS / sizeof KINDS[0])

const char *gen_coll_kernel_name(int k)
{
    return KINDS[k % NKINDS].kernel;
}

static int64_t slot_us(const struct gen_coll_cfg *c)
{
    return 3000 + (c->straggler >= 0 ? c->delay_us : 0);
}

static int64_t step_us(const struct gen_coll_cfg *c)
{
    return 500 + (int64_t)c->per_step * slot_us(c);
}

int64_t gen_coll_xfer_us(int k)
{
    return 100 + 50 * (int64_t)k;
}

void gen_coll_cpu_event(struct gen_out *o, const char *cat, const char *name, int rank,
                      int64_t ts, int64_t dur, const char *args)
{
    gen_out_fmt(o, ",\n{\"ph\": \"X\", \"cat\": \"%s\", \"name\": ", cat);
    gen_out_json_str(o, name);
    gen_out_fmt(o, ", \"pid\": %d, \"tid\": %d, \"ts\": %lld, \"dur\": %lld, \"args\": {%s}}",
                1000 + rank, 1000 + rank, (long long)ts, (long long)dur, args ? args : "");
}

/* The collective args of one NCCL kernel (and its record_param_comms). */
void gen_coll_comm_args(struct gen_out *o, const struct gen_coll_cfg *c, int k, int64_t seq)
{
    int64_t base = 262144 * (int64_t)(k + 1);
    int64_t in = base, out = base;
    if (KINDS[k % NKINDS].gather == 1)
        out = base * c->world;
    else if (KINDS[k % NKINDS].gather == 2)
        in = base * c->world;
    gen_out_fmt(o, ", \"Collective name\": \"%s\", \"Process Group Name\": \"0\", "
                   "\"Process Group Description\": \"default_pg\", \"Process Group Ranks\": \"[",
                KINDS[k % NKINDS].collective);
    for (int r = 0; r < c->world; r++)
        gen_out_fmt(o, r ? ", %d" : "%d", r);
    gen_out_fmt(o, "]\", \"Group size\": %d, \"In msg nelems\": %lld, \"Out msg nelems\": %lld, "
                   "\"dtype\": \"Float\"", c->world, (long long)in, (long long)out);
    if (c->seq)
        gen_out_fmt(o, ", \"Seq\": %lld", (long long)seq);
}

void gen_coll_kernel(struct gen_out *o, const char *name, int64_t stream, int64_t ts, int64_t dur,
                   int64_t corr)
{
    gen_out_str(o, ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": ");
    gen_out_json_str(o, name);
    gen_out_fmt(o, ", \"pid\": 0, \"tid\": %lld, \"ts\": %lld, \"dur\": %lld, \"args\": "
                   "{\"device\": 0, \"stream\": %lld, \"correlation\": %lld",
                (long long)stream, (long long)ts, (long long)dur, (long long)stream,
                (long long)corr);
}

void gen_coll_launch(struct gen_out *o, int rank, int64_t kernel_ts, int64_t corr)
{
    char args[64];
    snprintf(args, sizeof args, "\"correlation\": %lld", (long long)corr);
    gen_coll_cpu_event(o, "cuda_runtime", "cudaLaunchKernel", rank, kernel_ts - LAUNCH_LEAD_US, 5, args);
}

void gen_coll_rank(const struct gen_coll_cfg *c, int rank, struct gen_out *o)
{
    if (c->plant) {
        gen_plant_rank(c, rank, o);
        return;
    }
    int64_t origin = ORIGIN_US + (rank == c->clock_rank ? c->clock_offset_us : 0);
    gen_out_fmt(o, "{\n\"schemaVersion\": 1,\n\"distributedInfo\": {\"backend\": \"nccl\", "
                   "\"rank\": %d, \"world_size\": %d},\n\"traceEvents\": [\n"
                   "{\"ph\": \"X\", \"cat\": \"Trace\", \"name\": \"PyTorch Profiler (0)\", "
                   "\"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\", \"ts\": %lld, "
                   "\"dur\": %lld}",
                rank, c->world, (long long)origin,
                (long long)(c->iterations * step_us(c) + 1000));
    int64_t corr = 1, seq = 1;
    for (int i = 0; i < c->iterations; i++) {
        int step = c->first_step + i;
        int64_t t0 = origin + 100 + (int64_t)i * step_us(c);
        char name[48];
        snprintf(name, sizeof name, "ProfilerStep#%d", step);
        gen_coll_cpu_event(o, "user_annotation", name, rank, t0, step_us(c) - 50, NULL);
        for (int k = 0; k < c->per_step; k++, seq++) {
            int planted = c->straggler >= 0 && step == c->step && k == c->coll;
            int64_t late = planted && rank == c->straggler ? c->delay_us : 0;
            int64_t arrive = t0 + 200 + (int64_t)k * slot_us(c) + COMPUTE_US;
            int64_t last = arrive + (planted ? c->delay_us : 0);
            /* compute, longer on the straggler */
            gen_coll_launch(o, rank, arrive - COMPUTE_US, corr);
            gen_coll_kernel(o, "ampere_sgemm_128x64_nn", COMPUTE_STREAM, arrive - COMPUTE_US,
                   COMPUTE_US + late, corr);
            gen_out_str(o, "}}");
            corr++;
            /* the collective: record_param_comms around the launch, then the kernel */
            int64_t start = arrive + late, end = last + gen_coll_xfer_us(k);
            gen_out_fmt(o, ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
                           "\"record_param_comms\", \"pid\": %d, \"tid\": %d, \"ts\": %lld, "
                           "\"dur\": 20, \"args\": {\"External id\": %lld",
                        1000 + rank, 1000 + rank, (long long)(start - LAUNCH_LEAD_US - 5),
                        (long long)corr);
            gen_coll_comm_args(o, c, k, seq);
            gen_out_str(o, "}}");
            gen_coll_launch(o, rank, start, corr);
            gen_coll_kernel(o, KINDS[k % NKINDS].kernel, COMM_STREAM, start, end - start, corr);
            gen_coll_comm_args(o, c, k, seq);
            gen_out_str(o, "}}");
            corr++;
        }
    }
    gen_out_str(o, "\n]\n}\n");
}
