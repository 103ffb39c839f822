#include "config.h"
#include "util/pool.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#define POOL_MAX_THREADS 256

struct pool {
    size_t n, next;
    bool stopped;
    int (*task)(void *ctx, size_t i);
    void *ctx;
    pthread_mutex_t lock;
};

static void *worker(void *arg)
{
    struct pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        size_t i = p->next < p->n && !p->stopped ? p->next++ : p->n;
        pthread_mutex_unlock(&p->lock);
        if (i >= p->n)
            return NULL;
        if (p->task(p->ctx, i)) {
            pthread_mutex_lock(&p->lock);
            p->stopped = true;
            pthread_mutex_unlock(&p->lock);
        }
    }
}

int pool_cores(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

bool pool_run(size_t n, int threads, int (*task)(void *ctx, size_t i), void *ctx)
{
    struct pool p = {.n = n, .task = task, .ctx = ctx};
    if (threads <= 0)
        threads = pool_cores();
    if ((size_t)threads > n)
        threads = (int)n;
    if (threads > POOL_MAX_THREADS)
        threads = POOL_MAX_THREADS;
    pthread_mutex_init(&p.lock, NULL);
    pthread_t tids[POOL_MAX_THREADS];
    int started = 0;
    for (int i = 1; i < threads; i++) {
        if (pool_thread_start(&tids[started], worker, &p) != 0)
            break;
        started++;
    }
    worker(&p);
    for (int i = 0; i < started; i++)
        pthread_join(tids[i], NULL);
    pthread_mutex_destroy(&p.lock);
    return p.stopped;
}

int pool_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
    static const int async[] = {SIGINT, SIGTERM, SIGHUP,  SIGQUIT, SIGTSTP,
                                SIGTTIN, SIGTTOU, SIGCONT, SIGWINCH};
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof async / sizeof async[0]; i++)
        sigaddset(&block, async[i]);
    pthread_sigmask(SIG_BLOCK, &block, &old);   // the new thread inherits it
    int rc = pthread_create(t, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}
