#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "breakdown_test.h"
#include "oracle_compare.h"

/* The breakdown analyses against HTA's own outputs (../shared/oracle), run
 * with --semantics=hta on the matching traces (one loop test per set, so
 * each set is loaded once). */

/* The comparator itself must see every kind of difference. */
START_TEST(oracle_compare_should_report_mismatches)
{
    static const char frame_json[] =
        "{\"result\": {\"__type__\": \"DataFrame\", \"shape\": [2, 3], \"split\": {"
        "\"columns\": [\"rank\", \"queue_length|mean\", \"name\"],"
        "\"index\": [\"host_wait\", \"other\"],"
        "\"data\": [[0, 1.5, \"a\"], [1, null, \"b\"]]}}}";
    static const struct table_col cols[] = {
        {"rank", NULL, 0}, {"mean", NULL, 0}, {"name", NULL, 0}, {"idle_category", NULL, 0}};
    cJSON *doc = cJSON_Parse(frame_json);
    ck_assert_ptr_nonnull(doc);
    const cJSON *frame = oracle_frame(doc, NULL);
    ck_assert_ptr_nonnull(frame);
    struct table *t = table_new(&bd_scratch, "t", NULL, cols, 4);
    for (int r = 0; r < 2; r++) {
        struct cell *row = table_add_row(t);
        row[0] = cell_int(r);
        row[1] = cell_double(r ? NAN : 1.5000001);
        row[2] = cell_str(t, r ? "b" : "a");
        row[3] = cell_str(t, r ? "other" : "host_wait");
    }
    const char *idx = "idle_category";
    char msg[512];
    ck_assert_int_eq(oracle_compare(frame, t, &idx, 1, 1e-3, msg, sizeof msg), 0);
    table_cell(t, 0, 1)->v.d = 1.6;                  /* a number off */
    table_cell(t, 1, 2)->v.s = "c";                  /* a string off */
    table_cell(t, 1, 1)->v.d = 0.0;                  /* null expected */
    table_cell(t, 1, 3)->v.s = "kernel_wait";        /* index off */
    ck_assert_int_eq(oracle_compare(frame, t, &idx, 1, 1e-3, msg, sizeof msg), 4);
    ck_assert_ptr_nonnull(strstr(msg, "want 1.5"));
    t->nrows = 1;                                    /* a row missing */
    ck_assert_int_ge(oracle_compare(frame, t, NULL, 0, 1e-3, msg, sizeof msg), 1);
    ck_assert_ptr_nonnull(strstr(msg, "want 2 rows"));
    cJSON_Delete(doc);
}
END_TEST

static const char *const oracle_sets[] = {
    "amd_mi250", "cpu_only", "nccl", "rank_non_gpu", "two_ranks",
    "diff_small/control", "diff_small/test", "diff/control", "diff/test",
};
#define N_ORACLE_SETS (sizeof oracle_sets / sizeof oracle_sets[0])

struct oracle_ctx {
    const char *set;
    char dir[1024];
    cJSON *manifest;
    struct model *m;
    char failures[4096];
    size_t flen;
    int matched, failed;
};

static void fail_note(struct oracle_ctx *c, const char *what, const char *msg)
{
    c->failed++;
    int n = snprintf(c->failures + c->flen, sizeof c->failures - c->flen, "[%s %s] %s\n",
                     c->set, what, msg);
    if (n > 0)
        c->flen = c->flen + (size_t)n < sizeof c->failures ? c->flen + (size_t)n
                                                           : sizeof c->failures - 1;
}

/* Compares one table with file[.key]; index_col names the DataFrame index. */
static void compare_file(struct oracle_ctx *c, const char *file, const char *key,
                         const struct table *t, const char *index_col)
{
    char path[1200], msg[2048];
    snprintf(path, sizeof path, "%s/%s", c->dir, file);
    cJSON *doc = oracle_load(path, msg, sizeof msg);
    const cJSON *frame = doc ? oracle_frame(doc, key) : NULL;
    if (!frame)
        fail_note(c, file, doc ? "no DataFrame" : msg);
    else if (oracle_compare(frame, t, &index_col, index_col ? 1 : 0, 1e-3, msg, sizeof msg))
        fail_note(c, file, msg);
    else
        c->matched++;
    cJSON_Delete(doc);
}

static struct table *run_checked(struct oracle_ctx *c, analysis_fn fn,
                                 const struct analysis_opts *o, const char *name)
{
    struct table_list out = {{NULL}, 0};
    struct err e = {0, ""};
    if (fn(c->m, o, &bd_scratch, &out, &e) != 0) {
        fail_note(c, name, e.msg);
        return NULL;
    }
    for (size_t i = 0; i < out.count; i++)
        if (strcmp(out.tables[i]->name, name) == 0)
            return out.tables[i];
    fail_note(c, name, "table missing");
    return NULL;
}

/* Where HTA raised, we must succeed with a note for what is missing. */
static void expect_graceful(struct oracle_ctx *c, const char *what, const struct table *t)
{
    if (t && t->note)
        c->matched++;
    else if (t)
        fail_note(c, what, "HTA raised here; expected a note");
}

