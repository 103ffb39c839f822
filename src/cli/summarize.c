#include "config.h"
#include "cli/summaries.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/session.h"
#include "summary/shard.h"
#include "summary/source.h"
#include "summary/write.h"
#include "trace/discover.h"

/* `htx summarize` (issue 12, the map step): one summary per rank file,
 * each made from that file alone, so N processes on N machines can make
 * them without talking to each other. */

const enum analysis_id summary_analyses[SUMMARY_NANALYSES] = {
    ANALYSIS_TEMPORAL, ANALYSIS_IDLE, ANALYSIS_OVERLAP,
};

bool summary_has(enum analysis_id id)
{
    for (size_t i = 0; i < SUMMARY_NANALYSES; i++)
        if (summary_analyses[i] == id)
            return true;
    return false;
}

static const struct analysis_info *analysis_by_id(enum analysis_id id)
{
    size_t n;
    const struct analysis_info *all = analysis_list(&n);
    for (size_t i = 0; i < n; i++)
        if (all[i].id == id)
            return &all[i];
    return NULL;
}

/* The file under both semantics: its analyses' tables, then its rank. */
static int summarize_file(const struct htx_options *opts, const char *path, struct htxs_writer *w,
                          struct htxs_rank *rank, struct err *e)
{
    struct load_opts lo;
    if (app_load_opts_init(&lo, opts, e) < 0)
        return e->code;
    for (int hta = 0; hta < 2; hta++) {
        struct htx_options o = *opts;
        o.semantics = hta ? SEMANTICS_HTA : SEMANTICS_HTX;
        struct semantics sem;
        htx_options_semantics(&o, &sem);
        const char *paths[] = {path};
        struct model *m = model_load(paths, 1, &sem, &lo, e);
        if (!m)
            return e->code ? e->code : ERR_PARSE;
        if (m->nranks != 1) {
            model_free(m);
            return err_set(e, ERR_PARSE, "%s: not one rank", path);
        }
        if (!hta) {
            rank->rank = m->ranks[0].rank;
            rank->events = m->ranks[0].complete_events;
            snprintf(rank->path, sizeof rank->path, "%s", m->ranks[0].path);
        }
        struct analysis_opts ao;
        htx_options_analysis(&o, &ao);
        struct arena a;
        arena_init(&a, 1 << 20);
        int rc = 0;
        for (size_t i = 0; i < SUMMARY_NANALYSES && rc == 0; i++) {
            const struct analysis_info *an = analysis_by_id(summary_analyses[i]);
            struct table_list l = {.count = 0};
            rc = an ? an->run(m, &ao, &a, &l, e) : err_set(e, ERR_INTERNAL, "no analysis");
            if (rc == 0)
                htxs_tables_write(w, hta, (int)summary_analyses[i], &l);
        }
        arena_fini(&a);
        model_free(m);
        if (rc)
            return rc;
    }
    htxs_rank_write(w, rank);
    struct htxs_source src;
    int rc = htxs_source_of(&src, path, e);
    if (rc == 0)
        htxs_source_write(w, &src);
    return rc;
}

static int make_dir(const char *dir, struct err *e)
{
    struct stat st;
    if (stat(dir, &st) == 0)
        return S_ISDIR(st.st_mode) ? 0 : err_set(e, ERR_USAGE, "%s: not a directory", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return err_set(e, ERR_IO, "%s: %s", dir, strerror(errno));
    return 0;
}

static const char *env(const char *name)
{
    return getenv(name);
}

int cli_summarize_main(const struct htx_options *opts)
{
    struct err e = {0, ""};
    struct htxs_shard shard;
    if (htxs_shard_parse(&shard, opts->shard ? opts->shard : "0/1", env, &e) < 0 ||
        make_dir(opts->output, &e) < 0)
        return app_fail(&e);
    struct trace_file_list files = {0};
    if (trace_discover(opts->paths, opts->npaths, &files, &e) < 0)
        return app_fail(&e);
    int status = 0;
    for (size_t i = 0; i < files.count; i++) {
        if (!htxs_shard_owns(&shard, i))
            continue;
        struct htxs_writer w;
        htxs_writer_init(&w);
        struct htxs_rank rank = {0};
        const uint8_t *buf;
        size_t len;
        int rc = summarize_file(opts, files.files[i].path, &w, &rank, &e);
        if (rc == 0)
            rc = htxs_writer_finish(&w, &buf, &len, &e);
        char out[4200];
        if (rc == 0 && rank.rank < 0)
            rc = err_set(&e, ERR_PARSE, "%s: no rank number", files.files[i].path);
        if (rc == 0) {
            snprintf(out, sizeof out, "%s/rank-%05lld.htxs", opts->output, (long long)rank.rank);
            rc = htxs_write_file(out, buf, len, opts->force, &e);
        }
        htxs_writer_fini(&w);
        if (rc) {
            app_fail(&e);   // named; the other files are still summarized
            status = status ? status : err_exit_status(rc);
            err_clear(&e);
        }
    }
    trace_file_list_fini(&files);
    return status;
}
