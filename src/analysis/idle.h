#ifndef HTX_ANALYSIS_IDLE_H
#define HTX_ANALYSIS_IDLE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"

/* The gaps behind idle_time_breakdown (§3.4), one by one, for drilling
 * down from a row of it: every gap before a kernel on one stream of one
 * rank, categorised exactly as the table does. */

enum idle_category { IDLE_HOST_WAIT = 0, IDLE_KERNEL_WAIT, IDLE_OTHER, IDLE_CATEGORIES };

/* "host_wait", "kernel_wait", "other" (the table's idle_category). */
const char *idle_category_name(enum idle_category c);

struct idle_gap {
    uint32_t kernel;      /* position in rank->events of the kernel after the gap */
    uint32_t previous;    /* the kernel before it (whose end starts the gap) */
    int64_t start, len;   /* ns: the previous kernel's end, and the time to the next start */
    uint8_t category;     /* enum idle_category */
};

/* The gaps of stream `stream` of rank r over its current rows, in time
 * order (the first kernel has none). *out is malloc'd (caller frees; NULL
 * when there are none). Returns 0 or ERR_NOMEM. */
int idle_stream_gaps(const struct model *m, const struct analysis_opts *o,
                     const struct rank_model *r, int64_t stream, struct idle_gap **out,
                     size_t *n);

#endif
