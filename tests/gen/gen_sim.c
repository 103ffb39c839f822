#include "config.h"

#include "gen_sim.h"

#include <stdio.h>
#include <string.h>

#include "gen_model.h"
#include "gen_rng.h"

/* What a pass writes. A dry run (emit 0) only advances the clocks: it tells
 * a range its duration before the range is written, ahead of its children. */
enum { EMIT_CPU = 1, EMIT_GPU = 2, EMIT_GANN = 4 };

#define ANN_MAX 16

/* CPU times in the catalog are bare op costs; under the profiler every op
 * costs about three times as much, which makes the job partly CPU-bound. */
#define CPU_SCALE 3.0

static const int STREAM_IDS[GS_COUNT] = {7, 20, 40};

/* GPU extent of the work launched inside an open annotation, per stream. */
struct ann_acc {
    int64_t lo[GS_COUNT], hi[GS_COUNT];
};

struct sim {
    const struct gen_cfg *cfg;
    struct gen_writer *w;
    unsigned emit;
    int rank, device;
    int64_t pid, tid_main, tid_bwd, tid;
    int64_t now;                    /* CPU clock, ns */
    int64_t free[GS_COUNT];         /* when each stream's queued work ends */
    int64_t ext, cur_ext, corr, ev_idx, seq, py_id, py_parent;
    double gpu_slow, comm_slow;     /* this rank's straggler factors */
    int nccl_layers;                /* layers in the bucket being reduced */
    uint64_t block, ordinal;        /* random stream key: block and node number */
    int nann;
    struct ann_acc ann[ANN_MAX];
};

/* A CPU-side range: a cpu_op, user_annotation or python_function that
 * encloses what `body` does. */
struct range {
    const char *cat, *name, *dims, *types;
    int64_t pre, post;              /* own CPU time before and after the body */
    int64_t body_tid;               /* thread of the body, 0 = same thread */
    int gpu_annot, seq;
};

typedef void (*body_fn)(struct sim *s, const void *arg);

static void run(struct sim *s, const struct gen_node *n);

/* ---- time helpers ---------------------------------------------------------- */

