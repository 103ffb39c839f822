#include "config.h"
#include "cli/summaries.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/session.h"
#include "summary/tiles_io.h"
#include "cli/commands.h"
#include "trace/discover.h"
#include "util/htxs_source.h"
#include "util/str.h"
#include "util/vec.h"

/* `htx report` on summaries: each rank's tables of the analyses the
 * summaries hold, concatenated in rank order, as the report on the traces
 * lays them out (see summaries.h for which). */

struct loaded {
    char *file;
    struct htxs_doc doc;
    struct htxs_rank rank;
};

static int by_rank(const void *a, const void *b)
{
    const struct loaded *x = a, *y = b;
    return (x->rank.rank > y->rank.rank) - (x->rank.rank < y->rank.rank);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The summary files the paths name, sorted within each directory, and how
 * many trace files (directory entries, or paths not named *.htxs) are
 * among them. */
static int list_files(const struct htx_options *opts, char ***out, size_t *n, size_t *traces,
                      struct err *e)
{
    size_t cap = 0;
    *out = NULL;
    *n = *traces = 0;
    for (size_t i = 0; i < opts->npaths; i++) {
        const char *p = opts->paths[i];
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(p);
            if (!d)
                return err_set(e, ERR_IO, "%s: cannot read the directory", p);
            size_t first = *n;
            struct dirent *de;
            while ((de = readdir(d)) != NULL) {
                *traces += trace_is_trace_name(de->d_name) &&
                           !str_ends_with(de->d_name, HTXS_SUFFIX);
                if (!str_ends_with(de->d_name, HTXS_SUFFIX))
                    continue;
                if (VEC_PUSH_SLOT(*out, *n, cap)) {
                    closedir(d);
                    return err_set(e, ERR_NOMEM, "out of memory");
                }
                size_t len = strlen(p) + strlen(de->d_name) + 2;
                if (!((*out)[*n] = malloc(len))) {
                    closedir(d);
                    return err_set(e, ERR_NOMEM, "out of memory");
                }
                snprintf((*out)[(*n)++], len, "%s/%s", p, de->d_name);
            }
            closedir(d);
            if (*n - first > 1)   // none listed: *out may still be NULL
                qsort(*out + first, *n - first, sizeof **out, cmp_str);
        } else {
            *traces += !str_ends_with(p, HTXS_SUFFIX);
            if (VEC_PUSH_SLOT(*out, *n, cap) || !((*out)[*n] = strdup(p)))
                return err_set(e, ERR_NOMEM, "out of memory");
            (*n)++;
        }
    }
    return 0;
}

/* Loads and checks every summary: valid, one per rank, and its trace
 * unchanged where it can be seen (a stale one is named on stderr). */
static int load_all(char **files, size_t n, struct loaded *l, struct err *e)
{
    for (size_t i = 0; i < n; i++) {
        l[i].file = files[i];
        int rc = htxs_load_file(&l[i].doc, files[i], e);
        if (rc == 0)
            rc = htxs_rank_read(&l[i].doc, files[i], &l[i].rank, e);
        struct htxs_source src;
        if (rc == 0)
            rc = htxs_source_read(&src, &l[i].doc, files[i], e);
        if (rc)
            return rc;
        if (htxs_source_check(&src, false) == HTXS_STALE)
            app_warn("%s: stale: %s changed since the summary was made (htx summarize again)",
                     files[i], src.path);
    }
    qsort(l, n, sizeof *l, by_rank);
    for (size_t i = 1; i < n; i++)
        if (l[i].rank.rank == l[i - 1].rank.rank)
            return err_set(e, ERR_USAGE, "rank %lld has two summaries: %s and %s",
                           (long long)l[i].rank.rank, l[i - 1].file, l[i].file);
    return 0;
}

/* The job's note from the ranks' own. A rank's note that counts ranks is
 * the job's count's share: "K of N ranks ..." (overlap) adds up, with N the
 * rows of the job's table; "rank X has ..." (temporal, idle) becomes "ranks
 * X, Y have ...", as the analyses write them over the job. Other notes: the
 * distinct ones joined by "; ". */
