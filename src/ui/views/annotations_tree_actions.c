#include "config.h"
#include "ui/views/annotations_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/document.h"
#include "ui/jumps.h"
#include "ui/widgets/text.h"

/* Keys of the annotation tree (view 7, htx): ncdu's expand and collapse,
 * a node's or kernel's GPU events on the timeline, the stack mode, and
 * search over every node's name (collapsed ones included). */

static struct ui_doc *tree_doc(struct ui_state *st)
{
    return &st->docs[UI_VIEW_ANNOTATIONS];
}

static bool has_children(const struct ui_state *st, uint32_t v)
{
    const struct atree *t = &ui_atree_of(st)->tree;
    return v < t->nnodes && t->nodes[v].first_child != ATREE_NONE;
}

static unsigned out_of_memory(struct ui_state *st)
{
    ui_state_message(st, true, "out of memory");
    return UI_REDRAW;
}

/* Opens or closes v and redraws the rows with the cursor on `keep`. */
static unsigned set_open(struct ui_state *st, uint32_t v, bool open, uint32_t keep)
{
    if (ui_atree_set_open(ui_atree_of(st), v, open) || ui_atree_reflatten(st, keep))
        return out_of_memory(st);
    ui_doc_scroll(st);
    return UI_REDRAW;
}

static unsigned move_to(struct ui_state *st, uint32_t v)
{
    struct ui_doc *d = tree_doc(st);
    v = ui_atree_row_node(&ui_atree_of(st)->tree, v);   // the row of its chain
    for (size_t r = 0; r < d->tv[0].nrows; r++)
        if (ui_atree_of(st)->row_node[d->tv[0].rows[r]] == v) {
            d->row[0] = r;
            ui_doc_scroll(st);
            break;
        }
    return UI_REDRAW;
}

unsigned ui_act_atree_expand(struct ui_state *st, const struct model *m)
{
    uint32_t v = ui_atree_cursor(st);
    (void)m;
    if (!has_children(st, v))
        return 0;
    if (!ui_atree_is_open(ui_atree_of(st), v) && !tree_doc(st)->filter[0])
        return set_open(st, v, true, v);
    return move_to(st, ui_atree_of(st)->tree.nodes[v].first_child);   // open: step in, as ncdu
}

unsigned ui_act_atree_collapse(struct ui_state *st, const struct model *m)
{
    uint32_t v = ui_atree_cursor(st);
    (void)m;
    if (v == ATREE_NONE)
        return 0;
    if (has_children(st, v) && ui_atree_is_open(ui_atree_of(st), v) && !tree_doc(st)->filter[0])
        return set_open(st, v, false, v);
    const struct atree *t = &ui_atree_of(st)->tree;
    uint32_t parent = t->nodes[ui_atree_chain_head(t, v)].parent;   // the row above this chain
    if (parent == 0 || parent == ATREE_NONE)
        return 0;
    if (tree_doc(st)->filter[0])
        return move_to(st, parent);
    return set_open(st, parent, false, parent);   // on a child: close its parent, as ncdu
}

/* The GPU events at or under v on the timeline, first one first (n/N: the others). */
static unsigned show_on_timeline(struct ui_state *st, const struct model *m, uint32_t v)
{
    struct atree_event *ev;
    size_t n;
    if (v == ATREE_NONE)
        return 0;
    if (atree_events(&ui_atree_of(st)->tree, v, &ev, &n))
        return out_of_memory(st);
    if (n == 0) {
        free(ev);
        ui_state_message(st, true, "no GPU event under \"%s\"",
                         atree_name(&ui_atree_of(st)->tree, v));
        return UI_REDRAW;
    }
    struct ui_jump *j = realloc(st->jumps, n * sizeof *j);
    if (!j) {
        free(ev);
        return out_of_memory(st);
    }
    st->jumps = j;
    for (size_t i = 0; i < n; i++)
        j[i] = (struct ui_jump){ev[i].rank, ev[i].pos};
    free(ev);
    st->njumps = n;
    snprintf(st->jump_what, sizeof st->jump_what, "under \"%s\"",
             atree_name(&ui_atree_of(st)->tree, v));
    return ui_jumps_show(st, m, 0);
}

unsigned ui_act_atree_enter(struct ui_state *st, const struct model *m)
{
    uint32_t v = ui_atree_cursor(st);
    if (v == ATREE_NONE)
        return 0;
    if (!has_children(st, v))
        return show_on_timeline(st, m, v);
    if (tree_doc(st)->filter[0]) {
        ui_state_message(st, true, "a filter shows every match: Esc clears it");
        return UI_REDRAW;
    }
    return set_open(st, v, !ui_atree_is_open(ui_atree_of(st), v), v);
}

unsigned ui_act_atree_timeline(struct ui_state *st, const struct model *m)
{
    return show_on_timeline(st, m, ui_atree_cursor(st));
}

unsigned ui_act_atree_mode(struct ui_state *st, const struct model *m)
{
    (void)m;
    st->aopts.annotation_stack_ops = !st->aopts.annotation_stack_ops;
    ui_atree_of(st)->built = false;
    tree_doc(st)->valid = false;
    ui_state_message(st, false, "stacks of %s",
                     st->aopts.annotation_stack_ops
                         ? "user annotations, CPU ops and Python functions"
                         : "user annotations only");
    return UI_REDRAW;
}

static bool name_has(const char *name, const void *needle)
{
    return ui_text_contains(name, needle);
}

unsigned ui_atree_search(struct ui_state *st, int dir)
{
    struct ui_doc *d = tree_doc(st);
    const struct atree *t = &ui_atree_of(st)->tree;
    if (!d->search[0]) {
        ui_state_message(st, false, "/ starts a search");
        return UI_REDRAW;
    }
    uint32_t cur = ui_atree_cursor(st), hit;
    if (cur == ATREE_NONE)
        cur = 0;
    if (dir == 0 && cur != 0 && name_has(atree_name(t, cur), d->search))
        hit = cur;
    else
        hit = atree_find(t, cur, dir < 0 ? -1 : 1, name_has, d->search);
    if (hit == ATREE_NONE) {
        ui_state_message(st, true, "no node name contains \"%s\"", d->search);
        return UI_REDRAW;
    }
    for (uint32_t u = t->nodes[hit].parent; u != 0 && u != ATREE_NONE; u = t->nodes[u].parent)
        if (ui_atree_set_open(ui_atree_of(st), u, true))
            return out_of_memory(st);
    if (ui_atree_reflatten(st, hit))
        return out_of_memory(st);
    ui_doc_scroll(st);
    if (ui_atree_cursor(st) != ui_atree_row_node(t, hit))
        ui_state_message(st, true, "\"%s\" is hidden by the filter (Esc clears it)",
                         atree_name(t, hit));
    return UI_REDRAW;
}

unsigned ui_act_atree_search_next(struct ui_state *st, const struct model *m)
{
    (void)m;
    return ui_atree_search(st, 1);
}

unsigned ui_act_atree_search_prev(struct ui_state *st, const struct model *m)
{
    (void)m;
    return ui_atree_search(st, -1);
}

unsigned ui_act_atree_sort(struct ui_state *st, const struct model *m)
{
    (void)m;
    ui_state_message(st, false, "the tree keeps siblings by inclusive GPU time (Tab: the other "
                                "tables sort with s)");
    return UI_REDRAW;
}
