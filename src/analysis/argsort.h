#ifndef HTX_ANALYSIS_ARGSORT_H
#define HTX_ANALYSIS_ARGSORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sorting row positions as numpy and pandas do (spec, notation section):
 * the introsort HTA's tie order depends on, and stable sorts for htx. */

/* Sorting row positions by a key with only a strict "less" test.
 * perm holds the positions to sort (the caller fills it, usually with
 * argsort_identity); less(keys, perm[i], perm[j]) compares two of them. The
 * input order of perm is the "input order" that decides ties.
 * hta_argsort is numpy 1.24's introsort argsort (unstable; the tie order
 * HTA's numbers depend on, spec notation section); hta_argsort_desc is
 * pandas' descending form (reverse, sort, reverse). stable_argsort(_desc)
 * keep ties in input order (merge sort; ERR_NOMEM when its buffer cannot be
 * allocated, perm untouched). sort_argsort(_desc) pick one by `unstable`
 * (pass m->sem.unstable_sort). Keys with NaN: pandas moves NaN rows out
 * before sorting; callers that need that must do it themselves.
 * Borrows keys until return; allocates nothing but the merge buffer. */
typedef bool (*sort_less_fn)(const void *keys, size_t a, size_t b);
void hta_argsort(size_t *perm, size_t n, const void *keys, sort_less_fn less);
void hta_argsort_desc(size_t *perm, size_t n, const void *keys, sort_less_fn less);
int stable_argsort(size_t *perm, size_t n, const void *keys, sort_less_fn less);
int stable_argsort_desc(size_t *perm, size_t n, const void *keys, sort_less_fn less);
int sort_argsort(bool unstable, size_t *perm, size_t n, const void *keys, sort_less_fn less);
int sort_argsort_desc(bool unstable, size_t *perm, size_t n, const void *keys,
                      sort_less_fn less);
void argsort_identity(size_t *perm, size_t n);           /* perm[i] = i */
bool less_i64(const void *keys, size_t a, size_t b);     /* keys: const int64_t[] */
bool less_double(const void *keys, size_t a, size_t b);  /* keys: const double[], NaN last */
bool less_str(const void *keys, size_t a, size_t b);     /* keys: const char *const[], code point */

#endif
