#ifndef HTX_UI_LOAD_H
#define HTX_UI_LOAD_H

/* The TUI's models loaded on a thread, so the UI stays responsive: with a
 * progress screen before the first one; a summary job's events behind its
 * first screen (behind); one rank of a summary job with its events while the
 * job stays on screen (drill). */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/lane_fill.h"
#include "app/summary_job.h"
#include "model/model.h"
#include "ui/run.h"
#include "ui/state.h"
#include "ui/widgets/grid.h"
#include "util/err.h"

struct ui_loader {
    const struct ui_inputs *in;
    const char *const *paths;
    size_t npaths;
    pthread_t thread;
    pthread_mutex_t lock;
    struct load_progress progress;
    bool done, cancel;
    struct model *m;
    struct err e;
    const char *gate;   /* HTX_TEST_LOAD_GATE (tests): held until it exists */
    struct lane_fill *fill;   /* the lanes of the events so far, or NULL */
};

/* The keys typed while the screen waits for the events, to apply in order
 * once they are in (beyond the room, counted and not applied). */
#define UI_KEYS_WAITING_MAX 256
struct ui_keys_waiting {
    int keys[UI_KEYS_WAITING_MAX];
    size_t n, dropped;
};

/* Loads paths as the inputs say (its cache, limits and threads), with
 * l's progress and cancel when given. */
struct model *ui_load(const struct ui_inputs *in, const char *const *paths, size_t npaths,
                      struct ui_loader *l, struct err *e);
/* The same on a thread, with the screen's frame and the progress on g
 * until it is done (ui_screen_loading); q, Ctrl-C or a signal cancels
 * (*cancelled); any other key is kept in *waiting. */
struct model *ui_load_with_progress(const struct ui_inputs *in, const char *const *paths,
                                    size_t npaths, struct ui_grid *g,
                                    struct ui_keys_waiting *waiting, struct err *e,
                                    bool *cancelled);

/* A summary job's events loading behind its first screen (open_job): the
 * loader's progress in the status line, then the job again with them. */
struct ui_behind {
    struct ui_loader l;
    bool active;
    struct summary_job *job;   /* the summary job shown meanwhile: let go at the swap */
    size_t shown;              /* the ranks done last said */
};

/* Starts loading in's paths behind job's screen (b->active when it runs). */
void ui_behind_start(struct ui_behind *b, const struct ui_inputs *in, struct summary_job *job);
/* Cancels and waits for a load still running (the job quits). */
void ui_behind_stop(struct ui_behind *b);
/* Says the progress in st, or swaps the loaded job in (*m, st made again,
 * the summary job let go) when it is done: UI_* flags. */
unsigned ui_behind_poll(struct ui_state *st, struct model **m, struct ui_behind *b);

/* One rank of a summary job with its events (Enter on its lane, its kernel
 * row or its collective): its summary loads on a thread while the job stays
 * on screen and the status line counts bytes and events; then the rank is
 * shown alone, in a state of its own on the job's view, until q brings the
 * job back as it was. In a diff of summaries, one rank a side (its iterations or
 * an op's instances): both load, then their diff is shown. */
struct ui_drill {
    struct ui_loader l, lt;    /* the rank's load; the test rank's (a diff) */
    struct ui_inputs in;       /* the job's, on the one summary (and the test's) */
    const char *file;          /* the summary (the job's summary-only ranks own it) */
    const char *test_file;     /* a diff's test rank's summary, or NULL */
    long long rank, test_rank;
    enum ui_view_id view;      /* the job's when asked */
    bool loading, loading_test, shown;
    struct load_progress seen, seen_test;   /* each load's last progress */
    uint64_t said;             /* the bytes read last said */
    struct ui_state st;        /* the rank's (or the ranks' diff), while shown */
    struct model *m, *test;
};

/* Starts loading job->open_summary, the rank job->open_rank (UI_OPEN_RANK). */
void ui_drill_start(struct ui_drill *d, const struct ui_inputs *in, struct ui_state *job);
/* Says the progress in job, or sets up d->st when it is done (d->shown). */
unsigned ui_drill_poll(struct ui_state *job, struct ui_drill *d, const struct ui_grid *g);
/* Lets the rank go: the job (m) again, at g's size. */
void ui_drill_leave(struct ui_state *job, struct model *m, struct ui_drill *d,
                    const struct ui_grid *g);
/* The job quits: a load cancelled, a rank shown let go. */
void ui_drill_stop(struct ui_drill *d);

#endif
