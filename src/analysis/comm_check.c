#include "config.h"
#include "analysis/analysis.h"

#include "analysis/busy.h"

/* A multi-rank job almost always communicates. When none of its GPU work
 * classifies as COMMUNICATION, the kernel-type and overlap tables are
 * "100 % compute" because the rules do not know its collectives (a custom
 * all-to-all, a new library), not because there are none. */
int analysis_comm_missing(const struct model *m, const struct analysis_opts *o, bool *missing)
{
    *missing = false;
    size_t selected = 0;
    for (size_t ri = 0; ri < m->nranks; ri++)
        selected += m->ranks[ri].selected;
    if (selected < 2)   // fewer than two ranks with GPU work: nothing is missing
        return 0;
    size_t ranks_with_gpu_work = 0;
    struct busy_classes c;
    if (busy_classes_init(&c, m, o))
        return ERR_NOMEM;
    bool seen_comm = false;
    for (size_t ri = 0; ri < m->nranks && !seen_comm; ri++) {
        const struct rank_model *r = &m->ranks[ri];
        if (!r->selected)
            continue;
        bool gpu_work = false;
        for (size_t i = 0; i < r->nrows && !seen_comm; i++) {
            const struct event *ev = &r->events[r->rows[i]];
            if (!busy_is_gpu_event(m, ev))
                continue;
            gpu_work = true;
            seen_comm = busy_class(&c, ev->name) == KC_COMMUNICATION;
        }
        ranks_with_gpu_work += gpu_work;
    }
    busy_classes_fini(&c);
    *missing = !seen_comm && ranks_with_gpu_work > 1;
    return 0;
}
