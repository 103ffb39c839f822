#include "config.h"

#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/table.h"
#include "analysis/trust.h"
#include "cli/commands.h"
#include "app/format.h"
#include "app/options.h"
#include "model/model.h"
#include "model/semantics.h"
#include "util/arena.h"
#include "util/err.h"

#include "check_app.h"

/* ---- helpers ---- */

/* Parses a command line given as a NULL-terminated list after "htx". */
static int parse(struct htx_options *o, struct err *e, const char *no_color, ...)
{
    static char *argv[64];
    int argc = 0;
    argv[argc++] = "htx";
    va_list ap;
    va_start(ap, no_color);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL && argc < 63;)
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    htx_options_init(o);
    err_clear(e);
    return htx_options_parse(o, argc, argv, no_color, e);
}

#define PARSE(o, e, ...) parse((o), (e), NULL, __VA_ARGS__, (const char *)NULL)

static void assert_usage_error(int rc, const struct err *e, const char *opt, const char *value)
{
    ck_assert_int_eq(rc, ERR_USAGE);
    ck_assert_int_eq(err_exit_status(rc), 2);
    ck_assert_msg(strstr(e->msg, opt) != NULL, "message '%s' lacks '%s'", e->msg, opt);
    if (value)
        ck_assert_msg(strstr(e->msg, value) != NULL, "message '%s' lacks '%s'", e->msg, value);
}

void capture_open(struct capture *c)
{
    c->buf = NULL;
    c->len = 0;
    c->f = open_memstream(&c->buf, &c->len);
    ck_assert_ptr_nonnull(c->f);
}

const char *capture_close(struct capture *c)
{
    fclose(c->f);
    return c->buf;
}

/* ---- options ---- */

START_TEST(options_should_accept_equals_and_space_forms)
{
    struct htx_options a, b;
    struct err e;
    ck_assert_int_eq(PARSE(&a, &e, "report", "--num-kernels=7", "--format=json", "t/"), 0);
    ck_assert_int_eq(PARSE(&b, &e, "report", "--num-kernels", "7", "--format", "json", "t/"), 0);
    ck_assert_int_eq(a.cmd, HTX_CMD_REPORT);
    ck_assert_int_eq(a.num_kernels, 7);
    ck_assert_int_eq(b.num_kernels, 7);
    ck_assert_int_eq(a.format, HTX_FORMAT_JSON);
    ck_assert_int_eq(b.format, HTX_FORMAT_JSON);
    ck_assert_uint_eq(b.npaths, 1);
    ck_assert_str_eq(b.paths[0], "t/");
    htx_options_fini(&a);
    htx_options_fini(&b);
}
END_TEST

START_TEST(options_should_expand_sort_and_dedupe_rank_lists)
{
    struct htx_options o;
    struct err e;
    ck_assert_int_eq(PARSE(&o, &e, "--rank=5,0,2-4,3", "t"), 0);
    ck_assert(!o.ranks.all);
    ck_assert_uint_eq(o.ranks.n, 5);
    int64_t want[] = {0, 2, 3, 4, 5};
    for (size_t i = 0; i < 5; i++)
        ck_assert_int_eq(o.ranks.v[i], want[i]);
    struct selection s;
    htx_options_selection(&o, &s);
    ck_assert_uint_eq(s.nranks, 5);
    ck_assert_ptr_eq(s.ranks, o.ranks.v);
    ck_assert_uint_eq(s.niterations, 0);
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_reject_bad_lists_naming_option_and_value)
{
    static const char *bad[] = {"", "a", "1-", "-1", "5-2", "1,,2", "1,", "2 ", "0x3",
                                "99999999999999999999"};
    struct htx_options o;
    struct err e;
    char arg[64];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(arg, sizeof arg, "--iteration=%s", bad[i]);
        int rc = PARSE(&o, &e, arg, "t");
        assert_usage_error(rc, &e, "--iteration", bad[i][0] ? bad[i] : "''");
        htx_options_fini(&o);
    }
}
END_TEST

