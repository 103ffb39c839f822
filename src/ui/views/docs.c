#include "config.h"
#include "ui/views/docs.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui/widgets/text.h"
#include "ui/actions.h"
#include "ui/view.h"
#include "ui/views/annotation_tree.h"

/* ---- building ---- */

int ui_doc_text(struct ui_doc *d, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (d->ntext == d->text_cap) {
        size_t cap = d->text_cap ? d->text_cap * 2 : 32;
        const char **t = arena_calloc(&d->arena, cap, sizeof *t);
        if (!t)
            return ERR_NOMEM;
        if (d->ntext)
            memcpy(t, d->text, d->ntext * sizeof *t);
        d->text = t;
        d->text_cap = cap;
    }
    const char *copy = arena_strndup(&d->arena, buf, strlen(buf));
    if (!copy)
        return ERR_NOMEM;
    d->text[d->ntext++] = copy;
    return 0;
}

int ui_doc_add_table(struct ui_doc *d, struct table *t)
{
    if (!t || d->ntables >= UI_DOC_TABLES)
        return 0;  // more tables than slots: the view shows the first ones
    d->tables[d->ntables++] = t;
    return 0;
}

struct ui_chart *ui_doc_add_chart(struct ui_doc *d, enum ui_chart_kind kind, const char *title,
                                  size_t nrows)
{
    if (!d->charts) {
        d->charts = arena_calloc(&d->arena, UI_DOC_CHARTS, sizeof *d->charts);
        if (!d->charts)
            return NULL;
    }
    if (d->ncharts >= UI_DOC_CHARTS)
        return NULL;
    struct ui_chart *c = &d->charts[d->ncharts];
    memset(c, 0, sizeof *c);
    c->rows = arena_calloc(&d->arena, nrows ? nrows : 1, sizeof *c->rows);
    if (!c->rows)
        return NULL;
    c->kind = kind;
    c->title = title;
    c->nrows = nrows;
    d->ncharts++;
    return c;
}

/* The analysis for id from st->analyses, or NULL. */
static const struct analysis_info *ui_analysis(const struct ui_state *st, enum analysis_id id)
{
    for (size_t i = 0; st->analyses && i < st->nanalyses; i++)
        if (st->analyses[i].id == id)
            return &st->analyses[i];
    return NULL;
}

/* ---- line layout ---- */

/* The focused table's cursor row shows its whole name on a line of its
 * own under the rows (names are fitted to their column). */
static bool has_full_name(const struct ui_doc *d, size_t t)
{
    return t == d->cur && d->tv[t].nrows && ui_tview_name_col(d->tables[t]) >= 0;
}

static size_t table_span(const struct ui_doc *d, size_t t)
{
    const struct table *tb = d->tables[t];
    size_t rows = d->tv[t].nrows;
    size_t n = 2 + (rows ? rows : 1);  // title, header, rows or the empty line
    if (has_full_name(d, t))
        n++;
    if (rows && tb->note && tb->note[0])
        n++;
    return n + 1;  // blank line after
}

static size_t head_lines(const struct ui_doc *d)
{
    size_t n = 0;

    for (size_t c = 0; c < d->ncharts; c++)
        n += ui_chart_lines(&d->charts[c]) + 1;
    if (d->ntext)
        n += d->ntext + 1;
    return n;
}

size_t ui_doc_lines(const struct ui_doc *d)
{
    size_t n = head_lines(d);
    for (size_t t = 0; t < d->ntables; t++)
        n += table_span(d, t);
    return n;
}

size_t ui_doc_table_line(const struct ui_doc *d, size_t t)
{
    size_t n = head_lines(d);
    for (size_t i = 0; i < t && i < d->ntables; i++)
        n += table_span(d, i);
    return n;
}

size_t ui_doc_row_line(const struct ui_doc *d, size_t t, size_t r)
{
    return ui_doc_table_line(d, t) + 2 + r;
}

static struct ui_doc_line locate_table(const struct ui_doc *d, size_t t, size_t off)
{
    struct ui_doc_line l = {UI_DOC_BLANK, t, 0};
    size_t rows = d->tv[t].nrows;

