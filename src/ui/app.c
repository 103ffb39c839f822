#include "config.h"
#include "ui/app.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/light.h"
#include "app/cache.h"
#include "app/session.h"
#include "ui/actions.h"
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

/* ---- loading on a thread, so the UI stays responsive ---- */

struct loader {
    const struct ui_config *c;
    const char *const *paths;
    size_t npaths;
    pthread_t thread;
    pthread_mutex_t lock;
    struct load_progress progress;
    bool done, cancel;
    struct model *m;
    struct err e;
};

static int on_progress(void *ctx, const struct load_progress *p)
{
    struct loader *l = ctx;
    pthread_mutex_lock(&l->lock);
    l->progress = *p;
    int cancel = l->cancel;
    pthread_mutex_unlock(&l->lock);
    return cancel;
}

static struct model *load(const struct ui_config *c, const char *const *paths, size_t npaths,
                          struct loader *l, struct err *e)
{
    struct load_opts lo;

    memset(&lo, 0, sizeof lo);
    lo.threads = c->threads;
    lo.limits = c->limits;
    if (l) {
        lo.progress = on_progress;
        lo.progress_ctx = l;
    }
    if (c->cache)
        app_cache_attach(c->cache, &lo);
    struct model *m = model_load(paths, npaths, &c->sem, &lo, e);
    if (m && c->cache)
        app_cache_model(c->cache, m);   // before any other thread reads m
    return m;
}

