#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/argsort.h"
#include "analysis/busy.h"
#include "analysis/kernels.h"
#include "analysis/ranks.h"
#include "analysis/intervals.h"
#include "analysis/stats.h"
#include "analysis/classify.h"
#include "breakdown_test.h"
#include "same_tables.h"

/* Properties of the breakdown analyses on generated traces. */

/* Random kernels with whole-us times on three streams, names of every
 * class; the answers are recomputed by brute force on a 1 us grid. */
#define GEN_KERNELS 300
#define GEN_SPAN 4000

struct gen_kernel {
    int ts, dur, stream;
    enum kernel_class cls;
};

static const char *const gen_names[] = {
    "sgemm_a", "sgemm_b", "elementwise", "reduce", "softmax", "gemv", "conv", "norm",
    "ncclKernel_AllReduce", "ncclDevKernel_Send", "Memcpy HtoD (Pageable -> Device)",
    "Memset (Device)", "layer_norm", "dropout", "relu", "gelu",
};
#define GEN_NNAMES (sizeof gen_names / sizeof gen_names[0])

static unsigned gen_next(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) & 0x7fff;
}

static const char *gen_trace(unsigned seed, struct gen_kernel *k)
{
    static char buf[GEN_KERNELS * 160 + 256];
    size_t len = (size_t)snprintf(buf, sizeof buf, "%s", CPU_OP(0, 1));
    for (int i = 0; i < GEN_KERNELS; i++) {
        size_t name = gen_next(&seed) % GEN_NNAMES;
        k[i].ts = 1 + (int)(gen_next(&seed) % GEN_SPAN);
        k[i].dur = (int)(gen_next(&seed) % 40);
        k[i].stream = 7 + (int)(gen_next(&seed) % 3);
        k[i].cls = kernel_classify(gen_names[name], false);
        len += (size_t)snprintf(buf + len, sizeof buf - len,
                                "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":0,"
                                "\"tid\":%d,\"ts\":%d,\"dur\":%d,\"args\":{\"stream\":%d}},",
                                k[i].cls == KC_MEMORY ? "gpu_memcpy" : "kernel",
                                gen_names[name], k[i].stream, k[i].ts, k[i].dur, k[i].stream);
    }
    return buf;
}

/* Per 1 us tick: the mask of active classes (bit per KC_*). */
static void gen_ticks(const struct gen_kernel *k, unsigned char *mask)
{
    memset(mask, 0, GEN_SPAN + 64);
    for (int i = 0; i < GEN_KERNELS; i++)
        for (int t = k[i].ts; t < k[i].ts + k[i].dur; t++)
            mask[t] |= (unsigned char)(1u << k[i].cls);
}

static void check_gen_temporal(const struct model *m, const struct gen_kernel *k,
                               const unsigned char *mask)
{
    int first = GEN_SPAN + 64, last = 0, busy = 0, comp = 0;
    for (int i = 0; i < GEN_KERNELS; i++) {
        first = k[i].ts < first ? k[i].ts : first;
        last = k[i].ts + k[i].dur > last ? k[i].ts + k[i].dur : last;
    }
    for (int t = 0; t < GEN_SPAN + 64; t++) {
        busy += mask[t] != 0;
        comp += (mask[t] & 1) != 0;
    }
    struct table *t = bd_run(temporal_run, m, NULL, "temporal_breakdown");
    ASSERT_NUM(t, 0, "kernel_time(us)", last - first);
    ASSERT_NUM(t, 0, "idle_time(us)", last - first - busy);
    ASSERT_NUM(t, 0, "compute_time(us)", comp);
    ASSERT_NUM(t, 0, "non_compute_time(us)", busy - comp);
    double pct = bd_num(t, 0, "idle_time_pctg") + bd_num(t, 0, "compute_time_pctg") +
                 bd_num(t, 0, "non_compute_time_pctg");
    ck_assert_double_eq_tol(pct, 100.0, 0.015);
}

