#include "config.h"
#include "ui/views/diff.h"

#include <stdio.h>
#include <string.h>

#include "ui/widgets/keys.h"
#include "ui/widgets/text.h"

/* The diff view's keys: moving, filtering by change and text, sorting,
 * switching devices, choosing each side's rank and iteration, and Enter on
 * an op. Each key is an action over the plain state (no curses). */

#define ALL_CHANGES ((1u << DIFF_CHANGE_COUNT) - 1)

static struct ui_diff *diff_of(const struct ui_state *st)
{
    return st->diff;
}

/* ---- keys ------------------------------------------------------------------ */

static void move_cursor(struct ui_diff *d, long delta)
{
    long n = (long)d->nvis, c = (long)d->cur + delta;
    if (n == 0)
        return;
    d->cur = (size_t)(c < 0 ? 0 : c >= n ? n - 1 : c);
}

static size_t page(const struct ui_state *st)
{
    int h = st->layout.body.h - (int)ui_diff_pinned_lines(st->diff, st->layout.body.h);
    return h > 1 ? (size_t)h - 1 : 1;
}

static unsigned act_down(struct ui_state *st, const struct model *m)
{
    (void)m;
    move_cursor(diff_of(st), 1);
    return UI_REDRAW;
}

static unsigned act_up(struct ui_state *st, const struct model *m)
{
    (void)m;
    move_cursor(diff_of(st), -1);
    return UI_REDRAW;
}

static unsigned act_page_down(struct ui_state *st, const struct model *m)
{
    (void)m;
    move_cursor(diff_of(st), (long)page(st));
    return UI_REDRAW;
}

static unsigned act_page_up(struct ui_state *st, const struct model *m)
{
    (void)m;
    move_cursor(diff_of(st), -(long)page(st));
    return UI_REDRAW;
}

static unsigned act_first(struct ui_state *st, const struct model *m)
{
    (void)m;
    diff_of(st)->cur = 0;
    return UI_REDRAW;
}

static unsigned act_last(struct ui_state *st, const struct model *m)
{
    struct ui_diff *d = diff_of(st);
    (void)m;
    d->cur = d->nvis ? d->nvis - 1 : 0;
    return UI_REDRAW;
}

/* Applies a rebuild, reporting a failure in the status line. */
static unsigned rebuilt(struct ui_state *st, struct ui_diff *d)
{
    if (ui_diff_rebuild(d))
        ui_state_message(st, true, "out of memory");
    return UI_REDRAW;
}

static unsigned show_only(struct ui_state *st, enum diff_change c)
{
    struct ui_diff *d = diff_of(st);
    unsigned bit = 1u << c;
    d->change_mask = d->change_mask == bit ? ALL_CHANGES : bit;
    if (d->change_mask == bit)
        ui_state_message(st, false, "showing %s ops (%zu)", diff_change_name(c),
                         d->res.counts[c]);
    else
        ui_state_message(st, false, "showing every op");
    return rebuilt(st, d);
}

static unsigned act_added(struct ui_state *st, const struct model *m)
{
    (void)m;
    return show_only(st, DIFF_ADDED);
}

static unsigned act_deleted(struct ui_state *st, const struct model *m)
{
    (void)m;
    return show_only(st, DIFF_DELETED);
}

static unsigned act_increased(struct ui_state *st, const struct model *m)
{
    (void)m;
    return show_only(st, DIFF_INCREASED);
}

static unsigned act_decreased(struct ui_state *st, const struct model *m)
{
    (void)m;
    return show_only(st, DIFF_DECREASED);
}

static unsigned act_unchanged(struct ui_state *st, const struct model *m)
{
    (void)m;
    return show_only(st, DIFF_UNCHANGED);
}

static unsigned act_all(struct ui_state *st, const struct model *m)
{
    struct ui_diff *d = diff_of(st);
    (void)m;
    d->change_mask = ALL_CHANGES;
    d->filter[0] = 0;
    ui_state_message(st, false, "showing every op");
    return rebuilt(st, d);
}

