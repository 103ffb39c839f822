#include "config.h"
#include "app/rank_summary.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "analysis/collectives.h"
#include "analysis/diff.h"
#include "analysis/ranks.h"
#include "analysis/tiles.h"
#include "app/options.h"
#include "summary/colls_io.h"
#include "summary/tables.h"
#include "summary/tiles_io.h"
#include "util/summary_file_source.h"
#include "util/pool.h"

void app_rank_summary_options(struct semantics *sem, struct analysis_opts *ao)
{
    struct htx_options o;
    memset(&o, 0, sizeof o);
    htx_options_make_canonical(&o);
    htx_options_semantics(&o, sem);
    htx_options_analysis(&o, ao);
}

/* What a summary computes from the loaded model, side by side on the pool:
 * the HTA model (the model under HTA's semantics), the model's busy
 * intervals (for the analyses that take them), the tiles, the collective
 * records, the parts and the analyses, and the analyses on the HTA model,
 * which wait for it (take_task's order). */
enum {
    SUMMARY_HTA_MODEL_TASK,
    SUMMARY_BUSY_TASK,
    SUMMARY_TILES_TASK,
    SUMMARY_COLLS_TASK,
    SUMMARY_RANKS_TASK,
    SUMMARY_DIFF_TASK,
    SUMMARY_FIRST_STORED,
    SUMMARY_FIRST_HTA = SUMMARY_FIRST_STORED + SUMMARY_FILE_NSTORED,
    SUMMARY_NTASKS = SUMMARY_FIRST_HTA + SUMMARY_FILE_NSTORED
};
struct summary_work {
    const struct model *m;
    const struct rank_summary_parts *parts;   /* (its stop) */
    /* the caller's options, each with its model's busy memo (busy.h): its
     * intervals and kernel classes, made once */
    struct analysis_opts ao_htx, ao_hta;
    struct busy_memo busy, hta_busy;
    const char *path;
    struct arena arenas[SUMMARY_FILE_NSTORED];
    struct table_list lists[SUMMARY_FILE_NSTORED];
    struct arena tiles_arena;
    struct tiles tiles;
    struct coll_record *recs;
    size_t nrecs;
    struct arena ranks_arena, diff_arena;
    struct table_list ranks, diff;
    /* The stored analyses under HTA's semantics, on the HTA model (none
     * when it cannot be made: hta_model NULL). */
    struct model *hta_model;
    bool hta_model_made;             /* (once the HTA model is let go) */
    struct arena hta_arenas[SUMMARY_FILE_NSTORED], hta_job_arena;
    struct table_list hta_lists[SUMMARY_FILE_NSTORED], hta_job;
    struct summary_file_deflated z[SUMMARY_NTASKS];   /* each task's tables, deflated */
    pthread_mutex_t lock;            /* over taken, hta_model_done and busy_done */
    pthread_cond_t hta_model_ready;  /* (or the busy intervals) */
    bool taken[SUMMARY_NTASKS], hta_model_done, busy_done;
    int stored_done[SUMMARY_FILE_NSTORED];   /* a stored analysis' tasks done (both: deflate) */
    int rc[SUMMARY_NTASKS];
    struct err errs[SUMMARY_NTASKS];
};

static const struct table_col hta_job_cols[APP_HTA_JOB_COLS] = {
    {"step_names", NULL, 0},
    {"mtia", NULL, 0},
    {"start_ns", NULL, 0},
    {"end_ns", NULL, 0},
};

/* The two facts of a rank on which HTA's selection of a job depends
 * (select.c), its ProfilerStep names and whether it is an MTIA rank; and
 * the span of what HTA selects of it (absolute ns), the TUI's title. */
static int hta_job_table(const struct model *m, struct arena *a, struct table_list *out,
                         struct err *e)
{
    struct table *t = table_list_new(a, out, APP_HTA_JOB_TABLE, "HTA's selection",
                                     hta_job_cols, APP_HTA_JOB_COLS, e);
    struct cell *row = t ? table_add_row(t) : NULL;
    if (!row)
        return t ? err_set(e, ERR_NOMEM, "out of memory") : e->code;
    row[0] = cell_int((int64_t)model_step_names(m));
    row[1] = cell_bool(m->ranks[0].device == DEVICE_MTIA);
    row[2] = cell_int(m->ranks[0].start_ns + m->origin_ns);
    row[3] = cell_int(m->ranks[0].end_ns + m->origin_ns);
    return 0;
}

