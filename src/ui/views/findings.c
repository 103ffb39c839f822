#include "config.h"
#include "ui/views/findings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/classify.h"
#include "analysis/findings.h"
#include "app/format.h"
#include "app/summary_job.h"
#include "ui/document.h"
#include "ui/jumps.h"
#include "ui/widgets/text.h"

/* View ! (Findings): the findings of the selection (analysis/findings.h)
 * as a table, largest problem first, then the hot spots; under it the
 * selected finding explained in EXPLAIN_LINES lines (after the document,
 * so scrolling, the pinned header and clicks are the document's; a list
 * longer than the pane hides them). The findings are
 * computed with the view's document (ui_doc_refresh), so they follow the
 * ranks, iteration and window like every table view; their items live in
 * the document's arena, the struct in st->own[UI_VIEW_FINDINGS]. */

#define BAR_WIDTH 8
#define EXPLAIN_LINES 4   /* the cause on two, where, confidence */
#define TABLE_NAME "findings"

static struct findings *own(const struct ui_state *st)
{
    return st->own[UI_VIEW_FINDINGS];
}

static int init(struct ui_state *st)
{
    st->own[UI_VIEW_FINDINGS] = calloc(1, sizeof(struct findings));
    return st->own[UI_VIEW_FINDINGS] ? 0 : ERR_NOMEM;
}

static void fini(struct ui_state *st)
{
    free(st->own[UI_VIEW_FINDINGS]);
    st->own[UI_VIEW_FINDINGS] = NULL;
}

/* One row a finding, in the findings' order (table row i = items[i]). */
static struct table *findings_rows(const struct ui_state *st, const struct findings *f,
                                   struct arena *a)
{
    struct table_col cols[] = {
        {"cost", NULL, 0},     {"name", NULL, 0},          {"ranks", NULL, 0},
        {"us/iter", NULL, 0}, {"share", "%", COL_PERCENT},
    };
    struct table *t = table_new(a, TABLE_NAME, "Findings (Enter: the evidence)", cols,
                                sizeof cols / sizeof cols[0]);
    if (!t)
        return NULL;
    double max = 0;
    for (size_t i = 0; i < f->n; i++)
        max = fmax(max, f->items[i].cost_share);
    for (size_t i = 0; i < f->n; i++) {
        const struct finding *x = &f->items[i];
        char bar[BAR_WIDTH * 4 + 1];
        format_bar(x->cost_share, max > 0 ? max : 1, BAR_WIDTH, st->ascii, bar, sizeof bar);
        struct cell *row = table_add_row(t);
        if (!row)
            return NULL;
        row[0] = cell_str(t, bar);
        row[1] = cell_str(t, x->title);
        row[2] = cell_str(t, x->ranks);
        row[3] = cell_double(x->cost_ns / 1000.0);
        row[4] = cell_double(100.0 * x->cost_share);
    }
    if (f->n == 0)
        table_set_note(t, "nothing wrong found in the selection");
    return t;
}

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    struct findings *f = own(st);
    struct err e = {0, ""};
    *f = (struct findings){0};
    // a summary job's ranks by index: the model's when they are the job's
    bool *sel = st->job && m->nranks == st->job->n ? summary_job_model_selection(m) : NULL;
    if (st->job && m->nranks == st->job->n && !sel)
        return ERR_NOMEM;
    int rc = st->job ? summary_job_findings(st->job, sel, &st->trust, &d->arena, f, &e)
                     : findings_of_model(m, &st->aopts, &st->trust, &d->arena, f, &e);
    free(sel);
    if (rc != 0) {
        *f = (struct findings){0};
        snprintf(d->error, sizeof d->error, "findings: %.200s", e.msg);
        return e.code == ERR_NOMEM ? ERR_NOMEM : ui_doc_text(d, "findings failed: %s", e.msg);
    }
    struct table *t = findings_rows(st, f, &d->arena);
    if (!t || ui_doc_add_table(d, t))
        return ERR_NOMEM;
    if (f->needs_events[0] && ui_doc_text(d, "%s", f->needs_events))
        return ERR_NOMEM;
    return 0;
}

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    return ui_doc_refresh(st, m, UI_VIEW_FINDINGS, NULL, 0, build, e);
}

