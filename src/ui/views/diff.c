#include "config.h"
#include "ui/views/diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/diff_request.h"
#include "app/options.h"
#include "ui/widgets/text.h"

/* The diff view's state and keys; drawing is in view_diff_draw.c. */

#define ALL_CHANGES ((1u << DIFF_CHANGE_COUNT) - 1)

static struct ui_diff *diff_of(const struct ui_state *st)
{
    return st->diff;
}

/* ---- opening ------------------------------------------------------------- */

/* The iterations a side steps through: HTA's valid ones (every rank's
 * ProfilerStep names), or every rank's iterations (htx). */
static int side_iterations(struct ui_diff_side *s, struct arena *a, struct err *e)
{
    const struct model *m = s->m;
    if (m->sem.diff_hta_quirks)
        return diff_valid_iterations(m, a, &s->iters, &s->niters, e);
    size_t total = 0;
    for (size_t r = 0; r < m->nranks; r++)
        total += m->ranks[r].niterations;
    s->iters = arena_calloc(a, total ? total : 1, sizeof *s->iters);
    if (!s->iters)
        return err_set(e, ERR_NOMEM, "out of memory");
    size_t k = 0;
    for (size_t r = 0; r < m->nranks; r++)
        for (size_t i = 0; i < m->ranks[r].niterations; i++) {
            int64_t v = m->ranks[r].iterations[i].number;
            size_t j = k;
            while (j > 0 && s->iters[j - 1] > v)   /* insertion keeps it sorted */
                j--;
            if (j > 0 && s->iters[j - 1] == v)
                continue;
            memmove(s->iters + j + 1, s->iters + j, (k - j) * sizeof *s->iters);
            s->iters[j] = v;
            k++;
        }
    s->niters = k;
    return 0;
}

int ui_diff_open(struct ui_state *st, const struct model *control, const struct model *test,
                 const struct diff_side *parts, const struct htx_options *opts,
                 struct err *e)
{
    struct ui_diff *d = calloc(1, sizeof *d);
    if (!d)
        return err_set(e, ERR_NOMEM, "out of memory");
    arena_init(&d->keep, 4096);
    arena_init(&d->arena, 1 << 16);
    arena_init(&d->detail_arena, 1 << 14);
    const struct model *models[2] = {control, test};
    static const char *const labels[2] = {"control", "test"};
    for (int k = 0; k < 2; k++) {
        struct ui_diff_side *s = &d->side[k];
        s->label = labels[k];
        s->m = models[k];
        s->src = parts ? parts[k] : (struct diff_side){models[k], NULL};
        s->rank = s->iter = -1;
        app_diff_request(opts, k == 1, &s->initial);
        int rc = side_iterations(s, &d->keep, e);
        if (rc) {
            st->diff = d;
            ui_diff_close(st);
            return rc;
        }
    }
    d->device = opts->device == HTX_DEVICE_CPU ? DIFF_DEVICE_CPU
                : opts->device == HTX_DEVICE_GPU ? DIFF_DEVICE_GPU : DIFF_DEVICE_ALL;
    d->short_names = opts->short_names;
    d->hta = control->sem.diff_hta_quirks;
    d->summary_only = parts != NULL;
    d->change_mask = ALL_CHANGES;
    d->sort = UI_DIFF_SORT_DDUR;
    d->chart = true;
    d->dirty = true;
    st->diff = d;
    st->diff_view = &ui_view_diff;
    return 0;
}

void ui_diff_compare_whole(struct ui_state *st)
{
    struct ui_diff *d = st->diff;
    for (int k = 0; k < 2; k++)
        d->side[k].rank = (long)d->side[k].m->nranks;
    d->dirty = true;
}

void ui_diff_close(struct ui_state *st)
{
    struct ui_diff *d = st->diff;
    if (!d)
        return;
    arena_fini(&d->keep);
    arena_fini(&d->arena);
    arena_fini(&d->detail_arena);
    ui_tview_fini(&d->tv);
    free(d);
    st->diff = NULL;
    st->diff_view = NULL;
}

/* ---- computing ------------------------------------------------------------ */

static void side_request(struct ui_diff_side *s, struct diff_request_side *req)
{
    *req = s->initial;
    if (s->rank >= 0) {
        bool all = (size_t)s->rank >= s->m->nranks;
        if (!all)
            s->rank_buf = s->m->ranks[s->rank].rank;
        req->ranks = all ? NULL : &s->rank_buf;
        req->nranks = all ? 0 : 1;
        req->all_ranks = all;
    }
    if (s->iter >= 0) {
        bool all = (size_t)s->iter >= s->niters;
        if (!all)
            s->iter_buf = s->iters[s->iter];
        req->iterations = all ? NULL : &s->iter_buf;
        req->niterations = all ? 0 : 1;
        req->all_iterations = all;
    }
}

