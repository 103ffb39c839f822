#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/build.h"
#include "model/model.h"

/* Models of ranks known from their summaries alone: a job whose
 * events do not fit in memory is shown from its summaries' tables and
 * tiles; the model only lists the ranks, their lanes and their spans. */

static char *copy(const char *s)
{
    return strdup(s ? s : "");
}

static int summary_rank(struct model *m, struct rank_model *r, const struct model_summary_rank *in,
                        int64_t origin)
{
    r->summary_only = true;
    r->rank = in->rank;
    r->rank_source = RANK_FROM_DISTRIBUTED_INFO;
    r->world_size = -1;
    r->device = in->nstreams ? DEVICE_UNKNOWN_GPU : DEVICE_CPU_ONLY;
    r->complete_events = in->complete_events;
    r->start_ns = in->start_ns - origin;
    r->end_ns = in->end_ns - origin;
    r->selected = true;
    r->path = copy(in->path);
    r->summary_path = copy(in->summary_path);
    r->streams = calloc(in->nstreams + 1, sizeof *r->streams);
    r->threads = calloc(in->nthreads + 1, sizeof *r->threads);
    if (!r->path || !r->summary_path || !r->streams || !r->threads)
        return ERR_NOMEM;
    for (size_t i = 0; i < in->nstreams; i++)
        r->streams[r->nstreams++].stream = in->streams[i];
    for (size_t i = 0; i < in->nthreads; i++) {
        struct thread_index *t = &r->threads[r->nthreads++];
        t->pid = strtab_intern(&m->strings, in->thread_pids[i], strlen(in->thread_pids[i]));
        t->tid = strtab_intern(&m->strings, in->thread_tids[i], strlen(in->thread_tids[i]));
        const char *name = in->thread_names ? in->thread_names[i] : NULL;
        if (name)
            t->name = strtab_intern(&m->strings, name, strlen(name));
        if (t->pid == STRTAB_NONE || t->tid == STRTAB_NONE || t->name == STRTAB_NONE)
            return ERR_NOMEM;
    }
    return 0;
}

struct model *model_new_from_summaries(const struct semantics *sem, const struct model_summary_rank *in,
                                       size_t n, struct err *e)
{
    for (size_t i = 1; i < n; i++)
        if (in[i].rank <= in[i - 1].rank) {
            err_set(e, ERR_USAGE, "rank %lld is given twice or out of order",
                    (long long)in[i].rank);
            return NULL;
        }
    struct model *m = calloc(1, sizeof *m);
    if (!m || strtab_init(&m->strings)) {
        free(m);
        err_set(e, ERR_NOMEM, "out of memory");
        return NULL;
    }
    m->sem = *sem;
    m->ranks = calloc(n + 1, sizeof *m->ranks);
    int64_t origin = 0;
    for (size_t i = 0; i < n; i++)
        origin = i == 0 || in[i].start_ns < origin ? in[i].start_ns : origin;
    m->origin_ns = origin;
    int rc = m->ranks ? 0 : ERR_NOMEM;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = summary_rank(m, &m->ranks[m->nranks++], &in[i], origin);
    m->id_event_sync = strtab_find(&m->strings, "Event Sync", 10);
    m->id_context_sync = strtab_find(&m->strings, "Context Sync", 12);
    if (rc) {
        model_free(m);
        err_set(e, ERR_NOMEM, "out of memory");
        return NULL;
    }
    return m;
}
