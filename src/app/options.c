#include "config.h"
#include "app/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

/* One table of every long option: its name, whether it takes a value, and
 * the function that stores it. "--opt=value" and "--opt value" are the same;
 * a flag given a value, or an option missing one, is a usage error.
 *
 * Why not getopt_long: it permutes argv and prints its own messages to
 * stderr, while htx needs a command word first ("htx diff --report A B"),
 * options after paths, messages naming the option in htx's own format and
 * exit status 2, and no global state (the option parser is unit-tested
 * over many argv's in one process, where getopt's optind would leak). */

enum arg_kind { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

typedef int (*opt_apply_fn)(struct htx_options *o, const char *what, const char *val,
                            struct err *e);

struct opt_spec {
    const char *name;      /* without the leading "--" */
    enum arg_kind arg;
    opt_apply_fn apply;
};

static int bad_choice(struct err *e, const char *what, const char *val, const char *choices)
{
    return err_set(e, ERR_USAGE, "%s: bad value '%s': expected one of %s", what, val, choices);
}

static int non_empty(struct err *e, const char *what, const char *val)
{
    if (val[0] != '\0')
        return 0;
    return err_set(e, ERR_USAGE, "%s: bad value '': expected a non-empty text", what);
}

static int set_rank(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    return htx_parse_int_list(w, v, &o->ranks, e);
}

static int set_iteration(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    return htx_parse_int_list(w, v, &o->iterations, e);
}

static int set_control_rank(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    return htx_parse_int_list(w, v, &o->control_ranks, e);
}

static int set_test_rank(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    return htx_parse_int_list(w, v, &o->test_ranks, e);
}

static int set_control_iter(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    return htx_parse_int_list(w, v, &o->control_iterations, e);
}

static int set_test_iter(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    return htx_parse_int_list(w, v, &o->test_iterations, e);
}

static int set_window(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    if (htx_parse_window(w, v, &o->window_start, &o->window_end, e) < 0)
        return ERR_USAGE;
    o->has_window = true;
    return 0;
}

static int set_analysis_item(struct htx_options *o, const char *w, const char *all,
                             const char *item, size_t len, struct err *e)
{
    if (len == 3 && strncmp(item, "all", 3) == 0) {
        for (int i = 0; i < ANALYSIS_COUNT; i++)
            o->analyses[i] = true;
        return 0;
    }
    char name[32];
    const struct analysis_info *info = NULL;
    if (len < sizeof name) {
        memcpy(name, item, len);
        name[len] = '\0';
        info = analysis_find(name);
    }
    if (info) {
        o->analyses[info->id] = true;
        return 0;
    }
    return err_set(e, ERR_USAGE,
                   "%s: bad value '%s': expected a list of temporal, kernels, idle, overlap, "
                   "launch, queue, membw, annotations, sequences or all",
                   w, all);
}

static int set_analysis(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    memset(o->analyses, 0, sizeof o->analyses);
    o->analysis_given = true;
    const char *p = v;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (set_analysis_item(o, w, v, p, len, e) < 0)
            return ERR_USAGE;
        if (!comma)
            return 0;
        p = comma + 1;
    }
}

/* The index of v among the three names of an enumerated option (in the
 * enum's order), or -1 after setting e with the choices. */
static int choose3(const char *const names[3], const char *w, const char *v, struct err *e)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(v, names[i]) == 0)
            return i;
    char choices[64];
    snprintf(choices, sizeof choices, "%s, %s, %s", names[0], names[1], names[2]);
    bad_choice(e, w, v, choices);
    return -1;
}

static int set_format(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    static const char *const names[] = {"text", "csv", "json"};
    int i = choose3(names, w, v, e);
    if (i < 0)
        return ERR_USAGE;
    o->format = (enum htx_format)i;
    o->format_given = true;
    return 0;
}

static int set_device(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    static const char *const names[] = {"all", "cpu", "gpu"};
    int i = choose3(names, w, v, e);
    if (i >= 0)
        o->device = (enum htx_device)i;
    return i < 0 ? ERR_USAGE : 0;
}

