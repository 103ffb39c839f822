#include "config.h"
#include "analysis/common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void hta_argsort(size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
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
    struct i64_pos *v = malloc((n ? n : 1) * sizeof *v);
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

/* Bottom-up merge sort: ties keep their input order. */
static int merge_sort(size_t *perm, size_t n, const struct order *o)
{
    if (n < 2)
        return 0;
    if (n > SIZE_MAX / sizeof(struct i64_pos))
        return ERR_NOMEM;
    if (o->less == less_i64 || o->less == less_double)
        return stable_pairs(perm, n, o->keys, o->less == less_double, o->desc);
    size_t *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return ERR_NOMEM;
    size_t *src = perm, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = mid + width < n ? mid + width : n;
            size_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                dst[k++] = before(o, src[b], src[a]) ? src[b++] : src[a++];
            while (a < mid)
                dst[k++] = src[a++];
            while (b < hi)
                dst[k++] = src[b++];
        }
        size_t *t = src;
        src = dst;
        dst = t;
        if (width > SIZE_MAX / 2)
            break;
    }
    if (src != perm)
        memcpy(perm, src, n * sizeof *perm);
    free(tmp);
    return 0;
}

int stable_argsort(size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
    struct order o = {keys, less, false};
    return merge_sort(perm, n, &o);
}

