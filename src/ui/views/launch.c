#include "config.h"
#include "ui/views/launch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/document.h"
#include "ui/jumps.h"
#include "util/hmap.h"

/* View 6 (Launch): HTA's launch tables name a launch by rank and
 * correlation id only. The correlation names the GPU event it launched,
 * so the view adds that event's name after the correlation column, and
 * Enter shows that very event on the timeline, n/N the table's other rows
 * in the order shown. */

/* A rank's GPU events by correlation (the first one per id). */
struct corr_index {
    bool built;
    struct hmap map;   /* correlation -> position in rank->events */
};

static int index_rank(const struct rank_model *r, struct corr_index *x)
{
    if (x->built)
        return 0;
    if (hmap_init(&x->map, 1024))
        return ERR_NOMEM;
    x->built = true;
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        bool gpu = ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY ||
                   ev->kind == EV_KIND_MEMSET;
        if (gpu && event_correlation(ev) >= 0 && !hmap_get(&x->map, event_correlation(ev)) &&
            hmap_put(&x->map, event_correlation(ev), (uint32_t)i))
            return ERR_NOMEM;
    }
    return 0;
}

static void free_indexes(struct corr_index *x, size_t n)
{
    for (size_t i = 0; x && i < n; i++)
        if (x[i].built)
            hmap_fini(&x[i].map);
    free(x);
}

/* The GPU event of table row `row` (rank and correlation columns rc, cc):
 * its rank index and position, false when it is not in the trace. */
static bool row_event(const struct model *m, struct corr_index *idx, const struct table *t,
                      size_t row, int rc, int cc, size_t *rank, uint32_t *pos)
{
    const struct cell *rk = table_cell(t, row, (size_t)rc), *co = table_cell(t, row, (size_t)cc);
    if (rk->type != CELL_INT || co->type != CELL_INT)
        return false;
    size_t r = model_rank_index(m, rk->v.i);
    if (r == SIZE_MAX || index_rank(&m->ranks[r], &idx[r]))
        return false;
    uint32_t *p = hmap_get(&idx[r].map, co->v.i);
    if (!p)
        return false;
    *rank = r;
    *pos = *p;
    return true;
}

/* t with a "kernel name" column after the correlation. */
static struct table *with_names(const struct model *m, struct corr_index *idx,
                                const struct table *t, int rc, int cc, struct arena *a)
{
    struct table_col cols[32];
    if (t->ncols + 1 > 32)
        return NULL;
    size_t k = 0;
    for (size_t c = 0; c < t->ncols; c++) {
        cols[k++] = t->cols[c];
        if ((int)c == cc)
            cols[k++] = (struct table_col){"kernel name", NULL, 0};
    }
    struct table *out = table_new(a, t->name, t->title, cols, k);
    if (!out)
        return NULL;
    out->note = t->note;
    for (size_t r = 0; r < t->nrows; r++) {
        struct cell *row = table_add_row(out);
        if (!row)
            return NULL;
        size_t rank;
        uint32_t pos;
        const char *name = row_event(m, idx, t, r, rc, cc, &rank, &pos)
                               ? model_str(m, m->ranks[rank].events[pos].name)
                               : NULL;
        for (size_t c = 0, o = 0; c < t->ncols; c++) {
            row[o++] = *table_cell(t, r, c);
            if ((int)c == cc)
                row[o++] = name ? cell_str(out, name) : (struct cell){.type = CELL_NULL};
        }
    }
    return out;
}

/* Replaces d's tables that have rank and correlation columns by copies
 * with a "kernel name" column after the correlation. 0 or ERR_NOMEM. */
static int add_names(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    (void)st;
    struct corr_index *idx = calloc(m->nranks ? m->nranks : 1, sizeof *idx);
    if (!idx)
        return ERR_NOMEM;
    int rc = 0;
    for (size_t i = 0; i < d->ntables && rc == 0; i++) {
        const struct table *t = d->tables[i];
        int rcol = table_col_index(t, "rank"), ccol = table_col_index(t, "correlation");
        if (rcol < 0 || ccol < 0)
            continue;
        struct table *named = with_names(m, idx, t, rcol, ccol, &d->arena);
        if (!named)
            rc = ERR_NOMEM;
        else
            d->tables[i] = named;
    }
    free_indexes(idx, m->nranks);
    return rc;
}