int ui_findings_worth_opening(struct ui_state *st, const struct model *m, double max_cost_pct,
                              bool *worth, struct err *e)
{
    *worth = false;
    int rc = refresh(st, m, e);
    const struct findings *f = own(st);
    for (size_t i = 0; rc == 0 && i < f->n; i++)
        if (!finding_kind_is_hot_spot(f->items[i].kind) &&
            100.0 * f->items[i].cost_share > max_cost_pct)
            *worth = true;
    return rc;
}

/* The finding under the cursor, or NULL. */
static const struct finding *selected(const struct ui_state *st)
{
    const struct findings *f = own(st);
    if (!f || st->view != UI_VIEW_FINDINGS)
        return NULL;
    size_t row = ui_doc_cursor_row(st, TABLE_NAME);
    return row < f->n ? &f->items[row] : NULL;
}

/* ---- the explanation under the table ---- */

/* The cause's line k (0 or 1) of width w: words up to w columns, the
 * second line cut with an ellipsis by the grid. */
static void cause_line(const char *cause, int w, int k, char *buf, size_t n)
{
    size_t len = strlen(cause), cut = len;
    if (ui_text_width(cause, len, false) > w) {   // break at the last space that fits
        cut = 0;
        for (size_t i = 0; i < len; i++)
            if (cause[i] == ' ' && ui_text_width(cause, i, false) <= w)
                cut = i;
        if (cut == 0)
            cut = len;
    }
    if (k == 0)
        snprintf(buf, n, "%.*s", (int)cut, cause);
    else
        snprintf(buf, n, "%s", cut < len ? cause + cut + 1 : "");
}

/* Where it shows and what Enter opens. */
static void where_line(const struct finding *x, char *buf, size_t n)
{
    char t0[32], t1[32], ev[FINDING_KEY_TEXT + 64];
    const struct finding_evidence *e = &x->evidence;
    ui_format_duration(x->start_ns, t0, sizeof t0);
    ui_format_duration(x->end_ns, t1, sizeof t1);
    if (e->kind == FINDING_EVIDENCE_VIEW && e->view != FINDING_VIEW_TIMELINE)
        snprintf(ev, sizeof ev, "view %s, %s %s", finding_view_name(e->view), e->table, e->row);
    else if (e->rank >= 0)
        snprintf(ev, sizeof ev, "the timeline of rank %lld there", (long long)e->rank);
    else
        snprintf(ev, sizeof ev, "the timeline there");
    bool one = x->ranks[strcspn(x->ranks, ",-")] == 0;
    bool one_iter = x->iterations[strcspn(x->iterations, ",-")] == 0;
    snprintf(buf, n, "%s %s%s%s, %s to %s. Enter: %s", one ? "Rank" : "Ranks", x->ranks,
             !x->iterations[0] ? "" : one_iter ? ", iteration " : ", iterations ",
             x->iterations, t0, t1, ev);
}

/* The confidence, and the trust checks that fired (they lower it). */
static void trust_line(const struct ui_state *st, const struct finding *x, char *buf, size_t n)
{
    int len = snprintf(buf, n, "Confidence %.2f (%s)%s", x->confidence,
                       finding_kind_name(x->kind), st->trust.n ? "; lowered by: " : "");
    for (size_t i = 0; i < st->trust.n && len >= 0 && (size_t)len < n; i++)
        len += snprintf(buf + len, n - (size_t)len, "%s%s", i ? "; " : "",
                        st->trust.findings[i].text);
}

static size_t rows(const struct ui_state *st, const struct model *m)
{
    return ui_doc_rows(st, m) + (own(st) && own(st)->n ? EXPLAIN_LINES : 0);
}

