#include "config.h"
#include "cli/summaries.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/diff.h"
#include "analysis/ranks.h"
#include "app/session.h"
#include "summary/colls_io.h"
#include "summary/shard.h"
#include "summary/tables.h"
#include "summary/tiles_io.h"
#include "summary/write.h"
#include "trace/discover.h"
#include "trace/pack.h"
#include "util/htxs_source.h"
#include "util/pool.h"
#include "util/str.h"

/* `htx summarize` (issue 12, the map step): one summary per rank file,
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

/* What a summary computes from the loaded model, side by side on the pool:
 * its analyses, the source record (hashing the trace's first and last
 * MiB), the tiles and the collective records. */
enum {
    SUMMARY_SOURCE_TASK = HTXS_NSTORED,
    SUMMARY_TILES_TASK,
    SUMMARY_COLLS_TASK,
    SUMMARY_RANKS_TASK,
    SUMMARY_DIFF_TASK,
    SUMMARY_NTASKS
};
struct summary_work {
    const struct model *m;
    const struct analysis_opts *ao;
    const char *path;
    struct arena arenas[HTXS_NSTORED];
    struct table_list lists[HTXS_NSTORED];
    struct htxs_source src;
    struct arena tiles_arena;
    struct tiles tiles;
    struct coll_record *recs;
    size_t nrecs;
    struct arena ranks_arena, diff_arena;
    struct table_list ranks, diff;
    int rc[SUMMARY_NTASKS];
    struct err errs[SUMMARY_NTASKS];
};

static int summary_task(void *ctx, size_t i)
{
    struct summary_work *sw = ctx;
    if (i == SUMMARY_SOURCE_TASK) {
        sw->rc[i] = htxs_source_of(&sw->src, sw->path, &sw->errs[i]);
        return sw->rc[i] < 0;
    }
    if (i == SUMMARY_TILES_TASK) {
        sw->rc[i] = tiles_build(sw->m, &sw->m->ranks[0], sw->ao, false, &sw->tiles_arena,
                                &sw->tiles);
        if (sw->rc[i])
            err_set(&sw->errs[i], ERR_NOMEM, "%s: out of memory for its tiles", sw->path);
        return sw->rc[i] < 0;
    }
    if (i == SUMMARY_DIFF_TASK) {
        sw->rc[i] = diff_parts_run(sw->m, sw->ao, &sw->diff_arena, &sw->diff, &sw->errs[i]);
        return sw->rc[i] < 0;
    }
    if (i == SUMMARY_RANKS_TASK) {
        sw->rc[i] = ranks_parts_run(sw->m, sw->ao, &sw->ranks_arena, &sw->ranks, &sw->errs[i]);
        return sw->rc[i] < 0;
    }
    if (i == SUMMARY_COLLS_TASK) {
        sw->rc[i] = coll_records(sw->m, sw->ao, &sw->recs, &sw->nrecs);
        if (sw->rc[i])
            err_set(&sw->errs[i], ERR_NOMEM, "%s: out of memory for its collectives", sw->path);
        return sw->rc[i] < 0;
    }
    analysis_fn run = htxs_stored_run(htxs_stored_analyses[i]);
    sw->rc[i] = run ? run(sw->m, sw->ao, &sw->arenas[i], &sw->lists[i], &sw->errs[i])
                    : err_set(&sw->errs[i], ERR_INTERNAL, "no analysis");
    return sw->rc[i] < 0;
}

/* 0, or the first failure's error in e. */
static int run_summary_work(struct summary_work *sw, int threads, struct err *e)
{
    pool_run(SUMMARY_NTASKS, threads, summary_task, sw);
    for (size_t i = 0; i < SUMMARY_NTASKS; i++)
        if (sw->rc[i] < 0) {
            *e = sw->errs[i];
            return sw->rc[i];
        }
    return 0;
}