    if (off == 0)
        l.kind = UI_DOC_TITLE;
    else if (off == 1)
        l.kind = UI_DOC_HEADER;
    else if (rows == 0 && off == 2)
        l.kind = UI_DOC_EMPTY;
    else if (off - 2 < rows)
        l.kind = UI_DOC_ROW, l.sub = off - 2;
    else if (has_full_name(d, t) && off - 2 == rows)
        l.kind = UI_DOC_FULL_NAME;
    else if (rows && off - 2 == rows + has_full_name(d, t) && d->tables[t]->note &&
             d->tables[t]->note[0])
        l.kind = UI_DOC_NOTE;
    return l;
}

struct ui_doc_line ui_doc_locate(const struct ui_doc *d, size_t line)
{
    struct ui_doc_line l = {UI_DOC_BLANK, 0, 0};

    for (size_t c = 0; c < d->ncharts; c++) {
        size_t n = ui_chart_lines(&d->charts[c]);
        if (line < n)
            return (struct ui_doc_line){UI_DOC_CHART, c, line};
        if (line == n)
            return l;
        line -= n + 1;
    }
    if (d->ntext) {
        if (line < d->ntext)
            return (struct ui_doc_line){UI_DOC_TEXT, line, 0};
        if (line == d->ntext)
            return l;
        line -= d->ntext + 1;
    }
    for (size_t t = 0; t < d->ntables; t++) {
        size_t n = table_span(d, t);
        if (line < n)
            return locate_table(d, t, line);
        line -= n;
    }
    return l;
}

/* ---- drawing ---- */

#define COL_GAP 2
#define MIN_TEXT_COL 12
#define NAME_KEEP 24   /* the name column's width kept before headers are cut */

static bool is_text_col(const struct table *t, size_t c)
{
    for (size_t r = 0; r < t->nrows && r < 50; r++) {
        enum cell_type ty = table_cell(t, r, c)->type;
        if (ty == CELL_STR)
            return true;
        if (ty != CELL_NULL)
            return false;
    }
    return false;
}

/* Narrows the text columns (all but the first, or the first too) down to
 * floor columns, widest first, until the row fits w. */
static void shrink_text(const struct table *t, size_t first_text, bool first_too, int floor,
                        int w, int *out, int *total)
{
    while (*total > w) {
        size_t widest = SIZE_MAX;
        for (size_t c = 0; c < t->ncols; c++)
            if (is_text_col(t, c) && (first_too || c != first_text) && out[c] > floor &&
                (widest == SIZE_MAX || out[c] > out[widest]))
                widest = c;
        if (widest == SIZE_MAX)
            return;
        int cut = *total - w, room = out[widest] - floor;
        out[widest] -= cut < room ? cut : room;
        *total -= cut < room ? cut : room;
    }
}

/* Column widths for this screen width. Every column starts at its header's
 * width; when the row is too wide, the other text columns narrow first,
 * then the first (the row's name) down to NAME_KEEP, then number columns
 * give up header width their cells do not need, and then the name
 * narrows further. */
static void fit_columns(const struct ui_tview *v, int w, int *out)
{
    const struct table *t = v->t;
    int total = 0;
    size_t first_text = SIZE_MAX;

    for (size_t c = 0; c < t->ncols; c++) {
        out[c] = v->widths ? v->widths[c] : 8;
        total += out[c] + (c ? COL_GAP : 0);
        if (first_text == SIZE_MAX && is_text_col(t, c))
            first_text = c;
    }
    shrink_text(t, first_text, false, MIN_TEXT_COL, w, out, &total);
    shrink_text(t, first_text, true, NAME_KEEP, w, out, &total);
    for (size_t c = 0; c < t->ncols && total > w; c++) {
        int keep = v->content_widths ? v->content_widths[c] + 1 : out[c];
        keep = keep < 4 ? 4 : keep;
        if (is_text_col(t, c) || out[c] <= keep)
            continue;
        int cut = total - w < out[c] - keep ? total - w : out[c] - keep;
        out[c] -= cut;
        total -= cut;
    }
    shrink_text(t, first_text, true, MIN_TEXT_COL, w, out, &total);
    // Room to spare: the name column takes it, up to its longest name.
    int nc = ui_tview_name_col(t);
    if (nc >= 0 && total < w && v->content_widths && v->content_widths[nc] > out[nc]) {
        int grow = v->content_widths[nc] - out[nc];
        out[nc] += grow < w - total ? grow : w - total;
    }
}

