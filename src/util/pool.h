#ifndef HTX_UTIL_POOL_H
#define HTX_UTIL_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* The one thread pool: the loader's files, the report's analyses and the
 * two semantics of a summary all run through it. */

/* Runs task(ctx, i) for every i in [0, n) on up to `threads` threads (0 or
 * less: one per core), the calling thread among them; each thread takes the
 * next i. A task that returns non-zero stops the handing out of the rest
 * (a cancelled load); tasks already running finish. Fewer threads than
 * asked (pthread_create failing) is still correct. Returns whether a task
 * stopped it. */
bool pool_run(size_t n, int threads, int (*task)(void *ctx, size_t i), void *ctx);

/* The number of online cores, at least 1. */
int pool_cores(void);

#endif