/* The file, read once: the analyses' tables under htx's semantics, then the
 * rank, its packed events (borrowed from the pack, not copied) and the
 * source, saved as DIR/rank-NNNNN.htxs. Under --semantics=hta a report
 * replays the events (its filters change the model, so its tables are not
 * these); making both would read the file twice (1.9x `info`, against 1.2x). */
static int summarize_file(const struct htx_options *opts, const char *path, struct err *e)
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
    lo.packed = keep_pack;
    lo.packed_ctx = &pack;
    lo.pack_behind = opts->threads != 1;   // --threads=1: no thread of its own
    const char *paths[] = {path};
    struct model *m = model_load(paths, 1, &sem, &lo, e);
    if (!m)
        rc = e->code ? e->code : ERR_PARSE;
    else if (m->nranks != 1)
        rc = err_set(e, ERR_PARSE, "%s: not one rank", path);
    else if (m->ranks[0].rank < 0)
        rc = err_set(e, ERR_PARSE, "%s: no rank number", path);
    struct analysis_opts ao;
    htx_options_analysis(&o, &ao);
    struct summary_work sw = {.m = m, .ao = &ao, .path = path};
    for (size_t i = 0; i < HTXS_NSTORED; i++)
        arena_init(&sw.arenas[i], 1 << 20);
    arena_init(&sw.tiles_arena, 1 << 20);
    arena_init(&sw.ranks_arena, 1 << 16);
    arena_init(&sw.diff_arena, 1 << 16);
    if (rc == 0)
        rc = run_summary_work(&sw, opts->threads, e);
    struct htxs_writer w;
    htxs_writer_init(&w);
    for (size_t i = 0; i < HTXS_NSTORED && rc == 0; i++)
        htxs_tables_write(&w, SEMANTICS_HTX, (int)htxs_stored_analyses[i], &sw.lists[i]);
    if (rc == 0) {
        htxs_tables_write(&w, SEMANTICS_HTX, HTXS_RANKS_PARTS, &sw.ranks);
        htxs_tables_write(&w, SEMANTICS_HTX, HTXS_DIFF_PARTS, &sw.diff);
    }
    if (rc == 0) {
        const struct rank_model *r = &m->ranks[0];
        struct htxs_rank rank = {.rank = r->rank, .events = r->complete_events};
        snprintf(rank.path, sizeof rank.path, "%s", r->path);
        htxs_rank_write(&w, &rank);
        htxs_tiles_write(&w, &sw.tiles);
        htxs_colls_write(&w, r->rank, m->has_origin ? &m->origin_ns : NULL, &m->strings,
                         sw.recs, sw.nrecs);
        const uint8_t *bytes;
        size_t len;
        rc = trace_pack_finish(pack, &bytes, &len, e);
        if (rc == 0) {
            htxs_begin_section(&w, HTXS_EVENTS);
            htxs_put_borrowed(&w, bytes, len);
            htxs_end_section(&w);
            htxs_source_write(&w, &sw.src);
            char out[4200];
            snprintf(out, sizeof out, "%s/rank-%05lld%s", opts->output, (long long)rank.rank,
                     HTXS_SUFFIX);
            rc = htxs_writer_save(&w, out, opts->force, e);
        }
    }
    htxs_writer_fini(&w);
    trace_pack_free(pack);
    model_free(m);
    for (size_t i = 0; i < HTXS_NSTORED; i++)
        arena_fini(&sw.arenas[i]);
    arena_fini(&sw.tiles_arena);
    arena_fini(&sw.ranks_arena);
    arena_fini(&sw.diff_arena);
    free(sw.recs);
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
        int rc = str_ends_with(files.files[i].path, HTXS_SUFFIX)
                     ? err_set(&e, ERR_USAGE, "%s: already a rank summary", files.files[i].path)
                     : summarize_file(opts, files.files[i].path, &e);
        if (rc) {
            app_fail(&e);   // named; the other files are still summarized
            status = status ? status : err_exit_status(rc);
            err_clear(&e);
        }
    }
    trace_file_list_fini(&files);
    return status;
}
