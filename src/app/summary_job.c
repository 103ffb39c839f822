#include "config.h"
#include "app/summary_job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/clocks.h"
#include "analysis/kernels.h"
#include "app/rank_summary.h"
#include "app/session.h"
#include "summary/tiles_io.h"
#include "util/summary_file_source.h"
#include "util/pool.h"
#include "util/sort.h"

static int stored_index(int analysis)
{
    for (int k = 0; k < SUMMARY_FILE_NSTORED; k++)
        if ((int)summary_file_stored_analyses[k] == analysis)
            return k;
    return -1;
}

/* A section a summary made before it was does not have (ERR_EMPTY: the
 * others still answer): *has says whether it is there; one of another
 * rank (*rank, read once rc is known) than the summary's is refused. */
static int optional(int rc, const struct summary_job_rank *r, const int64_t *rank,
                    const char *what, bool *has, struct err *e)
{
    *has = rc == 0;
    if (rc == 0 && *rank != r->rank.rank)
        return err_set(e, ERR_PARSE, "%s: %s of rank %lld in the summary of rank %lld", r->file,
                       what, (long long)*rank, (long long)r->rank.rank);
    if (rc == ERR_EMPTY) {
        err_clear(e);
        return 0;
    }
    return rc;
}

/* The semantics of the stored tables l reads. */
static enum semantics_mode summary_semantics(const struct summary_job *l)
{
    return l->want & SUMMARY_JOB_HTA ? SEMANTICS_HTA : SEMANTICS_HTX;
}

/* Whether l wants the tables of analysis an (stored index k) under
 * semantics sem. */
static bool wants_tables(const struct summary_job *l, int sem, int an, int k)
{
    int wanted = (int)summary_semantics(l);
    if (k >= 0)
        return sem == wanted && (l->want & SUMMARY_JOB_TABLE(k)) != 0;
    if (an == SUMMARY_FILE_HTA_JOB)
        return sem == SEMANTICS_HTA && wanted == SEMANTICS_HTA;
    if (sem != SEMANTICS_HTX)
        return false;
    return an == SUMMARY_FILE_RANKS_PARTS   ? (l->want & SUMMARY_JOB_RANK_PARTS) != 0
           : an == SUMMARY_FILE_DIFF_PARTS ? (l->want & SUMMARY_JOB_DIFF_PARTS) != 0
                                    : false;
}

/* One summary, checked whole: its record, and what l wants of its stored
 * tables under htx's semantics, its tiles and its collective records; the
 * document is let go (its events stay on disk). A tables section tagged
 * with what it holds is skipped unread when it is not wanted. */
/* The rank's tiles, in l's arena: as stored, or fitted to l's share (read
 * into scratch, then coarsened into l's arena). */
static int read_tiles(struct summary_job *l, struct summary_job_rank *r, const struct summary_file_doc *doc,
                      struct err *e)
{
    struct arena scratch;
    arena_init(&scratch, 1 << 16);
    int rc = summary_file_tiles_read(doc, r->file, l->tiles_share ? &scratch : &r->arena, &r->tiles, e);
    rc = optional(rc, r, &r->tiles.rank, "tiles", &r->has_tiles, e);
    if (rc == 0 && r->has_tiles && l->tiles_share) {
        struct tiles fitted;
        if (tiles_fit(&r->tiles, l->tiles_share, &r->arena, &fitted))
            rc = err_set(e, ERR_NOMEM, "%s: out of memory for its tiles", r->file);
        r->tiles = fitted;
    }
    arena_fini(&scratch);
    return rc;
}

