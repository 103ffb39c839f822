#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis/analysis.h"
#include "analysis/annotations.h"
#include "analysis/classify.h"
#include "check_attribution.h"
#include "model/model.h"
#include "oracle_compare.h"

/* The attribution analyses against HTA's own outputs (../shared/oracle):
 * for every trace set, every gpu_kernels_with_user_annotations_rank<R> and
 * frequent_cuda_kernel_sequences_rank<R>[_fallback] entry of its manifest. */

static const char *const oracle_sets[] = {
    "amd_mi250", "cpu_only", "diff/control", "diff/test", "diff_small/control",
    "diff_small/test", "nccl", "rank_non_gpu", "two_ranks",
};
#define N_ORACLE_SETS (sizeof oracle_sets / sizeof oracle_sets[0])

static bool near_oracle(double want, double got)
{
    double diff = fabs(want - got);
    return diff <= 1e-3 || diff <= 1e-6 * fabs(want);
}

static struct model *load_set(const char *traces, const char *set)
{
    char path[4096];
    ck_assert_msg(snprintf(path, sizeof path, "%s/%s", traces, set) <
                      (int)sizeof path,
                  "path too long");
    const char *paths[] = {path};
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTA);
    struct load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.threads = 1;
    struct err e = {0, ""};
    struct model *m = model_load(paths, 1, &sem, &lo, &e);
    ck_assert_msg(m != NULL, "%s: load failed: %s", set, e.msg);
    return m;
}

/* A copy of t's rows of one rank (the oracle frames are per rank). */
static struct table *rank_rows(struct arena *a, const struct table *t, int64_t rank)
{
    struct table *s = table_new(a, t->name, t->title, t->cols, t->ncols);
    ck_assert_ptr_nonnull(s);
    int rc = table_col_index(t, "rank");
    for (size_t i = 0; i < t->nrows; i++) {
        if (table_cell(t, i, (size_t)rc)->v.i != rank)
            continue;
        struct cell *row = table_add_row(s);
        ck_assert_ptr_nonnull(row);
        memcpy(row, table_cell(t, i, 0), t->ncols * sizeof *row);
    }
    return s;
}

static int64_t entry_rank(const char *analysis)
{
    const char *p = strstr(analysis, "_rank");
    ck_assert_ptr_nonnull(p);
    return strtoll(p + 5, NULL, 10);
}

/* by_user_annotation: one row per s_user_annotation with sum and count. */
static int compare_by_annotation(const cJSON *want, const struct table *got, char *msg,
                                 size_t msgsz)
{
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(want, "data"), *row;
    int bad = 0;
    if ((size_t)cJSON_GetArraySize(data) != got->nrows) {
        snprintf(msg, msgsz, "want %d annotation rows, got %zu", cJSON_GetArraySize(data),
                 got->nrows);
        return 1;
    }
    cJSON_ArrayForEach(row, data) {
        const char *name = cJSON_GetArrayItem(row, 0)->valuestring;
        double sum = cJSON_GetArrayItem(row, 1)->valuedouble;
        double count = cJSON_GetArrayItem(row, 2)->valuedouble;
        long i = row_with(got, "s_user_annotation", name);
        if (i < 0 || !near_oracle(sum, num(got, i, "sum")) || count != num(got, i, "count")) {
            snprintf(msg, msgsz, "annotation \"%s\": want sum %g count %g", name, sum, count);
            bad++;
        }
    }
    return bad;
}

/* The first rows of HTA's kernel frame: index, ts, dur, s_name and
 * s_user_annotation of each kernel in row order. */
