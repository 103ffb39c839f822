#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/collectives.h"
#include "analysis/stragglers_hta.h"

/* qsort, which must not be given a NULL array even for zero elements. */
static void sort_n(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(v, n, size, cmp);
}

/* The headless tables of the collectives and stragglers analyses, written
 * from coll_analyze's result (collectives.h) and, under
 * semantics.hta_stragglers, from hta_stragglers_run. Column names are
 * documented in man/htx.1 (REPORTS). */

static const struct table_col coll_cols[] = {
    {"collective", NULL, COL_KEY},
    {"group", NULL, COL_KEY},
    {"seq", NULL, 0},
    {"iteration", NULL, 0},
    {"match", NULL, 0},
    {"ranks", NULL, 0},
    {"group_size", NULL, 0},
    {"first_rank", NULL, 0},
    {"last_rank", NULL, 0},
    {"last_arrival (us)", "us", 0},
    {"skew (us)", "us", 0},
    {"total_wait (us)", "us", 0},
    {"max_wait (us)", "us", 0},
    {"bytes", NULL, 0},
    {"time (us)", "us", 0},
    {"algbw (GB/s)", "GB/s", 0},
    {"busbw (GB/s)", "GB/s", 0},
    {"partial", NULL, 0},
};

static const struct table_col bw_cols[] = {
    {"collective", NULL, COL_KEY},
    {"size_bucket", NULL, COL_KEY},
    {"count", NULL, 0},
    {"mean_bytes", NULL, 0},
    {"mean_time (us)", "us", 0},
    {"mean_algbw (GB/s)", "GB/s", 0},
    {"mean_busbw (GB/s)", "GB/s", 0},
};

static const struct table_col diag_cols[] = {
    {"what", NULL, COL_KEY},
    {"instances", NULL, 0},
};

static const struct table_col ranking_cols[] = {
    {"rank", NULL, COL_KEY},
    {"blame (us)", "us", 0},
    {"suffered (us)", "us", 0},
    {"last_arrivals", NULL, 0},
    {"collectives", NULL, 0},
    {"worst_iteration", NULL, 0},
    {"worst_collective", NULL, 0},
    {"worst_blame (us)", "us", 0},
};

static const struct table_col iter_cols[] = {
    {"rank", NULL, COL_KEY},
    {"iteration", NULL, COL_KEY},
    {"blame (us)", "us", 0},
    {"suffered (us)", "us", 0},
};

static const struct table_col hta_cols[] = {
    {"rank", NULL, COL_KEY},
    {"straggler_count", NULL, 0},
};

#define NCOLS(c) (sizeof(c) / sizeof((c)[0]))

static double us(int64_t ns)
{
    return (double)ns / 1000.0;
}

static struct cell iter_cell(int32_t it)
{
    return it == MODEL_ITER_NAN || it == MODEL_ITER_NONE ? cell_int(-1) : cell_int(it);
}

/* The group column: the process group's name, else the stream that keyed it. */
static struct cell group_cell(const struct coll_result *r, struct table *t,
                              const struct collective *c)
{
    if (c->group)
        return cell_str(t, strtab_str(r->strings, c->group));
    char buf[40];
    snprintf(buf, sizeof buf, "stream %lld", (long long)c->stream);
    return cell_str(t, buf);
}

