#include "config.h"
#include "analysis/argsort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/memory.h"
#include "util/sort.h"

/* ---- numpy 1.24 introsort argsort (spec, notation section) ------------- */

/* The sorts below are written once, over a `less` function, and forced
 * inline (ALWAYS_INLINE) into one instance per hot key type: with
 * less_i64 or less_double a constant, each comparison is two loads instead
 * of an indirect call, and the comparisons made (so the order of ties) stay
 * exactly those of the generic instance. */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

#define SMALL_QUICKSORT 15   /* numpy: insertion sort when hi - lo <= 15 */
#define SORT_STACK 128       /* 2 * bits of size_t: enough for any n */

static void swap_pos(size_t *a, size_t *b)
{
    size_t t = *a;
    *a = *b;
    *b = t;
}

/* numpy's floor(log2 n) (npy_get_msb); 0 for n <= 1. */
static int msb(size_t n)
{
    int d = 0;
    while (n >>= 1)
        d++;
    return d;
}

/* Sift-down heap sort of p[0..n), as numpy's aheapsort (1-based slots). */
ALWAYS_INLINE void heap_sort(size_t *p, size_t n, const void *keys, sort_less_fn less)
{
    size_t *a = p - 1;   /* slots 1..n; a[0] is never touched */
    size_t i, j, tmp;

    for (size_t l = n >> 1; l > 0; --l) {
        tmp = a[l];
        for (i = l, j = l << 1; j <= n;) {
            if (j < n && less(keys, a[j], a[j + 1]))
                j += 1;
            if (!less(keys, tmp, a[j]))
                break;
            a[i] = a[j];
            i = j;
            j += j;
        }
        a[i] = tmp;
    }
    for (; n > 1;) {
        tmp = a[n];
        a[n] = a[1];
        n -= 1;
        for (i = 1, j = 2; j <= n;) {
            if (j < n && less(keys, a[j], a[j + 1]))
                j++;
            if (!less(keys, tmp, a[j]))
                break;
            a[i] = a[j];
            i = j;
            j += j;
        }
        a[i] = tmp;
    }
}

/* Median-of-three partition of p[lo..hi] (hi - lo > 15); returns the pivot's
 * final slot. The pivot parked at hi-1 and the median ordering of lo/hi are
 * the sentinels that stop the two scans. */
ALWAYS_INLINE size_t partition(size_t *p, size_t lo, size_t hi, const void *keys,
                               sort_less_fn less)
{
    size_t m = lo + ((hi - lo) >> 1);
    if (less(keys, p[m], p[lo]))
        swap_pos(&p[m], &p[lo]);
    if (less(keys, p[hi], p[m]))
        swap_pos(&p[hi], &p[m]);
    if (less(keys, p[m], p[lo]))
        swap_pos(&p[m], &p[lo]);
    size_t pivot = p[m];
    size_t i = lo, j = hi - 1;
    swap_pos(&p[m], &p[j]);
    for (;;) {
        do
            ++i;
        while (less(keys, p[i], pivot));
        do
            --j;
        while (less(keys, pivot, p[j]));
        if (i >= j)
            break;
        swap_pos(&p[i], &p[j]);
    }
    swap_pos(&p[i], &p[hi - 1]);
    return i;
}

ALWAYS_INLINE void insertion_sort(size_t *p, size_t lo, size_t hi, const void *keys,
                                  sort_less_fn less)
{
    for (size_t i = lo + 1; i <= hi; ++i) {
        size_t v = p[i], j = i;
        while (j > lo && less(keys, v, p[j - 1])) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = v;
    }
}

ALWAYS_INLINE void introsort(size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
    if (n < 2)
        return;
    size_t stack_lo[SORT_STACK], stack_hi[SORT_STACK];
    int stack_depth[SORT_STACK];
    size_t sp = 0;
    size_t lo = 0, hi = n - 1;
    int depth = msb(n) * 2;

    for (;;) {
        if (depth < 0) {
            heap_sort(perm + lo, hi - lo + 1, keys, less);
        } else {
            while (hi - lo > SMALL_QUICKSORT) {
                size_t i = partition(perm, lo, hi, keys, less);
                --depth;
                /* i is in (lo, hi): both halves are well-formed ranges,
                 * possibly empty ([x, x-1]), which insertion sort skips. */
                if (i - lo < hi - i) {
                    stack_lo[sp] = i + 1;
                    stack_hi[sp] = hi;
                    hi = i - 1;
                } else {
                    stack_lo[sp] = lo;
                    stack_hi[sp] = i - 1;
                    lo = i + 1;
                }
                stack_depth[sp++] = depth;
            }
            if (hi > lo)
                insertion_sort(perm, lo, hi, keys, less);
        }
        if (sp == 0)
            break;
        sp--;
        lo = stack_lo[sp];
        hi = stack_hi[sp];
        depth = stack_depth[sp];
    }
}

static void introsort_i64(size_t *perm, size_t n, const void *keys)
{
    introsort(perm, n, keys, less_i64);
}

static void introsort_double(size_t *perm, size_t n, const void *keys)
{
    introsort(perm, n, keys, less_double);
}

static void introsort_any(size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
    introsort(perm, n, keys, less);
}

/* Keys already in strictly ascending order: the only order of them, any
 * sort's (numpy's too), found without moving anything. (Positions are
 * sorted rather than (key, position) pairs: the positions come mostly in
 * order, so their keys are read in order.) */
static bool strictly_ascending(const size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
    for (size_t i = 1; i < n; i++)
        if (!less(keys, perm[i - 1], perm[i]))
            return false;
    return true;
}