static const char *const sort_names[UI_DIFF_SORT_COUNT] = {"duration change", "count change",
                                                           "name"};

static unsigned act_sort(struct ui_state *st, const struct model *m)
{
    struct ui_diff *d = diff_of(st);
    (void)m;
    d->sort = (enum ui_diff_sort)((d->sort + 1) % UI_DIFF_SORT_COUNT);
    d->sort_reverse = false;
    ui_state_message(st, false, "sorted by %s", sort_names[d->sort]);
    return rebuilt(st, d);
}

static unsigned act_sort_reverse(struct ui_state *st, const struct model *m)
{
    struct ui_diff *d = diff_of(st);
    (void)m;
    d->sort_reverse = !d->sort_reverse;
    return rebuilt(st, d);
}

/* Recomputes after a change of sides or device. */
static unsigned recomputed(struct ui_state *st, struct ui_diff *d)
{
    struct err e = {0, ""};
    d->dirty = true;
    if (ui_diff_update(d, &e))
        ui_state_message(st, true, "%s", e.msg);
    return UI_REDRAW;
}

static unsigned toggle_device(struct ui_state *st, enum diff_device dev)
{
    struct ui_diff *d = diff_of(st);
    d->device = d->device == dev ? DIFF_DEVICE_ALL : dev;
    ui_state_message(st, false, "%s", d->device == DIFF_DEVICE_CPU ? "CPU ops"
                                      : d->device == DIFF_DEVICE_GPU ? "GPU kernels"
                                                                     : "CPU ops and GPU kernels");
    return recomputed(st, d);
}

static unsigned act_cpu(struct ui_state *st, const struct model *m)
{
    (void)m;
    return toggle_device(st, DIFF_DEVICE_CPU);
}

static unsigned act_gpu(struct ui_state *st, const struct model *m)
{
    (void)m;
    return toggle_device(st, DIFF_DEVICE_GPU);
}

/* Cycles -1 (as opened), 0..n-1, n (all) by dir. */
static long cycle(long v, size_t n, int dir)
{
    long span = (long)n + 2;
    return (v + 1 + dir + span) % span - 1;
}

static unsigned step_rank(struct ui_state *st, int side)
{
    struct ui_diff *d = diff_of(st);
    struct ui_diff_side *s = &d->side[side];
    s->rank = cycle(s->rank, s->m->nranks, 1);
    unsigned r = recomputed(st, d);
    if (!st->message_is_error) {
        char buf[128];
        ui_diff_side_text(s, st->ascii, buf, sizeof buf);
        ui_state_message(st, false, "%s", buf);
    }
    return r;
}

static unsigned act_control_rank(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_rank(st, 0);
}

static unsigned act_test_rank(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_rank(st, 1);
}

static unsigned step_iter(struct ui_state *st, bool both, int dir)
{
    struct ui_diff *d = diff_of(st);
    for (int k = both ? 0 : 1; k < 2; k++)
        d->side[k].iter = cycle(d->side[k].iter, d->side[k].niters, dir);
    unsigned r = recomputed(st, d);
    if (!st->message_is_error) {
        char a[128], b[128];
        ui_diff_side_text(&d->side[0], st->ascii, a, sizeof a);
        ui_diff_side_text(&d->side[1], st->ascii, b, sizeof b);
        ui_state_message(st, false, "%s | %s", a, b);
    }
    return r;
}

static unsigned act_iter_next(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_iter(st, true, 1);
}

static unsigned act_iter_prev(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_iter(st, true, -1);
}

static unsigned act_test_iter_next(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_iter(st, false, 1);
}

static unsigned act_test_iter_prev(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_iter(st, false, -1);
}