static int read_rank(struct summary_job *l, struct summary_job_rank *r, bool warn_stale,
                     struct err *e)
{
    struct summary_file_doc doc;
    int rc = summary_file_load_file_sparse(&doc, r->file, SUMMARY_FILE_EVENTS, e);   // the events stay on disk
    if (rc)
        return rc;
    struct summary_file_source src;
    rc = summary_file_rank_read(&doc, r->file, &r->rank, e);
    if (rc == 0)
        rc = summary_file_trust_read(&doc, r->file, &r->trust, r->pgs, &r->has_trust, e);
    if (rc == 0)
        rc = summary_file_source_read(&src, &doc, r->file, e);
    if (rc == 0 && warn_stale && summary_file_source_check(&src, false) == SUMMARY_FILE_STALE)
        app_warn("%s: stale: %s changed since the summary was made (htx summarize again)",
                 r->file, src.path);
    for (uint32_t s = 0; s < doc.nsections && rc == 0; s++) {
        const struct summary_file_section *sec = &doc.sections[s];
        if (!summary_file_is_tables(sec))
            continue;
        int want = (int)summary_semantics(l);
        if (sec->tag) {   // (0: made before tags: read to know)
            int tag_an = (int)((sec->tag - 1) & 0xffff), tag_sem = (int)((sec->tag - 1) >> 16);
            if (!wants_tables(l, tag_sem == SUMMARY_FILE_BOTH_SEMANTICS ? want : tag_sem, tag_an,
                              stored_index(tag_an)))
                continue;
        }
        struct table_list tl = {.count = 0};
        int sem, an;
        rc = summary_file_tables_read(sec, r->file, &r->arena, want, &sem, &an, &tl, e);
        int k = stored_index(an);
        if (rc == 0 && !wants_tables(l, sem, an, k))
            continue;
        if (rc == 0 && an == SUMMARY_FILE_HTA_JOB && !r->has_hta_job) {
            r->hta_job = tl;
            r->has_hta_job = true;
        }
        if (rc == 0 && k >= 0 && !r->has_tables[k]) {
            r->tables[k] = tl;
            r->has_tables[k] = true;
        }
        if (rc == 0 && sem == 0 && an == SUMMARY_FILE_RANKS_PARTS && !r->has_rank_parts) {
            r->rank_parts = tl;
            r->has_rank_parts = true;
        }
        if (rc == 0 && sem == 0 && an == SUMMARY_FILE_DIFF_PARTS && tl.count == 1 && !r->diff_parts)
            r->diff_parts = tl.tables[0];
    }
    if (rc == 0 && (l->want & SUMMARY_JOB_TILES))
        rc = read_tiles(l, r, &doc, e);
    if (rc == 0 && (l->want & SUMMARY_JOB_TILES)) {
        rc = summary_file_threads_read(&doc, r->file, &r->arena, &r->thread_names,
                                       &r->nthread_names, e);
        if (rc == ERR_EMPTY) {   // made before they were: the lanes unnamed
            err_clear(e);
            rc = 0;
        }
    }
    if (rc == 0 && (l->want & SUMMARY_JOB_COLLS))
        rc = optional(summary_file_colls_read(&doc, r->file, &r->arena, &r->colls, e), r, &r->colls.rank,
                      "collectives", &r->has_colls, e);
    summary_file_doc_fini(&doc);
    return rc;
}

static int by_rank(const void *a, const void *b)
{
    const struct summary_job_rank *x = a, *y = b;
    return (x->rank.rank > y->rank.rank) - (x->rank.rank < y->rank.rank);
}

size_t summary_job_tiles_budget(uint64_t memory_limit)
{
    return memory_limit && memory_limit / 4 < SUMMARY_JOB_TILES_MAX ? (size_t)(memory_limit / 4)
                                                                    : SUMMARY_JOB_TILES_MAX;
}

struct reading {
    struct summary_job *l;
    bool warn_stale;
    int *rc;
    struct err *errs;
};

static int read_task(void *ctx, size_t i)
{
    struct reading *rd = ctx;
    rd->rc[i] = read_rank(rd->l, &rd->l->ranks[i], rd->warn_stale, &rd->errs[i]);
    return rd->rc[i] != 0;
}

