#ifndef HTX_UTIL_VEC_H
#define HTX_UTIL_VEC_H

#include <stddef.h>

/* Growable arrays on the heap. The array pointer, count and capacity live in
 * the caller's struct; vec_reserve makes room for `need` elements in total,
 * doubling, with every size computation checked for overflow.
 * Returns 0 or ERR_NOMEM. The caller owns *items and frees it with free(). */
int vec_reserve(void **items, size_t *cap, size_t elem_size, size_t need);

/* Convenience: make room for one more element after *count; vec_reserve is
 * called only when full (a push is the inner loop of many passes). count
 * and cap are read twice: plain lvalues only. */
#define VEC_PUSH_SLOT(items, count, cap)                                  \
    ((count) < (cap) ? 0                                                  \
                     : vec_reserve((void **)&(items), &(cap), sizeof *(items), (count) + 1))

#endif
