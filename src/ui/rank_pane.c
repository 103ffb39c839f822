#include "config.h"
#include "ui/actions.h"

#include <stdio.h>

/* The rank/stream pane: moving, expanding, and choosing what the views
 * include. Ranks and GPU streams change the model selection (UI_RESELECT),
 * so every analysis is recomputed without them; CPU threads only change
 * lanes (UI_RELANE). */

static void keep_visible(struct ui_state *st)
{
    size_t h = st->layout.left_in.h > 0 ? (size_t)st->layout.left_in.h : 1;

    if (st->item < st->item_top)
        st->item_top = st->item;
    else if (st->item >= st->item_top + h)
        st->item_top = st->item - h + 1;
}

static unsigned move_to(struct ui_state *st, size_t i)
{
    if (st->nitems == 0)
        return 0;
    st->item = i >= st->nitems ? st->nitems - 1 : i;
    keep_visible(st);
    return UI_REDRAW;
}

static size_t page(const struct ui_state *st)
{
    return st->layout.left_in.h > 1 ? (size_t)st->layout.left_in.h - 1 : 1;
}

unsigned ui_act_item_down(struct ui_state *st, const struct model *m)
{
    (void)m;
    return move_to(st, st->item + 1);
}

unsigned ui_act_item_up(struct ui_state *st, const struct model *m)
{
    (void)m;
    return move_to(st, st->item > 0 ? st->item - 1 : 0);
}

unsigned ui_act_item_page_down(struct ui_state *st, const struct model *m)
{
    (void)m;
    return move_to(st, st->item + page(st));
}

unsigned ui_act_item_page_up(struct ui_state *st, const struct model *m)
{
    (void)m;
    return move_to(st, st->item > page(st) ? st->item - page(st) : 0);
}

unsigned ui_act_item_first(struct ui_state *st, const struct model *m)
{
    (void)m;
    return move_to(st, 0);
}

unsigned ui_act_item_last(struct ui_state *st, const struct model *m)
{
    (void)m;
    return move_to(st, st->nitems ? st->nitems - 1 : 0);
}

unsigned ui_act_item_expand(struct ui_state *st, const struct model *m)
{
    if (st->item >= st->nitems)
        return 0;
    const struct ui_item *it = &st->items[st->item];
    if (it->kind != UI_ITEM_RANK)
        return ui_act_item_toggle(st, m);
    struct ui_rank *ur = &st->ranks[it->rank];
    if (ur->expanded)
        return ur->nstreams + ur->nthreads ? move_to(st, st->item + 1) : 0;
    ur->expanded = true;
    if (ur->nstreams + ur->nthreads == 0)
        ui_state_message(st, false, "rank %lld has no GPU streams or CPU threads",
                         (long long)ur->number);
    ui_state_items(st);
    return UI_REDRAW;
}

unsigned ui_act_item_collapse(struct ui_state *st, const struct model *m)
{
    (void)m;
    if (st->item >= st->nitems)
        return 0;
    uint32_t r = st->items[st->item].rank;
    if (!st->ranks[r].expanded)
        return 0;
    st->ranks[r].expanded = false;
    ui_state_items(st);
    for (size_t i = 0; i < st->nitems; i++)
        if (st->items[i].kind == UI_ITEM_RANK && st->items[i].rank == r)
            return move_to(st, i);
    return UI_REDRAW;
}

static size_t included_ranks(const struct ui_state *st)
{
    size_t n = 0;
    for (size_t r = 0; r < st->nranks; r++)
        n += st->ranks[r].included;
    return n;
}

unsigned ui_act_item_toggle(struct ui_state *st, const struct model *m)
{
    (void)m;
    if (st->item >= st->nitems)
        return 0;
    const struct ui_item *it = &st->items[st->item];
    struct ui_rank *ur = &st->ranks[it->rank];
    switch (it->kind) {
    case UI_ITEM_RANK:
        if (ur->included && included_ranks(st) == 1) {
            ui_state_message(st, true, "at least one rank stays included");
            return UI_REDRAW;
        }
        ur->included = !ur->included;
        return UI_REDRAW | UI_RESELECT;
    case UI_ITEM_STREAM:
        ur->stream_on[it->sub] = !ur->stream_on[it->sub];
        return UI_REDRAW | UI_RESELECT | UI_RELANE;
    default:
        ur->thread_on[it->sub] = !ur->thread_on[it->sub];
        return UI_REDRAW | UI_RELANE;
    }
}

unsigned ui_act_item_all(struct ui_state *st, const struct model *m)
{
    (void)m;
    for (size_t r = 0; r < st->nranks; r++) {
        st->ranks[r].included = true;
        for (size_t s = 0; s < st->ranks[r].nstreams; s++)
            st->ranks[r].stream_on[s] = true;
    }
    ui_state_message(st, false, "all ranks and streams included");
    return UI_REDRAW | UI_RESELECT | UI_RELANE;
}

unsigned ui_act_item_only(struct ui_state *st, const struct model *m)
{
    (void)m;
    if (st->item >= st->nitems)
        return 0;
    const struct ui_item *it = &st->items[st->item];
    for (size_t r = 0; r < st->nranks; r++) {
        struct ui_rank *ur = &st->ranks[r];
        ur->included = r == it->rank;
        for (size_t s = 0; s < ur->nstreams; s++)
            ur->stream_on[s] = it->kind == UI_ITEM_RANK ||
                               (it->kind == UI_ITEM_STREAM && s == it->sub);
        for (size_t t = 0; t < ur->nthreads; t++)
            ur->thread_on[t] = r == it->rank && it->kind == UI_ITEM_THREAD && t == it->sub
                                   ? true
                                   : (it->kind == UI_ITEM_THREAD ? false : ur->thread_on[t]);
    }
    ui_state_message(st, false, "only rank %lld", (long long)st->ranks[it->rank].number);
    return UI_REDRAW | UI_RESELECT | UI_RELANE;
}