static int recompute(struct ui_diff *d, struct err *e)
{
    arena_reset(&d->arena);
    memset(&d->res, 0, sizeof d->res);
    d->table = NULL;
    d->error[0] = 0;
    for (int k = 0; k < 2; k++) {
        struct diff_request_side req;
        side_request(&d->side[k], &req);
        int rc = diff_resolve_side(d->side[k].m, &req, d->side[k].label, &d->arena,
                                   &d->side[k].plan, e);
        if (rc)
            return rc;
    }
    struct diff_run_opts o = {d->device, d->short_names, &d->side[0].plan, &d->side[1].plan,
                              false, true};
    return diff_compare_side_pair(&d->side[0].src, &d->side[1].src, &o, d->short_names,
                                  &d->arena, &d->res, e);
}

int ui_diff_update(struct ui_diff *d, struct err *e)
{
    if (d->dirty) {
        size_t keep_cur = d->cur;
        ui_diff_close_detail(d);
        d->dirty = false;
        int rc = recompute(d, e);
        if (rc) {
            snprintf(d->error, sizeof d->error, "%s", e && e->msg[0] ? e->msg : "diff failed");
            memset(&d->res, 0, sizeof d->res);
        }
        d->cur = keep_cur;
        if (ui_diff_rebuild(d))
            return err_set(e, ERR_NOMEM, "out of memory");
        return rc;
    }
    return 0;
}

/* A row with the key the Δ bars rank it by. */
struct keyed_row {
    size_t row;
    double key;
};

static int cmp_keyed_desc(const void *a, const void *b)
{
    const struct keyed_row *x = a, *y = b;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

static double ddur(const struct diff_row *r)
{
    return (double)(r->test_dur_ns - r->control_dur_ns);
}

static double dcount(const struct diff_row *r)
{
    return (double)(r->test_count - r->control_count);
}

/* The column of compare_traces' table each sort orders by. */
static const char *const sort_column[UI_DIFF_SORT_COUNT] = {"diff_duration", "diff_counts",
                                                            "name"};

static bool change_hidden(void *ctx, size_t row)
{
    const struct ui_diff *d = ctx;
    return !(d->change_mask & (1u << d->res.rows[row].change));
}

/* The shared table view over compare_traces' table: the filter text, the
 * change mask and the sort (Δ largest first, names ascending); reversing
 * turns the whole order around. */
static int build_rows(struct ui_diff *d)
{
    if (!d->table) {
        struct diff_table_opts o = {false, false};
        d->table = diff_compare_traces_table(&d->res, &o, &d->arena);
        if (!d->table)
            return ERR_NOMEM;
    }
    d->tv.sort_col = -1;
    for (size_t c = 0; c < d->table->ncols; c++)
        if (strcmp(d->table->cols[c].name, sort_column[d->sort]) == 0)
            d->tv.sort_col = (int)c;
    d->tv.sort_desc = d->sort != UI_DIFF_SORT_NAME;
    struct ui_row_filter rf = {NULL, d, change_hidden};
    int rc = ui_tview_build(&d->tv, d->table, d->filter, &rf);
    if (rc)
        return rc;
    if (d->sort_reverse)
        for (size_t i = 0, j = d->tv.nrows; i + 1 < j; i++, j--) {
            size_t t = d->tv.rows[i];
            d->tv.rows[i] = d->tv.rows[j - 1];
            d->tv.rows[j - 1] = t;
        }
    d->vis = d->tv.rows;
    d->nvis = d->tv.nrows;
    return 0;
}

/* The ten rows with the largest |Δ| of the sort metric (Δ duration unless
 * sorting by Δ count), largest first. */
static void pick_top10(struct ui_diff *d, struct keyed_row *k)
{
    bool counts = d->sort == UI_DIFF_SORT_DCOUNT;
    for (size_t i = 0; i < d->nvis; i++) {
        const struct diff_row *r = &d->res.rows[d->vis[i]];
        k[i] = (struct keyed_row){d->vis[i], fabs(counts ? dcount(r) : ddur(r))};
    }
    qsort(k, d->nvis, sizeof *k, cmp_keyed_desc);
    d->ntop10 = 0;
    for (size_t i = 0; i < d->nvis && d->ntop10 < 10; i++)
        if (k[i].key > 0)
            d->top10[d->ntop10++] = k[i].row;
}

int ui_diff_rebuild(struct ui_diff *d)
{
    size_t old = d->cur < d->nvis ? d->vis[d->cur] : SIZE_MAX;
    int rc = build_rows(d);
    if (rc)
        return rc;
    d->max_ddur = d->max_dcount = 0;
    for (size_t i = 0; i < d->nvis; i++) {
        const struct diff_row *r = &d->res.rows[d->vis[i]];
        d->max_ddur = fmax(d->max_ddur, fabs(ddur(r)));
        d->max_dcount = fmax(d->max_dcount, fabs(dcount(r)));
    }
    struct keyed_row *k = malloc((d->nvis ? d->nvis : 1) * sizeof *k);
    if (!k)
        return ERR_NOMEM;
    pick_top10(d, k);
    free(k);
    d->cur = 0;
    for (size_t i = 0; i < d->nvis; i++)
        if (d->vis[i] == old)
            d->cur = i;
    return 0;
}

void ui_diff_side_text(const struct ui_diff_side *s, bool ascii, char *buf, size_t n)
{
    const struct diff_plan *p = &s->plan;
    char ranks[48], iters[48];
    if (p->nranks == 1)
        snprintf(ranks, sizeof ranks, "r%" PRId64, p->ranks[0]);
    else if (p->nranks == s->m->nranks)
        snprintf(ranks, sizeof ranks, "all %zu ranks", p->nranks);
    else
        snprintf(ranks, sizeof ranks, "%zu ranks", p->nranks);
    if (p->niterations == 1)
        snprintf(iters, sizeof iters, "iter %" PRId64, p->iterations[0]);
    else if (p->niterations == 0)
        snprintf(iters, sizeof iters, "%s", p->filter_iterations ? "no iters" : "all iters");
    else
        snprintf(iters, sizeof iters, "%zu iters", p->niterations);
    snprintf(buf, n, "%s %s %s %s", s->label, ranks, ascii ? "-" : "\u00b7", iters);
}

/* ---- the view --------------------------------------------------------------- */

static int vd_refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    struct ui_diff *d = diff_of(st);
    (void)m;
    if (!d)
        return 0;
    /* A failed diff is shown in the view, not raised: the UI stays usable. */
    if (ui_diff_update(d, e) == ERR_NOMEM)
        return ERR_NOMEM;
    return 0;
}