static void draw_table_row(const struct ui_doc *d, size_t t, long row, enum ui_style style,
                           struct ui_grid *g, int y, int x, int w)
{
    const struct ui_tview *v = &d->tv[t];
    const struct table *tb = v->t;
    int widths[64], cx = 0;
    char buf[512];

    if (!tb || tb->ncols > 64)
        return;
    fit_columns(v, w, widths);
    for (size_t c = 0; c < tb->ncols && cx < w; c++) {
        int cw = widths[c] < w - cx ? widths[c] : w - cx;
        if (row < 0) {
            const char *mark = "";
            if (v->sort_col == (int)c)
                mark = v->sort_desc ? (g->ascii ? "v" : "\u25BC") : (g->ascii ? "^" : "\u25B2");
            char head[160];
            ui_tview_header(tb, c, head, sizeof head);
            snprintf(buf, sizeof buf, "%s%s", head, mark);
            ui_grid_text(g, y, x + cx, cw, buf, style, UI_TRUNC_END);
        } else {
            const struct cell *cell = table_cell(tb, v->rows[row], c);
            if (v->fitted && (int)c == ui_tview_name_col(tb) && v->fit_width == cw &&
                v->rows[row] < v->nfitted && v->fitted[v->rows[row]]) {
                ui_grid_text(g, y, x + cx, cw, v->fitted[v->rows[row]], style, UI_TRUNC_END);
            } else if (cell->type == CELL_STR) {
                ui_grid_text(g, y, x + cx, cw, cell->v.s ? cell->v.s : "", style,
                             UI_TRUNC_MIDDLE);
            } else {
                ui_tview_cell_text(v, v->rows[row], c, buf, sizeof buf);
                ui_grid_text_right(g, y, x + cx, cw, buf, style);
            }
        }
        cx += cw + COL_GAP;
    }
}

static void draw_title(const struct ui_doc *d, size_t t, struct ui_grid *g, int y, int x, int w)
{
    const struct table *tb = d->tables[t];
    const struct ui_tview *v = &d->tv[t];
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%s  (%zu of %zu rows", tb->title ? tb->title : tb->name,
                     v->nrows, tb->nrows);

    if (d->filter[0] && n > 0 && (size_t)n < sizeof buf)
        n += snprintf(buf + n, sizeof buf - (size_t)n, ", filter \"%s\"", d->filter);
    if (n > 0 && (size_t)n < sizeof buf)
        snprintf(buf + n, sizeof buf - (size_t)n, ")");
    ui_grid_text(g, y, x, w, buf, t == d->cur ? UI_STYLE_HEADER : UI_STYLE_DIM, UI_TRUNC_END);
}

/* Draws one line of d at (y, x), w columns; `cursor` highlights the
 * doc's cursor row when the main pane has the focus. */
static void ui_doc_draw_line(const struct ui_doc *d, size_t line, bool cursor, struct ui_grid *g,
                      int y, int x, int w)
{
    struct ui_doc_line l = ui_doc_locate(d, line);
    const char *note;

    switch (l.kind) {
    case UI_DOC_CHART:
        ui_chart_line(&d->charts[l.index], l.sub, g, y, x, w);
        break;
    case UI_DOC_TEXT:
        ui_grid_text(g, y, x, w, d->text[l.index], UI_STYLE_NORMAL, UI_TRUNC_END);
        break;
    case UI_DOC_TITLE:
        draw_title(d, l.index, g, y, x, w);
        break;
    case UI_DOC_HEADER:
        draw_table_row(d, l.index, -1, UI_STYLE_HEADER, g, y, x, w);
        break;
    case UI_DOC_ROW: {
        bool sel = cursor && l.index == d->cur && l.sub == d->row[d->cur];
        if (sel)
            ui_grid_fill(g, y, x, w, ' ', UI_STYLE_SELECTED);
        draw_table_row(d, l.index, (long)l.sub, sel ? UI_STYLE_SELECTED : UI_STYLE_NORMAL, g, y,
                       x, w);
        break;
    }
    case UI_DOC_EMPTY:
        note = d->tables[l.index]->note;
        if (d->tables[l.index]->nrows > 0)
            note = "no row matches the filter";
        ui_grid_text(g, y, x, w, note && note[0] ? note : "(no rows)", UI_STYLE_DIM,
                     UI_TRUNC_END);
        break;
    case UI_DOC_NOTE:
        ui_grid_text(g, y, x, w, d->tables[l.index]->note, UI_STYLE_DIM, UI_TRUNC_END);
        break;
    case UI_DOC_FULL_NAME: {
        const struct ui_tview *v = &d->tv[l.index];
        const struct cell *c = table_cell(v->t, v->rows[d->row[l.index]],
                                          (size_t)ui_tview_name_col(v->t));
        char text[1200];
        snprintf(text, sizeof text, "%s %s", g->ascii ? ">" : "\u25B8",
                 c->type == CELL_STR && c->v.s ? c->v.s : "");
        ui_grid_text(g, y, x, w, text, UI_STYLE_DIM, UI_TRUNC_MIDDLE);
        break;
    }
    default:
        break;
    }
}

