#include "config.h"
#include "model/model.h"

int64_t model_index_correlation(const struct rank_model *r, const struct event *ev)
{
    if (event_correlation(ev) < 0)
        return -1;
    if (ev->partner == MODEL_NONE || ev->partner >= r->nevents)
        return 0;
    return r->events[ev->partner].index;
}

const struct rank_model *model_find_rank(const struct model *m, int64_t rank)
{
    size_t lo = 0, hi = m->nranks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->ranks[mid].rank == rank)
            return &m->ranks[mid];
        if (m->ranks[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

size_t model_rank_index(const struct model *m, int64_t rank)
{
    const struct rank_model *r = model_find_rank(m, rank);
    return r ? (size_t)(r - m->ranks) : SIZE_MAX;
}

size_t model_stream_window(const struct stream_index *s, const struct event *events,
                           int64_t t0, int64_t t1, size_t *first)
{
    /* max_end is non-decreasing: the first event that may reach past t0 is
     * the first whose prefix max end exceeds t0. */
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->max_end[mid] > t0)
            hi = mid;
        else
            lo = mid + 1;
    }
    *first = lo;
    hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (events[s->pos[mid]].ts < t1)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const char *model_kind_name(enum ev_kind k)
{
    static const char *const names[EV_KIND_COUNT] = {
        "other", "kernel", "memcpy", "memset", "cpu_op", "runtime", "driver",
        "user_annotation", "gpu_user_annotation", "sync", "python_function", "trace",
    };
    return (unsigned)k < EV_KIND_COUNT ? names[k] : "other";
}

const char *model_device_name(enum device_type d)
{
    switch (d) {
    case DEVICE_CUDA:
        return "CUDA";
    case DEVICE_ROCM:
        return "ROCm";
    case DEVICE_MTIA:
        return "MTIA";
    case DEVICE_UNKNOWN_GPU:
        return "unknown GPU";
    default:
        return "CPU";
    }
}

const char *model_rank_source_name(enum rank_source s)
{
    switch (s) {
    case RANK_FROM_DISTRIBUTED_INFO:
        return "distributedInfo";
    case RANK_FROM_FILE_NAME:
        return "file name";
    default:
        return "defaulted";
    }
}

double model_event_bw(const struct rank_model *r, const struct event *ev)
{
    if (!(ev->flags & EV_FLAG_HAS_BW) || ev < r->events || ev >= r->events + r->nevents)
        return 0.0;
    uint32_t pos = (uint32_t)(ev - r->events);
    size_t lo = 0, hi = r->nbw;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->bw[mid].pos == pos)
            return r->bw[mid].gbps;
        if (r->bw[mid].pos < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0.0;
}

const struct comm_args *model_event_comm(const struct rank_model *r, const struct event *ev)
{
    if (!(ev->flags & EV_FLAG_HAS_COMM) || ev < r->events || ev >= r->events + r->nevents)
        return NULL;
    uint32_t pos = (uint32_t)(ev - r->events);
    size_t lo = 0, hi = r->ncomm;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->comm[mid].pos == pos)
            return &r->comm[mid];
        if (r->comm[mid].pos < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
