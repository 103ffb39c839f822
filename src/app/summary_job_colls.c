#include "config.h"
#include "app/summary_job.h"

#include <stdlib.h>

#include "analysis/ranks.h"
#include "util/vec.h"

/* A job's collectives from its rank summaries' records: the
 * records of the selected ranks, their strings interned in one table and
 * their times moved from each rank's time 0 to the job's, then matched as
 * coll_analyze matches the events. */

/* The job's time 0, as model_finish sets it: the earliest rank's. */
static int job_origin(const struct summary_job *l, int64_t *origin, struct err *e)
{
    bool any = false;
    *origin = 0;
    for (size_t r = 0; r < l->n; r++) {
        const struct summary_job_rank *lr = &l->ranks[r];
        if (!lr->has_colls)
            return err_set(e, ERR_EMPTY, "%s: no collective records (a summary made before "
                                         "they were)", lr->file);
        if (lr->colls.has_origin && (!any || lr->colls.origin < *origin))
            *origin = lr->colls.origin;
        any |= lr->colls.has_origin;
    }
    return 0;
}

/* Rank r's records appended to *recs, ids in strings, times from origin. */
static int add_rank(const struct summary_job *l, size_t r, int64_t origin, struct strtab *strings,
                    uint32_t *ids, struct coll_record **recs, size_t *n, size_t *cap,
                    struct err *e)
{
    const struct summary_file_colls *c = &l->ranks[r].colls;
    for (size_t i = 0; i < c->nstrings; i++)
        if ((ids[i] = strtab_intern(strings, c->strings[i], c->lens[i])) == STRTAB_NONE)
            return err_set(e, ERR_NOMEM, "out of memory");
    int64_t shift;
    if (__builtin_sub_overflow(c->origin, origin, &shift))
        return err_set(e, ERR_PARSE, "%s: collective times past the job's", l->ranks[r].file);
    for (size_t i = 0; i < c->n; i++) {
        if (VEC_PUSH_SLOT(*recs, *n, *cap))
            return err_set(e, ERR_NOMEM, "out of memory");
        struct coll_record *w = &(*recs)[(*n)++];
        *w = c->recs[i];
        w->rank_index = (uint32_t)r;
        w->name = ids[w->name];
        w->coll_name = ids[w->coll_name];
        w->group = ids[w->group];
        w->pg_ranks = ids[w->pg_ranks];
        if (__builtin_add_overflow(w->ts, shift, &w->ts) ||
            __builtin_add_overflow(w->end, shift, &w->end))
            return err_set(e, ERR_PARSE, "%s: collective times past the job's",
                           l->ranks[r].file);
    }
    return 0;
}

int summary_job_coll_result(const struct summary_job *l, const bool *selected, struct strtab *strings,
                            struct arena *a, struct coll_result *out, struct err *e)
{
    int64_t origin;
    int rc = job_origin(l, &origin, e);
    if (rc)
        return rc;
    size_t most = 1;
    for (size_t r = 0; r < l->n; r++)
        most = l->ranks[r].colls.nstrings > most ? l->ranks[r].colls.nstrings : most;
    int64_t *ranks = malloc((l->n + 1) * sizeof *ranks);
    bool *sel = malloc((l->n + 1) * sizeof *sel);
    uint32_t *ids = malloc(most * sizeof *ids);
    struct coll_record *recs = NULL;
    size_t n = 0, cap = 0;
    rc = ranks && sel && ids ? 0 : err_set(e, ERR_NOMEM, "out of memory");
    for (size_t r = 0; r < l->n && rc == 0; r++) {
        ranks[r] = l->ranks[r].rank.rank;
        sel[r] = !selected || selected[r];
        if (sel[r])
            rc = add_rank(l, r, origin, strings, ids, &recs, &n, &cap, e);
    }
    if (rc == 0) {
        struct coll_job job = {strings, ranks, sel, l->n};
        rc = coll_analyze_records(&job, recs, n, a, out, e);
    }
    free(ranks);
    free(sel);
    free(ids);
    free(recs);
    return rc;
}

int summary_job_rank_tables(const struct summary_job *l, const bool *selected, struct arena *a,
                            struct table_list *out, struct err *e)
{
    const struct table_list **parts = calloc(l->n + 1, sizeof *parts);
    if (!parts)
        return err_set(e, ERR_NOMEM, "out of memory");
    size_t n = 0;
    int rc = 0;
    for (size_t r = 0; r < l->n && rc == 0; r++) {
        if (selected && !selected[r])
            continue;
        if (!l->ranks[r].has_rank_parts)
            rc = err_set(e, ERR_EMPTY, "%s: no figures for the Ranks view (a summary made "
                                       "before they were)", l->ranks[r].file);
        parts[n++] = &l->ranks[r].rank_parts;
    }
    struct strtab strings;
    struct coll_result cr;
    bool blame = false;
    if (rc == 0 && strtab_init(&strings) == 0) {
        struct err ignored = {0, ""};   // without records, the ranks without blame
        blame = summary_job_coll_result(l, selected, &strings, a, &cr, &ignored) == 0;
        rc = ranks_reduce(parts, n, blame ? &cr : NULL, a, out, e);
        if (rc == ERR_PARSE)
            rc = err_set(e, ERR_PARSE, "a summary's figures for the Ranks view are not sound");
        strtab_fini(&strings);
    } else if (rc == 0) {
        rc = err_set(e, ERR_NOMEM, "out of memory");
    }
    free(parts);
    return rc;
}