static int set_events(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    static const char *const names[] = {"auto", "load", "skip"};
    int i = choose3(names, w, v, e);
    if (i >= 0)
        o->events = (enum htx_events)i;
    return i < 0 ? ERR_USAGE : 0;
}

static int set_diff_sort(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    if (strcmp(v, "name") != 0 && strcmp(v, "delta") != 0)
        return bad_choice(e, w, v, "name, delta");
    o->diff_sort_delta = strcmp(v, "delta") == 0;
    o->diff_sort_given = true;
    return 0;
}

/* --view: the TUI's first view, by its key or its tab name. */
static int set_view(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    static const struct {
        char key;
        const char *name;
    } views[] = {
        {'1', "timeline"},  {'2', "overview"},    {'3', "kernels"},     {'4', "idle"},
        {'5', "overlap"},   {'6', "launch"},      {'7', "annotations"}, {'8', "counters"},
        {'9', "sequences"}, {'R', "ranks"},       {'C', "collectives"}, {'i', "diagnostics"},
        {'!', "findings"},  {'d', "diff"},
    };
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
        if ((v[0] == views[i].key && v[1] == 0) || strcmp(v, views[i].name) == 0) {
            o->start_view = views[i].key;
            return 0;
        }
    return bad_choice(e, w, v,
                      "1-9, R, C, i, !, d, or timeline, overview, kernels, idle, overlap, "
                      "launch, annotations, counters, sequences, ranks, collectives, diagnostics, "
                      "findings, diff");
}

static int set_diff_top(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    return htx_parse_int(w, v, 1, 1000000000, &o->diff_top, e) < 0 ? ERR_USAGE : 0;
}

static int set_semantics(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    if (strcmp(v, "htx") == 0)
        o->semantics = SEMANTICS_HTX;
    else if (strcmp(v, "hta") == 0)
        o->semantics = SEMANTICS_HTA;
    else
        return bad_choice(e, w, v, "htx, hta");
    return 0;
}

static int set_align(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    if (strcmp(v, "none") != 0 && strcmp(v, "collectives") != 0)
        return bad_choice(e, w, v, "none, collectives");
    o->align_collectives = strcmp(v, "collectives") == 0;
    return 0;
}

static int set_annotation_stack(struct htx_options *o, const char *w, const char *v,
                                struct err *e)
{
    if (strcmp(v, "annotations") == 0)
        o->annotation_stack_ops = false;
    else if (strcmp(v, "ops") == 0)
        o->annotation_stack_ops = true;
    else
        return bad_choice(e, w, v, "annotations, ops");
    return 0;
}

static int set_num_kernels(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    int64_t x;
    if (htx_parse_int(w, v, 1, 1000000, &x, e) < 0)
        return ERR_USAGE;
    o->num_kernels = (int)x;
    return 0;
}

static int set_num_candidates(struct htx_options *o, const char *w, const char *v,
                              struct err *e)
{
    int64_t x;
    if (htx_parse_int(w, v, 1, 1000000, &x, e) < 0)
        return ERR_USAGE;
    o->num_candidates = (int)x;
    return 0;
}

static int set_threads(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    int64_t x;
    if (htx_parse_int(w, v, 0, 1024, &x, e) < 0)
        return ERR_USAGE;
    o->threads = (int)x;
    return 0;
}

static int set_jobs(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    int64_t x;
    if (htx_parse_int(w, v, 1, 1024, &x, e) < 0)
        return ERR_USAGE;
    o->jobs = (int)x;
    return 0;
}

static int set_duration_ratio(struct htx_options *o, const char *w, const char *v,
                              struct err *e)
{
    return htx_parse_double(w, v, 0.0, 1.0, &o->duration_ratio, e);
}

/* A percentage, "5%" or "5", into *pct. */
static int parse_pct(const char *w, const char *v, double *pct, struct err *e)
{
    char buf[64];
    size_t n = strlen(v);
    if (n > 0 && n < sizeof buf && v[n - 1] == '%') {
        memcpy(buf, v, n - 1);
        buf[n - 1] = '\0';
        if (htx_parse_double(w, buf, 0.0, 100.0, pct, NULL) == 0)
            return 0;
    }
    return htx_parse_double(w, v, 0.0, 100.0, pct, e) < 0 ? ERR_USAGE : 0;
}

