#include "config.h"
#include "cli/commands.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/argsort.h"

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

static void json_notes(struct jsonw *w, const struct table_list *lists, size_t nlists)
{
    jsonw_key(w, "notes");
    jsonw_begin_object(w);
    for (size_t l = 0; l < nlists; l++)
        for (size_t t = 0; t < lists[l].count; t++) {
            const struct table *tab = lists[l].tables[t];
            if (tab->note && tab->note[0]) {
                jsonw_key(w, tab->name);
                jsonw_string(w, tab->note);
            }
        }
    jsonw_end_object(w);
}

static const char *semantics_name(const struct htx_options *opts)
{
    return opts->semantics == SEMANTICS_HTA ? "hta" : "htx";
}

static void report_json(FILE *f, const struct report_inputs *in, const struct htx_options *opts,
                        const struct table_list *lists, size_t nlists)
{
    struct jsonw w;
    jsonw_init(&w, f, 2);
    jsonw_begin_object(&w);
    jsonw_key(&w, "htx_version");
    jsonw_string(&w, PACKAGE_VERSION);
    jsonw_key(&w, "semantics");
    jsonw_string(&w, semantics_name(opts));
    json_inputs(&w, in);
    json_failed(&w, in);
    for (size_t l = 0; l < nlists; l++)
        for (size_t t = 0; t < lists[l].count; t++) {
            jsonw_key(&w, lists[l].tables[t]->name);
            format_table_json_rows(&w, lists[l].tables[t]);
        }
    json_notes(&w, lists, nlists);
    jsonw_end_object(&w);
    jsonw_finish(&w);
}

static size_t count_tables(const struct table_list *lists, size_t nlists)
{
    size_t n = 0;
    for (size_t l = 0; l < nlists; l++)
        n += lists[l].count;
    return n;
}

static int report_csv(FILE *f, const struct table_list *lists, size_t nlists,
                      const struct format_opts *fo)
{
    bool several = count_tables(lists, nlists) > 1, first = true;
    for (size_t l = 0; l < nlists; l++)
        for (size_t t = 0; t < lists[l].count; t++) {
            const struct table *tab = lists[l].tables[t];
            if (!first)
                fputs("\r\n", f);
            first = false;
            if (several) {
                fputs("# ", f);
                format_csv_field(f, tab->name);
                fputs("\r\n", f);
            }
            if (format_table_csv(f, tab, fo) < 0)
                return -1;
        }
    return 0;
}

/* Text is for people: the per-launch tables (one row per kernel launch,
 * 13 MB of text on a 433 MB trace) show their largest rows by the metric
 * that matters; launch_stats_summary gives the counts and percentiles, and
 * CSV and JSON keep every row. */
#define LAUNCH_TEXT_ROWS 20

static const struct {
    const char *table, *metric;
} launch_lists[] = {
    {"cuda_kernel_launch_stats", "launch_delay"},
    {"short_kernels", "cpu_duration"},
    {"runtime_outliers", "cpu_duration"},
    {"launch_delay_outliers", "launch_delay"},
};

/* t itself, or a copy in a of its LAUNCH_TEXT_ROWS largest rows by metric
 * (ties in table order). NULL on ENOMEM. */
static const struct table *text_rows(const struct table *t, struct arena *a)
{
    int mc = -1;
    for (size_t i = 0; i < sizeof launch_lists / sizeof launch_lists[0]; i++)
        if (strcmp(t->name, launch_lists[i].table) == 0)
            mc = table_col_index(t, launch_lists[i].metric);
    if (mc < 0 || t->nrows <= LAUNCH_TEXT_ROWS)
        return t;
    double *keys = malloc(t->nrows * sizeof *keys);
    size_t *perm = malloc(t->nrows * sizeof *perm);
    struct table *out = keys && perm ? table_new(a, t->name, NULL, t->cols, t->ncols) : NULL;
    bool ok = out != NULL;
    if (ok) {
        for (size_t r = 0; r < t->nrows; r++)
            keys[r] = cell_as_double(table_cell(t, r, (size_t)mc));
        argsort_identity(perm, t->nrows);
        ok = stable_argsort_desc(perm, t->nrows, keys, less_double) == 0;
    }
    for (size_t i = 0; ok && i < LAUNCH_TEXT_ROWS; i++) {
        struct cell *row = table_add_row(out);
        ok = row != NULL;
        if (ok)
            memcpy(row, table_cell(t, perm[i], 0), t->ncols * sizeof *row);
    }
    char title[256];
    snprintf(title, sizeof title, "%s: the %d with the largest %s, of %zu (every row: "
             "--format=csv or json)", t->title ? t->title : t->name, LAUNCH_TEXT_ROWS,
             t->cols[mc].name, t->nrows);
    if (ok) {
        out->title = arena_strndup(a, title, strlen(title));
        out->note = t->note;
        ok = out->title != NULL;
    }
    free(keys);
    free(perm);
    return ok ? out : NULL;
}

static int report_text(FILE *f, const struct report_inputs *in, const struct htx_options *opts,
                       const struct table_list *lists, size_t nlists,
                       const struct format_opts *fo)
{
    size_t nsel = in->n;
    fprintf(f, "htx %s report: %zu rank%s, %s semantics\n", PACKAGE_VERSION, nsel,
            nsel == 1 ? "" : "s", semantics_name(opts));
    struct arena a;
    arena_init(&a, 1 << 16);
    int rc = 0;
    for (size_t l = 0; l < nlists && rc == 0; l++)
        for (size_t t = 0; t < lists[l].count && rc == 0; t++) {
            fputc('\n', f);
            const struct table *shown = text_rows(lists[l].tables[t], &a);
            if (!shown || format_table_text(f, shown, fo) < 0)
                rc = -1;
        }
    arena_fini(&a);
    return rc;
}

int report_write_inputs(FILE *f, const struct report_inputs *in, const struct htx_options *opts,
                        const struct table_list *lists, size_t nlists,
                        const struct format_opts *fo)
{
    switch (opts->format) {
    case HTX_FORMAT_JSON:
        report_json(f, in, opts, lists, nlists);
        break;
    case HTX_FORMAT_CSV:
        if (report_csv(f, lists, nlists, fo) < 0)
            return -1;
        break;
    default:
        if (report_text(f, in, opts, lists, nlists, fo) < 0)
            return -1;
    }
    return ferror(f) ? -1 : 0;
}

int report_write(FILE *f, const struct model *m, const struct htx_options *opts,
                 const struct table_list *lists, size_t nlists, const struct format_opts *fo)
{
    struct report_input *ranks = calloc(m->nranks ? m->nranks : 1, sizeof *ranks);
    if (!ranks)
        return -1;
    struct report_inputs in = {ranks, 0, m->failed, m->nfailed};
    for (size_t i = 0; i < m->nranks; i++)
        if (m->ranks[i].selected)
            ranks[in.n++] = (struct report_input){m->ranks[i].path, m->ranks[i].rank,
                                                  m->ranks[i].complete_events};
    int rc = report_write_inputs(f, &in, opts, lists, nlists, fo);
    free(ranks);
    return rc;
}
