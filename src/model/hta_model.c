#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/build.h"
#include "util/memory.h"

/* The HTA model (model_hta_new) is what model_load would have selected from
 * the same files under HTA's semantics (or any other semantics given: sem),
 * made from a model loaded already. The builder and the linking do not
 * read the semantics: only the rounding of float times, the steps'
 * iterations (finish.c) and the selection do, so the selection is redone
 * on the model's own events, or the rounding and steps too on a copy of
 * them: a fraction of reading the files again. */

static void *copy_array(const void *src, size_t n, size_t size, bool *failed)
{
    if (!src || n == 0)
        return NULL;
    void *dst = malloc(n * size);
    if (dst)
        memcpy(dst, src, n * size);
    else
        *failed = true;
    return dst;
}

static char *copy_text(const char *s, bool *failed)
{
    char *c = s ? strdup(s) : NULL;
    *failed |= s && !c;
    return c;
}

/* Under ns_rounding, a float-ts rank whose GPU events lack correlations is
 * linked by flows against rounded times, which a copy of links made
 * against exact times cannot reproduce. */
static bool links_depend_on_rounding(const struct model *m, const struct rank_model *r,
                                     const struct semantics *sem)
{
    if (!sem->ns_rounding || !r->has_float_ts || m->sem.ns_rounding)
        return false;
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        bool gpu = ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY ||
                   ev->kind == EV_KIND_MEMSET;
        if (gpu && event_correlation(ev) < 0)
            return true;
    }
    return false;
}

/* src's figures and pointers in r, its names copied, nothing selected
 * yet: false when out of memory. */
static bool start_rank(const struct rank_model *src, struct rank_model *r)
{
    *r = *src;
    bool failed = false;
    r->path = copy_text(src->path, &failed);
    r->summary_path = copy_text(src->summary_path, &failed);
    r->graph_launches = copy_array(src->graph_launches, src->ngraph_launches,
                                   sizeof *r->graph_launches, &failed);
    r->rows = NULL;
    r->streams = NULL;
    r->threads = NULL;
    r->thread_pos = NULL;
    r->nrows = r->nstreams = r->nthreads = 0;
    r->rows_unfiltered = false;
    r->work_overlaps_known = false;
    return !failed;
}

/* A rank of the HTA model that reads src's events, steps and metadata. */
static int shared_rank(const struct rank_model *src, struct rank_model *r, struct err *e)
{
    bool ok = start_rank(src, r);
    r->nwarning_texts = 0;   // (the model's to give)
    r->shares_events = true;
    return ok ? 0 : err_set(e, ERR_NOMEM, "out of memory");
}

static int hta_model_rank(struct model *t, const struct model *m, const struct rank_model *src,
                          struct rank_model *r, struct err *e)
{
    bool failed = !start_rank(src, r);
    r->nwarning_texts = 0;   // (copied below)
    r->shares_events = false;
    // Scratch freed soon, written whole at once: resident from the start.
    r->events = src->nevents ? util_alloc_resident(src->nevents, sizeof *r->events) : NULL;
    failed |= src->nevents && !r->events;
    if (r->events)
        memcpy(r->events, src->events, src->nevents * sizeof *r->events);
    r->bw = copy_array(src->bw, src->nbw, sizeof *r->bw, &failed);
    r->comm = copy_array(src->comm, src->ncomm, sizeof *r->comm, &failed);
    r->names = copy_array(src->names, src->nnames, sizeof *r->names, &failed);
    r->iterations = copy_array(src->iterations, src->niterations, sizeof *r->iterations, &failed);
    for (size_t k = 0; k < src->nwarning_texts; k++)
        r->warning_texts[r->nwarning_texts++] = copy_text(src->warning_texts[k], &failed);
    if (failed)
        return err_set(e, ERR_NOMEM, "out of memory");
    int64_t back = m->has_origin ? m->origin_ns : 0;
    for (size_t i = 0; i < r->nevents; i++) {
        r->events[i].ts += back;
        r->events[i].flags &= (uint8_t)~EV_FLAG_OVERLAPS;   // the selection marks them again
    }
    for (size_t i = 0; i < r->niterations; i++)
        r->iterations[i].ts += back;
    // The steps' warnings were given when the rank loaded.
    uint64_t nwarnings = r->nwarnings;
    size_t ntexts = r->nwarning_texts;
    int rc = model_refinish_rank(t, r, e);
    for (size_t k = ntexts; k < r->nwarning_texts; k++)
        free(r->warning_texts[k]);
    r->nwarnings = nwarnings;
    r->nwarning_texts = ntexts;
    return rc;
}