bool app_hta_job_agrees(const struct table_list *const *per, size_t n)
{
    int64_t steps = 0;
    bool mtia = false;
    for (size_t r = 0; r < n; r++) {
        const struct table *t = table_list_find(per[r], APP_HTA_JOB_TABLE, APP_HTA_JOB_COLS);
        if (!t || t->nrows != 1 || table_cell(t, 0, 0)->type != CELL_INT ||
            table_cell(t, 0, 1)->type != CELL_BOOL)
            return false;
        int64_t s = table_cell(t, 0, 0)->v.i;
        bool m = table_cell(t, 0, 1)->v.b;
        if (r == 0) {
            steps = s;
            mtia = m;
        }
        // Each rank's tables dropped its last step on its own names: the
        // job's union must agree (all two or more, or none at all).
        bool agree = n == 1 || (s >= 2 && steps >= 2) || (s == 0 && steps == 0);
        if (!agree || (steps >= 2 && m != mtia))
            return false;
    }
    return true;
}

/* The HTA model (the model under HTA's semantics), and what its job needs
 * to know of it. ERR_EMPTY (the HTA model cannot be made) leaves the HTA tables out:
 * what needs them reads the events. */
static int hta_model_task(struct summary_work *sw, struct err *e)
{
    struct semantics hta;
    semantics_init(&hta, SEMANTICS_HTA);
    sw->hta_model = model_hta_new(sw->m, &hta, e);
    if (!sw->hta_model) {
        if (e->code != ERR_EMPTY)
            return e->code;
        err_clear(e);
        return 0;
    }
    if (busy_memo_build(&sw->hta_busy, sw->hta_model, &sw->ao_hta, &sw->hta_model->ranks[0]))
        return err_set(e, ERR_NOMEM, "%s: out of memory for its busy time", sw->path);
    return hta_job_table(sw->hta_model, &sw->hta_job_arena, &sw->hta_job, e);
}

static int run_stored(const struct model *m, const struct analysis_opts *ao, size_t k,
                      struct arena *a, struct table_list *out, struct err *e)
{
    analysis_fn run = summary_file_stored_run(summary_file_stored_analyses[k]);
    return run ? run(m, ao, a, out, e) : err_set(e, ERR_INTERNAL, "no analysis");
}

/* The tables a task other than the stored analyses' made, and under which
 * semantics and number they are stored; NULL for the tiles and records,
 * and for an HTA model not made. */
static const struct table_list *task_tables(const struct summary_work *sw, size_t i, int *sem,
                                            int *an)
{
    *sem = i == SUMMARY_HTA_MODEL_TASK ? SEMANTICS_HTA : SEMANTICS_HTX;
    if (i == SUMMARY_HTA_MODEL_TASK) {
        *an = SUMMARY_FILE_HTA_JOB;
        return sw->hta_model_made || sw->hta_model ? &sw->hta_job : NULL;
    }
    *an = i == SUMMARY_RANKS_TASK ? SUMMARY_FILE_RANKS_PARTS : SUMMARY_FILE_DIFF_PARTS;
    return i == SUMMARY_RANKS_TASK ? &sw->ranks : i == SUMMARY_DIFF_TASK ? &sw->diff : NULL;
}

static int compute_task(struct summary_work *sw, size_t i);

/* Stored analysis k's tables under both semantics, in one section (so
 * their names deflate once), or under htx's alone when the HTA model was
 * not made; in z[SUMMARY_FIRST_STORED + k]. */
static void deflate_stored(struct summary_work *sw, size_t k)
{
    size_t i = SUMMARY_FIRST_STORED + k, h = SUMMARY_FIRST_HTA + k;
    int an = (int)summary_file_stored_analyses[k];
    if (sw->rc[i] < 0 || sw->rc[h] < 0)
        return;
    if (sw->hta_model)
        summary_file_tables_deflate_pair(an, &sw->lists[k], &sw->hta_lists[k], &sw->z[i]);
    else
        summary_file_tables_deflate(SEMANTICS_HTX, an, &sw->lists[k], &sw->z[i]);
}

/* Each task deflates the tables it made, on its own thread (the writer then
 * only appends them); a stored analysis' two tasks, the second of them. */
