#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/argsort.h"
#include "analysis/stats.h"
#include "analysis/intervals.h"
#include "analysis/classify.h"
#include "../memcheck.h"

/* ---- sorting --------------------------------------------------------------- */

static void assert_perm(const size_t *got, const size_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(got[i] == want[i], "slot %zu: got %zu, want %zu", i, got[i], want[i]);
}

START_TEST(argsort_should_keep_ties_in_input_order_up_to_16_rows)
{
    int64_t k[16] = {3, 1, 3, 1, 2, 2, 1, 3, 0, 0, 2, 1, 3, 0, 1, 2};
    size_t p[16], q[16];
    argsort_identity(p, 16);
    hta_argsort(p, 16, k, less_i64);
    argsort_identity(q, 16);
    ck_assert_int_eq(stable_argsort(q, 16, k, less_i64), 0);
    assert_perm(p, q, 16);
    /* descending: reverse, sort, reverse keeps ties in input order too */
    argsort_identity(p, 16);
    hta_argsort_desc(p, 16, k, less_i64);
    argsort_identity(q, 16);
    ck_assert_int_eq(stable_argsort_desc(q, 16, k, less_i64), 0);
    assert_perm(p, q, 16);
    ck_assert_uint_eq(p[0], 0);
    ck_assert_uint_eq(p[15], 13);
}
END_TEST

/* 17 equal keys, traced by hand through the spec's steps: m = 8, no
 * compare-and-swap fires, the pivot (8) goes to slot 15, the scans swap the
 * pairs (1,14) (2,13) ... (7,8) and stop at i = 8, where the pivot returns;
 * both halves then hold <= 16 rows and are left as they are. */
START_TEST(argsort_should_break_17_ties_as_traced_by_hand)
{
    int64_t k[17] = {0};
    size_t p[17];
    static const size_t want[17] = {0, 14, 13, 12, 11, 10, 9, 15, 8, 6, 5, 4, 3, 2, 1, 7, 16};
    argsort_identity(p, 17);
    hta_argsort(p, 17, k, less_i64);
    assert_perm(p, want, 17);

    /* descending: R = reverse(0..16); sorting R gives the slots above, i.e.
     * positions 16 - want[i]; reversing that list: */
    static const size_t want_desc[17] = {0, 9, 15, 14, 13, 12, 11, 10, 8, 1, 7, 6, 5, 4, 3, 2, 16};
    argsort_identity(p, 17);
    hta_argsort_desc(p, 17, k, less_i64);
    assert_perm(p, want_desc, 17);
}
END_TEST

/* Heavy ties on 20 rows: the expected orders are numpy 1.24.2's
 * argsort(kind="quicksort") and argsort(kind="stable") of the same keys. */
START_TEST(argsort_should_match_numpy_on_heavy_ties)
{
    int64_t k[20] = {3, 1, 2, 1, 3, 0, 2, 1, 0, 3, 1, 2, 0, 2, 1, 3, 0, 1, 2, 3};
    static const size_t quick[20] = {5, 8, 12, 16, 1, 3, 17, 7, 10, 14,
                                     2, 6, 18, 11, 13, 0, 9, 4, 15, 19};
    static const size_t stable[20] = {5, 8, 12, 16, 1, 3, 7, 10, 14, 17,
                                      2, 6, 11, 13, 18, 0, 4, 9, 15, 19};
    size_t p[20];
    argsort_identity(p, 20);
    hta_argsort(p, 20, k, less_i64);
    assert_perm(p, quick, 20);
    argsort_identity(p, 20);
    ck_assert_int_eq(sort_argsort(false, p, 20, k, less_i64), 0);
    assert_perm(p, stable, 20);
    argsort_identity(p, 20);
    ck_assert_int_eq(sort_argsort(true, p, 20, k, less_i64), 0);
    assert_perm(p, quick, 20);
}
END_TEST

static int64_t *adv_val;
static int64_t adv_gas;
static int64_t adv_solid;
static size_t adv_candidate;

/* McIlroy's "antiqsort" adversary: keys are fixed lazily so that every
 * partition is as bad as possible, which drives the depth budget below zero
 * and so reaches the heap sort. */