static void check_gen_kernels(const struct model *m, const struct gen_kernel *k,
                              const unsigned char *mask)
{
    double label[8] = {0}, type_sum[3] = {0}, total = 0, pct = 0;
    for (int t = 0; t < GEN_SPAN + 64; t++)
        label[mask[t] & 7]++;
    for (int i = 0; i < GEN_KERNELS; i++)
        if (k[i].cls != KC_OTHER)
            type_sum[k[i].cls] += k[i].dur;
    struct table *t = bd_run(kernels_run, m, NULL, "kernel_type_breakdown");
    for (size_t r = 0; r < t->nrows; r++) {
        const char *name = bd_str(t, r, "kernel_type");
        unsigned bits = (strstr(name, "COMPUTATION") ? 1u : 0u) |
                        (strstr(name, "COMMUNICATION") ? 2u : 0u) | (strstr(name, "MEMORY") ? 4u : 0u);
        ck_assert_msg(bd_num(t, r, "sum") == label[bits], "%s", name);
        label[bits] = -1;   /* each label once */
        total += bd_num(t, r, "sum");
        pct += bd_num(t, r, "percentage");
    }
    for (unsigned b = 1; b < 8; b++)
        ck_assert_msg(label[b] <= 0, "label %u missing", b);
    ck_assert_double_eq_tol(pct, 100.0, 0.45);
    ck_assert(total > 0);
    t = bd_run(kernels_run, m, NULL, "kernel_breakdown");
    double got[3] = {0};
    for (size_t r = 0; r < t->nrows; r++) {
        const char *type = bd_str(t, r, "kernel_type");
        got[strcmp(type, "COMPUTATION") == 0 ? 0 : strcmp(type, "COMMUNICATION") == 0 ? 1 : 2] +=
            bd_num(t, r, "sum (us)");
    }
    for (int c = 0; c < 3; c++)
        ck_assert_double_eq_tol(got[c], type_sum[c], 1e-6);
}

static void check_gen_overlap_idle(const struct model *m, const unsigned char *mask)
{
    double both = 0, comm = 0;
    for (int t = 0; t < GEN_SPAN + 64; t++) {
        comm += (mask[t] & 2) != 0;
        both += (mask[t] & 3) == 3;
    }
    struct table *t = bd_run(overlap_run, m, NULL, "comm_comp_overlap");
    ASSERT_NUM(t, 0, "comp_comm_overlap_pctg", hta_round(100.0 * both / comm, 2));
    t = bd_run(idle_run, m, NULL, "idle_time_breakdown");
    double ratio = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        ratio += bd_num(t, r, "idle_time_ratio");
        bool last_of_stream = r + 1 == t->nrows || bd_num(t, r + 1, "stream") != bd_num(t, r, "stream");
        if (last_of_stream) {
            ck_assert_double_eq_tol(ratio, 1.0, 0.02);
            ratio = 0;
        }
    }
    ck_assert_uint_ge(t->nrows, 3);
}

START_TEST(breakdowns_should_agree_with_brute_force_on_generated_traces)
{
    static struct gen_kernel k[GEN_KERNELS];
    static unsigned char mask[GEN_SPAN + 64];
    for (unsigned seed = 1; seed <= 6; seed++) {
        const char *events = gen_trace(seed, k);
        gen_ticks(k, mask);
        for (int mode = SEMANTICS_HTX; mode <= SEMANTICS_HTA; mode++) {
            struct model *m = bd_load(events, (enum semantics_mode)mode);
            check_gen_temporal(m, k, mask);
            check_gen_kernels(m, k, mask);
            check_gen_overlap_idle(m, mask);
            model_free(m);
        }
    }
}
END_TEST

/* Sparse kernels on a 10 us grid, many boundaries tied, some labels
 * absent: the kernel type breakdown under HTA against HTA's sweep done by
 * hand (§3.2: each type's merged starts and ends appended and the whole
 * re-sorted by numpy's introsort, every segment's label listed, zero-length
 * ones included), whichever way htx takes to it. */
#define TIE_KERNELS 24

static const char *tie_trace(unsigned seed, struct interval *iv[3], size_t n[3])
{
    static const char *const names[3] = {"sgemm_a", "ncclKernel_AllReduce",
                                         "Memcpy HtoD (Pageable -> Device)"};
    static char buf[TIE_KERNELS * 200 + 256];
    size_t len = (size_t)snprintf(buf, sizeof buf, "%s", CPU_OP(0, 1));
    size_t count = 3 + seed % TIE_KERNELS;
    unsigned classes = 1 + seed % 7;   // which types appear at all
    for (size_t i = 0; i < count; i++) {
        unsigned c = gen_next(&seed) % 3;
        if (!(classes >> c & 1))
            continue;
        int ts = 1000 + 10 * (int)(gen_next(&seed) % 30);
        int dur = 10 * (int)(1 + gen_next(&seed) % 4);
        iv[c][n[c]++] = (struct interval){(int64_t)ts * 1000, (int64_t)(ts + dur) * 1000};
        len += (size_t)snprintf(buf + len, sizeof buf - len,
                                "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":0,"
                                "\"tid\":%u,\"ts\":%d,\"dur\":%d,\"args\":{\"stream\":%u}},",
                                c == 2 ? "gpu_memcpy" : "kernel", names[c], 7 + c, ts, dur, 7 + c);
    }
    return buf;
}

