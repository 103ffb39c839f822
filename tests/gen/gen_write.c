#include "config.h"

#include "gen_write.h"

#include <stdio.h>
#include <string.h>

#define NUM_SMS 108

static void begin(struct gen_writer *w)
{
    gen_out_str(w->o, w->written++ ? ",\n  {\n    " : "\n  {\n    ");
}

static void end(struct gen_writer *w)
{
    gen_out_str(w->o, "\n  }");
}

static void key_i64(struct gen_writer *w, const char *key, int64_t v)
{
    gen_out_str(w->o, key);
    gen_out_i64(w->o, v);
}

static void key_us(struct gen_writer *w, const char *key, int64_t ns)
{
    gen_out_str(w->o, key);
    gen_out_us(w->o, ns, w->frac);
}

static void key_str(struct gen_writer *w, const char *key, const char *s)
{
    gen_out_str(w->o, key);
    gen_out_json_str(w->o, s);
}

/* "ph": "X", "cat": ..., "name": ..., "pid": ..., "tid": ...,\n "ts": ..., "dur": ... */
static void complete_head(struct gen_writer *w, const char *cat, const char *name,
                          int64_t pid, int64_t tid, int64_t ts, int64_t dur)
{
    begin(w);
    key_str(w, "\"ph\": \"X\", \"cat\": ", cat);
    key_str(w, ", \"name\": ", name);
    key_i64(w, ", \"pid\": ", pid);
    key_i64(w, ", \"tid\": ", tid);
    key_us(w, ",\n    \"ts\": ", ts);
    key_us(w, ", \"dur\": ", dur);
    gen_out_str(w->o, ",\n    \"args\": {\n      ");
    w->st->events++;
    if (w->st->start_ns == 0 || ts < w->st->start_ns)
        w->st->start_ns = ts;
    if (ts + dur > w->st->end_ns)
        w->st->end_ns = ts + dur;
}

static void args_end(struct gen_writer *w)
{
    gen_out_str(w->o, "\n    }");
    end(w);
}

void gen_write_cpu(struct gen_writer *w, const struct gen_cpu_event *e)
{
    complete_head(w, e->cat, e->name, e->pid, e->tid, e->ts, e->dur);
    key_i64(w, "\"External id\": ", e->ext);
    key_i64(w, ",\"Record function id\": ", e->ev_idx + 1);
    key_i64(w, ", \"Ev Idx\": ", e->ev_idx);
    if (e->dims)
        gen_out_fmt(w->o, ", \"Input Dims\": %s", e->dims);
    if (e->types)
        gen_out_fmt(w->o, ", \"Input type\": %s", e->types);
    if (e->seq >= 0) {
        key_i64(w, ", \"Sequence number\": ", e->seq);
        gen_out_str(w->o, ", \"Fwd thread id\": 1");
    }
    args_end(w);
    if (strcmp(e->cat, "cpu_op") == 0)
        w->st->cpu_ops++;
    else
        w->st->user_annotations++;
}

void gen_write_python(struct gen_writer *w, const char *name, int64_t pid, int64_t tid,
                      int64_t ts, int64_t dur, int64_t id, int64_t parent)
{
    complete_head(w, "python_function", name, pid, tid, ts, dur);
    key_i64(w, "\"Python parent id\": ", parent);
    key_i64(w, ", \"Python id\": ", id);
    gen_out_str(w->o, ", \"Python thread\": 0");
    args_end(w);
    w->st->python_functions++;
}

static int cbid_of(const char *name)
{
    static const struct { const char *name; int cbid; } t[] = {
        {"cudaLaunchKernel", 211},      {"cudaMemcpyAsync", 41},
        {"cudaMemsetAsync", 51},        {"cudaStreamSynchronize", 131},
        {"cudaLaunchKernelExC", 430},   {"cudaEventRecord", 135},
        {"cudaStreamWaitEvent", 147},   {"cudaStreamIsCapturing", 317},
        {"cudaGraphLaunch", 311},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].name, name) == 0)
            return t[i].cbid;
    return 0;
}

void gen_write_runtime(struct gen_writer *w, const char *name, int64_t pid, int64_t tid,
                       int64_t ts, int64_t dur, int64_t ext, int64_t corr)
{
    complete_head(w, "cuda_runtime", name, pid, tid, ts, dur);
    key_i64(w, "\"External id\": ", ext);
    key_i64(w, ",      \"cbid\": ", cbid_of(name));
    key_i64(w, ", \"correlation\": ", corr);
    args_end(w);
    w->st->runtime++;
}

