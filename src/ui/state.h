#ifndef HTX_UI_STATE_H
#define HTX_UI_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/trust.h"
#include "app/summary_job.h"
#include "model/model.h"
#include "ui/widgets/charts.h"
#include "ui/widgets/layout.h"
#include "ui/widgets/nav.h"
#include "ui/widgets/tables.h"
#include "util/arena.h"

/* Everything the TUI knows, as plain data (STYLE.md §5): the focused pane,
 * the active view, what is selected, the visible time window and cursor,
 * each view's tables with their sort, filter and cursor, the overlays and
 * the status message. Actions (ui/actions.h) change it; ui_refresh (ui/refresh.h)
 * brings derived data (lanes, analysis tables) up to date with the model;
 * ui/screen.c draws it into a grid. None of these touch curses.
 *
 * Ownership: a ui_state owns every array it points to, except `analyses`
 * (static) and strings borrowed from the model; ui_state_fini frees them
 * (and has each view let its own data go). */

enum ui_view_id {
    UI_VIEW_TIMELINE = 0,
    UI_VIEW_OVERVIEW,
    UI_VIEW_KERNELS,
    UI_VIEW_IDLE,
    UI_VIEW_OVERLAP,
    UI_VIEW_LAUNCH,
    UI_VIEW_ANNOTATIONS,
    UI_VIEW_COUNTERS,
    UI_VIEW_SEQUENCES,
    UI_VIEW_RANKS,
    UI_VIEW_COLLECTIVES,
    UI_VIEW_DIAGNOSTICS,
    UI_VIEW_FINDINGS,
    UI_VIEW_DIFF,
    UI_VIEW_COUNT
};

/* What an action asks of the loop. */
enum ui_reaction {
    UI_REDRAW = 1 << 0,    /* repaint */
    UI_RELAYOUT = 1 << 1,  /* sizes changed: recompute layout, clear the screen */
    UI_QUIT = 1 << 2,
    UI_RESELECT = 1 << 3,  /* ranks/iteration/window changed: model_select, recompute */
    UI_RELANE = 1 << 4,    /* streams/threads switched: rebuild lanes and tables */
    UI_OPEN_RANK = 1 << 5, /* open st->open_summary with its events */
};

enum ui_focus { UI_FOCUS_RANKS = 0, UI_FOCUS_MAIN };
enum ui_overlay { UI_OVERLAY_NONE = 0, UI_OVERLAY_HELP, UI_OVERLAY_DETAILS, UI_OVERLAY_MEASURE };
enum ui_prompt { UI_PROMPT_NONE = 0, UI_PROMPT_SEARCH, UI_PROMPT_FILTER, UI_PROMPT_GOTO };

#define UI_TEXT_MAX 256
#define UI_DOC_TABLES 12
#define UI_DOC_CHARTS 8
#define UI_ITER_LIST (-2L)

/* One rank in the left pane. Stream and thread lists are captured once
 * after loading (so they survive selections that empty them). */
struct ui_thread_id {
    uint32_t pid, tid, name;   /* string ids */
};

struct ui_rank {
    int64_t number;            /* the rank's number (model->ranks[i].rank) */
    bool included;             /* part of the model selection */
    bool expanded;             /* left pane shows its streams and threads */
    int64_t *streams;          /* GPU stream ids, ascending */
    bool *stream_on;
    size_t nstreams;
    struct ui_thread_id *threads;
    bool *thread_on;           /* CPU thread lanes are off until switched on
                                  (on from the start when the rank has no stream) */
    size_t nthreads;
    double busy;               /* share of the rank's span with a GPU stream busy */
};

enum ui_item_kind { UI_ITEM_RANK = 0, UI_ITEM_STREAM, UI_ITEM_THREAD };

/* One line of the left pane. */
struct ui_item {
    uint8_t kind;              /* enum ui_item_kind */
    uint32_t rank;             /* index into model->ranks */
    uint32_t sub;              /* index into ui_rank streams/threads */
};

