#ifndef HTX_UTIL_POOL_H
#define HTX_UTIL_POOL_H

#include <pthread.h>
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

/* The number of cores this process may run on (its CPU affinity: taskset,
 * a Slurm task's --cpus-per-task), else of online cores; at least 1. */
int pool_cores(void);

/* Starts a thread as pthread_create does (0, or its error), with the
 * signals a terminal or a user sends (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
 * SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT, SIGWINCH) blocked in it, so that
 * their handlers run on the main thread: ncurses' SIGTSTP handler, run on a
 * worker interrupted inside malloc or stdio, would wait forever for the
 * lock that worker holds. Every thread htx starts is started so. */
int pool_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