static void kernel_args(struct gen_writer *w, const struct gen_gpu_event *e)
{
    const struct gen_kernel *k = e->k;
    long blocks = (long)k->grid[0] * k->grid[1] * k->grid[2];
    long threads = (long)k->block[0] * k->block[1] * k->block[2];
    double per_sm = (double)blocks / NUM_SMS;
    double warps = per_sm * (double)((threads + 31) / 32);
    int occupancy = warps >= 64 ? 100 : (int)(warps * 100 / 64);
    key_i64(w, ",      \"registers per thread\": ", k->regs);
    key_i64(w, ",      \"shared memory\": ", k->smem);
    gen_out_fmt(w->o, ",      \"blocks per SM\": %.6f,      \"warps per SM\": %.6f", per_sm, warps);
    gen_out_fmt(w->o, ",      \"grid\": [%d, %d, %d],      \"block\": [%d, %d, %d]",
                k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2]);
    key_i64(w, ",      \"est. achieved occupancy %\": ", occupancy);
    if (!e->collective)
        return;
    key_str(w, ", \"Collective name\": ", e->collective);
    key_i64(w, ", \"In msg nelems\": ", e->nelems);
    key_i64(w, ", \"Out msg nelems\": ", e->nelems);
    key_i64(w, ", \"Group size\": ", e->world);
    gen_out_str(w->o, ", \"dtype\": \"Float\", \"In split size\": \"[]\", \"Out split size\": \"[]\""
                      ", \"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\""
                      ", \"Process Group Ranks\": \"[");
    for (int r = 0; r < e->world; r++)
        gen_out_fmt(w->o, r ? ", %d" : "%d", r);
    gen_out_str(w->o, "]\"");
}

void gen_write_gpu(struct gen_writer *w, const struct gen_gpu_event *e)
{
    complete_head(w, e->cat, e->name, e->device, e->stream, e->ts, e->dur);
    key_i64(w, "\"External id\": ", e->ext);
    if (e->k)
        gen_out_str(w->o, ",      \"queued\": 0");
    key_i64(w, ", \"device\": ", e->device);
    gen_out_str(w->o, ", \"context\": 1");
    key_i64(w, ",      \"stream\": ", e->stream);
    key_i64(w, ", \"correlation\": ", e->corr);
    if (e->k) {
        kernel_args(w, e);
        w->st->kernels++;
    } else {
        key_i64(w, ",      \"bytes\": ", e->bytes);
        gen_out_str(w->o, ", \"memory bandwidth (GB/s)\": ");
        gen_out_f64(w->o, (double)e->bytes / (double)(e->dur > 0 ? e->dur : 1));
        if (strcmp(e->cat, "gpu_memcpy") == 0)
            w->st->memcpy++;
        else
            w->st->memset++;
    }
    args_end(w);
}

void gen_write_sync(struct gen_writer *w, const char *kind, int device, int stream,
                    int64_t ts, int64_t dur, int64_t corr)
{
    complete_head(w, "cuda_sync", kind, device, stream, ts, dur);
    key_str(w, "\"cuda_sync_kind\": ", kind);
    key_i64(w, ", \"stream\": ", stream);
    key_i64(w, ", \"correlation\": ", corr);
    key_i64(w, ", \"device\": ", device);
    gen_out_str(w->o, ", \"context\": 1");
    args_end(w);
    w->st->cuda_sync++;
}

void gen_write_gpu_annotation(struct gen_writer *w, const char *name, int device, int stream,
                              int64_t ts, int64_t dur, int64_t ext)
{
    complete_head(w, "gpu_user_annotation", name, device, stream, ts, dur);
    key_i64(w, "\"External id\": ", ext);
    args_end(w);
    w->st->gpu_user_annotations++;
}

void gen_write_flow(struct gen_writer *w, char ph, const char *cat, int64_t id, int64_t pid,
                    int64_t tid, int64_t ts)
{
    begin(w);
    gen_out_fmt(w->o, "\"ph\": \"%c\"", ph);
    key_i64(w, ", \"id\": ", id);
    key_i64(w, ", \"pid\": ", pid);
    key_i64(w, ", \"tid\": ", tid);
    key_us(w, ", \"ts\": ", ts);
    key_str(w, ",\n    \"cat\": ", cat);
    key_str(w, ", \"name\": ", cat);
    if (ph == 'f')
        gen_out_str(w->o, ", \"bp\": \"e\"");
    end(w);
    w->st->flows++;
}

/* ---- file header and trailer -------------------------------------------- */