START_TEST(options_should_bound_list_expansion)
{
    struct htx_options o;
    struct err e;
    assert_usage_error(PARSE(&o, &e, "--rank=0-99999999999", "t"), &e, "--rank", "0-99999999999");
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "--rank=0-999999", "t"), 0);
    ck_assert_uint_eq(o.ranks.n, 1000000);
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_parse_windows_with_units)
{
    struct htx_options o;
    struct err e;
    ck_assert_int_eq(PARSE(&o, &e, "--window=1.5us:2ms", "t"), 0);
    ck_assert(o.has_window);
    ck_assert_int_eq(o.window_start, 1500);
    ck_assert_int_eq(o.window_end, 2000000);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "--window", ":500", "t"), 0);
    ck_assert_int_eq(o.window_start, 0);
    ck_assert_int_eq(o.window_end, 500);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "--window=7:", "t"), 0);
    ck_assert_int_eq(o.window_start, 7);
    ck_assert_int_eq(o.window_end, INT64_MAX);
    struct selection s;
    htx_options_selection(&o, &s);
    ck_assert(s.has_window);
    ck_assert_int_eq(s.window_start, 7);
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_reject_bad_windows)
{
    static const char *bad[] = {"5", "5:5", "9:3", "a:b", "1:2:3", "1.5:9", "1:2x", "-1:5"};
    struct htx_options o;
    struct err e;
    char arg[64];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(arg, sizeof arg, "--window=%s", bad[i]);
        assert_usage_error(PARSE(&o, &e, arg, "t"), &e, "--window", bad[i]);
        htx_options_fini(&o);
    }
}
END_TEST

START_TEST(options_should_parse_durations_exactly)
{
    struct err e;
    int64_t ns;
    ck_assert_int_eq(htx_parse_duration_ns("--x", "30", &ns, &e), 0);
    ck_assert_int_eq(ns, 30);
    ck_assert_int_eq(htx_parse_duration_ns("--x", "30us", &ns, &e), 0);
    ck_assert_int_eq(ns, 30000);
    ck_assert_int_eq(htx_parse_duration_ns("--x", "0.000000001s", &ns, &e), 0);
    ck_assert_int_eq(ns, 1);
    ck_assert_int_eq(htx_parse_duration_ns("--x", "2.50ms", &ns, &e), 0);
    ck_assert_int_eq(ns, 2500000);
    ck_assert_int_eq(htx_parse_duration_ns("--x", "1.0000ns", &ns, &e), 0);
    ck_assert_int_eq(ns, 1);
    ck_assert_int_eq(htx_parse_duration_ns("--x", "9223372036854775807", &ns, &e), 0);
    ck_assert_int_eq(ns, INT64_MAX);
    static const char *bad[] = {"", "us", "1.5ns", "1.0001us", ".5us", "5.", "-3", "1e3",
                                "9223372036854775808", "9223372036854776s", "3 us", "3h"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(htx_parse_duration_ns("--x", bad[i], &ns, &e) == ERR_USAGE, "%s", bad[i]);
}
END_TEST

START_TEST(options_should_parse_numbers_strictly)
{
    struct err e;
    int64_t v;
    double d;
    ck_assert_int_eq(htx_parse_int("--n", "12", 1, 100, &v, &e), 0);
    ck_assert_int_eq(v, 12);
    static const char *bad_int[] = {"", " 5", "+5", "5x", "0x10", "101", "0", "1.0"};
    for (size_t i = 0; i < sizeof bad_int / sizeof bad_int[0]; i++)
        ck_assert_msg(htx_parse_int("--n", bad_int[i], 1, 100, &v, &e) == ERR_USAGE, "%s",
                      bad_int[i]);
    ck_assert_int_eq(htx_parse_double("--r", "0.25", 0, 1, &d, &e), 0);
    ck_assert(d == 0.25);
    ck_assert_int_eq(htx_parse_double("--r", ".5", 0, 1, &d, &e), 0);
    static const char *bad_dbl[] = {"", "nan", "inf", "0x1p-2", " 0.5", "1.5", "0.5a", "1e400",
                                    "-0.1"};
    for (size_t i = 0; i < sizeof bad_dbl / sizeof bad_dbl[0]; i++)
        ck_assert_msg(htx_parse_double("--r", bad_dbl[i], 0, 1, &d, &e) == ERR_USAGE, "%s",
                      bad_dbl[i]);
}
END_TEST

START_TEST(options_should_recognise_commands)
{
    struct htx_options o;
    struct err e;
    ck_assert_int_eq(PARSE(&o, &e, "info", "a.json"), 0);
    ck_assert_int_eq(o.cmd, HTX_CMD_INFO);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "counters", "a.json", "b.json"), 0);
    ck_assert_int_eq(o.cmd, HTX_CMD_COUNTERS);
    ck_assert_uint_eq(o.npaths, 2);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "diff", "--report", "base", "test"), 0);
    ck_assert_int_eq(o.cmd, HTX_CMD_DIFF);
    ck_assert(o.diff_report);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "traces/", "--no-mouse"), 0);
    ck_assert_int_eq(o.cmd, HTX_CMD_UI);
    ck_assert(o.no_mouse);
    htx_options_fini(&o);
    /* A command word later on the line is a path. */
    ck_assert_int_eq(PARSE(&o, &e, "x/", "report"), 0);
    ck_assert_int_eq(o.cmd, HTX_CMD_UI);
    ck_assert_uint_eq(o.npaths, 2);
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_check_operands)
{
    struct htx_options o;
    struct err e;
    assert_usage_error(PARSE(&o, &e, "report", "--format=csv"), &e, "missing PATH", NULL);
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "diff", "a"), &e, "CONTROL and TEST", NULL);
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "diff", "a", "b", "c"), &e, "CONTROL and TEST", NULL);
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "report", "--report", "a"), &e, "--report", NULL);
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "info", "--format=csv", "a"), &e, "--format", "csv");
    htx_options_fini(&o);
    ck_assert_int_eq(parse(&o, &e, NULL, (const char *)NULL), ERR_USAGE);
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_reject_unknown_and_malformed_options)
{
    struct htx_options o;
    struct err e;
    assert_usage_error(PARSE(&o, &e, "--frobnicate=3", "t"), &e, "--frobnicate", NULL);
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "-x", "t"), &e, "-x", NULL);
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "--force=1", "t"), &e, "--force", "1");
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "t", "--rank"), &e, "--rank", "missing value");
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "--format=xml", "t"), &e, "--format", "xml");
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "--device=tpu", "t"), &e, "--device", "tpu");
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "--semantics=pandas", "t"), &e, "--semantics", "pandas");
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "--num-kernels=0", "t"), &e, "--num-kernels", "0");
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "--duration-ratio=1.5", "t"), &e, "--duration-ratio", "1.5");
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "--threads=-2", "t"), &e, "--threads", "-2");
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "--operator=", "t"), &e, "--operator", NULL);
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "--include-memory-kernels=maybe", "t"),
                       &e, "--include-memory-kernels", "maybe");
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "--fail-on-regression=-5", "t"), &e,
                       "--fail-on-regression", "-5");
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_let_help_and_version_win)
{
    struct htx_options o;
    struct err e;
    ck_assert_int_eq(PARSE(&o, &e, "report", "--bogus", "--help"), 0);
    ck_assert_int_eq(o.cmd, HTX_CMD_HELP);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "--version"), 0);
    ck_assert_int_eq(o.cmd, HTX_CMD_VERSION);
    htx_options_fini(&o);
    /* After "--" it is a path. */
    ck_assert_int_eq(PARSE(&o, &e, "--", "--help"), 0);
    ck_assert_int_eq(o.cmd, HTX_CMD_UI);
    ck_assert_str_eq(o.paths[0], "--help");
    htx_options_fini(&o);
    ck_assert(strstr(htx_usage(), "--fail-on-regression") != NULL);
}
END_TEST