struct tie_point {
    int64_t t;
    int bit;
};

/* HTA's labels (bit c: type c) with their sums in ns; present[] those listed. */
static void hta_sweep(struct interval *iv[3], size_t n[3], int64_t sums[8], bool present[8])
{
    static struct tie_point pts[4 * TIE_KERNELS], tmp[4 * TIE_KERNELS];
    static int64_t keys[4 * TIE_KERNELS];
    static size_t perm[4 * TIE_KERNELS];
    size_t np = 0;
    for (int c = 0; c < 3; c++) {
        size_t k = 0;
        ck_assert_int_eq(intervals_merge_ordered(iv[c], n[c], true, &k), 0);
        for (size_t i = 0; i < k; i++)
            pts[np++] = (struct tie_point){iv[c][i].start, 1 << c};
        for (size_t i = 0; i < k; i++)
            pts[np++] = (struct tie_point){iv[c][i].end, -(1 << c)};
        for (size_t i = 0; i < np; i++)
            keys[i] = pts[i].t;
        argsort_identity(perm, np);
        hta_argsort(perm, np, keys, less_i64);
        for (size_t i = 0; i < np; i++)
            tmp[i] = pts[perm[i]];
        memcpy(pts, tmp, np * sizeof *pts);
    }
    int64_t mask = 0;
    for (size_t i = 0; i + 1 < np; i++) {
        mask += pts[i].bit;
        if (mask <= 0)
            continue;
        sums[mask & 7] += pts[i + 1].t - pts[i].t;
        present[mask & 7] = true;
    }
}

START_TEST(kernel_types_should_list_htas_labels_where_boundaries_tie)
{
    static const char *const label_names[8] = {
        "", "COMPUTATION", "COMMUNICATION", "COMPUTATION overlapping COMMUNICATION", "MEMORY",
        "COMPUTATION overlapping MEMORY", "COMMUNICATION overlapping MEMORY",
        "COMPUTATION overlapping COMMUNICATION overlapping MEMORY",
    };
    static struct interval store[3][TIE_KERNELS];
    int zero_rows = 0;
    for (unsigned seed = 1; seed <= 300; seed++) {
        struct interval *iv[3] = {store[0], store[1], store[2]};
        size_t n[3] = {0, 0, 0};
        const char *events = tie_trace(seed, iv, n);
        int64_t sums[8] = {0};
        bool present[8] = {false};
        hta_sweep(iv, n, sums, present);
        struct model *m = bd_load(events, SEMANTICS_HTA);
        struct table *t = bd_run(kernels_run, m, NULL, "kernel_type_breakdown");
        size_t listed = 0;
        for (unsigned b = 1; b < 8; b++) {
            bool found = false;
            for (size_t r = 0; r < t->nrows && !found; r++)
                if (strcmp(bd_str(t, r, "kernel_type"), label_names[b]) == 0) {
                    found = true;
                    ck_assert_msg(bd_num(t, r, "sum") == (double)sums[b] / 1000,
                                  "seed %u, %s: %g against %lld ns", seed, label_names[b],
                                  bd_num(t, r, "sum"), (long long)sums[b]);
                    zero_rows += sums[b] == 0;
                }
            ck_assert_msg(found == present[b], "seed %u: %s %s", seed, label_names[b],
                          present[b] ? "missing" : "listed");
            listed += found;
        }
        ck_assert_uint_eq(listed, t->nrows);
        model_free(m);
    }
    ck_assert_msg(zero_rows > 0, "no zero-length label: the ties are not exercised");
}
END_TEST

