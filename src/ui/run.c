#include "config.h"
#include "ui/run.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/cache.h"
#include "app/diff_request.h"
#include "app/summary_job.h"
#include "app/summary_job_diff.h"
#include "app/session.h"
#include "ui/actions.h"
#include "ui/initial_state.h"
#include "ui/load.h"
#include "ui/term/draw.h"
#include "ui/widgets/keys.h"
#include "util/outfile.h"
#include "ui/screen.h"
#include "ui/view.h"
#include "ui/views/diff.h"
#include "ui/refresh.h"
#include "ui/term/osc52.h"
#include "ui/term/term.h"

#define SCRIPT_MAX (1 << 20)

/* The models the inputs name: the trace, or CONTROL and TEST for a diff.
 * Returns 0 or an exit status (the message already printed or shown). */
struct models {
    struct model *m, *test;
};

static void models_free(struct models *ms)
{
    model_free(ms->m);
    model_free(ms->test);
    ms->m = ms->test = NULL;
}

/* A diff without its events: its two summary models move to ms; the
 * control's summary job (which the other views read) stays in the inputs. */
static const struct summary_job *take_summary_diff(const struct ui_inputs *in, struct models *ms)
{
    ms->m = in->summary_diff->m[0];
    ms->test = in->summary_diff->m[1];
    in->summary_diff->m[0] = in->summary_diff->m[1] = NULL;
    return &in->summary_diff->job[0];
}

/* ---- interactive ---- */

static unsigned handle_key(struct ui_state *st, struct model *m, struct ui_grid *g, int key,
                           const struct ui_mouse_event *mev)
{
    struct err e = {0, ""};

    if (key == UI_KEY_MOUSE) {
        unsigned f = ui_mouse(st, m, mev->y, mev->x, mev->button);
        ui_refresh(st, m, f, &e);
        return f;
    }
    if (key == UI_KEY_RESIZE) {
        ui_term_size(&st->rows, &st->cols);
        ui_grid_resize(g, st->rows, st->cols);
    }
    unsigned f = ui_dispatch(st, m, key);
    // Analyses of a big trace take a moment: say so before running them.
    const struct ui_view_ops *v = ui_view_get(st, st->view);
    if (v && v->stale && ((f & UI_RESELECT) || v->stale(st)) && !st->layout.too_small) {
        char keep[sizeof st->message];
        bool err = st->message_is_error;
        snprintf(keep, sizeof keep, "%s", st->message);
        ui_state_message(st, false, "computing...");
        ui_screen_compose(st, m, g);
        ui_draw_grid(g, false);
        ui_state_message(st, err, "%s", keep);
    }
    ui_refresh(st, m, f, &e);
    if (st->copy) {
        if (ui_term_osc52(st->copy) != 0)
            ui_state_message(st, true, "the terminal did not take the copy");
        free(st->copy);
        st->copy = NULL;
    }
    return f;
}

/* The keys typed during the load, applied in order on the first screen:
 * false when one of them quits. */
static bool replay_keys(struct ui_state *st, struct model *m, struct ui_grid *g,
                        const struct ui_keys_waiting *w)
{
    const struct ui_mouse_event none = {0, 0, 0};

    for (size_t i = 0; i < w->n; i++) {
        unsigned f = handle_key(st, m, g, w->keys[i], &none);
        if ((f & UI_QUIT) || st->quit)
            return false;
    }
    if (w->dropped)
        ui_state_message(st, true, "%zu key(s) typed during the load were not applied: "
                         "only the first %d are kept", w->dropped, UI_KEYS_WAITING_MAX);
    return true;
}

static void run_loop(const struct ui_inputs *in, struct ui_state *st, struct model **mp,
                     struct ui_grid *g, struct ui_behind *b, struct ui_drill *d,
                     const struct ui_keys_waiting *waiting)
{
    unsigned flags = UI_REDRAW | UI_RELAYOUT;

    if (!replay_keys(st, *mp, g, waiting))
        return;
    for (;;) {
        flags |= ui_behind_poll(st, mp, b);
        flags |= ui_drill_poll(st, d, g);
        struct ui_state *cur = d->shown ? &d->st : st;
        struct model *m = d->shown ? d->m : *mp;
        if (flags & (UI_REDRAW | UI_RELAYOUT)) {
            ui_screen_compose(cur, m, g);
            ui_draw_grid(g, (flags & UI_RELAYOUT) != 0);
        }
        struct ui_mouse_event mev = {0, 0, 0};
        int key = ui_term_read(b->active || d->loading ? 100 : 250, &mev);
        if (key == UI_KEY_NONE) {
            flags = 0;
            continue;
        }
        flags = handle_key(cur, m, g, key, &mev);
        if ((flags & UI_QUIT) || cur->quit) {
            if (!d->shown || key == UI_KEY_INTERRUPT)   // a signal leaves htx
                return;
            ui_drill_leave(st, *mp, d, g);
            flags = UI_REDRAW | UI_RELAYOUT;
        } else if ((flags & UI_OPEN_RANK) && cur->open_summary) {
            if (b->active)
                ui_state_message(cur, false, "the events are loading behind this screen: a moment");
            else if (d->loading)
                ui_state_message(cur, false, "rank %lld's events are loading: a moment", d->rank);
            else
                ui_drill_start(d, in, cur);
        }
    }
}