START_TEST(options_should_honour_no_color)
{
    struct htx_options o;
    struct err e;
    ck_assert_int_eq(parse(&o, &e, "", "t", (const char *)NULL), 0);
    ck_assert(!o.no_color);
    htx_options_fini(&o);
    ck_assert_int_eq(parse(&o, &e, "1", "t", (const char *)NULL), 0);
    ck_assert(o.no_color);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "--no-color", "--ascii", "t"), 0);
    ck_assert(o.no_color);
    ck_assert(o.ascii);
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_parse_analysis_lists)
{
    struct htx_options o;
    struct err e;
    ck_assert_int_eq(PARSE(&o, &e, "report", "t"), 0);
    for (int i = 0; i < ANALYSIS_COUNT; i++)
        ck_assert(o.analyses[i]);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "report", "--analysis=idle,temporal", "t"), 0);
    ck_assert(o.analysis_given);
    for (int i = 0; i < ANALYSIS_COUNT; i++)
        ck_assert(o.analyses[i] == (i == ANALYSIS_IDLE || i == ANALYSIS_TEMPORAL));
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "report", "--analysis=idle,bogus", "t"), &e, "--analysis",
                       "idle,bogus");
    htx_options_fini(&o);
    assert_usage_error(PARSE(&o, &e, "report", "--analysis=idle,", "t"), &e, "--analysis", NULL);
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_choose_last_step_by_semantics)
{
    struct htx_options o;
    struct err e;
    struct semantics s;
    ck_assert_int_eq(PARSE(&o, &e, "t"), 0);
    htx_options_semantics(&o, &s);
    ck_assert(!s.drop_last_step);
    ck_assert(!s.ns_rounding);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "--semantics=hta", "t"), 0);
    htx_options_semantics(&o, &s);
    ck_assert(s.drop_last_step);
    ck_assert(s.ns_rounding);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "--semantics", "hta", "--include-last-step", "t"), 0);
    htx_options_semantics(&o, &s);
    ck_assert(!s.drop_last_step);
    ck_assert(s.hta_kernel_classes);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "--drop-last-step", "t"), 0);
    htx_options_semantics(&o, &s);
    ck_assert(s.drop_last_step);
    ck_assert(!s.hta_kernel_classes);
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_fill_analysis_opts)
{
    struct htx_options o;
    struct err e;
    struct analysis_opts a, def;
    analysis_opts_default(&def);
    ck_assert_int_eq(PARSE(&o, &e, "t"), 0);
    htx_options_analysis(&o, &a);
    ck_assert_int_eq(a.num_kernels, def.num_kernels);
    ck_assert(a.duration_ratio == def.duration_ratio);
    ck_assert(a.include_memory_kernels);
    ck_assert_int_eq(a.consecutive_kernel_delay_ns, 30000);
    ck_assert_str_eq(a.operator_name, def.operator_name);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "--num-kernels=3", "--duration-ratio=0.5",
                           "--no-include-memory-kernels", "--consecutive-kernel-delay=5us",
                           "--operator=aten::mm", "--runtime-cutoff=1ms",
                           "--launch-delay-cutoff=2ms", "--comm-patterns=foo,bar", "t"),
                     0);
    htx_options_analysis(&o, &a);
    ck_assert_int_eq(a.num_kernels, 3);
    ck_assert(a.duration_ratio == 0.5);
    ck_assert(!a.include_memory_kernels);
    ck_assert_int_eq(a.consecutive_kernel_delay_ns, 5000);
    ck_assert_str_eq(a.operator_name, "aten::mm");
    ck_assert_int_eq(a.runtime_cutoff_ns, 1000000);
    ck_assert_int_eq(a.launch_delay_cutoff_ns, 2000000);
    ck_assert_str_eq(a.comm_patterns, "foo,bar");
    ck_assert_ptr_null(a.memory_patterns);
    htx_options_fini(&o);
    ck_assert_int_eq(PARSE(&o, &e, "--include-memory-kernels=no", "t"), 0);
    ck_assert(!o.include_memory_kernels);
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_give_diff_sides_their_own_selection)
{
    struct htx_options o;
    struct err e;
    ck_assert_int_eq(PARSE(&o, &e, "diff", "--rank=1", "--iteration=4",
                           "--test-rank=2-3", "--control-iteration=all", "c", "t"), 0);
    struct selection c, t;
    htx_options_diff_selection(&o, false, &c);
    htx_options_diff_selection(&o, true, &t);
    ck_assert_uint_eq(c.nranks, 1);
    ck_assert_int_eq(c.ranks[0], 1);
    ck_assert_uint_eq(c.niterations, 0);   /* "all" given for control */
    ck_assert_uint_eq(t.nranks, 2);
    ck_assert_int_eq(t.ranks[1], 3);
    ck_assert_uint_eq(t.niterations, 1);
    ck_assert_int_eq(t.iterations[0], 4);
    htx_options_fini(&o);
}
END_TEST