static void *load_thread(void *arg)
{
    struct loader *l = arg;
    struct err e = {0, ""};
    struct model *m = load(l->c, l->paths, l->npaths, l, &e);

    pthread_mutex_lock(&l->lock);
    l->m = m;
    l->e = e;
    l->done = true;
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *title_of(const struct ui_config *c, char *buf, size_t n)
{
    if (c->test_path && c->npaths == 1)
        snprintf(buf, n, "%s vs %s", c->paths[0], c->test_path);
    else if (c->npaths == 1)
        return c->paths[0];
    else
        snprintf(buf, n, "%zu paths", c->npaths);
    return buf;
}

/* Shows progress until the loader finishes; q, Esc or a signal cancels. */
static struct model *load_with_progress(const struct ui_config *c, const char *const *paths,
                                        size_t npaths, struct ui_grid *g, struct err *e,
                                        bool *cancelled)
{
    struct loader l;
    char tb[512];
    double t0 = now();

    memset(&l, 0, sizeof l);
    l.c = c;
    l.paths = paths;
    l.npaths = npaths;
    pthread_mutex_init(&l.lock, NULL);
    if (pthread_create(&l.thread, NULL, load_thread, &l) != 0) {
        pthread_mutex_destroy(&l.lock);
        return load(c, paths, npaths, NULL, e);
    }
    for (;;) {
        pthread_mutex_lock(&l.lock);
        bool done = l.done;
        struct load_progress p = l.progress;
        pthread_mutex_unlock(&l.lock);
        if (done)
            break;
        ui_screen_loading(g, npaths == 1 ? paths[0] : title_of(c, tb, sizeof tb), &p,
                          now() - t0);
        ui_draw_grid(g, false);
        struct ui_mouse_event mev;
        int key = ui_term_read(100, &mev);
        if (key == 'q' || key == UI_KEY_ESC || key == UI_KEY_CTRL('c') || key == UI_KEY_INTERRUPT) {
            pthread_mutex_lock(&l.lock);
            l.cancel = true;
            pthread_mutex_unlock(&l.lock);
            *cancelled = true;
        } else if (key == UI_KEY_RESIZE) {
            int rows, cols;
            ui_term_size(&rows, &cols);
            ui_grid_resize(g, rows, cols);
        }
    }
    pthread_join(l.thread, NULL);
    pthread_mutex_destroy(&l.lock);
    *e = l.e;
    return l.m;
}

/* ---- the state the options ask for ---- */

static int apply_ranks(struct ui_state *st, const struct ui_config *c, struct err *e)
{
    if (c->nranks == 0)
        return 0;
    for (size_t r = 0; r < st->nranks; r++)
        st->ranks[r].included = false;
    for (size_t i = 0; i < c->nranks; i++) {
        size_t r = 0;
        while (r < st->nranks && st->ranks[r].number != c->ranks[i])
            r++;
        if (r == st->nranks)
            return err_set(e, ERR_USAGE, "--rank: the trace has no rank %lld",
                           (long long)c->ranks[i]);
        st->ranks[r].included = true;
    }
    return 0;
}

static int apply_iterations(struct ui_state *st, const struct ui_config *c, struct err *e)
{
    for (size_t i = 0; i < c->niterations; i++) {
        size_t k = 0;
        while (k < st->niterations && st->iterations[k] != c->iterations[i])
            k++;
        if (k == st->niterations)
            return err_set(e, ERR_USAGE, "--iteration: the trace has no iteration %lld",
                           (long long)c->iterations[i]);
        st->iteration = (long)k;
    }
    if (c->niterations > 1) {
        st->iteration = UI_ITER_LIST;
        st->iter_list = c->iterations;
        st->niter_list = c->niterations;
    }
    return 0;
}

static int setup_state(struct ui_state *st, struct model *m, const struct model *test,
                       const struct ui_config *c, const struct app_light *light, int rows,
                       int cols, struct err *e)
{
    static char title[512];

    if (ui_state_init(st, m, rows, cols) != 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    st->light = light && light->n ? light : NULL;
    st->ascii = c->ascii;
    st->no_mouse = c->no_mouse;
    st->no_osc52 = c->no_osc52;
    st->title = title_of(c, title, sizeof title);
    st->analyses = c->analyses;
    st->nanalyses = c->nanalyses;
    st->aopts = c->aopts;
    int rc = apply_ranks(st, c, e);
    if (rc == 0)
        rc = apply_iterations(st, c, e);
    if (rc != 0)
        return rc;
    st->has_window = c->has_window;
    st->window_start = c->window_start;
    st->window_end = c->window_end;
    if (test && c->diff_open) {
        rc = c->diff_open(st, m, test, c->diff_ctx, e);
        if (rc != 0)
            return rc;
        st->view = st->prev_view = UI_VIEW_DIFF;
        if (c->diff_sort >= 0)
            ui_diff_set_sort(st, c->diff_sort ? UI_DIFF_SORT_NAME : UI_DIFF_SORT_DDUR);
    }
    if (c->start_view) {
        bool found = false;
        for (int id = 0; id < UI_VIEW_COUNT && !found; id++) {
            const struct ui_view_ops *v = ui_view_get(st, (enum ui_view_id)id);
            if (v && v->key == c->start_view) {
                st->view = st->prev_view = (enum ui_view_id)id;
                found = true;
            }
        }
        if (!found)
            ui_state_message(st, true, "view %c opens with htx diff CONTROL TEST", c->start_view);
    }
    rc = ui_sync(st, m, UI_RESELECT | UI_RELANE, e);
    if (rc == 0 && m->nfailed)
        ui_state_message(st, true, "%zu file(s) failed to load: press i for details", m->nfailed);
    return rc;
}

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

/* A light job's rank with its events: htx itself on the rank's summary, as
 * a child on the terminal; the job's screen comes back when it quits. */
static void open_rank(struct ui_state *st, const char *summary)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        ui_state_message(st, true, "cannot find htx's own program to open %s", summary);
        return;
    }
    self[n] = '\0';
    char events[] = "--events=load", *path = strdup(summary);
    char *argv[] = {self, events, path, NULL};
    int status = path ? ui_term_run_child(argv) : -1;
    int why = errno;
    free(path);
    if (status == 0)
        ui_state_message(st, false, "back from %s", summary);
    else if (status < 0)
        ui_state_message(st, true, "htx %s: could not start (%s)", summary, strerror(why));
    else
        ui_state_message(st, true, "htx %s: exit status %d", summary, status);
}

/* A light job's events loading behind its first screen (open_job): the
 * loader's progress in the status line, then the job again with them. */
