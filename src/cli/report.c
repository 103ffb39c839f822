#include "config.h"
#include "cli/commands.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/busy.h"
#include "analysis/trust.h"
#include "app/session.h"
#include "util/clock.h"
#include "util/pool.h"

/* `htx report`: runs the analyses --analysis names (all by default) over
 * the selection, then writes every table at once, so an analysis that fails
 * leaves stdout empty. */

static void output_opts(const struct htx_options *opts, struct format_opts *fo)
{
    format_opts_default(fo);
    fo->ascii = opts->ascii;
    fo->short_names = opts->short_names;
}

/* The chosen analyses run side by side on --threads threads (they only
 * read the model; each has its own arena, list and error) while the sum of
 * their memories (struct analysis_info) stays within the largest one's,
 * and each one's tables are written as soon as those before them are, then
 * freed: at most the running analyses and the finished ones waiting for an
 * earlier one hold memory. The output keeps the report's order whatever
 * finishes first. */
struct analysis_job {
    const struct analysis_info *a;
    struct arena arena;
    struct table_list list;
    struct err err;
    int rc;
    bool started, done;
    unsigned memory;              /* what it counts for in run->memory while it runs */
    double began, ended;          /* --timings: its run, util_seconds() */
    double cpu;                   /* --timings: its thread's CPU seconds */
};

struct analysis_run {
    const struct model *m;
    const struct analysis_opts *ao;      /* with the busy memos */
    const struct analysis_opts *ao_own;  /* without: for those that do not share them */
    const struct htx_options *opts;
    struct analysis_job *jobs;
    size_t njobs;
    const size_t *order;          /* jobs by cost, the costliest first */
    pthread_mutex_t lock;
    pthread_cond_t ended;         /* a job ended: its memory is free */
    unsigned memory;              /* the running jobs' (struct analysis_info) */
    size_t running;               /* jobs started and not ended */
    unsigned budget;              /* the largest job's */
    bool rows_kept;               /* the format writes every row (CSV, JSON) */
    struct busy_memo_set *memos;  /* the ranks' busy intervals, made as first asked */
    size_t busy_readers;          /* jobs that read them not yet ended */
    bool memos_counted;           /* in memory: a job that reads them has started */
    size_t next;                  /* the first job not being or been written */
    bool writing;                 /* a thread is in drain, writing */
    struct report_writer *rw;
    bool write_failed;            /* touched by the writing thread only */
};

/* Moves the list's tables into an arena of their own and frees the one the
 * analysis ran in, with its scratch (a launch table's join, the memory
 * bandwidth series), for tables that wait for an earlier analysis. */
static int keep_tables_only(struct table_list *l, struct arena *a)
{
    struct arena kept;
    arena_init(&kept, 0);
    struct table *copies[TABLE_LIST_MAX];
    for (size_t t = 0; t < l->count; t++)
        if (!(copies[t] = table_copy(&kept, l->tables[t]))) {
            arena_fini(&kept);
            return ERR_NOMEM;
        }
    memcpy(l->tables, copies, l->count * sizeof copies[0]);
    arena_fini(a);
    *a = kept;
    return 0;
}

static void write_job(struct analysis_run *run, struct analysis_job *j)
{
    bool lead = report_leads_the_text(run->opts, j->a->id);
    for (size_t t = 0; t < j->list.count && !run->write_failed; t++)
        if ((lead && t > 0 ? report_defer(run->rw, j->list.tables[t])
                           : report_add(run->rw, j->list.tables[t])) < 0)
            run->write_failed = true;
}

/* Called and returns under the lock: writes and frees every finished job
 * from run->next on, in order, unless another thread is writing (it will
 * write this job too). The lock is let go while a table is written (a
 * launch table takes long), so that the other thread can start its next
 * analysis meanwhile. */