static int set_max_cost(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    return parse_pct(w, v, &o->max_cost_pct, e);
}

static int set_fail_on_regression(struct htx_options *o, const char *w, const char *v,
                                  struct err *e)
{
    char buf[64];
    size_t n = strlen(v);
    /* "5%" reads as well as "5". */
    if (n > 0 && n < sizeof buf && v[n - 1] == '%') {
        memcpy(buf, v, n - 1);
        buf[n - 1] = '\0';
        if (htx_parse_double(w, buf, 0.0, 1e9, &o->fail_on_regression_pct, NULL) == 0) {
            o->has_fail_on_regression = true;
            return 0;
        }
    }
    if (htx_parse_double(w, v, 0.0, 1e9, &o->fail_on_regression_pct, e) < 0)
        return ERR_USAGE;
    o->has_fail_on_regression = true;
    return 0;
}

static int set_bool_value(const char *w, const char *v, bool *out, struct err *e)
{
    static const char *const yes[] = {"1", "yes", "true", "on"};
    static const char *const no[] = {"0", "no", "false", "off"};
    for (int i = 0; i < 4; i++) {
        if (strcmp(v, yes[i]) == 0) {
            *out = true;
            return 0;
        }
        if (strcmp(v, no[i]) == 0) {
            *out = false;
            return 0;
        }
    }
    return bad_choice(e, w, v, "yes, no, true, false, 1, 0, on, off");
}

static int set_include_mem(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    if (!v) {
        o->include_memory_kernels = true;
        return 0;
    }
    return set_bool_value(w, v, &o->include_memory_kernels, e);
}

static int set_no_include_mem(struct htx_options *o, const char *w, const char *v,
                              struct err *e)
{
    (void)w, (void)v, (void)e;
    o->include_memory_kernels = false;
    return 0;
}

#define DURATION_SETTER(fn, field)                                                     \
    static int fn(struct htx_options *o, const char *w, const char *v, struct err *e) \
    {                                                                                  \
        return htx_parse_duration_ns(w, v, &o->field, e);                              \
    }
DURATION_SETTER(set_consecutive_delay, consecutive_kernel_delay_ns)
DURATION_SETTER(set_runtime_cutoff, runtime_cutoff_ns)
DURATION_SETTER(set_launch_delay_cutoff, launch_delay_cutoff_ns)
DURATION_SETTER(set_min_duration, min_duration_ns)

#define TEXT_SETTER(fn, field)                                                         \
    static int fn(struct htx_options *o, const char *w, const char *v, struct err *e) \
    {                                                                                  \
        if (non_empty(e, w, v) < 0)                                                    \
            return ERR_USAGE;                                                          \
        o->field = v;                                                                  \
        return 0;                                                                      \
    }
TEXT_SETTER(set_operator, operator_name)
TEXT_SETTER(set_comm_patterns, comm_patterns)
TEXT_SETTER(set_memory_patterns, memory_patterns)
TEXT_SETTER(set_script, script)
TEXT_SETTER(set_dump_screen, dump_screen)
TEXT_SETTER(set_output, output)
TEXT_SETTER(set_shard, shard)

#define FLAG_SETTER(fn, stmt)                                                          \
    static int fn(struct htx_options *o, const char *w, const char *v, struct err *e) \
    {                                                                                  \
        (void)w, (void)v, (void)e;                                                     \
        stmt;                                                                          \
        return 0;                                                                      \
    }
FLAG_SETTER(set_short_names, o->short_names = true)
FLAG_SETTER(set_no_color, o->no_color = true)
FLAG_SETTER(set_ascii, o->ascii = true)
FLAG_SETTER(set_no_mouse, o->no_mouse = true)
FLAG_SETTER(set_no_osc52, o->no_osc52 = true)
FLAG_SETTER(set_no_cache, o->no_cache = true)
FLAG_SETTER(set_force, o->force = true)
FLAG_SETTER(set_with_events, o->with_events = true)
FLAG_SETTER(set_report, o->diff_report = true)
FLAG_SETTER(set_timings, o->timings = true)
FLAG_SETTER(set_include_last, o->last_step = HTX_LAST_STEP_INCLUDE)
FLAG_SETTER(set_drop_last, o->last_step = HTX_LAST_STEP_DROP)