static bool adversary_less(const void *keys, size_t a, size_t b)
{
    (void)keys;
    if (adv_val[a] == adv_gas && adv_val[b] == adv_gas)
        adv_val[a == adv_candidate ? a : b] = adv_solid++;
    if (adv_val[a] == adv_gas)
        adv_candidate = a;
    else if (adv_val[b] == adv_gas)
        adv_candidate = b;
    return adv_val[a] < adv_val[b];
}

static void assert_sorted_permutation(const size_t *p, size_t n, const int64_t *k)
{
    char *seen = calloc(n, 1);
    ck_assert_ptr_nonnull(seen);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_lt(p[i], n);
        ck_assert(!seen[p[i]]);
        seen[p[i]] = 1;
        if (i)
            ck_assert_int_le(k[p[i - 1]], k[p[i]]);
    }
    free(seen);
}

START_TEST(argsort_should_sort_adversarial_input_through_heap_sort)
{
    size_t n = 3000;
    adv_val = malloc(n * sizeof *adv_val);
    size_t *p = malloc(n * sizeof *p);
    ck_assert_ptr_nonnull(adv_val);
    ck_assert_ptr_nonnull(p);
    adv_gas = (int64_t)n;
    adv_solid = 0;
    for (size_t i = 0; i < n; i++)
        adv_val[i] = adv_gas;
    argsort_identity(p, n);
    hta_argsort(p, n, NULL, adversary_less);
    for (size_t i = 0; i < n; i++)
        if (adv_val[i] == adv_gas)
            adv_val[i] = adv_solid++;
    /* Sorting the now fixed keys again must give a sorted permutation. */
    argsort_identity(p, n);
    hta_argsort(p, n, adv_val, less_i64);
    assert_sorted_permutation(p, n, adv_val);
    free(adv_val);
    free(p);
}
END_TEST

/* Without ties numpy's order is the only sorted one, which the stable
 * sort gives at once (ties take numpy's own steps: the tests above). */
START_TEST(argsort_should_give_the_one_order_of_keys_without_ties)
{
    size_t n = 1000, p[1000];
    int64_t k[1000];
    for (size_t i = 0; i < n; i++)
        k[i] = (int64_t)((i * 7919) % n) - 300;   // a permutation of distinct keys
    argsort_identity(p, n);
    hta_argsort(p, n, k, less_i64);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(k[p[i]], (int64_t)i - 300);
    double d[4] = {2.5, -1.0, 0.25, 7.0};
    static const size_t want_d[4] = {1, 2, 0, 3};
    argsort_identity(p, 4);
    hta_argsort(p, 4, d, less_double);
    assert_perm(p, want_d, 4);
}
END_TEST

START_TEST(argsort_should_sort_random_inputs)
{
    srand(7);
    for (int t = 0; t < memcheck_rounds(200); t++) {
        size_t n = (size_t)(rand() % 700);
        int64_t *k = malloc((n + 1) * sizeof *k);
        size_t *p = malloc((n + 1) * sizeof *p);
        ck_assert_ptr_nonnull(k);
        ck_assert_ptr_nonnull(p);
        int range = 1 + rand() % (t % 2 ? 4 : 100000);
        for (size_t i = 0; i < n; i++)
            k[i] = rand() % range;
        argsort_identity(p, n);
        hta_argsort(p, n, k, less_i64);
        assert_sorted_permutation(p, n, k);
        argsort_identity(p, n);
        ck_assert_int_eq(stable_argsort(p, n, k, less_i64), 0);
        assert_sorted_permutation(p, n, k);
        for (size_t i = 1; i < n; i++)
            if (k[p[i - 1]] == k[p[i]])
                ck_assert_uint_lt(p[i - 1], p[i]);
        free(k);
        free(p);
    }
}
END_TEST

/* The same orders through the generic path: a "less" that is not
 * less_i64 / less_double itself, so no specialised instance is used. */
static bool generic_less_i64(const void *keys, size_t a, size_t b)
{
    return less_i64(keys, a, b);
}