static int summary_task(void *ctx, size_t i)
{
    struct summary_work *sw = ctx;
    int stopped = compute_task(sw, i);
    if (i >= SUMMARY_FIRST_STORED) {
        size_t k = (i - SUMMARY_FIRST_STORED) % SUMMARY_FILE_NSTORED;
        pthread_mutex_lock(&sw->lock);
        bool second = ++sw->stored_done[k] == 2;
        pthread_mutex_unlock(&sw->lock);
        if (second)
            deflate_stored(sw, k);
        return stopped;
    }
    int sem, an;
    const struct table_list *l = task_tables(sw, i, &sem, &an);
    if (sw->rc[i] == 0 && l)
        summary_file_tables_deflate(sem, an, l, &sw->z[i]);
    return stopped;
}

/* Appends task i's tables to w, deflated or (short of memory) plain. */
static void put_task_tables(struct summary_file_writer *w, struct summary_work *sw, size_t i)
{
    int sem, an;
    const struct table_list *l = task_tables(sw, i, &sem, &an);
    if (l)
        summary_file_tables_put(w, sem, an, l, &sw->z[i]);
}

static void put_stored_tables(struct summary_file_writer *w, struct summary_work *sw, size_t k)
{
    size_t i = SUMMARY_FIRST_STORED + k;
    int an = (int)summary_file_stored_analyses[k];
    if (sw->hta_model_made)
        summary_file_tables_put_pair(w, an, &sw->lists[k], &sw->hta_lists[k], &sw->z[i]);
    else
        summary_file_tables_put(w, SEMANTICS_HTX, an, &sw->lists[k], &sw->z[i]);
}

static int compute_task(struct summary_work *sw, size_t i)
{
    if (i == SUMMARY_HTA_MODEL_TASK) {
        sw->rc[i] = hta_model_task(sw, &sw->errs[i]);
        return sw->rc[i] < 0;
    }
    if (i == SUMMARY_BUSY_TASK) {
        sw->rc[i] = busy_memo_build(&sw->busy, sw->m, &sw->ao_htx, &sw->m->ranks[0]);
        if (sw->rc[i])
            err_set(&sw->errs[i], ERR_NOMEM, "%s: out of memory for its busy time", sw->path);
        return sw->rc[i] < 0;
    }
    if (i >= SUMMARY_FIRST_HTA) {
        size_t k = i - SUMMARY_FIRST_HTA;
        sw->rc[i] = sw->hta_model ? run_stored(sw->hta_model, &sw->ao_hta, k, &sw->hta_arenas[k],
                                               &sw->hta_lists[k], &sw->errs[i])
                                  : 0;
        return sw->rc[i] < 0;
    }
    if (i == SUMMARY_TILES_TASK) {
        sw->rc[i] = tiles_build(sw->m, &sw->m->ranks[0], &sw->ao_htx, false, &sw->tiles_arena,
                                &sw->tiles);
        if (sw->rc[i] == 0)
            summary_file_tiles_deflate(&sw->tiles, &sw->z[i]);
        if (sw->rc[i] == 0 && !sw->z[i].z)
            sw->rc[i] = ERR_NOMEM;
        if (sw->rc[i])
            err_set(&sw->errs[i], ERR_NOMEM, "%s: out of memory for its tiles", sw->path);
        return sw->rc[i] < 0;
    }
    if (i == SUMMARY_DIFF_TASK) {
        sw->rc[i] = diff_parts_run(sw->m, &sw->ao_htx, &sw->diff_arena, &sw->diff, &sw->errs[i]);
        return sw->rc[i] < 0;
    }
    if (i == SUMMARY_RANKS_TASK) {
        sw->rc[i] =
            ranks_parts_run(sw->m, &sw->ao_htx, &sw->ranks_arena, &sw->ranks, &sw->errs[i]);
        return sw->rc[i] < 0;
    }
    if (i == SUMMARY_COLLS_TASK) {
        const struct model *m = sw->m;
        sw->rc[i] = coll_records(m, &sw->ao_htx, &sw->recs, &sw->nrecs);
        if (sw->rc[i] == 0)
            summary_file_colls_deflate(m->ranks[0].rank, m->has_origin ? &m->origin_ns : NULL,
                                       &m->strings, sw->recs, sw->nrecs, &sw->z[i]);
        if (sw->rc[i] == 0 && !sw->z[i].z)
            sw->rc[i] = ERR_NOMEM;
        if (sw->rc[i])
            err_set(&sw->errs[i], ERR_NOMEM, "%s: out of memory for its collectives", sw->path);
        return sw->rc[i] < 0;
    }
    size_t k = i - SUMMARY_FIRST_STORED;
    sw->rc[i] = run_stored(sw->m, &sw->ao_htx, k, &sw->arenas[k], &sw->lists[k], &sw->errs[i]);
    return sw->rc[i] < 0;
}

