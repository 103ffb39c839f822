#include "config.h"
#include "ui/app.h"

#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/summary_job.h"
#include "app/cache.h"
#include "app/session.h"
#include "ui/actions.h"
#include "ui/load.h"
#include "ui/setup.h"
#include "ui/term/draw.h"
#include "ui/widgets/keys.h"
#include "util/outfile.h"
#include "ui/screen.h"
#include "ui/view.h"
#include "ui/views/diff.h"
#include "ui/sync.h"
#include "ui/term/osc52.h"
#include "ui/term/term.h"

#define SCRIPT_MAX (1 << 20)

/* The models the config names: the trace, or CONTROL and TEST for a diff.
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
 * control's summary job (which the other views read) stays in the config. */
static const struct summary_job *take_summary_diff(const struct ui_config *c, struct models *ms)
{
    ms->m = c->summary_diff->m[0];
    ms->test = c->summary_diff->m[1];
    c->summary_diff->m[0] = c->summary_diff->m[1] = NULL;
    return &c->summary_diff->job[0];
}

/* ---- interactive ---- */

static unsigned handle_key(struct ui_state *st, struct model *m, struct ui_grid *g, int key,
                           const struct ui_mouse_event *mev)
{
    struct err e = {0, ""};

    if (key == UI_KEY_MOUSE) {
        unsigned f = ui_mouse(st, m, mev->y, mev->x, mev->button);
        ui_sync(st, m, f, &e);
        return f;
    }
    if (key == UI_KEY_RESIZE) {
        ui_term_size(&st->rows, &st->cols);
        ui_grid_resize(g, st->rows, st->cols);
    }
    unsigned f = ui_dispatch(st, m, key);
    // Analyses of a big trace take a moment: say so before running them.
    if (ui_view_is_doc(st->view) && ((f & UI_RESELECT) || !st->docs[st->view].valid) &&
        !st->layout.too_small) {
        char keep[sizeof st->message];
        bool err = st->message_is_error;
        snprintf(keep, sizeof keep, "%s", st->message);
        ui_state_message(st, false, "computing...");
        ui_screen_compose(st, m, g);
        ui_draw_grid(g, false);
        ui_state_message(st, err, "%s", keep);
    }
    ui_sync(st, m, f, &e);
    if (st->copy) {
        if (ui_term_osc52(st->copy) != 0)
            ui_state_message(st, true, "the terminal did not take the copy");
        free(st->copy);
        st->copy = NULL;
    }
    return f;
}

static void run_loop(const struct ui_config *c, struct ui_state *st, struct model **mp,
                     struct ui_grid *g, struct ui_behind *b, struct ui_drill *d)
{
    unsigned flags = UI_REDRAW | UI_RELAYOUT;

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
                ui_drill_start(d, c, cur);
        }
    }
}

/* The job to show: its rank summaries without their events when
 * summary_job_choose says so (job then open, the model from summaries), else its
 * events, loaded (with a progress screen on g when given). */