struct behind {
    struct loader l;
    bool active;
    struct app_light *light;   /* the light job shown meanwhile: let go at the swap */
    size_t shown;              /* the ranks done last said */
};

static void start_behind(struct behind *b, const struct ui_config *c, struct app_light *light)
{
    memset(b, 0, sizeof *b);
    b->light = light;
    b->l.c = c;
    b->l.paths = c->paths;
    b->l.npaths = c->npaths;
    pthread_mutex_init(&b->l.lock, NULL);
    b->active = pthread_create(&b->l.thread, NULL, load_thread, &b->l) == 0;
    if (!b->active)
        pthread_mutex_destroy(&b->l.lock);
}

/* Cancels and waits for a load still running (the job quits). */
static void stop_behind(struct behind *b)
{
    if (!b->active)
        return;
    pthread_mutex_lock(&b->l.lock);
    b->l.cancel = true;
    pthread_mutex_unlock(&b->l.lock);
    pthread_join(b->l.thread, NULL);
    pthread_mutex_destroy(&b->l.lock);
    model_free(b->l.m);
    b->active = false;
}

/* The same view, zoom and lane on the job with its events: the state is
 * made again for the new model (every index into the old one goes). */
static unsigned swap_in(struct ui_state *st, struct model **m, struct behind *b, struct model *full)
{
    enum ui_view_id view = st->view, prev = st->prev_view;
    enum ui_focus focus = st->focus;
    struct ui_timeline tl = st->tl;
    int rows = st->rows, cols = st->cols;
    struct err e = {0, ""};
    ui_state_fini(st);
    model_free(*m);
    app_light_fini(b->light);
    *m = full;
    if (setup_state(st, full, NULL, b->l.c, NULL, rows, cols, &e) != 0) {
        ui_state_message(st, true, "%s", e.msg);
        return UI_REDRAW | UI_RELAYOUT;
    }
    st->view = view;
    st->prev_view = prev;
    st->focus = focus;
    st->tl.t0 = tl.t0;
    st->tl.t1 = tl.t1;
    st->tl.cursor = tl.cursor;
    if (tl.lane < st->nlanes) {
        st->tl.lane = tl.lane;
        st->tl.lane_top = tl.lane_top < st->nlanes ? tl.lane_top : tl.lane;
    }
    ui_sync(st, full, UI_RESELECT | UI_RELANE, &e);
    ui_state_message(st, false, "events loaded: every view has them");
    return UI_REDRAW | UI_RELAYOUT;
}

/* Polls the load behind: progress said, or the swap when it is done. */
static unsigned poll_behind(struct ui_state *st, struct model **m, struct behind *b)
{
    if (!b->active)
        return 0;
    pthread_mutex_lock(&b->l.lock);
    bool done = b->l.done;
    struct load_progress p = b->l.progress;
    pthread_mutex_unlock(&b->l.lock);
    if (!done) {
        if (p.ranks_done == b->shown && b->shown)
            return 0;
        b->shown = p.ranks_done ? p.ranks_done : 1;
        ui_state_message(st, false, "loading the events behind this screen: %zu of %zu ranks",
                         p.ranks_done, p.ranks_total);
        return UI_REDRAW;
    }
    pthread_join(b->l.thread, NULL);
    pthread_mutex_destroy(&b->l.lock);
    b->active = false;
    if (!b->l.m) {
        ui_state_message(st, true, "the events could not be loaded: %s", b->l.e.msg);
        return UI_REDRAW;
    }
    return swap_in(st, m, b, b->l.m);
}

