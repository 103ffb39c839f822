#include "config.h"
#include "cli/summaries.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
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
#include "util/hmap.h"
#include "util/memory.h"
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

struct summarize_job;
static int save_summary(struct summarize_job *job, size_t k, struct summary_file_writer *w,
                        int64_t rank, char *out, size_t outsz, struct err *e);

/* The file, read once: the analyses' tables under htx's semantics, then the
 * rank, with --with-events its packed events (borrowed from the pack, not
 * copied), and the source, saved as DIR/rank-NNNNN.htxs through
 * save_summary (k: the file's place in the job). Under --semantics=hta a
 * report takes the events (its filters change the model, so its tables are
 * not these): the summary's, or its trace's; making both would read the
 * file twice. The events are left out by default because recording them
 * costs 10-25 % of the read (traces of 10 MB to 1 GB). threads: this
 * file's share of the cores. */
static int summarize_file(const struct htx_options *opts, int threads, const char *path,
                          struct summarize_job *job, size_t k, char *out, size_t outsz,
                          struct err *e)
{
    struct htx_options o = *opts;
    htx_options_make_canonical(&o);   // the tables and tiles mean one thing
    o.threads = threads;
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
        lo.pack_behind = threads != 1;   // one thread: no thread of its own
    }
    struct reading rd = {.path = path, .sem = &sem, .lo = &lo, .e = e};
    err_clear(&rd.src_err);
    pool_run(2, threads, reading_task, &rd);
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
        rc = app_rank_summary(m, &ao, threads, &parts, path, &w, e);
    if (rc == 0)
        rc = save_summary(job, k, &w, m->ranks[0].rank, out, outsz, e);
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

/* A summarize run: the files it owns, summarized `jobs` at a time (so at
 * most that many ranks are loaded at once), each file's outcome told in
 * the files' order whatever order they finish in, and two files of one
 * rank resolved as a run in that order would: without --force the first
 * one's summary is kept and the later refused, with it the last one's. */
struct job_item {
    size_t file;       /* its index in the discovery list */
    int rc;
    bool done;
    bool superseded;   /* written, then refused for an earlier file of its rank */
    char *out;         /* the summary written (malloc'd) */
    struct err *e;     /* the failure (malloc'd) */
};

struct summarize_job {
    const struct htx_options *opts;
    const struct trace_file_list *files;
    struct job_item *items;
    size_t n, told;    /* items, and how many have been told */
    int threads;       /* each file's share of the cores */
    struct hmap owner; /* rank -> the item whose summary is its file */
    pthread_mutex_t lock;
    struct outcome outcome;
    int status;
};

/* Saves w as DIR/rank-NNNNN.htxs (its name in out) for item k, under the
 * job's lock, unless a later file of the same rank, written first, must
 * stay (--force); without --force that one is refused instead. */
static int save_summary(struct summarize_job *job, size_t k, struct summary_file_writer *w,
                        int64_t rank, char *out, size_t outsz, struct err *e)
{
    snprintf(out, outsz, "%s/rank-%05lld%s", job->opts->output, (long long)rank,
             SUMMARY_FILE_SUFFIX);
    bool force = job->opts->force;
    pthread_mutex_lock(&job->lock);
    uint32_t *owner = hmap_get(&job->owner, rank);
    int rc = 0;
    if (!owner || *owner < k) {
        rc = summary_file_writer_save(w, out, force, e);
        if (rc == 0 && hmap_put(&job->owner, rank, (uint32_t)k) != 0)
            rc = err_set(e, ERR_NOMEM, "%s: out of memory", out);
    } else if (!force) {   // the later file's summary gives way to this one's
        rc = summary_file_writer_save(w, out, true, e);
        if (rc == 0) {
            job->items[*owner].superseded = true;
            *owner = (uint32_t)k;
        }
    }   // else: with --force the later file's summary, there already, is the one kept
    pthread_mutex_unlock(&job->lock);
    return rc;
}