static int collectives_table(const struct coll_result *r, struct arena *a,
                             struct table_list *out)
{
    struct table *t = table_new(a, "collectives", "Collectives matched across ranks", coll_cols,
                                NCOLS(coll_cols));
    if (!t)
        return ERR_NOMEM;
    for (size_t i = 0; i < r->ncolls; i++) {
        const struct collective *c = &r->colls[i];
        struct cell *row = table_add_row(t);
        if (!row)
            return ERR_NOMEM;
        size_t k = 0;
        row[k++] = cell_str(t, strtab_str(r->strings, c->name));
        row[k++] = group_cell(r, t, c);
        row[k++] = c->seq >= 0 ? cell_int(c->seq) : cell_null();
        row[k++] = iter_cell(c->iteration);
        row[k++] = cell_str(t, coll_rule_name(c->rule));
        row[k++] = cell_int((int64_t)c->ninst);
        row[k++] = cell_int(c->group_size);
        row[k++] = cell_int(c->inst[c->first].rank);
        row[k++] = cell_int(c->inst[c->last].rank);
        row[k++] = cell_double(us(c->inst[c->last].arrival));
        row[k++] = cell_double(us(c->skew));
        row[k++] = cell_double(us(c->total_wait));
        row[k++] = cell_double(us(c->max_wait));
        row[k++] = c->bytes >= 0 ? cell_int(c->bytes) : cell_null();
        row[k++] = cell_double(us(c->time));
        row[k++] = cell_double(c->algbw);
        row[k++] = cell_double(c->busbw);
        row[k++] = cell_bool(c->partial);
    }
    if (t->nrows == 0)
        table_set_note(t, r->instances ? "no communication kernel matched across ranks (see "
                                         "collective_matching)"
                                       : "no communication kernel in the selection");
    return table_list_add(out, t);
}

/* Message size buckets: powers of 4 from 1 KiB, labelled by their bounds. */
static int size_bucket(int64_t bytes)
{
    int b = 0;
    for (int64_t lim = 1024; bytes >= lim && b < 20; lim *= 4)
        b++;
    return b;
}

static void bucket_label(int b, char *buf, size_t n)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (b == 0) {
        snprintf(buf, n, "<1 KiB");
        return;
    }
    /* [4^(b-1) KiB, 4^b KiB) */
    double lo = 1024.0 * pow(4.0, b - 1), hi = lo * 4.0;
    int ul = 0, uh = 0;
    while (lo >= 1024.0 && ul < 6) {
        lo /= 1024.0;
        ul++;
    }
    while (hi >= 1024.0 && uh < 6) {
        hi /= 1024.0;
        uh++;
    }
    snprintf(buf, n, "%g %s-%g %s", lo, units[ul], hi, units[uh]);
}

struct bw_key {
    const char *name;
    int bucket;
    size_t coll;
};

static int cmp_bw_key(const void *pa, const void *pb)
{
    const struct bw_key *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    if (a->bucket != b->bucket)
        return a->bucket < b->bucket ? -1 : 1;
    return a->coll < b->coll ? -1 : a->coll > b->coll;
}

static int bandwidth_table(const struct coll_result *r, struct arena *a,
                           struct table_list *out)
{
    struct table *t = table_new(a, "collective_bandwidth",
                                "Collective bandwidth by message size", bw_cols, NCOLS(bw_cols));
    struct bw_key *keys = malloc((r->ncolls ? r->ncolls : 1) * sizeof *keys);
    if (!t || !keys) {
        free(keys);
        return ERR_NOMEM;
    }
    size_t n = 0;
    for (size_t i = 0; i < r->ncolls; i++)
        if (r->colls[i].bytes >= 0)
            keys[n++] = (struct bw_key){strtab_str(r->strings, r->colls[i].name),
                                        size_bucket(r->colls[i].bytes), i};
    sort_n(keys, n, sizeof *keys, cmp_bw_key);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0;) {
        size_t j = i;
        double bytes = 0, time = 0, alg = 0, bus = 0;
        size_t nalg = 0, nbus = 0;
        for (; j < n && keys[j].bucket == keys[i].bucket && strcmp(keys[j].name, keys[i].name) == 0;
             j++) {
            const struct collective *c = &r->colls[keys[j].coll];
            bytes += (double)c->bytes;
            time += us(c->time);
            if (!isnan(c->algbw)) {
                alg += c->algbw;
                nalg++;
            }
            if (!isnan(c->busbw)) {
                bus += c->busbw;
                nbus++;
            }
        }
        struct cell *row = table_add_row(t);
        if (!row) {
            rc = ERR_NOMEM;
            break;
        }
        char label[64];
        bucket_label(keys[i].bucket, label, sizeof label);
        double cnt = (double)(j - i);
        row[0] = cell_str(t, keys[i].name);
        row[1] = cell_str(t, label);
        row[2] = cell_int((int64_t)(j - i));
        row[3] = cell_double(bytes / cnt);
        row[4] = cell_double(time / cnt);
        row[5] = cell_double(nalg ? alg / (double)nalg : NAN);
        row[6] = cell_double(nbus ? bus / (double)nbus : NAN);
        i = j;
    }
    free(keys);
    if (rc)
        return rc;
    if (t->nrows == 0)
        table_set_note(t, r->ncolls ? "no matched collective has a message size (In/Out msg "
                                      "nelems and dtype)"
                                    : "no matched collective");
    else
        table_set_note(t, "algbw = bytes / time, time = last end - last arrival; busbw = algbw "
                          "x nccl-tests factor (allreduce 2(n-1)/n; allgather, reducescatter, "
                          "alltoall (n-1)/n; broadcast, reduce, send/recv 1)");
    return table_list_add(out, t);
}

