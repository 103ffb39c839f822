#include "config.h"
#include "ui/load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app/cache.h"
#include "app/session.h"
#include "ui/screen.h"
#include "ui/initial_state.h"
#include "ui/refresh.h"
#include "ui/term/draw.h"
#include "ui/term/term.h"
#include "ui/views/diff.h"
#include "ui/widgets/keys.h"
#include "ui/widgets/text.h"
#include "util/clock.h"
#include "util/pool.h"

static bool cancel_asked(struct ui_loader *l)
{
    pthread_mutex_lock(&l->lock);
    bool cancel = l->cancel;
    pthread_mutex_unlock(&l->lock);
    return cancel;
}

/* HTX_TEST_LOAD_GATE=FILE, for tests: the load holds at its first report
 * of progress until FILE exists or the load is cancelled, so a test sees
 * the screens shown while it loads without timing them. */
static void hold_at_gate(struct ui_loader *l)
{
    const struct timespec tick = {0, 10 * 1000 * 1000};
    while (access(l->gate, F_OK) != 0 && !cancel_asked(l))
        nanosleep(&tick, NULL);
    l->gate = NULL;
}

static int on_progress(void *ctx, const struct load_progress *p)
{
    struct ui_loader *l = ctx;
    pthread_mutex_lock(&l->lock);
    l->progress = *p;
    pthread_mutex_unlock(&l->lock);
    if (l->gate)   // the loader's threads call this one at a time
        hold_at_gate(l);
    return cancel_asked(l);
}

/* The events kept since a file's last batch, into the lanes drawn while
 * the trace loads: one lock a batch. */
static void on_spans(void *ctx, const struct load_batch *b)
{
    struct ui_loader *l = ctx;
    pthread_mutex_lock(&l->lock);
    if (lane_fill_add(l->fill, b) != 0) {   // out of memory: the lanes stop where they are
        lane_fill_fini(l->fill);
        l->fill = NULL;
    }
    pthread_mutex_unlock(&l->lock);
}

struct model *ui_load(const struct ui_inputs *in, const char *const *paths, size_t npaths,
                      struct ui_loader *l, struct err *e)
{
    struct load_opts lo;

    memset(&lo, 0, sizeof lo);
    lo.threads = in->o->threads;
    lo.limits = in->limits;
    if (l) {
        lo.progress = on_progress;
        lo.progress_ctx = l;
    }
    if (l && l->fill) {
        lo.spans = on_spans;
        lo.spans_ctx = l;
    }
    if (in->cache)
        app_cache_attach(in->cache, &lo);
    struct model *m = model_load(paths, npaths, &in->sem, &lo, e);
    if (m && in->cache)
        app_cache_loaded(in->cache);
    if (m && app_align_clocks(m, in->o, e) < 0) {
        model_free(m);
        return NULL;
    }
    return m;
}

static void *load_thread(void *arg)
{
    struct ui_loader *l = arg;
    struct err e = {0, ""};
    struct model *m = ui_load(l->in, l->paths, l->npaths, l, &e);

    pthread_mutex_lock(&l->lock);
    l->m = m;
    l->e = e;
    l->done = true;
    pthread_mutex_unlock(&l->lock);
    return NULL;
}

/* Starts l loading paths on a thread of its own; false when none starts. */
static bool loader_start(struct ui_loader *l, const struct ui_inputs *in, const char *const *paths,
                         size_t npaths, struct lane_fill *fill)
{
    memset(l, 0, sizeof *l);
    l->fill = fill;
    l->in = in;
    l->paths = paths;
    l->npaths = npaths;
    l->gate = getenv("HTX_TEST_LOAD_GATE");
    pthread_mutex_init(&l->lock, NULL);
    if (pool_thread_start(&l->thread, load_thread, l) == 0)
        return true;
    pthread_mutex_destroy(&l->lock);
    return false;
}

static void loader_ask_cancel(struct ui_loader *l)
{
    pthread_mutex_lock(&l->lock);
    l->cancel = true;
    pthread_mutex_unlock(&l->lock);
}

/* Whether l is done (its thread then joined: l->m or l->e is the result),
 * with its progress so far in *p. */