static bool generic_less_double(const void *keys, size_t a, size_t b)
{
    return less_double(keys, a, b);
}

/* Every sort entry point, specialised and generic, on keys with many ties
 * (and NaNs for doubles): the specialisations must make the same
 * comparisons, so the same permutations. */
START_TEST(argsort_should_order_ties_alike_in_fast_and_generic_paths)
{
    srand(11);
    for (int t = 0; t < memcheck_rounds(60); t++) {
        size_t n = (size_t)(rand() % 3000);
        int64_t *ki = malloc((n + 1) * sizeof *ki);
        double *kd = malloc((n + 1) * sizeof *kd);
        size_t *p = malloc((n + 1) * sizeof *p), *q = malloc((n + 1) * sizeof *q);
        ck_assert(ki && kd && p && q);
        int range = 1 + rand() % (t % 3 ? 5 : 1000);
        for (size_t i = 0; i < n; i++) {
            ki[i] = rand() % range - range / 2;
            kd[i] = rand() % 10 == 0 ? NAN : (double)ki[i] / 4.0;
            if (kd[i] == 0 && rand() % 2)
                kd[i] = -0.0;   /* equal to 0.0: a tie */
            else if (rand() % 50 == 0)
                kd[i] = rand() % 2 ? INFINITY : -INFINITY;
        }
        for (int unstable = 0; unstable < 2; unstable++) {
            for (int desc = 0; desc < 2; desc++) {
                int (*sort)(bool, size_t *, size_t, const void *, sort_less_fn) =
                    desc ? sort_argsort_desc : sort_argsort;
                argsort_identity(p, n);
                argsort_identity(q, n);
                ck_assert_int_eq(sort(unstable, p, n, ki, less_i64), 0);
                ck_assert_int_eq(sort(unstable, q, n, ki, generic_less_i64), 0);
                assert_perm(p, q, n);
                argsort_identity(p, n);
                argsort_identity(q, n);
                ck_assert_int_eq(sort(unstable, p, n, kd, less_double), 0);
                ck_assert_int_eq(sort(unstable, q, n, kd, generic_less_double), 0);
                assert_perm(p, q, n);
            }
        }
        free(ki);
        free(kd);
        free(p);
        free(q);
    }
}
END_TEST

START_TEST(less_double_should_put_nan_last)
{
    double k[4] = {NAN, 2.0, -1.0, NAN};
    size_t p[4];
    argsort_identity(p, 4);
    hta_argsort(p, 4, k, less_double);
    ck_assert_uint_eq(p[0], 2);
    ck_assert_uint_eq(p[1], 1);
    ck_assert_uint_eq(p[2], 0);
    ck_assert_uint_eq(p[3], 3);
}
END_TEST

START_TEST(less_str_should_compare_by_code_point)
{
    const char *k[4] = {"b", "B", "a", "\xc3\xa9"};
    size_t p[4];
    argsort_identity(p, 4);
    hta_argsort(p, 4, k, less_str);
    ck_assert_uint_eq(p[0], 1);
    ck_assert_uint_eq(p[1], 2);
    ck_assert_uint_eq(p[2], 0);
    ck_assert_uint_eq(p[3], 3);
}
END_TEST

/* ---- numbers ----------------------------------------------------------------- */

START_TEST(round_should_round_half_to_even_on_the_binary_double)
{
    /* numpy 1.24: np.round(2.675, 2) = 2.68 (2.675 * 100 lands on 267.5),
     * where Python's round gives 2.67. */
    ck_assert_double_eq(hta_round(2.675, 2), 2.68);
    ck_assert_double_eq(hta_round(1.15, 1), 1.2);
    ck_assert_double_eq(hta_round(4.35, 1), 4.4);
    ck_assert_double_eq(hta_round(0.125, 2), 0.12);
    ck_assert_double_eq(hta_round(0.375, 2), 0.38);
    ck_assert_double_eq(hta_round(1.005, 2), 1.0);
    ck_assert_double_eq(hta_round(2.5, 0), 2.0);
    ck_assert_double_eq(hta_round(-2.5, 0), -2.0);
    ck_assert_double_eq(hta_round(0.0005, 3), 0.0);
    ck_assert_double_eq(hta_round(100.0 * 45 / 120, 2), 37.5);
    ck_assert_double_eq(hta_round(100.0 * 55 / 120, 2), 45.83);
    ck_assert_double_eq(hta_round(100.0 * 20 / 120, 2), 16.67);
    ck_assert(isnan(hta_round(NAN, 2)));
}
END_TEST

