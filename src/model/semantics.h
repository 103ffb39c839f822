#ifndef HTX_MODEL_SEMANTICS_H
#define HTX_MODEL_SEMANTICS_H

#include <stdbool.h>

/* Where HTA's behaviour is a mistake a user would call a bug (spec §4), htx
 * fixes it by default. Each difference is one flag here; --semantics=hta sets
 * every flag to HTA's behaviour, which is what the oracle tests check. The
 * model and the analyses read these flags; there is no second implementation.
 * Keep this list in step with the SEMANTICS section of man/htx.1. */
struct semantics {
    /* Presentation: the TUI shows HTA's tables as HTA lays them out (kernel
     * tables by name), not htx's triage tables (kernel summary by time,
     * annotation tree). The report decides the same from --semantics. */
    bool hta_tables;
    /* §1.5: float-ts traces get ts'=ceil(ts), end'=floor(ts+dur) in µs, which
     * can make durations negative. htx keeps the exact nanosecond values. */
    bool ns_rounding;
    /* §1.10: drop the last ProfilerStep and what it launched. */
    bool drop_last_step;
    /* §1.10/§4.4: a kernel joins every kept CPU event with its correlation,
     * duplicating rows; htx keeps each kernel once. */
    bool filter_duplicates_rows;
    /* §1.10: a rank without ProfilerStep events in a job where others have
     * them is emptied by HTA; htx keeps it whole. */
    bool filter_empties_stepless_rank;
    /* §1.7 rule 4: GPU events on stream 0 get no iteration (NaN). htx gives
     * them their launcher's iteration like any other stream. */
    bool stream0_no_iteration;
    /* §1.8: "GPU side" is `stream != -1` (Triton cpu_ops with stream 0 count
     * as GPU compute, Event/Context Sync do not). htx: GPU side is a kernel,
     * memcpy or memset event. */
    bool gpu_side_is_stream_field;
    /* §4.5: cuda_sync events on a stream count as busy GPU time (OTHER). */
    bool sync_is_gpu_busy;
    /* §2.1: HTA's name rules: any `hip…` kernel is COMMUNICATION, and only
     * `nccl…`/`ncclKernel` names count as NCCL. htx recognises
     * ncclDevKernel_*, RCCL and hip-prefixed compute kernels correctly. */
    bool hta_kernel_classes;
    /* notation section: numpy's unstable introsort decides tie order. htx
     * sorts stably (ties by input order). */
    bool unstable_sort;
    /* §2.4/§4.8: rows that survive top-N aggregation lose their statistics. */
    bool top_n_loses_stats;
    /* §3.6/§3.7/§4.9: summaries count each change point once instead of
     * weighting by the time the value held. */
    bool sample_weighted_summaries;
    /* §3.6: the blocked-on-full-queue table keeps one stream per rank. */
    bool blocked_queue_one_row_per_rank;
    /* §3.10/§4.12: TraceDiff uses no filter and no rebasing, iterations from
     * every rank's symbols, and float counts. */
    bool diff_hta_quirks;
    /* §3.5: launch statistics know only cudaLaunchKernel(ExC), runFunction
     * and cudaMemcpy/MemsetAsync, and take every stream -1 event with a
     * launch's correlation as its CPU side, so AMD and Triton
     * (cuLaunchKernel) traces come out empty. htx also counts cuLaunchKernel(Ex),
     * hipLaunchKernel, hipExtModuleLaunchKernel and the hip memcpy/memset
     * launches, and takes only the launch events themselves as CPU side. */
    bool hta_launch_names;
    /* §3.7: the running bandwidth sum keeps float residue (1e-13) after the
     * last transfer of a kind ends, which then counts as a positive sample.
     * htx resets the sum to exactly 0 whenever no transfer of that kind is
     * active. */
    bool membw_float_residue;
    /* §3.4: HTA looks a kernel's launch up by index_correlation as a row
     * label, and 0 (its value for "no launch in the trace") is also the
     * label of the first kept event, so every kernel without a launch gets
     * that event's start as its launch time (NaN only when it was filtered
     * out), moving some gaps from kernel_wait to host_wait. htx gives such
     * kernels no launch time. */
    bool idle_launch_label0;
    /* Stragglers: HTA's get_potential_stragglers (the k ranks that most
     * often start its chosen NCCL kernel last) instead of htx's ranking by
     * blame over collectives matched across ranks. */
    bool hta_stragglers;
    /* Annotations: HTA's tables only. htx adds kernels_by_annotation_stack
     * (every kernel, memcpy and memset by the CPU user_annotation stack of
     * its launch) and its cross-rank summary. */
    bool hta_annotations_only;
};

enum semantics_mode { SEMANTICS_HTX = 0, SEMANTICS_HTA = 1 };

void semantics_init(struct semantics *s, enum semantics_mode mode);

#endif
