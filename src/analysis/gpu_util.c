#include "config.h"
#include "analysis/gpu_util.h"

#include <stdlib.h>
#include <string.h>

#include "util/err.h"

void name_set_init(struct name_set *s, const struct model *m, const char *const *names,
                   size_t count)
{
    s->n = 0;
    name_set_add(s, m, names, count);
}

void name_set_add(struct name_set *s, const struct model *m, const char *const *names,
                  size_t count)
{
    for (size_t i = 0; i < count && s->n < NAME_SET_MAX; i++) {
        uint32_t id = strtab_find(&m->strings, names[i], strlen(names[i]));
        if (id != STRTAB_NONE && !name_set_has(s, id))
            s->ids[s->n++] = id;
    }
}

bool name_set_has(const struct name_set *s, uint32_t id)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->ids[i] == id)
            return true;
    return false;
}

int sem_argsort(const struct model *m, size_t *perm, size_t n, const void *keys,
                sort_less_fn less)
{
    argsort_identity(perm, n);
    return sort_argsort(m->sem.unstable_sort, perm, n, keys, less);
}

void *gpu_alloc(struct arena *a, size_t n, size_t sz)
{
    return arena_calloc(a, n ? n : 1, sz);
}
