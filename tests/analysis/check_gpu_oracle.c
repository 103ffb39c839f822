#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "analysis/series.h"
#include "model/model.h"

#include "check_gpu.h"
#include "oracle_compare.h"

/* HTA's own outputs (../shared/oracle) against htx --semantics=hta: launch
 * statistics per rank, queue-length and memory-bandwidth summaries, and the
 * two time series (row counts and HTA's first 20 rows, which pins the tie
 * order of the sort). Numbers must agree within 1e-6 relative or 1e-3
 * absolute. */

static const char *const oracle_sets[] = {
    "amd_mi250", "cpu_only", "nccl", "rank_non_gpu", "two_ranks",
    "diff/control", "diff/test", "diff_small/control", "diff_small/test",
};
#define N_SETS (sizeof oracle_sets / sizeof oracle_sets[0])

/* The oracle file <set>/<file>, or NULL when it does not exist. Caller
 * owns it (cJSON_Delete). */
static cJSON *oracle_file(const char *set, const char *file)
{
    char root[512], path[800], msg[256];
    if (!oracle_root(root, sizeof root))
        return NULL;
    snprintf(path, sizeof path, "%s/%s/%s", root, set, file);
    if (access(path, R_OK) != 0)
        return NULL;
    cJSON *doc = oracle_load(path, msg, sizeof msg);
    ck_assert_msg(doc != NULL, "%s", msg);
    return doc;
}

/* Within 1e-6 relative or 1e-3 absolute; null (NaN) matches only NaN. */
static void assert_near(double got, const cJSON *want, const char *what, size_t row)
{
    if (cJSON_IsNull(want)) {
        ck_assert_msg(isnan(got), "%s row %zu: got %.17g, HTA NaN", what, row, got);
        return;
    }
    ck_assert_msg(cJSON_IsNumber(want), "%s row %zu: oracle value not a number", what, row);
    double w = want->valuedouble, d = fabs(got - w);
    ck_assert_msg(d <= 1e-3 || d <= 1e-6 * fabs(w), "%s row %zu: got %.17g, HTA %.17g", what,
                  row, got, w);
}

static struct model *load_set(const char *set, enum semantics_mode mode)
{
    char root[512], dir[800];
    ck_assert_ptr_nonnull(oracle_traces_root(root, sizeof root));
    snprintf(dir, sizeof dir, "%s/%s", root, set);
    const char *paths[] = {dir};
    struct semantics sem;
    semantics_init(&sem, mode);
    struct load_opts lo = {.threads = 1};
    struct err e = {0, ""};
    struct model *m = model_load(paths, 1, &sem, &lo, &e);
    ck_assert_msg(m != NULL, "%s: load failed: %s", set, e.msg);
    return m;
}

static void assert_matches(const cJSON *frame, const struct table *t,
                           const char *const *index, size_t nindex, const char *set)
{
    char msg[1024];
    int bad = oracle_compare(frame, t, index, nindex, 1e-3, msg, sizeof msg);
    ck_assert_msg(bad == 0, "%s %s: %d mismatches:\n%s", set, t->name, bad, msg);
}

/* ---- launch statistics: HTA was called per rank, so select each rank ---- */

static void check_launch(const char *set, struct model *m)
{
    struct err e = {0, ""};
    for (size_t i = 0; i < m->nranks; i++) {
        int64_t rank = m->ranks[i].rank;
        char file[128], key[32];
        snprintf(file, sizeof file, "cuda_kernel_launch_stats_rank%" PRId64 ".json", rank);
        snprintf(key, sizeof key, "%" PRId64, rank);
        cJSON *doc = oracle_file(set, file);
        if (!doc)
            continue;
        struct selection sel = {.ranks = &rank, .nranks = 1};
        ck_assert_int_eq(model_select(m, &sel, &e), 0);
        struct arena a;
        arena_init(&a, 0);
        struct table_list l;
        gpu_run(launch_run, m, NULL, &a, &l);
        const cJSON *frame = oracle_frame(doc, key);
        ck_assert_msg(frame != NULL, "%s: no DataFrame for rank %s", file, key);
        assert_matches(frame, gpu_find_table(&l, "cuda_kernel_launch_stats"), NULL, 0, set);
        arena_fini(&a);
        cJSON_Delete(doc);
    }
    ck_assert_int_eq(model_select(m, NULL, &e), 0);
}

/* ---- the two summaries, indexed by [rank, stream] / [rank, name] ---- */

static void check_summary(const char *set, const struct table *t, const char *file,
                          const char *key_col)
{
    cJSON *doc = oracle_file(set, file);
    ck_assert_msg(doc != NULL, "%s: no %s", set, file);
    const cJSON *frame = oracle_frame(doc, NULL);
    if (!frame) {   /* HTA returned None */
        ck_assert_msg(t->nrows == 0 && t->note, "%s %s: HTA has none, we have %zu rows", set,
                      t->name, t->nrows);
    } else {
        const char *index[] = {"rank", key_col};
        assert_matches(frame, t, index, 2, set);
    }
    cJSON_Delete(doc);
}

/* ---- time series: per rank, row count and the first rows ---- */