static int set_size(struct htx_options *o, const char *w, const char *v, struct err *e)
{
    const char *x = strchr(v, 'x');
    char rows[16];
    size_t n = x ? (size_t)(x - v) : 0;
    int64_t r, c;
    if (!x || n == 0 || n >= sizeof rows)
        return err_set(e, ERR_USAGE, "%s: bad value '%s': expected ROWSxCOLS like 30x100", w, v);
    memcpy(rows, v, n);
    rows[n] = '\0';
    if (htx_parse_int(w, rows, 1, 1000, &r, NULL) < 0 ||
        htx_parse_int(w, x + 1, 1, 1000, &c, NULL) < 0)
        return err_set(e, ERR_USAGE,
                       "%s: bad value '%s': expected ROWSxCOLS, each from 1 to 1000", w, v);
    o->rows = (int)r;
    o->cols = (int)c;
    return 0;
}

static const struct opt_spec specs[] = {
    {"rank", ARG_REQUIRED, set_rank},
    {"iteration", ARG_REQUIRED, set_iteration},
    {"window", ARG_REQUIRED, set_window},
    {"analysis", ARG_REQUIRED, set_analysis},
    {"format", ARG_REQUIRED, set_format},
    {"num-kernels", ARG_REQUIRED, set_num_kernels},
    {"num-candidates", ARG_REQUIRED, set_num_candidates},
    {"annotation-stack", ARG_REQUIRED, set_annotation_stack},
    {"duration-ratio", ARG_REQUIRED, set_duration_ratio},
    {"include-memory-kernels", ARG_OPTIONAL, set_include_mem},
    {"no-include-memory-kernels", ARG_NONE, set_no_include_mem},
    {"consecutive-kernel-delay", ARG_REQUIRED, set_consecutive_delay},
    {"runtime-cutoff", ARG_REQUIRED, set_runtime_cutoff},
    {"launch-delay-cutoff", ARG_REQUIRED, set_launch_delay_cutoff},
    {"operator", ARG_REQUIRED, set_operator},
    {"comm-patterns", ARG_REQUIRED, set_comm_patterns},
    {"memory-patterns", ARG_REQUIRED, set_memory_patterns},
    {"device", ARG_REQUIRED, set_device},
    {"events", ARG_REQUIRED, set_events},
    {"short-names", ARG_NONE, set_short_names},
    {"control-rank", ARG_REQUIRED, set_control_rank},
    {"test-rank", ARG_REQUIRED, set_test_rank},
    {"control-iteration", ARG_REQUIRED, set_control_iter},
    {"test-iteration", ARG_REQUIRED, set_test_iter},
    {"threads", ARG_REQUIRED, set_threads},
    {"no-color", ARG_NONE, set_no_color},
    {"ascii", ARG_NONE, set_ascii},
    {"no-mouse", ARG_NONE, set_no_mouse},
    {"no-osc52", ARG_NONE, set_no_osc52},
    {"no-cache", ARG_NONE, set_no_cache},
    {"semantics", ARG_REQUIRED, set_semantics},
    {"align", ARG_REQUIRED, set_align},
    {"include-last-step", ARG_NONE, set_include_last},
    {"drop-last-step", ARG_NONE, set_drop_last},
    {"force", ARG_NONE, set_force},
    {"report", ARG_NONE, set_report},
    {"timings", ARG_NONE, set_timings},
    {"fail-on-regression", ARG_REQUIRED, set_fail_on_regression},
    {"max-cost", ARG_REQUIRED, set_max_cost},
    {"sort", ARG_REQUIRED, set_diff_sort},
    {"view", ARG_REQUIRED, set_view},
    {"top", ARG_REQUIRED, set_diff_top},
    {"min-duration", ARG_REQUIRED, set_min_duration},
    {"script", ARG_REQUIRED, set_script},
    {"dump-screen", ARG_REQUIRED, set_dump_screen},
    {"output", ARG_REQUIRED, set_output},
    {"shard", ARG_REQUIRED, set_shard},
    {"with-events", ARG_NONE, set_with_events},
    {"jobs", ARG_REQUIRED, set_jobs},
    {"size", ARG_REQUIRED, set_size},
};

