#include "config.h"
#include "analysis/series.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/gpu_util.h"

/* The queue-length and bandwidth series as counter tracks for
 * `htx counters` (HTA's generate_trace_with_counters, spec §3.11). */

static const char *dup_str(struct arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

/* Absolute times: what the trace file itself says (HTA adds min_ts back). */
static int64_t *absolute(const struct model *m, const int64_t *ts, size_t n, struct arena *a)
{
    int64_t *out = gpu_alloc(a, n, sizeof *out);
    for (size_t i = 0; out && i < n; i++)
        out[i] = ts[i] + m->origin_ns;
    return out;
}

static int queue_tracks(const struct model *m, const struct queue_series *qs, size_t nq,
                        struct arena *a, struct counter_series *cs, size_t *k)
{
    for (size_t i = 0; i < nq; i++) {
        char id[32];
        snprintf(id, sizeof id, "%" PRId64, qs[i].stream);
        double *v = gpu_alloc(a, qs[i].n, sizeof *v);
        int64_t *ts = absolute(m, qs[i].ts, qs[i].n, a);
        if (!v || !ts)
            return ERR_NOMEM;
        for (size_t j = 0; j < qs[i].n; j++)
            v[j] = (double)qs[i].queue_length[j];
        cs[*k] = (struct counter_series){"Queue Length", "queue_length",
                                         model_str(m, qs[i].pid), model_str(m, qs[i].tid),
                                         dup_str(a, id), ts, v, qs[i].n, true};
        if (!cs[*k].id)
            return ERR_NOMEM;
        (*k)++;
    }
    return 0;
}

int series_counters_build(const struct model *m, const struct rank_model *r, struct arena *a,
                          struct counter_series **out, size_t *nout, struct err *e)
{
    struct queue_series *qs;
    struct membw_series *bs;
    size_t nq, nb, k = 0;
    *out = NULL;
    *nout = 0;
    int rc = queue_series_build(m, r, a, &qs, &nq, NULL, e);
    if (!rc)
        rc = membw_series_build(m, r, a, &bs, &nb, e);
    if (rc)
        return rc;
    struct counter_series *cs = gpu_alloc(a, nq + nb, sizeof *cs);
    if (!cs || queue_tracks(m, qs, nq, a, cs, &k))
        return err_set(e, ERR_NOMEM, "counters: out of memory");
    for (size_t i = 0; i < nb; i++) {
        int64_t *ts = absolute(m, bs[i].ts, bs[i].n, a);
        if (!ts)
            return err_set(e, ERR_NOMEM, "counters: out of memory");
        cs[k++] = (struct counter_series){bs[i].label, "memory_bw_gbps",
                                          model_str(m, bs[i].pid), NULL, NULL, ts,
                                          bs[i].bw_gbps, bs[i].n, false};
    }
    *out = cs;
    *nout = k;
    return 0;
}
