#ifndef HTX_UTIL_CLOCK_H
#define HTX_UTIL_CLOCK_H

#include <time.h>

/* Seconds on the monotonic clock, for durations (the loading screen's
 * pace, report --timings). */
static inline double util_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Seconds of CPU the calling thread has used (report --timings: an
 * analysis' own cost on a machine shared with other work). */
static inline double util_thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
