#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/series.h"
#include "ui/document.h"

/* View 8 (Counters): HTA's queue length and memory bandwidth summaries,
 * and above them one sparkline per stream (queue length) and per copy
 * kind (bandwidth) over the selection's time span. */

/* Upper bound on the sparklines of the selected ranks: one per stream for
 * queue length, one per copy kind (at most one per stream plus memset and
 * unknown) for bandwidth. */
static size_t max_series(const struct ui_state *st, const struct model *m)
{
    size_t total = 0;
    for (size_t r = 0; r < m->nranks; r++)
        if (m->ranks[r].selected && st->ranks[r].included)
            total += m->ranks[r].nstreams + 8;
    return total;
}

static void spark_row(struct ui_doc *d, struct ui_chart_row *row, const int64_t *ts,
                      const double *v, size_t n, int64_t lo, int64_t hi)
{
    row->spark = arena_calloc(&d->arena, UI_SPARK_BUCKETS, sizeof *row->spark);
    if (!row->spark)
        return;
    ui_chart_sample_steps(ts, v, n, lo, hi, row->spark);
    for (size_t i = 0; i < n; i++)
        row->spark_max = v[i] > row->spark_max ? v[i] : row->spark_max;
}

static int queue_sparks(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    size_t n = max_series(st, m), k = 0;
    if (n == 0)
        return 0;
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_SPARK, "Queue length over time", n);
    if (!c)
        return ERR_NOMEM;
    for (size_t r = 0; r < m->nranks && k < n; r++) {
        struct queue_series *qs;
        size_t ns = 0;
        if (!m->ranks[r].selected || !st->ranks[r].included ||
            queue_series_build(m, &m->ranks[r], &d->arena, &qs, &ns, NULL, NULL) != 0)
            continue;
        for (size_t s = 0; s < ns && k < n; s++, k++) {
            char buf[64];
            double *v = arena_calloc(&d->arena, qs[s].n ? qs[s].n : 1, sizeof *v);
            if (!v)
                return ERR_NOMEM;
            for (size_t i = 0; i < qs[s].n; i++)
                v[i] = (double)qs[s].queue_length[i];
            snprintf(buf, sizeof buf, "r%lld s%lld", (long long)m->ranks[r].rank,
                     (long long)qs[s].stream);
            c->rows[k].label = arena_strndup(&d->arena, buf, strlen(buf));
            spark_row(d, &c->rows[k], qs[s].ts, v, qs[s].n, st->tl.lo, st->tl.hi);
        }
    }
    c->nrows = k;
    if (k == 0)
        d->ncharts--;
    return 0;
}

static int membw_sparks(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    size_t n = max_series(st, m), k = 0;
    if (n == 0)
        return 0;
    struct ui_chart *c = ui_doc_add_chart(d, UI_CHART_SPARK, "Memory bandwidth over time", n);
    if (!c)
        return ERR_NOMEM;
    c->unit = "GB/s";
    for (size_t r = 0; r < m->nranks && k < n; r++) {
        struct membw_series *bs;
        size_t ns = 0;
        if (!m->ranks[r].selected || !st->ranks[r].included ||
            membw_series_build(m, &m->ranks[r], &d->arena, &bs, &ns, NULL) != 0)
            continue;
        for (size_t s = 0; s < ns && k < n; s++, k++) {
            char buf[96];
            snprintf(buf, sizeof buf, "r%lld %s", (long long)m->ranks[r].rank, bs[s].label);
            c->rows[k].label = arena_strndup(&d->arena, buf, strlen(buf));
            spark_row(d, &c->rows[k], bs[s].ts, bs[s].bw_gbps, bs[s].n, st->tl.lo, st->tl.hi);
        }
    }
    c->nrows = k;
    if (k == 0)
        d->ncharts--;
    return 0;
}

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    int rc = queue_sparks(st, m, d);
    return rc ? rc : membw_sparks(st, m, d);
}

static const enum analysis_id analyses[] = {ANALYSIS_QUEUE, ANALYSIS_MEMBW};

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    return ui_doc_refresh(st, m, UI_VIEW_COUNTERS, analyses, 2, build, e);
}

const struct ui_view_ops ui_view_counters = {
    .id = UI_VIEW_COUNTERS,
    .key = '8',
    .name = "Counters",
    .hints = UI_DOC_HINTS,
    .refresh = refresh,
    .stale = ui_doc_stale,
    .contexts = ui_doc_contexts,
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
