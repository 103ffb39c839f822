#ifndef HTX_UI_VIEW_H
#define HTX_UI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"
#include "ui/widgets/grid.h"
#include "ui/state.h"
#include "util/err.h"

/* A view is what fills the main pane (tig's view_ops): it says how many rows
 * it has, draws row i into a grid line, and recomputes its data when the
 * selection changes. Each view is its own file, ui/views/<view>.c (with its
 * <view>_*.c companions), which defines its struct ui_view_ops; the table
 * views share the table document's helpers (ui/document.h). Views never
 * call one another (tests/layering.sh checks it) and never touch curses.
 * A view's keys are rows of the one key table (ui/bindings.c) under the
 * view's contexts; the text prompt (search, filter) is shared, and the
 * view only says what the prompt starts with and what its text does.
 *
 * Adding a view: its files, its id (enum ui_view_id), its entry in the
 * registry (ui/view.c) and its keys (ui/bindings.c).
 *
 * Pinned rows stay at the top of the pane (axis, table header); the
 * others scroll, starting at top(). The diff view (ui/views/diff.c) keeps
 * its own state behind st->diff. */

typedef unsigned (*ui_action_fn)(struct ui_state *st, const struct model *m);

/* Where a binding applies. */
enum ui_context {
    UI_CTX_RANKS = 1 << 0,     /* left pane focused */
    UI_CTX_TIMELINE = 1 << 1,  /* main pane, view 1 */
    UI_CTX_DOC = 1 << 2,       /* main pane, the table views (2-9, R, C, i) */
    UI_CTX_DIFF = 1 << 3,      /* main pane, view d */
    UI_CTX_DIFF_DETAIL = 1 << 4, /* main pane, view d with an op's timelines open */
    UI_CTX_RANK_TABLE = 1 << 5,  /* main pane, view R (then the tables' keys) */
    UI_CTX_COLL_TABLE = 1 << 6,  /* main pane, view C (then the tables' keys) */
    UI_CTX_ANNOTATION_TREE = 1 << 7, /* main pane, view 7's tree (then the tables' keys) */
    UI_CTX_LAUNCH_TABLE = 1 << 8,    /* main pane, view 6 (then the tables' keys) */
    UI_CTX_IDLE_TABLE = 1 << 9,      /* main pane, view 4 (then the tables' keys) */
    UI_CTX_KERNEL_TABLE = 1 << 10,   /* main pane, view 3's kernel summary (then the tables') */
    UI_CTX_FINDINGS = 1 << 11,       /* main pane, view ! (then the tables' keys) */
    UI_CTX_ANY = 0xFFFF,
};

struct ui_binding {
    int key;
    unsigned ctx;              /* enum ui_context mask */
    ui_action_fn fn;
    const char *help;          /* NULL: not listed (another binding says it) */
};

/* The most key contexts a view's keys are under (its own, then its tables'). */
#define UI_VIEW_CONTEXTS 2

/* A view: everything the loop, the screen and the key dispatch ask of it.
 * Members marked "may be NULL" default to nothing. */
struct ui_view_ops {
    enum ui_view_id id;
    int key;                   /* '1'..'9', 'R', 'C', 'i', '!', 'd' */
    const char *name;          /* tab label */
    const char *hints;         /* the status bar's key hints while the view is shown */
    /* Makes the view's own data, st->own[id], for a new state (0 or
     * ERR_NOMEM), and lets it go (st->own[id] may then be NULL). May be
     * NULL (no data of its own). */
    int (*init)(struct ui_state *st);
    void (*fini)(struct ui_state *st);
    /* Brings the view's data up to date for the model's current selection
     * and the pane's size; called by ui_refresh after every step, never by
     * actions. May be NULL. */
    int (*refresh)(struct ui_state *st, const struct model *m, struct err *e);
    /* Is its data waiting to be computed (the loop says "computing..."
     * before refresh runs)? May be NULL. */
    bool (*stale)(const struct ui_state *st);
    /* The key contexts (enum ui_context) tried after the focused pane's and
     * before the global one, most specific first: how many are in ctx. */
    size_t (*contexts)(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS]);
    /* Scrolling rows: how many, the first one shown in a body of `height`
     * lines (keeping the view's cursor visible), and drawing row i. */
    size_t (*rows)(const struct ui_state *st, const struct model *m);
    size_t (*top)(const struct ui_state *st, const struct model *m, int height);
    void (*row)(const struct ui_state *st, const struct model *m, size_t i, struct ui_grid *g,
                int y, int x, int w);
    /* Rows that stay above the scrolling ones (axis, table header). */
    size_t (*pinned)(const struct ui_state *st, const struct model *m);
    void (*pinned_row)(const struct ui_state *st, const struct model *m, size_t i,
                       struct ui_grid *g, int y, int x, int w);
    /* Status line text for the view (cursor event, row count); may be NULL. */
    void (*status)(const struct ui_state *st, const struct model *m, char *buf, size_t n);
    /* The shared prompt: the text it starts with for prompt p, or NULL when
     * the view has nothing to search or filter that way; and what Enter on
     * the text does. May be NULL (no prompt). */
    const char *(*prompt_initial)(const struct ui_state *st, enum ui_prompt p);
    unsigned (*prompt_apply)(struct ui_state *st, const struct model *m, enum ui_prompt p,
                             const char *text);
    /* Esc: clears what the view has narrowed (a filter, marks) and says
     * true, or false when there is nothing (Esc then goes back to where the
     * user was before, ui_state_history_step). May be NULL. */
    bool (*escape)(struct ui_state *st, const struct model *m);
    /* A click at screen (y, x) inside the body. May be NULL. */
    unsigned (*click)(struct ui_state *st, const struct model *m, int y, int x);
    /* The whole name under the cursor (y copies it), or NULL. May be NULL. */
    const char *(*cursor_name)(const struct ui_state *st, const struct model *m);
};

/* The registry (ui/view.c): the view with this id, or NULL (view d
 * outside htx diff). The diff entry is st->diff_view, set by the diff. */
const struct ui_view_ops *ui_view_get(const struct ui_state *st, enum ui_view_id id);

/* Each view's ops, defined in its own file (ui/views/<view>.c). */
extern const struct ui_view_ops ui_view_timeline, ui_view_overview, ui_view_kernels,
    ui_view_idle, ui_view_overlap, ui_view_launch, ui_view_annotations, ui_view_counters,
    ui_view_sequences, ui_view_ranks, ui_view_collectives, ui_view_diagnostics,
    ui_view_findings;

/* Draws a view into body: pinned rows, then rows from top(). */
void ui_view_draw(const struct ui_view_ops *v, const struct ui_state *st, const struct model *m,
                  struct ui_grid *g, struct ui_rect body);


#endif
