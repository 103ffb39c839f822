#include "config.h"
#include "cli/summaries.h"

#include "analysis/findings.h"
#include "app/summary_job.h"
#include "cli/commands.h"

/* `htx report --analysis=findings` on summaries: summary_job_findings as
 * the report's table. */

int report_findings_tables(const struct summary_job *l, const bool *selected, struct arena *a,
                           struct table_list *out, size_t *crossed, double pct, struct err *e)
{
    struct trust_report trust;
    if (summary_job_trust(l, &trust) < 0)
        return err_set(e, ERR_NOMEM, "findings: out of memory");
    struct findings fs;
    int rc = summary_job_findings(l, selected, &trust, a, &fs, e);
    struct table *t = rc ? NULL : findings_table(&fs, a);
    if (rc == 0 && (!t || table_list_add(out, t)))
        rc = err_set(e, ERR_NOMEM, "findings: out of memory");
    if (rc == 0 && crossed)
        *crossed = check_over_threshold(&fs, pct);
    return rc;
}
