#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/oracle_compare.h"
#include "util/arena.h"
#include "../memcheck.h"

/* End to end: `htx report --semantics=hta --format=json` on every trace set
 * of ../shared/traces must reproduce HTA's own outputs in ../shared/oracle.
 * The analyses' own suites check the library; this checks what a user gets
 * from the command line (options, selection, JSON writer) the same way. */

static struct arena scratch;

static const char *const sets[] = {
    "amd_mi250", "cpu_only", "nccl", "rank_non_gpu", "two_ranks",
    "diff_small/control", "diff_small/test", "diff/control", "diff/test",
};

/* Runs htx and returns its JSON output parsed, or NULL (msg says why). */
static cJSON *run_report(const char *trace_dir, const char *extra, char *msg, size_t msgsz)
{
    const char *htx = getenv("HTX");
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%.2000s' report --semantics=hta --format=json %.500s '%.2000s'",
             htx ? htx : "src/htx", extra, trace_dir);
    FILE *p = popen(cmd, "r");
    if (!p) {
        snprintf(msg, msgsz, "cannot run %.300s", cmd);
        return NULL;
    }
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (cap - n < 2) {
            char *grown = realloc(buf, cap * 2);
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
    }
    int status = pclose(p);
    if (!buf)
        return NULL;
    buf[n] = '\0';
    cJSON *doc = status == 0 ? cJSON_Parse(buf) : NULL;
    if (!doc)
        snprintf(msg, msgsz, "%.300s: exit status %d, output %.200s", cmd, status, buf);
    free(buf);
    return doc;
}

/* Rebuilds a struct table from the report's array of row objects. */
static struct table *table_from_rows(const cJSON *rows, const char *name)
{
    const cJSON *first = cJSON_GetArrayItem(rows, 0);
    struct table_col cols[64];
    size_t ncols = 0;
    const cJSON *f;
    cJSON_ArrayForEach(f, first) {
        if (ncols < 64)
            cols[ncols++] = (struct table_col){f->string, NULL, 0};
    }
    struct table *t = table_new(&scratch, name, NULL, cols, ncols);
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
        struct cell *c = table_add_row(t);
        for (size_t i = 0; i < ncols; i++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, cols[i].name);
            if (cJSON_IsNumber(v))
                c[i] = cell_double(v->valuedouble);
            else if (cJSON_IsString(v))
                c[i] = cell_str(t, v->valuestring);
            else if (cJSON_IsBool(v))
                c[i] = cell_bool(cJSON_IsTrue(v));
            else
                c[i] = cell_null();
        }
    }
    return t;
}

struct set_ctx {
    char traces[2048], oracle[2048];
    cJSON *manifest;
    int compared, failed;
    char failures[8192];
    size_t flen;
};

static void note_failure(struct set_ctx *c, const char *what, const char *msg)
{
    c->failed++;
    int n = snprintf(c->failures + c->flen, sizeof c->failures - c->flen, "[%s] %s\n", what, msg);
    if (n > 0 && c->flen + (size_t)n < sizeof c->failures)
        c->flen += (size_t)n;
}

/* Compares oracle file[.key] with the report's table `name` (run with extra
 * options). index_cols name the DataFrame's index levels. HTA exceptions and
 * None results only require a successful run with the table present. */
static void check_table(struct set_ctx *c, const char *analysis, const char *file,
                        const char *key, const char *extra, const char *name,
                        const char *const *index_cols, size_t nindex)
{
    const char *status = oracle_status(c->manifest, analysis);
    if (!status || strcmp(status, "skipped") == 0)
        return;
    char msg[2048];
    cJSON *report = run_report(c->traces, extra, msg, sizeof msg);
    if (!report) {
        note_failure(c, analysis, msg);
        return;
    }
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(report, name);
    if (!cJSON_IsArray(rows)) {
        note_failure(c, analysis, "table missing from the report");
    } else if (strcmp(status, "ok") == 0) {
        char path[2300];
        snprintf(path, sizeof path, "%s/%s", c->oracle, file);
        cJSON *doc = oracle_load(path, msg, sizeof msg);
        const cJSON *frame = doc ? oracle_frame(doc, key) : NULL;
        const cJSON *data = frame ? cJSON_GetObjectItem(cJSON_GetObjectItem(frame, "split"), "data")
                                  : NULL;
        if (!frame)
            note_failure(c, file, doc ? "no DataFrame" : msg);
        else if (cJSON_GetArraySize(rows) == 0 && cJSON_GetArraySize(data) != 0)
            note_failure(c, file, "the report's table is empty, HTA's is not");
        else if (cJSON_GetArraySize(rows) == 0)
            ;   /* both empty: JSON carries no column names for an empty table */
        else if (oracle_compare(frame, table_from_rows(rows, name), index_cols, nindex, 1e-3,
                                msg, sizeof msg))
            note_failure(c, file, msg);
        cJSON_Delete(doc);
    }
    c->compared++;
    cJSON_Delete(report);
}