static int compare_head(const struct model *m, const struct rank_model *r, const cJSON *head,
                        char *msg, size_t msgsz)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(head, "columns");
    int c_index = -1, c_ts = -1, c_dur = -1, c_sname = -1, c_sua = -1, k = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cols) {
        const char *n = c->valuestring;
        c_index = strcmp(n, "index") ? c_index : k;
        c_ts = strcmp(n, "ts") ? c_ts : k;
        c_dur = strcmp(n, "dur") ? c_dur : k;
        c_sname = strcmp(n, "s_name") ? c_sname : k;
        c_sua = strcmp(n, "s_user_annotation") ? c_sua : k;
        k++;
    }
    ck_assert(c_index >= 0 && c_ts >= 0 && c_dur >= 0 && c_sname >= 0 && c_sua >= 0);
    struct arena a;
    arena_init(&a, 0);
    struct err e = {0, ""};
    struct annot_index *x = annot_index_new(m, r, true, &a, &e);
    ck_assert_ptr_nonnull(x);
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(head, "data"), *want;
    size_t row = 0;
    int bad = 0;
    cJSON_ArrayForEach(want, data) {
        while (row < r->nrows && !annot_is_kernel(m, &r->events[r->rows[row]]))
            row++;
        ck_assert_uint_lt(row, r->nrows);
        const struct event *ev = &r->events[r->rows[row]];
        char sname[4096], sua[4096] = "";
        shorten_name(model_str(m, ev->name), sname, sizeof sname);
        uint32_t inner = annot_innermost(x, r->rows[row]);
        if (inner != MODEL_NONE)
            shorten_name(model_str(m, r->events[inner].name), sua, sizeof sua);
        if (cJSON_GetArrayItem(want, c_index)->valuedouble != ev->index ||
            !near_oracle(cJSON_GetArrayItem(want, c_ts)->valuedouble, ev->ts / 1000.0) ||
            !near_oracle(cJSON_GetArrayItem(want, c_dur)->valuedouble, ev->dur / 1000.0) ||
            strcmp(cJSON_GetArrayItem(want, c_sname)->valuestring, sname) ||
            strcmp(cJSON_GetArrayItem(want, c_sua)->valuestring, sua)) {
            snprintf(msg, msgsz, "head row %zu (index %u): got s_name %.60s ann \"%s\"", row,
                     ev->index, sname, sua);
            bad++;
        }
        row++;
    }
    arena_fini(&a);
    return bad;
}

static void check_kernel_totals(const struct model *m, const struct rank_model *r,
                                const cJSON *res)
{
    size_t n = 0;
    double sum = 0;
    for (size_t i = 0; i < r->nrows; i++)
        if (annot_is_kernel(m, &r->events[r->rows[i]])) {
            n++;
            sum += r->events[r->rows[i]].dur / 1000.0;
        }
    ck_assert_int_eq((int)n, cJSON_GetObjectItemCaseSensitive(res, "kernel_rows")->valueint);
    double want = cJSON_GetObjectItemCaseSensitive(res, "dur_sum_total")->valuedouble;
    ck_assert_msg(near_oracle(want, sum), "dur_sum_total %g, want %g", sum, want);
}

static void oracle_annotations(const struct model *m, const char *dir, const cJSON *entry,
                               const struct table_list *l, int64_t rank)
{
    const char *status = cJSON_GetObjectItemCaseSensitive(entry, "status")->valuestring;
    const char *name = cJSON_GetObjectItemCaseSensitive(entry, "analysis")->valuestring;
    struct arena a;
    arena_init(&a, 0);
    struct table *t = rank_rows(&a, find_table(l, "kernels_by_annotation"), rank);
    if (strcmp(status, "ok") != 0) {   /* HTA returned None: an empty table and a note */
        ck_assert_msg(t->nrows == 0, "%s %s: want no rows", dir, name);
        ck_assert_ptr_nonnull(find_table(l, "kernels_by_annotation")->note);
        arena_fini(&a);
        return;
    }
    char path[4096], msg[1024] = "";
    ck_assert_msg(snprintf(path, sizeof path, "%s/%s.json", dir, name) <
                      (int)sizeof path,
                  "path too long");
    cJSON *doc = oracle_load(path, msg, sizeof msg);
    ck_assert_msg(doc != NULL, "%s", msg);
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(doc, "result");
    const struct rank_model *r = model_find_rank(m, rank);
    ck_assert_ptr_nonnull(r);
    check_kernel_totals(m, r, res);
    int bad = compare_by_annotation(cJSON_GetObjectItemCaseSensitive(res, "by_user_annotation"),
                                    t, msg, sizeof msg);
    ck_assert_msg(bad == 0, "%s %s: %s", dir, name, msg);
    bad = compare_head(m, r, cJSON_GetObjectItemCaseSensitive(res, "head"), msg, sizeof msg);
    ck_assert_msg(bad == 0, "%s %s: %s", dir, name, msg);
    printf("oracle %s %s: %zu annotation rows match\n", dir, name, t->nrows);
    cJSON_Delete(doc);
    arena_fini(&a);
}