/* The job to show: its rank summaries without their events when
 * summary_job_choose says so (job then open, the model from summaries), else its
 * events, loaded (with a progress screen on g when given). */
static struct model *open_job(const struct ui_inputs *in, struct summary_job *job,
                              struct ui_grid *g, struct ui_keys_waiting *waiting,
                              struct ui_behind *b, struct err *e, bool *cancelled)
{
    memset(job, 0, sizeof *job);
    if (!in->test_path) {
        int rc = summary_job_choose(in->paths, in->npaths, in->o->events, in->limits.max_memory, &in->sem,
                                    job, e);
        if (rc < 0)
            return NULL;
        if (rc == 1 && !htx_options_stored_parameters(in->o, true)) {
            summary_job_fini(job);
            err_set(e, ERR_USAGE, "the rank summaries' tables are made with every analysis "
                    "parameter at its default, which these options change, and their events "
                    "are not loaded (--events=skip, or over HTX_MAX_MEMORY): drop those options, "
                    "or load the events (--events=load)");
            return NULL;
        }
        if (rc == 1) {
            struct model *m = summary_job_model(job, &in->sem, e);
            if (!m)
                summary_job_fini(job);
            return m;
        }
        /* summaries whose events fit, or traces whose cache entries are
         * fresh, under the summaries' parameters: on a terminal, their
         * tables and tiles at once and the events behind (a summary that cannot be shown so is left to the
         * loader, which names what is wrong) */
        struct err ignored = {0, ""};
        struct model *m = NULL;
        if (b && in->o->events == HTX_EVENTS_AUTO && htx_options_stored_parameters(in->o, true) &&
            summary_job_preview(in->paths, in->npaths, in->cache, &in->sem, job, &ignored) == 1 &&
            !(m = summary_job_model(job, &in->sem, &ignored)))
            summary_job_fini(job);
        if (m) {
            ui_behind_start(b, in, job);
            if (b->active)
                return m;
            model_free(m);
            summary_job_fini(job);
        }
    }
    return g ? ui_load_with_progress(in, in->paths, in->npaths, g, waiting, e, cancelled)
             : ui_load(in, in->paths, in->npaths, NULL, e);
}

/* The terminal opened and g made at its size: 0, or the exit status with
 * the message printed. */
static int open_terminal(const struct ui_inputs *in, struct ui_grid *g)
{
    struct ui_term_opts to = {in->o->no_color, in->o->no_mouse, false, 0, 0};
    struct err e = {0, ""};
    int rows, cols;

    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fputs("htx: the TUI needs a terminal; use htx report for text output\n", stderr);
        return 2;
    }
    if (ui_term_open(&to, &e) != 0) {
        app_fail(&e);
        return 1;
    }
    ui_term_size(&rows, &cols);
    if (ui_grid_init(g, rows, cols, in->ascii) != 0) {
        ui_term_close();
        fputs("htx: out of memory\n", stderr);
        return 1;
    }
    return 0;
}