START_TEST(options_should_parse_test_mode_and_diff_options)
{
    struct htx_options o;
    struct err e;
    ck_assert_int_eq(PARSE(&o, &e, "--script", "k.txt", "--dump-screen=out", "--size=30x100",
                           "--fail-on-regression=5%", "--min-duration=2us", "--force",
                           "--threads=3", "--short-names", "--device=gpu", "t"),
                     0);
    ck_assert_str_eq(o.script, "k.txt");
    ck_assert_str_eq(o.dump_screen, "out");
    ck_assert_int_eq(o.rows, 30);
    ck_assert_int_eq(o.cols, 100);
    ck_assert(o.has_fail_on_regression);
    ck_assert(o.fail_on_regression_pct == 5.0);
    ck_assert_int_eq(o.min_duration_ns, 2000);
    ck_assert(o.force && o.short_names);
    ck_assert_int_eq(o.threads, 3);
    ck_assert_int_eq(o.device, HTX_DEVICE_GPU);
    htx_options_fini(&o);
    static const char *bad[] = {"30", "x100", "30x", "0x100", "30x1001", "30x100x2", "ax5"};
    char arg[64];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(arg, sizeof arg, "--size=%s", bad[i]);
        assert_usage_error(PARSE(&o, &e, arg, "t"), &e, "--size", bad[i]);
        htx_options_fini(&o);
    }
}
END_TEST