/* ---- refresh ---- */

static bool stream_hidden(void *ctx, int64_t rank, int64_t stream)
{
    const struct ui_state *st = ctx;
    for (size_t r = 0; r < st->nranks; r++) {
        const struct ui_rank *ur = &st->ranks[r];
        for (size_t s = 0; s < ur->nstreams; s++)
            if (ur->streams[s] == stream && !ur->stream_on[s] &&
                (rank < 0 || ur->number == rank))
                return true;
    }
    return false;
}

void ui_doc_fit_names(struct ui_state *st, struct ui_doc *d)
{
    int widths[64];
    for (size_t t = 0; t < d->ntables; t++) {
        struct ui_tview *v = &d->tv[t];
        int c = v->t ? ui_tview_name_col(v->t) : -1;
        if (c < 0 || v->t->ncols > 64)
            continue;
        fit_columns(v, st->layout.body.w, widths);
        if (ui_tview_fit_names(v, widths[c]) != 0)
            return;   // out of memory: the names are cut when drawn instead
    }
}

int ui_doc_rebuild_views(struct ui_state *st, struct ui_doc *d)
{
    struct ui_row_filter rf = {stream_hidden, st, NULL};

    for (size_t t = 0; t < d->ntables; t++) {
        if (d->tv[t].sort_col >= (int)d->tables[t]->ncols)
            d->tv[t].sort_col = -1;
        if (ui_tview_build(&d->tv[t], d->tables[t], d->self_filtered[t] ? "" : d->filter, &rf) != 0)
            return ERR_NOMEM;
        if (d->row[t] >= d->tv[t].nrows)
            d->row[t] = d->tv[t].nrows ? d->tv[t].nrows - 1 : 0;
    }
    for (size_t t = d->ntables; t < UI_DOC_TABLES; t++)
        ui_tview_fini(&d->tv[t]);
    if (d->cur >= d->ntables)
        d->cur = d->ntables ? d->ntables - 1 : 0;
    return 0;
}

static const enum analysis_id view_analyses[UI_VIEW_COUNT][2] = {
    [UI_VIEW_OVERVIEW] = {ANALYSIS_TEMPORAL, ANALYSIS_COUNT},
    [UI_VIEW_KERNELS] = {ANALYSIS_KERNELS, ANALYSIS_COUNT},
    [UI_VIEW_IDLE] = {ANALYSIS_IDLE, ANALYSIS_COUNT},
    [UI_VIEW_OVERLAP] = {ANALYSIS_OVERLAP, ANALYSIS_COUNT},
    [UI_VIEW_LAUNCH] = {ANALYSIS_LAUNCH, ANALYSIS_COUNT},
    [UI_VIEW_ANNOTATIONS] = {ANALYSIS_ANNOTATIONS, ANALYSIS_COUNT},
    [UI_VIEW_COUNTERS] = {ANALYSIS_QUEUE, ANALYSIS_MEMBW},
    [UI_VIEW_SEQUENCES] = {ANALYSIS_SEQUENCES, ANALYSIS_COUNT},
    [UI_VIEW_RANKS] = {ANALYSIS_COUNT, ANALYSIS_COUNT},   /* ui/views/ranks.c */
    [UI_VIEW_COLLECTIVES] = {ANALYSIS_COLLECTIVES, ANALYSIS_COUNT},
};

/* A summary job's (st->job) tables: the stored ones, or a text saying the
 * view needs the events (*answered false). */