static void reduce_notes(struct table_list *per_rank, size_t nranks, size_t k, size_t rows,
                         struct table *t)
{
    size_t counted = 0, nlisted = 0, ranks_len = 0, other_len = 0;
    char ranks[1024] = "", other[2048] = "";
    const char *count_rest = NULL, *list_rest = NULL;
    for (size_t r = 0; r < nranks; r++) {
        const char *note = per_rank[r].tables[k]->note;
        size_t of, total;
        int used = 0;
        long long rank;
        if (!note || !note[0])
            continue;
        if (sscanf(note, "%zu of %zu ranks %n", &of, &total, &used) == 2 && used > 0) {
            counted += of;
            count_rest = note + used;
        } else if (sscanf(note, "rank %lld has %n", &rank, &used) == 1 && used > 0) {
            ranks_len += (size_t)snprintf(ranks + ranks_len,
                                          ranks_len < sizeof ranks ? sizeof ranks - ranks_len : 0,
                                          "%s%lld", nlisted ? ", " : "", rank);
            nlisted++;
            list_rest = note + used;
        } else if (!strstr(other, note)) {
            other_len += (size_t)snprintf(other + other_len,
                                          other_len < sizeof other ? sizeof other - other_len : 0,
                                          "%s%s", other_len ? "; " : "", note);
        }
    }
    if (count_rest)
        table_set_note(t, "%zu of %zu ranks %s", counted, rows, count_rest);
    else if (list_rest)
        table_set_note(t, "%s %s %s %s", nlisted > 1 ? "ranks" : "rank", ranks,
                       nlisted > 1 ? "have" : "has", list_rest);
    else if (other[0])
        table_set_note(t, "%s", other);
}

/* Table k of analysis `an` over the ranks: their rows in rank order, and
 * the note the job's table would have. */
static struct table *concat(struct table_list *per_rank, size_t nranks, size_t k,
                            struct arena *a)
{
    const struct table *first = per_rank[0].tables[k];
    struct table *t = table_new(a, first->name, first->title ? first->title : first->name,
                                first->cols, first->ncols);
    if (!t)
        return NULL;
    t->title = first->title;
    for (size_t r = 0; r < nranks; r++) {
        const struct table *s = per_rank[r].tables[k];
        for (size_t i = 0; i < s->nrows; i++) {
            struct cell *row = table_add_row(t);
            if (!row)
                return NULL;
            memcpy(row, table_cell(s, i, 0), t->ncols * sizeof *row);
        }
    }
    reduce_notes(per_rank, nranks, k, t->nrows, t);
    return t;
}

/* The utilization table from the ranks' tiles, as utilization_run makes it
 * from their events. */
static int gather_tiles(struct loaded *ld, size_t n, struct arena *a, struct table_list *l,
                        struct err *e)
{
    struct tiles *t = arena_calloc(a, n ? n : 1, sizeof *t);
    if (!t)
        return err_set(e, ERR_NOMEM, "out of memory");
    struct arena tmp;
    arena_init(&tmp, 1 << 20);
    int rc = 0;
    for (size_t r = 0; r < n && rc == 0; r++) {
        rc = htxs_tiles_read(&ld[r].doc, ld[r].file, &tmp, &t[r], e);
        if (rc == 0 && t[r].rank != ld[r].rank.rank)
            rc = err_set(e, ERR_PARSE, "%s: tiles of rank %lld in the summary of rank %lld",
                         ld[r].file, (long long)t[r].rank, (long long)ld[r].rank.rank);
    }
    if (rc == 0)
        rc = tiles_table(t, n, a, l, e);
    arena_fini(&tmp);
    return rc;
}

/* Every selected rank's tables of analysis id under the report's semantics,
 * concatenated into l. */
static int gather(struct loaded *ld, size_t n, int sem, enum analysis_id id, struct arena *a,
                  struct table_list *l, struct err *e)
{
    if (id == ANALYSIS_UTILIZATION)
        return gather_tiles(ld, n, a, l, e);
    struct table_list *per = calloc(n ? n : 1, sizeof *per);
    if (!per)
        return err_set(e, ERR_NOMEM, "out of memory");
    int rc = 0;
    for (size_t r = 0; r < n && rc == 0; r++) {
        bool found = false;
        for (uint32_t s = 0; s < ld[r].doc.nsections && rc == 0 && !found; s++) {
            const struct htxs_section *sec = &ld[r].doc.sections[s];
            if (!htxs_is_tables(sec))
                continue;
            struct table_list tl = {.count = 0};
            int got_sem, got_an;
            rc = htxs_tables_read(sec, ld[r].file, a, &got_sem, &got_an, &tl, e);
            if (rc == 0 && got_sem == sem && got_an == (int)id) {
                per[r] = tl;
                found = true;
            }
        }
        if (rc == 0 && !found)
            rc = err_set(e, ERR_PARSE, "%s: no tables of that analysis", ld[r].file);
        if (rc == 0 && r && per[r].count != per[0].count)
            rc = err_set(e, ERR_PARSE, "%s: not the tables of the other summaries", ld[r].file);
    }
    for (size_t k = 0; rc == 0 && n && k < per[0].count; k++) {
        struct table *t = concat(per, n, k, a);
        if (!t || table_list_add(l, t))
            rc = err_set(e, ERR_NOMEM, "out of memory");
    }
    free(per);
    return rc;
}

