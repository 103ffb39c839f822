#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/stats.h"
#include "analysis/classify.h"
#include "breakdown_test.h"

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

TCase *breakdown_props_tcase(void)
{
    TCase *tc = tcase_create("properties");
    tcase_add_checked_fixture(tc, bd_setup, bd_teardown);
    tcase_add_test(tc, breakdowns_should_agree_with_brute_force_on_generated_traces);
    return tc;
}
