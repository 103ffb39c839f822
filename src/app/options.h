#ifndef HTX_APP_OPTIONS_H
#define HTX_APP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "model/semantics.h"
#include "util/err.h"

/* The command line of htx, parsed once into plain data (DESIGN.md
 * "Commands" and "Options"). Every front end (report, info, counters, diff,
 * the TUI) reads this struct; nothing else looks at argv.
 *
 * Ownership: a struct htx_options borrows argv (paths and string values
 * point into it) and owns its number lists; release them with
 * htx_options_fini. */

enum htx_command {
    HTX_CMD_UI = 0,    /* htx PATH... */
    HTX_CMD_INFO,      /* htx info */
    HTX_CMD_REPORT,    /* htx report */
    HTX_CMD_COUNTERS,  /* htx counters */
    HTX_CMD_DIFF,      /* htx diff CONTROL TEST (TUI, or --report) */
    HTX_CMD_SUMMARIZE, /* htx summarize -o DIR PATH... */
    HTX_CMD_CHECK,     /* htx check PATH... */
    HTX_CMD_CACHE_COMPLETE, /* htx cache-complete ENTRY... (internal: app/cache.h) */
    HTX_CMD_HELP,      /* --help anywhere */
    HTX_CMD_VERSION,   /* --version anywhere */
};

enum htx_format { HTX_FORMAT_TEXT = 0, HTX_FORMAT_CSV, HTX_FORMAT_JSON };

enum htx_device { HTX_DEVICE_ALL = 0, HTX_DEVICE_CPU, HTX_DEVICE_GPU };

/* --events: whether the TUI loads a job's events (app/summary_job.h). */
enum htx_events { HTX_EVENTS_AUTO = 0, HTX_EVENTS_LOAD, HTX_EVENTS_SKIP };

/* Whether the last ProfilerStep is kept; DEFAULT follows --semantics. */
enum htx_last_step { HTX_LAST_STEP_DEFAULT = 0, HTX_LAST_STEP_INCLUDE, HTX_LAST_STEP_DROP };

/* A list of integers such as "0,2-5", expanded and sorted ascending without
 * duplicates. all = true ("all", or the option not given) means no filter. */
struct htx_int_list {
    int64_t *v;
    size_t n;
    bool all;
    bool given;    /* the option appeared on the command line */
};

/* Ranges in a list may expand to at most this many numbers in total. */
#define HTX_LIST_MAX 1000000
/* htx check: a finding that costs more than this share of a step (%)
 * fails; below it, run-to-run noise and ordinary tails (man htx, FINDINGS). */
#define HTX_MAX_COST_DEFAULT 5.0

struct htx_options {
    enum htx_command cmd;
    bool diff_report;              /* htx diff --report */
    bool timings;                  /* htx report --timings: the phases' times on stderr */
    const char **paths;            /* PATH operands (into argv) */
    size_t npaths;

    /* selection */
    struct htx_int_list ranks, iterations;
    bool has_window;
    int64_t window_start, window_end;   /* ns from trace start, [start, end) */
    struct htx_int_list control_ranks, test_ranks;
    struct htx_int_list control_iterations, test_iterations;
    enum htx_device device;

    /* analyses and output */
    bool analyses[ANALYSIS_COUNT]; /* --analysis; all true when not given */
    bool analysis_given;
    enum htx_format format;
    bool format_given;
    bool short_names;

    /* analysis parameters (HTA defaults) */
    int num_kernels;
    int num_candidates;            /* stragglers under --semantics=hta */
    bool annotation_stack_ops;     /* --annotation-stack=ops */
    double duration_ratio;
    bool include_memory_kernels;
    int64_t consecutive_kernel_delay_ns;
    int64_t runtime_cutoff_ns;
    int64_t launch_delay_cutoff_ns;
    const char *operator_name;     /* NULL = HTA's default */
    const char *comm_patterns;     /* NULL = built-in rules */
    const char *memory_patterns;

    /* semantics */
    enum semantics_mode semantics;
    enum htx_last_step last_step;
    bool align_collectives;        /* --align=collectives (analysis/clocks.h) */

    /* diff and counters */
    bool force;                    /* counters: overwrite an existing output */
    bool has_fail_on_regression;
    double fail_on_regression_pct; /* diff --report: exit 3 beyond this */
    double max_cost_pct;           /* check: exit 3 when a finding costs more (% of the step) */
    int64_t min_duration_ns;       /* diff: ignore ops shorter than this */
    char *config_text;             /* the config file's text (values point into it) */
    bool diff_sort_delta;          /* diff --report --sort=delta (else name) */
    bool diff_sort_given;          /* --sort given (the TUI diff then sorts so too) */
    char start_view;               /* --view: the TUI's first view's key, 0 = timeline */
    int64_t diff_top;              /* diff --report --top=N (0 = all rows) */