static unsigned act_chart(struct ui_state *st, const struct model *m)
{
    (void)m;
    diff_of(st)->chart = !diff_of(st)->chart;
    return UI_REDRAW | UI_RELAYOUT;
}

static unsigned act_enter(struct ui_state *st, const struct model *m)
{
    struct ui_diff *d = diff_of(st);
    (void)m;
    if (d->detail.open) {
        ui_diff_close_detail(d);
        return UI_REDRAW;
    }
    if (d->nvis == 0)
        return UI_REDRAW;
    if (ui_diff_open_detail(d, d->cur))
        ui_state_message(st, true, "out of memory");
    return UI_REDRAW;
}

static unsigned start_input(struct ui_state *st, enum ui_diff_input what)
{
    struct ui_diff *d = diff_of(st);
    d->input = what;
    d->input_text[0] = 0;
    return UI_REDRAW;
}

static unsigned act_search(struct ui_state *st, const struct model *m)
{
    (void)m;
    return start_input(st, UI_DIFF_INPUT_SEARCH);
}

static unsigned act_filter(struct ui_state *st, const struct model *m)
{
    (void)m;
    return start_input(st, UI_DIFF_INPUT_FILTER);
}

/* Moves the cursor to the next visible row (dir +1/-1, wrapping) whose name
 * contains the search text. */
static unsigned search_step(struct ui_state *st, int dir, bool from_cursor)
{
    struct ui_diff *d = diff_of(st);
    size_t n = d->nvis;
    if (!d->search[0] || n == 0)
        return UI_REDRAW;
    for (size_t k = from_cursor ? 0 : 1; k <= n; k++) {
        size_t i = dir > 0 ? (d->cur + k) % n : (d->cur + n * 2 - k) % n;
        if (ui_text_contains(d->res.rows[d->vis[i]].name, d->search)) {
            d->cur = i;
            return UI_REDRAW;
        }
    }
    ui_state_message(st, true, "no op matches \"%s\"", d->search);
    return UI_REDRAW;
}

static unsigned act_search_next(struct ui_state *st, const struct model *m)
{
    (void)m;
    return search_step(st, 1, false);
}

static unsigned act_search_prev(struct ui_state *st, const struct model *m)
{
    (void)m;
    return search_step(st, -1, false);
}

/* Sized by its initializers: the header's count must match (a mismatch does
 * not compile). */
const struct ui_binding ui_diff_bindings[] = {
    {'j', UI_CTX_VIEW, act_down, "next row"},
    {UI_KEY_DOWN, UI_CTX_VIEW, act_down, "next row"},
    {'k', UI_CTX_VIEW, act_up, "previous row"},
    {UI_KEY_UP, UI_CTX_VIEW, act_up, "previous row"},
    {UI_KEY_PGDN, UI_CTX_VIEW, act_page_down, "page down"},
    {UI_KEY_PGUP, UI_CTX_VIEW, act_page_up, "page up"},
    {UI_KEY_HOME, UI_CTX_VIEW, act_first, "first row"},
    {UI_KEY_END, UI_CTX_VIEW, act_last, "last row"},
    {'G', UI_CTX_VIEW, act_last, "last row"},
    {'a', UI_CTX_VIEW, act_added, "only added ops (again: all)"},
    {'x', UI_CTX_VIEW, act_deleted, "only deleted ops (again: all)"},
    {'+', UI_CTX_VIEW, act_increased, "only ops called more often (again: all)"},
    {'-', UI_CTX_VIEW, act_decreased, "only ops called less often (again: all)"},
    {'=', UI_CTX_VIEW, act_unchanged, "only ops called as often (again: all)"},
    {'*', UI_CTX_VIEW, act_all, "every op, no filter"},
    {'s', UI_CTX_VIEW, act_sort, "sort by Δ duration, Δ count or name"},
    {'S', UI_CTX_VIEW, act_sort_reverse, "reverse the sort"},
    {'c', UI_CTX_VIEW, act_cpu, "CPU ops only (again: all)"},
    {'g', UI_CTX_VIEW, act_gpu, "GPU kernels only (again: all)"},
    {'r', UI_CTX_VIEW, act_control_rank, "next control rank (then all, then as opened)"},
    {'R', UI_CTX_VIEW, act_test_rank, "next test rank"},
    {']', UI_CTX_VIEW, act_iter_next, "next iteration on both sides"},
    {'[', UI_CTX_VIEW, act_iter_prev, "previous iteration on both sides"},
    {'}', UI_CTX_VIEW, act_test_iter_next, "next test iteration"},
    {'{', UI_CTX_VIEW, act_test_iter_prev, "previous test iteration"},
    {'b', UI_CTX_VIEW, act_chart, "show or hide the top-10 Δ bars"},
    {UI_KEY_ENTER, UI_CTX_VIEW, act_enter, "the op on both timelines (again: back)"},
    {'/', UI_CTX_VIEW, act_search, "search op names"},
    {'n', UI_CTX_VIEW, act_search_next, "next match"},
    {'N', UI_CTX_VIEW, act_search_prev, "previous match"},
    {'f', UI_CTX_VIEW, act_filter, "filter op names (Esc clears)"},
};