static bool loader_poll(struct ui_loader *l, struct load_progress *p)
{
    pthread_mutex_lock(&l->lock);
    bool done = l->done;
    *p = l->progress;
    pthread_mutex_unlock(&l->lock);
    if (done) {
        pthread_join(l->thread, NULL);
        pthread_mutex_destroy(&l->lock);
    }
    return done;
}

/* Cancels a running l, waits for it and lets its model go. */
static void loader_stop(struct ui_loader *l)
{
    loader_ask_cancel(l);
    pthread_join(l->thread, NULL);
    pthread_mutex_destroy(&l->lock);
    model_free(l->m);
    l->m = NULL;
}


/* Keeps a key typed during the load for when it is done (a key beyond
 * the room is counted, never applied out of order). */
static void keep_key(struct ui_keys_waiting *w, int key)
{
    if (w->dropped == 0 && w->n < UI_KEYS_WAITING_MAX)
        w->keys[w->n++] = key;
    else
        w->dropped++;
}

struct model *ui_load_with_progress(const struct ui_inputs *in, const char *const *paths,
                                    size_t npaths, struct ui_grid *g,
                                    struct ui_keys_waiting *waiting, struct err *e,
                                    bool *cancelled)
{
    struct ui_loader l;
    char tb[512];
    double t0 = util_seconds();

    struct lane_fill fill, shown;
    bool lanes = lane_fill_init(&fill) == 0;
    if (lanes && lane_fill_init(&shown) != 0) {
        lane_fill_fini(&fill);
        lanes = false;
    }
    if (!loader_start(&l, in, paths, npaths, lanes ? &fill : NULL)) {
        if (lanes) {
            lane_fill_fini(&fill);
            lane_fill_fini(&shown);
        }
        return ui_load(in, paths, npaths, NULL, e);
    }
    // The screen is drawn ten times a second, but the load is looked at
    // every 20 ms: the first screen follows the load by no more than that.
    double drawn = -1;
    for (;;) {
        struct load_progress p;
        if (loader_poll(&l, &p))
            break;
        double t = util_seconds();
        if (drawn < 0 || t - drawn >= 0.1) {
            const struct lane_fill *pic = NULL;
            pthread_mutex_lock(&l.lock);   // (not done: the lock is there)
            if (l.fill) {
                lane_fill_copy(&shown, l.fill);
                pic = &shown;
            }
            pthread_mutex_unlock(&l.lock);
            ui_screen_loading(g, npaths == 1 ? paths[0] : ui_inputs_title(in, tb, sizeof tb), &p,
                              t - t0, waiting->n + waiting->dropped, pic);
            ui_draw_grid(g, false);
            drawn = t;
        }
        struct ui_mouse_event mev;
        int key = ui_term_read(20, &mev);
        if (key == 'q' || key == UI_KEY_CTRL('c') || key == UI_KEY_INTERRUPT) {
            loader_ask_cancel(&l);
            *cancelled = true;
        } else if (key == UI_KEY_RESIZE) {
            int rows, cols;
            ui_term_size(&rows, &cols);
            ui_grid_resize(g, rows, cols);
            drawn = -1;
        } else if (key != UI_KEY_NONE && key != UI_KEY_MOUSE && !*cancelled) {
            keep_key(waiting, key);   // a click on the frame would land on nothing
            drawn = -1;
        }
    }
    if (lanes) {
        lane_fill_fini(&fill);   // (zeroed already if the lanes ran out of memory)
        lane_fill_fini(&shown);
    }
    *e = l.e;
    return l.m;
}

void ui_behind_start(struct ui_behind *b, const struct ui_inputs *in, struct summary_job *job)
{
    memset(b, 0, sizeof *b);
    b->job = job;
    b->active = loader_start(&b->l, in, in->paths, in->npaths, NULL);
}

/* Cancels and waits for a load still running (the job quits). */
void ui_behind_stop(struct ui_behind *b)
{
    if (!b->active)
        return;
    loader_stop(&b->l);
    b->active = false;
}

/* The same view, zoom and lane on the job with its events: the state is
 * made again for the new model (every index into the old one goes). */
