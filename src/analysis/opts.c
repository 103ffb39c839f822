#include "config.h"
#include "analysis/analysis.h"

#include <string.h>

void analysis_opts_default(struct analysis_opts *o)
{
    memset(o, 0, sizeof *o);
    o->num_kernels = 10;
    o->duration_ratio = 0.8;
    o->include_memory_kernels = true;
    o->consecutive_kernel_delay_ns = 30 * 1000;
    o->runtime_cutoff_ns = 50 * 1000;
    o->launch_delay_cutoff_ns = 100 * 1000;
    o->include_memory_events = true;
    o->max_queue_length = 1024;
    o->use_gpu_annotation = true;
    o->annotation_num_kernels = 1000;
    o->annotation_duration_ratio = 0.8;
    o->shorten_names = true;
    o->operator_name = "aten::linear";
    o->min_pattern_len = 3;
    o->top_k = 5;
    o->num_candidates = 2;
}
