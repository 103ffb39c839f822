#include "config.h"
#include "util/sort.h"

static inline bool i64_less(const int64_t *a, const int64_t *b)
{
    return *a < *b;
}

SORT_DEFINE_STABLE(sort_i64, int64_t, i64_less)

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

size_t sort_unique_i64(int64_t *v, size_t n)
{
    if (n == 0)
        return 0;
    if (sort_i64(v, n))   /* no memory for its buffer: qsort needs none */
        qsort(v, n, sizeof *v, cmp_i64);
    size_t k = 1;
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

size_t i64_lower_bound(const int64_t *v, size_t n, int64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t i64_set_find(const int64_t *set, size_t n, int64_t x)
{
    size_t i = i64_lower_bound(set, n, x);
    return i < n && set[i] == x ? i : n;
}

bool i64_set_has(const int64_t *set, size_t n, int64_t x)
{
    return i64_set_find(set, n, x) < n;
}