static void drain(struct analysis_run *run)
{
    if (run->writing)
        return;
    run->writing = true;
    while (run->next < run->njobs && run->jobs[run->next].done) {
        struct analysis_job *j = &run->jobs[run->next++];
        pthread_mutex_unlock(&run->lock);
        if (j->rc == 0)
            write_job(run, j);
        arena_fini(&j->arena);
        j->list.count = 0;
        pthread_mutex_lock(&run->lock);
    }
    run->writing = false;
}

/* Under the lock: whether every job before k has been started (then one
 * whose tables grow with the events holds them only briefly). */
static bool earlier_started(const struct analysis_run *run, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (!run->jobs[i].started)
            return false;
    return true;
}

/* Whether analysis id shares the busy memos: those that read the busy
 * intervals (busy_merged_each); the first to run makes them, and the
 * others start next (pick_job), so that they are freed soon. The findings
 * make their own. */
static bool reads_busy(enum analysis_id id)
{
    return id == ANALYSIS_TEMPORAL || id == ANALYSIS_KERNELS || id == ANALYSIS_OVERLAP;
}

/* Under the lock: the memory job k would add beside those running: its
 * own, and the busy memos' when it is the first to read them. */
static unsigned job_memory(const struct analysis_run *run, size_t k)
{
    const struct analysis_info *a = run->jobs[k].a;
    return a->memory + (run->rows_kept ? a->rows_memory : 0) +
           (reads_busy(a->id) && !run->memos_counted ? BUSY_MEMO_MEMORY : 0);
}

/* Under the lock: starts job k when it fits beside those running (alone,
 * any job fits) and, if it keeps a row an event, those before it have
 * started (then its tables wait little). */
static bool try_start(struct analysis_run *run, size_t k)
{
    struct analysis_job *j = &run->jobs[k];
    unsigned more = job_memory(run, k);
    if (j->started || (run->running && run->memory + more > run->budget))
        return false;
    if (run->rows_kept && j->a->rows_memory && !earlier_started(run, k))
        return false;
    j->started = true;
    j->memory = more - (reads_busy(j->a->id) && !run->memos_counted ? BUSY_MEMO_MEMORY : 0);
    run->memory += more;
    run->running++;
    run->memos_counted |= reads_busy(j->a->id);
    return true;
}

/* Under the lock: the job a free thread starts, or SIZE_MAX when none
 * fits beside those running (then one of them is running). Once the busy
 * memos are made, the others that read them, so that they are freed soon;
 * else the costliest that fits first (run->order): the long ones start
 * early, the short ones fill in beside them. */
static size_t pick_job(struct analysis_run *run)
{
    for (size_t k = 0; k < run->njobs && run->memos_counted && run->busy_readers; k++)
        if (reads_busy(run->jobs[k].a->id) && try_start(run, k))
            return k;
    for (size_t o = 0; o < run->njobs; o++)
        if (try_start(run, run->order[o]))
            return run->order[o];
    return SIZE_MAX;
}

/* A pool task: one analysis (the pool calls it once per job). An analysis
 * that fails stops the handing out of the rest: the report will not be
 * written. */