static int interactive(const struct ui_inputs *in)
{
    struct err e = {0, ""};
    struct ui_grid g;
    struct ui_state st;
    bool cancelled = false;
    int rows, cols;

    int status = open_terminal(in, &g);
    if (status)
        return status;
    struct models ms = {NULL, NULL};
    struct summary_job job;
    struct ui_behind behind = {.active = false};
    struct ui_drill drill = {.loading = false, .shown = false};
    struct ui_keys_waiting *waiting = calloc(1, sizeof *waiting);
    const struct summary_job *shown = &job;
    if (!waiting) {
        ui_term_close();
        ui_grid_fini(&g);
        fputs("htx: out of memory\n", stderr);
        return 1;
    }
    memset(&job, 0, sizeof job);
    if (in->summary_diff) {
        shown = take_summary_diff(in, &ms);
    } else {
        ms.m = open_job(in, &job, &g, waiting, &behind, &e, &cancelled);
        if (ms.m && in->test_path && !cancelled)
            ms.test = ui_load_with_progress(in, &in->test_path, 1, &g, waiting, &e, &cancelled);
    }
    if (!ms.m || (in->test_path && !ms.test)) {
        ui_term_close();
        ui_grid_fini(&g);
        models_free(&ms);
        if (!cancelled && ui_term_signal() == 0)
            app_fail(&e);
        free(waiting);
        summary_job_fini(&job);
        return cancelled ? 0 : err_exit_status(e.code ? e.code : ERR_IO);
    }
    ui_term_size(&rows, &cols);
    if (ui_initial_state(&st, ms.m, ms.test, in, shown, rows, cols, &e) != 0 && e.code == ERR_USAGE)
        status = 2;
    else
        run_loop(in, &st, &ms.m, &g, &behind, &drill, waiting);
    ui_drill_stop(&drill);
    ui_behind_stop(&behind);
    ui_term_close();
    if (status)
        app_fail(&e);
    if (st.diff)
        ui_diff_close(&st);
    ui_state_fini(&st);
    ui_grid_fini(&g);
    models_free(&ms);
    summary_job_fini(&job);
    free(waiting);
    return status;
}

/* ---- test mode ---- */

static int read_script(const char *path, struct ui_script_step **steps, size_t *n, struct err *e)
{
    FILE *f = fopen(path, "rb");
    char *buf = malloc(SCRIPT_MAX);
    size_t len = 0;

    if (!f || !buf) {
        free(buf);
        if (f)
            fclose(f);
        return err_set(e, ERR_IO, "%s: cannot read the script", path);
    }
    len = fread(buf, 1, SCRIPT_MAX, f);
    bool bad = ferror(f) || len == SCRIPT_MAX;
    fclose(f);
    int rc = bad ? err_set(e, ERR_IO, "%s: cannot read the script (or over 1 MiB)", path)
                 : ui_script_parse(buf, len, steps, n, e);
    free(buf);
    if (rc != 0 && !bad)
        err_prefix(e, "%s", path);
    return rc;
}

/* The dump goes through the one output writer: never over an input (the
 * traces or the script), an existing file only with --force. */
static int write_dump(const struct ui_inputs *in, const struct models *ms, int rows, int cols,
                      struct err *e)
{
    if (!in->o->dump_screen) {
        int rc = ui_draw_dump(stdout, rows, cols);
        return rc ? err_set(e, ERR_IO, "stdout: cannot write the screen dump") : 0;
    }
    size_t nranks = ms->m ? ms->m->nranks : 0, ntest = ms->test ? ms->test->nranks : 0;
    size_t n = 0, cap = in->npaths + nranks + ntest + 2;
    const char **inputs = calloc(cap, sizeof *inputs);
    if (!inputs)
        return err_set(e, ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < in->npaths; i++)
        inputs[n++] = in->paths[i];
    for (size_t i = 0; i < nranks; i++)
        inputs[n++] = ms->m->ranks[i].path;
    for (size_t i = 0; i < ntest; i++)
        inputs[n++] = ms->test->ranks[i].path;
    inputs[n++] = in->test_path;
    inputs[n++] = in->o->script;
    struct outfile o;
    int rc = outfile_begin(&o, in->o->dump_screen, in->o->force, inputs, n, e);
    free(inputs);
    if (rc)
        return rc;
    FILE *f = outfile_stream(&o, e);
    if (!f || ui_draw_dump(f, rows, cols) != 0) {
        outfile_abort(&o);
        return err_set(e, ERR_IO, "%s: cannot write the screen dump", in->o->dump_screen);
    }
    return outfile_commit(&o, e);
}

static void play(struct ui_state *st, struct model *m, struct ui_grid *g,
                 const struct ui_script_step *steps, size_t n)
{
    struct err e = {0, ""};

    for (size_t i = 0; i < n; i++) {
        if (steps[i].key == UI_KEY_RESIZE) {
            st->rows = steps[i].rows;
            st->cols = steps[i].cols;
            ui_term_resize(st->rows, st->cols);
            ui_grid_resize(g, st->rows, st->cols);
            ui_refresh(st, m, UI_RELAYOUT, &e);
            continue;
        }
        unsigned f = ui_refresh_key(st, m, steps[i].key);
        if ((f & UI_QUIT) || st->quit)
            break;
    }
}