static int add_diag(struct table *t, const char *what, size_t n)
{
    struct cell *row = table_add_row(t);
    if (!row)
        return ERR_NOMEM;
    row[0] = cell_str(t, what);
    row[1] = cell_int((int64_t)n);
    return 0;
}

static int matching_table(const struct coll_result *r, struct arena *a, struct table_list *out)
{
    struct table *t = table_new(a, "collective_matching", "Collective matching", diag_cols,
                                NCOLS(diag_cols));
    if (!t)
        return ERR_NOMEM;
    char buf[160];
    int rc = 0;
    for (int k = 0; k < COLL_MATCH_RULES && rc == 0; k++) {
        snprintf(buf, sizeof buf, "matched by %s", coll_rule_name((enum coll_match_rule)k));
        rc = add_diag(t, buf, r->matched[k]);
    }
    if (r->kept_alone && rc == 0)
        rc = add_diag(t, "kept alone: the group's other ranks are not loaded", r->kept_alone);
    for (int k = 0; k < COLL_ISSUE_COUNT && rc == 0; k++) {
        if (!r->unmatched[k])
            continue;
        snprintf(buf, sizeof buf, "unmatched: %s", coll_issue_text((enum coll_issue)k));
        rc = add_diag(t, buf, r->unmatched[k]);
    }
    if (rc)
        return rc;
    if (r->missing_rank_example >= 0)
        table_set_note(t, "%zu of %zu selected ranks have no communication kernel (rank %lld "
                          "is one)", r->ranks_selected - r->ranks_with_comm, r->ranks_selected,
                       (long long)r->missing_rank_example);
    else if (r->ranks_selected == 1 && r->instances)
        table_set_note(t, "one rank selected: nothing to match across ranks");
    return table_list_add(out, t);
}

int coll_collectives_tables(const struct coll_result *r, struct arena *a, struct table_list *out)
{
    if (collectives_table(r, a, out) || bandwidth_table(r, a, out) || matching_table(r, a, out))
        return ERR_NOMEM;
    return 0;
}

int collectives_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                    struct table_list *out, struct err *e)
{
    struct coll_result r;
    if (coll_analyze(m, o, scratch, &r, e))
        return e->code;
    if (coll_collectives_tables(&r, scratch, out))
        return err_set(e, ERR_NOMEM, "collectives: out of memory");
    return 0;
}

/* ---- stragglers -------------------------------------------------------------- */

