#ifndef HTX_GEN_MODEL_H
#define HTX_GEN_MODEL_H

/* The synthetic training job the generator simulates: a small transformer
 * trained with DDP (data loading, forward, backward with bucketed NCCL
 * all-reduces overlapping compute, AdamW step, loss.item()). Each op is a
 * static tree of nodes; the simulator (gen_sim.c) walks the trees to produce
 * times, and the writer turns them into Kineto events. */

#include <stdint.h>

enum gen_node_kind {
    GN_OP,        /* cpu_op, encloses its children */
    GN_ANNOT,     /* user_annotation (record_function); also gpu_user_annotation */
    GN_LAUNCH,    /* cudaLaunchKernel -> kernel on the compute stream */
    GN_MEMCPY,    /* cudaMemcpyAsync -> gpu_memcpy */
    GN_MEMSET,    /* cudaMemsetAsync -> gpu_memset */
    GN_NCCL,      /* cudaEventRecord, cudaStreamWaitEvent, cudaLaunchKernelExC ->
                     NCCL kernel on the communication stream */
    GN_SYNC,      /* cudaStreamSynchronize + cuda_sync "Stream Sync" */
    GN_RUNTIME,   /* a runtime call with no GPU work (cudaStreamIsCapturing, ...) */
};

/* Node flags. The GF_TEST_* / GF_CONTROL_ONLY flags are the controlled
 * differences of a --pair: see gen_model_describe_pair(). */
enum {
    GF_CONTROL_ONLY = 1u << 0, /* removed in the test trace */
    GF_TEST_ONLY = 1u << 1,    /* added in the test trace */
    GF_TEST_SLOWER = 1u << 2,  /* GPU time x1.3 in the test trace */
    GF_COPY_STREAM = 1u << 3,  /* memcpy on the side copy stream */
    GF_BLOCKING = 1u << 4,     /* the runtime call waits for the copy (pageable) */
    GF_SEQ = 1u << 5,          /* cpu_op carries a "Sequence number" (autograd) */
};

/* GPU streams of one rank. */
enum gen_stream { GS_COMPUTE, GS_COPY, GS_COMM, GS_COUNT };

struct gen_kernel {
    const char *name;
    int grid[3], block[3];
    int regs, smem;
};

struct gen_node {
    enum gen_node_kind kind;
    const char *name;             /* op, annotation, python or memcpy/memset name */
    const char *dims, *types;     /* "Input Dims" / "Input type" JSON text, or NULL */
    int64_t cpu_ns;               /* op: own CPU time; runtime call: call time */
    int64_t gpu_ns;               /* GPU time (launch, memcpy, memset, NCCL per layer) */
    int64_t bytes;                /* memcpy/memset size */
    const struct gen_kernel *k;   /* launched kernel */
    unsigned flags;
    const struct gen_node *const *kids; /* NULL-terminated, or NULL */
};

/* The building blocks of one training step (gen_catalog.c). */
struct gen_catalog {
    const struct gen_node *data_loader;   /* DataLoader annotation (CPU only) */
    const struct gen_node *input_copy;    /* aten::to inputs -> HtoD memcpy */
    const struct gen_node *prefetch;      /* pinned copy on the copy stream */
    const struct gen_node *zero_grad;     /* per bucket: zero_ -> memset */
    const struct gen_node *broadcast;     /* DDP buffer broadcast (NCCL) */
    const struct gen_node *embedding;
    const struct gen_node *fwd_attention; /* record_function "attention" */
    const struct gen_node *fwd_mlp;       /* record_function "mlp" */
    const struct gen_node *head_loss;     /* final norm, lm head, cross entropy */
    const struct gen_node *bwd_loss;
    const struct gen_node *bwd_mlp;
    const struct gen_node *bwd_attention;
    const struct gen_node *bwd_accumulate;/* AccumulateGrad of one parameter */
    const struct gen_node *bucket_copy;   /* DDP copies grads into a bucket (DtoD) */
    const struct gen_node *allreduce;     /* c10d::allreduce_ ... NCCL kernel */
    const struct gen_node *bwd_embedding;
    const struct gen_node *clip_grad;
    const struct gen_node *adam_chunk;    /* fused AdamW over a few layers */
    const struct gen_node *loss_item;     /* loss.item(): DtoH copy + sync */
};

extern const struct gen_catalog gen_catalog;

/* Text listing the controlled differences between control and test. */
const char *gen_model_describe_pair(void);

#endif