/* Rounds a duration to the trace's resolution (µs unless --frac), at least one unit. */
static int64_t q(const struct sim *s, double ns)
{
    if (s->cfg->frac) {
        int64_t v = (int64_t)(ns + 0.5);
        return v < 1 ? 1 : v;
    }
    int64_t us = (int64_t)(ns / 1000.0 + 0.5);
    return (us < 1 ? 1 : us) * 1000;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static struct gen_rng node_rng(struct sim *s)
{
    uint64_t who = s->cfg->seed * 0x100000001b3ull + (uint64_t)s->rank;
    return gen_rng_key(who, s->block, s->ordinal++, 0);
}

/* Starts a new random block so that the same part of a step draws the same
 * numbers in control and test whatever was added or removed elsewhere. */
static void set_block(struct sim *s, int step, int phase, int layer)
{
    s->block = ((uint64_t)step << 32) | ((uint64_t)phase << 24) | (uint64_t)layer;
    s->ordinal = 0;
}

static uint64_t subtree_size(const struct gen_node *n)
{
    uint64_t size = 1;
    for (const struct gen_node *const *k = n->kids; k && *k; k++)
        size += subtree_size(*k);
    return size;
}

static int present(const struct sim *s, const struct gen_node *n)
{
    if (n->flags & GF_CONTROL_ONLY)
        return !s->cfg->test;
    if (n->flags & GF_TEST_ONLY)
        return s->cfg->test;
    return 1;
}

/* ---- GPU streams and annotations ------------------------------------------- */

/* Queues `dur` of work on `stream`, runnable from `ready`; returns its start.
 * Back-to-back work on a stream is about a microsecond apart, as on a GPU. */
static int64_t gpu_place(struct sim *s, int stream, int64_t ready, int64_t dur)
{
    int64_t start = max64(ready, s->free[stream] + q(s, 1200.0));
    s->free[stream] = start + dur;
    s->w->st->streams[stream] = STREAM_IDS[stream];
    for (int i = 0; i < s->nann && i < ANN_MAX; i++) {
        struct ann_acc *a = &s->ann[i];
        if (start < a->lo[stream])
            a->lo[stream] = start;
        if (start + dur > a->hi[stream])
            a->hi[stream] = start + dur;
    }
    return start;
}

static void ann_push(struct sim *s)
{
    if (s->nann < ANN_MAX) {
        for (int k = 0; k < GS_COUNT; k++) {
            s->ann[s->nann].lo[k] = INT64_MAX;
            s->ann[s->nann].hi[k] = INT64_MIN;
        }
    }
    s->nann++;
}

static void ann_pop(struct sim *s, const char *name, int64_t ext)
{
    s->nann--;
    if (!(s->emit & EMIT_GANN) || s->nann >= ANN_MAX)
        return;
    const struct ann_acc *a = &s->ann[s->nann];
    for (int k = 0; k < GS_COUNT; k++)
        if (a->hi[k] > a->lo[k])
            gen_write_gpu_annotation(s->w, name, s->device, STREAM_IDS[k], a->lo[k],
                                     a->hi[k] - a->lo[k], ext);
}

/* ---- ranges ------------------------------------------------------------------ */

static void range_body(struct sim *s, const struct range *r, int64_t ext, int64_t py,
                       body_fn body, const void *arg)
{
    int64_t saved_ext = s->cur_ext, saved_tid = s->tid, saved_py = s->py_parent;
    s->now += r->pre;
    if (py)
        s->py_parent = py;
    else
        s->cur_ext = ext;
    if (r->body_tid)
        s->tid = r->body_tid;
    if (r->gpu_annot)
        ann_push(s);
    if (body)
        body(s, arg);
    if (r->gpu_annot)
        ann_pop(s, r->name, ext);
    s->tid = saved_tid;
    s->cur_ext = saved_ext;
    s->py_parent = saved_py;
    s->now += r->post;
}

static void range_write(struct sim *s, const struct range *r, int64_t ts, int64_t dur,
                        int64_t ext, int64_t idx, int64_t py, int64_t seq)
{
    if (py) {
        gen_write_python(s->w, r->name, s->pid, s->tid, ts, dur, py, s->py_parent);
        return;
    }
    struct gen_cpu_event e = {
        .cat = r->cat, .name = r->name, .dims = r->dims, .types = r->types,
        .pid = s->pid, .tid = s->tid, .ts = ts, .dur = dur, .ext = ext, .ev_idx = idx,
        .seq = seq,
    };
    gen_write_cpu(s->w, &e);
}

static void range_run(struct sim *s, const struct range *r, body_fn body, const void *arg)
{
    int python = strcmp(r->cat, "python_function") == 0;
    int64_t ext = python ? 0 : ++s->ext;
    int64_t idx = python ? 0 : s->ev_idx++;
    int64_t py = python ? ++s->py_id : 0;
    int64_t seq = r->seq ? s->seq++ : -1;
    int64_t start = s->now;
    if (s->emit & EMIT_CPU) {
        int64_t dur = r->pre + r->post;
        if (body) {
            struct sim dry = *s;
            dry.emit = 0;
            range_body(&dry, r, ext, py, body, arg);
            dur = dry.now - start;
        }
        range_write(s, r, start, dur, ext, idx, py, seq);
    }
    range_body(s, r, ext, py, body, arg);
}

/* A range whose own CPU time is `us` µs (jittered), around `body`. */
static void code_range(struct sim *s, const char *cat, const char *name, double us,
                       int gpu_annot, body_fn body, const void *arg)
{
    struct gen_rng r = node_rng(s);
    double own = CPU_SCALE * us * 1000.0 * gen_rng_jitter(&r, 0.3, 0);
    struct range rg = {.cat = cat, .name = name, .pre = q(s, own * 0.6),
                       .post = q(s, own * 0.4), .gpu_annot = gpu_annot};
    range_run(s, &rg, body, arg);
}

static void run_kids(struct sim *s, const void *arg)
{
    const struct gen_node *n = arg;
    for (const struct gen_node *const *k = n->kids; *k; k++)
        run(s, *k);
}

static void node_range(struct sim *s, const struct gen_node *n, struct gen_rng *r)
{
    double own = CPU_SCALE * (double)n->cpu_ns * gen_rng_jitter(r, 0.3, 1);
    struct range rg = {
        .cat = n->kind == GN_OP ? "cpu_op" : "user_annotation",
        .name = n->name, .dims = n->dims, .types = n->types,
        .pre = q(s, own * 0.6), .post = q(s, own * 0.4),
        .gpu_annot = n->kind == GN_ANNOT, .seq = (n->flags & GF_SEQ) != 0,
    };
    range_run(s, &rg, n->kids ? run_kids : NULL, n);
}

/* ---- runtime calls and GPU work --------------------------------------------- */

/* A runtime call of `call` ns at the current time; returns its correlation. */
static int64_t runtime_call(struct sim *s, const char *name, int64_t call, int flow)
{
    int64_t corr = ++s->corr;
    if (s->emit & EMIT_GPU) {
        gen_write_runtime(s->w, name, s->pid, s->tid, s->now, call, s->cur_ext, corr);
        if (flow)
            gen_write_flow(s->w, 's', "ac2g", corr, s->pid, s->tid, s->now);
    }
    return corr;
}

static void gpu_event(struct sim *s, const struct gen_gpu_event *e)
{
    if (!(s->emit & EMIT_GPU))
        return;
    gen_write_gpu(s->w, e);
    gen_write_flow(s->w, 'f', "ac2g", e->corr, e->device, e->stream, e->ts);
}

static double variant_factor(const struct sim *s, const struct gen_node *n)
{
    return s->cfg->test && (n->flags & GF_TEST_SLOWER) ? 1.3 : 1.0;
}

static void launch(struct sim *s, const struct gen_node *n, struct gen_rng *r)
{
    int64_t call = q(s, (double)n->cpu_ns * gen_rng_jitter(r, 0.3, 1));
    int64_t lat = q(s, 1000.0 + 3000.0 * gen_rng_unit(r));
    double f = gen_rng_jitter(r, 0.06, 0) * s->gpu_slow * variant_factor(s, n);
    int64_t dur = q(s, (double)n->gpu_ns * f);
    int64_t kts = gpu_place(s, GS_COMPUTE, s->now + call + lat, dur);
    int64_t corr = runtime_call(s, n->name, call, 1);
    struct gen_gpu_event e = {.cat = "kernel", .name = n->k->name, .k = n->k,
                              .device = s->device, .stream = STREAM_IDS[GS_COMPUTE],
                              .ts = kts, .dur = dur, .ext = s->cur_ext, .corr = corr};
    gpu_event(s, &e);
    s->now += call;
}

/* cudaMemcpyAsync / cudaMemsetAsync. A pageable copy blocks the caller until
 * the copy is done. */
static void mem_op(struct sim *s, const struct gen_node *n, struct gen_rng *r)
{
    int memcpy_ = n->kind == GN_MEMCPY;
    int stream = (n->flags & GF_COPY_STREAM) ? GS_COPY : GS_COMPUTE;
    int64_t call = q(s, (double)n->cpu_ns * gen_rng_jitter(r, 0.3, 1));
    int64_t lat = q(s, 1000.0 + 2000.0 * gen_rng_unit(r));
    int64_t dur = q(s, (double)n->gpu_ns * gen_rng_jitter(r, 0.1, 0));
    int64_t ts = gpu_place(s, stream, s->now + lat, dur);
    if (n->flags & GF_BLOCKING)
        call = max64(call, ts + dur - s->now + q(s, 1500.0));
    int64_t corr = runtime_call(s, memcpy_ ? "cudaMemcpyAsync" : "cudaMemsetAsync", call, 1);
    struct gen_gpu_event e = {.cat = memcpy_ ? "gpu_memcpy" : "gpu_memset", .name = n->name,
                              .device = s->device, .stream = STREAM_IDS[stream], .ts = ts,
                              .dur = dur, .ext = s->cur_ext, .corr = corr, .bytes = n->bytes};
    gpu_event(s, &e);
    s->now += call;
}

/* cudaStreamWaitEvent making `stream` wait for work queued elsewhere. */
static void stream_wait(struct sim *s, int stream, struct gen_rng *r)
{
    int64_t call = q(s, 2500.0 * gen_rng_jitter(r, 0.3, 0));
    int64_t corr = runtime_call(s, "cudaStreamWaitEvent", call, 0);
    if (s->emit & EMIT_GPU)
        gen_write_sync(s->w, "Stream Wait Event", s->device, STREAM_IDS[stream], s->now, call, corr);
    s->now += call;
}

static void plain_runtime(struct sim *s, const char *name, double ns, struct gen_rng *r)
{
    int64_t call = q(s, ns * gen_rng_jitter(r, 0.3, 0));
    runtime_call(s, name, call, 0);
    s->now += call;
}

/* DDP's collective: record an event on the compute stream, make the NCCL
 * stream wait for it, launch the NCCL kernel there (overlapping compute). */
static void nccl(struct sim *s, const struct gen_node *n, struct gen_rng *r)
{
    int64_t ready = s->free[GS_COMPUTE];
    plain_runtime(s, "cudaEventRecord", 2000.0, r);
    stream_wait(s, GS_COMM, r);
    int allreduce = strstr(n->k->name, "AllReduce") != NULL;
    int layers = allreduce ? s->nccl_layers : 1;
    double world = s->cfg->world > 1 ? 2.0 * (s->cfg->world - 1) / s->cfg->world : 0.3;
    double f = layers * world * s->comm_slow * gen_rng_jitter(r, 0.1, 0);
    int64_t call = q(s, (double)n->cpu_ns * gen_rng_jitter(r, 0.3, 1));
    int64_t dur = q(s, (double)n->gpu_ns * f);
    int64_t lat = q(s, 2000.0 + 3000.0 * gen_rng_unit(r));
    int64_t kts = gpu_place(s, GS_COMM, max64(ready, s->now + call + lat), dur);
    int64_t corr = runtime_call(s, n->name, call, 1);
    struct gen_gpu_event e = {.cat = "kernel", .name = n->k->name, .k = n->k,
                              .device = s->device, .stream = STREAM_IDS[GS_COMM], .ts = kts,
                              .dur = dur, .ext = s->cur_ext, .corr = corr,
                              .collective = allreduce ? "allreduce" : "broadcast",
                              .nelems = n->bytes * layers / 4, .world = s->cfg->world};
    gpu_event(s, &e);
    s->now += call;
}

/* cudaStreamSynchronize on the compute stream: the CPU waits for the GPU. */
static void stream_sync(struct sim *s, const struct gen_node *n, struct gen_rng *r)
{
    int64_t call = q(s, (double)n->cpu_ns * gen_rng_jitter(r, 0.3, 0));
    if (s->free[GS_COMPUTE] > s->now)
        call = max64(call, s->free[GS_COMPUTE] - s->now + q(s, 2000.0));
    int64_t corr = runtime_call(s, n->name, call, 0);
    if (s->emit & EMIT_GPU)
        gen_write_sync(s->w, "Stream Sync", s->device, STREAM_IDS[GS_COMPUTE], s->now, call, corr);
    s->now += call;
}

static void run(struct sim *s, const struct gen_node *n)
{
    if (!present(s, n)) {
        s->ordinal += subtree_size(n);
        return;
    }
    struct gen_rng r = node_rng(s);
    switch (n->kind) {
    case GN_OP:
    case GN_ANNOT:
        node_range(s, n, &r);
        break;
    case GN_LAUNCH:
        launch(s, n, &r);
        break;
    case GN_MEMCPY:
    case GN_MEMSET:
        mem_op(s, n, &r);
        break;
    case GN_NCCL:
        nccl(s, n, &r);
        break;
    case GN_SYNC:
        stream_sync(s, n, &r);
        break;
    case GN_RUNTIME:
        plain_runtime(s, n->name, (double)n->cpu_ns, &r);
        break;
    }
}


/* ---- one training step ----------------------------------------------------- */

enum { PH_PRE = 1, PH_FWD, PH_HEAD, PH_BWD, PH_TAIL, PH_OPT, PH_POST, PH_GAP };

#define NO_LAYER 0xffff
#define PARAMS_PER_LAYER 6      /* AccumulateGrad calls per layer */
#define LAYERS_PER_ADAM 4       /* layers per fused AdamW launch */
#define LEAD_NS 500000          /* profiler start before the first step */

static int64_t step_of(const struct sim *s)
{
    return (int64_t)(s->block >> 32);
}

static void layer_forward(struct sim *s, const void *arg)
{
    set_block(s, (int)step_of(s), PH_FWD, *(const int *)arg);
    run(s, gen_catalog.fwd_attention);
    run(s, gen_catalog.fwd_mlp);
}

static void ddp_forward(struct sim *s, const void *arg)
{
    int step = (int)step_of(s);
    (void)arg;
    set_block(s, step, PH_FWD, NO_LAYER);
    run(s, gen_catalog.broadcast);
    run(s, gen_catalog.embedding);
    for (int l = 0; l < s->cfg->layers; l++) {
        char name[64];
        snprintf(name, sizeof name, "nn.Module: TransformerLayer_%d", l);
        code_range(s, "python_function", name, 6, 0, layer_forward, &l);
    }
    set_block(s, step, PH_HEAD, 0);
    run(s, gen_catalog.head_loss);
}

static void forward(struct sim *s, const void *arg)
{
    (void)arg;
    code_range(s, "python_function", "nn.Module: DistributedDataParallel_0", 20, 0,
               ddp_forward, NULL);
}

static void all_reduce(struct sim *s, int layers)
{
    for (int i = 0; i < layers; i++)
        run(s, gen_catalog.bucket_copy);
    s->nccl_layers = layers;
    run(s, gen_catalog.allreduce);
}

/* DDP's end of backward: the compute stream waits for the last all-reduce. */
static void wait_for_comm(struct sim *s)
{
    struct gen_rng r = node_rng(s);
    plain_runtime(s, "cudaEventRecord", 2000.0, &r);
    stream_wait(s, GS_COMPUTE, &r);
    s->free[GS_COMPUTE] = max64(s->free[GS_COMPUTE], s->free[GS_COMM]);
}

static void backward(struct sim *s, const void *arg)
{
    int step = (int)step_of(s), pending = 0;
    (void)arg;
    set_block(s, step, PH_BWD, NO_LAYER);
    run(s, gen_catalog.bwd_loss);
    for (int l = s->cfg->layers - 1; l >= 0; l--) {
        set_block(s, step, PH_BWD, l);
        run(s, gen_catalog.bwd_mlp);
        run(s, gen_catalog.bwd_attention);
        for (int p = 0; p < PARAMS_PER_LAYER; p++)
            run(s, gen_catalog.bwd_accumulate);
        if (++pending == s->cfg->bucket_layers || l == 0) {
            all_reduce(s, pending);
            pending = 0;
        }
    }
    set_block(s, step, PH_TAIL, 0);
    run(s, gen_catalog.bwd_embedding);
    wait_for_comm(s);
}

static void adam(struct sim *s, const void *arg)
{
    (void)arg;
    for (int l = 0; l < s->cfg->layers; l += LAYERS_PER_ADAM)
        run(s, gen_catalog.adam_chunk);
}

static void optimizer(struct sim *s, const void *arg)
{
    (void)arg;
    set_block(s, (int)step_of(s), PH_OPT, 0);
    run(s, gen_catalog.clip_grad);
    code_range(s, "user_annotation", "Optimizer.step#AdamW.step", 8, 1, adam, NULL);
}

/* "## backward ##" is recorded on the main thread while the autograd thread
 * runs the backward ops. */
static void backward_range(struct sim *s)
{
    struct gen_rng r = node_rng(s);
    double own = 12000.0 * gen_rng_jitter(&r, 0.3, 0);
    struct range rg = {.cat = "user_annotation", .name = "## backward ##",
                       .pre = q(s, own * 0.5), .post = q(s, own * 0.5),
                       .body_tid = s->tid_bwd, .gpu_annot = 1};
    range_run(s, &rg, backward, NULL);
}

static void train_step(struct sim *s, const void *arg)
{
    int step = (int)step_of(s);
    (void)arg;
    set_block(s, step, PH_PRE, 0);
    run(s, gen_catalog.data_loader);
    run(s, gen_catalog.input_copy);
    run(s, gen_catalog.prefetch);
    run(s, gen_catalog.zero_grad);
    code_range(s, "user_annotation", "## forward ##", 5, 1, forward, NULL);
    set_block(s, step, PH_BWD, NO_LAYER + 1);
    backward_range(s);
    code_range(s, "user_annotation", "## optimizer ##", 5, 1, optimizer, NULL);
    set_block(s, step, PH_POST, 0);
    run(s, gen_catalog.loss_item);
}

static void profiler_step(struct sim *s, const void *arg)
{
    (void)arg;
    code_range(s, "python_function", "train.py(64): train_step", 10, 0, train_step, NULL);
}

static void run_steps(struct sim *s)
{
    for (int i = 0; i < s->cfg->iterations; i++) {
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", s->cfg->first_step + i);
        set_block(s, i, 0, 0);
        code_range(s, "user_annotation", name, 15, 0, profiler_step, NULL);
        set_block(s, i, PH_GAP, 0);
        struct gen_rng r = node_rng(s);
        s->now += q(s, 150000.0 * gen_rng_jitter(&r, 0.3, 0));
    }
}

/* ---- one rank ------------------------------------------------------------------ */

static void sim_init(struct sim *s, const struct gen_cfg *cfg, int rank,
                     struct gen_writer *w, unsigned emit)
{
    memset(s, 0, sizeof *s);
    s->cfg = cfg;
    s->w = w;
    s->emit = emit;
    s->rank = rank;
    s->device = rank % 8;
    s->pid = 1850000 + 1031 * (int64_t)rank;
    s->tid_main = s->pid;
    s->tid_bwd = s->pid + 1873;
    s->tid = s->tid_main;
    struct gen_rng r = gen_rng_key(cfg->seed, (uint64_t)rank, 0xfeed, 0);
    int straggler = cfg->world > 1 && (uint64_t)rank == cfg->seed % (uint64_t)cfg->world;
    s->gpu_slow = (1.0 + 0.02 * (gen_rng_unit(&r) - 0.5)) * (straggler ? 1.08 : 1.0);
    s->comm_slow = straggler ? 1.0 : 1.12;
    /* Ranks' clocks disagree by up to 40 µs, as on a real cluster. */
    s->now = cfg->origin_us * 1000 + q(s, 1000.0 * (double)gen_rng_below(&r, 40)) + LEAD_NS;
    if (rank == cfg->foreign && cfg->foreign_kind == GEN_FOREIGN_TIME)
        s->now += GEN_FOREIGN_SHIFT_NS;
    if (rank == cfg->clock_rank)
        s->now += cfg->clock_offset_ns;
    for (int k = 0; k < GS_COUNT; k++)
        s->free[k] = s->now;
    s->ext = 10;
    s->corr = 100;
    s->seq = 1000;
}

void gen_sim_rank(const struct gen_cfg *cfg, int rank, struct gen_out *o,
                  const char *trace_name, struct gen_stats *st)
{
    static const unsigned passes[] = {EMIT_CPU, EMIT_GPU, EMIT_GANN};
    struct gen_writer w = {.o = o, .st = st, .frac = cfg->frac};
    struct sim s;
    memset(st, 0, sizeof *st);
    sim_init(&s, cfg, rank, &w, 0);
    struct gen_job job = {
        .rank = rank, .world = cfg->world, .device = s.device, .ndevices = 8,
        .pid = s.pid, .tid_main = s.tid_main, .tid_bwd = s.tid_bwd,
        .stream_ids = STREAM_IDS, .start_ns = s.now - LEAD_NS, .base_ns = cfg->base_ns,
        .trace_name = trace_name,
        .world_said = rank == cfg->foreign && cfg->foreign_kind == GEN_FOREIGN_WORLD
                          ? 2 * cfg->world : 0,
        .pg_shift = rank == cfg->foreign && cfg->foreign_kind == GEN_FOREIGN_PG ? 1000 : 0,
        .bad_events = rank == 0 ? cfg->bad_events : 0,
        .overlaps = rank == 0 ? cfg->overlaps : 0,
        .graphs = rank == 0 ? cfg->graphs : 0,
    };
    gen_write_header(&w, &job);
    for (size_t p = 0; p < sizeof passes / sizeof passes[0]; p++) {
        sim_init(&s, cfg, rank, &w, passes[p]);
        run_steps(&s);
    }
    int64_t end = s.now;
    for (int k = 0; k < GS_COUNT; k++)
        end = max64(end, s.free[k]);
    job.end_ns = end + q(&s, 50000.0);
    st->first_step = cfg->first_step;
    st->steps = cfg->iterations;
    gen_write_trailer(&w, &job);
}
