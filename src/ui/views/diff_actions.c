#include "config.h"
#include "ui/views/diff.h"

#include <stdio.h>
#include <string.h>

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

unsigned ui_act_diff_down(struct ui_state *st, const struct model *m)
{
    (void)m;
    move_cursor(diff_of(st), 1);
    return UI_REDRAW;
}

unsigned ui_act_diff_up(struct ui_state *st, const struct model *m)
{
    (void)m;
    move_cursor(diff_of(st), -1);
    return UI_REDRAW;
}

unsigned ui_act_diff_page_down(struct ui_state *st, const struct model *m)
{
    (void)m;
    move_cursor(diff_of(st), (long)page(st));
    return UI_REDRAW;
}

unsigned ui_act_diff_page_up(struct ui_state *st, const struct model *m)
{
    (void)m;
    move_cursor(diff_of(st), -(long)page(st));
    return UI_REDRAW;
}

unsigned ui_act_diff_first(struct ui_state *st, const struct model *m)
{
    (void)m;
    diff_of(st)->cur = 0;
    return UI_REDRAW;
}

unsigned ui_act_diff_last(struct ui_state *st, const struct model *m)
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

unsigned ui_act_diff_added(struct ui_state *st, const struct model *m)
{
    (void)m;
    return show_only(st, DIFF_ADDED);
}

unsigned ui_act_diff_deleted(struct ui_state *st, const struct model *m)
{
    (void)m;
    return show_only(st, DIFF_DELETED);
}

unsigned ui_act_diff_increased(struct ui_state *st, const struct model *m)
{
    (void)m;
    return show_only(st, DIFF_INCREASED);
}

unsigned ui_act_diff_decreased(struct ui_state *st, const struct model *m)
{
    (void)m;
    return show_only(st, DIFF_DECREASED);
}

unsigned ui_act_diff_unchanged(struct ui_state *st, const struct model *m)
{
    (void)m;
    return show_only(st, DIFF_UNCHANGED);
}

unsigned ui_act_diff_all(struct ui_state *st, const struct model *m)
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

void ui_diff_set_sort(struct ui_state *st, enum ui_diff_sort sort)
{
    struct ui_diff *d = diff_of(st);
    if (d) {
        d->sort = sort;
        d->sort_reverse = false;
        ui_diff_rebuild(d);
    }
}

unsigned ui_act_diff_sort(struct ui_state *st, const struct model *m)
{
    struct ui_diff *d = diff_of(st);
    (void)m;
    d->sort = (enum ui_diff_sort)((d->sort + 1) % UI_DIFF_SORT_COUNT);
    d->sort_reverse = false;
    ui_state_message(st, false, "sorted by %s", sort_names[d->sort]);
    return rebuilt(st, d);
}

unsigned ui_act_diff_sort_reverse(struct ui_state *st, const struct model *m)
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

unsigned ui_act_diff_cpu(struct ui_state *st, const struct model *m)
{
    (void)m;
    return toggle_device(st, DIFF_DEVICE_CPU);
}

unsigned ui_act_diff_gpu(struct ui_state *st, const struct model *m)
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

unsigned ui_act_diff_control_rank(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_rank(st, 0);
}

unsigned ui_act_diff_test_rank(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_rank(st, 1);
}

/* The summary of the one rank side k compares in a diff of summaries, or NULL. */
static const struct summary_job_rank *summary_rank(const struct ui_state *st, const struct ui_diff *d,
                                                   int k)
{
    const struct summary_job *l = k == 0 ? st->job : st->summary_test;
    const struct diff_plan *p = &d->side[k].plan;
    if (!l || d->dirty || p->nranks != 1)
        return NULL;
    for (size_t i = 0; i < l->n; i++)
        if (l->ranks[i].rank.rank == p->ranks[0])
            return &l->ranks[i];
    return NULL;
}

/* A diff of summaries has no events: what needs them (what) is done on the one
 * rank each side compares, loaded with its events from its summary behind
 * the screen (ui/load.c's drill), as Enter on a summary job's lane does. */