static void device_properties(struct gen_writer *w, int ndevices)
{
    gen_out_str(w->o, "  \"deviceProperties\": [");
    for (int d = 0; d < ndevices; d++) {
        gen_out_fmt(w->o,
                    "%s\n    {\n"
                    "      \"id\": %d, \"name\": \"NVIDIA A100-SXM4-80GB\", \"totalGlobalMem\": 85097971712,\n"
                    "      \"computeMajor\": 8, \"computeMinor\": 0,\n"
                    "      \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048,\n"
                    "      \"regsPerBlock\": 65536, \"warpSize\": 32,\n"
                    "      \"sharedMemPerBlock\": 49152, \"numSms\": %d\n"
                    "    , \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 166912,"
                    " \"sharedMemPerMultiprocessor\": 167936\n    }",
                    d ? "," : "", d, NUM_SMS);
    }
    gen_out_str(w->o, "\n  ],\n");
}

static void rank_list(struct gen_writer *w, int world, int shift)
{
    gen_out_str(w->o, "[");
    for (int r = 0; r < world; r++)
        gen_out_fmt(w->o, r ? ", %d" : "%d", r + shift);
    gen_out_str(w->o, "]");
}

void gen_write_header(struct gen_writer *w, const struct gen_job *job)
{
    gen_out_str(w->o, "\n{\n  \"schemaVersion\": 1,\n");
    device_properties(w, job->ndevices);
    gen_out_fmt(w->o, "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, \"world_size\": %d,"
                      " \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\","
                      " \"backend_config\": \"cuda:nccl\", \"pg_size\": %d, \"ranks\": ",
                job->rank, job->world_said ? job->world_said : job->world,
                job->world_said ? job->world_said : job->world);
    rank_list(w, job->world_said ? job->world_said : job->world, job->pg_shift);
    gen_out_str(w->o, "}], \"nccl_version\": \"2.19.3\"},\n"
                      "  \"record_shapes\": 1,\n  \"with_stack\": 0,\n"
                      "  \"traceEvents\": [");
}

static void metadata(struct gen_writer *w, const char *name, int64_t ts, int64_t pid,
                     int64_t tid, const char *key, const char *sval, int64_t ival)
{
    begin(w);
    key_str(w, "\"name\": ", name);
    key_us(w, ", \"ph\": \"M\", \"ts\": ", ts);
    key_i64(w, ", \"pid\": ", pid);
    key_i64(w, ", \"tid\": ", tid);
    gen_out_fmt(w->o, ",\n    \"args\": {\n      \"%s\": ", key);
    if (sval)
        gen_out_json_str(w->o, sval);
    else
        gen_out_i64(w->o, ival);
    gen_out_str(w->o, "\n    }");
    end(w);
    w->st->metadata++;
}

static void process_metadata(struct gen_writer *w, const struct gen_job *job)
{
    int64_t ts = job->start_ns;
    char label[32], thread[64];
    metadata(w, "process_name", ts, job->pid, 0, "name", "python3.10", 0);
    metadata(w, "process_labels", ts, job->pid, 0, "labels", "CPU", 0);
    metadata(w, "process_sort_index", ts, job->pid, 0, "sort_index", NULL, job->pid);
    snprintf(label, sizeof label, "GPU %d", job->device);
    metadata(w, "process_name", ts, job->device, 0, "name", "python3.10", 0);
    metadata(w, "process_labels", ts, job->device, 0, "labels", label, 0);
    metadata(w, "process_sort_index", ts, job->device, 0, "sort_index", NULL,
             16777216 + job->device);
    for (int s = 0; s < GS_COUNT; s++) {
        if (!w->st->streams[s])
            continue;
        snprintf(thread, sizeof thread, "stream %d ", job->stream_ids[s]);
        metadata(w, "thread_name", ts, job->device, job->stream_ids[s], "name", thread, 0);
        metadata(w, "thread_sort_index", ts, job->device, job->stream_ids[s], "sort_index",
                 NULL, job->stream_ids[s]);
    }
    snprintf(thread, sizeof thread, "thread %lld (python3.10)", (long long)job->tid_main);
    metadata(w, "thread_name", ts, job->pid, job->tid_main, "name", thread, 0);
    metadata(w, "thread_sort_index", ts, job->pid, job->tid_main, "sort_index", NULL, job->tid_main);
    snprintf(thread, sizeof thread, "thread %lld (pt_autograd_0)", (long long)job->tid_bwd);
    metadata(w, "thread_name", ts, job->pid, job->tid_bwd, "name", thread, 0);
    metadata(w, "thread_sort_index", ts, job->pid, job->tid_bwd, "sort_index", NULL, job->tid_bwd);
}

