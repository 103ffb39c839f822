#include "config.h"
#include "cli/commands.h"

#include <string.h>

#include "analysis/analysis.h"
#include "analysis/kernel_summary.h"
#include "app/session.h"
#include "util/pool.h"

/* `htx report`: runs the analyses --analysis names (all by default) over
 * the selection, then writes every table at once, so an analysis that fails
 * leaves stdout empty. */

static void output_opts(const struct htx_options *opts, struct format_opts *fo)
{
    format_opts_default(fo);
    fo->ascii = opts->ascii;
    fo->short_names = opts->short_names;
}

/* Under --semantics=htx the kernel tables are in triage order: the per-rank
 * kernel_breakdown by total time with "others" last, preceded by
 * kernel_summary (one row per kernel over the ranks, with its share). Under
 * hta both stay HTA's: its row order, no extra table. */
static int triage_kernel_tables(struct table_list *l, struct arena *scratch)
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

/* Runs the chosen analyses into lists[0..*nlists), at most
 * REPORT_MAX_LISTS, each in its own arena of arenas[] (the caller frees
 * them). The analyses only read the model, so they run side by side on
 * --threads threads (each has its own arena, list and error); the lists
 * keep the report's order whatever finishes first. */
#define REPORT_MAX_LISTS (ANALYSIS_COUNT + 1)

struct analysis_job {
    const struct model *m;
    const struct analysis_info *a;
    const struct analysis_opts *ao;
    bool triage;
    struct arena *arena;
    struct table_list *list;
    struct err err;
    int rc;
};

/* A pool task: analysis i. */
static int analysis_task(void *ctx, size_t i)
{
    struct analysis_job *j = &((struct analysis_job *)ctx)[i];
    j->rc = j->a->run(j->m, j->ao, j->arena, j->list, &j->err);
    if (j->rc == 0 && j->triage && triage_kernel_tables(j->list, j->arena) < 0)
        j->rc = err_set(&j->err, ERR_NOMEM, "out of memory");
    return 0;
}

static int run_analyses(const struct model *m, const struct htx_options *opts,
                        struct arena *arenas, struct table_list *lists, size_t *nlists,
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
    struct analysis_job jobs[ANALYSIS_COUNT];
    size_t njobs = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = order[k];
        if (!opts->analyses[all[i].id])
            continue;
        struct table_list *l = &lists[njobs];
        memset(l, 0, sizeof *l);
        jobs[njobs] = (struct analysis_job){m, &all[i], &ao, opts->semantics == SEMANTICS_HTX,
                                            &arenas[njobs], l, {0, ""}, 0};
        njobs++;
    }
    pool_run(njobs, opts->threads, analysis_task, jobs);
    for (size_t k = 0; k < njobs; k++)
        if (jobs[k].rc < 0) {
            *e = jobs[k].err;
            err_prefix(e, "report: %s", jobs[k].a->name);
            return jobs[k].rc;
        }
    *nlists = njobs;
    if (njobs && opts->format == HTX_FORMAT_TEXT && jobs[0].a->id == ANALYSIS_STRAGGLERS) {
        struct table_list *l = &lists[0];
        while (l->count > 1)
            deferred.tables[deferred.count++] = l->tables[--l->count];
    }
    if (deferred.count) {
        struct table_list *l = &lists[(*nlists)++];
        memset(l, 0, sizeof *l);
        while (deferred.count)  /* back in their own order */
            l->tables[l->count++] = deferred.tables[--deferred.count];
    }
    return 0;
}

/* The kernel types and the overlap are the tables a job whose collectives go
 * unrecognised gets wrong: say so once, on stderr. */
static int warn_comm_missing(const struct model *m, const struct htx_options *opts,
                             struct err *e)
{
    if (!opts->analyses[ANALYSIS_KERNELS] && !opts->analyses[ANALYSIS_OVERLAP])
        return 0;
    struct analysis_opts ao;
    htx_options_analysis(opts, &ao);
    bool missing = false;
    if (analysis_comm_missing(m, &ao, &missing) < 0)
        return err_set(e, ERR_NOMEM, "report: out of memory");
    if (missing)
        app_warn("%s", ANALYSIS_COMM_MISSING_HINT);
    return 0;
}

int cli_report_main(const struct htx_options *opts)
{
    struct err e = {0, ""};
    struct model *m = app_open(opts, &e);
    if (!m)
        return app_fail(&e);
    struct arena arenas[REPORT_MAX_LISTS];
    for (size_t i = 0; i < REPORT_MAX_LISTS; i++)
        arena_init(&arenas[i], 1 << 20);
    struct table_list lists[REPORT_MAX_LISTS];
    size_t nlists = 0;
    struct app_out out = {0};
    int rc = warn_comm_missing(m, opts, &e);
    if (!rc)
        rc = run_analyses(m, opts, arenas, lists, &nlists, &e);
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
    for (size_t i = 0; i < REPORT_MAX_LISTS; i++)
        arena_fini(&arenas[i]);
    model_free(m);
    return rc ? app_fail(&e) : 0;
}