/* The operator of a _fallback call is in its params. */
static void check_sequences(struct set_ctx *c, int rank, bool fallback)
{
    char analysis[96], file[128], path[2300], msg[512], extra[512];
    snprintf(analysis, sizeof analysis, "frequent_cuda_kernel_sequences_rank%d%s", rank,
             fallback ? "_fallback" : "");
    snprintf(file, sizeof file, "%.96s.json", analysis);
    snprintf(path, sizeof path, "%s/%s", c->oracle, file);
    cJSON *doc = oracle_load(path, msg, sizeof msg);
    const cJSON *op = doc ? cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "params"), "operator_name")
                          : NULL;
    if (cJSON_IsString(op)) {
        snprintf(extra, sizeof extra, "--analysis=sequences --rank=%d --operator='%.300s'", rank,
                 op->valuestring);
        check_table(c, analysis, file, NULL, extra, "frequent_kernel_sequences", NULL, 0);
    }
    cJSON_Delete(doc);
}

static void check_per_rank(struct set_ctx *c, const cJSON *ranks)
{
    const cJSON *r;
    cJSON_ArrayForEach(r, ranks) {
        int rank = (int)r->valuedouble;
        char analysis[96], file[128], extra[128], key[16];
        snprintf(analysis, sizeof analysis, "idle_time_breakdown_rank%d", rank);
        snprintf(file, sizeof file, "%.96s.json", analysis);
        snprintf(extra, sizeof extra, "--analysis=idle --rank=%d", rank);
        check_table(c, analysis, file, "idle_time_df", extra, "idle_time_breakdown", NULL, 0);
        const char *cat = "idle_category";
        check_table(c, analysis, file, "interval_stats_df", extra, "idle_interval_stats", &cat, 1);
        snprintf(analysis, sizeof analysis, "cuda_kernel_launch_stats_rank%d", rank);
        snprintf(file, sizeof file, "%.96s.json", analysis);
        snprintf(extra, sizeof extra, "--analysis=launch --rank=%d", rank);
        snprintf(key, sizeof key, "%d", rank);
        check_table(c, analysis, file, key, extra, "cuda_kernel_launch_stats", NULL, 0);
        check_sequences(c, rank, false);
        check_sequences(c, rank, true);
    }
}

START_TEST(report_should_match_hta_on_every_trace_set)
{
    const char *set = sets[_i];
    char root[1024], troot[1024], msg[512];
    if (!oracle_root(root, sizeof root) || !oracle_traces_root(troot, sizeof troot)) {
        printf("../shared not found: skipping the report oracle test of %s\n", set);
        return;
    }
    struct set_ctx c = {0};
    snprintf(c.traces, sizeof c.traces, "%s/%s", troot, set);
    snprintf(c.oracle, sizeof c.oracle, "%s/%s", root, set);
    char path[2300];
    snprintf(path, sizeof path, "%s/manifest.json", c.oracle);
    c.manifest = oracle_load(path, msg, sizeof msg);
    ck_assert_msg(c.manifest != NULL, "%s", msg);
    snprintf(path, sizeof path, "%s/trace_info.json", c.oracle);
    cJSON *info = oracle_load(path, msg, sizeof msg);
    ck_assert_msg(info != NULL, "%s", msg);
    const cJSON *ranks = cJSON_GetObjectItem(cJSON_GetObjectItem(info, "result"), "ranks");

    check_table(&c, "temporal_breakdown", "temporal_breakdown.json", NULL,
                "--analysis=temporal", "temporal_breakdown", NULL, 0);
    check_table(&c, "gpu_kernel_breakdown_mem1", "gpu_kernel_breakdown_mem1.json",
                "kernel_type_df", "--analysis=kernels", "kernel_type_breakdown", NULL, 0);
    check_table(&c, "gpu_kernel_breakdown_mem1", "gpu_kernel_breakdown_mem1.json", "kernel_df",
                "--analysis=kernels", "kernel_breakdown", NULL, 0);
    check_table(&c, "gpu_kernel_breakdown_mem0", "gpu_kernel_breakdown_mem0.json", "kernel_df",
                "--analysis=kernels --no-include-memory-kernels", "kernel_breakdown", NULL, 0);
    check_table(&c, "comm_comp_overlap", "comm_comp_overlap.json", NULL, "--analysis=overlap",
                "comm_comp_overlap", NULL, 0);
    const char *qidx[] = {"rank", "stream"}, *midx[] = {"rank", "name"};
    check_table(&c, "queue_length_summary", "queue_length_summary.json", NULL,
                "--analysis=queue", "queue_length_summary", qidx, 2);
    check_table(&c, "memory_bw_summary", "memory_bw_summary.json", NULL, "--analysis=membw",
                "memory_bw_summary", midx, 2);
    check_per_rank(&c, ranks);
    cJSON_Delete(info);
    cJSON_Delete(c.manifest);
    printf("%s: %d report tables compared with HTA, %d failed\n", set, c.compared, c.failed);
    ck_assert_msg(c.failed == 0, "%s", c.failures);
    ck_assert_int_gt(c.compared, 0);
}
END_TEST

int main(void)
{
    arena_init(&scratch, 1 << 20);
    Suite *s = suite_create("report_oracle");
    TCase *tc = tcase_create("sets");
    tcase_set_timeout(tc, 300);
    tcase_add_large_loop_test(tc, report_should_match_hta_on_every_trace_set, 0,
                        (int)(sizeof sets / sizeof sets[0]));
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    arena_fini(&scratch);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