static size_t vd_pinned(const struct ui_state *st, const struct model *m)
{
    (void)m;
    return st->diff ? ui_diff_pinned_lines(st->diff, st->layout.body.h) : 0;
}

static void vd_pinned_row(const struct ui_state *st, const struct model *m, size_t i,
                          struct ui_grid *g, int y, int x, int w)
{
    (void)m;
    if (st->diff)
        ui_diff_draw_pinned(st->diff, i, st->layout.body.h, g, y, x, w);
}

static size_t vd_rows(const struct ui_state *st, const struct model *m)
{
    (void)m;
    return st->diff ? ui_diff_body_lines(st->diff) : 0;
}

/* Keeps the cursor row inside the body (the detail scrolls from its top). */
static size_t vd_top(const struct ui_state *st, const struct model *m, int height)
{
    struct ui_diff *d = st->diff;
    (void)m;
    if (!d || d->detail.open)
        return 0;
    size_t pinned = ui_diff_pinned_lines(d, height);
    size_t h = height > (int)pinned + 1 ? (size_t)height - pinned : 1;
    if (d->cur < d->top)
        d->top = d->cur;
    if (d->cur >= d->top + h)
        d->top = d->cur - h + 1;
    return d->top;
}

static void vd_row(const struct ui_state *st, const struct model *m, size_t i, struct ui_grid *g,
                   int y, int x, int w)
{
    (void)m;
    if (st->diff)
        ui_diff_draw_body(st->diff, i, st->focus == UI_FOCUS_MAIN, g, y, x, w);
}

static void vd_status(const struct ui_state *st, const struct model *m, char *buf, size_t n)
{
    const struct ui_diff *d = st->diff;
    (void)m;
    if (!d) {
        snprintf(buf, n, "no diff");
    } else if (d->error[0]) {
        snprintf(buf, n, "%s", d->error);
    } else if (d->nvis == 0) {
        snprintf(buf, n, "no op to show");
    } else {
        const struct diff_row *r = &d->res.rows[d->vis[d->cur]];
        char dur[32];
        ui_format_duration(r->test_dur_ns - r->control_dur_ns, dur, sizeof dur);
        snprintf(buf, n, "op %zu/%zu %s %s%s", d->cur + 1, d->nvis, diff_change_name(r->change),
                 r->test_dur_ns > r->control_dur_ns ? "+" : "", dur);
    }
}

const struct ui_view_ops ui_view_diff = {
    .id = UI_VIEW_DIFF,
    .key = 'd',
    .name = "Diff",
    .refresh = vd_refresh,
    .rows = vd_rows,
    .top = vd_top,
    .row = vd_row,
    .pinned = vd_pinned,
    .pinned_row = vd_pinned_row,
    .status = vd_status,
    .prompt_initial = ui_diff_prompt_initial,
    .prompt_apply = ui_diff_prompt_apply,
};
