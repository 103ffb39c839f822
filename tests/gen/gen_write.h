#ifndef HTX_GEN_WRITE_H
#define HTX_GEN_WRITE_H

/* Kineto's JSON layout for each kind of event the generator emits, laid out
 * as libkineto's output_json.cpp writes it (one key group per line). Times
 * are int64 ns and are written in µs, with a fraction when `frac` is set. */

#include <stdint.h>

#include "gen_model.h"
#include "gen_out.h"

/* Counts of what was written, by category (complete "X" events unless noted). */
struct gen_stats {
    int64_t events;              /* every X event except the "Trace" span */
    int64_t kernels, memcpy, memset, cpu_ops, runtime;
    int64_t user_annotations, gpu_user_annotations, python_functions, cuda_sync;
    int64_t flows;               /* ph s/f (ac2g and fwdbwd) */
    int64_t metadata;            /* ph M */
    int64_t first_step, steps;   /* ProfilerStep#first_step ... */
    int streams[GS_COUNT];       /* stream ids with GPU work, 0 if none */
    int64_t start_ns, end_ns;    /* first start, last end of X events (absolute) */
};

struct gen_writer {
    struct gen_out *o;
    struct gen_stats *st;
    int frac;
    int64_t written;             /* events written (for the separators) */
};

struct gen_job {                 /* what the file header and trailer describe */
    int rank, world, device, ndevices;
    int64_t pid, tid_main, tid_bwd;
    const int *stream_ids;       /* GS_COUNT ids */
    int64_t start_ns, end_ns, base_ns;
    const char *trace_name;
    /* Problems planted for htx's trust checks (0: none): the world size
     * distributedInfo says (0: world), an offset added to the ranks of its
     * process group, malformed events, pairs of kernels overlapping on a
     * stream of their own, CUDA graph launches (each one cudaGraphLaunch
     * call whose GEN_GRAPH_KERNELS kernels run GEN_GRAPH_DELAY_NS later, on a
     * stream of their own). */
    int world_said, pg_shift, bad_events, overlaps, graphs;
};

#define GEN_GRAPH_KERNELS 4
#define GEN_GRAPH_DELAY_NS ((int64_t)2000000)

struct gen_cpu_event {
    const char *cat, *name, *dims, *types;
    int64_t pid, tid, ts, dur, ext, ev_idx, seq;   /* seq < 0: none */
};

struct gen_gpu_event {
    const char *cat, *name;      /* kernel, gpu_memcpy, gpu_memset */
    const struct gen_kernel *k;  /* kernels only */
    int device, stream;
    int64_t ts, dur, ext, corr, bytes;
    const char *collective;      /* NCCL kernels: "allreduce", ...; else NULL */
    int64_t nelems;
    int world;
};

void gen_write_header(struct gen_writer *w, const struct gen_job *job);
void gen_write_trailer(struct gen_writer *w, const struct gen_job *job);
/* The job's planted events (bad_events, overlaps, graphs); the trailer
 * writes them. */
void gen_write_plants(struct gen_writer *w, const struct gen_job *job);
void gen_write_cpu(struct gen_writer *w, const struct gen_cpu_event *e);
void gen_write_python(struct gen_writer *w, const char *name, int64_t pid, int64_t tid,
                      int64_t ts, int64_t dur, int64_t id, int64_t parent);
void gen_write_runtime(struct gen_writer *w, const char *name, int64_t pid, int64_t tid,
                       int64_t ts, int64_t dur, int64_t ext, int64_t corr);
void gen_write_gpu(struct gen_writer *w, const struct gen_gpu_event *e);
void gen_write_sync(struct gen_writer *w, const char *kind, int device, int stream,
                    int64_t ts, int64_t dur, int64_t corr);
void gen_write_gpu_annotation(struct gen_writer *w, const char *name, int device, int stream,
                              int64_t ts, int64_t dur, int64_t ext);
/* A flow event: ph "s" (at the CPU side) or "f" (at the GPU side, bp "e"). */
void gen_write_flow(struct gen_writer *w, char ph, const char *cat, int64_t id, int64_t pid,
                    int64_t tid, int64_t ts);

#endif
