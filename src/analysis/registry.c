#include "config.h"
#include "analysis/analysis.h"

#include <string.h>

static const struct analysis_info analyses[ANALYSIS_COUNT] = {
    {ANALYSIS_TEMPORAL, "temporal", "Overview", temporal_run, false},
    {ANALYSIS_KERNELS, "kernels", "Kernels", kernels_run, false},
    {ANALYSIS_IDLE, "idle", "Idle", idle_run, false},
    {ANALYSIS_OVERLAP, "overlap", "Overlap", overlap_run, false},
    {ANALYSIS_LAUNCH, "launch", "Launch", launch_run, true},
    {ANALYSIS_QUEUE, "queue", "Queue length", queue_run, true},
    {ANALYSIS_MEMBW, "membw", "Memory bandwidth", membw_run, false},
    {ANALYSIS_ANNOTATIONS, "annotations", "Annotations", annotations_run, false},
    {ANALYSIS_SEQUENCES, "sequences", "Sequences", sequences_run, true},
    {ANALYSIS_COLLECTIVES, "collectives", "Collectives", collectives_run, false},
    {ANALYSIS_STRAGGLERS, "stragglers", "Stragglers", stragglers_run, false},
};

const struct analysis_info *analysis_list(size_t *count)
{
    *count = ANALYSIS_COUNT;
    return analyses;
}

const struct analysis_info *analysis_find(const char *name)
{
    for (size_t i = 0; i < ANALYSIS_COUNT; i++)
        if (strcmp(analyses[i].name, name) == 0)
            return &analyses[i];
    return NULL;
}