static int scripted(const struct ui_inputs *in)
{
    struct ui_term_opts to = {in->o->no_color, true, true, in->o->rows ? in->o->rows : 30,
                              in->o->cols ? in->o->cols : 100};
    struct ui_script_step *steps = NULL;
    struct err e = {0, ""};
    struct ui_grid g;
    struct ui_state st;
    size_t n = 0;

    if (read_script(in->o->script, &steps, &n, &e) != 0 || ui_term_open(&to, &e) != 0) {
        app_fail(&e);
        free(steps);
        return 1;
    }
    int status = ui_grid_init(&g, to.rows, to.cols, in->ascii) != 0 ? 1 : 0;
    struct models ms = {NULL, NULL};
    struct summary_job job = {0};
    const struct summary_job *shown = &job;
    if (!status && in->summary_diff) {
        shown = take_summary_diff(in, &ms);
    } else if (!status) {
        ms.m = open_job(in, &job, NULL, NULL, NULL, &e, NULL);
        if (ms.m && in->test_path)
            ms.test = ui_load(in, &in->test_path, 1, NULL, &e);
    }
    struct model *m = ms.m;
    memset(&st, 0, sizeof st);
    if (!ms.m || (in->test_path && !ms.test)) {
        ui_screen_message(&g, " htx", e.msg);
        status = err_exit_status(e.code ? e.code : ERR_NOMEM);
    } else if (ui_initial_state(&st, m, ms.test, in, shown, to.rows, to.cols, &e) != 0 &&
               e.code == ERR_USAGE) {
        ui_screen_message(&g, " htx", e.msg);
        status = 2;
    } else {
        play(&st, m, &g, steps, n);
        ui_screen_compose(&st, m, &g);
    }
    ui_draw_grid(&g, true);
    struct err de = {0, ""};
    if (write_dump(in, &ms, g.rows, g.cols, &de) != 0 && status == 0) {
        status = err_exit_status(de.code) ? err_exit_status(de.code) : 1;
        e = de;
    }
    ui_term_close();
    if (status)
        app_fail(&e);
    if (st.diff)
        ui_diff_close(&st);
    ui_state_fini(&st);
    models_free(&ms);
    summary_job_fini(&job);
    ui_grid_fini(&g);
    free(steps);
    return status;
}

/* The inputs made from o: what to open, the semantics, analysis
 * parameters, limits, the cache and, for htx diff without the events, the
 * two summary models. 0, or an exit status with the message printed. */
static int inputs_init(struct ui_inputs *in, const struct htx_options *o, struct app_cache *cache,
                       struct summary_job_diff *summary_diff)
{
    struct load_opts lo;
    struct err e = {0, ""};

    in->o = o;
    in->paths = o->paths;
    in->npaths = o->npaths;
    if (o->cmd == HTX_CMD_DIFF && o->npaths == 2) {
        // The other views show CONTROL whole; view d picks each side's
        // ranks and iterations itself.
        in->npaths = 1;
        in->test_path = o->paths[1];
    }
    htx_options_semantics(o, &in->sem);
    htx_options_analysis(o, &in->aopts);
    if (app_load_opts_init(&lo, o, &e) < 0) {
        app_fail(&e);
        return err_exit_status(e.code);
    }
    in->limits = lo.limits;
    if (!o->no_cache) {
        if (app_cache_init(cache, &e) == 0) {
            in->cache = cache;
            // On a terminal, a process of its own completes the entries (the
            // TUI holds no second model, and a quit leaves none unfinished);
            // a script's next step may read them: completed here.
            cache->detach = o->script == NULL;
        }
        else if (e.code == ERR_USAGE)
            return app_fail(&e);
        // else: nowhere to keep a cache; run without
    }
    if (in->test_path) {
        struct semantics sem;
        app_diff_semantics(o, &sem);
        int rc = summary_job_diff_choose(o, &sem, in->limits.max_memory, summary_diff, &e);
        if (rc < 0)
            return app_fail(&e);
        in->summary_diff = rc == 1 ? summary_diff : NULL;
    }
    return 0;
}

int ui_run(const struct htx_options *o, const struct analysis_info *analyses, size_t nanalyses)
{
    struct ui_inputs in = {.analyses = analyses, .nanalyses = nanalyses};
    struct app_cache cache;
    struct summary_job_diff summary_diff;

    memset(&summary_diff, 0, sizeof summary_diff);
    int status = inputs_init(&in, o, &cache, &summary_diff);
    if (status == 0) {
        // LC_CTYPE only: numbers keep '.' as the decimal point (STYLE.md §5).
        setlocale(LC_CTYPE, "");
        in.ascii = o->ascii || strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
        status = o->script ? scripted(&in) : interactive(&in);
    }
    summary_job_diff_fini(&summary_diff);
    if (in.cache)
        app_cache_fini(&cache, o->script != NULL);
    // A signal that ended the TUI ends htx once its cache is left whole
    // (app_cache_fini hands what is unfinished to a process of its own).
    ui_term_reraise();
    return status;
}
