#include "config.h"
#include "cli/summaries.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/session.h"
#include "summary/shard.h"
#include "summary/write.h"
#include "trace/discover.h"
#include "trace/pack.h"
#include "util/htxs_source.h"
#include "util/pool.h"
#include "util/str.h"

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

/* One semantics' half of a summary: the file loaded under it and the
 * tables of the summary's analyses. */
struct half {
    const struct htx_options *opts;
    const char *path;
    int hta;
    struct model *m;
    struct arena arena;
    struct table_list lists[SUMMARY_NANALYSES];
    struct err err;
    int rc;
    struct trace_pack *pack;   /* the file's events (half 0 only) */
};

/* Deflated here, on the half's own thread, beside the other half's load;
 * trace_pack_finish then hands the bytes out again when they are written. */
static int keep_pack(void *ctx, const char *path, struct trace_pack *pack, struct err *e)
{
    (void)path;
    const uint8_t *bytes;
    size_t len;
    ((struct half *)ctx)->pack = pack;
    return trace_pack_finish(pack, &bytes, &len, e);
}

/* A pool task: half i. */
static int make_half(void *ctx, size_t k)
{
    struct half *h = &((struct half *)ctx)[k];
    struct htx_options o = *h->opts;
    o.semantics = h->hta ? SEMANTICS_HTA : SEMANTICS_HTX;
    struct semantics sem;
    htx_options_semantics(&o, &sem);
    struct load_opts lo;
    if ((h->rc = app_load_opts_init(&lo, &o, &h->err)) < 0)
        return 0;
    lo.threads = 1;
    if (!h->hta) {   // the events are the same under both semantics: one pack
        lo.packed = keep_pack;
        lo.packed_ctx = h;
    }
    const char *paths[] = {h->path};
    h->m = model_load(paths, 1, &sem, &lo, &h->err);
    if (!h->m) {
        h->rc = h->err.code ? h->err.code : ERR_PARSE;
        return 0;
    }
    if (h->m->nranks != 1) {
        h->rc = err_set(&h->err, ERR_PARSE, "%s: not one rank", h->path);
        return 0;
    }
    struct analysis_opts ao;
    htx_options_analysis(&o, &ao);
    for (size_t i = 0; i < SUMMARY_NANALYSES && h->rc == 0; i++) {
        const struct analysis_info *an = analysis_by_id(summary_analyses[i]);
        h->rc = an ? an->run(h->m, &ao, &h->arena, &h->lists[i], &h->err)
                   : err_set(&h->err, ERR_INTERNAL, "no analysis");
    }
    return 0;
}

/* The file under both semantics (side by side unless --threads=1): the
 * analyses' tables, then the rank and the source. */
static int summarize_file(const struct htx_options *opts, const char *path, struct htxs_writer *w,
                          struct htxs_rank *rank, struct err *e)
{
    struct half h[2];
    memset(h, 0, sizeof h);
    for (int k = 0; k < 2; k++) {
        h[k] = (struct half){.opts = opts, .path = path, .hta = k};
        arena_init(&h[k].arena, 1 << 20);
    }
    pool_run(2, opts->threads == 1 ? 1 : 2, make_half, h);
    int rc = h[0].rc ? h[0].rc : h[1].rc;
    if (rc)
        *e = h[0].rc ? h[0].err : h[1].err;
    for (int k = 0; k < 2 && rc == 0; k++)
        for (size_t i = 0; i < SUMMARY_NANALYSES; i++)
            htxs_tables_write(w, k, (int)summary_analyses[i], &h[k].lists[i]);
    if (rc == 0) {
        const struct rank_model *r = &h[0].m->ranks[0];
        rank->rank = r->rank;
        rank->events = r->complete_events;
        snprintf(rank->path, sizeof rank->path, "%s", r->path);
        htxs_rank_write(w, rank);
        const uint8_t *pack;
        size_t pack_len;
        rc = trace_pack_finish(h[0].pack, &pack, &pack_len, e);
        if (rc == 0) {
            htxs_begin_section(w, HTXS_EVENTS);
            htxs_put_bytes(w, pack, pack_len);
            htxs_end_section(w);
        }
        struct htxs_source src;
        if (rc == 0)
            rc = htxs_source_of(&src, path, e);
        if (rc == 0)
            htxs_source_write(w, &src);
    }
    for (int k = 0; k < 2; k++) {
        trace_pack_free(h[k].pack);
        model_free(h[k].m);
        arena_fini(&h[k].arena);
    }
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
        int rc = str_ends_with(files.files[i].path, HTXS_SUFFIX)
                     ? err_set(&e, ERR_USAGE, "%s: already a rank summary", files.files[i].path)
                     : summarize_file(opts, files.files[i].path, &w, &rank, &e);
        if (rc == 0)
            rc = htxs_writer_finish(&w, &buf, &len, &e);
        char out[4200];
        if (rc == 0 && rank.rank < 0)
            rc = err_set(&e, ERR_PARSE, "%s: no rank number", files.files[i].path);
        if (rc == 0) {
            snprintf(out, sizeof out, "%s/rank-%05lld%s", opts->output, (long long)rank.rank,
                     HTXS_SUFFIX);
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