static int launch_histogram(struct ui_doc *d)
{
    static const char *labels[] = {"< 1 us", "1-10 us", "10-100 us", "0.1-1 ms", ">= 1 ms"};
    struct table *t = ui_doc_find_table(d, "cuda_kernel_launch_stats");
    if (!t || t->nrows == 0)
        return 0;
    int lc = table_col_index(t, "launch_delay");
    if (lc < 0)
        return 0;
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_BARS, "Launch delay histogram (launches)", 5);
    if (!c)
        return ERR_NOMEM;
    for (int k = 0; k < 5; k++)
        c->rows[k].label = labels[k];
    for (size_t r = 0; r < t->nrows; r++) {
        double v = ui_doc_num(t, r, lc);
        if (isnan(v))
            continue;
        int k = v < 1 ? 0 : v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : 4;
        c->rows[k].v[0] += 1;
    }
    return 0;
}

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    return launch_histogram(d) ? ERR_NOMEM : add_names(st, m, d);
}

static const enum analysis_id analyses[] = {ANALYSIS_LAUNCH};

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    return ui_doc_refresh(st, m, UI_VIEW_LAUNCH, analyses, 1, build, e);
}

unsigned ui_act_launch_enter(struct ui_state *st, const struct model *m)
{
    struct ui_doc *d = &st->docs[st->view];
    if (d->ntables == 0)
        return ui_act_doc_enter(st, m);   // without events: the rank's
    if (d->tv[d->cur].nrows == 0)
        return 0;
    const struct ui_tview *v = &d->tv[d->cur];
    int rc = table_col_index(v->t, "rank"), cc = table_col_index(v->t, "correlation");
    if (rc < 0 || cc < 0)
        return ui_act_doc_enter(st, m);   // the summary tables: names to look for
    struct corr_index *idx = calloc(m->nranks ? m->nranks : 1, sizeof *idx);
    struct ui_jump *j = realloc(st->jumps, v->nrows * sizeof *j);
    if (j)
        st->jumps = j;
    if (!idx || !j) {
        free_indexes(idx, m->nranks);
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    // Every shown row with its event in the trace, in the order shown.
    size_t n = 0, at = SIZE_MAX;
    for (size_t i = 0; i < v->nrows; i++) {
        size_t rank;
        uint32_t pos;
        if (!row_event(m, idx, v->t, v->rows[i], rc, cc, &rank, &pos))
            continue;
        if (i == d->row[d->cur])
            at = n;
        j[n++] = (struct ui_jump){(uint32_t)rank, pos};
    }
    free_indexes(idx, m->nranks);
    st->njumps = n;
    if (at == SIZE_MAX) {
        st->njumps = 0;
        ui_state_message(st, true, "this launch's GPU event is not in the trace");
        return UI_REDRAW;
    }
    snprintf(st->jump_what, sizeof st->jump_what, "launches of %s in the table's order",
             v->t->title ? v->t->title : v->t->name);
    return ui_jumps_show(st, m, at);
}

static size_t contexts(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS])
{
    size_t n = 0;
    if (st->focus == UI_FOCUS_MAIN)
        ctx[n++] = UI_CTX_LAUNCH_TABLE;
    ctx[n++] = UI_CTX_DOC;
    return n;
}

const struct ui_view_ops ui_view_launch = {
    .id = UI_VIEW_LAUNCH,
    .key = '6',
    .name = "Launch",
    .hints = UI_DOC_HINTS,
    .refresh = refresh,
    .stale = ui_doc_stale,
    .contexts = contexts,
    .rows = ui_doc_rows,
    .top = ui_doc_top,
    .row = ui_doc_row,
    .pinned = ui_doc_pinned,
    .pinned_row = ui_doc_pinned_row,
    .status = ui_doc_status,
    .prompt_initial = ui_doc_prompt_initial,
    .prompt_apply = ui_doc_prompt_apply,
    .escape = ui_doc_escape,
    .click = ui_doc_click,
    .cursor_name = ui_doc_cursor_name,
};