/* ---- info and report writers over a loaded model ---- */

static const char two_rank_doc0[] =
    "{\"distributedInfo\": {\"rank\": 0, \"world_size\": 2},"
    " \"deviceProperties\": [{\"name\": \"GPU\\u001b[31m\"}],"
    " \"traceEvents\": ["
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"ProfilerStep#5\", \"pid\": 1, \"tid\": 1,"
    " \"ts\": 100, \"dur\": 50},"
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1,"
    " \"tid\": 1, \"ts\": 110, \"dur\": 5, \"args\": {\"correlation\": 3}},"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": 120,"
    " \"dur\": 10, \"args\": {\"correlation\": 3, \"stream\": 7}},"
    "{\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset\", \"pid\": 0, \"tid\": 9,"
    " \"ts\": 131, \"dur\": 1, \"args\": {\"stream\": 9}},"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"ProfilerStep#6\", \"pid\": 1, \"tid\": 1,"
    " \"ts\": 200, \"dur\": 50}]}";
static const char two_rank_doc1[] =
    "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"a\","
    " \"pid\": 1, \"tid\": 1, \"ts\": 90, \"dur\": 20}]}";

static struct model *two_rank_model(void)
{
    const char *names[] = {"job/rank-0.json", "job/rank-1.json"};
    const void *bufs[] = {two_rank_doc0, two_rank_doc1};
    size_t lens[] = {sizeof two_rank_doc0 - 1, sizeof two_rank_doc1 - 1};
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, bufs, lens, 2, &sem, &e);
    ck_assert_msg(m != NULL, "load: %s", e.msg);
    return m;
}

static cJSON *parse_output(const char *out)
{
    cJSON *doc = cJSON_Parse(out);
    ck_assert_msg(doc != NULL, "invalid JSON: %s", out);
    return doc;
}

static double json_num(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    ck_assert_msg(cJSON_IsNumber(v), "%s is not a number", key);
    return v->valuedouble;
}

START_TEST(info_should_write_design_schema_json)
{
    struct model *m = two_rank_model();
    struct htx_options o;
    htx_options_init(&o);
    struct capture c;
    capture_open(&c);
    info_write_json(c.f, m, &o);
    cJSON *doc = parse_output(capture_close(&c));
    cJSON *inputs = cJSON_GetObjectItemCaseSensitive(doc, "inputs");
    ck_assert_int_eq(cJSON_GetArraySize(inputs), 2);
    cJSON *r0 = cJSON_GetArrayItem(inputs, 0);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(r0, "path")->valuestring, "job/rank-0.json");
    ck_assert(json_num(r0, "rank") == 0);
    ck_assert(json_num(r0, "world_size") == 2);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(r0, "device")->valuestring, "CUDA");
    ck_assert(json_num(r0, "events") == 5);
    ck_assert(json_num(r0, "kernels") == 1);
    ck_assert(json_num(r0, "memset") == 1);
    ck_assert(json_num(r0, "memcpy") == 0);
    ck_assert(json_num(r0, "runtime") == 1);
    ck_assert(json_num(r0, "cpu_ops") == 2);
    cJSON *streams = cJSON_GetObjectItemCaseSensitive(r0, "streams");
    ck_assert_int_eq(cJSON_GetArraySize(streams), 2);
    ck_assert(cJSON_GetArrayItem(streams, 0)->valuedouble == 7);
    ck_assert(cJSON_GetArrayItem(streams, 1)->valuedouble == 9);
    cJSON *iters = cJSON_GetObjectItemCaseSensitive(r0, "iterations");
    ck_assert_int_eq(cJSON_GetArraySize(iters), 2);
    ck_assert(cJSON_GetArrayItem(iters, 0)->valuedouble == 5);
    /* Time 0 is the earliest event of any rank: rank 1's annotation at 90 us. */
    ck_assert(json_num(r0, "start_ns") == 10000);
    ck_assert(json_num(r0, "end_ns") == 160000);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(r0, "device_name")->valuestring,
                     "GPU\x1b[31m");
    cJSON *r1 = cJSON_GetArrayItem(inputs, 1);
    ck_assert(json_num(r1, "rank") == 1);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r1, "world_size")));
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(r1, "device")->valuestring, "CPU");
    ck_assert(json_num(r1, "user_annotations") == 1);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(r1, "rank_source")->valuestring,
                     "file name");
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(doc, "failed"));
    cJSON_Delete(doc);
    free(c.buf);
    model_free(m);
}
END_TEST

