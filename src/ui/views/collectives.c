#include "config.h"
#include "ui/views/collectives.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/collectives.h"
#include "app/summary_job.h"
#include "ui/document.h"
#include "ui/jumps.h"

/* View C (Collectives): the collectives matched across ranks (HTA's
 * skew, wait and bandwidth per collective). Enter on a collective shows
 * its kernels on every rank's lane, on one time axis, starting with the
 * last arriver (n/N: the other ranks). */

/* Instances of a collective, latest arrival first (ties: rank order). */
static int by_arrival_desc(const void *a, const void *b)
{
    const struct coll_instance *x = *(const struct coll_instance *const *)a;
    const struct coll_instance *y = *(const struct coll_instance *const *)b;
    if (x->arrival != y->arrival)
        return x->arrival > y->arrival ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* A summary job: the instances need the events; Enter loads the last
 * arriver's from its summary (ui/load.c's drill). */
static unsigned summary_collective_enter(struct ui_state *st, const struct model *m, size_t row)
{
    struct arena a;
    struct strtab strings;
    struct coll_result r;
    struct err e = {0, ""};
    bool *selected = summary_job_model_selection(m);
    arena_init(&a, 1 << 16);
    unsigned flags = UI_REDRAW;
    int rc = selected && strtab_init(&strings) == 0 ? 0 : ERR_NOMEM;
    if (rc == 0) {
        rc = summary_job_coll_result(st->job, selected, &strings, &a, &r, &e);
        if (rc == 0 && row < r.ncolls) {
            const struct collective *c = &r.colls[row];
            char why[160];
            snprintf(why, sizeof why, "last at %s", strtab_str(&strings, c->name));
            flags = ui_state_open_summary_rank(st, c->inst[c->last].rank_index, why);
        } else {
            ui_state_message(st, true, "%s", rc ? e.msg : "the collective is gone");
        }
        strtab_fini(&strings);
    } else {
        ui_state_message(st, true, "out of memory");
    }
    free(selected);
    arena_fini(&a);
    return flags;
}

unsigned ui_act_collectives_enter(struct ui_state *st, const struct model *m)
{
    size_t row = ui_doc_cursor_row(st, "collectives");
    if (row == SIZE_MAX)
        return ui_act_doc_enter(st, m);
    if (st->job)
        return summary_collective_enter(st, m, row);
    struct arena a;
    struct coll_result r;
    struct err e = {0, ""};
    arena_init(&a, 1 << 16);
    if (coll_analyze(m, &st->aopts, &a, &r, &e) != 0 || row >= r.ncolls) {
        ui_state_message(st, true, "%s", e.msg[0] ? e.msg : "the collective is gone");
        arena_fini(&a);
        return UI_REDRAW;
    }
    const struct collective *c = &r.colls[row];   // the table lists colls in order
    struct ui_jump *j = realloc(st->jumps, (c->ninst ? c->ninst : 1) * sizeof *j);
    const struct coll_instance **order = malloc((c->ninst ? c->ninst : 1) * sizeof *order);
    if (j)
        st->jumps = j;
    if (!j || !order) {
        free(order);
        arena_fini(&a);
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    st->njumps = c->ninst;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < c->ninst; i++) {
        order[i] = &c->inst[i];
        lo = c->inst[i].arrival < lo ? c->inst[i].arrival : lo;
        hi = c->inst[i].end > hi ? c->inst[i].end : hi;
    }
    qsort(order, c->ninst, sizeof *order, by_arrival_desc);
    for (size_t i = 0; i < c->ninst; i++)
        j[i] = (struct ui_jump){order[i]->rank_index, order[i]->pos};
    free(order);
    snprintf(st->jump_what, sizeof st->jump_what, "%s: rank %lld arrived last, %.1f us after rank %lld",
             model_str(m, c->name), (long long)c->inst[c->last].rank,
             (double)c->skew / 1000.0, (long long)c->inst[c->first].rank);
    arena_fini(&a);
    // One time axis for every lane: the whole collective, a margin each side.
    int64_t pad = (hi - lo) / 10 + 1000;
    st->tl.t0 = lo - pad;
    st->tl.t1 = hi + pad;
    return ui_jumps_show(st, m, 0);   // the last arriver
}

static const enum analysis_id analyses[] = {ANALYSIS_COLLECTIVES};

/* What tells a collective's story first on a narrow screen: which
 * collective, how far apart the ranks arrived, who came last, and what
 * the others lost waiting. */
static const char *const lead_columns[] = {"collective", "skew (us)", "last_rank",
                                           "max_wait (us)", "total_wait (us)"};

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    st->docs[UI_VIEW_COLLECTIVES].lead = lead_columns;
    st->docs[UI_VIEW_COLLECTIVES].nlead = sizeof lead_columns / sizeof lead_columns[0];
    return ui_doc_refresh(st, m, UI_VIEW_COLLECTIVES, analyses, 1, NULL, e);
}

static size_t contexts(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS])
{
    (void)st;
    ctx[0] = UI_CTX_COLL_TABLE;
    ctx[1] = UI_CTX_DOC;
    return 2;
}

const struct ui_view_ops ui_view_collectives = {
    .id = UI_VIEW_COLLECTIVES,
    .key = 'C',
    .name = "Collectives",
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
