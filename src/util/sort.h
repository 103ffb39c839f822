#ifndef HTX_UTIL_SORT_H
#define HTX_UTIL_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/memory.h"

/* A stable merge sort with the comparison inlined, for the hot sorts of
 * millions of events where qsort's call per comparison dominates.
 *
 *   SORT_DEFINE_STABLE(sort_points, struct point, point_less)
 *
 * defines `static int sort_points(struct point *v, size_t n)`, which sorts
 * v[0..n) by `bool point_less(const struct point *a, const struct point *b)`
 * (a strict "less"), keeps equal elements in input order, and returns 0 or
 * ERR_NOMEM (v untouched) when its buffer of n / 2 elements cannot be had.
 *
 * Stability makes the result unique: it is the order glibc's qsort (itself a
 * stable merge sort up to glibc 2.36) gives, or any comparator that breaks
 * ties by input position. Sorted runs cost one comparison at each merge
 * boundary, so already ordered input (rows in file order) sorts in O(n).
 * Recursion depth is log2(n). */

/* Sorts v[0..n) ascending and drops repeats, in place; returns how many
 * distinct values are left at the front. Allocates nothing it keeps. */
size_t sort_unique_i64(int64_t *v, size_t n);

/* With v[0..n) ascending: the first index whose value is >= x (n when
 * none). */
size_t i64_lower_bound(const int64_t *v, size_t n, int64_t x);

/* A sorted set of int64 (built with sort_unique_i64), borrowed by the
 * lookups until return: whether x is in it, and its index (n when absent). */
bool i64_set_has(const int64_t *set, size_t n, int64_t x);
size_t i64_set_find(const int64_t *set, size_t n, int64_t x);

#define SORT_INSERTION_MAX 24

/* SORT_DEFINE_STABLE_CTX(name, type, ctx_type, less) is the same sort with
 * a context handed to every comparison, `bool less(ctx_type ctx, const type
 * *a, const type *b)`, for elements that only name what they are compared
 * by (an index into a table the context holds):
 *
 *   static int name(type *v, size_t n, ctx_type ctx) */
#define SORT_DEFINE_STABLE_CTX(name, type, ctx_type, less)                          \
    static void name##_rec(type *v, size_t n, type *tmp, ctx_type ctx)              \
    {                                                                               \
        if (n <= SORT_INSERTION_MAX) {                                              \
            for (size_t i = 1; i < n; i++) {                                        \
                type x = v[i];                                                      \
                size_t j = i;                                                       \
                for (; j > 0 && less(ctx, &x, &v[j - 1]); j--)                      \
                    v[j] = v[j - 1];                                                \
                v[j] = x;                                                           \
            }                                                                       \
            return;                                                                 \
        }                                                                           \
        size_t half = n / 2;                                                        \
        name##_rec(v, half, tmp, ctx);                                              \
        name##_rec(v + half, n - half, tmp, ctx);                                   \
        if (!less(ctx, &v[half], &v[half - 1]))                                     \
            return;                                                                 \
        memcpy(tmp, v, half * sizeof *v);                                           \
        size_t a = 0, b = half, k = 0;                                              \
        while (a < half && b < n)                                                   \
            v[k++] = less(ctx, &v[b], &tmp[a]) ? v[b++] : tmp[a++];                 \
        while (a < half)                                                            \
            v[k++] = tmp[a++];                                                      \
    }                                                                               \
    static int name(type *v, size_t n, ctx_type ctx)                                \
    {                                                                               \
        if (n <= SORT_INSERTION_MAX) {                                              \
            name##_rec(v, n, NULL, ctx);                                            \
            return 0;                                                               \
        }                                                                           \
        type *tmp = malloc(n / 2 * sizeof *v);                                      \
        if (!tmp)                                                                   \
            return ERR_NOMEM;                                                       \
        util_populate(tmp, n / 2 * sizeof *v);                                      \
        name##_rec(v, n, tmp, ctx);                                                 \
        free(tmp);                                                                  \
        return 0;                                                                   \
    }

#define SORT_DEFINE_STABLE(name, type, less)                                        \
    static inline bool name##_less_ctx(const void *ctx, const type *a, const type *b) \
    {                                                                               \
        (void)ctx;                                                                  \
        return less(a, b);                                                          \
    }                                                                               \
    SORT_DEFINE_STABLE_CTX(name##_ctx, type, const void *, name##_less_ctx)         \
    static int name(type *v, size_t n)                                              \
    {                                                                               \
        return name##_ctx(v, n, NULL);                                              \
    }

#endif
