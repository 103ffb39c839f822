#include "config.h"
#include "cli/summaries.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/rank_summary.h"
#include "app/session.h"
#include "summary/shard.h"
#include "summary/write.h"
#include "trace/deflater.h"
#include "trace/discover.h"
#include "trace/pack.h"
#include "util/summary_file_source.h"
#include "util/pool.h"
#include "util/str.h"
#include "util/vec.h"

/* `htx summarize` (the map step): one summary per rank file,
 * each made from that file alone, so N processes on N machines can make
 * them without talking to each other. */

/* Deflated on a thread of its own while the file is read; kept for
 * summarize_file to write. */
static int keep_pack(void *ctx, const char *path, struct trace_pack *pack, struct err *e)
{
    (void)path;
    (void)e;
    *(struct trace_pack **)ctx = pack;
    return 0;
}

/* The load and the source record (the trace's first and last MiB hashed):
 * side by side, so that the hashing, a few ms, hides in the load of a small
 * rank instead of following it. */
struct reading {
    const char *path;
    const struct semantics *sem;
    const struct load_opts *lo;
    struct model *m;
    struct err *e;
    struct summary_file_source src;
    int src_rc;
    struct err src_err;
};

static int reading_task(void *ctx, size_t i)
{
    struct reading *r = ctx;
    if (i == 0) {
        const char *paths[] = {r->path};
        r->m = model_load(paths, 1, r->sem, r->lo, r->e);
        return 0;
    }
    r->src_rc = summary_file_source_of(&r->src, r->path, &r->src_err);
    trace_deflater_prime();   // (the load keeps one core; this one is free)
    return 0;
}

/* The file, read once: the analyses' tables under htx's semantics, then the
 * rank, with --with-events its packed events (borrowed from the pack, not
 * copied), and the source, saved as DIR/rank-NNNNN.htxs. Under
 * --semantics=hta a report takes the events (its filters change the model,
 * so its tables are not these): the summary's, or its trace's; making both
 * would read the file twice. The events are left out by default because
 * recording them costs 10-25 % of the read (traces of 10 MB to 1 GB). */
static int summarize_file(const struct htx_options *opts, const char *path, char *out,
                          size_t outsz, struct err *e)
{
    struct htx_options o = *opts;
    htx_options_make_canonical(&o);   // the tables and tiles mean one thing
    struct semantics sem;
    htx_options_semantics(&o, &sem);
    struct load_opts lo;
    int rc = app_load_opts_init(&lo, &o, e);
    if (rc < 0)
        return rc;
    struct trace_pack *pack = NULL;
    if (opts->with_events) {
        lo.packed = keep_pack;
        lo.packed_ctx = &pack;
        lo.pack_behind = opts->threads != 1;   // --threads=1: no thread of its own
    }
    struct reading rd = {.path = path, .sem = &sem, .lo = &lo, .e = e};
    err_clear(&rd.src_err);
    pool_run(2, opts->threads, reading_task, &rd);
    struct model *m = rd.m;
    if (!m)
        rc = e->code ? e->code : ERR_PARSE;
    else if (rd.src_rc < 0)
        rc = (*e = rd.src_err).code;
    struct analysis_opts ao;
    htx_options_analysis(&o, &ao);
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    struct rank_summary_parts parts = {.pack = pack, .source = &rd.src};
    if (rc == 0)
        rc = app_rank_summary(m, &ao, opts->threads, &parts, path, &w, e);
    if (rc == 0) {
        snprintf(out, outsz, "%s/rank-%05lld%s", opts->output, (long long)m->ranks[0].rank,
                 SUMMARY_FILE_SUFFIX);
        rc = summary_file_writer_save(&w, out, opts->force, e);
    }
    summary_file_writer_fini(&w);
    trace_pack_free(pack);
    model_free(m);
    return rc;
}

/* What became of each trace a summarize run took: after a failure, the
 * user is told exactly which summaries were written and which were not. */
struct outcome {
    char **lines[2];   /* [0] "TRACE -> SUMMARY" written, [1] TRACE not */
    size_t n[2], cap[2];
    bool nomem;
};

static void outcome_add(struct outcome *o, const char *trace, const char *written)
{
    int k = written ? 0 : 1;
    if (VEC_PUSH_SLOT(o->lines[k], o->n[k], o->cap[k]) != 0) {
        o->nomem = true;
        return;
    }
    size_t len = strlen(trace) + (written ? strlen(written) + 5 : 1);
    char *line = malloc(len);
    if (!line) {
        o->nomem = true;
        return;
    }
    snprintf(line, len, written ? "%s -> %s" : "%s", trace, written ? written : "");
    o->lines[k][o->n[k]++] = line;
}

static void outcome_print(const struct outcome *o)
{
    char head[128];
    snprintf(head, sizeof head, "%zu of %zu summaries written%s", o->n[0], o->n[0] + o->n[1],
             o->n[0] ? ":" : "");
    app_warn("%s", head);
    for (size_t i = 0; i < o->n[0]; i++)
        app_warn("  written: %s", o->lines[0][i]);
    for (size_t i = 0; i < o->n[1]; i++)
        app_warn("  not written: %s", o->lines[1][i]);
    if (o->nomem)
        app_warn("  (out of memory: the list above is not whole)");
}

static void outcome_fini(struct outcome *o)
{
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < o->n[k]; i++)
            free(o->lines[k][i]);
        free(o->lines[k]);
    }
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
    struct summary_file_shard shard;
    if (summary_file_shard_parse(&shard, opts->shard ? opts->shard : "0/1", env, &e) < 0 ||
        make_dir(opts->output, &e) < 0)
        return app_fail(&e);
    struct trace_file_list files = {0};
    if (trace_discover(opts->paths, opts->npaths, &files, &e) < 0)
        return app_fail(&e);
    int status = 0;
    struct outcome done = {0};
    for (size_t i = 0; i < files.count; i++) {
        if (!summary_file_shard_owns(&shard, i))
            continue;
        char out[4200] = "";
        int rc = str_ends_with(files.files[i].path, SUMMARY_FILE_SUFFIX)
                     ? err_set(&e, ERR_USAGE, "%s: already a rank summary", files.files[i].path)
                     : summarize_file(opts, files.files[i].path, out, sizeof out, &e);
        if (rc) {
            app_fail(&e);   // named; the other files are still summarized
            status = status ? status : err_exit_status(rc);
            err_clear(&e);
        }
        outcome_add(&done, files.files[i].path, rc ? NULL : out);
    }
    if (status)
        outcome_print(&done);
    outcome_fini(&done);
    trace_file_list_fini(&files);
    return status;
}
