#include "config.h"
#include "cli/commands.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/argsort.h"
#include "analysis/kernel_summary.h"
#include "analysis/trust.h"
#include "app/format.h"
#include "util/vec.h"

/* Writing a report: the analyses' tables in text, CSV or JSON (DESIGN.md
 * "Report formats"). */

static void json_inputs(struct jsonw *w, const struct report_inputs *in)
{
    jsonw_key(w, "inputs");
    jsonw_begin_array(w);
    for (size_t i = 0; i < in->n; i++) {
        jsonw_begin_object(w);
        jsonw_input_record(w, in->ranks[i].path, in->ranks[i].rank, in->ranks[i].events);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
}

static void json_failed(struct jsonw *w, const struct report_inputs *in)
{
    if (in->nfailed == 0)
        return;
    jsonw_key(w, "failed");
    jsonw_begin_array(w);
    for (size_t i = 0; i < in->nfailed; i++) {
        jsonw_begin_object(w);
        jsonw_failed_fields(w, &in->failed[i]);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
}

/* "trust": the job's checks that fired, as rows (always present when the
 * checks ran, so a script can rely on the key). */
static void json_trust(struct jsonw *w, const struct report_inputs *in, struct arena *a)
{
    if (!in->trust)
        return;
    struct table *t = trust_table(in->trust, a);
    jsonw_key(w, "trust");
    if (t) {
        format_table_json_rows(w, t);
    } else {
        jsonw_begin_array(w);
        jsonw_end_array(w);
    }
}

/* Text: what fired, one line each, below the report's first line. */
static void text_trust(FILE *f, const struct trust_report *tr)
{
    if (!tr || tr->n == 0)
        return;
    fprintf(f, "trust: %zu check%s fired%s\n", tr->n, tr->n == 1 ? "" : "s",
            trust_severe(tr) ? " (! severe: the job is not what its files claim)" : "");
    for (size_t i = 0; i < tr->n; i++) {
        fprintf(f, "  %c %s: ", tr->findings[i].severe ? '!' : '-',
                trust_check_name(tr->findings[i].check));
        format_write_escaped(f, tr->findings[i].text);
        fputc('\n', f);
    }
}

static const char *semantics_name(const struct htx_options *opts)
{
    return opts->semantics == SEMANTICS_HTA ? "hta" : "htx";
}

/* Text is for people: the per-launch tables (one row per kernel launch,
 * 13 MB of text on a 433 MB trace) show their REPORT_LAUNCH_TEXT_ROWS
 * largest rows by the metric that matters (launch_text_metric);
 * launch_stats_summary gives the counts and percentiles, and CSV and JSON
 * keep every row. */

/* t itself, or a copy in a of its REPORT_LAUNCH_TEXT_ROWS largest rows by
 * metric (ties in table order), titled with how many it stands for; a
 * table that holds only those (nrows_total) is titled so too. NULL on
 * ENOMEM. */
static const struct table *text_rows(const struct table *t, struct arena *a)
{
    const char *metric = launch_text_metric(t->name);
    int mc = metric ? table_col_index(t, metric) : -1;
    size_t total = t->nrows_total > t->nrows ? t->nrows_total : t->nrows;
    if (mc < 0 || total <= REPORT_LAUNCH_TEXT_ROWS)
        return t;
    bool kept = total > t->nrows;   /* the analysis kept only the largest */
    double *keys = kept ? NULL : malloc(t->nrows * sizeof *keys);
    size_t *perm = kept ? NULL : malloc(t->nrows * sizeof *perm);
    struct table *out = kept || (keys && perm) ? table_new(a, t->name, NULL, t->cols, t->ncols)
                                               : NULL;
    bool ok = out != NULL;
    if (ok && !kept) {
        for (size_t r = 0; r < t->nrows; r++)
            keys[r] = cell_as_double(table_cell(t, r, (size_t)mc));
        argsort_identity(perm, t->nrows);
        ok = stable_argsort_desc(perm, t->nrows, keys, less_double) == 0;
    }
    for (size_t i = 0; ok && i < REPORT_LAUNCH_TEXT_ROWS && i < t->nrows; i++) {
        struct cell *row = table_add_row(out);
        ok = row != NULL;
        if (ok)
            memcpy(row, table_cell(t, kept ? i : perm[i], 0), t->ncols * sizeof *row);
    }
    char title[256];
    snprintf(title, sizeof title, "%s: the %d with the largest %s, of %zu (every row: "
             "--format=csv or json)", t->title ? t->title : t->name, REPORT_LAUNCH_TEXT_ROWS,
             t->cols[mc].name, total);
    if (ok) {
        out->title = arena_strndup(a, title, strlen(title));
        out->note = t->note;
        ok = out->title != NULL;
    }
    free(keys);
    free(perm);
    return ok ? out : NULL;
}

/* ---- the writer: tables go out as they come ---- */

static void json_begin(struct report_writer *rw)
{
    jsonw_init(&rw->json, rw->f, 2);
    jsonw_begin_object(&rw->json);
    jsonw_key(&rw->json, "htx_version");
    jsonw_string(&rw->json, PACKAGE_VERSION);
    jsonw_key(&rw->json, "semantics");
    jsonw_string(&rw->json, semantics_name(rw->opts));
    json_inputs(&rw->json, rw->in);
    json_failed(&rw->json, rw->in);
    json_trust(&rw->json, rw->in, &rw->arena);
}

void report_begin(struct report_writer *rw, FILE *f, const struct report_inputs *in,
                  const struct htx_options *opts, const struct format_opts *fo)
{
    memset(rw, 0, sizeof *rw);
    rw->f = f;
    rw->in = in;
    rw->opts = opts;
    rw->fo = fo;
    arena_init(&rw->arena, 0);
    if (opts->format == HTX_FORMAT_JSON) {
        json_begin(rw);
    } else if (opts->format != HTX_FORMAT_CSV) {
        fprintf(f, "htx %s report: %zu rank%s, %s semantics\n", PACKAGE_VERSION, in->n,
                in->n == 1 ? "" : "s", semantics_name(opts));
        text_trust(f, in->trust);
    }
}

/* The notes go last in JSON: each table's is kept (name and text copied)
 * until then. */
static int keep_note(struct report_writer *rw, const struct table *t)
{
    if (!t->note || !t->note[0])
        return 0;
    if (VEC_PUSH_SLOT(rw->notes, rw->nnotes, rw->notes_cap))
        return -1;
    const char *name = arena_strndup(&rw->arena, t->name, strlen(t->name));
    const char *note = arena_strndup(&rw->arena, t->note, strlen(t->note));
    if (!name || !note)
        return -1;
    rw->notes[rw->nnotes].name = name;
    rw->notes[rw->nnotes++].note = note;
    return 0;
}

static int write_csv(struct report_writer *rw, const struct table *t, bool several)
{
    if (rw->written)
        fputs("\r\n", rw->f);
    rw->written++;
    if (several) {
        fputs("# ", rw->f);
        format_csv_field(rw->f, t->name);
        fputs("\r\n", rw->f);
    }
    return format_table_csv(rw->f, t, rw->fo);
}

static int write_text(struct report_writer *rw, const struct table *t)
{
    fputc('\n', rw->f);
    const struct table *shown = text_rows(t, &rw->arena);
    if (shown && format_is_utilization(shown)) {
        struct table *strips = format_utilization_strips(shown, rw->fo->ascii, &rw->arena);
        char title[256];
        snprintf(title, sizeof title, "%s (every bucket: --format=csv or json)",
                 strips ? strips->title : "");
        if (strips)
            strips->title = arena_strndup(&rw->arena, title, strlen(title));
        shown = strips && strips->title ? strips : NULL;
    }
    return shown && format_table_text(rw->f, shown, rw->fo) == 0 ? 0 : -1;
}

int report_add(struct report_writer *rw, const struct table *t)
{
    if (rw->failed)
        return -1;
    int rc = 0;
    switch (rw->opts->format) {
    case HTX_FORMAT_JSON:
        jsonw_key(&rw->json, t->name);
        format_table_json_rows(&rw->json, t);
        rc = keep_note(rw, t);
        break;
    case HTX_FORMAT_CSV:
        /* a lone table has no "# name" line: the first waits for a second */
        if (!rw->written && !rw->first_csv) {
            rw->first_csv = table_copy(&rw->arena, t);
            rc = rw->first_csv ? 0 : -1;
        } else {
            if (rw->first_csv) {
                rc = write_csv(rw, rw->first_csv, true);
                rw->first_csv = NULL;
            }
            if (rc == 0)
                rc = write_csv(rw, t, true);
        }
        break;
    default:
        rc = write_text(rw, t);
    }
    if (rc < 0 || ferror(rw->f))
        rw->failed = true;
    return rw->failed ? -1 : 0;
}

int report_defer(struct report_writer *rw, const struct table *t)
{
    if (rw->failed || rw->ndeferred == TABLE_LIST_MAX)
        return -1;
    struct table *c = table_copy(&rw->arena, t);
    if (!c) {
        rw->failed = true;
        return -1;
    }
    rw->deferred[rw->ndeferred++] = c;
    return 0;
}

int report_end(struct report_writer *rw)
{
    for (size_t i = 0; i < rw->ndeferred; i++)
        report_add(rw, rw->deferred[i]);
    if (rw->opts->format == HTX_FORMAT_CSV && rw->in->trust && rw->in->trust->n > 0) {
        struct table *t = trust_table(rw->in->trust, &rw->arena);
        if (!t || report_add(rw, t) < 0)
            rw->failed = true;
    }
    if (!rw->failed && rw->first_csv && write_csv(rw, rw->first_csv, false) < 0)
        rw->failed = true;
    if (rw->opts->format == HTX_FORMAT_JSON) {
        jsonw_key(&rw->json, "notes");
        jsonw_begin_object(&rw->json);
        for (size_t i = 0; i < rw->nnotes; i++) {
            jsonw_key(&rw->json, rw->notes[i].name);
            jsonw_string(&rw->json, rw->notes[i].note);
        }
        jsonw_end_object(&rw->json);
        jsonw_end_object(&rw->json);
        jsonw_finish(&rw->json);
    }
    bool ok = !rw->failed && !ferror(rw->f);
    free(rw->notes);
    arena_fini(&rw->arena);
    return ok ? 0 : -1;
}

/* Under --semantics=htx the kernel tables are in triage order: the per-rank
 * kernel_breakdown by total time with "others" last, preceded by
 * kernel_summary (one row per kernel over the ranks, with its share). Under
 * hta both stay HTA's: its row order, no extra table. */
int report_triage_kernel_tables(struct table_list *l, struct arena *scratch)
{
    for (size_t t = 0; t < l->count; t++) {
        if (strcmp(l->tables[t]->name, "kernel_breakdown") != 0)
            continue;
        struct table *summary = NULL;
        if (kernel_breakdown_sort_by_time(l->tables[t]) < 0 ||
            kernel_summary_table(l->tables[t], scratch, &summary) < 0)
            return ERR_NOMEM;
        if (!summary)
            return 0;
        if (l->count == TABLE_LIST_MAX)
            return ERR_LIMIT;
        memmove(&l->tables[t + 1], &l->tables[t], (l->count - t) * sizeof l->tables[0]);
        l->tables[t] = summary;
        l->count++;
        return 0;
    }
    return 0;
}

bool report_leads_the_text(const struct htx_options *opts, enum analysis_id id)
{
    return opts->format == HTX_FORMAT_TEXT && id == ANALYSIS_STRAGGLERS;
}

int report_write_inputs(FILE *f, const struct report_inputs *in, const struct htx_options *opts,
                        const enum analysis_id *ids, const struct table_list *lists,
                        size_t nlists, const struct format_opts *fo)
{
    struct report_writer rw;
    report_begin(&rw, f, in, opts, fo);
    for (int lead = 1; lead >= 0; lead--)   // the text's leading analysis, then the rest
        for (size_t l = 0; l < nlists; l++) {
            bool leads = ids && report_leads_the_text(opts, ids[l]);
            if (leads != (lead == 1))
                continue;
            for (size_t t = 0; t < lists[l].count; t++)
                if ((leads && t > 0 ? report_defer(&rw, lists[l].tables[t])
                                    : report_add(&rw, lists[l].tables[t])) < 0)
                    break;
        }
    return report_end(&rw);
}

int report_inputs_of(const struct model *m, struct report_inputs *in,
                     struct trust_report *trust)
{
    struct report_input *ranks = calloc(m->nranks ? m->nranks : 1, sizeof *ranks);
    if (!ranks || trust_of_model(m, trust) < 0) {
        free(ranks);
        return -1;
    }
    *in = (struct report_inputs){ranks, 0, m->failed, m->nfailed, trust};
    for (size_t i = 0; i < m->nranks; i++)
        if (m->ranks[i].selected)
            ranks[in->n++] = (struct report_input){m->ranks[i].path, m->ranks[i].rank,
                                                   m->ranks[i].complete_events};
    return 0;
}

int report_write(FILE *f, const struct model *m, const struct htx_options *opts,
                 const struct table_list *lists, size_t nlists, const struct format_opts *fo)
{
    struct report_inputs in;
    struct trust_report trust;
    if (report_inputs_of(m, &in, &trust) < 0)
        return -1;
    int rc = report_write_inputs(f, &in, opts, NULL, lists, nlists, fo);
    free((void *)in.ranks);
    return rc;
}
