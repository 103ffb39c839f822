#include "config.h"
#include "analysis/analysis.h"
#include "analysis/findings.h"
#include "analysis/tiles.h"

#include <string.h>

/* The costs: each analysis' CPU time in ms on a 1 GB rank (report
 * --timings), with the report's trust report and busy intervals (made
 * once, by the first of temporal, kernels and overlap to run). */
static const struct analysis_info analyses[ANALYSIS_COUNT] = {
    {ANALYSIS_TEMPORAL, "temporal", "Overview", temporal_run, ANALYSIS_MEM_SMALL, 30},
    {ANALYSIS_KERNELS, "kernels", "Kernels", kernels_run, ANALYSIS_MEM_SMALL, 130},
    {ANALYSIS_IDLE, "idle", "Idle", idle_run, ANALYSIS_MEM_SMALL, 175},
    {ANALYSIS_OVERLAP, "overlap", "Overlap", overlap_run, ANALYSIS_MEM_SMALL, 10},
    {ANALYSIS_LAUNCH, "launch", "Launch", launch_run, ANALYSIS_MEM_TABLES, 330},
    {ANALYSIS_QUEUE, "queue", "Queue length", queue_run, ANALYSIS_MEM_SCRATCH, 245},
    {ANALYSIS_MEMBW, "membw", "Memory bandwidth", membw_run, ANALYSIS_MEM_SMALL, 40},
    {ANALYSIS_ANNOTATIONS, "annotations", "Annotations", annotations_run, ANALYSIS_MEM_SMALL, 240},
    {ANALYSIS_SEQUENCES, "sequences", "Sequences", sequences_run, ANALYSIS_MEM_SCRATCH, 270},
    {ANALYSIS_COLLECTIVES, "collectives", "Collectives", collectives_run, ANALYSIS_MEM_SMALL, 10},
    {ANALYSIS_STRAGGLERS, "stragglers", "Stragglers", stragglers_run, ANALYSIS_MEM_SMALL, 10},
    {ANALYSIS_UTILIZATION, "utilization", "Utilization", utilization_run, ANALYSIS_MEM_SMALL, 55},
    {ANALYSIS_FINDINGS, "findings", "Findings", findings_run, ANALYSIS_MEM_SCRATCH, 250},
};

const struct analysis_info *analysis_list(size_t *count)
{
    *count = ANALYSIS_COUNT;
    return analyses;
}

const struct analysis_info *analysis_get(enum analysis_id id)
{
    return (unsigned)id < ANALYSIS_COUNT ? &analyses[id] : NULL;
}

const struct analysis_info *analysis_find(const char *name)
{
    for (size_t i = 0; i < ANALYSIS_COUNT; i++)
        if (strcmp(analyses[i].name, name) == 0)
            return &analyses[i];
    return NULL;
}
