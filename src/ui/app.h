#ifndef HTX_UI_APP_H
#define HTX_UI_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "model/semantics.h"
#include "app/summary_job_diff.h"
#include "ui/state.h"

/* The TUI's run loop, independent of the command line: what to open, how,
 * and the analyses to offer. ui_main (ui/main.c) fills this from
 * struct htx_options. */

struct app_cache;

struct ui_config {
    const char *const *paths;
    size_t npaths;
    struct semantics sem;
    struct analysis_opts aopts;
    int threads;
    struct trace_limits limits;   /* HTX_MAX_INPUT_SIZE and friends */
    struct app_cache *cache;      /* traces read through it (app/cache.h); NULL: --no-cache */
    enum htx_events events;       /* rank summaries without their events (app/summary_job.h) */
    bool stored_parameters;       /* the analysis parameters are those of a summary's
                                     tables (htx_options_stored_parameters): else
                                     views never take them, and the events load */
    /* initial selection; empty lists mean all */
    const int64_t *ranks;
    size_t nranks;
    const int64_t *iterations;
    size_t niterations;
    bool has_window;
    int64_t window_start, window_end;
    /* terminal */
    bool no_color, ascii, no_mouse, no_osc52;
    char start_view;            /* the first view's key (--view), 0 = timeline */
    int diff_sort;              /* the diff's first order: -1 its own, 0 by |Δ time|, 1 by name */
    /* test mode: keys from script, screen written to dump */
    const char *script, *dump;
    bool force;                 /* --force: the dump may replace an existing file */
    int rows, cols;             /* 0 = 30 x 100 in test mode */
    const struct analysis_info *analyses;
    size_t nanalyses;
    /* htx diff: paths name CONTROL, test_path TEST. Once both are loaded,
     * diff_open sets up view d (st->diff_view, st->diff) over the two
     * models and the UI opens on it; diff_close runs before the state and
     * the models are freed. NULL test_path: no diff. */
    const char *test_path;
    int (*diff_open)(struct ui_state *st, const struct model *control,
                     const struct model *test, const struct diff_side *parts,
                     const void *ctx, struct err *e);
    void (*diff_close)(struct ui_state *st);
    const void *diff_ctx;
    /* htx diff without the events (app/summary_job_diff.h): the two summary models
     * (taken from it) and their parts; the control's summary job feeds the
     * other views. NULL: the paths are loaded. */
    struct summary_job_diff *summary_diff;
};

/* Loads the traces with a progress screen (q cancels), then runs the TUI
 * until q, Ctrl-C, SIGTERM or SIGHUP. In test mode it loads, feeds the
 * script's keys through the same key table and writes the final screen.
 * Returns the exit status: 0, 1 (no trace could be loaded, or a bad
 * script/dump file), 2 (bad usage: no terminal, unknown rank). Borrows c. */
int ui_run(const struct ui_config *c);

#endif
