#ifndef HTX_UI_RUN_H
#define HTX_UI_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/analysis.h"
#include "app/summary_job_diff.h"
#include "app/options.h"
#include "model/model.h"
#include "model/semantics.h"

/* The TUI's run loop. It reads the command line by reference (struct
 * htx_options, the one representation of what was asked); struct
 * ui_inputs adds what the loop opens and what is made from the options
 * once, for the loaders (ui/load.h) and the first state
 * (ui/initial_state.h). */

struct app_cache;

struct ui_inputs {
    const struct htx_options *o;          /* the command line (borrowed) */
    /* The analyses the views offer: analysis_list(), which only ui/ui.c
     * names, so the rest of the UI builds and is tested without every
     * analysis linked. */
    const struct analysis_info *analyses;
    size_t nanalyses;
    /* What is opened: o's paths, or a drill's one summary (ui/load.h); for
     * htx diff, CONTROL in paths and TEST in test_path (else NULL). */
    const char *const *paths;
    size_t npaths;
    const char *test_path;
    bool whole;                 /* o's --rank, --iteration, --window and --view do
                                   not apply (a drill shows its rank whole) */
    /* made from o once */
    bool ascii;                 /* --ascii, or a terminal whose codeset is not UTF-8 */
    struct semantics sem;
    struct analysis_opts aopts;
    struct trace_limits limits; /* HTX_MAX_INPUT_SIZE and friends */
    struct app_cache *cache;    /* traces read through it (app/cache.h); NULL: --no-cache */
    /* htx diff without the events (app/summary_job_diff.h): the two summary models
     * (taken from it) and their parts; the control's summary job feeds the
     * other views. NULL: the paths are loaded. */
    struct summary_job_diff *summary_diff;
};

/* Loads the traces o names with a progress screen (q cancels), then runs
 * the TUI until q, Ctrl-C, SIGTERM or SIGHUP; with o->script, loads, feeds
 * the script's keys through the same key table and writes the final
 * screen. The views offer `analyses`. Returns the exit status: 0, 1 (no
 * trace could be loaded, or a bad script/dump file), 2 (bad usage: no
 * terminal, unknown rank). Borrows o and analyses until return. */
int ui_run(const struct htx_options *o, const struct analysis_info *analyses, size_t nanalyses);

#endif
