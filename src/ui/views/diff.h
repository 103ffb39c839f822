#ifndef HTX_UI_VIEW_DIFF_H
#define HTX_UI_VIEW_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/diff.h"
#include "model/model.h"
#include "ui/state.h"
#include "ui/view.h"
#include "ui/widgets/tables.h"
#include "util/arena.h"
#include "util/err.h"

/* The diff view (`d`, only with `htx diff CONTROL TEST`): control | test | Δ
 * for every op and kernel (spec §3.10 through analysis/diff.h), filters by
 * change, sort by Δ duration / Δ count / name, its own search and filter
 * prompts, CPU/GPU switches, per-side rank and iteration choice, a top-10
 * Δ bar chart, and Enter on a row: the op's instances on both timelines,
 * control above test, each aligned at its iteration start.
 *
 * The view never changes the models: it reads the chosen ranks and
 * iterations straight from the events (diff_filter.from_events), so the
 * UI may show the same models in its other views. Its state lives behind
 * st->diff; nothing here touches curses. */

struct htx_options;

enum ui_diff_sort { UI_DIFF_SORT_DDUR = 0, UI_DIFF_SORT_DCOUNT, UI_DIFF_SORT_NAME,
                    UI_DIFF_SORT_COUNT };

/* One side's choice: which ranks and iterations it compares. */
struct ui_diff_side {
    const char *label;            /* "control" or "test" */
    const struct model *m;        /* loaded, or the summary model of its summaries */
    struct diff_side src;         /* what is compared: m, or the summaries' parts */
    struct diff_request_side initial; /* from the options (lists borrowed from them) */
    long rank;                    /* -1 = initial, 0..nranks-1 = that rank, nranks = all */
    long iter;                    /* -1 = initial, 0..niters-1 = that one, niters = all */
    int64_t *iters;               /* iterations to step through, ascending */
    size_t niters;
    int64_t rank_buf, iter_buf;   /* the single rank / iteration of a request */
    struct diff_plan plan;        /* resolved by the last refresh */
};

/* One lane of the detail timelines: one GPU stream or CPU thread of a rank. */
struct ui_diff_lane {
    uint32_t rank;                /* index into the side's model->ranks */
    bool gpu;
    int64_t stream;               /* gpu */
    uint32_t pid, tid;            /* cpu: string ids */
    int64_t t0;                   /* alignment: the rank's iteration start, ns */
    uint32_t *pos;                /* instances, by ts */
    size_t n;
};

struct ui_diff_detail {
    bool open;
    const char *name;             /* the row's key */
    struct ui_diff_lane *lanes[2];
    size_t nlanes[2];
    size_t count[2];
    int64_t total_ns[2];
    int64_t span;                 /* ns shown from each lane's t0 */
};

#define UI_DIFF_TEXT_MAX 256

struct ui_diff {
    struct ui_diff_side side[2];
    enum diff_device device;
    bool short_names;
    bool hta;                     /* --semantics=hta: TraceDiff's choices */
    bool summary_only;            /* the sides are summaries' parts: no events */
    bool dirty;                   /* the sides or the device changed: recompute */
    struct arena keep;            /* iteration lists: live until ui_diff_close */
    struct arena arena;           /* results: reset by every recompute */
    struct diff_result res;
    char error[256];              /* the last recompute failed: why */

    /* what the table shows: res as compare_traces' table (row i = res.rows[i])
     * through the shared table view, which filters and sorts it */
    struct table *table;          /* in arena */
    struct ui_tview tv;
    size_t *vis;                  /* = tv.rows: visible rows, indices into res.rows */
    size_t nvis;                  /* = tv.nrows */
    unsigned change_mask;         /* bit per enum diff_change */
    enum ui_diff_sort sort;
    bool sort_reverse;
    size_t cur, top;
    bool chart;                   /* the top-10 Δ bars above the table */
    char filter[UI_DIFF_TEXT_MAX];
    char search[UI_DIFF_TEXT_MAX];