/* Every table of fn on m with o, as a list. */
static struct table_list run_all(analysis_fn fn, const struct model *m,
                                 const struct analysis_opts *o)
{
    struct table_list out = {{NULL}, 0};
    struct err e = {0, ""};
    ck_assert_msg(fn(m, o, &bd_scratch, &out, &e) == 0, "analysis failed: %s", e.msg);
    return out;
}

/* The analyses that take a model's busy intervals make the same tables
 * from a busy_memo as from the rows; a memo of another model is not read. */
START_TEST(busy_memo_should_give_the_tables_made_without_it)
{
    static struct gen_kernel k[GEN_KERNELS];
    static const analysis_fn fns[] = {temporal_run, overlap_run, kernels_parts_run,
                                      ranks_parts_run};
    for (unsigned seed = 1; seed <= 6; seed++) {
        const char *events = gen_trace(seed, k);
        for (int mode = SEMANTICS_HTX; mode <= SEMANTICS_HTA; mode++) {
            struct model *m = bd_load(events, (enum semantics_mode)mode);
            struct model *other = bd_load(gen_trace(seed + 100, k), (enum semantics_mode)mode);
            struct analysis_opts plain, memoised, elsewhere;
            analysis_opts_default(&plain);
            memoised = elsewhere = plain;
            struct busy_memo memo, other_memo;
            ck_assert_int_eq(busy_memo_build(&memo, m, &plain, &m->ranks[0]), 0);
            ck_assert_int_eq(busy_memo_build(&other_memo, other, &plain, &other->ranks[0]), 0);
            ck_assert_uint_gt(memo.k[0], 0);
            memoised.busy_memo = &memo;
            elsewhere.busy_memo = &other_memo;
            for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
                struct table_list want = run_all(fns[f], m, &plain);
                struct table_list got = run_all(fns[f], m, &memoised);
                struct table_list ignored = run_all(fns[f], m, &elsewhere);
                assert_same_tables(&want, &got);
                assert_same_tables(&want, &ignored);
            }
            // the memo's arrays are lent, never freed by the analyses
            struct busy_classes c;
            ck_assert_int_eq(busy_classes_init(&c, m, &memoised), 0);
            const unsigned all = BUSY_ALL_CLASSES;
            struct interval *iv;
            size_t n;
            ck_assert_int_eq(busy_merged(&c, &m->ranks[0], all, &iv, &n), 0);
            ck_assert_ptr_eq(iv, memo.iv[0]);
            busy_merged_free(&c, iv);
            busy_classes_fini(&c);
            busy_memo_fini(&memo);
            busy_memo_fini(&other_memo);
            model_free(other);
            model_free(m);
        }
    }
}
END_TEST

/* The same from a busy_memo_set, whose memos the analyses make as they
 * first ask and then lend; a set of another model is not read. */
START_TEST(busy_memo_set_should_give_the_tables_made_without_it)
{
    static struct gen_kernel k[GEN_KERNELS];
    static const analysis_fn fns[] = {temporal_run, overlap_run, kernels_parts_run,
                                      ranks_parts_run};
    for (unsigned seed = 1; seed <= 6; seed++) {
        const char *events = gen_trace(seed, k);
        for (int mode = SEMANTICS_HTX; mode <= SEMANTICS_HTA; mode++) {
            struct model *m = bd_load(events, (enum semantics_mode)mode);
            struct model *other = bd_load(gen_trace(seed + 100, k), (enum semantics_mode)mode);
            struct analysis_opts plain, memoised, elsewhere;
            analysis_opts_default(&plain);
            memoised = elsewhere = plain;
            struct busy_memo_set set, other_set;
            ck_assert_int_eq(busy_memo_set_init(&set, m, &plain), 0);
            ck_assert_int_eq(busy_memo_set_init(&other_set, other, &plain), 0);
            memoised.busy_memos = &set;
            elsewhere.busy_memos = &other_set;
            for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
                struct table_list want = run_all(fns[f], m, &plain);
                struct table_list got = run_all(fns[f], m, &memoised);
                struct table_list ignored = run_all(fns[f], m, &elsewhere);
                assert_same_tables(&want, &got);
                assert_same_tables(&want, &ignored);
            }
            ck_assert_int_eq(set.state[0], BUSY_MEMO_MADE);
            ck_assert_int_eq(other_set.state[0], BUSY_MEMO_UNMADE);
            // the memo's arrays are lent, never freed by the analyses
            struct busy_classes c;
            ck_assert_int_eq(busy_classes_init(&c, m, &memoised), 0);
            const unsigned all = BUSY_ALL_CLASSES;
            struct interval *iv;
            size_t n;
            ck_assert_int_eq(busy_merged(&c, &m->ranks[0], all, &iv, &n), 0);
            ck_assert_ptr_eq(iv, set.memo[0].iv[0]);
            busy_merged_free(&c, iv);
            busy_classes_fini(&c);
            busy_memo_set_fini(&set);
            busy_memo_set_fini(&other_set);
            model_free(other);
            model_free(m);
        }
    }
}
END_TEST