/* Whether the HTA model can read m's events: sem changes none of their times,
 * and the job's selection (MTIA's rewrites events) writes none. */
static bool can_share(const struct model *m, const struct semantics *sem)
{
    if (m->nranks && m->ranks[0].device == DEVICE_MTIA && sem->drop_last_step)
        return false;
    for (size_t k = 0; k < m->nranks; k++)
        if (sem->ns_rounding && m->ranks[k].has_float_ts)
            return false;
    return true;
}

struct model *model_hta_new(const struct model *m, const struct semantics *sem, struct err *e)
{
    for (size_t k = 0; k < m->nranks; k++) {
        if (m->ranks[k].summary_only) {
            err_set(e, ERR_EMPTY, "%s: read without its events", m->ranks[k].path);
            return NULL;
        }
        if (links_depend_on_rounding(m, &m->ranks[k], sem)) {
            err_set(e, ERR_EMPTY,
                    "%s: GPU events linked by flows at fractional times (they link "
                    "differently at the times HTA rounds)",
                    m->ranks[k].path);
            return NULL;
        }
    }
    if (memcmp(&m->sem, sem, sizeof *sem) != 0 && m->sem.ns_rounding) {
        err_set(e, ERR_EMPTY, "an HTA model is made from a model of exact times");
        return NULL;
    }
    struct model *t = calloc(1, sizeof *t);
    struct rank_model *ranks = calloc(m->nranks + 1, sizeof *ranks);
    if (!t || !ranks) {
        free(t);
        free(ranks);
        err_set(e, ERR_NOMEM, "out of memory");
        return NULL;
    }
    t->sem = *sem;
    t->strings = m->strings;   // borrowed: model_hta_free leaves them
    t->id_event_sync = m->id_event_sync;
    t->id_context_sync = m->id_context_sync;
    t->pidtids = m->pidtids;
    t->npidtids = m->npidtids;
    t->cats = m->cats;
    t->ncats = m->ncats;
    t->ranks = ranks;
    bool share = can_share(m, sem);
    int rc = 0;
    for (size_t k = 0; k < m->nranks && rc == 0; k++) {
        rc = share ? shared_rank(&m->ranks[k], &ranks[k], e)
                   : hta_model_rank(t, m, &m->ranks[k], &ranks[k], e);
        t->nranks = k + 1;
    }
    if (share) {   // the same times: the same time 0
        t->origin_ns = m->origin_ns;
        t->has_origin = m->has_origin;
    } else if (rc == 0) {
        rc = model_finish(t, e);
    }
    if (rc == 0)
        rc = model_select_streams(t, e);
    if (rc) {
        model_hta_free(t);
        return NULL;
    }
    return t;
}

void model_hta_free(struct model *t)
{
    if (!t)
        return;
    for (size_t k = 0; k < t->nranks; k++) {
        struct rank_model *r = &t->ranks[k];
        if (r->shares_events) {   // the model's: only the HTA model's own go
            r->events = NULL;
            r->bw = NULL;
            r->comm = NULL;
            r->iterations = NULL;
            r->names = NULL;
        }
        model_rank_fini(r);
    }
    free(t->ranks);
    free(t);
}
