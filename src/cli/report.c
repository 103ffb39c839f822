#include "config.h"
#include "cli/commands.h"

#include <string.h>

#include "analysis/analysis.h"
#include "app/session.h"

/* `htx report`: runs the analyses --analysis names (all by default) over
 * the selection, then writes every table at once, so an analysis that fails
 * leaves stdout empty. */

static void output_opts(const struct htx_options *opts, struct format_opts *fo)
{
    format_opts_default(fo);
    fo->ascii = opts->ascii;
    fo->short_names = opts->short_names;
}

/* Runs the chosen analyses into lists[0..*nlists), at most
 * REPORT_MAX_LISTS. */
#define REPORT_MAX_LISTS (ANALYSIS_COUNT + 1)
static int run_analyses(const struct model *m, const struct htx_options *opts,
                        struct arena *scratch, struct table_list *lists, size_t *nlists,
                        struct err *e)
{
    struct analysis_opts ao;
    htx_options_analysis(opts, &ao);
    size_t count;
    const struct analysis_info *all = analysis_list(&count);
    *nlists = 0;
    /* Text reports open with the straggler ranking: in a multi-rank job the
     * first question is which rank holds the others back. Its longer
     * per-iteration table goes to the end. */
    struct table_list deferred = {0};
    size_t order[ANALYSIS_COUNT], n = 0;
    if (opts->format == HTX_FORMAT_TEXT)
        order[n++] = ANALYSIS_STRAGGLERS;
    for (size_t i = 0; i < count; i++)
        if (opts->format != HTX_FORMAT_TEXT || all[i].id != ANALYSIS_STRAGGLERS)
            order[n++] = i;
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        if (!opts->analyses[all[i].id])
            continue;
        struct table_list *l = &lists[(*nlists)++];
        memset(l, 0, sizeof *l);
        int rc = all[i].run(m, &ao, scratch, l, e);
        if (rc < 0) {
            err_prefix(e, "report: %s", all[i].name);
            return rc;
        }
        if (k == 0 && opts->format == HTX_FORMAT_TEXT && all[i].id == ANALYSIS_STRAGGLERS) {
            while (l->count > 1)
                deferred.tables[deferred.count++] = l->tables[--l->count];
        }
    }
    if (deferred.count) {
        struct table_list *l = &lists[(*nlists)++];
        memset(l, 0, sizeof *l);
        while (deferred.count)  /* back in their own order */
            l->tables[l->count++] = deferred.tables[--deferred.count];
    }
    return 0;
}

int cli_report_main(const struct htx_options *opts)
{
    struct err e = {0, ""};
    struct model *m = app_open(opts, &e);
    if (!m)
        return app_fail(&e);
    struct arena scratch;
    arena_init(&scratch, 1 << 20);
    struct table_list lists[REPORT_MAX_LISTS];
    size_t nlists = 0;
    struct app_out out = {0};
    int rc = run_analyses(m, opts, &scratch, lists, &nlists, &e);
    if (!rc)
        rc = app_out_open(&out, &e);
    if (!rc) {
        struct format_opts fo;
        output_opts(opts, &fo);
        if (report_write(out.f, m, opts, lists, nlists, &fo) < 0) {
            app_out_discard(&out);
            rc = err_set(&e, ERR_NOMEM, "report: cannot build the output");
        } else {
            rc = app_out_commit(&out, stdout, &e);
        }
    }
    arena_fini(&scratch);
    model_free(m);
    return rc ? app_fail(&e) : 0;
}