int summary_job_open(struct summary_job *l, char **files, size_t n, unsigned want, bool warn_stale,
                     size_t tiles_budget, struct err *e)
{
    memset(l, 0, sizeof *l);
    l->want = want;
    size_t share = n ? tiles_budget / n : tiles_budget;
    l->tiles_share = tiles_budget && share == 0 ? 1 : share;   // 0: no budget
    arena_init(&l->arena, 1 << 16);
    l->ranks = calloc(n ? n : 1, sizeof *l->ranks);
    struct reading rd = {l, warn_stale, calloc(n ? n : 1, sizeof *rd.rc),
                         calloc(n ? n : 1, sizeof *rd.errs)};
    if (!l->ranks || !rd.rc || !rd.errs) {
        free(rd.rc);
        free(rd.errs);
        summary_job_fini(l);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        l->ranks[i].file = files[i];   // borrowed until the ranks are sorted: copied below
        arena_init(&l->ranks[i].arena, 1 << 13);   // small ranks are a few KB
    }
    l->n = n;
    pool_run(n, 0, read_task, &rd);   // each rank into its own arena
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {   // the first failure, in the files' order
        rc = rd.rc[i];
        if (rc)
            *e = rd.errs[i];
        l->events += l->ranks[i].rank.events;
    }
    free(rd.rc);
    free(rd.errs);
    if (rc == 0)
        qsort(l->ranks, l->n, sizeof *l->ranks, by_rank);
    for (size_t i = 1; i < l->n && rc == 0; i++)
        if (l->ranks[i].rank.rank == l->ranks[i - 1].rank.rank)
            rc = err_set(e, ERR_USAGE, "rank %lld has two summaries: %s and %s",
                         (long long)l->ranks[i].rank.rank, l->ranks[i - 1].file,
                         l->ranks[i].file);
    for (size_t i = 0; i < l->n && rc == 0; i++)
        if (!(l->ranks[i].file = arena_strndup(&l->arena, l->ranks[i].file,
                                               strlen(l->ranks[i].file))))
            rc = err_set(e, ERR_NOMEM, "out of memory");
    if (rc)
        summary_job_fini(l);
    return rc;
}

void summary_job_fini(struct summary_job *l)
{
    for (size_t i = 0; i < l->n; i++)
        arena_fini(&l->ranks[i].arena);
    free(l->ranks);
    arena_fini(&l->arena);
    memset(l, 0, sizeof *l);
}

/* The job's note from the ranks' own. A rank's note that counts ranks is
 * the job's count's share: "K of N ranks ..." (overlap) adds up, with N the
 * rows of the job's table; "rank X has ..." (temporal, idle) becomes "ranks
 * X, Y have ...", as the analyses write them over the job. Other notes: the
 * distinct ones joined by "; ". */
