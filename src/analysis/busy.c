#include "config.h"
#include "analysis/busy.h"

#include <stdlib.h>
#include <string.h>

#include "util/memory.h"
#include "util/vec.h"

#define BUSY_CLASS_UNKNOWN 0xff

int busy_classes_init(struct busy_classes *c, const struct model *m,
                      const struct analysis_opts *o)
{
    c->m = m;
    c->o = o;
    c->n = strtab_count(&m->strings);
    c->cls = util_alloc_resident(c->n, 1);
    if (!c->cls)
        return ERR_NOMEM;
    memset(c->cls, BUSY_CLASS_UNKNOWN, c->n);
    return 0;
}

void busy_classes_fini(struct busy_classes *c)
{
    free(c->cls);
    c->cls = NULL;
    c->n = 0;
}

enum kernel_class busy_class(struct busy_classes *c, uint32_t name_id)
{
    const char *comm = c->o ? c->o->comm_patterns : NULL;
    const char *mem = c->o ? c->o->memory_patterns : NULL;
    bool hta = c->m->sem.hta_kernel_classes;
    if (name_id >= c->n)
        return kernel_classify_with(model_str(c->m, name_id), hta, comm, mem);
    if (c->cls[name_id] == BUSY_CLASS_UNKNOWN)
        c->cls[name_id] = (uint8_t)kernel_classify_with(model_str(c->m, name_id), hta, comm, mem);
    return (enum kernel_class)c->cls[name_id];
}

bool busy_is_gpu_event(const struct model *m, const struct event *ev)
{
    if (!model_is_gpu_side(m, ev))
        return false;
    return m->sem.sync_is_gpu_busy || ev->kind != EV_KIND_SYNC;
}

static bool counts(struct busy_classes *c, const struct event *ev, unsigned class_mask)
{
    return busy_is_gpu_event(c->m, ev) && (class_mask & BUSY_CLASS_BIT(busy_class(c, ev->name)));
}

int busy_merged(struct busy_classes *c, const struct rank_model *r, unsigned class_mask,
                struct interval **out, size_t *k)
{
    *out = NULL;
    *k = 0;
    /* one pass that grows the array: a pass over every row costs more than
     * the copies of the doubling */
    struct interval *iv = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (!counts(c, ev, class_mask))
            continue;
        if (n == cap && VEC_PUSH_SLOT(iv, n, cap)) {
            free(iv);
            return ERR_NOMEM;
        }
        iv[n++] = (struct interval){ev->ts, ev->ts + ev->dur};
    }
    if (n == 0)
        return 0;
    int rc = intervals_merge_ordered(iv, n, c->m->sem.unstable_sort, k);
    if (rc) {
        free(iv);
        *k = 0;
        return rc;
    }
    *out = iv;
    return 0;
}
