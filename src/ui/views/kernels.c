#include "config.h"
#include "ui/views/kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kernel_summary.h"
#include "app/summary_job.h"
#include "ui/actions.h"
#include "ui/views/docs.h"

/* View 3 under htx: kernel_breakdown in triage order and, first, the
 * kernel summary (analysis/kernel_summary.h) as an expandable table: one
 * row per kernel over the selected ranks, and under an expanded kernel its
 * rank rows, slowest first. Expanded kernels are remembered by name. */

#define SUMMARY_TABLE "kernel_summary"
#define RANK_ROWS_MAX 4096

/* The key of summary row r: name and type (a name can have two types). */
static char *summary_key(const struct table *s, size_t r, size_t *len)
{
    const struct cell *name = table_cell(s, r, 0), *type = table_cell(s, r, 1);
    const char *n = name->type == CELL_STR && name->v.s ? name->v.s : "";
    const char *t = type->type == CELL_STR && type->v.s ? type->v.s : "";
    *len = strlen(n) + 1 + strlen(t);
    char *key = malloc(*len + 1);
    if (key)
        snprintf(key, *len + 1, "%s\x1f%s", n, t);
    return key;
}

static bool is_open(struct ui_kernels *k, size_t srow)
{
    size_t len;
    char *key = summary_key(k->summary, srow, &len);
    bool open = key && ui_expand_is(&k->open, key, len);
    free(key);
    return open;
}

static int push_row(struct ui_kernels *k, size_t at, size_t srow, size_t brow)
{
    if (at >= k->row_cap) {
        size_t cap = k->row_cap ? k->row_cap * 2 : 256;
        size_t *a = realloc(k->row_summary, cap * sizeof *a);
        if (a)
            k->row_summary = a;
        size_t *b = a ? realloc(k->row_rank, cap * sizeof *b) : NULL;
        if (!b)
            return ERR_NOMEM;
        k->row_rank = b;
        k->row_cap = cap;
    }
    k->row_summary[at] = srow;
    k->row_rank[at] = brow;
    return 0;
}

/* The shown table: the summary's columns, its rows, and under each
 * expanded one a row per rank ("rank N" in the name column's place, the
 * rank's time, its share of the kernel's, and the rank). */
static int flatten(struct ui_state *st)
{
    struct ui_kernels *k = &st->kernels;
    const struct table *s = k->summary, *b = k->breakdown;
    arena_reset(&k->arena);
    k->table = table_new(&k->arena, SUMMARY_TABLE, s->title, s->cols, s->ncols);
    size_t *rows = malloc(RANK_ROWS_MAX * sizeof *rows);
    if (!k->table || !rows) {
        free(rows);
        k->table = NULL;
        return ERR_NOMEM;
    }
    table_set_note(k->table, "one row per kernel over the ranks; Right/l opens its ranks, "
                             "Left/h closes them, Enter shows its instances on the timeline");
    int bsum = table_col_index(b, "sum (us)"), brank = table_col_index(b, "rank");
    int ssum = table_col_index(s, "sum (us)"), spct = table_col_index(s, "percentage (%)");
    int sslow = table_col_index(s, "slowest rank");
    int rc = 0;
    size_t n = 0;
    for (size_t r = 0; r < s->nrows && rc == 0; r++) {
        struct cell *row = table_add_row(k->table);
        if (!row || push_row(k, n++, r, SIZE_MAX)) {
            rc = ERR_NOMEM;
            break;
        }
        memcpy(row, table_cell(s, r, 0), s->ncols * sizeof *row);
        if (!is_open(k, r))
            continue;
        double total = ssum >= 0 ? cell_as_double(table_cell(s, r, (size_t)ssum)) : 0;
        size_t nr = kernel_summary_rank_rows(b, s, r, rows, RANK_ROWS_MAX);
        for (size_t i = 0; i < nr && i < RANK_ROWS_MAX && rc == 0; i++) {
            struct cell *sub = table_add_row(k->table);
            if (!sub || push_row(k, n++, r, rows[i])) {
                rc = ERR_NOMEM;
                break;
            }
            char label[48];
            const struct cell *rk = brank >= 0 ? table_cell(b, rows[i], (size_t)brank) : NULL;
            snprintf(label, sizeof label, "  rank %lld",
                     rk && rk->type == CELL_INT ? (long long)rk->v.i : -1LL);
            sub[0] = cell_str(k->table, label);
            sub[1] = *table_cell(s, r, 1);
            double v = bsum >= 0 ? cell_as_double(table_cell(b, rows[i], (size_t)bsum)) : 0;
            if (ssum >= 0)
                sub[ssum] = cell_double(v);
            if (spct >= 0)   // of the kernel's time over the ranks
                sub[spct] = cell_double(total > 0 ? 100.0 * v / total : 0);
            if (sslow >= 0 && rk)
                sub[sslow] = *rk;
        }
    }
    free(rows);
    return rc;
}