static void row(const struct ui_state *st, const struct model *m, size_t i, struct ui_grid *g,
                int y, int x, int w)
{
    size_t doc = ui_doc_rows(st, m);
    if (i < doc) {
        ui_doc_row(st, m, i, g, y, x, w);
        return;
    }
    const struct finding *f = selected(st);
    char buf[FINDING_CAUSE_TEXT + 64];
    size_t k = i - doc;
    buf[0] = 0;
    if (!f && k == 0)
        snprintf(buf, sizeof buf, "The cursor on a finding explains it here.");
    else if (f && k < 2)
        cause_line(f->cause, w, (int)k, buf, sizeof buf);
    else if (f && k == 2)
        where_line(f, buf, sizeof buf);
    else if (f && k == 3)
        trust_line(st, f, buf, sizeof buf);
    ui_grid_text(g, y, x, w, buf, k < 2 ? UI_STYLE_NORMAL : UI_STYLE_DIM, UI_TRUNC_END);
}

/* ---- Enter: the evidence ---- */

static const enum ui_view_id view_of[FINDING_VIEW_COUNT] = {
    [FINDING_VIEW_TIMELINE] = UI_VIEW_TIMELINE,  [FINDING_VIEW_OVERVIEW] = UI_VIEW_OVERVIEW,
    [FINDING_VIEW_KERNELS] = UI_VIEW_KERNELS,    [FINDING_VIEW_IDLE] = UI_VIEW_IDLE,
    [FINDING_VIEW_OVERLAP] = UI_VIEW_OVERLAP,    [FINDING_VIEW_LAUNCH] = UI_VIEW_LAUNCH,
    [FINDING_VIEW_ANNOTATIONS] = UI_VIEW_ANNOTATIONS, [FINDING_VIEW_RANKS] = UI_VIEW_RANKS,
    [FINDING_VIEW_COLLECTIVES] = UI_VIEW_COLLECTIVES,
};

/* Does cell (r, c) of t read `value`? Integers and strings compare as
 * text; a name also as the rules write it (shorten_name, cut to the
 * finding's buffer). */
static bool cell_is(const struct table *t, size_t r, int c, const char *value, size_t n)
{
    const struct cell *cl = table_cell(t, r, (size_t)c);
    char text[FINDING_KEY_TEXT];
    const char *s = cl->type == CELL_STR ? cl->v.s : NULL;
    if (cl->type == CELL_INT) {
        text[format_int_text(cl->v.i, text)] = 0;   // not terminated
        s = text;
    }
    if (s && strlen(s) == n && memcmp(s, value, n) == 0)
        return true;
    if (!s || cl->type != CELL_STR)
        return false;
    shorten_name(s, text, sizeof text);
    return strncmp(text, value, n) == 0 && (text[n] == 0 || n + 1 >= FINDING_TITLE_TEXT);
}

/* The end of the value that starts at v in "k=v k2=v2": the next " word="
 * (names may hold spaces). */
static const char *value_end(const char *v)
{
    for (const char *p = v; *p; p++) {
        if (*p != ' ')
            continue;
        const char *q = p + 1;
        while (*q && *q != ' ' && *q != '=')
            q++;
        if (*q == '=' && q > p + 1)
            return p;
    }
    return v + strlen(v);
}

/* Does table row r match every "key=value" of key? A key t has no column
 * for ("name" aside, which is its name column) does not count, but one
 * must. */
static bool row_matches(const struct table *t, size_t r, const char *key)
{
    bool any = false;
    for (const char *p = key; *p;) {
        const char *eq = strchr(p, '=');
        if (!eq)
            break;
        const char *end = value_end(eq + 1);
        char col[FINDING_KEY_TEXT];
        snprintf(col, sizeof col, "%.*s", (int)(eq - p), p);
        int c = table_col_index(t, col);
        if (c < 0 && strcmp(col, "name") == 0)
            c = ui_tview_name_col(t);
        if (c >= 0 && !cell_is(t, r, c, eq + 1, (size_t)(end - eq - 1)))
            return false;
        any = any || c >= 0;
        p = *end ? end + 1 : end;
    }
    return any;
}