static int summary_analysis(struct ui_state *st, const struct model *m, struct ui_doc *d,
                            const struct analysis_info *a, bool *answered)
{
    struct table_list tl = {.count = 0};
    struct err e = {0, ""};
    int rc = summary_job_model_tables(st->job, m, a->id, &d->arena, &tl, &e);
    *answered = rc == 0;
    if (rc == ERR_EMPTY) {
        const struct summary_job *l = st->job;
        rc = ui_doc_text(d, "%s needs the events, which are not loaded.", a->title);
        if (rc == 0 && l->events_away)
            rc = ui_doc_text(d, "This job's %zu rank summaries were made without their %llu "
                             "events (htx summarize --with-events keeps them), and a trace they "
                             "name is not here, or changed since.", l->n,
                             (unsigned long long)l->events);
        else if (rc == 0)
            rc = ui_doc_text(d, "This job's %zu rank summaries hold %llu events: about %llu MB "
                             "once loaded (over HTX_MAX_MEMORY, or --events=skip).", l->n,
                             (unsigned long long)l->events,
                             (unsigned long long)(l->events * SUMMARY_JOB_BYTES_PER_EVENT /
                                                  1000000));
        if (rc == 0)
            rc = ui_doc_text(d, "Overview, Kernels, Idle, Overlap, Ranks, Collectives and the "
                             "timeline come from their tables, records and tiles (under htx's "
                             "semantics).");
        if (rc == 0)
            rc = ui_doc_text(d, "A rank's events: Enter loads those of the left pane's rank "
                             "here, or open its summary alone, e.g. htx %s",
                             l->n ? l->ranks[0].file : "DIR/rank-N.htxs");
        return rc;
    }
    if (rc) {
        snprintf(d->error, sizeof d->error, "%.32s: %.200s", a->name, e.msg);
        return rc == ERR_NOMEM ? ERR_NOMEM : ui_doc_text(d, "%s failed: %s", a->title, e.msg);
    }
    if (st->has_window || st->iteration >= 0 || st->iter_list)   // kept in the summaries' whole
        rc = ui_doc_text(d, "The whole run: a time window or iterations need the events.");
    for (size_t i = 0; i < tl.count && rc == 0; i++)
        ui_doc_add_table(d, tl.tables[i]);
    return rc;
}

static int run_analysis(struct ui_state *st, const struct model *m, struct ui_doc *d,
                        enum analysis_id id, bool *answered)
{
    const struct analysis_info *a = ui_analysis(st, id);
    struct table_list tl = {.count = 0};
    struct err e = {0, ""};

    if (!a)
        return ui_doc_text(d, "this analysis is not available in this build");
    if (st->job)
        return summary_analysis(st, m, d, a, answered);
    if (a->run(m, &st->aopts, &d->arena, &tl, &e) != 0) {
        snprintf(d->error, sizeof d->error, "%.32s: %.200s", a->name, e.msg);
        int rc = ui_doc_text(d, "%s failed: %s", a->title, e.msg);
        if (e.code == ERR_NOMEM)
            return ERR_NOMEM;
        return rc;
    }
    for (size_t i = 0; i < tl.count; i++)
        ui_doc_add_table(d, tl.tables[i]);
    return 0;
}

static void doc_reset(struct ui_doc *d)
{
    arena_reset(&d->arena);
    d->ntables = 0;
    memset(d->self_filtered, 0, sizeof d->self_filtered);
    d->charts = NULL;
    d->ncharts = 0;
    d->text = NULL;
    d->ntext = d->text_cap = 0;
    d->error[0] = 0;
    d->top = 0;
    d->follow = false;
}

int ui_doc_refresh(struct ui_state *st, const struct model *m, enum ui_view_id v, struct err *e)
{
    struct ui_doc *d = &st->docs[v];
    int rc = 0;

    doc_reset(d);
    if (v == UI_VIEW_DIAGNOSTICS) {
        rc = ui_diag_build(st, m, d);
    } else if (ui_view_is_doc(v)) {
        bool answered = true;   // a summary job's view whose tables are not stored: text only
        for (int k = 0; k < 2 && rc == 0; k++)
            if (view_analyses[v][k] != ANALYSIS_COUNT)
                rc = run_analysis(st, m, d, view_analyses[v][k], &answered);
        if (rc == 0 && answered)
            rc = ui_doc_decorate(st, m, v, d);
    }
    if (rc == 0)
        rc = ui_doc_rebuild_views(st, d);
    if (rc != 0)
        return err_set(e, rc, "out of memory while computing the view");
    d->valid = true;
    return 0;
}