static int analysis_task(void *ctx, size_t unused)
{
    (void)unused;
    struct analysis_run *run = ctx;
    pthread_mutex_lock(&run->lock);
    size_t i;
    while ((i = pick_job(run)) == SIZE_MAX)
        pthread_cond_wait(&run->ended, &run->lock);
    pthread_mutex_unlock(&run->lock);
    struct analysis_job *j = &run->jobs[i];
    j->began = util_seconds();
    double cpu0 = util_thread_cpu_seconds();
    j->rc = j->a->run(run->m, reads_busy(j->a->id) ? run->ao : run->ao_own, &j->arena, &j->list,
                      &j->err);
    if (j->rc == 0 && run->opts->semantics == SEMANTICS_HTX &&
        report_triage_kernel_tables(&j->list, &j->arena) < 0)
        j->rc = err_set(&j->err, ERR_NOMEM, "out of memory");
    j->ended = util_seconds();
    j->cpu = util_thread_cpu_seconds() - cpu0;
    pthread_mutex_lock(&run->lock);
    bool waits = run->next != i;
    pthread_mutex_unlock(&run->lock);
    if (j->rc == 0 && waits && keep_tables_only(&j->list, &j->arena) < 0)
        j->rc = err_set(&j->err, ERR_NOMEM, "out of memory");
    pthread_mutex_lock(&run->lock);
    j->done = true;
    if (reads_busy(j->a->id) && --run->busy_readers == 0) {
        busy_memo_set_release(run->memos);   // their memory for the analyses left
        run->memory -= BUSY_MEMO_MEMORY;
    }
    drain(run);
    /* after the drain: a table being written still holds its memory */
    run->memory -= j->memory;
    run->running--;
    pthread_cond_broadcast(&run->ended);
    pthread_mutex_unlock(&run->lock);
    return j->rc < 0;
}

/* order[0..n): the jobs' indices by cost descending, ties in report
 * order. */
static void order_by_cost(const struct analysis_job *jobs, size_t n, size_t *order)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = i;
        for (; k > 0 && jobs[order[k - 1]].a->cost < jobs[i].a->cost; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
}

/* --timings: when each analysis ran. */
struct timing {
    const char *name;
    double began, ended, cpu;
};

/* Runs the analyses --analysis names into rw (the findings read trust, the
 * report's own; the busy intervals are made once a rank for those that
 * share them), saying when each ran in times[0..*ntimes). Returns 0, or an
 * error in e (the first failing analysis in report order, or a write
 * error). */
static int run_analyses(const struct model *m, const struct htx_options *opts,
                        const struct trust_report *trust, struct report_writer *rw,
                        struct timing *times, size_t *ntimes, struct err *e)
{
    struct analysis_opts ao;
    htx_options_analysis(opts, &ao);
    ao.trust = trust;
    if (opts->format == HTX_FORMAT_TEXT)   // it shows only the largest launches
        ao.launch_top_rows = REPORT_LAUNCH_TEXT_ROWS;
    struct analysis_opts ao_own = ao;
    struct busy_memo_set memos;
    if (busy_memo_set_init(&memos, m, &ao) < 0)
        return err_set(e, ERR_NOMEM, "report: out of memory");
    ao.busy_memos = &memos;
    size_t count;
    const struct analysis_info *all = analysis_list(&count);
    struct analysis_job jobs[ANALYSIS_COUNT];
    size_t njobs = 0;
    for (size_t lead = 2; lead-- > 0;)   /* the text's leading analysis, then the rest */
        for (size_t i = 0; i < count; i++)
            if (opts->analyses[all[i].id] && report_leads_the_text(opts, all[i].id) == (lead == 1)) {
                jobs[njobs] = (struct analysis_job){.a = &all[i], .err = {0, ""}};
                arena_init(&jobs[njobs].arena, 1 << 20);
                njobs++;
            }
    size_t order[ANALYSIS_COUNT];
    order_by_cost(jobs, njobs, order);
    struct analysis_run run = {m, &ao, &ao_own, opts, jobs, njobs, order, PTHREAD_MUTEX_INITIALIZER,
                               PTHREAD_COND_INITIALIZER, 0, 0, 0, opts->format != HTX_FORMAT_TEXT,
                               &memos, 0, false, 0, false, rw, false};
    for (size_t k = 0; k < njobs; k++) {
        run.busy_readers += reads_busy(jobs[k].a->id);
        unsigned memory = jobs[k].a->memory + (run.rows_kept ? jobs[k].a->rows_memory : 0) +
                          (reads_busy(jobs[k].a->id) ? BUSY_MEMO_MEMORY : 0);
        if (memory > run.budget)
            run.budget = memory;
    }
    pool_run(njobs, opts->threads, analysis_task, &run);
    busy_memo_set_fini(&memos);
    for (size_t k = 0; k < njobs; k++)
        times[k] = (struct timing){jobs[k].a->name, jobs[k].began, jobs[k].ended, jobs[k].cpu};
    *ntimes = njobs;
    int rc = 0;
    for (size_t k = 0; k < njobs; k++) {
        if (rc == 0 && jobs[k].rc < 0) {
            *e = jobs[k].err;
            err_prefix(e, "report: %s", jobs[k].a->name);
            rc = jobs[k].rc;
        }
        arena_fini(&jobs[k].arena);
    }
    if (rc == 0 && (run.write_failed || run.next < njobs))
        rc = err_set(e, ERR_NOMEM, "report: cannot build the output");
    return rc;
}