START_TEST(describe_should_match_pandas)
{
    double v[6] = {4, NAN, 1, 3, 2, NAN};
    struct describe d;
    describe_values(v, 6, &d);
    ck_assert_double_eq(d.count, 4);
    ck_assert_double_eq(d.mean, 2.5);
    ck_assert_double_eq_tol(d.std, sqrt(5.0 / 3.0), 1e-12);
    ck_assert_double_eq(d.min, 1);
    ck_assert_double_eq(d.p25, 1.75);
    ck_assert_double_eq(d.p50, 2.5);
    ck_assert_double_eq(d.p75, 3.25);
    ck_assert_double_eq(d.max, 4);

    double one[1] = {7};
    describe_values(one, 1, &d);
    ck_assert_double_eq(d.count, 1);
    ck_assert_double_eq(d.mean, 7);
    ck_assert(isnan(d.std));
    ck_assert_double_eq(d.p25, 7);
    ck_assert_double_eq(d.p75, 7);

    double none[1] = {NAN};
    describe_values(none, 1, &d);
    ck_assert_double_eq(d.count, 0);
    ck_assert(isnan(d.mean) && isnan(d.std) && isnan(d.min) && isnan(d.p50) && isnan(d.max));
}
END_TEST

struct indexed {
    double v;
    size_t i;
};

static int cmp_indexed(const void *pa, const void *pb)
{
    const struct indexed *a = pa, *b = pb;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* The digit sort (many values) and the merge sort (few) give the stable
 * order bit for bit: ties, 0.0 among -0.0, negatives, infinities,
 * subnormals, and keys alike in their high or low digits. */
START_TEST(sort_values_should_keep_equal_values_in_input_order)
{
    // under memcheck, still past the digit sort's threshold of 65,536
    const size_t N = under_memcheck() || under_asan() ? 70000 : 200000;
    double *v = malloc(N * sizeof *v);
    struct indexed *ref = malloc(N * sizeof *ref);
    ck_assert(v && ref);
    uint64_t seed = 99;
    static const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, 4.9e-324, -4.9e-324, 1.0, -1.0};
    for (int shape = 0; shape < 4; shape++) {
        size_t n = shape == 3 ? 1000 : N;   // the last below the digit sort's threshold
        for (size_t i = 0; i < n; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            uint32_t r = (uint32_t)(seed >> 33);
            v[i] = shape == 0 ? specials[r % 8]
                   : shape == 1 ? (double)((int)(r % 2001) - 1000) / 8.0
                   : ldexp((double)(r % 1000), (int)(r % 61) - 30) * (r & 1 ? -1 : 1);
            ref[i] = (struct indexed){v[i], i};
        }
        qsort(ref, n, sizeof *ref, cmp_indexed);
        ck_assert_int_eq(stats_sort_values(v, n), 0);
        for (size_t i = 0; i < n; i++)
            ck_assert_msg(memcmp(&v[i], &ref[i].v, sizeof v[i]) == 0,
                          "shape %d, value %zu: %g, not %g", shape, i, v[i], ref[i].v);
    }
    free(v);
    free(ref);
}
END_TEST

START_TEST(quantile_should_interpolate_linearly)
{
    /* §2.4 worked example: cumulative sums, ratio 0.8 over 6 names: p = 4. */
    double c[6] = {30, 60, 76, 78, 79, 80};
    ck_assert_double_eq(quantile_linear(c, 6, 0.8), 79);
    ck_assert_double_eq(quantile_linear(c, 6, 0.5), 77);
    ck_assert_double_eq(quantile_linear(c, 6, 0.0), 30);
    ck_assert_double_eq(quantile_linear(c, 6, 1.0), 80);
    ck_assert_double_eq_tol(quantile_linear(c, 6, 0.1), 45, 1e-12);
    ck_assert(isnan(quantile_linear(c, 0, 0.5)));
}
END_TEST