enum ui_lane_kind { UI_LANE_STREAM = 0, UI_LANE_THREAD };

/* One timeline lane; `index` points into the rank's current streams or
 * threads (valid until the next model_select, after which lanes are
 * rebuilt). */
struct ui_lane {
    uint8_t kind;              /* enum ui_lane_kind */
    uint32_t rank;             /* index into model->ranks */
    size_t index;
    int64_t stream;            /* stream id (UI_LANE_STREAM) */
    int64_t *ts;               /* start times in index order (owned; NULL if no memory) */
};

struct ui_timeline {
    int64_t t0, t1;            /* visible window, ns */
    int64_t lo, hi;            /* extent of the selected data */
    int cursor;                /* column of the cursor, 0..cols-1 */
    size_t lane, lane_top;     /* cursor lane, first lane shown */
    bool has_mark;             /* `w` pressed once: window start */
    int64_t mark;
    bool has_at;               /* the exact time the cursor was put on (g, ., f),
                                  which counts while it lies in the cursor's cell */
    int64_t at;
    int nmarks;                /* `m`: 0, 1 or 2 points set, to measure between */
    int64_t marks[2];          /* in the order set */
};

/* One instance to jump to (from a table row's Enter or a timeline search). */
struct ui_jump {
    uint32_t rank;             /* index into model->ranks */
    uint32_t pos;              /* position in rank->events */
};

/* A view's computed content: charts, text, and tables. */
struct ui_doc {
    bool valid;                /* computed for the current selection */
    struct arena arena;        /* analysis scratch: tables, charts, text */
    struct table *tables[UI_DOC_TABLES];
    size_t ntables;
    struct ui_tview tv[UI_DOC_TABLES];
    struct ui_chart *charts;   /* UI_DOC_CHARTS slots in the arena */
    size_t ncharts;
    const char **text;         /* free text lines (diagnostics, notes) */
    size_t ntext, text_cap;
    size_t cur;                /* focused table */
    size_t row[UI_DOC_TABLES]; /* cursor per table, index into tv[].rows */
    size_t hcol[UI_DOC_TABLES]; /* per table: its first scrolled column
                                  (ui/widgets/columns.h) */
    /* The view's columns shown first in any table that has them (static
     * names, set by the view; NULL = the tables' own order). */
    const char *const *lead;
    size_t nlead;
    size_t top;                /* first line shown */
    bool follow;               /* keep the cursor row in view (after a move) */
    bool self_filtered[UI_DOC_TABLES]; /* the table applies the filter itself
                                          (the annotation tree keeps ancestors) */
    char filter[UI_TEXT_MAX];
    char search[UI_TEXT_MAX];
    char error[256];           /* an analysis failed: its message */
};

struct ui_binding;
struct ui_view_ops;

struct ui_state {
    /* configuration */
    bool ascii, no_mouse, no_osc52;
    const char *title;                       /* what was opened (path) */
    char title_buf[512];                     /* its text when made ("A vs B", "N paths") */
    const struct analysis_info *analyses;    /* analysis_list() or a test's */
    size_t nanalyses;
    struct analysis_opts aopts;
    const char *export_dir;                  /* where `e` writes; "." */
    /* The job read from its summaries without events (app/summary_job.h), whose
     * model is from summaries: views take its tables and tiles. NULL: events loaded. */
    const struct summary_job *job;
    size_t summary_steps;                    /* the steps its summaries name (title) */
    struct trust_report trust;               /* the job's checks, made when it is opened */
    const struct summary_job *summary_test;  /* a diff of summaries' test side, or NULL */
    const char *open_summary;                /* UI_OPEN_RANK: a summary-only rank's summary */
    long long open_rank;                     /* and its rank */
    const char *open_test_summary;           /* and in a diff of summaries, the test side's */
    long long open_test_rank;

    /* screen */
    int rows, cols;
    bool hide_left;                          /* the rank/stream pane hidden (p) */
    struct ui_layout layout;
    enum ui_focus focus;
    enum ui_view_id view;
    struct ui_history history;               /* where Esc goes back to (empty until the
                                                first move) */
    const struct ui_view_ops *diff_view;     /* NULL unless `htx diff` */
    void *diff;                              /* the diff view's own state */