int coll_straggler_tables(const struct coll_result *r, struct arena *a, struct table_list *out)
{
    struct table *t = table_new(a, "straggler_ranking", "Stragglers: ranks by blame",
                                ranking_cols, NCOLS(ranking_cols));
    struct table *it = table_new(a, "rank_iteration_blame", "Blame and wait per iteration",
                                 iter_cols, NCOLS(iter_cols));
    if (!t || !it)
        return ERR_NOMEM;
    for (size_t i = 0; i < r->nranking; i++) {
        const struct straggler *s = &r->ranking[i];
        struct cell *row = table_add_row(t);
        if (!row)
            return ERR_NOMEM;
        row[0] = cell_int(s->rank);
        row[1] = cell_double(us(s->blame));
        row[2] = cell_double(us(s->suffered));
        row[3] = cell_int((int64_t)s->last_count);
        row[4] = cell_int((int64_t)s->collectives);
        if (s->worst != SIZE_MAX) {
            row[5] = iter_cell(s->worst_iteration);
            row[6] = cell_str(t, strtab_str(r->strings, r->colls[s->worst].name));
            row[7] = cell_double(us(s->worst_blame));
        }
    }
    for (size_t i = 0; i < r->nblame; i++) {
        struct cell *row = table_add_row(it);
        if (!row)
            return ERR_NOMEM;
        row[0] = cell_int(r->blame[i].rank);
        row[1] = iter_cell(r->blame[i].iteration);
        row[2] = cell_double(us(r->blame[i].blame));
        row[3] = cell_double(us(r->blame[i].suffered));
    }
    if (t->nrows == 0) {
        const char *why = r->ranks_selected < 2 ? "one rank cannot straggle: no other rank waits for it"
                          : r->instances == 0 ? "no communication kernel in the selection"
                                              : "no communication kernel matched across ranks "
                                                "(see the collectives analysis)";
        table_set_note(t, "%s", why);
        table_set_note(it, "%s", why);
    } else {
        table_set_note(t, "blame = the others' wait at the collectives the rank arrived last "
                          "at; wait = last arrival - own arrival, at most the own kernel's "
                          "duration");
    }
    if (table_list_add(out, t) || table_list_add(out, it))
        return ERR_NOMEM;
    return 0;
}

static int hta_table(const struct model *m, const struct analysis_opts *o, struct arena *a,
                     struct table_list *out, struct err *e)
{
    struct hta_stragglers h;
    if (hta_stragglers_run(m, o->num_candidates, a, &h, e))
        return e->code;
    struct table *t = table_new(a, "potential_stragglers", "Potential stragglers (HTA)", hta_cols,
                                NCOLS(hta_cols));
    if (!t)
        return err_set(e, ERR_NOMEM, "stragglers: out of memory");
    for (size_t i = 0; i < h.nranks; i++) {
        struct cell *row = table_add_row(t);
        if (!row)
            return err_set(e, ERR_NOMEM, "stragglers: out of memory");
        row[0] = cell_int(h.ranks[i].rank);
        row[1] = cell_int(h.ranks[i].count);
    }
    if (h.status == HTA_STRAGGLERS_HTA_RAISES)
        table_set_note(t, "%s", h.why);
    else
        table_set_note(t, "metric kernel %s on stream %lld over %zu iteration(s); rank "
                          "counted once per iteration it starts among the %d latest%s",
                       model_str(m, h.name), (long long)h.stream, h.iterations,
                       o->num_candidates < 1 ? 1 : o->num_candidates,
                       h.short_iterations ? " (some iterations have fewer ranks: HTA raises "
                                            "there)" : "");
    if (table_list_add(out, t))
        return err_set(e, ERR_NOMEM, "stragglers: too many tables");
    return 0;
}

int stragglers_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
                   struct table_list *out, struct err *e)
{
    if (m->sem.hta_stragglers)
        return hta_table(m, o, scratch, out, e);
    struct coll_result r;
    if (coll_analyze(m, o, scratch, &r, e))
        return e->code;
    if (coll_straggler_tables(&r, scratch, out))
        return err_set(e, ERR_NOMEM, "stragglers: out of memory");
    return 0;
}