static struct model *open_job(const struct ui_config *c, struct summary_job *job,
                              struct ui_grid *g, struct ui_behind *b, struct err *e,
                              bool *cancelled)
{
    memset(job, 0, sizeof *job);
    if (!c->test_path) {
        int rc = summary_job_choose(c->paths, c->npaths, c->events, c->limits.max_memory, &c->sem,
                                    job, e);
        if (rc < 0)
            return NULL;
        if (rc == 1 && !c->stored_parameters) {
            summary_job_fini(job);
            err_set(e, ERR_USAGE, "the rank summaries' tables are made with every analysis "
                    "parameter at its default, which these options change, and their events "
                    "are not loaded (--events=skip, or over HTX_MAX_MEMORY): drop those options, "
                    "or load the events (--events=load)");
            return NULL;
        }
        if (rc == 1) {
            struct model *m = summary_job_model(job, &c->sem, e);
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
        if (b && c->events == HTX_EVENTS_AUTO && c->stored_parameters &&
            summary_job_preview(c->paths, c->npaths, c->cache, &c->sem, job, &ignored) == 1 &&
            !(m = summary_job_model(job, &c->sem, &ignored)))
            summary_job_fini(job);
        if (m) {
            ui_behind_start(b, c, job);
            if (b->active)
                return m;
            model_free(m);
            summary_job_fini(job);
        }
    }
    return g ? ui_load_with_progress(c, c->paths, c->npaths, g, e, cancelled)
             : ui_load(c, c->paths, c->npaths, NULL, e);
}

static int interactive(const struct ui_config *c)
{
    struct ui_term_opts to = {c->no_color, c->no_mouse, false, 0, 0};
    struct err e = {0, ""};
    struct ui_grid g;
    struct ui_state st;
    bool cancelled = false;
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
    if (ui_grid_init(&g, rows, cols, c->ascii) != 0) {
        ui_term_close();
        fputs("htx: out of memory\n", stderr);
        return 1;
    }
    struct models ms = {NULL, NULL};
    struct summary_job job;
    struct ui_behind behind = {.active = false};
    struct ui_drill drill = {.loading = false, .shown = false};
    const struct summary_job *shown = &job;
    memset(&job, 0, sizeof job);
    if (c->summary_diff) {
        shown = take_summary_diff(c, &ms);
    } else {
        ms.m = open_job(c, &job, &g, &behind, &e, &cancelled);
        if (ms.m && c->test_path && !cancelled)
            ms.test = ui_load_with_progress(c, &c->test_path, 1, &g, &e, &cancelled);
    }
    int status = 0;
    if (!ms.m || (c->test_path && !ms.test)) {
        ui_term_close();
        ui_grid_fini(&g);
        models_free(&ms);
        if (!cancelled && ui_term_signal() == 0)
            app_fail(&e);
        ui_term_reraise();
        summary_job_fini(&job);
        return cancelled ? 0 : err_exit_status(e.code ? e.code : ERR_IO);
    }
    ui_term_size(&rows, &cols);
    if (ui_setup_state(&st, ms.m, ms.test, c, shown, rows, cols, &e) != 0 && e.code == ERR_USAGE)
        status = 2;
    else
        run_loop(c, &st, &ms.m, &g, &behind, &drill);
    ui_drill_stop(&drill);
    ui_behind_stop(&behind);
    ui_term_close();
    if (status)
        app_fail(&e);
    if (st.diff && c->diff_close)
        c->diff_close(&st);
    ui_state_fini(&st);
    ui_grid_fini(&g);
    models_free(&ms);
    summary_job_fini(&job);
    ui_term_reraise();
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
static int write_dump(const struct ui_config *c, const struct models *ms, int rows, int cols,
                      struct err *e)
{
    if (!c->dump) {
        int rc = ui_draw_dump(stdout, rows, cols);
        return rc ? err_set(e, ERR_IO, "stdout: cannot write the screen dump") : 0;
    }
    size_t nranks = ms->m ? ms->m->nranks : 0, ntest = ms->test ? ms->test->nranks : 0;
    size_t n = 0, cap = c->npaths + nranks + ntest + 2;
    const char **inputs = calloc(cap, sizeof *inputs);
    if (!inputs)
        return err_set(e, ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < c->npaths; i++)
        inputs[n++] = c->paths[i];
    for (size_t i = 0; i < nranks; i++)
        inputs[n++] = ms->m->ranks[i].path;
    for (size_t i = 0; i < ntest; i++)
        inputs[n++] = ms->test->ranks[i].path;
    inputs[n++] = c->test_path;
    inputs[n++] = c->script;
    struct outfile o;
    int rc = outfile_begin(&o, c->dump, c->force, inputs, n, e);
    free(inputs);
    if (rc)
        return rc;
    FILE *f = outfile_stream(&o, e);
    if (!f || ui_draw_dump(f, rows, cols) != 0) {
        outfile_abort(&o);
        return err_set(e, ERR_IO, "%s: cannot write the screen dump", c->dump);
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
            ui_sync(st, m, UI_RELAYOUT, &e);
            continue;
        }
        unsigned f = ui_step(st, m, steps[i].key);
        if ((f & UI_QUIT) || st->quit)
            break;
    }
}

static int scripted(const struct ui_config *c)
{
    struct ui_term_opts to = {c->no_color, true, true, c->rows ? c->rows : 30,
                              c->cols ? c->cols : 100};
    struct ui_script_step *steps = NULL;
    struct err e = {0, ""};
    struct ui_grid g;
    struct ui_state st;
    size_t n = 0;

    if (read_script(c->script, &steps, &n, &e) != 0 || ui_term_open(&to, &e) != 0) {
        app_fail(&e);
        free(steps);
        return 1;
    }
    int status = ui_grid_init(&g, to.rows, to.cols, c->ascii) != 0 ? 1 : 0;
    struct models ms = {NULL, NULL};
    struct summary_job job = {0};
    const struct summary_job *shown = &job;
    if (!status && c->summary_diff) {
        shown = take_summary_diff(c, &ms);
    } else if (!status) {
        ms.m = open_job(c, &job, NULL, NULL, &e, NULL);
        if (ms.m && c->test_path)
            ms.test = ui_load(c, &c->test_path, 1, NULL, &e);
    }
    struct model *m = ms.m;
    memset(&st, 0, sizeof st);
    if (!ms.m || (c->test_path && !ms.test)) {
        ui_screen_message(&g, " htx", e.msg);
        status = err_exit_status(e.code ? e.code : ERR_NOMEM);
    } else if (ui_setup_state(&st, m, ms.test, c, shown, to.rows, to.cols, &e) != 0 &&
               e.code == ERR_USAGE) {
        ui_screen_message(&g, " htx", e.msg);
        status = 2;
    } else {
        play(&st, m, &g, steps, n);
        ui_screen_compose(&st, m, &g);
    }
    ui_draw_grid(&g, true);
    struct err de = {0, ""};
    if (write_dump(c, &ms, g.rows, g.cols, &de) != 0 && status == 0) {
        status = err_exit_status(de.code) ? err_exit_status(de.code) : 1;
        e = de;
    }
    ui_term_close();
    if (status)
        app_fail(&e);
    if (st.diff && c->diff_close)
        c->diff_close(&st);
    ui_state_fini(&st);
    models_free(&ms);
    summary_job_fini(&job);
    ui_grid_fini(&g);
    free(steps);
    return status;
}

int ui_run(const struct ui_config *c)
{
    struct ui_config cc = *c;

    // LC_CTYPE only: numbers keep '.' as the decimal point (STYLE.md §5).
    setlocale(LC_CTYPE, "");
    if (strcmp(nl_langinfo(CODESET), "UTF-8") != 0)
        cc.ascii = true;
    return cc.script ? scripted(&cc) : interactive(&cc);
}