/* ---- the document views' ops ---- */

static const struct ui_doc *active_doc(const struct ui_state *st)
{
    return &st->docs[st->view < UI_VIEW_COUNT ? st->view : UI_VIEW_OVERVIEW];
}

static size_t doc_rows(const struct ui_state *st, const struct model *m)
{
    (void)m;
    return ui_doc_lines(active_doc(st));
}

static size_t doc_top(const struct ui_state *st, const struct model *m, int height)
{
    const struct ui_doc *d = active_doc(st);
    size_t lines = ui_doc_lines(d), top = d->top;
    size_t h = height > 1 ? (size_t)height - 1 : 1;  // a line for the pinned header

    (void)m;
    if (d->follow && d->ntables && d->tv[d->cur].nrows) {
        size_t cl = ui_doc_row_line(d, d->cur, d->row[d->cur]);
        if (cl < top)
            top = cl;
        if (cl >= top + h)
            top = cl - h + 1;
    }
    if (top + h > lines)
        top = lines > h ? lines - h : 0;
    return top;
}

static size_t doc_pinned(const struct ui_state *st, const struct model *m)
{
    const struct ui_doc *d = active_doc(st);

    if (!d->ntables || st->layout.body.h < 4)
        return 0;
    size_t top = doc_top(st, m, st->layout.body.h);
    size_t header = ui_doc_table_line(d, d->cur) + 1;
    size_t last = ui_doc_table_line(d, d->cur) + 2 + d->tv[d->cur].nrows;
    return header < top && top < last ? 1 : 0;
}

static void doc_pinned_row(const struct ui_state *st, const struct model *m, size_t i,
                           struct ui_grid *g, int y, int x, int w)
{
    const struct ui_doc *d = active_doc(st);

    (void)m;
    (void)i;
    draw_table_row(d, d->cur, -1, UI_STYLE_HEADER, g, y, x, w);
}

static void doc_row(const struct ui_state *st, const struct model *m, size_t i,
                    struct ui_grid *g, int y, int x, int w)
{
    (void)m;
    ui_doc_draw_line(active_doc(st), i, st->focus == UI_FOCUS_MAIN, g, y, x, w);
}

static void doc_status(const struct ui_state *st, const struct model *m, char *buf, size_t n)
{
    const struct ui_doc *d = active_doc(st);

    (void)m;
    if (d->ntables == 0) {
        snprintf(buf, n, "%s", d->error[0] ? d->error : "");
        return;
    }
    const struct ui_tview *v = &d->tv[d->cur];
    snprintf(buf, n, "%s · row %zu/%zu", d->tables[d->cur]->name,
             v->nrows ? d->row[d->cur] + 1 : 0, v->nrows);
}

#define DOC_VIEW_PROMPT(ID, KEY, NAME, INITIAL, APPLY)                                       \
    {ID, KEY, NAME, NULL, doc_rows, doc_top, doc_row, doc_pinned, doc_pinned_row, doc_status, \
     INITIAL, APPLY}
#define DOC_VIEW(ID, KEY, NAME) DOC_VIEW_PROMPT(ID, KEY, NAME, ui_doc_prompt_initial, ui_doc_prompt_apply)

const struct ui_view_ops ui_view_docs[] = {
    DOC_VIEW(UI_VIEW_OVERVIEW, '2', "Overview"),
    DOC_VIEW(UI_VIEW_KERNELS, '3', "Kernels"),
    DOC_VIEW(UI_VIEW_IDLE, '4', "Idle"),
    DOC_VIEW(UI_VIEW_OVERLAP, '5', "Overlap"),
    DOC_VIEW(UI_VIEW_LAUNCH, '6', "Launch"),
    DOC_VIEW_PROMPT(UI_VIEW_ANNOTATIONS, '7', "Annotations", ui_atree_prompt_initial,
                    ui_atree_prompt_apply),
    DOC_VIEW(UI_VIEW_COUNTERS, '8', "Counters"),
    DOC_VIEW(UI_VIEW_SEQUENCES, '9', "Sequences"),
    DOC_VIEW(UI_VIEW_RANKS, 'R', "Ranks"),
    DOC_VIEW(UI_VIEW_COLLECTIVES, 'C', "Collectives"),
    DOC_VIEW(UI_VIEW_DIAGNOSTICS, 'i', "Diagnostics"),
};