/* The stream of the planted overlapping kernels: no other event is on it. */
#define PLANT_STREAM 99
/* The stream of the planted graphs' kernels. */
#define GRAPH_STREAM 98

/* Graph launch k: one cudaGraphLaunch on the main thread, a third of the
 * way in (inside the first step), its kernels back to back after
 * GEN_GRAPH_DELAY_NS, all with its correlation. */
static void plant_graph(struct gen_writer *w, const struct gen_job *job, int k)
{
    int64_t t = job->start_ns + (job->end_ns - job->start_ns) / 3 + (int64_t)k * 20000;
    int64_t corr = 8000000 + k;
    gen_write_runtime(w, "cudaGraphLaunch", job->pid, job->tid_main, t, 15000, 0, corr);
    w->st->events++;
    int64_t kts = t + 15000 + GEN_GRAPH_DELAY_NS + (int64_t)k * 200000;
    for (int i = 0; i < GEN_GRAPH_KERNELS; i++) {
        struct gen_gpu_event e = {.cat = "kernel", .name = "planted_graph_kernel",
                                  .device = job->device, .stream = GRAPH_STREAM,
                                  .ts = kts + i * 30000, .dur = 25000, .ext = 0, .corr = corr};
        gen_write_gpu(w, &e);
        w->st->events++;
    }
}

void gen_write_plants(struct gen_writer *w, const struct gen_job *job)
{
    for (int k = 0; k < job->graphs; k++)
        plant_graph(w, job, k);
    for (int k = 0; k < job->overlaps; k++) {
        // a quarter in: inside the first step, which every semantics keeps
        int64_t t = job->start_ns + (job->end_ns - job->start_ns) / 4 + (int64_t)k * 50000;
        for (int half = 0; half < 2; half++) {
            struct gen_gpu_event e = {.cat = "kernel", .name = "planted_overlap_kernel",
                                      .device = job->device, .stream = PLANT_STREAM,
                                      .ts = t + half * 10000, .dur = 20000, .ext = 0,
                                      .corr = 9000000 + 2 * k + half};
            gen_write_gpu(w, &e);
            w->st->events++;
        }
    }
    for (int k = 0; k < job->bad_events; k++) {
        begin(w);
        gen_out_str(w->o, "\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"planted_bad\", "
                          "\"pid\": 0, \"tid\": 0, ");
        if (k % 3 == 0)        /* not a number */
            gen_out_str(w->o, "\"ts\": \"soon\", \"dur\": 1");
        else if (k % 3 == 1)   /* a negative duration */
            gen_out_fmt(w->o, "\"ts\": %lld, \"dur\": -5", (long long)(job->start_ns / 1000 + 1));
        else                   /* beyond int64 ns */
            gen_out_str(w->o, "\"ts\": 1e30, \"dur\": 1");
        end(w);
        w->st->events++;
    }
}

void gen_write_trailer(struct gen_writer *w, const struct gen_job *job)
{
    gen_write_plants(w, job);
    process_metadata(w, job);
    begin(w);
    key_us(w, "\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ", job->start_ns);
    key_us(w, ", \"dur\": ", job->end_ns - job->start_ns);
    gen_out_str(w->o, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
                      "    \"name\": \"PyTorch Profiler (0)\",\n"
                      "    \"args\": {\n      \"Op count\": 0\n    }");
    end(w);
    begin(w);
    key_us(w, "\"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ", job->start_ns);
    gen_out_str(w->o, ",\n    \"pid\": \"Spans\", \"tid\": 0,\n"
                      "    \"args\": {\n      \"sort_index\": 536870912\n    }");
    end(w);
    w->st->metadata++;
    begin(w);
    key_us(w, "\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", \"s\": \"g\",\n"
              "    \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", \"ts\": ", job->start_ns);
    end(w);
    begin(w);
    key_us(w, "\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\",\n"
              "    \"pid\": \"\", \"tid\": \"\", \"ts\": ", job->end_ns);
    end(w);
    gen_out_str(w->o, "\n  ],\n");
    key_str(w, "  \"traceName\": ", job->trace_name);
    gen_out_str(w->o, ",\n  \"displayTimeUnit\": \"ms\",\n");
    key_i64(w, "  \"baseTimeNanoseconds\": ", job->base_ns);
    gen_out_str(w->o, "\n}\n");
}
