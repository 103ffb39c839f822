#include "config.h"
#include "app/summary_job.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/collectives.h"

/* The findings of a job read from its summaries: the rules that read only
 * what summaries hold (analysis/findings.h, struct findings_facts), for
 * `htx report` and the TUI alike. */

unsigned summary_job_findings_want(void)
{
    return summary_job_want(ANALYSIS_TEMPORAL, 0) | summary_job_want(ANALYSIS_OVERLAP, 0) |
           SUMMARY_JOB_COLLS | SUMMARY_JOB_RANK_PARTS;
}

/* The facts' tables of the selected ranks, in a; a table the summaries
 * lack stays NULL. */
static void facts_tables(const struct summary_job *l, const bool *selected, struct arena *a,
                         struct table_list *lists, struct findings_facts *f)
{
    struct err ignored = {0, ""};
    if (summary_job_rank_tables(l, selected, a, &lists[0], &ignored) == 0) {
        f->rank_overview = table_list_find(&lists[0], "rank_overview", 9);
        for (size_t i = 0; i < lists[0].count; i++)
            if (strcmp(lists[0].tables[i]->name, "rank_steps") == 0)
                f->rank_steps = lists[0].tables[i];
    }
    if (summary_job_tables(l, selected, ANALYSIS_TEMPORAL, a, &lists[1], &ignored) == 0 &&
        lists[1].count)
        f->temporal = lists[1].tables[0];
    if (summary_job_tables(l, selected, ANALYSIS_OVERLAP, a, &lists[2], &ignored) == 0 &&
        lists[2].count)
        f->overlap = lists[2].tables[0];
}

int summary_job_findings(const struct summary_job *l, const bool *selected,
                         const struct trust_report *trust, struct arena *a, struct findings *out,
                         struct err *e)
{
    int64_t *ranks = malloc((l->n ? l->n : 1) * sizeof *ranks);
    struct table_list lists[3];
    memset(lists, 0, sizeof lists);
    struct findings_facts f = {0};
    struct strtab strings;
    if (!ranks || strtab_init(&strings)) {
        free(ranks);
        return err_set(e, ERR_NOMEM, "findings: out of memory");
    }
    for (size_t i = 0; i < l->n; i++)
        if (!selected || selected[i])
            ranks[f.nranks++] = l->ranks[i].rank.rank;
    f.ranks = ranks;
    struct coll_result cr;
    struct err ignored = {0, ""};   // without records: no collective rule
    if (summary_job_coll_result(l, selected, &strings, a, &cr, &ignored) == 0)
        f.colls = &cr;
    facts_tables(l, selected, a, lists, &f);
    int rc = findings_of_facts(&f, trust, a, out, e);
    strtab_fini(&strings);
    free(ranks);
    return rc;
}