    /* loading and terminal */
    int threads;                   /* 0 = number of cores */
    bool no_color;                 /* --no-color or NO_COLOR set and non-empty */
    bool ascii;
    bool no_mouse;
    bool no_osc52;                 /* --no-osc52: y does not copy through the terminal */
    bool no_cache;                 /* --no-cache: the TUI neither reads nor writes app/cache.h */
    enum htx_events events;        /* --events: the TUI over rank summaries */

    /* UI test mode (tests/ui): keys from a file, screen dumped to OUT */
    const char *output;            /* summarize: -o / --output DIR */
    const char *shard;             /* summarize: --shard=I/N|auto */
    int jobs;                      /* summarize: --jobs, files at once; 0 = --threads's */
    bool with_events;              /* summarize: --with-events */
    const char *script;
    const char *dump_screen;
    int rows, cols;                /* --size ROWSxCOLS; 0 = terminal size */
};

/* Fills o with the defaults (HTA's where HTA has one); o owns nothing yet,
 * but free it with htx_options_fini all the same. */
void htx_options_init(struct htx_options *o);

/* Parses argv[1..argc) into o (which must be initialised). no_color_env is
 * the value of $NO_COLOR (NULL when unset). Returns 0 or ERR_USAGE with a
 * message naming the option and the offending value. Borrows argv for the
 * lifetime of o; o owns its lists (free with htx_options_fini). */
int htx_options_parse(struct htx_options *o, int argc, char **argv, const char *no_color_env,
                      struct err *e);

/* Frees the lists o owns; argv strings it borrowed are left alone. */
void htx_options_fini(struct htx_options *o);

/* Parses "0,2-5" / "all" into l (ascending, no duplicates). what names the
 * option in messages. Caller owns l->v (free with free()). */
int htx_parse_int_list(const char *what, const char *text, struct htx_int_list *l,
                       struct err *e);

/* The parsers below borrow text until return, allocate nothing, and on a
 * bad value return ERR_USAGE with a message naming `what` and the value. */

/* Parses a non-negative duration "1500", "1500ns", "2.5us", "3ms", "1s"
 * into whole nanoseconds (no unit means ns). */
int htx_parse_duration_ns(const char *what, const char *text, int64_t *ns, struct err *e);

/* Parses a decimal integer in [min, max]. */
int htx_parse_int(const char *what, const char *text, int64_t min, int64_t max, int64_t *v,
                  struct err *e);

/* Parses a finite decimal number in [min, max]. */
int htx_parse_double(const char *what, const char *text, double min, double max, double *v,
                     struct err *e);

/* Parses "START:END" (durations; START empty = 0, END empty = no end) with
 * START < END. */
int htx_parse_window(const char *what, const char *text, int64_t *start, int64_t *end,
                     struct err *e);

/* The semantics flags the options ask for (--semantics, then the
 * --include-last-step / --drop-last-step override), copied into s. */
void htx_options_semantics(const struct htx_options *o, struct semantics *s);

/* The analysis parameters the options ask for; strings borrow from o. */
void htx_options_analysis(const struct htx_options *o, struct analysis_opts *a);

/* What a rank summary's tables and tiles are made under (cli/summarize.c):
 * htx's semantics with its own last-step rule, every default analysis
 * parameter. o's selection, loading and output options are left alone. */
void htx_options_make_canonical(struct htx_options *o);

/* Whether the analyses a summary stores (temporal, idle, overlap, kernels,
 * utilization) give, under o, the tables stored (a summary holds them
 * under each semantics): o's last-step rule and the parameters they read
 * are the canonical ones, and o keeps
 * every iteration and the whole time (ranks may be chosen: a rank's tables
 * are its own). */
bool htx_options_read_stored_tables(const struct htx_options *o);
/* The same, the semantics aside: o's parameters (kernels: the kernels
 * table's among them) and its whole-job selection are a summary's. */
bool htx_options_stored_parameters(const struct htx_options *o, bool kernels);

/* The model selection (ranks, iterations, window) for HTX_CMD_REPORT/INFO/UI;
 * arrays borrow from o. */
void htx_options_selection(const struct htx_options *o, struct selection *s);

/* The same for one side of a diff: control (test = false) or test. The
 * --control-* / --test-* lists win over --rank / --iteration. Arrays
 * borrow from o. */
void htx_options_diff_selection(const struct htx_options *o, bool test, struct selection *s);

/* Static text of --help. */
const char *htx_usage(void);
/* Applies one option by its long name (without "--"), value NULL for a
 * flag, as on the command line (the config file uses it). */
int htx_options_apply(struct htx_options *o, const char *name, const char *value,
                      struct err *e);
/* The few lines `htx` alone prints (on stderr, exit 2). */
const char *htx_short_usage(void);
/* The command word within two edits of word ("reprot" -> "report"), or NULL. */
const char *htx_nearest_command(const char *word);

#endif