START_TEST(info_should_escape_text_and_compress_ranges)
{
    struct model *m = two_rank_model();
    struct htx_options o;
    htx_options_init(&o);
    int64_t one = 0;
    struct htx_int_list only0 = {&one, 1, false, true};
    o.ranks = only0;
    struct capture c;
    capture_open(&c);
    info_write_text(c.f, m, &o);
    const char *out = capture_close(&c);
    ck_assert_ptr_null(strchr(out, 0x1b));
    ck_assert_ptr_nonnull(strstr(out, "CUDA (GPU\\x1B[31m)"));
    ck_assert_ptr_nonnull(strstr(out, "iterations             5, 6\n"));
    ck_assert_ptr_null(strstr(out, "rank 1"));
    free(c.buf);
    model_free(m);
}
END_TEST

START_TEST(report_should_write_tables_notes_and_inputs)
{
    struct model *m = two_rank_model();
    struct htx_options o;
    htx_options_init(&o);
    o.format = HTX_FORMAT_JSON;
    o.semantics = SEMANTICS_HTA;
    struct arena a;
    arena_init(&a, 4096);
    struct table_list lists[2] = {{{NULL}, 0}, {{NULL}, 0}};
    table_list_add(&lists[0], sample_table(&a));
    static const struct table_col cols[] = {{"rank", NULL, COL_KEY}};
    struct table *empty = table_new(&a, "empty_table", "Empty", cols, 1);
    table_set_note(empty, "nothing \"here\"");
    table_list_add(&lists[1], empty);
    struct format_opts fo;
    format_opts_default(&fo);
    struct capture c;
    capture_open(&c);
    ck_assert_int_eq(report_write(c.f, m, &o, lists, 2, &fo), 0);
    cJSON *doc = parse_output(capture_close(&c));
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(doc, "htx_version")->valuestring,
                     PACKAGE_VERSION);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(doc, "semantics")->valuestring, "hta");
    cJSON *inputs = cJSON_GetObjectItemCaseSensitive(doc, "inputs");
    ck_assert_int_eq(cJSON_GetArraySize(inputs), 2);
    cJSON *in1 = cJSON_GetArrayItem(inputs, 1);
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(in1, "file")->valuestring, "rank-1.json");
    ck_assert(json_num(in1, "events") == 1);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "sample")), 2);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "empty_table")), 0);
    cJSON *notes = cJSON_GetObjectItemCaseSensitive(doc, "notes");
    ck_assert_str_eq(cJSON_GetObjectItemCaseSensitive(notes, "empty_table")->valuestring,
                     "nothing \"here\"");
    cJSON_Delete(doc);
    free(c.buf);

    o.format = HTX_FORMAT_CSV;
    capture_open(&c);
    ck_assert_int_eq(report_write(c.f, m, &o, lists, 2, &fo), 0);
    const char *csv = capture_close(&c);
    ck_assert_ptr_eq(strstr(csv, "# sample\r\nname,"), csv);
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\r\n# empty_table\r\nrank\r\n"));
    free(c.buf);
    arena_fini(&a);
    model_free(m);
}
END_TEST

/* The report as the tables come: a table given to report_add can be freed
 * at once, a lone CSV table has no "# name" line, a deferred table goes
 * after every other and the JSON notes come last whatever came in between. */