static void oracle_temporal(struct oracle_ctx *c, const struct analysis_opts *o)
{
    const char *st = oracle_status(c->manifest, "temporal_breakdown");
    struct table *t = run_checked(c, temporal_run, o, "temporal_breakdown");
    if (!st || !t)
        return;
    if (strcmp(st, "ok") == 0)
        compare_file(c, "temporal_breakdown.json", NULL, t, NULL);
    else
        expect_graceful(c, "temporal_breakdown", t);
}

static void oracle_kernels(struct oracle_ctx *c, const struct analysis_opts *def, bool mem)
{
    const char *file = mem ? "gpu_kernel_breakdown_mem1.json" : "gpu_kernel_breakdown_mem0.json";
    const char *st = oracle_status(c->manifest, mem ? "gpu_kernel_breakdown_mem1"
                                                    : "gpu_kernel_breakdown_mem0");
    struct analysis_opts o = *def;
    o.include_memory_kernels = mem;
    if (!st || strcmp(st, "ok") != 0)
        return;
    struct table *types = run_checked(c, kernels_run, &o, "kernel_type_breakdown");
    struct table *kernels = run_checked(c, kernels_run, &o, "kernel_breakdown");
    if (types)
        compare_file(c, file, "kernel_type_df", types, NULL);
    if (kernels)
        compare_file(c, file, "kernel_df", kernels, NULL);
}

static void oracle_overlap(struct oracle_ctx *c, const struct analysis_opts *o)
{
    const char *st = oracle_status(c->manifest, "comm_comp_overlap");
    struct table *t = run_checked(c, overlap_run, o, "comm_comp_overlap");
    if (st && t && strcmp(st, "ok") == 0)
        compare_file(c, "comm_comp_overlap.json", NULL, t, NULL);
}

static void oracle_idle_rank(struct oracle_ctx *c, const struct analysis_opts *o, int64_t rank,
                             const char *status)
{
    struct selection sel = {.ranks = &rank, .nranks = 1};
    struct err e = {0, ""};
    if (model_select(c->m, &sel, &e) != 0) {
        fail_note(c, "idle", e.msg);
        return;
    }
    struct table *times = run_checked(c, idle_run, o, "idle_time_breakdown");
    struct table *stats = run_checked(c, idle_run, o, "idle_interval_stats");
    char file[64];
    snprintf(file, sizeof file, "idle_time_breakdown_rank%lld.json", (long long)rank);
    if (strcmp(status, "ok") == 0) {
        if (times)
            compare_file(c, file, "idle_time_df", times, NULL);
        if (stats)
            compare_file(c, file, "interval_stats_df", stats, "idle_category");
    } else {
        expect_graceful(c, file, times);
    }
    model_select(c->m, NULL, &e);
}

static void oracle_idle(struct oracle_ctx *c, const struct analysis_opts *o)
{
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(c->manifest, "entries");
    const cJSON *en;
    static const char prefix[] = "idle_time_breakdown_rank";
    cJSON_ArrayForEach(en, entries) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(en, "analysis");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(en, "status");
        if (cJSON_IsString(a) && cJSON_IsString(s) &&
            strncmp(a->valuestring, prefix, sizeof prefix - 1) == 0)
            oracle_idle_rank(c, o, strtoll(a->valuestring + sizeof prefix - 1, NULL, 10),
                             s->valuestring);
    }
}

static bool oracle_open(struct oracle_ctx *c, size_t i)
{
    char root[512], traces[512], path[1200], msg[256];
    memset(c, 0, sizeof *c);
    c->set = oracle_sets[i];
    if (!oracle_root(root, sizeof root) || !oracle_traces_root(traces, sizeof traces)) {
        printf("../shared not found: skipping oracle %s\n", c->set);
        return false;
    }
    snprintf(c->dir, sizeof c->dir, "%s/%s", root, c->set);
    snprintf(path, sizeof path, "%s/manifest.json", c->dir);
    c->manifest = oracle_load(path, msg, sizeof msg);
    ck_assert_msg(c->manifest != NULL, "%s", msg);
    snprintf(path, sizeof path, "%s/%s", traces, c->set);
    const char *paths[] = {path};
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTA);
    struct err e = {0, ""};
    c->m = model_load(paths, 1, &sem, NULL, &e);
    ck_assert_msg(c->m != NULL, "%s: %s", path, e.msg);
    return true;
}

START_TEST(breakdowns_should_match_the_oracle)
{
    struct oracle_ctx c;
    if (!oracle_open(&c, (size_t)_i))
        return;
    struct analysis_opts o;
    analysis_opts_default(&o);
    oracle_temporal(&c, &o);
    oracle_kernels(&c, &o, true);
    oracle_kernels(&c, &o, false);
    oracle_overlap(&c, &o);
    oracle_idle(&c, &o);
    printf("oracle %-20s %d matched, %d failed\n", c.set, c.matched, c.failed);
    model_free(c.m);
    cJSON_Delete(c.manifest);
    ck_assert_msg(c.failed == 0, "%s", c.failures);
    ck_assert_int_gt(c.matched, 0);
}
END_TEST

TCase *breakdown_oracle_tcase(void)
{
    TCase *tc = tcase_create("oracle");
    tcase_add_checked_fixture(tc, bd_setup, bd_teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, oracle_compare_should_report_mismatches);
    tcase_add_loop_test(tc, breakdowns_should_match_the_oracle, 0, (int)N_ORACLE_SETS);
    return tc;
}