START_TEST(sum_pairwise_should_add_many_values)
{
    double v[1000];
    for (int i = 0; i < 1000; i++)
        v[i] = i + 0.5;
    ck_assert_double_eq(sum_pairwise(v, 1000), 500000.0);
    ck_assert_double_eq(sum_pairwise(v, 3), 4.5);
    ck_assert_double_eq(sum_pairwise(v, 0), 0.0);
}
END_TEST

/* ---- intervals --------------------------------------------------------------- */

START_TEST(merge_should_join_touching_and_overlapping_intervals)
{
    /* §3.1 example, shuffled, plus a touching pair */
    struct interval iv[] = {{120, 130}, {20, 60}, {90, 95}, {10, 40}, {45, 50},
                            {70, 80}, {130, 140}};
    size_t k = intervals_merge(iv, 7);
    ck_assert_uint_eq(k, 4);
    ck_assert_int_eq(iv[0].start, 10);
    ck_assert_int_eq(iv[0].end, 60);
    ck_assert_int_eq(iv[1].start, 70);
    ck_assert_int_eq(iv[2].end, 95);
    ck_assert_int_eq(iv[3].start, 120);
    ck_assert_int_eq(iv[3].end, 140);
    ck_assert_int_eq(intervals_busy(iv, k), 50 + 10 + 5 + 20);
    ck_assert_uint_eq(intervals_merge(iv, 0), 0);
}
END_TEST

START_TEST(merge_should_keep_inverted_intervals_in_sort_order)
{
    /* An inverted interval (negative duration) first among equal starts
     * makes its own group with negative length; second, it joins. */
    struct interval a[] = {{10, 5}, {10, 20}};
    size_t k;
    ck_assert_int_eq(intervals_merge_ordered(a, 2, true, &k), 0);
    ck_assert_uint_eq(k, 2);
    ck_assert_int_eq(intervals_busy(a, k), -5 + 10);
    struct interval b[] = {{10, 20}, {10, 5}};
    ck_assert_int_eq(intervals_merge_ordered(b, 2, false, &k), 0);
    ck_assert_uint_eq(k, 1);
    ck_assert_int_eq(intervals_busy(b, k), 10);
}
END_TEST

START_TEST(intersection_should_measure_common_time)
{
    struct interval comp[] = {{10, 40}, {70, 80}, {90, 95}, {120, 130}};
    struct interval comm[] = {{20, 60}};
    ck_assert_int_eq(intervals_intersection(comp, 4, comm, 1), 20);
    ck_assert_int_eq(intervals_intersection(comm, 1, comp, 4), 20);
    struct interval wide[] = {{0, 200}};
    ck_assert_int_eq(intervals_intersection(comp, 4, wide, 1), 55);
    ck_assert_int_eq(intervals_intersection(comp, 4, wide, 0), 0);
}
END_TEST

/* ---- classification and names ------------------------------------------------ */