static void run_loop(struct ui_state *st, struct model **mp, struct ui_grid *g, struct behind *b)
{
    unsigned flags = UI_REDRAW | UI_RELAYOUT;

    for (;;) {
        flags |= poll_behind(st, mp, b);
        struct model *m = *mp;
        if (flags & (UI_REDRAW | UI_RELAYOUT)) {
            ui_screen_compose(st, m, g);
            ui_draw_grid(g, (flags & UI_RELAYOUT) != 0);
        }
        struct ui_mouse_event mev = {0, 0, 0};
        int key = ui_term_read(b->active ? 100 : 250, &mev);
        if (key == UI_KEY_NONE) {
            flags = 0;
            continue;
        }
        flags = handle_key(st, m, g, key, &mev);
        if ((flags & UI_QUIT) || st->quit)
            return;
        if ((flags & UI_OPEN_RANK) && st->open_summary && b->active) {
            ui_state_message(st, false, "the events are loading behind this screen: a moment");
        } else if ((flags & UI_OPEN_RANK) && st->open_summary) {
            open_rank(st, st->open_summary);
            flags |= UI_RELAYOUT;
        }
    }
}

/* The job to show: its rank summaries without their events when
 * app_light_choose says so (light then open, the model light), else its
 * events, loaded (with a progress screen on g when given). */
static struct model *open_job(const struct ui_config *c, struct app_light *light,
                              struct ui_grid *g, struct behind *b, struct err *e,
                              bool *cancelled)
{
    memset(light, 0, sizeof *light);
    if (!c->test_path) {
        int rc = app_light_choose(c->paths, c->npaths, c->events, c->limits.max_memory, light, e);
        if (rc < 0)
            return NULL;
        if (rc == 1) {
            struct model *m = app_light_model(light, &c->sem, e);
            if (!m)
                app_light_fini(light);
            return m;
        }
        /* summaries whose events fit, or traces whose cache entries are
         * fresh: on a terminal, their tables and tiles at once and the
         * events behind (a summary that cannot be shown so is left to the
         * loader, which names what is wrong) */
        struct err ignored = {0, ""};
        struct model *m = NULL;
        if (b && c->events == HTX_EVENTS_AUTO &&
            app_light_preview(c->paths, c->npaths, c->cache, light, &ignored) == 1 &&
            !(m = app_light_model(light, &c->sem, &ignored)))
            app_light_fini(light);
        if (m) {
            start_behind(b, c, light);
            if (b->active)
                return m;
            model_free(m);
            app_light_fini(light);
        }
    }
    return g ? load_with_progress(c, c->paths, c->npaths, g, e, cancelled)
             : load(c, c->paths, c->npaths, NULL, e);
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
    struct app_light light;
    struct behind behind = {.active = false};
    ms.m = open_job(c, &light, &g, &behind, &e, &cancelled);
    if (ms.m && c->test_path && !cancelled)
        ms.test = load_with_progress(c, &c->test_path, 1, &g, &e, &cancelled);
    int status = 0;
    if (!ms.m || (c->test_path && !ms.test)) {
        ui_term_close();
        ui_grid_fini(&g);
        models_free(&ms);
        if (!cancelled && ui_term_signal() == 0)
            app_fail(&e);
        ui_term_reraise();
        app_light_fini(&light);
        return cancelled ? 0 : err_exit_status(e.code ? e.code : ERR_IO);
    }
    ui_term_size(&rows, &cols);
    if (setup_state(&st, ms.m, ms.test, c, &light, rows, cols, &e) != 0 && e.code == ERR_USAGE)
        status = 2;
    else
        run_loop(&st, &ms.m, &g, &behind);
    stop_behind(&behind);
    ui_term_close();
    if (status)
        app_fail(&e);
    if (st.diff && c->diff_close)
        c->diff_close(&st);
    ui_state_fini(&st);
    ui_grid_fini(&g);
    models_free(&ms);
    app_light_fini(&light);
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
    struct app_light light = {0};
    ms.m = status ? NULL : open_job(c, &light, NULL, NULL, &e, NULL);
    if (ms.m && c->test_path)
        ms.test = load(c, &c->test_path, 1, NULL, &e);
    struct model *m = ms.m;
    memset(&st, 0, sizeof st);
    if (!ms.m || (c->test_path && !ms.test)) {
        ui_screen_message(&g, " htx", e.msg);
        status = err_exit_status(e.code ? e.code : ERR_NOMEM);
    } else if (setup_state(&st, m, ms.test, c, &light, to.rows, to.cols, &e) != 0 &&
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
    app_light_fini(&light);
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