static unsigned swap_in(struct ui_state *st, struct model **m, struct ui_behind *b,
                        struct model *full)
{
    enum ui_view_id view = st->view;
    struct ui_history history = st->history;
    enum ui_focus focus = st->focus;
    struct ui_timeline tl = st->tl;
    int rows = st->rows, cols = st->cols;
    struct err e = {0, ""};
    ui_state_fini(st);
    model_free(*m);
    summary_job_fini(b->job);
    *m = full;
    if (ui_initial_state(st, full, NULL, b->l.in, NULL, rows, cols, &e) != 0) {
        ui_state_message(st, true, "%s", e.msg);
        return UI_REDRAW | UI_RELAYOUT;
    }
    st->view = view;
    st->history = history;
    st->focus = focus;
    st->tl.t0 = tl.t0;
    st->tl.t1 = tl.t1;
    st->tl.cursor = tl.cursor;
    if (tl.lane < st->nlanes) {
        st->tl.lane = tl.lane;
        st->tl.lane_top = tl.lane_top < st->nlanes ? tl.lane_top : tl.lane;
    }
    ui_refresh(st, full, UI_RESELECT | UI_RELANE, &e);
    char changed[sizeof st->message];
    if (b->l.in->cache && app_cache_changed(b->l.in->cache, changed, sizeof changed))
        ui_state_message(st, true, "%s", changed);   // the first screen was the old trace's
    else
        ui_state_message(st, false, "events loaded: every view has them");
    return UI_REDRAW | UI_RELAYOUT;
}

/* Polls the load behind: progress said, or the swap when it is done. */
unsigned ui_behind_poll(struct ui_state *st, struct model **m, struct ui_behind *b)
{
    if (!b->active)
        return 0;
    struct load_progress p;
    if (!loader_poll(&b->l, &p)) {
        if (p.ranks_done == b->shown && b->shown)
            return 0;
        b->shown = p.ranks_done ? p.ranks_done : 1;
        ui_state_message(st, false, "loading the events behind this screen: %zu of %zu ranks",
                         p.ranks_done, p.ranks_total);
        return UI_REDRAW;
    }
    b->active = false;
    if (!b->l.m) {
        ui_state_message(st, true, "the events could not be loaded: %s", b->l.e.msg);
        return UI_REDRAW;
    }
    return swap_in(st, m, b, b->l.m);
}

void ui_drill_start(struct ui_drill *d, const struct ui_inputs *in, struct ui_state *job)
{
    memset(d, 0, sizeof *d);
    d->file = job->open_summary;
    d->rank = job->open_rank;
    d->test_file = job->open_test_summary;
    d->test_rank = job->open_test_rank;
    job->open_test_summary = NULL;
    d->view = job->view;
    d->in = *in;
    d->in.paths = &d->file;
    d->in.npaths = 1;
    d->in.test_path = d->test_file;
    d->in.summary_diff = NULL;
    d->in.whole = true;
    d->loading = loader_start(&d->l, &d->in, d->in.paths, 1, NULL);
    if (d->loading && d->test_file) {
        d->loading_test = loader_start(&d->lt, &d->in, &d->test_file, 1, NULL);
        if (!d->loading_test) {
            loader_stop(&d->l);
            d->loading = false;
        }
    }
    if (!d->loading) {
        ui_state_message(job, true, "%s: no thread to load it on", d->file);
        return;
    }
    if (d->test_file)
        ui_state_message(job, false, "loading rank %lld's events from %s and rank %lld's from %s "
                         "behind this screen", d->rank, d->file, d->test_rank, d->test_file);
    else
        ui_state_message(job, false, "loading rank %lld's events from %s behind this screen",
                         d->rank, d->file);
}

/* Whether the loads are done (each joined once); their bytes and events so
 * far, together, in *p (a load done first counts as it ended). */
static bool drill_loaded(struct ui_drill *d, struct load_progress *p)
{
    if (d->loading && loader_poll(&d->l, &d->seen))
        d->loading = false;
    if (d->loading_test && loader_poll(&d->lt, &d->seen_test))
        d->loading_test = false;
    *p = d->seen;
    p->bytes_read += d->seen_test.bytes_read;
    p->bytes_total += d->seen_test.bytes_total;
    p->events += d->seen_test.events;
    return !d->loading && !d->loading_test;
}