/* Puts the cursor of d's table k on its row whose key is `key`. */
static bool select_in(struct ui_doc *d, size_t k, const char *key)
{
    for (size_t v = 0; v < d->tv[k].nrows; v++)
        if (row_matches(d->tables[k], d->tv[k].rows[v], key)) {
            d->cur = k;
            d->row[k] = v;
            d->follow = true;
            return true;
        }
    return false;
}

/* Puts view id's cursor on the row of `table` whose key is `key`, or
 * (when the view shows that table otherwise, as the kernels' summary) of
 * another of its tables: false when the view has no such row in sight. */
static bool select_row(struct ui_state *st, enum ui_view_id id, const char *table,
                       const char *key)
{
    struct ui_doc *d = &st->docs[id];
    for (size_t k = 0; k < d->ntables; k++)
        if (strcmp(d->tables[k]->name, table) == 0 && select_in(d, k, key))
            return true;
    for (size_t k = 0; k < d->ntables; k++)
        if (strcmp(d->tables[k]->name, table) != 0 && select_in(d, k, key))
            return true;
    return false;
}

/* The view of the evidence with its row selected. The row exists only once
 * the view's tables are computed: this is the one action that has a view
 * refresh (through the registry), so the cursor can be put on it. */
static unsigned show_row(struct ui_state *st, const struct model *m,
                         const struct finding_evidence *ev)
{
    enum ui_view_id id = (unsigned)ev->view < FINDING_VIEW_COUNT ? view_of[ev->view]
                                                                 : UI_VIEW_TIMELINE;
    const struct ui_view_ops *v = ui_view_get(st, id);
    if (!v)
        return UI_REDRAW;
    ui_state_show_view(st, id);
    st->focus = UI_FOCUS_MAIN;
    struct err e = {0, ""};
    if (v->refresh && v->refresh(st, m, &e) != 0) {
        ui_state_message(st, true, "%s", e.msg);
        return UI_REDRAW;
    }
    if (select_row(st, id, ev->table, ev->row))
        ui_state_message(st, false, "%s: %s", ev->table, ev->row);
    else
        ui_state_message(st, true, "%s has no row %s in the selection", ev->table, ev->row);
    return UI_REDRAW;
}

unsigned ui_act_findings_enter(struct ui_state *st, const struct model *m)
{
    const struct finding *f = selected(st);
    if (!f) {
        ui_state_message(st, false, "no finding under the cursor");
        return UI_REDRAW;
    }
    const struct finding_evidence *ev = &f->evidence;
    if (ev->kind == FINDING_EVIDENCE_VIEW && ev->view != FINDING_VIEW_TIMELINE)
        return show_row(st, m, ev);
    size_t r = ev->rank >= 0 ? model_rank_index(m, ev->rank) : SIZE_MAX;
    unsigned flags = ui_jumps_show_window(st, m, r, ev->stream, ev->pos, ev->start_ns,
                                          ev->end_ns);
    if (!st->message_is_error || !st->message[0])
        ui_state_message(st, false, "%s", f->title);
    return flags;
}

static size_t contexts(const struct ui_state *st, unsigned ctx[UI_VIEW_CONTEXTS])
{
    (void)st;
    ctx[0] = UI_CTX_FINDINGS;
    ctx[1] = UI_CTX_DOC;
    return 2;
}

const struct ui_view_ops ui_view_findings = {
    .id = UI_VIEW_FINDINGS,
    .key = '!',
    .name = "Findings",
    .hints = " ? help  j/k finding  Enter evidence  Esc back  1 timeline  q quit",
    .init = init,
    .fini = fini,
    .refresh = refresh,
    .stale = ui_doc_stale,
    .contexts = contexts,
    .rows = rows,
    .top = ui_doc_top,
    .row = row,
    .pinned = ui_doc_pinned,
    .pinned_row = ui_doc_pinned_row,
    .status = ui_doc_status,
    .prompt_initial = ui_doc_prompt_initial,
    .prompt_apply = ui_doc_prompt_apply,
    .escape = ui_doc_escape,
    .click = ui_doc_click,
    .cursor_name = ui_doc_cursor_name,
};
