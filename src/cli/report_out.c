#include "config.h"
#include "cli/commands.h"

#include <string.h>

/* Writing a report: the analyses' tables in text, CSV or JSON (DESIGN.md
 * "Report formats"). */

static void json_inputs(struct jsonw *w, const struct model *m)
{
    jsonw_key(w, "inputs");
    jsonw_begin_array(w);
    for (size_t i = 0; i < m->nranks; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (!r->selected)
            continue;
        jsonw_begin_object(w);
        jsonw_input_fields(w, r);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
}

static void json_failed(struct jsonw *w, const struct model *m)
{
    if (m->nfailed == 0)
        return;
    jsonw_key(w, "failed");
    jsonw_begin_array(w);
    for (size_t i = 0; i < m->nfailed; i++) {
        jsonw_begin_object(w);
        jsonw_failed_fields(w, &m->failed[i]);
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

static void report_json(FILE *f, const struct model *m, const struct htx_options *opts,
                        const struct table_list *lists, size_t nlists)
{
    struct jsonw w;
    jsonw_init(&w, f, 2);
    jsonw_begin_object(&w);
    jsonw_key(&w, "htx_version");
    jsonw_string(&w, PACKAGE_VERSION);
    jsonw_key(&w, "semantics");
    jsonw_string(&w, semantics_name(opts));
    json_inputs(&w, m);
    json_failed(&w, m);
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

static int report_text(FILE *f, const struct model *m, const struct htx_options *opts,
                       const struct table_list *lists, size_t nlists,
                       const struct format_opts *fo)
{
    size_t nsel = 0;
    for (size_t i = 0; i < m->nranks; i++)
        nsel += m->ranks[i].selected;
    fprintf(f, "htx %s report: %zu rank%s, %s semantics\n", PACKAGE_VERSION, nsel,
            nsel == 1 ? "" : "s", semantics_name(opts));
    for (size_t l = 0; l < nlists; l++)
        for (size_t t = 0; t < lists[l].count; t++) {
            fputc('\n', f);
            if (format_table_text(f, lists[l].tables[t], fo) < 0)
                return -1;
        }
    return 0;
}

int report_write(FILE *f, const struct model *m, const struct htx_options *opts,
                 const struct table_list *lists, size_t nlists, const struct format_opts *fo)
{
    switch (opts->format) {
    case HTX_FORMAT_JSON:
        report_json(f, m, opts, lists, nlists);
        break;
    case HTX_FORMAT_CSV:
        if (report_csv(f, lists, nlists, fo) < 0)
            return -1;
        break;
    default:
        if (report_text(f, m, opts, lists, nlists, fo) < 0)
            return -1;
    }
    return ferror(f) ? -1 : 0;
}
