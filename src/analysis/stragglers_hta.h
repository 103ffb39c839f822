#ifndef HTX_ANALYSIS_STRAGGLERS_HTA_H
#define HTX_ANALYSIS_STRAGGLERS_HTA_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "util/arena.h"
#include "util/err.h"

/* HTA's get_potential_stragglers(num_candidates=k) with its default method,
 * over the selected ranks and the model's rows (stragglers_hta.c lists the
 * steps). Where HTA raises, status says so and why names the cause; htx
 * answers with no candidate then. Where HTA indexes past the end of an
 * iteration with fewer than k ranks, htx takes the smallest metric of that
 * iteration as the threshold (short_iterations counts those). */

enum hta_stragglers_status { HTA_STRAGGLERS_OK = 0, HTA_STRAGGLERS_HTA_RAISES };

struct hta_straggler {
    int64_t rank;
    int64_t count;         /* iterations in which the rank was among the k latest */
};

struct hta_stragglers {
    enum hta_stragglers_status status;
    const char *why;       /* static text when HTA raises, else NULL */
    struct hta_straggler *ranks;   /* HTA's answer, in its order (arena) */
    size_t nranks;
    size_t profiler_steps, iterations;
    int64_t t_min;         /* ns */
    double mean_iter_time; /* ns */
    int64_t stream;        /* the metric kernel's stream and name (string id) */
    uint32_t name;
    size_t short_iterations;
};

/* Returns 0 or ERR_NOMEM (e set); out lives in a. */
int hta_stragglers_run(const struct model *m, int num_candidates, struct arena *a,
                       struct hta_stragglers *out, struct err *e);

#endif
