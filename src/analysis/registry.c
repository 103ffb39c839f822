#include "config.h"
#include "analysis/analysis.h"
#include "analysis/findings.h"
#include "analysis/tiles.h"

#include <string.h>

/* The memories: each analysis' peak alone (report --analysis=NAME, %M of
 * /usr/bin/time) over that of the model (report --analysis=stragglers),
 * on a 1 GB rank, in bytes an event; temporal, kernels and overlap
 * besides the busy intervals they share (BUSY_MEMO_MEMORY); the launch
 * tables' every row (--format=json) apart. The costs: each analysis' CPU
 * time in ms on the same rank (report --timings), with the report's trust
 * report; the kernels' with the busy intervals, which the costliest of
 * temporal, kernels and overlap makes (report.c starts it first). */
static const struct analysis_info analyses[ANALYSIS_COUNT] = {
    {ANALYSIS_TEMPORAL, "temporal", "Overview", temporal_run, 0, 0, 5},
    {ANALYSIS_KERNELS, "kernels", "Kernels", kernels_run, 0, 0, 155},
    {ANALYSIS_IDLE, "idle", "Idle", idle_run, 5, 0, 110},
    {ANALYSIS_OVERLAP, "overlap", "Overlap", overlap_run, 0, 0, 5},
    {ANALYSIS_LAUNCH, "launch", "Launch", launch_run, 4, 13, 260},
    {ANALYSIS_QUEUE, "queue", "Queue length", queue_run, 7, 0, 205},
    {ANALYSIS_MEMBW, "membw", "Memory bandwidth", membw_run, 1, 0, 40},
    {ANALYSIS_ANNOTATIONS, "annotations", "Annotations", annotations_run, 4, 0, 195},
    {ANALYSIS_SEQUENCES, "sequences", "Sequences", sequences_run, 8, 0, 205},
    {ANALYSIS_COLLECTIVES, "collectives", "Collectives", collectives_run, 0, 0, 10},
    {ANALYSIS_STRAGGLERS, "stragglers", "Stragglers", stragglers_run, 0, 0, 10},
    {ANALYSIS_UTILIZATION, "utilization", "Utilization", utilization_run, 5, 0, 55},
    {ANALYSIS_FINDINGS, "findings", "Findings", findings_run, 4, 0, 130},
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