static void check_queue_series(const struct model *m, const struct rank_model *r,
                               const cJSON *want, const char *set, struct arena *a)
{
    struct queue_series *qs;
    size_t ns, total = 0;
    struct err e = {0, ""};
    ck_assert_int_eq(queue_series_build(m, r, a, &qs, &ns, NULL, &e), 0);
    for (size_t k = 0; k < ns; k++)
        total += qs[k].n;
    int rows = want ? cJSON_GetObjectItemCaseSensitive(want, "rows")->valueint : 0;
    ck_assert_msg(total == (size_t)rows, "%s rank %" PRId64 ": %zu queue samples, HTA %d", set,
                  r->rank, total, rows);
    if (!want)
        return;
    const cJSON *head = cJSON_GetObjectItemCaseSensitive(want, "head");
    const cJSON *index = cJSON_GetObjectItemCaseSensitive(head, "index");
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(head, "data");
    size_t k = 0, i = 0;
    for (int row = 0; row < cJSON_GetArraySize(data); row++, i++) {
        while (i >= qs[k].n) {
            k++;
            i = 0;
        }
        const cJSON *d = cJSON_GetArrayItem(data, row);
        ck_assert_int_eq(qs[k].index[i], cJSON_GetArrayItem(index, row)->valueint);
        assert_near((double)qs[k].ts[i] / 1000.0, cJSON_GetArrayItem(d, 0), "queue ts",
                    (size_t)row);
        ck_assert_int_eq(qs[k].stream, cJSON_GetArrayItem(d, 3)->valueint);
        ck_assert_int_eq(qs[k].queue_length[i], cJSON_GetArrayItem(d, 4)->valueint);
    }
}

static void check_membw_series(const struct model *m, const struct rank_model *r,
                               const cJSON *want, const char *set, struct arena *a)
{
    struct membw_series *s;
    size_t ns, total = 0;
    struct err e = {0, ""};
    ck_assert_int_eq(membw_series_build(m, r, a, &s, &ns, &e), 0);
    for (size_t k = 0; k < ns; k++)
        total += s[k].n;
    int rows = want ? cJSON_GetObjectItemCaseSensitive(want, "rows")->valueint : 0;
    ck_assert_msg(total == (size_t)rows, "%s rank %" PRId64 ": %zu bandwidth samples, HTA %d",
                  set, r->rank, total, rows);
    if (!want)
        return;
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(want, "head"), "data");
    size_t k = 0, i = 0;
    for (int row = 0; row < cJSON_GetArraySize(data); row++, i++) {
        while (i >= s[k].n) {
            k++;
            i = 0;
        }
        const cJSON *d = cJSON_GetArrayItem(data, row);
        assert_near((double)s[k].ts[i] / 1000.0, cJSON_GetArrayItem(d, 0), "bw ts", (size_t)row);
        ck_assert_str_eq(s[k].label, cJSON_GetArrayItem(d, 2)->valuestring);
        assert_near(s[k].bw_gbps[i], cJSON_GetArrayItem(d, 3), "bw", (size_t)row);
    }
}

static void check_series(const char *set, const struct model *m)
{
    cJSON *qdoc = oracle_file(set, "queue_length_time_series.json");
    cJSON *bdoc = oracle_file(set, "memory_bw_time_series.json");
    ck_assert_msg(qdoc && bdoc, "%s: time series oracle files missing", set);
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(qdoc, "result");
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(bdoc, "result");
    struct arena a;
    arena_init(&a, 0);
    for (size_t i = 0; i < m->nranks; i++) {
        char key[32];
        snprintf(key, sizeof key, "%" PRId64, m->ranks[i].rank);
        check_queue_series(m, &m->ranks[i], cJSON_GetObjectItemCaseSensitive(q, key), set, &a);
        check_membw_series(m, &m->ranks[i], cJSON_GetObjectItemCaseSensitive(b, key), set, &a);
    }
    arena_fini(&a);
    cJSON_Delete(qdoc);
    cJSON_Delete(bdoc);
}

static bool have_shared(const char *what, const char *set)
{
    char root[512];
    if (oracle_root(root, sizeof root) && oracle_traces_root(root, sizeof root))
        return true;
    printf("../shared not found: skipping the %s for %s\n", what, set);
    return false;
}

START_TEST(gpu_should_match_hta_oracle)
{
    const char *set = oracle_sets[_i];
    if (!have_shared("gpu oracle test", set))
        return;
    struct model *m = load_set(set, SEMANTICS_HTA);
    check_launch(set, m);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l;
    gpu_run(queue_run, m, NULL, &a, &l);
    check_summary(set, gpu_find_table(&l, "queue_length_summary"), "queue_length_summary.json",
                  "stream");
    gpu_run(membw_run, m, NULL, &a, &l);
    check_summary(set, gpu_find_table(&l, "memory_bw_summary"), "memory_bw_summary.json",
                  "name");
    check_series(set, m);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(gpu_should_not_fail_on_any_trace_under_htx)
{
    const char *set = oracle_sets[_i];
    if (!have_shared("gpu htx run", set))
        return;
    struct model *m = load_set(set, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l;
    analysis_fn fns[] = {launch_run, queue_run, membw_run};
    for (size_t i = 0; i < 3; i++) {
        gpu_run(fns[i], m, NULL, &a, &l);
        for (size_t k = 0; k < l.count; k++)
            ck_assert_msg(l.tables[k]->nrows > 0 || l.tables[k]->note,
                          "%s %s: empty without a note", set, l.tables[k]->name);
    }
    arena_fini(&a);
    model_free(m);
}
END_TEST

Suite *gpu_oracle_suite(void)
{
    Suite *s = suite_create("gpu oracle");
    TCase *tc = tcase_create("oracle");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, gpu_should_match_hta_oracle, 0, (int)N_SETS);
    tcase_add_loop_test(tc, gpu_should_not_fail_on_any_trace_under_htx, 0, (int)N_SETS);
    suite_add_tcase(s, tc);
    return s;
}