int stable_argsort_desc(size_t *perm, size_t n, const void *keys, sort_less_fn less)
{
    struct order o = {keys, less, true};
    return merge_sort(perm, n, &o);
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

/* ---- numbers ------------------------------------------------------------- */

double hta_round(double x, int d)
{
    /* numpy: y = x * 10**d; rint(y) / 10**d. 10**d is exact for d <= 22. */
    if (d >= 0) {
        double f = pow(10.0, d);
        return rint(x * f) / f;
    }
    double f = pow(10.0, -d);
    return rint(x / f) * f;
}

double sum_pairwise(const double *v, size_t n)
{
    /* numpy's pairwise_sum: 8 accumulators up to 128 values, halving above. */
    if (n < 8) {
        double res = 0.;
        for (size_t i = 0; i < n; i++)
            res += v[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        size_t i;
        for (int j = 0; j < 8; j++)
            r[j] = v[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++)
                r[j] += v[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++)
            res += v[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return sum_pairwise(v, n2) + sum_pairwise(v + n2, n - n2);
}

static inline bool double_less(const double *a, const double *b)
{
    return *a < *b;
}

SORT_DEFINE_STABLE(sort_doubles, double, double_less)

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double quantile_linear(const double *sorted, size_t n, double q)
{
    if (n == 0)
        return NAN;
    /* pandas passes q * 100 to np.percentile, which divides by 100 again. */
    double qq = (q * 100.0) / 100.0;
    double virt = (double)(n - 1) * qq;
    if (!(virt > 0))
        return sorted[0];
    if (virt >= (double)(n - 1))
        return sorted[n - 1];
    double prev = floor(virt);
    size_t i = (size_t)prev;
    double t = virt - prev;
    double a = sorted[i], b = sorted[i + 1];
    double diff = b - a;
    /* numpy 1.24 _lerp: from the nearer end, to stay monotonic. */
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}

static void describe_sorted(const double *values, size_t k, struct describe *out)
{
    out->min = values[0];
    out->max = values[k - 1];
    out->p25 = quantile_linear(values, k, 0.25);
    out->p50 = quantile_linear(values, k, 0.5);
    out->p75 = quantile_linear(values, k, 0.75);
}

void describe_values(double *values, size_t n, struct describe *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(values[i]))
            values[k++] = values[i];
    out->count = (double)k;
    if (k == 0) {
        out->mean = out->std = out->min = out->p25 = out->p50 = out->p75 = out->max = NAN;
        return;
    }
    out->mean = sum_pairwise(values, k) / (double)k;
    if (k > 1) {
        /* pandas nanvar: two passes, ddof = 1. */
        double ss = 0;
        for (size_t i = 0; i < k; i++)
            ss += (values[i] - out->mean) * (values[i] - out->mean);
        out->std = sqrt(ss / (double)(k - 1));
    } else {
        out->std = NAN;
    }
    if (sort_doubles(values, k) == 0) {
        describe_sorted(values, k, out);
        return;
    }
    /* no memory for the merge buffer: qsort needs none, and only equal
     * values (0.0 and -0.0) can come out in another order */
    qsort(values, k, sizeof *values, cmp_double);
    describe_sorted(values, k, out);
}

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
    qsort(iv, n, sizeof *iv, cmp_interval);
    return group_sorted(iv, n);
}

/* HTA's order: numpy's introsort on the starts alone, over positions. */
static int introsort_by_start(struct interval *iv, size_t n)
{
    size_t *perm = malloc(n * sizeof *perm);
    int64_t *start = malloc(n * sizeof *start);
    struct interval *copy = malloc(n * sizeof *copy);
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

int intervals_merge_ordered(struct interval *iv, size_t n, bool unstable, size_t *k)
{
    *k = 0;
    if (n == 0)
        return 0;
    if (n > SIZE_MAX / sizeof(struct interval))
        return ERR_NOMEM;
    int rc = unstable ? introsort_by_start(iv, n) : sort_by_start(iv, n);
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

/* ---- kernel classification (§2.1) ---------------------------------------- */

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool starts_any(const char *s, const char *const *prefixes)
{
    for (; *prefixes; prefixes++)
        if (starts(s, *prefixes))
            return true;
    return false;
}

static bool is_memory_name(const char *name)
{
    static const char *const mem[] = {"Memcpy", "Memset", "hipMemcpy", "hipMemset", "dma", NULL};
    return starts_any(name, mem);
}

/* Names of device-side work that is neither compute nor data movement in
 * both rule sets: MTIA executors and runtime calls that carry a stream. */
static const char *const not_compute_prefixes[] = {
    "runFunction", "job_exe", "packet", "pe_exe", "cpum_exe_subgraph",
    "collective_subgraph_execution", NULL};

static bool is_cuda_launch(const char *name)
{
    return starts(name, "cuda") && strstr(name + 4, "LaunchKernel");
}

static enum kernel_class classify_hta(const char *name)
{
    static const char *const comm[] = {"nccl", "hip", "hccl", NULL};
    if (starts_any(name, comm) || strstr(name, "ncclKernel"))
        return KC_COMMUNICATION;
    if (is_memory_name(name))
        return KC_MEMORY;
    if (strstr(name, "Memcpy") || strstr(name, "Memset") || strstr(name, "dma") ||
        strstr(name, "Sync") || starts(name, "Stream Wait Event") || is_cuda_launch(name) ||
        starts_any(name, not_compute_prefixes))
        return KC_OTHER;
    return KC_COMPUTATION;
}

/* Expert-parallel all-to-all kernels move tokens between GPUs and are
 * communication, though they are not NCCL: DeepEP's dispatch/combine
 * (deep_ep::, and vendored copies such as dpsk::ep::) in the intranode,
 * internode and low-latency internode_ll namespaces, AMD mori's
 * Ep{Dispatch,Combine}*Kernel, pplx-kernels' dispatch/combine, and kernels
 * of the NVSHMEM runtime itself. Names come demangled with a return type
 * ("void deep_ep::internode::dispatch<...>(...)"), hence substrings. The
 * layout pass (get_dispatch_layout) only counts tokens: computation. */
static bool is_expert_parallel_comm(const char *name)
{
    /* an "ep" namespace: deep_ep::, dpsk::ep::, ep:: (not sleep::) */
    static const char *const ep_spaces[] = {"ep::intranode::", "ep::internode::",
                                            "ep::internode_ll::", NULL};
    static const char *const markers[] = {"mori::moe::EpDispatch", "mori::moe::EpCombine",
                                          "pplx::dispatchKernel", "pplx::combineKernel", NULL};
    if (strstr(name, "get_dispatch_layout"))
        return false;
    for (size_t i = 0; ep_spaces[i]; i++)
        for (const char *p = strstr(name, ep_spaces[i]); p; p = strstr(p + 1, ep_spaces[i]))
            if (p == name || p[-1] == '_' || p[-1] == ':' || p[-1] == ' ')
                return true;
    for (size_t i = 0; markers[i]; i++)
        if (strstr(name, markers[i]))
            return true;
    /* nvshmem_/nvshmemi_/nvshmemx_ device code at the start of the name or
     * after the return type */
    const char *nv = strstr(name, "nvshmem");
    return nv && (nv == name || nv[-1] == ' ' || nv[-1] == ':') &&
           (nv[7] == '_' || ((nv[7] == 'i' || nv[7] == 'x') && nv[8] == '_'));
}

/* htx: NCCL/RCCL/HCCL by prefix or kernel-name marker; `hip` compute kernels
 * and names that merely contain "dma"/"Memcpy"/"Sync" are computation; only
 * the CUDA/HIP sync events, runtime-looking calls and MTIA executors are
 * OTHER. */
static enum kernel_class classify_htx(const char *name)
{
    static const char *const comm[] = {"nccl", "rccl", "hccl", NULL};
    static const char *const sync[] = {"Stream Sync", "Stream Wait Event", "Event Sync",
                                       "Context Sync", "Device Synchronize", NULL};
    if (starts_any(name, comm) || strstr(name, "ncclKernel") || strstr(name, "ncclDevKernel") ||
        strstr(name, "rcclKernel") || is_expert_parallel_comm(name))
        return KC_COMMUNICATION;
    if (is_memory_name(name))
        return KC_MEMORY;
    /* hipLaunchKernel, hipStreamSynchronize...: HIP runtime API names. */
    bool hip_api = starts(name, "hip") && name[3] >= 'A' && name[3] <= 'Z';
    if (starts_any(name, sync) || is_cuda_launch(name) || hip_api ||
        starts_any(name, not_compute_prefixes))
        return KC_OTHER;
    return KC_COMPUTATION;
}

enum kernel_class kernel_classify(const char *name, bool hta_rules)
{
    if (!name)
        return KC_OTHER;
    return hta_rules ? classify_hta(name) : classify_htx(name);
}

/* Does name start with one of the comma-separated prefixes of list? */
static bool matches_pattern_list(const char *name, const char *list)
{
    while (list && *list) {
        const char *comma = strchr(list, ',');
        size_t len = comma ? (size_t)(comma - list) : strlen(list);
        if (len > 0 && strncmp(name, list, len) == 0)
            return true;
        list = comma ? comma + 1 : NULL;
    }
    return false;
}

enum kernel_class kernel_classify_with(const char *name, bool hta_rules,
                                       const char *comm_patterns, const char *memory_patterns)
{
    if (name && matches_pattern_list(name, comm_patterns))
        return KC_COMMUNICATION;
    if (name && matches_pattern_list(name, memory_patterns))
        return KC_MEMORY;
    return kernel_classify(name, hta_rules);
}

const char *kernel_class_name(enum kernel_class k)
{
    switch (k) {
    case KC_COMPUTATION: return "COMPUTATION";
    case KC_COMMUNICATION: return "COMMUNICATION";
    case KC_MEMORY: return "MEMORY";
    case KC_OTHER: break;
    }
    return "OTHER";
}

/* ---- short names (§2.2) -------------------------------------------------- */

/* Pops the stack down to (and including) the nearest open bracket. */
static size_t pop_to(const char *stack, size_t top, char open)
{
    while (top > 0 && stack[top - 1] != open)
        top--;
    return top > 0 ? top - 1 : 0;
}

static void copy_out(const char *s, size_t len, char *out, size_t outsz)
{
    if (outsz == 0)
        return;
    if (len >= outsz)
        len = outsz - 1;
    memcpy(out, s, len);
    out[len] = '\0';
}

void shorten_name(const char *name, char *out, size_t outsz)
{
    if (!name)
        name = "";
    size_t len = strlen(name);
    if (is_memory_name(name) || (!strchr(name, '<') && !strchr(name, '('))) {
        copy_out(name, len, out, outsz);
        return;
    }
    char small[512];
    char *stack = len < sizeof small ? small : malloc(len + 1);
    if (!stack) {
        copy_out(name, len, out, outsz);
        return;
    }
    size_t top = 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (c == '-' && name[i + 1] == '>') {
            i++;   /* "->" is deleted before the scan */
            continue;
        }
        if (c == '>')
            top = pop_to(stack, top, '<');
        else if (c == ')')
            top = pop_to(stack, top, '(');
        else
            stack[top++] = c;
    }
    size_t start = top;
    while (start > 0 && stack[start - 1] != ' ')
        start--;
    copy_out(stack + start, top - start, out, outsz);
    if (stack != small)
        free(stack);
}