START_TEST(report_writer_should_stream_tables_in_order)
{
    struct model *m = two_rank_model();
    struct report_inputs in;
    struct trust_report trust;
    ck_assert_int_eq(report_inputs_of(m, &in, &trust), 0);
    struct htx_options o;
    htx_options_init(&o);
    struct format_opts fo;
    format_opts_default(&fo);
    struct capture c;
    struct report_writer rw;
    static const struct table_col cols[] = {{"rank", NULL, COL_KEY}};
    for (int lone = 1; lone >= 0; lone--) {
        o.format = HTX_FORMAT_CSV;
        capture_open(&c);
        report_begin(&rw, c.f, &in, &o, &fo);
        for (int k = 0; k < 2 - lone; k++) {
            struct arena a;   /* freed before the writer has written it */
            arena_init(&a, 0);
            struct table *t = table_new(&a, k ? "second" : "first", NULL, cols, 1);
            table_add_row(t)[0] = cell_int(k);
            ck_assert_int_eq(report_add(&rw, t), 0);
            arena_fini(&a);
        }
        ck_assert_int_eq(report_end(&rw), 0);
        ck_assert_str_eq(capture_close(&c), lone ? "rank\r\n0\r\n"
                         : "# first\r\nrank\r\n0\r\n\r\n# second\r\nrank\r\n1\r\n");
        free(c.buf);
    }
    struct arena a;
    arena_init(&a, 0);
    struct table *later = table_new(&a, "later", "Later", cols, 1);
    struct table *now = table_new(&a, "now", "Now", cols, 1);
    table_set_note(later, "deferred");
    table_set_note(now, "first");
    for (int json = 0; json < 2; json++) {
        o.format = json ? HTX_FORMAT_JSON : HTX_FORMAT_TEXT;
        capture_open(&c);
        report_begin(&rw, c.f, &in, &o, &fo);
        ck_assert_int_eq(report_defer(&rw, later), 0);
        ck_assert_int_eq(report_add(&rw, now), 0);
        ck_assert_int_eq(report_end(&rw), 0);
        const char *text = capture_close(&c);
        const char *a_now = strstr(text, json ? "\"now\"" : "Now");
        const char *a_later = strstr(text, json ? "\"later\"" : "Later");
        ck_assert_ptr_nonnull(a_now);
        ck_assert_ptr_nonnull(a_later);
        ck_assert((a_now) < (a_later));
        if (json) {
            const char *notes = strstr(text, "\"notes\"");
            ck_assert_ptr_nonnull(notes);
            ck_assert((a_later) < (notes));
            ck_assert_ptr_nonnull(strstr(notes, "\"now\": \"first\""));
            ck_assert_ptr_nonnull(strstr(notes, "\"later\": \"deferred\""));
        }
        free(c.buf);
    }
    arena_fini(&a);
    free((void *)in.ranks);
    model_free(m);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("app");
    TCase *opts = tcase_create("options");
    tcase_add_test(opts, options_should_accept_equals_and_space_forms);
    tcase_add_test(opts, options_should_expand_sort_and_dedupe_rank_lists);
    tcase_add_test(opts, options_should_reject_bad_lists_naming_option_and_value);
    tcase_add_test(opts, options_should_bound_list_expansion);
    tcase_add_test(opts, options_should_parse_windows_with_units);
    tcase_add_test(opts, options_should_reject_bad_windows);
    tcase_add_test(opts, options_should_parse_durations_exactly);
    tcase_add_test(opts, options_should_parse_numbers_strictly);
    tcase_add_test(opts, options_should_recognise_commands);
    tcase_add_test(opts, options_should_check_operands);
    tcase_add_test(opts, options_should_reject_unknown_and_malformed_options);
    tcase_add_test(opts, options_should_let_help_and_version_win);
    tcase_add_test(opts, options_should_honour_no_color);
    tcase_add_test(opts, options_should_parse_analysis_lists);
    tcase_add_test(opts, options_should_choose_last_step_by_semantics);
    tcase_add_test(opts, options_should_fill_analysis_opts);
    tcase_add_test(opts, options_should_give_diff_sides_their_own_selection);
    tcase_add_test(opts, options_should_parse_test_mode_and_diff_options);
    suite_add_tcase(s, opts);
    TCase *cmd = tcase_create("commands");
    tcase_add_test(cmd, info_should_write_design_schema_json);
    tcase_add_test(cmd, info_should_escape_text_and_compress_ranges);
    tcase_add_test(cmd, report_should_write_tables_notes_and_inputs);
    tcase_add_test(cmd, report_writer_should_stream_tables_in_order);
    suite_add_tcase(s, cmd);
    SRunner *sr = srunner_create(s);
    srunner_add_suite(sr, cli_format_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