static unsigned open_summary_ranks(struct ui_state *st, const struct ui_diff *d, const char *what)
{
    const struct summary_job_rank *r[2] = {summary_rank(st, d, 0), summary_rank(st, d, 1)};
    if (!r[0] || !r[1]) {
        ui_state_message(st, true, "%s need the events of one rank a side: pick them with r "
                         "and T, or htx diff --events=load", what);
        return UI_REDRAW;
    }
    st->open_summary = r[0]->file;
    st->open_rank = (long long)r[0]->rank.rank;
    st->open_test_summary = r[1]->file;
    st->open_test_rank = (long long)r[1]->rank.rank;
    ui_state_message(st, false, "events not loaded: htx diff %s %s shows %s", r[0]->file, r[1]->file,
                     what);
    return UI_REDRAW | UI_OPEN_RANK;
}

static unsigned step_iter(struct ui_state *st, bool both, int dir)
{
    struct ui_diff *d = diff_of(st);
    if (d->summary_only)
        return open_summary_ranks(st, d, "iterations");
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

unsigned ui_act_diff_iter_next(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_iter(st, true, 1);
}

unsigned ui_act_diff_iter_prev(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_iter(st, true, -1);
}

unsigned ui_act_diff_test_iter_next(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_iter(st, false, 1);
}

unsigned ui_act_diff_test_iter_prev(struct ui_state *st, const struct model *m)
{
    (void)m;
    return step_iter(st, false, -1);
}

unsigned ui_act_diff_chart(struct ui_state *st, const struct model *m)
{
    (void)m;
    diff_of(st)->chart = !diff_of(st)->chart;
    return UI_REDRAW | UI_RELAYOUT;
}

unsigned ui_act_diff_enter(struct ui_state *st, const struct model *m)
{
    struct ui_diff *d = diff_of(st);
    (void)m;
    if (d->detail.open) {
        ui_diff_close_detail(d);
        return UI_REDRAW;
    }
    if (d->nvis == 0)
        return UI_REDRAW;
    if (d->summary_only)
        return open_summary_ranks(st, d, "an op's instances");
    if (ui_diff_open_detail(d, d->cur))
        ui_state_message(st, true, "out of memory");
    return UI_REDRAW;
}

/* Moves the cursor to the next visible row (dir +1/-1, wrapping) whose name
 * contains the search text. */
static unsigned search_step(struct ui_state *st, int dir, bool from_cursor)
{
    struct ui_diff *d = diff_of(st);
    size_t n = d->nvis;
    if (!d->search[0] || n == 0)
        return UI_REDRAW;
    size_t from = from_cursor ? d->cur : (dir > 0 ? d->cur + 1 : d->cur + n - 1) % n;
    long i = ui_tview_search(&d->tv, from, dir, d->search);
    if (i >= 0)
        d->cur = (size_t)i;
    else
        ui_state_message(st, true, "no op matches \"%s\"", d->search);
    return UI_REDRAW;
}

unsigned ui_act_diff_search_next(struct ui_state *st, const struct model *m)
{
    (void)m;
    return search_step(st, 1, false);
}

unsigned ui_act_diff_search_prev(struct ui_state *st, const struct model *m)
{
    (void)m;
    return search_step(st, -1, false);
}

/* ---- the shared prompt and Esc ---- */

const char *ui_diff_prompt_initial(const struct ui_state *st, enum ui_prompt p)
{
    const struct ui_diff *d = diff_of(st);
    if (!d)
        return NULL;
    return p == UI_PROMPT_SEARCH ? d->search : d->filter;
}

unsigned ui_diff_prompt_apply(struct ui_state *st, const struct model *m, enum ui_prompt p,
                              const char *text)
{
    struct ui_diff *d = diff_of(st);
    (void)m;
    if (!d)
        return UI_REDRAW;
    if (p == UI_PROMPT_SEARCH) {
        snprintf(d->search, sizeof d->search, "%s", text);
        return search_step(st, 1, true);
    }
    snprintf(d->filter, sizeof d->filter, "%s", text);
    return rebuilt(st, d);
}

bool ui_diff_escape(struct ui_state *st)
{
    struct ui_diff *d = diff_of(st);
    if (!d)
        return false;
    if (d->detail.open) {
        ui_diff_close_detail(d);
        return true;
    }
    if (d->filter[0] || d->change_mask != ALL_CHANGES) {
        d->filter[0] = 0;
        d->change_mask = ALL_CHANGES;
        ui_state_message(st, false, "filter cleared");
        rebuilt(st, d);
        return true;
    }
    return false;
}
