#include "config.h"
#include "app/rank_summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/collectives.h"
#include "analysis/diff.h"
#include "analysis/ranks.h"
#include "analysis/tiles.h"
#include "app/options.h"
#include "summary/colls_io.h"
#include "summary/tables.h"
#include "summary/tiles_io.h"
#include "util/htxs_source.h"
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
 * its analyses, the tiles and the collective records. */
enum {
    SUMMARY_TILES_TASK = HTXS_NSTORED,
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

int app_rank_summary(const struct model *m, const struct analysis_opts *ao, int threads,
                     const struct rank_summary_parts *parts, const char *source_path,
                     struct htxs_writer *w, struct err *e)
{
    if (m->nranks != 1)
        return err_set(e, ERR_PARSE, "%s: not one rank", source_path);
    if (m->ranks[0].rank < 0)
        return err_set(e, ERR_PARSE, "%s: no rank number", source_path);
    struct summary_work sw = {.m = m, .ao = ao, .path = source_path};
    for (size_t i = 0; i < HTXS_NSTORED; i++)
        arena_init(&sw.arenas[i], 1 << 20);
    arena_init(&sw.tiles_arena, 1 << 20);
    arena_init(&sw.ranks_arena, 1 << 16);
    arena_init(&sw.diff_arena, 1 << 16);
    int rc = run_summary_work(&sw, threads, e);
    for (size_t i = 0; i < HTXS_NSTORED && rc == 0; i++)
        htxs_tables_write(w, SEMANTICS_HTX, (int)htxs_stored_analyses[i], &sw.lists[i]);
    if (rc == 0) {
        htxs_tables_write(w, SEMANTICS_HTX, HTXS_RANKS_PARTS, &sw.ranks);
        htxs_tables_write(w, SEMANTICS_HTX, HTXS_DIFF_PARTS, &sw.diff);
        const struct rank_model *r = &m->ranks[0];
        struct htxs_rank rank = {.rank = r->rank, .events = r->complete_events};
        snprintf(rank.path, sizeof rank.path, "%s", r->path);
        htxs_rank_write(w, &rank);
        htxs_tiles_write(w, &sw.tiles);
        htxs_colls_write(w, r->rank, m->has_origin ? &m->origin_ns : NULL, &m->strings,
                         sw.recs, sw.nrecs);
        const uint8_t *bytes = parts->events;
        size_t len = parts->events_len;
        if (parts->pack)
            rc = trace_pack_finish(parts->pack, &bytes, &len, e);
        if (rc == 0 && bytes) {
            htxs_begin_section(w, HTXS_EVENTS);
            htxs_put_borrowed(w, bytes, len);
            htxs_end_section(w);
        }
        if (rc == 0)
            htxs_source_write(w, parts->source);
    }
    for (size_t i = 0; i < HTXS_NSTORED; i++)
        arena_fini(&sw.arenas[i]);
    arena_fini(&sw.tiles_arena);
    arena_fini(&sw.ranks_arena);
    arena_fini(&sw.diff_arena);
    free(sw.recs);
    return rc;
}