/* Keys while typing a search or filter text. */
static unsigned input_key(struct ui_state *st, struct ui_diff *d, int key)
{
    size_t n = strlen(d->input_text);
    if (key == UI_KEY_ESC) {
        d->input = UI_DIFF_INPUT_NONE;
    } else if (key == UI_KEY_ENTER) {
        enum ui_diff_input what = d->input;
        d->input = UI_DIFF_INPUT_NONE;
        if (what == UI_DIFF_INPUT_SEARCH) {
            memcpy(d->search, d->input_text, sizeof d->search);
            return search_step(st, 1, true);
        }
        memcpy(d->filter, d->input_text, sizeof d->filter);
        return rebuilt(st, d);
    } else if (key == UI_KEY_BACKSPACE || key == 127 || key == 8) {
        while (n > 0 && ((unsigned char)d->input_text[n - 1] & 0xC0) == 0x80)
            n--;   /* drop a whole UTF-8 sequence */
        if (n > 0)
            d->input_text[n - 1] = 0;
    } else if (key == UI_KEY_CTRL('u')) {
        d->input_text[0] = 0;
    } else if (key >= 32 && key < UI_KEY_BASE && key != 127 && n + 5 < sizeof d->input_text) {
        n += ui_utf8_encode((uint32_t)key, d->input_text + n);
        d->input_text[n] = 0;
    }
    return UI_REDRAW;
}

static unsigned escape_key(struct ui_state *st, struct ui_diff *d)
{
    if (d->detail.open) {
        ui_diff_close_detail(d);
        return UI_REDRAW;
    }
    if (d->filter[0] || d->change_mask != ALL_CHANGES) {
        d->filter[0] = 0;
        d->change_mask = ALL_CHANGES;
        ui_state_message(st, false, "filter cleared");
        return rebuilt(st, d);
    }
    return UI_UNHANDLED;
}

unsigned ui_diff_on_key(struct ui_state *st, const struct model *m, int key)
{
    struct ui_diff *d = diff_of(st);
    if (!d)
        return UI_UNHANDLED;
    if (d->input != UI_DIFF_INPUT_NONE)
        return input_key(st, d, key);
    if (key == UI_KEY_ESC)
        return escape_key(st, d);
    if (d->detail.open && key != UI_KEY_ENTER && key != UI_KEY_BACKSPACE)
        return UI_UNHANDLED;
    if (d->detail.open)
        return act_enter(st, m);
    for (size_t i = 0; i < UI_DIFF_NBINDINGS; i++)
        if (ui_diff_bindings[i].key == key)
            return ui_diff_bindings[i].fn(st, m);
    return UI_UNHANDLED;
}