    /* left pane */
    struct ui_rank *ranks;                   /* parallel to model->ranks */
    size_t nranks;
    struct ui_item *items;
    size_t nitems, item, item_top;

    /* selection beyond ranks */
    int64_t *iterations;                     /* every iteration number seen, ascending */
    size_t niterations;
    long iteration;                          /* index into iterations, -1 = all,
                                                UI_ITER_LIST = iter_list */
    const int64_t *iter_list;                /* --iteration with several values */
    size_t niter_list;
    bool has_window;
    int64_t window_start, window_end;

    /* timeline */
    uint8_t *name_class;                     /* per string id: cell class + 1, 0 = not
                                                yet known (a cache the drawing fills) */
    size_t nname_class;
    struct ui_lane *lanes;
    size_t nlanes;
    struct ui_timeline tl;
    char tl_search[UI_TEXT_MAX];
    struct ui_jump *jumps;
    size_t njumps, jump;
    char jump_what[UI_TEXT_MAX];

    /* views 2-9, i */
    struct ui_doc docs[UI_VIEW_COUNT];
    void *own[UI_VIEW_COUNT];                /* each view's own data, made and let go
                                                by its ops' init and fini; or NULL */

    /* overlays, prompt, status */
    enum ui_overlay overlay;
    size_t overlay_top;
    struct arena overlay_arena;
    const char **overlay_lines;
    size_t noverlay_lines;
    enum ui_prompt prompt;
    char prompt_text[UI_TEXT_MAX];
    char message[UI_TEXT_MAX];
    bool message_is_error;
    char *copy;                              /* text `y` copied, for the terminal to send
                                                (OSC 52) after the key; owned */
    bool quit;
};

/* Initialises st for model m (which must stay alive): every rank included,
 * streams on, threads off, iteration all, view Timeline, focus main.
 * Captures each rank's streams, threads and iterations from m's current
 * selection (call right after loading). Returns 0 or ERR_NOMEM. */
int ui_state_init(struct ui_state *st, const struct model *m, int rows, int cols);
void ui_state_fini(struct ui_state *st);

/* A summary job's rank r (index into st->job->ranks) with its events: names
 * its summary in the status line (with why, when not NULL, in brackets)
 * and asks the loop to load and show it (ui/load.c). Returns the flags. */
unsigned ui_state_open_summary_rank(struct ui_state *st, size_t r, const char *why);

/* Sets a status message (printf-style). */
void ui_state_message(struct ui_state *st, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Is this stream of rank index r switched on? (Unknown streams are on.) */
bool ui_state_stream_on(const struct ui_state *st, size_t r, int64_t stream);

/* Rebuilds the left pane items from the expanded flags. ERR_NOMEM on failure. */
int ui_state_items(struct ui_state *st);

/* Fills sel with the current rank/iteration/window choice; rank numbers go
 * into ranks_buf (st->nranks entries), one iteration into iter_buf. */
void ui_state_selection(const struct ui_state *st, const struct model *m, int64_t *ranks_buf,
                        int64_t *iter_buf, struct selection *sel);

/* The place the user is at: the view and the timeline's window, cursor and
 * lane. */
void ui_state_place(const struct ui_state *st, struct ui_place *out);

/* After a move from `from` (taken with ui_state_place before it): keeps
 * `from` in the history, so Esc comes back to it, unless nothing moved. */
void ui_state_moved(struct ui_state *st, const struct ui_place *from);

/* Shows view id, keeping where the user was in the history. */
void ui_state_show_view(struct ui_state *st, enum ui_view_id id);

/* One step back (dir -1) or forward (+1) through the history: true when
 * there was a place to go to (st is there), false when not. */
bool ui_state_history_step(struct ui_state *st, int dir);

/* Marks every view's content stale (after a selection change). */
void ui_state_invalidate(struct ui_state *st);

#endif