static const struct opt_spec *find_spec(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (strlen(specs[i].name) == len && strncmp(specs[i].name, name, len) == 0)
            return &specs[i];
    return NULL;
}

/* The semantics and every analysis parameter at their defaults (HTA's). */
static void default_analysis(struct htx_options *o)
{
    struct analysis_opts a;
    analysis_opts_default(&a);
    o->num_kernels = a.num_kernels;
    o->num_candidates = a.num_candidates;
    o->annotation_stack_ops = a.annotation_stack_ops;
    o->duration_ratio = a.duration_ratio;
    o->include_memory_kernels = a.include_memory_kernels;
    o->consecutive_kernel_delay_ns = a.consecutive_kernel_delay_ns;
    o->runtime_cutoff_ns = a.runtime_cutoff_ns;
    o->launch_delay_cutoff_ns = a.launch_delay_cutoff_ns;
    o->operator_name = NULL;   // HTA's, through htx_options_analysis
    o->comm_patterns = o->memory_patterns = NULL;
    o->semantics = SEMANTICS_HTX;
    o->last_step = HTX_LAST_STEP_DEFAULT;
}

void htx_options_init(struct htx_options *o)
{
    memset(o, 0, sizeof *o);
    o->cmd = HTX_CMD_UI;
    o->ranks.all = o->iterations.all = true;
    o->control_ranks.all = o->test_ranks.all = true;
    o->control_iterations.all = o->test_iterations.all = true;
    for (int i = 0; i < ANALYSIS_COUNT; i++)
        o->analyses[i] = true;
    o->format = HTX_FORMAT_TEXT;
    o->max_cost_pct = HTX_MAX_COST_DEFAULT;
    default_analysis(o);
}

int htx_options_apply(struct htx_options *o, const char *name, const char *value,
                      struct err *e)
{
    const struct opt_spec *s = find_spec(name, strlen(name));
    if (!s)
        return err_set(e, ERR_USAGE, "unknown option '--%s'", name);
    if (s->arg == ARG_REQUIRED && !value)
        return err_set(e, ERR_USAGE, "--%s: missing value", name);
    if (s->arg == ARG_NONE && value)
        return err_set(e, ERR_USAGE, "--%s: takes no value (got '%s')", name, value);
    char what[64];
    snprintf(what, sizeof what, "--%s", name);
    return s->apply(o, what, value, e);
}

void htx_options_fini(struct htx_options *o)
{
    free(o->config_text);
    o->config_text = NULL;
    free(o->ranks.v);
    free(o->iterations.v);
    free(o->control_ranks.v);
    free(o->test_ranks.v);
    free(o->control_iterations.v);
    free(o->test_iterations.v);
    free(o->paths);
    o->ranks.v = o->iterations.v = NULL;
    o->control_ranks.v = o->test_ranks.v = NULL;
    o->control_iterations.v = o->test_iterations.v = NULL;
    o->paths = NULL;
    o->npaths = 0;
}

/* Applies one "--name[=value]" argument; may consume argv[*i + 1]. */
static int parse_long(struct htx_options *o, int argc, char **argv, int *i, struct err *e)
{
    const char *arg = argv[*i] + 2;
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    const struct opt_spec *s = find_spec(arg, len);
    if (!s)
        return err_set(e, ERR_USAGE, "unknown option '--%.*s' (try htx --help)", (int)len, arg);
    char what[64];
    snprintf(what, sizeof what, "--%s", s->name);
    const char *val = eq ? eq + 1 : NULL;
    if (s->arg == ARG_NONE && val)
        return err_set(e, ERR_USAGE, "%s: takes no value (got '%s')", what, val);
    if (s->arg == ARG_REQUIRED && !val) {
        if (*i + 1 >= argc)
            return err_set(e, ERR_USAGE, "%s: missing value", what);
        val = argv[++*i];
    }
    return s->apply(o, what, val, e);
}

