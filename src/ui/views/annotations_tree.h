#ifndef HTX_UI_ANNOTATION_TREE_H
#define HTX_UI_ANNOTATION_TREE_H

#include <stdbool.h>

#include "analysis/annotation_tree.h"
#include "model/model.h"
#include "ui/state.h"
#include "ui/widgets/expand.h"

/* View 7 under htx semantics opens with the annotation tree: GPU time by
 * the CPU annotation stack of each launch (analysis/annotation_tree.h),
 * summed over the selected ranks, shown ncdu-style as the view's first
 * table: one row per visible node, indented, sorted by inclusive time,
 * with a bar, inclusive and self time, count, share and, with several
 * ranks, min/mean/max over them and the slowest rank. Expanded nodes are
 * remembered by path. The rest of view 7 (HTA's tables) follows it. */

/* The annotation tree of view 7 under htx semantics, st->own[UI_VIEW_ANNOTATIONS]:
 * the tree for the current selection, which nodes are expanded (by path, so
 * they stay expanded across selections), and the rows it shows as a table. */
struct ui_atree {
    bool built;                /* tree is for the current selection */
    struct atree tree;
    struct ui_expand open;     /* expanded nodes, by path */
    struct arena arena;        /* the shown table */
    struct table *table;       /* NULL when the view shows no tree */
    uint32_t *row_node;        /* table row -> tree node */
    size_t row_cap;
    int width;                 /* of the main pane when the table was made */
    uint8_t cols[16];          /* what each table column shows (annotations_tree.c) */
};

/* The view's own data: the tree (ui_atree_of), made by ui_atree_init and
 * let go by ui_atree_fini (the view's init and fini). */
struct ui_atree *ui_atree_of(const struct ui_state *st);
int ui_atree_init(struct ui_state *st);
void ui_atree_fini(struct ui_state *st);

/* Adds the tree as d's first table (after its analysis tables are in),
 * or nothing under --semantics=hta. Returns 0 or ERR_NOMEM. */
int ui_atree_decorate(struct ui_state *st, const struct model *m, struct ui_doc *d);

/* Is the tree the focused table of the active view (its keys apply)? */
bool ui_atree_active(const struct ui_state *st);

/* Shared by the view's two files: the node under the cursor (ATREE_NONE
 * when the tree is not shown), expanding or collapsing a node (by path),
 * rebuilding the rows with the cursor kept on a node, and the search step
 * (dir +1/-1; 0 = from the cursor itself, after a new search text). */
uint32_t ui_atree_cursor(const struct ui_state *st);
bool ui_atree_is_open(const struct ui_atree *a, uint32_t v);
int ui_atree_set_open(struct ui_atree *a, uint32_t v, bool open);
int ui_atree_reflatten(struct ui_state *st, uint32_t keep);
unsigned ui_atree_search(struct ui_state *st, int dir);

/* A node that is its parent's only child, both annotation stack nodes,
 * shares its parent's row ("a › b › c"): the row stands for the chain's
 * last node (ui_atree_row_node, what the cursor is on) and sits under
 * the row of its first node's parent (ui_atree_chain_head). */
uint32_t ui_atree_row_node(const struct atree *t, uint32_t v);
uint32_t ui_atree_chain_head(const struct atree *t, uint32_t v);

/* Keys of the tree (ui/bindings.c, UI_CTX_ANNOTATION_TREE). */
unsigned ui_act_atree_expand(struct ui_state *st, const struct model *m);
unsigned ui_act_atree_collapse(struct ui_state *st, const struct model *m);
unsigned ui_act_atree_enter(struct ui_state *st, const struct model *m);
unsigned ui_act_atree_timeline(struct ui_state *st, const struct model *m);
unsigned ui_act_atree_mode(struct ui_state *st, const struct model *m);
unsigned ui_act_atree_search_next(struct ui_state *st, const struct model *m);
unsigned ui_act_atree_search_prev(struct ui_state *st, const struct model *m);
unsigned ui_act_atree_sort(struct ui_state *st, const struct model *m);

#endif