/* Under the lock: tells the outcomes of the finished items that follow
 * the last told, in order. */
static void tell_finished(struct summarize_job *job)
{
    for (; job->told < job->n && job->items[job->told].done; job->told++) {
        struct job_item *it = &job->items[job->told];
        const char *path = job->files->files[it->file].path;
        struct err why = {0, ""};
        if (it->superseded)
            it->rc = err_set(&why, ERR_USAGE, "%s: already exists (use --force to replace it)",
                             it->out ? it->out : path);
        else if (it->e)
            why = *it->e;
        else if (it->rc)
            err_set(&why, it->rc, "%s: out of memory", path);
        if (it->rc) {
            app_fail(&why);   // named; the other files go on
            job->status = job->status ? job->status : err_exit_status(it->rc);
        }
        outcome_add(&job->outcome, path, it->rc ? NULL : it->out);
        free(it->out);
        free(it->e);
        it->out = NULL;
        it->e = NULL;
    }
}

static int summarize_task(void *ctx, size_t k)
{
    struct summarize_job *job = ctx;
    struct job_item *it = &job->items[k];
    const char *path = job->files->files[it->file].path;
    struct err e = {0, ""};
    char out[4200] = "";
    int rc = str_ends_with(path, SUMMARY_FILE_SUFFIX)
                 ? err_set(&e, ERR_USAGE, "%s: already a rank summary", path)
                 : summarize_file(job->opts, job->threads, path, job, k, out, sizeof out, &e);
    char *saved = rc ? NULL : strdup(out);
    struct err *failed = rc ? malloc(sizeof *failed) : NULL;
    if (failed)
        *failed = e;
    pthread_mutex_lock(&job->lock);
    it->rc = rc;
    it->out = saved;
    it->e = failed;
    if ((rc == 0 && !saved) || (rc && !failed)) {   // out of memory: told plainly
        it->rc = rc ? rc : ERR_NOMEM;
        job->outcome.nomem = true;
    }
    it->done = true;
    tell_finished(job);
    pthread_mutex_unlock(&job->lock);
    return 0;
}
/* The files of this shard, as items in the discovery order. */
static int job_items(struct summarize_job *job, const struct summary_file_shard *shard,
                     struct err *e)
{
    size_t count = job->files->count;
    if (count >= UINT32_MAX)
        return err_set(e, ERR_USAGE, "%zu files: more than htx summarize takes at once", count);
    job->items = calloc(count ? count : 1, sizeof *job->items);
    if (!job->items || hmap_init(&job->owner, count) != 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < count; i++)
        if (summary_file_shard_owns(shard, i))
            job->items[job->n++].file = i;
    return 0;
}

/* --jobs files at once (default --threads's, the cores), the cores shared
 * among them: one file alone is read and analysed on every core. */
static void job_threads(const struct htx_options *opts, size_t n, int *jobs, int *threads)
{
    int cores = opts->threads > 0 ? opts->threads : pool_cores();
    *jobs = opts->jobs > 0 ? opts->jobs : cores;
    size_t running = n < (size_t)*jobs ? (n ? n : 1) : (size_t)*jobs;
    *threads = cores / (int)running > 1 ? cores / (int)running : 1;
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
    util_memory_keep_heap();   // file after file: the freed blocks serve the next
    struct summarize_job job = {.opts = opts, .files = &files};
    int status = job_items(&job, &shard, &e);
    if (status == 0) {
        int jobs;
        job_threads(opts, job.n, &jobs, &job.threads);
        pthread_mutex_init(&job.lock, NULL);
        pool_run(job.n, jobs, summarize_task, &job);
        pthread_mutex_destroy(&job.lock);
        status = job.status;
        if (status)
            outcome_print(&job.outcome);
    } else {
        status = app_fail(&e);
    }
    outcome_fini(&job.outcome);
    hmap_fini(&job.owner);
    free(job.items);
    trace_file_list_fini(&files);
    return status;
}