static int add_path(struct htx_options *o, const char *path, size_t *cap, struct err *e)
{
    if (VEC_PUSH_SLOT(o->paths, o->npaths, *cap) < 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    o->paths[o->npaths++] = path;
    return 0;
}

/* --help and --version win over everything else before "--". */
static bool find_help(struct htx_options *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            o->cmd = HTX_CMD_HELP;
            return true;
        }
        if (strcmp(argv[i], "--version") == 0 || strcmp(argv[i], "-V") == 0) {
            o->cmd = HTX_CMD_VERSION;
            return true;
        }
    }
    return false;
}

static int parse_command_word(struct htx_options *o, int argc, char **argv)
{
    static const struct {
        const char *word;
        enum htx_command cmd;
    } words[] = {
        {"info", HTX_CMD_INFO},
        {"report", HTX_CMD_REPORT},
        {"counters", HTX_CMD_COUNTERS},
        {"diff", HTX_CMD_DIFF},
        {"summarize", HTX_CMD_SUMMARIZE},
        {"check", HTX_CMD_CHECK},
        {"help", HTX_CMD_HELP},
        {"cache-complete", HTX_CMD_CACHE_COMPLETE},   // not for users: app/cache.h
    };
    if (argc < 2)
        return 1;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(argv[1], words[i].word) == 0) {
            o->cmd = words[i].cmd;
            return 2;
        }
    return 1;
}

static const char *command_name(enum htx_command c)
{
    switch (c) {
    case HTX_CMD_INFO:
        return "htx info";
    case HTX_CMD_REPORT:
        return "htx report";
    case HTX_CMD_COUNTERS:
        return "htx counters";
    case HTX_CMD_DIFF:
        return "htx diff";
    case HTX_CMD_SUMMARIZE:
        return "htx summarize";
    case HTX_CMD_CHECK:
        return "htx check";
    default:
        return "htx";
    }
}

static int check_operands(const struct htx_options *o, struct err *e)
{
    const char *cmd = command_name(o->cmd);
    if (o->cmd == HTX_CMD_HELP)
        return 0;
    if (o->diff_report && o->cmd != HTX_CMD_DIFF)
        return err_set(e, ERR_USAGE, "%s: --report belongs to htx diff", cmd);
    if (o->cmd == HTX_CMD_INFO && o->format == HTX_FORMAT_CSV)
        return err_set(e, ERR_USAGE, "%s: --format: bad value 'csv': expected one of text, json",
                       cmd);
    if (o->align_collectives && o->semantics == SEMANTICS_HTA)
        return err_set(e, ERR_USAGE, "%s: --align=collectives: not under --semantics=hta (HTA "
                       "compares the clocks as they are)", cmd);
    if (o->align_collectives && (o->cmd == HTX_CMD_DIFF || o->cmd == HTX_CMD_SUMMARIZE))
        return err_set(e, ERR_USAGE, "%s: --align belongs to htx report, info and the TUI", cmd);
    if (o->with_events && o->cmd != HTX_CMD_SUMMARIZE)
        return err_set(e, ERR_USAGE, "%s: --with-events belongs to htx summarize", cmd);
    if (o->cmd == HTX_CMD_DIFF) {
        if (o->npaths != 2)
            return err_set(e, ERR_USAGE, "%s: expected CONTROL and TEST, got %zu path%s", cmd,
                           o->npaths, o->npaths == 1 ? "" : "s");
        return 0;
    }
    if ((o->output || o->shard || o->jobs) && o->cmd != HTX_CMD_SUMMARIZE)
        return err_set(e, ERR_USAGE, "%s: -o/--output, --shard and --jobs belong to htx summarize",
                       cmd);
    if (o->cmd == HTX_CMD_SUMMARIZE && !o->output)
        return err_set(e, ERR_USAGE, "%s: missing -o DIR (where the summaries go)", cmd);
    if (o->npaths == 0 && o->cmd == HTX_CMD_UI)
        return err_set(e, ERR_USAGE, "missing PATH (try htx --help)");
    if (o->npaths == 0)
        return err_set(e, ERR_USAGE, "%s: missing PATH (try htx --help)", cmd);
    return 0;
}