/* The kernel types and the overlap are the tables a job whose collectives go
 * unrecognised gets wrong: say so once, on stderr. */
static int warn_comm_missing(const struct model *m, const struct htx_options *opts,
                             struct err *e)
{
    if (!opts->analyses[ANALYSIS_KERNELS] && !opts->analyses[ANALYSIS_OVERLAP])
        return 0;
    struct analysis_opts ao;
    htx_options_analysis(opts, &ao);
    bool missing = false;
    if (analysis_comm_missing(m, &ao, &missing) < 0)
        return err_set(e, ERR_NOMEM, "report: out of memory");
    if (missing)
        app_warn("%s", ANALYSIS_COMM_MISSING_HINT);
    return 0;
}

/* --timings on stderr: the load, the analyses (with the writing of their
 * tables, which runs beside them) against it, each analysis from the
 * analyses' start, and the output's copy to stdout. */
static void print_timings(double start, double loaded, double analysed, double out,
                          const struct timing *times, size_t n)
{
    double load = loaded - start, analyses = analysed - loaded;
    fprintf(stderr, "htx: timings: load %.3f s\n", load);
    fprintf(stderr, "htx: timings: analyses %.3f s, %.3fx the load (their tables written as "
            "they finish, on %zu analyses)\n", analyses, load > 0 ? analyses / load : 0.0, n);
    for (size_t k = 0; k < n; k++)
        fprintf(stderr, "htx: timings:   %-12s %.3f s from %.3f s, cpu %.3f s\n", times[k].name,
                times[k].ended - times[k].began, times[k].began - loaded, times[k].cpu);
    fprintf(stderr, "htx: timings: output %.3f s\n", out - analysed);
}

int cli_report_main(const struct htx_options *opts)
{
    struct err e = {0, ""};
    double start = util_seconds();
    struct model *m = app_open(opts, &e);
    if (!m)
        return app_fail(&e);
    double loaded = util_seconds(), analysed = loaded;
    struct timing times[ANALYSIS_COUNT];
    size_t ntimes = 0;
    struct app_out out = {0};
    struct report_inputs in = {0};
    struct trust_report trust;
    int rc = warn_comm_missing(m, opts, &e);
    if (!rc && report_inputs_of(m, &in, &trust) < 0)
        rc = err_set(&e, ERR_NOMEM, "report: out of memory");
    if (!rc)
        rc = app_out_open(&out, &e);
    if (!rc) {
        struct format_opts fo;
        output_opts(opts, &fo);
        struct report_writer rw;
        report_begin(&rw, out.f, &in, opts, &fo);
        rc = run_analyses(m, opts, &trust, &rw, times, &ntimes, &e);
        if (report_end(&rw) < 0 && !rc)
            rc = err_set(&e, ERR_NOMEM, "report: cannot build the output");
        analysed = util_seconds();
        if (rc)
            app_out_discard(&out);
        else
            rc = app_out_commit(&out, stdout, &e);
    }
    if (!rc && opts->timings)
        print_timings(start, loaded, analysed, util_seconds(), times, ntimes);
    free((void *)in.ranks);
    model_free(m);
    return rc ? app_fail(&e) : 0;
}