/* Whether task t's inputs are made: the HTA model's analyses wait for the HTA model
 * (and its busy memo, made with it), every other task for the model's busy
 * memo: its intervals, and its kernel classes (busy_classes_init). */
static bool task_ready(const struct summary_work *sw, size_t t)
{
    if (t == SUMMARY_HTA_MODEL_TASK || t == SUMMARY_BUSY_TASK)
        return true;
    return t >= SUMMARY_FIRST_HTA ? sw->hta_model_done : sw->busy_done;
}

/* The next task to run: the first of this order not taken whose inputs are
 * made, and a wait when there is none. The HTA model and the model's busy
 * intervals first; the HTA model's analyses as soon as it is made (the longest
 * first, as they come last); the model's own tasks meanwhile, the longest
 * first (the diff's parts early: on a small rank, deflating their table is
 * the longest task of all). So no core idles between the two models' work. */
static size_t take_task(struct summary_work *sw)
{
    static const size_t order[] = {
        SUMMARY_HTA_MODEL_TASK,         SUMMARY_BUSY_TASK,
        SUMMARY_FIRST_HTA + 1,     SUMMARY_FIRST_HTA + 3,
        SUMMARY_FIRST_HTA + 0,     SUMMARY_FIRST_HTA + 2,
        SUMMARY_TILES_TASK,        SUMMARY_DIFF_TASK,
        SUMMARY_FIRST_STORED + 1,  SUMMARY_FIRST_STORED + 3,
        SUMMARY_FIRST_STORED + 0,  SUMMARY_FIRST_STORED + 2,
        SUMMARY_RANKS_TASK,        SUMMARY_COLLS_TASK,
    };
    _Static_assert(sizeof order / sizeof order[0] == SUMMARY_NTASKS, "every task in the order");
    size_t t = SUMMARY_NTASKS;
    pthread_mutex_lock(&sw->lock);
    while (t == SUMMARY_NTASKS) {
        for (size_t i = 0; t == SUMMARY_NTASKS && i < SUMMARY_NTASKS; i++)
            t = sw->taken[order[i]] || !task_ready(sw, order[i]) ? t : order[i];
        if (t == SUMMARY_NTASKS)
            pthread_cond_wait(&sw->hta_model_ready, &sw->lock);
    }
    sw->taken[t] = true;
    pthread_mutex_unlock(&sw->lock);
    return t;
}

static int queued_task(void *ctx, size_t i)
{
    (void)i;   // (which task is take_task's choice)
    struct summary_work *sw = ctx;
    size_t t = take_task(sw);
    int stopped = 1;
    if (sw->parts->stop && sw->parts->stop(sw->parts->stop_ctx))
        sw->rc[t] = err_set(&sw->errs[t], ERR_CANCEL, "%s: stopped", sw->path);
    else
        stopped = summary_task(sw, t);
    if (t == SUMMARY_HTA_MODEL_TASK || t == SUMMARY_BUSY_TASK) {
        pthread_mutex_lock(&sw->lock);
        sw->hta_model_done |= t == SUMMARY_HTA_MODEL_TASK;
        sw->busy_done |= t == SUMMARY_BUSY_TASK;
        pthread_cond_broadcast(&sw->hta_model_ready);
        pthread_mutex_unlock(&sw->lock);
    }
    return stopped;
}

/* 0, or the first failure's error in e. */
static int run_summary_work(struct summary_work *sw, int threads, struct err *e)
{
    pthread_mutex_init(&sw->lock, NULL);
    pthread_cond_init(&sw->hta_model_ready, NULL);
    pool_run(SUMMARY_NTASKS, threads, queued_task, sw);
    pthread_cond_destroy(&sw->hta_model_ready);
    pthread_mutex_destroy(&sw->lock);
    sw->hta_model_made = sw->hta_model != NULL;
    busy_memo_fini(&sw->busy);
    busy_memo_fini(&sw->hta_busy);
    model_hta_free(sw->hta_model);   // (the HTA model's tables are made)
    sw->hta_model = NULL;
    for (size_t i = 0; i < SUMMARY_NTASKS; i++)
        if (sw->rc[i] < 0) {
            *e = sw->errs[i];
            return sw->rc[i];
        }
    return 0;
}

