#include "config.h"
#include "ui/document.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "app/summary_job.h"

/* The table document: building it from the analyses' tables, mapping its
 * lines to (table, row), and re-applying filter and sort. */

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

void ui_doc_rebuild_all(struct ui_state *st)
{
    for (size_t v = 0; v < UI_VIEW_COUNT; v++)
        if (st->docs[v].valid)
            ui_doc_rebuild_views(st, &st->docs[v]);
}

bool ui_doc_stale(const struct ui_state *st)
{
    return !st->docs[st->view].valid;
}

static int compute(struct ui_state *st, const struct model *m, struct ui_doc *d,
                   const enum analysis_id *analyses, size_t nanalyses, ui_doc_build_fn build)
{
    bool answered = true;   // a summary job's view whose tables are not stored: text only
    int rc = 0;

    doc_reset(d);
    for (size_t k = 0; k < nanalyses && rc == 0; k++)
        rc = run_analysis(st, m, d, analyses[k], &answered);
    if (rc == 0 && answered && build)
        rc = build(st, m, d);
    if (rc == 0)
        rc = ui_doc_rebuild_views(st, d);
    return rc;
}

int ui_doc_refresh(struct ui_state *st, const struct model *m, enum ui_view_id v,
                   const enum analysis_id *analyses, size_t nanalyses, ui_doc_build_fn build,
                   struct err *e)
{
    struct ui_doc *d = &st->docs[v];

    if (!d->valid) {
        int rc = compute(st, m, d, analyses, nanalyses, build);
        if (rc != 0)
            return err_set(e, rc, "out of memory while computing the view");
        d->valid = true;
    }
    ui_doc_fit_names(st, d);
    return 0;
}