static void reduce_notes(const struct table *const *per_rank, size_t nranks, size_t rows,
                         struct table *t)
{
    size_t counted = 0, nlisted = 0, ranks_len = 0, other_len = 0;
    char ranks[1024] = "", other[2048] = "";
    const char *count_rest = NULL, *list_rest = NULL;
    for (size_t r = 0; r < nranks; r++) {
        const char *note = per_rank[r]->note;
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

/* The ranks' tables (one each) as the job's: their rows in rank order, and
 * the note the job's table would have. */
static struct table *concat(const struct table *const *per_rank, size_t nranks, struct arena *a)
{
    const struct table *first = per_rank[0];
    struct table *t = table_new(a, first->name, first->title ? first->title : first->name,
                                first->cols, first->ncols);
    if (!t)
        return NULL;
    t->title = first->title;
    for (size_t r = 0; r < nranks; r++) {
        const struct table *s = per_rank[r];
        for (size_t i = 0; i < s->nrows; i++) {
            struct cell *row = table_add_row(t);
            if (!row)
                return NULL;
            memcpy(row, table_cell(s, i, 0), t->ncols * sizeof *row);
        }
    }
    reduce_notes(per_rank, nranks, t->nrows, t);
    return t;
}

/* The kernel tables of the n ranks sel, from their parts. */
static int kernel_tables(const struct summary_job *l, const struct summary_job_rank **sel, size_t n,
                         int k, struct arena *a, struct table_list *out, struct err *e)
{
    const struct table_list **parts = calloc(n + 1, sizeof *parts);
    if (!parts)
        return err_set(e, ERR_NOMEM, "out of memory");
    for (size_t r = 0; r < n; r++)
        parts[r] = &sel[r]->tables[k];
    struct semantics sem;
    semantics_init(&sem, summary_semantics(l));
    int rc = kernels_reduce(&sem, parts, n, a, out, e);
    for (size_t r = 0; rc == ERR_PARSE && r < n; r++)   // name the summary
        if (kernels_reduce(&sem, &parts[r], 1, a, &(struct table_list){.count = 0}, e))
            rc = err_set(e, ERR_PARSE, "%s: not the kernel tables of a summary", sel[r]->file);
    free(parts);
    return rc;
}

static int stored_tables(const struct summary_job *l, const bool *selected, int k,
                         struct arena *a, struct table_list *out, struct err *e)
{
    const struct summary_job_rank **sel = calloc(l->n + 1, sizeof *sel);
    const struct table **per = calloc(l->n + 1, sizeof *per);
    int rc = sel && per ? 0 : err_set(e, ERR_NOMEM, "out of memory");
    size_t n = 0;
    for (size_t r = 0; r < l->n && rc == 0; r++) {
        if (selected && !selected[r])
            continue;
        if (!l->ranks[r].has_tables[k])
            rc = err_set(e, ERR_EMPTY, "%s: no %s tables of %s semantics (a summary made "
                         "before they were)", l->ranks[r].file,
                         analysis_get(summary_file_stored_analyses[k])->name,
                         summary_semantics(l) == SEMANTICS_HTA ? "HTA's" : "htx's");
        else if (n && l->ranks[r].tables[k].count != sel[0]->tables[k].count)
            rc = err_set(e, ERR_PARSE, "%s: not the tables of the other summaries",
                         l->ranks[r].file);
        sel[n++] = &l->ranks[r];
    }
    if (rc == 0 && summary_file_stored_analyses[k] == ANALYSIS_KERNELS) {
        rc = kernel_tables(l, sel, n, k, a, out, e);
        n = 0;
    }
    for (size_t j = 0; rc == 0 && n && j < sel[0]->tables[k].count; j++) {
        for (size_t r = 0; r < n; r++)
            per[r] = sel[r]->tables[k].tables[j];
        struct table *t = concat(per, n, a);
        if (!t || table_list_add(out, t))
            rc = err_set(e, ERR_NOMEM, "out of memory");
    }
    free(sel);
    free(per);
    return rc;
}

/* The utilization table from the ranks' tiles, as utilization_run makes it
 * from their events. */
static int tiles_tables(const struct summary_job *l, const bool *selected, struct arena *a,
                        struct table_list *out, struct err *e)
{
    struct tiles *t = calloc(l->n + 1, sizeof *t);
    if (!t)
        return err_set(e, ERR_NOMEM, "out of memory");
    size_t n = 0;
    int rc = 0;
    for (size_t r = 0; r < l->n && rc == 0; r++) {
        if (selected && !selected[r])
            continue;
        if (!l->ranks[r].has_tiles)
            rc = err_set(e, ERR_EMPTY, "%s: no tiles (a summary made before they were)",
                         l->ranks[r].file);
        t[n++] = l->ranks[r].tiles;
    }
    if (rc == 0)
        rc = tiles_table(t, n, a, out, e);
    free(t);
    return rc;
}

/* The collectives or stragglers tables, matched from the records. */
static int coll_tables(const struct summary_job *l, const bool *selected, enum analysis_id id,
                       struct arena *a, struct table_list *out, struct err *e)
{
    struct strtab strings;
    if (strtab_init(&strings))
        return err_set(e, ERR_NOMEM, "out of memory");
    struct coll_result r;
    int rc = summary_job_coll_result(l, selected, &strings, a, &r, e);
    if (rc == 0 && (id == ANALYSIS_COLLECTIVES ? coll_collectives_tables(&r, a, out)
                                               : coll_straggler_tables(&r, a, out)))
        rc = err_set(e, ERR_NOMEM, "out of memory");
    strtab_fini(&strings);
    return rc;
}

/* Under HTA's semantics, each rank's tables are its job's when the
 * ranks agree on what HTA's selection of a job reads of every rank. */
static int hta_job_check(const struct summary_job *l, struct err *e)
{
    const struct table_list **per = calloc(l->n + 1, sizeof *per);
    if (!per)
        return err_set(e, ERR_NOMEM, "out of memory");
    size_t n = 0;
    for (size_t r = 0; r < l->n; r++)
        if (l->ranks[r].has_hta_job)
            per[n++] = &l->ranks[r].hta_job;
    bool agree = n == l->n && app_hta_job_agrees(per, n);
    free(per);
    return agree ? 0
                 : err_set(e, ERR_EMPTY, "under HTA's semantics, the ranks' tables depend on "
                           "each other's steps (HTA drops every rank's last step when the job "
                           "has 2+ step names; a summary knows its rank's only): leave out "
                           "--events=skip, or use --semantics=htx");
}

/* Under HTA's semantics, a rank spans what HTA selects of it. */
static void hta_span(const struct summary_job *l, const struct summary_job_rank *r, int64_t *start,
                     int64_t *end)
{
    const struct table *t = summary_semantics(l) == SEMANTICS_HTA && r->has_hta_job
                                ? table_list_find(&r->hta_job, APP_HTA_JOB_TABLE, APP_HTA_JOB_COLS)
                                : NULL;
    if (t && t->nrows == 1 && table_cell(t, 0, 2)->type == CELL_INT &&
        table_cell(t, 0, 3)->type == CELL_INT) {
        *start = table_cell(t, 0, 2)->v.i;
        *end = table_cell(t, 0, 3)->v.i;
    }
}

unsigned summary_job_want(enum analysis_id id, int semantics)
{
    if (semantics == SEMANTICS_HTA) {
        int k = stored_index((int)id);
        return SUMMARY_JOB_HTA | (k >= 0 ? SUMMARY_JOB_TABLE(k) : 0);
    }
    if (id == ANALYSIS_UTILIZATION)
        return SUMMARY_JOB_TILES;
    if (id == ANALYSIS_COLLECTIVES || id == ANALYSIS_STRAGGLERS)
        return SUMMARY_JOB_COLLS;
    int k = stored_index((int)id);
    return k >= 0 ? SUMMARY_JOB_TABLE(k) : 0;
}

int summary_job_tables(const struct summary_job *l, const bool *selected, enum analysis_id id,
                       struct arena *a, struct table_list *out, struct err *e)
{
    if (summary_semantics(l) == SEMANTICS_HTA) {
        int k = stored_index((int)id);
        if (k < 0)
            return err_set(e, ERR_EMPTY, "under HTA's semantics the summaries answer the stored "
                           "analyses only");
        int rc = hta_job_check(l, e);
        return rc ? rc : stored_tables(l, selected, k, a, out, e);
    }
    if (id == ANALYSIS_UTILIZATION)
        return tiles_tables(l, selected, a, out, e);
    if (id == ANALYSIS_COLLECTIVES || id == ANALYSIS_STRAGGLERS)
        return coll_tables(l, selected, id, a, out, e);
    int k = stored_index((int)id);
    if (k < 0)
        return err_set(e, ERR_EMPTY, "the summaries do not answer it without their events");
    return stored_tables(l, selected, k, a, out, e);
}

bool *summary_job_model_selection(const struct model *m)
{
    bool *selected = calloc(m->nranks + 1, sizeof *selected);
    for (size_t i = 0; selected && i < m->nranks; i++)
        selected[i] = m->ranks[i].selected;
    return selected;
}

int summary_job_model_tables(const struct summary_job *l, const struct model *m, enum analysis_id id,
                             struct arena *a, struct table_list *out, struct err *e)
{
    struct semantics sem;
    semantics_init(&sem, summary_semantics(l));
    if (memcmp(&m->sem, &sem, sizeof sem) != 0)
        return err_set(e, ERR_EMPTY, "the summaries were read for the tables of %s semantics",
                       summary_semantics(l) == SEMANTICS_HTA ? "HTA's" : "htx's");
    bool *selected = summary_job_model_selection(m);
    if (!selected)
        return err_set(e, ERR_NOMEM, "out of memory");
    int rc = m->nranks == l->n ? summary_job_tables(l, selected, id, a, out, e)
                               : err_set(e, ERR_INTERNAL, "not the job's model");
    free(selected);
    return rc;
}

/* The name rank r's summary gives the thread of lane, or NULL. */
static const char *thread_name(const struct summary_job_rank *r, const struct tile_lane *lane)
{
    for (size_t i = 0; i < r->nthread_names; i++)
        if (strcmp(r->thread_names[i].pid, lane->pid) == 0 &&
            strcmp(r->thread_names[i].tid, lane->tid) == 0)
            return r->thread_names[i].name;
    return NULL;
}

struct model *summary_job_model(const struct summary_job *l, const struct semantics *sem,
                                struct err *e)
{
    for (size_t r = 0; r < l->n; r++)
        if (!l->ranks[r].has_tiles) {
            err_set(e, ERR_EMPTY, "%s: no tiles (a summary made before they were)",
                    l->ranks[r].file);
            return NULL;
        }
    struct model_summary_rank *in = calloc(l->n + 1, sizeof *in);
    int64_t *streams = NULL;
    const char **pids = NULL, **tids = NULL, **names = NULL;
    size_t nstreams = 0, nthreads = 0;
    for (size_t r = 0; r < l->n; r++)
        for (size_t k = 0; k < l->ranks[r].tiles.nlanes; k++) {
            nstreams += l->ranks[r].tiles.lanes[k].kind == TILE_LANE_STREAM;
            nthreads += l->ranks[r].tiles.lanes[k].kind == TILE_LANE_THREAD;
        }
    streams = calloc(nstreams + 1, sizeof *streams);
    pids = calloc(nthreads + 1, sizeof *pids);
    tids = calloc(nthreads + 1, sizeof *tids);
    names = calloc(nthreads + 1, sizeof *names);
    struct model *m = NULL;
    if (!in || !streams || !pids || !tids || !names) {
        err_set(e, ERR_NOMEM, "out of memory");
    } else {
        size_t s = 0, t = 0;
        for (size_t r = 0; r < l->n; r++) {
            const struct summary_job_rank *lr = &l->ranks[r];
            struct model_summary_rank *mr = &in[r];
            mr->rank = lr->rank.rank;
            mr->path = lr->rank.path;
            mr->summary_path = lr->file;
            mr->complete_events = lr->rank.events;
            mr->start_ns = lr->tiles.start_ns;
            mr->end_ns = lr->tiles.end_ns;
            hta_span(l, lr, &mr->start_ns, &mr->end_ns);
            mr->streams = &streams[s];
            mr->thread_pids = &pids[t];
            mr->thread_tids = &tids[t];
            mr->thread_names = &names[t];
            for (size_t k = 0; k < lr->tiles.nlanes; k++) {
                const struct tile_lane *lane = &lr->tiles.lanes[k];
                if (lane->kind == TILE_LANE_STREAM) {
                    streams[s++] = lane->stream;
                    mr->nstreams++;
                } else if (lane->kind == TILE_LANE_THREAD) {
                    pids[t] = lane->pid;
                    names[t] = thread_name(lr, lane);
                    tids[t++] = lane->tid;
                    mr->nthreads++;
                }
            }
        }
        m = model_new_from_summaries(sem, in, l->n, e);
    }
    free(in);
    free(streams);
    free(pids);
    free(tids);
    free(names);
    return m;
}

unsigned summary_job_views(const struct semantics *sem)
{
    struct semantics hta;
    semantics_init(&hta, SEMANTICS_HTA);
    return SUMMARY_JOB_VIEWS | (memcmp(sem, &hta, sizeof hta) == 0 ? SUMMARY_JOB_HTA : 0);
}

static const struct table *rank_steps_of(const struct summary_job_rank *r)
{
    return r->has_rank_parts ? table_list_find(&r->rank_parts, "rank_steps", 3) : NULL;
}

size_t summary_job_step_count(const struct summary_job *l)
{
    size_t total = 0;
    for (size_t r = 0; r < l->n; r++)
        total += rank_steps_of(&l->ranks[r]) ? rank_steps_of(&l->ranks[r])->nrows : 0;
    int64_t *v = malloc((total ? total : 1) * sizeof *v);
    if (!v)
        return 0;
    size_t k = 0;
    for (size_t r = 0; r < l->n; r++) {
        const struct table *t = rank_steps_of(&l->ranks[r]);
        for (size_t i = 0; t && i < t->nrows; i++)
            if (table_cell(t, i, 1)->type == CELL_INT)
                v[k++] = table_cell(t, i, 1)->v.i;
    }
    k = sort_unique_i64(v, k);
    free(v);
    return k;
}

int summary_job_diff_side(const struct summary_job *l, struct arena *a, struct diff_side *side,
                          struct err *e)
{
    memset(side, 0, sizeof *side);
    size_t rows = 0;
    for (size_t r = 0; r < l->n; r++) {
        const struct table *t = l->ranks[r].diff_parts;
        if (!t)
            return err_set(e, ERR_EMPTY, "%s: no ops by rank for a diff (a summary made before "
                                         "they were)", l->ranks[r].file);
        const char *why = diff_parts_check(t);
        for (size_t i = 0; !why && i < t->nrows; i++)
            if (table_cell(t, i, 0)->v.i != l->ranks[r].rank.rank)
                why = "ops of another rank";
        if (why)
            return err_set(e, ERR_PARSE, "%s: %s", l->ranks[r].file, why);
        rows += t->nrows;
    }
    const struct table *first = l->n ? l->ranks[0].diff_parts : NULL;
    struct table *all = first ? table_new(a, first->name, first->title, first->cols, first->ncols)
                              : NULL;
    if (!all || table_reserve(all, rows))
        return err_set(e, l->n ? ERR_NOMEM : ERR_EMPTY, l->n ? "out of memory" : "no rank");
    for (size_t r = 0; r < l->n; r++) {
        const struct table *t = l->ranks[r].diff_parts;
        for (size_t i = 0; i < t->nrows; i++)
            memcpy(table_add_row(all), table_cell(t, i, 0), t->ncols * sizeof(struct cell));
    }
    side->parts = all;
    return 0;
}

/* The ranks' clocks from the collectives their records match (as
 * trust_ranks_of_model from the events); nothing when they cannot tell. */
static void trust_clocks_of_job(const struct summary_job *l, struct trust_rank *v)
{
    if (l->n < 2)
        return;
    struct strtab strings;
    struct arena a;
    struct coll_result r;
    struct clock_estimate c;
    struct err e = {0, ""};
    if (strtab_init(&strings) < 0)
        return;
    arena_init(&a, 0);
    if (summary_job_coll_result(l, NULL, &strings, &a, &r, &e) == 0 &&
        clock_estimate_of(&r, l->n, &c, &e) == 0) {
        trust_clocks_of(&c, v, l->n);
        clock_estimate_fini(&c);
    }
    arena_fini(&a);
    strtab_fini(&strings);
}

int summary_job_trust(const struct summary_job *l, struct trust_report *out)
{
    struct trust_rank *v = calloc(l->n ? l->n : 1, sizeof *v);
    if (!v)
        return ERR_NOMEM;
    for (size_t i = 0; i < l->n; i++) {
        if (l->ranks[i].has_trust)
            v[i] = l->ranks[i].trust;
        else
            v[i] = (struct trust_rank){.world_size = -1};
        v[i].pgs = l->ranks[i].pgs;
        v[i].rank = l->ranks[i].rank.rank;
    }
    trust_clocks_of_job(l, v);
    trust_check(v, l->n, out);
    free(v);
    return 0;
}
