#include "config.h"
#include "ui/views/kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kernel_summary.h"
#include "app/summary_job.h"
#include "ui/document.h"
#include "ui/jumps.h"
#include "ui/widgets/expand.h"

/* View 3 under htx: kernel_breakdown in triage order and, first, the
 * kernel summary (analysis/kernel_summary.h) as an expandable table: one
 * row per kernel over the selected ranks, and under an expanded kernel its
 * rank rows, slowest first. Expanded kernels are remembered by name. */

#define SUMMARY_TABLE "kernel_summary"
#define RANK_ROWS_MAX 4096

/* The view's own data, st->own[UI_VIEW_KERNELS]: kernel_summary, one row
 * per kernel, each expandable into its per-rank rows of kernel_breakdown. */
struct ui_kernels {
    struct ui_expand open;     /* expanded kernels, by name and type */
    struct arena arena;        /* the shown table */
    struct table *table;       /* NULL when the view shows none */
    const struct table *summary, *breakdown;   /* in the view's doc arena */
    size_t *row_summary;       /* shown row -> summary row */
    size_t *row_rank;          /* shown row -> breakdown row, SIZE_MAX on a kernel's row */
    size_t row_cap;
};

static struct ui_kernels *kernels_of(const struct ui_state *st)
{
    return st->own[UI_VIEW_KERNELS];
}

static int init(struct ui_state *st)
{
    struct ui_kernels *k = calloc(1, sizeof *k);
    if (!k)
        return ERR_NOMEM;
    arena_init(&k->arena, 65536);
    st->own[UI_VIEW_KERNELS] = k;
    return ui_expand_init(&k->open) ? ERR_NOMEM : 0;
}

static void fini(struct ui_state *st)
{
    struct ui_kernels *k = kernels_of(st);
    if (!k)
        return;
    ui_expand_fini(&k->open);
    free(k->row_summary);
    free(k->row_rank);
    arena_fini(&k->arena);
    free(k);
    st->own[UI_VIEW_KERNELS] = NULL;
}

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
    struct ui_kernels *k = kernels_of(st);
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

static int add_summary(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    struct ui_kernels *k = kernels_of(st);
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

/* ---- the kernel spread, without a summary ---- */

/* Per kernel name: on how many ranks it is a top kernel, and the min /
 * mean / max of its per-rank total time. */
struct spread {
    const char *name;
    size_t ranks;
    double min, max, sum;
};

static int cmp_spread(const void *a, const void *b)
{
    const struct spread *x = a, *y = b;
    if (x->max != y->max)
        return x->max < y->max ? 1 : -1;
    return strcmp(x->name, y->name);
}

static int add_spread_rows(struct table *out, struct spread *s, size_t n)
{
    qsort(s, n, sizeof *s, cmp_spread);
    for (size_t i = 0; i < n; i++) {
        struct cell *row = table_add_row(out);
        if (!row)
            return ERR_NOMEM;
        row[0] = cell_str(out, s[i].name);
        row[1] = cell_int((int64_t)s[i].ranks);
        row[2] = cell_double(s[i].min);
        row[3] = cell_double(s[i].sum / (double)s[i].ranks);
        row[4] = cell_double(s[i].max);
    }
    return 0;
}

static int kernel_spread(struct ui_doc *d)
{
    static const struct table_col cols[] = {
        {"name", NULL, COL_KEY}, {"ranks", NULL, 0}, {"min sum (us)", "us", 0},
        {"mean sum (us)", "us", 0}, {"max sum (us)", "us", 0},
    };
    struct table *t = ui_doc_find_table(d, "kernel_breakdown");
    if (!t || t->nrows == 0)
        return 0;
    int nc = table_col_index(t, "name"), sc = table_col_index(t, "sum (us)");
    if (nc < 0 || sc < 0)
        return 0;
    struct spread *s = calloc(t->nrows, sizeof *s);
    struct table *out = table_new(&d->arena, "kernel_spread", "Top kernels across ranks", cols, 5);
    size_t n = 0;
    if (!s || !out) {
        free(s);
        return ERR_NOMEM;
    }
    for (size_t r = 0; r < t->nrows; r++) {
        const struct cell *c = table_cell(t, r, (size_t)nc);
        const char *name = c->type == CELL_STR && c->v.s ? c->v.s : "";
        double v = ui_doc_num(t, r, sc);
        size_t k = 0;
        while (k < n && strcmp(s[k].name, name) != 0)
            k++;  // top-N tables are small: a linear search is enough
        if (k == n)
            s[n++] = (struct spread){name, 0, INFINITY, -INFINITY, 0};
        s[k].ranks++;
        s[k].min = v < s[k].min ? v : s[k].min;
        s[k].max = v > s[k].max ? v : s[k].max;
        s[k].sum += v;
    }
    int rc = add_spread_rows(out, s, n);
    free(s);
    return rc ? rc : ui_doc_add_table(d, out);
}

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    int rc = ui_doc_bars(d, "kernel_type_breakdown", "kernel_type", "percentage",
                         "Kernel time by type (%)", 100, "%", false);
    rc = rc ? rc : add_summary(st, m, d);
    // The summary, when there is one, says across ranks what the spread table did.
    return rc || kernels_of(st)->table ? rc : kernel_spread(d);
}

static const enum analysis_id analyses[] = {ANALYSIS_KERNELS};

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    return ui_doc_refresh(st, m, UI_VIEW_KERNELS, analyses, 1, build, e);
}

/* The summary table's index in view 3, or SIZE_MAX. */
static size_t summary_index(const struct ui_state *st)
{
    const struct ui_doc *d = &st->docs[UI_VIEW_KERNELS];
    for (size_t i = 0; kernels_of(st)->table && i < d->ntables; i++)
        if (d->tables[i] == kernels_of(st)->table)
            return i;
    return SIZE_MAX;
}

static bool summary_active(const struct ui_state *st)
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
    struct ui_kernels *k = kernels_of(st);
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
    if (r == SIZE_MAX || kernels_of(st)->row_rank[r] != SIZE_MAX)
        return 0;
    return set_open(st, kernels_of(st)->row_summary[r], true);
}

unsigned ui_act_kernels_collapse(struct ui_state *st, const struct model *m)
{
    (void)m;
    size_t r = cursor_row(st);
    if (r == SIZE_MAX)
        return 0;
    return set_open(st, kernels_of(st)->row_summary[r], false);
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
    const struct ui_kernels *k = kernels_of(st);
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
    return ui_jumps_show(st, m, 0);
}

static size_t contexts(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS])
{
    size_t n = 0;
    if (summary_active(st))
        ctx[n++] = UI_CTX_KERNEL_TABLE;
    ctx[n++] = UI_CTX_DOC;
    return n;
}

const struct ui_view_ops ui_view_kernels = {
    .id = UI_VIEW_KERNELS,
    .key = '3',
    .name = "Kernels",
    .hints = UI_DOC_HINTS,
    .init = init,
    .fini = fini,
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
