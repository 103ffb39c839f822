#include "config.h"
#include "cli/summaries.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/summary_job.h"
#include "app/session.h"
#include "cli/commands.h"

/* `htx report` on summaries: each rank's tables of the analyses the
 * summaries hold, concatenated in rank order, and the utilization table of
 * their tiles, as the report on the traces lays them out (app/summary_job.h). */

static bool rank_selected(const struct htx_options *opts, int64_t rank)
{
    if (opts->ranks.all)
        return true;
    for (size_t i = 0; i < opts->ranks.n; i++)
        if (opts->ranks.v[i] == rank)
            return true;
    return false;
}

/* With crossed (htx check), also how many findings cross --max-cost. */
static int report_summaries(const struct htx_options *opts, char **files, size_t nfiles,
                            size_t *crossed)
{
    struct err e = {0, ""};
    unsigned want = 0;
    for (size_t i = 0; i < ANALYSIS_COUNT; i++)
        if (opts->analyses[i])
            want |= i == ANALYSIS_FINDINGS ? summary_job_findings_want()
                                           : summary_job_want((enum analysis_id)i, (int)opts->semantics);
    struct summary_job l;
    int rc = summary_job_open(&l, files, nfiles, want, true, 0, &e);
    bool *selected = rc ? NULL : calloc(l.n + 1, sizeof *selected);
    if (rc == 0 && !selected)
        rc = err_set(&e, ERR_NOMEM, "out of memory");
    size_t n = 0;
    for (size_t i = 0; rc == 0 && i < l.n; i++)
        n += selected[i] = rank_selected(opts, l.ranks[i].rank.rank);
    if (rc == 0 && n == 0)
        rc = err_set(&e, ERR_USAGE, "no summary of the selected ranks");
    struct arena a;
    arena_init(&a, 1 << 20);
    struct table_list lists[ANALYSIS_COUNT];
    enum analysis_id ids[ANALYSIS_COUNT];
    size_t nlists = 0;
    size_t count;
    const struct analysis_info *all = analysis_list(&count);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        if (!opts->analyses[all[i].id])
            continue;
        memset(&lists[nlists], 0, sizeof lists[nlists]);
        ids[nlists] = all[i].id;
        rc = all[i].id == ANALYSIS_FINDINGS
                 ? report_findings_tables(&l, selected, &a, &lists[nlists], crossed,
                                          opts->max_cost_pct, &e)
                 : summary_job_tables(&l, selected, all[i].id, &a, &lists[nlists], &e);
        if (rc == 0 && opts->semantics == SEMANTICS_HTX &&
            report_triage_kernel_tables(&lists[nlists], &a) < 0)
            rc = err_set(&e, ERR_NOMEM, "out of memory");
        nlists++;
    }
    /* summaries made before tiles (or kernel parts) were: their events
     * answer it instead, unless told not to read them */
    bool replay = rc == ERR_EMPTY && opts->events != HTX_EVENTS_SKIP;
    struct report_input *in = rc ? NULL : calloc(n ? n : 1, sizeof *in);
    if (rc == 0 && !in)
        rc = err_set(&e, ERR_NOMEM, "out of memory");
    for (size_t i = 0, k = 0; rc == 0 && i < l.n; i++)
        if (selected[i])
            in[k++] = (struct report_input){l.ranks[i].rank.path, l.ranks[i].rank.rank,
                                            l.ranks[i].rank.events};
    struct app_out out = {0};
    if (rc == 0)
        rc = app_out_open(&out, &e);
    if (rc == 0) {
        struct format_opts fo;
        format_opts_default(&fo);
        fo.ascii = opts->ascii;
        fo.short_names = opts->short_names;
        struct trust_report trust;
        struct report_inputs ri = {in, n, NULL, 0, &trust};
        if (summary_job_trust(&l, &trust) < 0 ||
            report_write_inputs(out.f, &ri, opts, ids, lists, nlists, &fo) < 0) {
            app_out_discard(&out);
            rc = err_set(&e, ERR_NOMEM, "report: cannot build the output");
        } else {
            rc = app_out_commit(&out, stdout, &e);
        }
    }
    free(in);
    free(selected);
    arena_fini(&a);
    summary_job_fini(&l);   // (emptied already when the open failed: fini again is a no-op)
    summary_job_free_files(files, nfiles);
    if (replay)
        return crossed ? cli_check_main(opts) : cli_report_main(opts);
    return rc ? app_fail(&e) : 0;
}

/* Why the summaries alone cannot answer this report, or NULL. */
static const char *needs_events(const struct htx_options *opts, size_t nfiles, size_t traces)
{
    if (nfiles == 0 || traces)
        return "these paths name traces, not only rank summaries";
    if (!htx_options_read_stored_tables(opts))
        return "these options change what the summaries' tables hold";
    for (size_t i = 0; i < ANALYSIS_COUNT; i++)
        if (opts->analyses[i] && !summary_file_answers((enum analysis_id)i, (int)opts->semantics))
            return analysis_get((enum analysis_id)i)->name;
    return NULL;
}

int cli_report_paths(const struct htx_options *opts)
{
    struct err e = {0, ""};
    char **files;
    size_t nfiles, traces;
    int rc = summary_job_files(opts->paths, opts->npaths, &files, &nfiles, &traces, &e);
    const char *why = rc ? NULL : needs_events(opts, nfiles, traces);
    if (rc == 0 && opts->events == HTX_EVENTS_SKIP && why) {
        summary_job_free_files(files, nfiles);
        err_set(&e, ERR_USAGE, "--events=skip: the report needs the events: %s%s", why,
                strchr(why, ' ') ? "" : " is not answered from the summaries' tables");
        return app_fail(&e);
    }
    if (rc == 0 && !why && opts->events != HTX_EVENTS_LOAD)
        return report_summaries(opts, files, nfiles, NULL);
    // Traces, or paths the trace loader reports on.
    summary_job_free_files(files, nfiles);
    return cli_report_main(opts);
}

int cli_check_paths(const struct htx_options *opts)
{
    struct err e = {0, ""};
    char **files;
    size_t nfiles, traces;
    if (summary_job_files(opts->paths, opts->npaths, &files, &nfiles, &traces, &e) != 0)
        return app_fail(&e);
    struct htx_options findings_only = *opts;
    for (size_t i = 0; i < ANALYSIS_COUNT; i++)
        findings_only.analyses[i] = i == ANALYSIS_FINDINGS;
    const char *why = needs_events(&findings_only, nfiles, traces);
    if (why && opts->events == HTX_EVENTS_SKIP) {
        summary_job_free_files(files, nfiles);
        err_set(&e, ERR_USAGE, "--events=skip: the check needs the events: %s", why);
        return app_fail(&e);
    }
    if (!why && opts->events != HTX_EVENTS_LOAD) {
        size_t crossed = 0;
        int rc = report_summaries(&findings_only, files, nfiles, &crossed);
        return rc ? rc : crossed ? CHECK_EXIT_FINDING : 0;
    }
    summary_job_free_files(files, nfiles);
    return cli_check_main(opts);
}
