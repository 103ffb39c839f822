#include "config.h"
#include "ui/ui.h"

#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "app/cache.h"
#include "app/diff_request.h"
#include "app/summary_job_diff.h"
#include "app/options.h"
#include "app/session.h"
#include "ui/app.h"
#include "ui/views/diff.h"

/* The TUI's entry point: turns the parsed command line into a ui_config.
 * This is the only UI file that names analysis_list (the registry), so the
 * rest of the UI builds and is tested without every analysis linked. */

static int open_diff(struct ui_state *st, const struct model *control, const struct model *test,
                     const struct diff_side *parts, const void *ctx, struct err *e)
{
    return ui_diff_open(st, control, test, parts, ctx, e);
}

int ui_main(const struct htx_options *opts)
{
    struct ui_config c = {0};
    struct selection sel = {0};

    c.paths = opts->paths;
    c.npaths = opts->npaths;
    if (opts->cmd == HTX_CMD_DIFF && opts->npaths == 2) {
        // The other views show CONTROL whole; view d picks each side's
        // ranks and iterations itself.
        c.npaths = 1;
        c.test_path = opts->paths[1];
        c.diff_open = open_diff;
        c.diff_close = ui_diff_close;
        c.diff_ctx = opts;
    } else {
        htx_options_selection(opts, &sel);
    }
    htx_options_semantics(opts, &c.sem);
    htx_options_analysis(opts, &c.aopts);
    c.ranks = sel.ranks;
    c.nranks = sel.nranks;
    c.iterations = sel.iterations;
    c.niterations = sel.niterations;
    c.has_window = sel.has_window;
    c.window_start = sel.window_start;
    c.window_end = sel.window_end;
    struct load_opts lo;
    struct err e = {0, ""};
    if (app_load_opts_init(&lo, opts, &e) < 0) {
        app_fail(&e);
        return err_exit_status(e.code);
    }
    c.threads = opts->threads;
    c.limits = lo.limits;
    c.events = opts->events;
    c.stored_parameters = htx_options_stored_parameters(opts, true);
    c.no_color = opts->no_color;
    c.ascii = opts->ascii;
    c.no_mouse = opts->no_mouse;
    c.no_osc52 = opts->no_osc52;
    c.start_view = opts->start_view;
    c.diff_sort = !opts->diff_sort_given ? -1 : opts->diff_sort_delta ? 0 : 1;
    c.script = opts->script;
    c.dump = opts->dump_screen;
    c.force = opts->force;
    c.rows = opts->rows;
    c.cols = opts->cols;
    c.analyses = analysis_list(&c.nanalyses);
    struct app_cache cache;
    if (!opts->no_cache) {
        if (app_cache_init(&cache, &e) == 0)
            c.cache = &cache;
        else if (e.code == ERR_USAGE)
            return app_fail(&e);
        // else: nowhere to keep a cache; run without
    }
    struct summary_job_diff summary_diff;
    memset(&summary_diff, 0, sizeof summary_diff);
    if (c.test_path) {
        struct semantics sem;
        app_diff_semantics(opts, &sem);
        int rc = summary_job_diff_choose(opts, &sem, c.limits.max_memory, &summary_diff, &e);
        if (rc < 0) {
            summary_job_diff_fini(&summary_diff);
            if (c.cache)
                app_cache_fini(&cache, opts->script != NULL);
            return app_fail(&e);
        }
        c.summary_diff = rc == 1 ? &summary_diff : NULL;
    }
    int status = ui_run(&c);
    summary_job_diff_fini(&summary_diff);
    if (c.cache)
        app_cache_fini(&cache, opts->script != NULL);
    return status;
}
