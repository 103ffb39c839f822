#include "config.h"
#include "app/summary_job_diff.h"

#include <string.h>

#include "app/diff_request.h"
#include "summary/tables.h"

const char *app_diff_needs_events(const struct htx_options *opts, const struct semantics *sem)
{
    struct semantics htx;
    semantics_init(&htx, SEMANTICS_HTX);
    if (memcmp(sem, &htx, sizeof htx) != 0)
        return "these options change what the summaries hold";
    if (opts->has_window)
        return "a time window";
    for (int k = 0; k < 2; k++) {
        struct diff_request_side req;
        app_diff_request(opts, k == 1, &req);
        if (req.niterations && !req.all_iterations)
            return "chosen iterations";
    }
    for (int k = 0; k < 2; k++) {
        char **files;
        size_t n, traces;
        struct err e = {0, ""};
        const char *path = opts->paths[k];
        int rc = summary_job_files(&path, 1, &files, &n, &traces, &e);
        summary_job_free_files(files, n);
        if (rc || traces || n == 0)
            return "these paths name traces, not only rank summaries";
    }
    return NULL;
}

static int open_side(const char *path, unsigned want, bool warn_stale, size_t tiles_budget,
                     struct summary_job_diff *d, int k, struct err *e)
{
    char **files;
    size_t n, traces;
    int rc = summary_job_files(&path, 1, &files, &n, &traces, e);
    if (rc == 0)
        rc = summary_job_open(&d->job[k], files, n, want | SUMMARY_JOB_DIFF_PARTS, warn_stale,
                              tiles_budget, e);
    summary_job_free_files(files, n);
    if (rc == 0)
        rc = summary_job_diff_side(&d->job[k], &d->arena, &d->src[k], e);
    if (rc == 0) {
        struct semantics sem;
        semantics_init(&sem, SEMANTICS_HTX);
        d->m[k] = summary_job_model(&d->job[k], &sem, e);
        rc = d->m[k] ? 0 : e->code;
    }
    return rc;
}

int summary_job_diff_open(const struct htx_options *opts, unsigned want, bool warn_stale,
                          size_t tiles_budget, struct summary_job_diff *d, struct err *e)
{
    memset(d, 0, sizeof *d);
    arena_init(&d->arena, 1 << 16);
    int rc = open_side(opts->paths[0], want, warn_stale, tiles_budget / 2, d, 0, e);
    if (rc == 0)
        rc = open_side(opts->paths[1], SUMMARY_JOB_TILES, warn_stale, tiles_budget / 2, d, 1, e);
    return rc;
}

/* The events the summaries under path hold, from their rank records alone,
 * and in *at_hand whether they can be read (summary_job_events_at_hand);
 * UINT64_MAX when one cannot be read so (opening it names what is wrong). */
static uint64_t side_events(const char *path, bool *at_hand)
{
    char **files;
    size_t n, traces;
    struct err ignored = {0, ""};
    *at_hand = false;
    if (summary_job_files(&path, 1, &files, &n, &traces, &ignored))
        return UINT64_MAX;
    uint64_t events;
    if (!summary_job_peek_events(files, n, &events))
        events = UINT64_MAX;
    *at_hand = summary_job_events_at_hand(files, n);
    summary_job_free_files(files, n);
    return events;
}

int summary_job_diff_choose(const struct htx_options *opts, const struct semantics *sem,
                            uint64_t memory_limit, struct summary_job_diff *d, struct err *e)
{
    memset(d, 0, sizeof *d);   // empty: fini lets it go as it is
    if (opts->events == HTX_EVENTS_LOAD)
        return 0;
    const char *why = app_diff_needs_events(opts, sem);
    if (why && opts->events == HTX_EVENTS_SKIP)
        return err_set(e, ERR_USAGE, "--events=skip: the diff needs the events: %s", why);
    if (why)
        return 0;
    bool away = false;
    if (opts->events == HTX_EVENTS_AUTO) {
        bool c_at_hand, t_at_hand;
        uint64_t c = side_events(opts->paths[0], &c_at_hand),
                 t = side_events(opts->paths[1], &t_at_hand), all;
        bool known = c != UINT64_MAX && t != UINT64_MAX && !__builtin_add_overflow(c, t, &all);
        if (known && (!memory_limit || all <= memory_limit / SUMMARY_JOB_BYTES_PER_EVENT)) {
            if (c_at_hand && t_at_hand)
                return 0;
            away = true;
        }
    }
    int rc = summary_job_diff_open(opts, SUMMARY_JOB_VIEWS, false,
                                   summary_job_tiles_budget(memory_limit), d, e);
    if (rc == ERR_EMPTY && opts->events == HTX_EVENTS_AUTO && !away) {
        summary_job_diff_fini(d);   // summaries made before the parts: their events answer
        return 0;
    }
    d->job[0].events_away = d->job[1].events_away = away;
    return rc ? rc : 1;
}

void summary_job_diff_fini(struct summary_job_diff *d)
{
    for (int k = 0; k < 2; k++) {
        model_free(d->m[k]);
        d->m[k] = NULL;
        summary_job_fini(&d->job[k]);
    }
    arena_fini(&d->arena);
    memset(d, 0, sizeof *d);
}
