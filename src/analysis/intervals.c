#include "config.h"
#include "analysis/intervals.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/argsort.h"
#include "util/memory.h"
#include "util/sort.h"

/* ---- intervals (§2.3) ---------------------------------------------------- */

static int cmp_interval(const void *a, const void *b)
{
    const struct interval *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->end > y->end) - (x->end < y->end);
}

/* Groups already-sorted intervals in place: a new group starts when a start
 * is strictly after the largest end seen so far. */
static size_t group_sorted(struct interval *iv, size_t n)
{
    if (n == 0)
        return 0;
    size_t k = 0;
    int64_t max_end = iv[0].end;
    for (size_t i = 1; i < n; i++) {
        struct interval cur = iv[i];
        if (cur.start > max_end) {
            iv[++k] = cur;
        } else if (cur.end > iv[k].end) {
            iv[k].end = cur.end;
        }
        if (cur.end > max_end)
            max_end = cur.end;
    }
    return k + 1;
}

static inline bool start_less(const struct interval *a, const struct interval *b)
{
    return a->start < b->start;
}

SORT_DEFINE_STABLE(sort_by_start, struct interval, start_less)

size_t intervals_merge(struct interval *iv, size_t n)
{
    /* often already in order (a stream's or thread's events by time) */
    size_t i = 1;
    while (i < n && cmp_interval(&iv[i - 1], &iv[i]) <= 0)
        i++;
    if (i < n)
        qsort(iv, n, sizeof *iv, cmp_interval);
    return group_sorted(iv, n);
}

/* HTA's order: numpy's introsort on the starts alone, over positions. */
static int introsort_by_start(struct interval *iv, size_t n)
{
    size_t *perm = util_alloc_resident(n, sizeof *perm);
    int64_t *start = util_alloc_resident(n, sizeof *start);
    struct interval *copy = util_alloc_resident(n, sizeof *copy);
    int rc = perm && start && copy ? 0 : ERR_NOMEM;
    if (rc == 0) {
        for (size_t i = 0; i < n; i++)
            start[i] = iv[i].start;
        argsort_identity(perm, n);
        hta_argsort(perm, n, start, less_i64);
        for (size_t i = 0; i < n; i++)
            copy[i] = iv[perm[i]];
        memcpy(iv, copy, n * sizeof *iv);
    }
    free(perm);
    free(start);
    free(copy);
    return rc;
}

/* Whether an interval ends before it starts (HTA's rounding makes some).
 * Without one, intervals of equal start all fall in the group of the first
 * of them, which spans to their largest end, whatever their order: numpy's
 * order of ties then gives the groups any sort gives. */
static bool any_reversed(const struct interval *iv, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (iv[i].end < iv[i].start)
            return true;
    return false;
}

int intervals_merge_ordered(struct interval *iv, size_t n, bool unstable, size_t *k)
{
    *k = 0;
    if (n == 0)
        return 0;
    if (n > SIZE_MAX / sizeof(struct interval))
        return ERR_NOMEM;
    int rc = unstable && any_reversed(iv, n) ? introsort_by_start(iv, n) : sort_by_start(iv, n);
    if (rc == 0)
        *k = group_sorted(iv, n);
    return rc;
}

int64_t intervals_busy(const struct interval *merged, size_t k)
{
    int64_t busy = 0;
    for (size_t i = 0; i < k; i++)
        busy += merged[i].end - merged[i].start;
    return busy;
}

int64_t intervals_intersection(const struct interval *a, size_t na,
                               const struct interval *b, size_t nb)
{
    int64_t total = 0;
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        int64_t lo = a[i].start > b[j].start ? a[i].start : b[j].start;
        int64_t hi = a[i].end < b[j].end ? a[i].end : b[j].end;
        if (hi > lo)
            total += hi - lo;
        if (a[i].end < b[j].end)
            i++;
        else
            j++;
    }
    return total;
}
