#ifndef HTX_APP_CACHE_H
#define HTX_APP_CACHE_H

/* The trace cache (issue 12): opening a trace in the TUI also packs it
 * (trace/pack.h) into a rank summary under $XDG_CACHE_HOME/htx (default
 * ~/.cache/htx), one entry per trace named after a hash of its real path;
 * reopening an unchanged trace reads that entry instead of the JSON.
 *
 * Never trusted: an entry is used only when its source record (the trace's
 * real path, size, mtime and the hashes of its first and last MiB,
 * util/htxs_source.h) matches the trace now and its checksum holds; a stale
 * or corrupt entry is ignored and rewritten, and one that fails while
 * replaying makes the loader read the trace (model/model.h). Writing an
 * entry never fails the load: a cache that cannot be written is skipped.
 * Entries are deflated and written by one writer thread, in the order the
 * ranks finish loading, so the first screen does not wait for them;
 * app_cache_fini waits for the last.
 *
 * Bounded: after each write, the least recently used entries (by mtime: a
 * hit touches its entry) are removed until the directory holds at most
 * max_bytes ($HTX_CACHE_MAX, default 1 GiB) of entries. */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "util/err.h"

#define APP_CACHE_DEFAULT_MAX ((uint64_t)1 << 30)
#define APP_CACHE_SUFFIX ".htxs"

struct pending;

struct app_cache {
    char dir[4096];
    uint64_t max_bytes;
    pthread_mutex_t lock;   /* the queue, between loader and writer threads */
    struct pending *held;   /* packs of the load under way, until its model is done */
    struct pending *queue;  /* packs to write, oldest first */
    pthread_cond_t queued;
    pthread_t writer;
    bool writer_started, closing;
};

/* Finds the directory from the environment (XDG_CACHE_HOME, else HOME) and
 * the bound from HTX_CACHE_MAX; ERR_USAGE for a bad HTX_CACHE_MAX, ERR_IO
 * when there is no place for a cache (then run without one). The directory
 * is created on the first write. */
int app_cache_init(struct app_cache *c, struct err *e);
/* Waits for the entries being written, then frees c. */
void app_cache_fini(struct app_cache *c);

/* Makes a load use the cache (sets lo->cached and lo->packed). The packs
 * are held until app_cache_model (or app_cache_fini) lets them be written. */
void app_cache_attach(struct app_cache *c, struct load_opts *lo);

/* The model the held packs were loaded into, just loaded (not yet used by
 * another thread): each entry also gets its rank's record, its collective
 * records and, under htx's semantics, its tiles, so that the next open of
 * an unchanged trace can show its first screen from them at once (the
 * TUI, app_light_preview); then they are written. */
void app_cache_model(struct app_cache *c, const struct model *m);

/* The entry of the trace at path when it is whole and made from the trace
 * as it is now (malloc'ed; the caller frees it), else NULL. */
char *app_cache_entry(struct app_cache *c, const char *path);

#endif