int htx_options_parse(struct htx_options *o, int argc, char **argv, const char *no_color_env,
                      struct err *e)
{
    if (no_color_env && no_color_env[0] != '\0')
        o->no_color = true;
    if (find_help(o, argc, argv))
        return 0;
    size_t cap = 0;
    bool operands_only = false;
    for (int i = parse_command_word(o, argc, argv); i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (operands_only || a[0] != '-' || strcmp(a, "-") == 0)
            rc = add_path(o, a, &cap, e);
        else if (strcmp(a, "--") == 0)
            operands_only = true;
        else if (a[1] == '-')
            rc = parse_long(o, argc, argv, &i, e);
        else if (strcmp(a, "-o") == 0 && i + 1 < argc)
            o->output = argv[++i];   // -o DIR: summarize's one short option, as compilers have
        else
            rc = err_set(e, ERR_USAGE, "unknown option '%s' (try htx --help)", a);
        if (rc < 0)
            return rc;
    }
    return check_operands(o, e);
}

void htx_options_semantics(const struct htx_options *o, struct semantics *s)
{
    semantics_init(s, o->semantics);
    if (o->last_step == HTX_LAST_STEP_INCLUDE)
        s->drop_last_step = false;
    else if (o->last_step == HTX_LAST_STEP_DROP)
        s->drop_last_step = true;
}

void htx_options_analysis(const struct htx_options *o, struct analysis_opts *a)
{
    analysis_opts_default(a);
    a->num_kernels = o->num_kernels;
    a->num_candidates = o->num_candidates;
    a->annotation_stack_ops = o->annotation_stack_ops;
    a->duration_ratio = o->duration_ratio;
    a->include_memory_kernels = o->include_memory_kernels;
    a->consecutive_kernel_delay_ns = o->consecutive_kernel_delay_ns;
    a->runtime_cutoff_ns = o->runtime_cutoff_ns;
    a->launch_delay_cutoff_ns = o->launch_delay_cutoff_ns;
    if (o->operator_name)
        a->operator_name = o->operator_name;
    a->comm_patterns = o->comm_patterns;
    a->memory_patterns = o->memory_patterns;
}

void htx_options_make_canonical(struct htx_options *o)
{
    default_analysis(o);
}

bool htx_options_stored_parameters(const struct htx_options *o, bool kernels)
{
    struct htx_options d;
    memset(&d, 0, sizeof d);
    default_analysis(&d);
    /* temporal, idle, overlap, kernels and utilization classify kernels;
     * idle reads the consecutive-kernel delay, kernels its top-N rule; the
     * rest of the parameters are other analyses' */
    bool top_n = !kernels ||
                 (o->num_kernels == d.num_kernels && o->duration_ratio == d.duration_ratio &&
                  o->include_memory_kernels == d.include_memory_kernels);
    return top_n && o->iterations.all && !o->has_window && !o->comm_patterns &&
           !o->memory_patterns && o->consecutive_kernel_delay_ns == d.consecutive_kernel_delay_ns;
}

bool htx_options_read_stored_tables(const struct htx_options *o)
{
    struct htx_options d;
    memset(&d, 0, sizeof d);
    default_analysis(&d);
    return o->last_step == d.last_step &&
           htx_options_stored_parameters(o, o->analyses[ANALYSIS_KERNELS]);
}

static void fill_selection(struct selection *s, const struct htx_int_list *ranks,
                           const struct htx_int_list *iters, const struct htx_options *o)
{
    memset(s, 0, sizeof *s);
    if (!ranks->all) {
        s->ranks = ranks->v;
        s->nranks = ranks->n;
    }
    if (!iters->all) {
        s->iterations = iters->v;
        s->niterations = iters->n;
    }
    s->has_window = o->has_window;
    s->window_start = o->window_start;
    s->window_end = o->window_end;
}

void htx_options_selection(const struct htx_options *o, struct selection *s)
{
    fill_selection(s, &o->ranks, &o->iterations, o);
}

void htx_options_diff_selection(const struct htx_options *o, bool test, struct selection *s)
{
    const struct htx_int_list *r = test ? &o->test_ranks : &o->control_ranks;
    const struct htx_int_list *it = test ? &o->test_iterations : &o->control_iterations;
    fill_selection(s, r->given ? r : &o->ranks, it->given ? it : &o->iterations, o);
}
