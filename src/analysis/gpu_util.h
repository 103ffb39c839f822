#ifndef HTX_ANALYSIS_GPU_UTIL_H
#define HTX_ANALYSIS_GPU_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/argsort.h"
#include "model/model.h"
#include "util/arena.h"
#include "util/sort.h"

/* Small helpers private to the launch, queue and memory-bandwidth analyses. */

/* A set of event names as string ids, for O(1)-ish membership tests
 * without string compares in the per-event loops. Names the trace never
 * uses are left out. The set is a plain value (no heap); init and add
 * borrow the names until return. */
#define NAME_SET_MAX 24
struct name_set {
    uint32_t ids[NAME_SET_MAX];
    size_t n;
};
void name_set_init(struct name_set *s, const struct model *m, const char *const *names,
                   size_t count);
/* Adds names to an initialised set (ignores what does not fit). */
void name_set_add(struct name_set *s, const struct model *m, const char *const *names,
                  size_t count);
bool name_set_has(const struct name_set *s, uint32_t id);


/* Sorts perm (filled with 0..n-1 here) by keys: numpy's introsort under
 * semantics.unstable_sort, else stably. Borrows keys until return; the
 * stable sort's buffer is freed before. Returns 0 or ERR_NOMEM. */
int sem_argsort(const struct model *m, size_t *perm, size_t n, const void *keys,
                sort_less_fn less);

/* Allocation helper: n zeroed elements of size sz from a, which owns them
 * (at least one, so that an empty input still gives a valid pointer); NULL
 * on overflow or ENOMEM. */
void *gpu_alloc(struct arena *a, size_t n, size_t sz);

#endif