int ui_kernels_decorate(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    struct ui_kernels *k = &st->kernels;
    k->table = NULL;
    if (m->sem.hta_tables)
        return 0;
    size_t bi = d->ntables;
    for (size_t i = 0; i < d->ntables; i++)
        if (strcmp(d->tables[i]->name, "kernel_breakdown") == 0)
            bi = i;
    if (bi == d->ntables)
        return 0;
    struct table *summary = NULL;
    if (kernel_breakdown_sort_by_time(d->tables[bi]) ||
        kernel_summary_table(d->tables[bi], &d->arena, &summary))
        return ERR_NOMEM;
    if (!summary)
        return 0;
    k->summary = summary;
    k->breakdown = d->tables[bi];
    if (flatten(st))
        return ERR_NOMEM;
    if (d->ntables == UI_DOC_TABLES)
        d->ntables--;
    memmove(&d->tables[bi + 1], &d->tables[bi], (d->ntables - bi) * sizeof d->tables[0]);
    d->tables[bi] = k->table;
    d->ntables++;
    return 0;
}

/* The summary table's index in view 3, or SIZE_MAX. */
static size_t summary_index(const struct ui_state *st)
{
    const struct ui_doc *d = &st->docs[UI_VIEW_KERNELS];
    for (size_t i = 0; st->kernels.table && i < d->ntables; i++)
        if (d->tables[i] == st->kernels.table)
            return i;
    return SIZE_MAX;
}

bool ui_kernels_active(const struct ui_state *st)
{
    return st->view == UI_VIEW_KERNELS && st->focus == UI_FOCUS_MAIN &&
           summary_index(st) == st->docs[UI_VIEW_KERNELS].cur;
}

/* The shown row under the cursor, or SIZE_MAX. */
static size_t cursor_row(const struct ui_state *st)
{
    const struct ui_doc *d = &st->docs[UI_VIEW_KERNELS];
    size_t t = summary_index(st);
    if (t == SIZE_MAX || d->tv[t].nrows == 0)
        return SIZE_MAX;
    return d->tv[t].rows[d->row[t]];
}

/* Opens or closes summary row srow and keeps the cursor on it. */
static unsigned set_open(struct ui_state *st, size_t srow, bool open)
{
    struct ui_kernels *k = &st->kernels;
    struct ui_doc *d = &st->docs[UI_VIEW_KERNELS];
    size_t len, t = summary_index(st);
    char *key = summary_key(k->summary, srow, &len);
    if (!key || ui_expand_set(&k->open, key, len, open) || flatten(st)) {
        free(key);
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    free(key);
    d->tables[t] = k->table;
    if (ui_doc_rebuild_views(st, d)) {
        ui_state_message(st, true, "out of memory");
        return UI_REDRAW;
    }
    for (size_t i = 0; i < d->tv[t].nrows; i++) {
        size_t r = d->tv[t].rows[i];
        if (k->row_summary[r] == srow && k->row_rank[r] == SIZE_MAX)
            d->row[t] = i;
    }
    ui_doc_scroll(st);
    return UI_REDRAW;
}

unsigned ui_act_kernels_expand(struct ui_state *st, const struct model *m)
{
    (void)m;
    size_t r = cursor_row(st);
    if (r == SIZE_MAX || st->kernels.row_rank[r] != SIZE_MAX)
        return 0;
    return set_open(st, st->kernels.row_summary[r], true);
}

unsigned ui_act_kernels_collapse(struct ui_state *st, const struct model *m)
{
    (void)m;
    size_t r = cursor_row(st);
    if (r == SIZE_MAX)
        return 0;
    return set_open(st, st->kernels.row_summary[r], false);
}

/* A summary job (the kernel tables from the summaries): a rank row opens
 * that rank with its events (loaded from its summary); a kernel row says
 * how to get there. */
static unsigned summary_enter(struct ui_state *st, int64_t rank)
{
    const struct summary_job *l = st->job;
    for (size_t i = 0; rank >= 0 && i < l->n; i++)
        if (l->ranks[i].rank.rank == rank)
            return ui_state_open_summary_rank(st, i, NULL);
    ui_state_message(st, false, "a kernel's instances need the events: Right/l lists its ranks, "
                     "Enter on one opens that rank with them");
    return UI_REDRAW;
}

unsigned ui_act_kernels_enter(struct ui_state *st, const struct model *m)
{
    size_t r = cursor_row(st);
    if (r == SIZE_MAX)
        return 0;
    const struct ui_kernels *k = &st->kernels;
    const struct cell *name = table_cell(k->summary, k->row_summary[r], 0);
    int64_t rank = -1;
    if (k->row_rank[r] != SIZE_MAX) {
        int rc = table_col_index(k->breakdown, "rank");
        const struct cell *c = rc >= 0 ? table_cell(k->breakdown, k->row_rank[r], (size_t)rc) : NULL;
        rank = c && c->type == CELL_INT ? c->v.i : -1;
    }
    const char *text = name->type == CELL_STR && name->v.s ? name->v.s : "";
    if (st->job)
        return summary_enter(st, rank);
    size_t n = text[0] ? ui_find_instances(st, m, text, true, rank) : 0;
    if (n == 0) {
        ui_state_message(st, true, "no instance of \"%s\" in the selection", text);
        return UI_REDRAW;
    }
    st->prev_view = st->view;
    st->view = UI_VIEW_TIMELINE;
    st->focus = UI_FOCUS_MAIN;
    st->jump = n - 1;
    return ui_act_jump_next(st, m);
}
