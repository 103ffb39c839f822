#ifndef HTX_APP_CACHE_H
#define HTX_APP_CACHE_H

/* The trace cache: opening a trace in the TUI also packs it
 * (trace/pack.h) and makes of it the rank summary `htx summarize` makes
 * (app/rank_summary.h; the same bytes when both are given the trace's real
 * path), under $XDG_CACHE_HOME/htx (default ~/.cache/htx), one entry per
 * trace named after a hash of its real path; reopening an unchanged trace
 * shows the job from the entries at once (their tables and tiles) and reads
 * the events from them instead of the JSON.
 *
 * Never trusted: a directory that is not ours alone (owned by another
 * user, writable by others) is not used, nor an entry owned by another
 * user; each load's ranks get a warning naming the path. An entry is used
 * only when its source record (the trace's
 * real path, size, mtime and the hashes of its first and last MiB,
 * util/summary_file_source.h) matches the trace now and its checksum holds; a stale
 * or corrupt entry is ignored and rewritten, and one that fails while
 * replaying makes the loader read the trace (model/model.h). Writing an
 * entry never fails the load: a cache that cannot be written is skipped.
 * Entries are written by one writer thread once the load is done, in the
 * order the ranks finished loading, so the first screen does not wait for
 * them: first the events (deflated) with the source record, then the whole
 * summary, made from a model of that rank replayed from the entry (a
 * second model of one rank at a time, on one core), or, in htx's TUI on a
 * terminal (detach), by a process of its own started once those entries'
 * events are written (app_cache_complete: detached, at the lowest
 * priority, silent), which outlives the TUI: a user who quits at once
 * finds every entry whole on the next open, and the TUI never holds a
 * second model. Every write is a whole new file renamed over the entry: no
 * reader ever sees half of one.
 *
 * The source record's size, mtime and first and last MiB miss a change in
 * the middle of a trace that keeps its size and mtime (cp -p, rsync -t,
 * touch -r), so an entry is used only once the trace's whole content is
 * found to have the hash the entry records (util/content_hash.h): an entry
 * shown at once (app_cache_entry) is checked on a thread of its own behind
 * the first screen; the load that reads the events from it (lo->cached)
 * waits for that check, or makes it, so a script's run is deterministic. A
 * trace that changed is read again, its entry rewritten, and
 * app_cache_changed says so. An entry that records no such hash is stale.
 *
 * Bounded: after each write, the least recently used entries (by mtime: a
 * hit touches its entry) are removed until the directory holds at most
 * max_bytes ($HTX_CACHE_MAX, default 1 GiB) of entries. */

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "app/options.h"
#include "model/model.h"
#include "util/err.h"

#define APP_CACHE_DEFAULT_MAX ((uint64_t)1 << 30)
#define APP_CACHE_SUFFIX ".htxs"

struct pending;
struct cache_check;

struct app_cache {
    char dir[4096];
    char refused[4096];     /* why the directory is not used, or "" */
    uint64_t max_bytes;
    pthread_mutex_t lock;   /* the queue, between loader and writer threads */
    struct pending *held;   /* packs of the load under way, until its model is done */
    struct pending *queue;  /* packs to write, oldest first */
    pthread_cond_t queued;
    pthread_t writer;
    bool writer_started, closing;
    bool hurry;             /* closing without completing entries */
    struct trace_limits limits;   /* the load's, for the entries' models */
    struct cache_check *checks;   /* the content checks of the entries used, newest first */
    pthread_cond_t check_wake;    /* a check to make, or closing (the checker) */
    pthread_cond_t check_done;    /* a check made (who waits for one) */
    pthread_t checker;
    bool checker_started;
    atomic_bool stop_checks;      /* closing: a check under way stops */
    char changed[1024];           /* the first trace found changed, or "" */
    size_t nchanged;
    char **unfinished;            /* entries whose completion the quit cut short */
    size_t nunfinished, unfinished_cap;
    bool detach;                  /* set by htx's TUI on a terminal: the entries are
                                     completed by a detached htx (this executable run
                                     again) once their events are written */
};

/* Finds the directory from the environment (XDG_CACHE_HOME, else HOME) and
 * the bound from HTX_CACHE_MAX; ERR_USAGE for a bad HTX_CACHE_MAX, ERR_IO
 * when there is no place for a cache (then run without one). The directory
 * is created on the first write. */
int app_cache_init(struct app_cache *c, struct err *e);
/* Waits for the entries being written, then frees c. complete: each is
 * also completed (a script's run, whose next step may read them);
 * otherwise (a user who quits) the completion of an entry stops at its
 * next step, and the entries so left with their events alone are handed
 * to a detached `htx cache-complete` (app_cache_complete) when c->detach
 * says this executable is htx (else the next open that reads them
 * completes them). */
void app_cache_fini(struct app_cache *c, bool complete);

/* `htx cache-complete ENTRY...` (o->paths; not for users: what
 * app_cache_fini starts): completes each entry of the cache's directory
 * that holds its events alone, as the TUI's writer would have, under the
 * limits of o and the environment; anything else (not an entry of that
 * directory, not ours, already whole) is left alone. One runs at a time
 * in a directory (a lock on it): a second waits, then finds the entries
 * the first completed whole. Says nothing; 0, or 1 when there is no cache. */
int app_cache_complete(const struct htx_options *o);

/* Makes a load use the cache (sets lo->cached and lo->packed; its limits,
 * the memory guard among them, also bound the models the entries are made
 * from). The packs are held until app_cache_loaded (or app_cache_fini) lets
 * them be written. */
void app_cache_attach(struct app_cache *c, struct load_opts *lo);

/* The load the held packs came from is done: they are written now, each
 * entry the rank summary `htx summarize` writes of its trace (made on the
 * writer thread, from the entry's events: the first screen does not wait
 * for it), so that the next open of an unchanged trace can show every
 * stored view at once (the TUI, summary_job_preview). */
void app_cache_loaded(struct app_cache *c);

/* The entry of the trace at path when it is whole and made from the trace
 * as it is now by its size, mtime and first and last MiB (malloc'ed; the
 * caller frees it), else NULL; the check of its whole content starts
 * behind. */
char *app_cache_entry(struct app_cache *c, const char *path);

/* Whether a trace whose entry was used turned out to have changed (its
 * content checked whole): then msg (n bytes) names it, says that it was
 * read again, and how many others changed too. */
bool app_cache_changed(struct app_cache *c, char *msg, size_t n);

#endif