void hta_argsort(size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
    bool pure = less == less_i64 || less == less_double;   // (a comparator may watch)
    if (n < 2 || (pure && strictly_ascending(perm, n, keys, less)))
        return;
    if (less == less_i64)
        introsort_i64(perm, n, keys);
    else if (less == less_double)
        introsort_double(perm, n, keys);
    else
        introsort_any(perm, n, keys, less);
}

static void reverse(size_t *p, size_t n)
{
    for (size_t i = 0, j = n; i + 1 < j; i++, j--)
        swap_pos(&p[i], &p[j - 1]);
}

void hta_argsort_desc(size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
    /* pandas nargsort(ascending=False): reverse, sort ascending, reverse. */
    reverse(perm, n);
    hta_argsort(perm, n, keys, less);
    reverse(perm, n);
}

/* ---- stable merge sort --------------------------------------------------- */

/* A stable sort's result is unique, so the hot key types sort (key,
 * position) pairs in place of positions: no indirection per comparison,
 * and rows already in order cost O(n). Doubles are first mapped to int64
 * keys in the same order. */
struct i64_pos { int64_t key; size_t pos; };

static inline bool i64_pos_less(const struct i64_pos *a, const struct i64_pos *b)
{
    return a->key < b->key;
}

static inline bool i64_pos_more(const struct i64_pos *a, const struct i64_pos *b)
{
    return b->key < a->key;
}

SORT_DEFINE_STABLE(sort_i64_asc, struct i64_pos, i64_pos_less)
SORT_DEFINE_STABLE(sort_i64_desc, struct i64_pos, i64_pos_more)

/* An int64 that orders as less_double does: -0.0 equal to 0.0, NaNs all
 * equal and after +inf. Flipping the magnitude bits of negatives makes the
 * IEEE bit patterns sort as numbers. */
static int64_t double_order_key(double x)
{
    if (isnan(x))
        return INT64_MAX;
    if (x == 0)
        return 0;
    int64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits < 0 ? -(bits & INT64_MAX) : bits;
}

static int stable_pairs(size_t *perm, size_t n, const void *keys, bool is_double, bool desc)
{
    struct i64_pos *v = util_alloc_resident(n, sizeof *v);
    if (!v)
        return ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        int64_t key = is_double ? double_order_key(((const double *)keys)[perm[i]])
                                : ((const int64_t *)keys)[perm[i]];
        v[i] = (struct i64_pos){key, perm[i]};
    }
    int rc = desc ? sort_i64_desc(v, n) : sort_i64_asc(v, n);
    for (size_t i = 0; rc == 0 && i < n; i++)
        perm[i] = v[i].pos;
    free(v);
    return rc;
}

struct order {
    const void *keys;
    sort_less_fn less;
    bool desc;
};

static bool before(const struct order *o, size_t a, size_t b)
{
    return o->desc ? o->less(o->keys, b, a) : o->less(o->keys, a, b);
}

/* Any other comparator: positions sorted with the one stable sort
 * (util/sort.h), each carrying its order so the comparison needs no
 * context argument. */
struct order_pos {
    size_t pos;
    const struct order *o;
};

static inline bool order_pos_less(const struct order_pos *a, const struct order_pos *b)
{
    return before(a->o, a->pos, b->pos);
}

SORT_DEFINE_STABLE(sort_order_pos, struct order_pos, order_pos_less)

/* Ties keep their input order. */
static int stable_positions(size_t *perm, size_t n, const struct order *o)
{
    if (n < 2)
        return 0;
    if (n > SIZE_MAX / sizeof(struct order_pos))
        return ERR_NOMEM;
    if (o->less == less_i64 || o->less == less_double)
        return stable_pairs(perm, n, o->keys, o->less == less_double, o->desc);
    struct order_pos *v = util_alloc_resident(n, sizeof *v);
    if (!v)
        return ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        v[i] = (struct order_pos){perm[i], o};
    int rc = sort_order_pos(v, n);
    for (size_t i = 0; rc == 0 && i < n; i++)
        perm[i] = v[i].pos;
    free(v);
    return rc;
}

int stable_argsort(size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
    struct order o = {keys, less, false};
    return stable_positions(perm, n, &o);
}

int stable_argsort_desc(size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
    struct order o = {keys, less, true};
    return stable_positions(perm, n, &o);
}

int sort_argsort(bool unstable, size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
    if (!unstable)
        return stable_argsort(perm, n, keys, less);
    hta_argsort(perm, n, keys, less);
    return 0;
}

int sort_argsort_desc(bool unstable, size_t *perm, size_t n, const void *keys,
                      sort_less_fn less)
{
    if (!unstable)
        return stable_argsort_desc(perm, n, keys, less);
    hta_argsort_desc(perm, n, keys, less);
    return 0;
}

bool less_i64(const void *keys, size_t a, size_t b)
{
    const int64_t *k = keys;
    return k[a] < k[b];
}

bool less_double(const void *keys, size_t a, size_t b)
{
    /* numpy's float less: NaN sorts after every number. */
    const double *k = keys;
    return k[a] < k[b] || (isnan(k[b]) && !isnan(k[a]));
}

bool less_str(const void *keys, size_t a, size_t b)
{
    /* strcmp compares bytes as unsigned char: UTF-8 byte order is code
     * point order, as Python's str comparison. */
    const char *const *k = keys;
    return strcmp(k[a], k[b]) < 0;
}

void argsort_identity(size_t *perm, size_t n)
{
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
}
