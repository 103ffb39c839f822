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