/* A compute kernel's name prefix (up to 8 bytes, no comma) in *pattern,
 * and the kernel's name id: -1 when m has none. */
static long compute_kernel(const struct model *m, char *pattern, size_t size)
{
    const struct rank_model *r = &m->ranks[0];
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        const char *name = model_str(m, ev->name);
        if (ev->kind != EV_KIND_KERNEL ||
            kernel_classify(name, m->sem.hta_kernel_classes) != KC_COMPUTATION)
            continue;
        size_t n = strcspn(name, ",");
        n = n < 8 ? n : 8;
        if (n == 0 || n >= size)
            continue;
        memcpy(pattern, name, n);
        pattern[n] = 0;
        return (long)ev->name;
    }
    return -1;
}

/* busy_classes start from a memo's classes only where the memo classified
 * the same model's names by the same patterns: a user's --comm-patterns
 * that turn a compute kernel into communication are not lost to a memo made
 * without them. */
START_TEST(busy_classes_should_start_from_a_memo_of_the_same_patterns)
{
    static struct gen_kernel k[GEN_KERNELS];
    for (unsigned seed = 1; seed <= 4; seed++) {
        struct model *m = bd_load(gen_trace(seed, k), SEMANTICS_HTX);
        struct analysis_opts plain, memoised, patterned, patterned_memo;
        analysis_opts_default(&plain);
        struct busy_memo memo;
        ck_assert_int_eq(busy_memo_build(&memo, m, &plain, &m->ranks[0]), 0);
        ck_assert_ptr_nonnull(memo.cls);
        memoised = plain;
        memoised.busy_memo = &memo;
        struct busy_classes c;
        ck_assert_int_eq(busy_classes_init(&c, m, &memoised), 0);
        ck_assert_uint_eq(c.n, memo.ncls);
        ck_assert_int_eq(memcmp(c.cls, memo.cls, c.n), 0);
        for (uint32_t id = 0; id < c.n; id++)   // each as classified anew
            if (memo.cls[id] != BUSY_CLASS_UNKNOWN)
                ck_assert_int_eq(busy_class(&c, id),
                                 kernel_classify_with(model_str(m, id),
                                                      m->sem.hta_kernel_classes, NULL, NULL));
        busy_classes_fini(&c);

        char pattern[16];
        long id = compute_kernel(m, pattern, sizeof pattern);
        ck_assert_msg(id >= 0, "seed %u: no compute kernel", seed);
        patterned = plain;
        patterned.comm_patterns = pattern;
        patterned_memo = patterned;
        patterned_memo.busy_memo = &memo;
        ck_assert_int_eq(busy_classes_init(&c, m, &patterned_memo), 0);
        ck_assert_int_eq(busy_class(&c, (uint32_t)id), KC_COMMUNICATION);
        busy_classes_fini(&c);
        struct table_list want = run_all(kernels_parts_run, m, &patterned);
        struct table_list got = run_all(kernels_parts_run, m, &patterned_memo);
        assert_same_tables(&want, &got);
        busy_memo_fini(&memo);
        model_free(m);
    }
}
END_TEST

TCase *breakdown_props_tcase(void)
{
    TCase *tc = tcase_create("properties");
    tcase_add_checked_fixture(tc, bd_setup, bd_teardown);
    tcase_add_test(tc, breakdowns_should_agree_with_brute_force_on_generated_traces);
    tcase_add_test(tc, kernel_types_should_list_htas_labels_where_boundaries_tie);
    tcase_add_test(tc, busy_memo_should_give_the_tables_made_without_it);
    tcase_add_test(tc, busy_memo_set_should_give_the_tables_made_without_it);
    tcase_add_test(tc, busy_classes_should_start_from_a_memo_of_the_same_patterns);
    return tc;
}