START_TEST(classify_should_follow_hta_rules)
{
    ck_assert_int_eq(kernel_classify("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)", true),
                     KC_COMMUNICATION);
    ck_assert_int_eq(kernel_classify("ncclDevKernel_AllGather_RING_LL", true), KC_COMMUNICATION);
    ck_assert_int_eq(kernel_classify("void foo_ncclKernel_bar", true), KC_COMMUNICATION);
    ck_assert_int_eq(kernel_classify("hipMemcpyAsync", true), KC_COMMUNICATION);
    ck_assert_int_eq(kernel_classify("hip_fused_kernel", true), KC_COMMUNICATION);
    ck_assert_int_eq(kernel_classify("hcclAllReduce", true), KC_COMMUNICATION);
    ck_assert_int_eq(kernel_classify("Memcpy DtoD (Device -> Device)", true), KC_MEMORY);
    ck_assert_int_eq(kernel_classify("Memset (Device)", true), KC_MEMORY);
    ck_assert_int_eq(kernel_classify("dma_transfer", true), KC_MEMORY);
    ck_assert_int_eq(kernel_classify("Stream Sync", true), KC_OTHER);
    ck_assert_int_eq(kernel_classify("Stream Wait Event", true), KC_OTHER);
    /* The spec's "fused_adamax" example holds no "dma"; the rule is the
     * substring test, so a name that does hold it: */
    ck_assert_int_eq(kernel_classify("void fused_adamax_kernel<float>()", true), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify("void multi_dma_kernel<float>()", true), KC_OTHER);
    ck_assert_int_eq(kernel_classify("reduceSyncKernel", true), KC_OTHER);
    ck_assert_int_eq(kernel_classify("xMemcpyKernel", true), KC_OTHER);
    ck_assert_int_eq(kernel_classify("cudaLaunchKernel", true), KC_OTHER);
    ck_assert_int_eq(kernel_classify("cuda_LaunchKernel_x", true), KC_OTHER);
    ck_assert_int_eq(kernel_classify("runFunction - job", true), KC_OTHER);
    ck_assert_int_eq(kernel_classify("sgemm_128x128", true), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify("triton_poi_fused_add_0", true), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify("", true), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify(NULL, true), KC_OTHER);
    ck_assert_str_eq(kernel_class_name(KC_COMMUNICATION), "COMMUNICATION");
    ck_assert_str_eq(kernel_class_name(KC_OTHER), "OTHER");
}
END_TEST

START_TEST(classify_should_fix_names_under_htx_rules)
{
    ck_assert_int_eq(kernel_classify("ncclDevKernel_AllGather_RING_LL", false), KC_COMMUNICATION);
    ck_assert_int_eq(kernel_classify("void rcclKernel_x", false), KC_COMMUNICATION);
    ck_assert_int_eq(kernel_classify("rccl_all_reduce", false), KC_COMMUNICATION);
    ck_assert_int_eq(kernel_classify("hip_fused_kernel", false), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify("hipMemcpyDtoD", false), KC_MEMORY);
    ck_assert_int_eq(kernel_classify("hipLaunchKernel", false), KC_OTHER);
    ck_assert_int_eq(kernel_classify("void multi_dma_kernel<float>()", false), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify("SyncBatchNormKernel", false), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify("Stream Sync", false), KC_OTHER);
    ck_assert_int_eq(kernel_classify("Event Sync", false), KC_OTHER);
    ck_assert_int_eq(kernel_classify("Memcpy HtoD (Pageable -> Device)", false), KC_MEMORY);
    ck_assert_int_eq(kernel_classify_with("my_allreduce", false, "foo,my_", NULL),
                     KC_COMMUNICATION);
    ck_assert_int_eq(kernel_classify_with("copy_engine", false, NULL, "copy_"), KC_MEMORY);
    ck_assert_int_eq(kernel_classify_with("sgemm", false, "x,", ""), KC_COMPUTATION);
}
END_TEST

START_TEST(classify_should_count_expert_parallel_kernels_as_communication_under_htx)
{
    static const char *const comm[] = {
        "void deep_ep::internode::dispatch<true, 8, 16, 4>(int4*, float*, long*, float*)",
        "void deep_ep::internode::combine<__nv_bfloat16, 4, 0, 8>(int4*, float*)",
        "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*)",
        "void deep_ep::intranode::notify_dispatch<8>(int const*, int*, int)",
        "void deep_ep::internode_ll::dispatch<false, 3, 7168>(void*, float*)",
        "void dpsk::ep::internode::dispatch<true>(int4*)",
        "void dpsk::ep::intranode::combine<float>(int4*)",
        "void mori::moe::EpDispatchInterNodeKernel<__hip_bfloat16>(mori::moe::EpDispatchCombineArgs)",
        "void mori::moe::EpCombineIntraNodeKernel<float>(mori::moe::EpDispatchCombineArgs)",
        "void pplx::dispatchKernel<true>(int)",
        "nvshmemi_transfer_rma_nbi_kernel",
        "void nvshmemx_barrier_all_block_kernel(int)",
        NULL};
    for (size_t i = 0; comm[i]; i++) {
        ck_assert_int_eq(kernel_classify(comm[i], false), KC_COMMUNICATION);
        /* HTA's rules do not know them: computation, as HTA reports */
        ck_assert_int_eq(kernel_classify(comm[i], true), KC_COMPUTATION);
    }
    ck_assert_int_eq(kernel_classify("void deep_ep::layout::get_dispatch_layout<256>(long const*)",
                                     false), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify("void deep_ep::internode::get_dispatch_layout<256>(int)",
                                     false), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify("void sleep::internode::foo()", false), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify("my_nvshmemish_kernel", false), KC_COMPUTATION);
    ck_assert_int_eq(kernel_classify("nvshmem", false), KC_COMPUTATION);
}
END_TEST