static bool rank_selected(const struct htx_options *opts, int64_t rank)
{
    if (opts->ranks.all)
        return true;
    for (size_t i = 0; i < opts->ranks.n; i++)
        if (opts->ranks.v[i] == rank)
            return true;
    return false;
}

static void free_files(char **files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
}

static int report_summaries(const struct htx_options *opts, char **files, size_t nfiles)
{
    struct err e = {0, ""};
    struct loaded *ld = calloc(nfiles ? nfiles : 1, sizeof *ld);
    int rc = ld ? 0 : err_set(&e, ERR_NOMEM, "out of memory");
    if (rc == 0)
        rc = load_all(files, nfiles, ld, &e);
    size_t n = 0;   // the selected ones, moved to the front
    for (size_t i = 0; rc == 0 && i < nfiles; i++)
        if (rank_selected(opts, ld[i].rank.rank)) {
            struct loaded keep = ld[n];
            ld[n++] = ld[i];
            ld[i] = keep;
        }
    if (rc == 0 && n == 0)
        rc = err_set(&e, ERR_USAGE, "no summary of the selected ranks");
    struct arena a;
    arena_init(&a, 1 << 20);
    struct table_list lists[ANALYSIS_COUNT];
    size_t nlists = 0;
    size_t count;
    const struct analysis_info *all = analysis_list(&count);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        if (!opts->analyses[all[i].id])
            continue;
        memset(&lists[nlists], 0, sizeof lists[nlists]);
        rc = gather(ld, n, opts->semantics == SEMANTICS_HTA, all[i].id, &a, &lists[nlists], &e);
        nlists++;
    }
    /* summaries made before tiles were: their events answer it instead */
    bool replay = rc == ERR_EMPTY;
    struct report_input *in = rc ? NULL : calloc(n ? n : 1, sizeof *in);
    if (rc == 0 && !in)
        rc = err_set(&e, ERR_NOMEM, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++)
        in[i] = (struct report_input){ld[i].rank.path, ld[i].rank.rank, ld[i].rank.events};
    struct app_out out = {0};
    if (rc == 0)
        rc = app_out_open(&out, &e);
    if (rc == 0) {
        struct format_opts fo;
        format_opts_default(&fo);
        fo.ascii = opts->ascii;
        fo.short_names = opts->short_names;
        struct report_inputs ri = {in, n, NULL, 0};
        if (report_write_inputs(out.f, &ri, opts, lists, nlists, &fo) < 0) {
            app_out_discard(&out);
            rc = err_set(&e, ERR_NOMEM, "report: cannot build the output");
        } else {
            rc = app_out_commit(&out, stdout, &e);
        }
    }
    free(in);
    arena_fini(&a);
    for (size_t i = 0; ld && i < nfiles; i++)
        htxs_doc_fini(&ld[i].doc);
    free(ld);
    free_files(files, nfiles);
    if (replay)
        return cli_report_main(opts);
    return rc ? app_fail(&e) : 0;
}

int cli_report_paths(const struct htx_options *opts)
{
    struct err e = {0, ""};
    char **files;
    size_t nfiles, traces;
    int rc = list_files(opts, &files, &nfiles, &traces, &e);
    bool in_tables = htx_options_read_stored_tables(opts);   // as summarize made them
    for (size_t i = 0; i < ANALYSIS_COUNT; i++)
        in_tables &= !opts->analyses[i] || summary_has((enum analysis_id)i);
    if (rc == 0 && nfiles > 0 && traces == 0 && in_tables)
        return report_summaries(opts, files, nfiles);
    // Traces, or paths the trace loader reports on.
    free_files(files, nfiles);
    return cli_report_main(opts);
}