/* The names r's thread lanes have (as model/select.c gives them). */
static void put_thread_names(struct summary_file_writer *w, const struct model *m,
                             const struct rank_model *r)
{
    struct summary_thread_name *v = calloc(r->nthreads + 1, sizeof *v);
    size_t n = 0;
    if (!v) {
        w->failed = 1;
        return;
    }
    for (size_t i = 0; i < r->nthreads; i++)
        if (r->threads[i].name)
            v[n++] = (struct summary_thread_name){model_str(m, r->threads[i].pid),
                                                  model_str(m, r->threads[i].tid),
                                                  model_str(m, r->threads[i].name)};
    summary_file_threads_write(w, v, n);
    free(v);
}

int app_rank_summary(const struct model *m, const struct analysis_opts *ao, int threads,
                     const struct rank_summary_parts *parts, const char *source_path,
                     struct summary_file_writer *w, struct err *e)
{
    if (m->nranks != 1)
        return err_set(e, ERR_PARSE, "%s: not one rank", source_path);
    if (m->ranks[0].rank < 0)
        return err_set(e, ERR_PARSE, "%s: no rank number", source_path);
    struct summary_work sw = {.m = m, .parts = parts, .ao_htx = *ao, .ao_hta = *ao,
                              .path = source_path};
    sw.ao_htx.busy_memo = &sw.busy;
    sw.ao_hta.busy_memo = &sw.hta_busy;
    for (size_t i = 0; i < SUMMARY_FILE_NSTORED; i++)
        arena_init(&sw.arenas[i], 1 << 20);
    arena_init(&sw.tiles_arena, 1 << 20);
    arena_init(&sw.ranks_arena, 1 << 16);
    arena_init(&sw.diff_arena, 1 << 16);
    for (size_t i = 0; i < SUMMARY_FILE_NSTORED; i++)
        arena_init(&sw.hta_arenas[i], 1 << 20);
    arena_init(&sw.hta_job_arena, 1 << 10);
    int rc = run_summary_work(&sw, threads, e);
    for (size_t i = 0; i < SUMMARY_FILE_NSTORED && rc == 0; i++)
        put_stored_tables(w, &sw, i);
    if (rc == 0) {
        put_task_tables(w, &sw, SUMMARY_RANKS_TASK);
        put_task_tables(w, &sw, SUMMARY_DIFF_TASK);
        put_task_tables(w, &sw, SUMMARY_HTA_MODEL_TASK);
        const struct rank_model *r = &m->ranks[0];
        struct summary_file_rank rank = {.rank = r->rank, .events = r->complete_events};
        snprintf(rank.path, sizeof rank.path, "%s", r->path);
        summary_file_rank_write(w, &rank);
        struct trust_rank facts;
        trust_rank_of(m, r, &facts);
        summary_file_trust_write(w, &facts);
        summary_file_put_deflated_section(w, &sw.z[SUMMARY_TILES_TASK]);   // (made: rc == 0)
        put_thread_names(w, m, r);
        summary_file_put_deflated_section(w, &sw.z[SUMMARY_COLLS_TASK]);
        const uint8_t *bytes = parts->events;
        size_t len = parts->events_len;
        if (parts->pack)
            rc = trace_pack_finish(parts->pack, &bytes, &len, e);
        if (rc == 0 && bytes) {
            summary_file_begin_section(w, SUMMARY_FILE_EVENTS);
            summary_file_put_borrowed(w, bytes, len);
            summary_file_end_section(w);
        }
        if (rc == 0)
            summary_file_source_write(w, parts->source);
    }
    for (size_t i = 0; i < SUMMARY_FILE_NSTORED; i++)
        arena_fini(&sw.arenas[i]);
    arena_fini(&sw.tiles_arena);
    arena_fini(&sw.ranks_arena);
    arena_fini(&sw.diff_arena);
    for (size_t i = 0; i < SUMMARY_FILE_NSTORED; i++)
        arena_fini(&sw.hta_arenas[i]);
    arena_fini(&sw.hta_job_arena);
    for (size_t i = 0; i < SUMMARY_NTASKS; i++)
        free(sw.z[i].z);   // (those not put: a failure)
    free(sw.recs);
    return rc;
}