static void oracle_sequences(const struct model *m, const char *dir, const cJSON *entry,
                             int64_t rank)
{
    const char *status = cJSON_GetObjectItemCaseSensitive(entry, "status")->valuestring;
    const char *name = cJSON_GetObjectItemCaseSensitive(entry, "analysis")->valuestring;
    if (strcmp(status, "skipped") == 0)
        return;
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(entry, "params");
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.operator_name = cJSON_GetObjectItemCaseSensitive(params, "operator_name")->valuestring;
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = run(m, sequences_run, &o, &a);
    const struct table *all = find_table(&l, "frequent_kernel_sequences");
    struct table *t = rank_rows(&a, all, rank);
    if (strcmp(status, "ok") != 0) {   /* HTA raised: a result and a note saying so */
        ck_assert_ptr_nonnull(all->note);
        printf("oracle %s %s: HTA %s; htx: %zu rows, note: %.200s\n", dir, name, status,
               t->nrows, all->note);
        arena_fini(&a);
        return;
    }
    char path[4096], msg[1024] = "";
    ck_assert_msg(snprintf(path, sizeof path, "%s/%s.json", dir, name) <
                      (int)sizeof path,
                  "path too long");
    cJSON *doc = oracle_load(path, msg, sizeof msg);
    ck_assert_msg(doc != NULL, "%s", msg);
    const cJSON *frame = oracle_frame(doc, NULL);
    ck_assert_ptr_nonnull(frame);
    int bad = oracle_compare(frame, t, NULL, 0, 1e-3, msg, sizeof msg);
    ck_assert_msg(bad == 0, "%s %s (%s): %s", dir, name, o.operator_name, msg);
    printf("oracle %s %s (%s): %zu rows match\n", dir, name, o.operator_name, t->nrows);
    cJSON_Delete(doc);
    arena_fini(&a);
}

START_TEST(attribution_should_match_the_oracle)
{
    char oroot[4096], troot[4096], dir[4096], msg[512];
    if (!oracle_root(oroot, sizeof oroot) || !oracle_traces_root(troot, sizeof troot)) {
        printf("../shared not found: skipping the attribution oracle tests\n");
        return;
    }
    const char *set = oracle_sets[_i];
    ck_assert_msg(snprintf(dir, sizeof dir, "%s/%s", oroot, set) <
                      (int)sizeof dir,
                  "path too long");
    char mpath[4200];
    ck_assert_msg(snprintf(mpath, sizeof mpath, "%s/manifest.json", dir) <
                      (int)sizeof mpath,
                  "path too long");
    cJSON *manifest = oracle_load(mpath, msg, sizeof msg);
    ck_assert_msg(manifest != NULL, "%s", msg);
    struct model *m = load_set(troot, set);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = run(m, annotations_run, &o, &a);
    const cJSON *entry;
    cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(manifest, "entries")) {
        const char *name = cJSON_GetObjectItemCaseSensitive(entry, "analysis")->valuestring;
        if (strncmp(name, "gpu_kernels_with_user_annotations_rank", 38) == 0)
            oracle_annotations(m, dir, entry, &l, entry_rank(name));
        else if (strncmp(name, "frequent_cuda_kernel_sequences_rank", 35) == 0)
            oracle_sequences(m, dir, entry, entry_rank(name));
    }
    arena_fini(&a);
    model_free(m);
    cJSON_Delete(manifest);
}
END_TEST

TCase *attribution_oracle_tcase(void)
{
    TCase *tc = tcase_create("oracle");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, attribution_should_match_the_oracle, 0, (int)N_ORACLE_SETS);
    return tc;
}