    size_t top10[10];             /* largest |Δ| of the sort metric, for the bars */
    size_t ntop10;
    double max_ddur, max_dcount;  /* largest |Δ| over the visible rows */

    struct ui_diff_detail detail;
    struct arena detail_arena;    /* the detail's lanes: reset by every open */
};

/* Sets up the diff view over two models: st->diff_view and st->diff. With
 * parts (the two sides' summaries' parts, analysis/diff.h), the models are
 * from summaries and the parts are compared: whole ranks, no instances.
 * The first refresh computes the diff. The sides start with what opts asks
 * (--control-rank ... --device, --short-names; HTA's defaults under
 * --semantics=hta). Borrows both models and opts' lists until
 * ui_diff_close, which the caller runs before ui_state_fini and before
 * freeing the models. Returns 0 or ERR_NOMEM. */
int ui_diff_open(struct ui_state *st, const struct model *control, const struct model *test,
                 const struct diff_side *parts, const struct htx_options *opts,
                 struct err *e);
/* Each side compares all its ranks, whichever the options named: a diff of
 * summaries' ranks loaded alone (ui/load.c's drill) are each side's only one. */
void ui_diff_compare_whole(struct ui_state *st);
void ui_diff_close(struct ui_state *st);

extern const struct ui_view_ops ui_view_diff;

/* The view's actions (diff_actions.c), bound under UI_CTX_DIFF in the one
 * key table (ui/bindings.c); Enter and Backspace also under
 * UI_CTX_DIFF_DETAIL, where they close the op's timelines. */
unsigned ui_act_diff_down(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_up(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_page_down(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_page_up(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_first(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_last(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_added(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_deleted(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_increased(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_decreased(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_unchanged(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_all(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_sort(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_sort_reverse(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_cpu(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_gpu(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_control_rank(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_test_rank(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_iter_next(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_iter_prev(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_test_iter_next(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_test_iter_prev(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_chart(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_enter(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_search_next(struct ui_state *st, const struct model *m);
unsigned ui_act_diff_search_prev(struct ui_state *st, const struct model *m);

/* The shared prompt's hooks: the search or filter text of the op names. */
const char *ui_diff_prompt_initial(const struct ui_state *st, enum ui_prompt p);
unsigned ui_diff_prompt_apply(struct ui_state *st, const struct model *m, enum ui_prompt p,
                              const char *text);

/* Esc in the diff: closes the op's timelines, else clears the filters;
 * false when there was nothing to undo (Esc then goes back a view). */
bool ui_diff_escape(struct ui_state *st);

/* ---- the pieces, exported for the tests and view_diff_draw.c ---- */

/* Recomputes the diff when dirty (or never computed), then the visible rows.
 * Returns 0 or an ERR_* (kept in d->error too). */
int ui_diff_update(struct ui_diff *d, struct err *e);

/* The order the diff opens in (the config file's or --sort's). */
void ui_diff_set_sort(struct ui_state *st, enum ui_diff_sort sort);

/* Re-applies the change mask, the filter text and the sort. ERR_NOMEM. */
int ui_diff_rebuild(struct ui_diff *d);

/* Builds d->detail for visible row `v` (the cursor row). ERR_NOMEM. */
int ui_diff_open_detail(struct ui_diff *d, size_t v);
void ui_diff_close_detail(struct ui_diff *d);

/* Text of a side's choice: "r3 · iter 1009" ("all ranks", "all iters"). */
void ui_diff_side_text(const struct ui_diff_side *s, bool ascii, char *buf, size_t n);

/* Drawing (view_diff_draw.c). Lines of the pinned block and of the body. */
size_t ui_diff_pinned_lines(const struct ui_diff *d, int body_h);
void ui_diff_draw_pinned(const struct ui_diff *d, size_t i, int body_h, struct ui_grid *g,
                         int y, int x, int w);
size_t ui_diff_body_lines(const struct ui_diff *d);
void ui_diff_draw_body(const struct ui_diff *d, size_t i, bool focus, struct ui_grid *g, int y,
                       int x, int w);

#endif