/* The rank (or a diff's two) shown on d's own state: 0, or an error in e. */
static int drill_show(struct ui_drill *d, const struct ui_grid *g, struct err *e)
{
    if (ui_initial_state(&d->st, d->m, d->test, &d->in, NULL, g->rows, g->cols, e) != 0)
        return e->code;
    if (d->st.diff)   // each side is its one rank, whichever the options named
        ui_diff_compare_whole(&d->st);
    if (d->view != UI_VIEW_DIFF) {
        d->st.view = d->view;
        ui_refresh(&d->st, d->m, UI_RESELECT, e);
    }
    return 0;
}

static void drill_free(struct ui_drill *d)
{
    if (d->st.diff)
        ui_diff_close(&d->st);
    ui_state_fini(&d->st);
    model_free(d->m);
    model_free(d->test);
    d->m = d->test = NULL;
}

/* Polls the rank's load: progress said on the job's screen, or the rank
 * shown when it is done. */
unsigned ui_drill_poll(struct ui_state *job, struct ui_drill *d, const struct ui_grid *g)
{
    if (!d->loading && !d->loading_test)
        return 0;
    struct load_progress p = {0};
    if (!drill_loaded(d, &p)) {
        if (p.bytes_read == d->said)
            return 0;
        d->said = p.bytes_read;
        char read[32], total[32];
        ui_format_bytes(p.bytes_read, read, sizeof read);
        ui_format_bytes(p.bytes_total, total, sizeof total);
        if (d->test_file)
            ui_state_message(job, false, "loading ranks %lld and %lld's events behind this screen: "
                             "%s of %s, %llu events", d->rank, d->test_rank, read, total,
                             (unsigned long long)p.events);
        else
            ui_state_message(job, false, "loading rank %lld's events behind this screen: %s of "
                             "%s, %llu events", d->rank, read, total, (unsigned long long)p.events);
        return UI_REDRAW;
    }
    d->m = d->l.m;
    d->test = d->test_file ? d->lt.m : NULL;
    d->l.m = d->lt.m = NULL;
    const char *failed = !d->m ? d->file : d->test_file && !d->test ? d->test_file : NULL;
    if (failed) {
        ui_state_message(job, true, "%s: the events could not be loaded: %s", failed,
                         (!d->m ? &d->l.e : &d->lt.e)->msg);
        model_free(d->m);
        model_free(d->test);
        d->m = d->test = NULL;
        return UI_REDRAW;
    }
    struct err e = {0, ""};
    if (drill_show(d, g, &e) != 0) {
        drill_free(d);
        ui_state_message(job, true, "rank %lld: %s", d->rank, e.msg);
        return UI_REDRAW;
    }
    if (d->test_file)
        ui_state_message(&d->st, false, "rank %lld | rank %lld with their events: ] [ step "
                         "iterations, Enter an op's; q goes back to the job", d->rank, d->test_rank);
    else
        ui_state_message(&d->st, false, "rank %lld with its events: q goes back to the job",
                         d->rank);
    d->shown = true;
    return UI_REDRAW | UI_RELAYOUT;
}

/* The job again, as it was (but the terminal's size, which may have changed). */
void ui_drill_leave(struct ui_state *job, struct model *m, struct ui_drill *d,
                    const struct ui_grid *g)
{
    struct err e = {0, ""};
    drill_free(d);
    d->shown = false;
    job->rows = g->rows;
    job->cols = g->cols;
    ui_refresh(job, m, UI_RELAYOUT, &e);
    if (d->test_file)
        ui_state_message(job, false, "back from %s | %s", d->file, d->test_file);
    else
        ui_state_message(job, false, "back from %s", d->file);
}

/* The job quits: a rank's load cancelled, a rank shown let go. */
void ui_drill_stop(struct ui_drill *d)
{
    if (d->loading)
        loader_stop(&d->l);
    if (d->loading_test)
        loader_stop(&d->lt);
    d->loading = d->loading_test = false;
    if (d->shown) {
        drill_free(d);
        d->shown = false;
    }
}