static void check_short(const char *in, const char *want)
{
    char out[256];
    shorten_name(in, out, sizeof out);
    ck_assert_str_eq(out, want);
}

START_TEST(shorten_name_should_follow_spec_examples)
{
    check_short("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
                "at::detail::Array<char*, 1>)",
                "at::native::vectorized_elementwise_kernel");
    check_short("void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, "
                "4, 64, 64>(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata"
                "<float, unsigned int, 64, 64>, int, int, unsigned int)",
                "at::native::::CatArrayBatchedCopy");
    check_short("Memcpy DtoD (Device -> Device)", "Memcpy DtoD (Device -> Device)");
    check_short("ProfilerStep#3", "ProfilerStep#3");
    check_short("## backward ##", "## backward ##");
    check_short("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
                "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t");
    check_short("a->b(x)", "ab");
    check_short("keep this) tail(", "tail(");
    check_short("ends in space (x) ", "");
    char tiny[4];
    shorten_name("abcdefgh(x)", tiny, sizeof tiny);
    ck_assert_str_eq(tiny, "abc");
}
END_TEST

static Suite *common_suite(void)
{
    Suite *s = suite_create("common");
    TCase *sort = tcase_create("sort");
    tcase_add_test(sort, argsort_should_keep_ties_in_input_order_up_to_16_rows);
    tcase_add_test(sort, argsort_should_break_17_ties_as_traced_by_hand);
    tcase_add_test(sort, argsort_should_match_numpy_on_heavy_ties);
    tcase_add_test(sort, argsort_should_sort_adversarial_input_through_heap_sort);
    tcase_add_test(sort, argsort_should_sort_random_inputs);
    tcase_add_test(sort, argsort_should_give_the_one_order_of_keys_without_ties);
    tcase_add_test(sort, argsort_should_order_ties_alike_in_fast_and_generic_paths);
    tcase_add_test(sort, less_double_should_put_nan_last);
    tcase_add_test(sort, less_str_should_compare_by_code_point);
    suite_add_tcase(s, sort);
    TCase *num = tcase_create("numbers");
    tcase_add_test(num, round_should_round_half_to_even_on_the_binary_double);
    tcase_add_test(num, describe_should_match_pandas);
    tcase_add_test(num, quantile_should_interpolate_linearly);
    tcase_add_test(num, sort_values_should_keep_equal_values_in_input_order);
    tcase_add_test(num, sum_pairwise_should_add_many_values);
    suite_add_tcase(s, num);
    TCase *iv = tcase_create("intervals");
    tcase_add_test(iv, merge_should_join_touching_and_overlapping_intervals);
    tcase_add_test(iv, merge_should_keep_inverted_intervals_in_sort_order);
    tcase_add_test(iv, intersection_should_measure_common_time);
    suite_add_tcase(s, iv);
    TCase *names = tcase_create("names");
    tcase_add_test(names, classify_should_follow_hta_rules);
    tcase_add_test(names, classify_should_fix_names_under_htx_rules);
    tcase_add_test(names, classify_should_count_expert_parallel_kernels_as_communication_under_htx);
    tcase_add_test(names, shorten_name_should_follow_spec_examples);
    suite_add_tcase(s, names);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(common_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
