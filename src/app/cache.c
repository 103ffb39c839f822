#include "config.h"
#include "app/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/rank_summary.h"
#include "app/session.h"
#include "summary/tables.h"
#include "summary/write.h"
#include "trace/pack.h"
#include "util/summary_file.h"
#include "util/summary_file_source.h"
#include "util/pool.h"
#include "util/str.h"
#include "util/vec.h"

static void release_held(struct app_cache *c);
static void checks_free(struct app_cache *c);
static void complete_detached(struct app_cache *c);

/* An entry is a summary whose tables the TUI shows as they are: one that
 * someone else could have written is never read. So the directory must be
 * ours, a real directory, and writable by us alone; an entry must be a
 * regular file of ours. Sets c->refused when the directory is not. */
static void check_dir(struct app_cache *c)
{
    struct stat st;
    if (lstat(c->dir, &st) != 0)
        return;   // made 0700 on the first write
    if (!S_ISDIR(st.st_mode))
        snprintf(c->refused, sizeof c->refused, "cache %.3800s not used: not a directory",
                 c->dir);
    else if (st.st_uid != geteuid())
        snprintf(c->refused, sizeof c->refused,
                 "cache %.3800s not used: owned by uid %lu, not by this user", c->dir,
                 (unsigned long)st.st_uid);
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        snprintf(c->refused, sizeof c->refused,
                 "cache %.3800s not used: writable by others (mode %04o; chmod 700 it)", c->dir,
                 (unsigned)(st.st_mode & 07777));
}

/* Whether the entry at path may be read; else why (n bytes) says why not.
 * An entry that does not exist is simply absent. */
static bool entry_trusted(const char *path, char *why, size_t n)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return true;
    if (!S_ISREG(st.st_mode))
        snprintf(why, n, "cache entry %.400s not used: not a regular file", path);
    else if (st.st_uid != geteuid())
        snprintf(why, n, "cache entry %.400s not used: owned by uid %lu, not by this user", path,
                 (unsigned long)st.st_uid);
    else
        return true;
    return false;
}

int app_cache_init(struct app_cache *c, struct err *e)
{
    memset(c, 0, sizeof *c);
    c->max_bytes = APP_CACHE_DEFAULT_MAX;
    const char *max = getenv("HTX_CACHE_MAX");
    if (max && max[0] && !app_parse_size(max, &c->max_bytes))
        return err_set(e, ERR_USAGE, "HTX_CACHE_MAX: bad value '%.64s': expected a size such "
                       "as 512M or 4G", max);
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int n;
    // XDG: a relative XDG_CACHE_HOME is invalid and is ignored.
    if (xdg && xdg[0] == '/')
        n = snprintf(c->dir, sizeof c->dir, "%s/htx", xdg);
    else if (home && home[0] == '/')
        n = snprintf(c->dir, sizeof c->dir, "%s/.cache/htx", home);
    else
        return err_set(e, ERR_IO, "no cache: neither XDG_CACHE_HOME nor HOME is set");
    if (n < 0 || (size_t)n >= sizeof c->dir)
        return err_set(e, ERR_IO, "no cache: its directory's name is too long");
    check_dir(c);
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->queued, NULL);
    pthread_cond_init(&c->check_wake, NULL);
    pthread_cond_init(&c->check_done, NULL);
    return 0;
}

void app_cache_fini(struct app_cache *c, bool complete)
{
    if (c->dir[0]) {
        pthread_mutex_lock(&c->lock);
        release_held(c);   // a load that did not finish: its packs without the rest
        c->closing = true;
        c->hurry = !complete;
        pthread_cond_signal(&c->queued);
        bool joinable = c->writer_started;
        atomic_store(&c->stop_checks, true);
        pthread_cond_signal(&c->check_wake);
        pthread_mutex_unlock(&c->lock);
        if (joinable)
            pthread_join(c->writer, NULL);
        if (c->checker_started)
            pthread_join(c->checker, NULL);
        checks_free(c);
        complete_detached(c);
        pthread_cond_destroy(&c->check_done);
        pthread_cond_destroy(&c->check_wake);
        pthread_cond_destroy(&c->queued);
        pthread_mutex_destroy(&c->lock);
    }
    memset(c, 0, sizeof *c);
}

/* ---- the check of a trace's whole content ---- */

enum check_state { CHECK_QUEUED, CHECK_RUNNING, CHECK_SAME, CHECK_CHANGED, CHECK_UNREAD };

struct cache_check {
    struct cache_check *next;
    char *real;               /* the trace's real path */
    uint64_t content_hash;    /* what its entry records */
    enum check_state state;
};

static void checks_free(struct app_cache *c)
{
    while (c->checks) {
        struct cache_check *k = c->checks;
        c->checks = k->next;
        free(k->real);
        free(k);
    }
}

/* The check of the trace at real, queued when new. Under the lock. NULL
 * when out of memory. */
static struct cache_check *check_note(struct app_cache *c, const char *real, uint64_t hash)
{
    for (struct cache_check *k = c->checks; k; k = k->next)
        if (strcmp(k->real, real) == 0 && k->content_hash == hash)
            return k;
    struct cache_check *k = calloc(1, sizeof *k);
    if (!k || !(k->real = strdup(real))) {
        free(k);
        return NULL;
    }
    k->content_hash = hash;
    k->next = c->checks;
    c->checks = k;
    pthread_cond_signal(&c->check_wake);
    return k;
}

/* Makes check k (taken: CHECK_RUNNING), the lock released meanwhile. */
static void check_make(struct app_cache *c, struct cache_check *k)
{
    struct summary_file_source rec;
    memset(&rec, 0, sizeof rec);
    snprintf(rec.path, sizeof rec.path, "%s", k->real);
    rec.has_content = true;
    rec.content_hash = k->content_hash;
    pthread_mutex_unlock(&c->lock);
    int same = summary_file_source_same_content(&rec, &c->stop_checks);
    pthread_mutex_lock(&c->lock);
    k->state = same == 1 ? CHECK_SAME : same == 0 ? CHECK_CHANGED : CHECK_UNREAD;
    pthread_cond_broadcast(&c->check_done);
}

/* The checker thread: the queued checks, oldest first, until closing. */
static void *checker(void *arg)
{
    struct app_cache *c = arg;
    pthread_mutex_lock(&c->lock);
    while (!atomic_load(&c->stop_checks)) {
        struct cache_check *next = NULL;
        for (struct cache_check *k = c->checks; k; k = k->next)
            if (k->state == CHECK_QUEUED)
                next = k;   // (newest first: the last queued one is the oldest)
        if (!next) {
            pthread_cond_wait(&c->check_wake, &c->lock);
            continue;
        }
        next->state = CHECK_RUNNING;
        check_make(c, next);
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* The state of check k once made: by this thread when nobody has started
 * it, else waited for. Under the lock. */
static enum check_state check_wait(struct app_cache *c, struct cache_check *k)
{
    if (k->state == CHECK_QUEUED) {
        k->state = CHECK_RUNNING;
        check_make(c, k);
    }
    while (k->state == CHECK_RUNNING)
        pthread_cond_wait(&c->check_done, &c->lock);
    return k->state;
}

/* Whether the entry whose source record is src may be used, its trace
 * (given as path) now checked whole: behind (the entry is used at once,
 * the checker thread started) or here, waiting (why then says what is
 * wrong, n bytes). */
static bool content_checked(struct app_cache *c, const struct summary_file_source *src,
                            const char *real, const char *path, bool behind, char *why, size_t n)
{
    if (!src->has_content)
        return false;   // nothing vouches for the middle of the trace: stale
    pthread_mutex_lock(&c->lock);
    struct cache_check *k = check_note(c, real, src->content_hash);
    if (k && behind && !c->checker_started && !c->closing)
        c->checker_started = pool_thread_start(&c->checker, checker, c) == 0;
    enum check_state state = !k ? CHECK_UNREAD : behind ? CHECK_SAME : check_wait(c, k);
    if (state == CHECK_CHANGED && c->nchanged++ == 0)
        snprintf(c->changed, sizeof c->changed, "%.900s", path);
    pthread_mutex_unlock(&c->lock);
    if (state == CHECK_CHANGED)
        snprintf(why, n, "%.400s changed since its cache entry was made (its size and time kept): "
                 "read again", path);
    else if (state == CHECK_UNREAD)
        snprintf(why, n, "%.400s: cannot be read whole to check its cache entry", path);
    return state == CHECK_SAME;
}

bool app_cache_changed(struct app_cache *c, char *msg, size_t n)
{
    pthread_mutex_lock(&c->lock);
    size_t changed = c->nchanged;
    if (changed == 1)
        snprintf(msg, n, "%s changed since it was cached (its size and time kept): read again",
                 c->changed);
    else if (changed > 1)
        snprintf(msg, n, "%s and %zu more traces changed since they were cached (their size and "
                 "time kept): read again", c->changed, changed - 1);
    pthread_mutex_unlock(&c->lock);
    return changed > 0;
}

/* The entry of the trace whose real path is real. */
static bool entry_of_real(const struct app_cache *c, const char *real, char *out, size_t size)
{
    unsigned long long h = summary_file_fnv1a(SUMMARY_FILE_FNV_BASIS, real, strlen(real));
    int n = snprintf(out, size, "%s/%016llx%s", c->dir, h, APP_CACHE_SUFFIX);
    return n > 0 && (size_t)n < size;
}

static bool is_summary(const struct summary_file_doc *doc);

/* The entry of the trace at path when it is whole and made from the trace
 * as it is now (malloc'ed), else NULL; then *real is the trace's real path
 * (malloc'ed) and *summary whether the entry holds the whole summary, not
 * only the events (a first write that htx quit before completing, or an
 * entry in the events-only form); when the entry is not to be trusted,
 * NULL with why (n bytes) saying so. */
static char *lookup(struct app_cache *c, const char *path, bool behind, char **real_out,
                    bool *summary, char *why, size_t n)
{
    char entry[4200];
    *real_out = NULL;
    if (c->refused[0]) {
        snprintf(why, n, "%s", c->refused);
        return NULL;
    }
    char *real = realpath(path, NULL);
    if (!real || !entry_of_real(c, real, entry, sizeof entry) || !entry_trusted(entry, why, n)) {
        free(real);
        return NULL;
    }
    struct summary_file_doc doc;
    struct summary_file_source src;
    bool fresh = summary_file_load_file(&doc, entry, NULL) == 0 &&
                 summary_file_source_read(&src, &doc, entry, NULL) == 0 &&
                 strcmp(src.path, real) == 0 && summary_file_find(&doc, SUMMARY_FILE_EVENTS) &&
                 summary_file_source_check(&src, true) == SUMMARY_FILE_FRESH;
    *summary = fresh && is_summary(&doc);
    summary_file_doc_fini(&doc);
    if (fresh)
        fresh = content_checked(c, &src, real, path, behind, why, n);
    if (!fresh) {
        free(real);
        return NULL;
    }
    utimensat(AT_FDCWD, entry, NULL, 0);   // used now: the last to be pruned
    *real_out = real;
    return strdup(entry);
}

char *app_cache_entry(struct app_cache *c, const char *path)
{
    char *real, why[512];
    bool summary;
    char *entry = lookup(c, path, true, &real, &summary, why, sizeof why);
    free(real);
    return entry;
}

static void hold(struct app_cache *c, char *real, const char *entry, struct trace_pack *pack);

/* lo->cached: the entry, when it is whole and made from the trace as it
 * is, its whole content checked first (waiting for the check made behind
 * the first screen); one with the events only is completed once this load
 * is done. */
static char *cached(void *ctx, const char *path, char *why, size_t n)
{
    struct app_cache *c = ctx;
    char *real;
    bool summary;
    char *entry = lookup(c, path, false, &real, &summary, why, n);
    if (entry && !summary)
        hold(c, real, entry, NULL);
    else
        free(real);
    return entry;
}

struct entry_info {
    char *path;
    uint64_t bytes;
    int64_t used_ns;
};

static int by_use(const void *a, const void *b)
{
    const struct entry_info *x = a, *y = b;
    return (x->used_ns > y->used_ns) - (x->used_ns < y->used_ns);
}

/* Removes the least recently used entries while the directory holds more
 * than the bound (the one just written, keep, is the last to go). Other
 * files in the directory are left alone. */
static void prune(struct app_cache *c, const char *keep)
{
    DIR *d = opendir(c->dir);
    if (!d)
        return;
    struct entry_info *v = NULL;
    size_t n = 0, cap = 0;
    uint64_t total = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!str_ends_with(de->d_name, APP_CACHE_SUFFIX) || de->d_name[0] == '.')
            continue;
        size_t len = strlen(c->dir) + strlen(de->d_name) + 2;
        char *p = malloc(len);
        struct stat st;
        if (!p || VEC_PUSH_SLOT(v, n, cap)) {
            free(p);
            break;
        }
        snprintf(p, len, "%s/%s", c->dir, de->d_name);
        if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
            free(p);
            continue;
        }
        int64_t used = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        v[n++] = (struct entry_info){p, (uint64_t)st.st_size,
                                     strcmp(p, keep) == 0 ? INT64_MAX : used};
        total += (uint64_t)st.st_size;
    }
    closedir(d);
    if (n > 1)
        qsort(v, n, sizeof *v, by_use);
    for (size_t i = 0; i < n; i++) {
        if (total > c->max_bytes && unlink(v[i].path) == 0)
            total -= v[i].bytes;
        free(v[i].path);
    }
    free(v);
}

/* mkdir -p of the cache directory (its parent, ~/.cache, may not exist). */
static bool make_dir(const char *dir)
{
    char p[sizeof ((struct app_cache *)0)->dir];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST)
            return false;
        *s = '/';
    }
    return mkdir(p, 0700) == 0 || errno == EEXIST;
}

struct pending {
    struct pending *next;
    struct app_cache *c;
    char *real;             /* the trace's real path */
    char entry[4200];
    struct trace_pack *pack;
};

/* model_load's progress: cancels once htx quits without waiting for the
 * entries to be completed (app_cache_fini). */
static int stop_when_hurried(void *ctx, const struct load_progress *p)
{
    (void)p;
    struct app_cache *c = ctx;
    pthread_mutex_lock(&c->lock);
    bool hurry = c->hurry;
    pthread_mutex_unlock(&c->lock);
    return hurry;
}

/* The summary's stop (rank_summary_parts): htx quits without waiting. */
static bool hurried_now(void *ctx)
{
    return stop_when_hurried(ctx, NULL) != 0;
}

/* Keeps the name of w's entry, to be completed by complete_detached;
 * nothing when out of memory (the next open that reads the entry completes
 * it). Only the writer thread notes, and hands on, entries. */
static void note_unfinished(struct pending *w)
{
    struct app_cache *c = w->c;
    char *entry = strdup(w->entry);
    pthread_mutex_lock(&c->lock);
    if (entry && !VEC_PUSH_SLOT(c->unfinished, c->nunfinished, c->unfinished_cap))
        c->unfinished[c->nunfinished++] = entry;
    else
        free(entry);
    pthread_mutex_unlock(&c->lock);
}

/* Whether doc holds the whole summary, not only the events: an entry
 * made before the thread names were kept is made again (its lanes would
 * be shown unnamed). */
static bool is_summary(const struct summary_file_doc *doc)
{
    bool tables = false;
    for (uint32_t i = 0; i < doc->nsections; i++)
        tables |= summary_file_is_tables(&doc->sections[i]);
    return tables && summary_file_find(doc, SUMMARY_FILE_THREADS);
}

/* Makes the entry, doc (bytes: its file's contents), the whole summary that
 * `htx summarize` writes of the trace (app/rank_summary.h): the model of
 * that one rank, replayed from those bytes on this thread, then its tables,
 * tiles and collective records, under the entry's own source record (the
 * trace its events were read from, whatever the trace is now: the next
 * open checks it). An entry already whole (completed meanwhile) or of a
 * trace without a rank number is left as it is; one to be completed by a
 * detached process (c->detach), or whose completion an htx that quits in a
 * hurry cuts short, is noted (note_unfinished). */
static void complete_entry(struct pending *w, const struct summary_file_doc *doc, const uint8_t *bytes)
{
    struct summary_file_source src;
    const struct summary_file_section *events = summary_file_find(doc, SUMMARY_FILE_EVENTS);
    if (!events || is_summary(doc) || summary_file_source_read(&src, doc, w->entry, NULL) != 0)
        return;
    if (w->c->detach || stop_when_hurried(w->c, NULL)) {
        note_unfinished(w);
        return;
    }
    struct semantics sem;
    struct analysis_opts ao;
    app_rank_summary_options(&sem, &ao);
    struct load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.threads = 1;   // a core stays with the TUI
    pthread_mutex_lock(&w->c->lock);
    lo.limits = w->c->limits;   // the memory guard counts the TUI's model too
    pthread_mutex_unlock(&w->c->lock);
    lo.progress = stop_when_hurried;
    lo.progress_ctx = w->c;
    struct err ignored = {0, ""};
    const char *names[] = {w->entry};
    const void *bufs[] = {bytes};
    size_t lens[] = {(size_t)doc->len};
    struct model *m = model_load_buffers_opts(names, bufs, lens, 1, &sem, &lo, &ignored);
    bool hurried = stop_when_hurried(w->c, NULL);
    if (m && m->nfailed == 0 && !hurried) {
        struct summary_file_writer hw;
        summary_file_writer_init(&hw);
        struct rank_summary_parts parts = {NULL, events->data, (size_t)events->len, &src,
                                           hurried_now, w->c};
        if (app_rank_summary(m, &ao, 1, &parts, w->real, &hw, &ignored) == 0)
            summary_file_writer_save(&hw, w->entry, 1, &ignored);
        else
            hurried = stop_when_hurried(w->c, NULL);
        summary_file_writer_fini(&hw);
    }
    model_free(m);
    if (hurried)
        note_unfinished(w);
}

/* Writes one entry: from a pack, the source record and the events at once
 * (what a reopen needs to skip the JSON), then, from the same bytes, the
 * rest of the summary; without one, the rest of the summary of an entry
 * that has its events only. Nothing is reported: a cache that cannot be
 * written is only a slower next start. */
static void write_entry(struct pending *w)
{
    struct app_cache *c = w->c;
    const uint8_t *pack, *bytes;
    size_t len;
    struct summary_file_source src;
    struct summary_file_doc doc;
    struct err ignored = {0, ""};
    struct summary_file_writer hw;   // the entry's bytes, when written here
    summary_file_writer_init(&hw);
    bool have = false;
    if (!w->pack) {
        have = summary_file_load_file(&doc, w->entry, NULL) == 0;
        bytes = have ? doc.owned : NULL;
    } else if (trace_pack_finish(w->pack, &pack, &len, &ignored) == 0 && len <= c->max_bytes &&
               summary_file_source_of(&src, w->real, NULL) == 0) {
        summary_file_source_write(&hw, &src);
        summary_file_begin_section(&hw, SUMMARY_FILE_EVENTS);
        summary_file_put_borrowed(&hw, pack, len);
        summary_file_end_section(&hw);
        have = summary_file_writer_finish(&hw, &bytes, &len, &ignored) == 0 && make_dir(c->dir) &&
               summary_file_write_file(w->entry, bytes, len, 1, &ignored) == 0 &&
               summary_file_parse(&doc, bytes, len, w->entry, NULL) == 0;
    }
    if (have) {
        complete_entry(w, &doc, bytes);
        summary_file_doc_fini(&doc);
        prune(c, w->entry);   // only this thread prunes
    }
    summary_file_writer_fini(&hw);
    trace_pack_free(w->pack);
    free(w->real);
    free(w);
}

/* The writer thread: the queue, until it is empty and the cache closes. */
static void *writer(void *arg)
{
    struct app_cache *c = arg;
    pthread_mutex_lock(&c->lock);
    for (;;) {
        while (!c->queue && !c->closing)
            pthread_cond_wait(&c->queued, &c->lock);
        struct pending *w = c->queue;
        if (!w)
            break;
        c->queue = w->next;
        pthread_mutex_unlock(&c->lock);
        write_entry(w);
        pthread_mutex_lock(&c->lock);
        if (!c->queue) {   // the entries written so far: their rest handed on
            pthread_mutex_unlock(&c->lock);
            complete_detached(c);
            pthread_mutex_lock(&c->lock);
        }
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* Holds the writing of entry (of the trace at real, taken) until the load
 * is done: from pack (taken), or the completion of an entry with the events
 * only when pack is NULL. Nothing when out of memory or closing. */
static void hold(struct app_cache *c, char *real, const char *entry, struct trace_pack *pack)
{
    struct pending *w = calloc(1, sizeof *w);
    bool taken = false;
    if (w && strlen(entry) < sizeof w->entry) {
        *w = (struct pending){.c = c, .real = real, .pack = pack};
        strcpy(w->entry, entry);
        pthread_mutex_lock(&c->lock);
        taken = !c->closing;
        if (taken) {
            w->next = c->held;
            c->held = w;
        }
        pthread_mutex_unlock(&c->lock);
    }
    if (!taken) {
        trace_pack_free(pack);
        free(real);
        free(w);
    }
}

/* lo->packed: holds the pack for the writer thread. */
static int packed(void *ctx, const char *path, struct trace_pack *pack, struct err *e)
{
    (void)e;
    struct app_cache *c = ctx;
    char entry[4200];
    char *real = realpath(path, NULL);
    if (real && entry_of_real(c, real, entry, sizeof entry)) {
        hold(c, real, entry, pack);
    } else {
        free(real);
        trace_pack_free(pack);
    }
    return 0;
}

/* Queues the held packs for the writer (started on the first). Under the lock. */
static void release_held(struct app_cache *c)
{
    if (!c->held)
        return;
    if (!c->writer_started && !c->closing)
        c->writer_started = pool_thread_start(&c->writer, writer, c) == 0;
    struct pending **tail = &c->queue;
    while (*tail)
        tail = &(*tail)->next;
    while (c->held) {   // (held is newest first: the oldest goes first)
        struct pending *w = c->held, **last = &c->held;
        while (w->next) {
            last = &w->next;
            w = w->next;
        }
        *last = NULL;
        *tail = w;
        tail = &w->next;
    }
    pthread_cond_signal(&c->queued);
}

void app_cache_loaded(struct app_cache *c)
{
    pthread_mutex_lock(&c->lock);
    release_held(c);
    pthread_mutex_unlock(&c->lock);
}

void app_cache_attach(struct app_cache *c, struct load_opts *lo)
{
    pthread_mutex_lock(&c->lock);
    c->limits = lo->limits;
    pthread_mutex_unlock(&c->lock);
    lo->cached = cached;
    lo->cached_ctx = c;
    if (c->refused[0])
        return;   // nothing is written where it would not be read
    lo->packed = packed;
    lo->packed_ctx = c;
}

/* ---- completing entries in a process of their own ---- */

/* What a process started by complete_detached runs: htx with this command
 * word and the entries (cli/cli.c). */
static const char complete_word[] = "cache-complete";

/* The descriptors past stderr, closed in the process that completes the
 * entries (none of the TUI's files is its business). */
static void close_from_3(int max)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
        return;
#endif
    for (int fd = 3; fd < max; fd++)
        close(fd);
}

/* Hands the noted entries (note_unfinished) to a process of their own that
 * may outlive this one: htx run again (this very executable,
 * /proc/self/exe) as `htx cache-complete ENTRY...`, in a session of its own (no
 * controlling terminal: a closed terminal does not stop it), at the lowest
 * priority (nice 19), its standard streams on /dev/null. A grandchild, so
 * that nobody has to wait for it. Between fork and exec only
 * async-signal-safe calls (this process has threads). Nothing when there
 * is nothing to complete, or when it cannot start: the next open that
 * reads an entry completes it. */
static void complete_detached(struct app_cache *c)
{
    size_t n = c->nunfinished;
    char **argv = n && c->detach ? calloc(n + 3, sizeof *argv) : NULL;
    char exe[4096];   // (readlink, not the link: under valgrind this names htx, not the tool)
    ssize_t len = argv ? readlink("/proc/self/exe", exe, sizeof exe - 1) : -1;
    if (len > 0 && (size_t)len < sizeof exe - 1) {
        exe[len] = '\0';
        argv[0] = (char *)"htx";
        argv[1] = (char *)complete_word;
        memcpy(argv + 2, c->unfinished, n * sizeof *argv);
        long max = sysconf(_SC_OPEN_MAX);
        int top = max < 0 || max > 65536 ? 65536 : (int)max;
        sigset_t none;
        sigemptyset(&none);
        pid_t child = fork();
        if (child == 0) {
            if (setsid() < 0)
                _exit(1);
            pid_t grandchild = fork();
            if (grandchild != 0)
                _exit(grandchild < 0);
            int null = open("/dev/null", O_RDWR);
            if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
                _exit(1);
            close_from_3(top);
            pthread_sigmask(SIG_SETMASK, &none, NULL);
            setpriority(PRIO_PROCESS, 0, 19);
            execv(exe, argv);
            _exit(127);
        }
        if (child > 0)
            waitpid(child, NULL, 0);
    }
    free(argv);
    for (size_t i = 0; i < n; i++)
        free(c->unfinished[i]);
    free(c->unfinished);
    c->unfinished = NULL;
    c->nunfinished = c->unfinished_cap = 0;
}

/* Whether path names an entry of c's directory (its name alone after the
 * directory's, with the entries' suffix). */
static bool is_entry_path(const struct app_cache *c, const char *path)
{
    size_t n = strlen(c->dir);
    return strncmp(path, c->dir, n) == 0 && path[n] == '/' && path[n + 1] != '.' &&
           !strchr(path + n + 1, '/') && str_ends_with(path, APP_CACHE_SUFFIX);
}

int app_cache_complete(const struct htx_options *o)
{
    struct app_cache c;
    struct load_opts lo;
    struct err e = {0, ""};
    const char *const *entries = o->paths;
    size_t n = o->npaths;
    if (app_load_opts_init(&lo, o, &e) != 0 || app_cache_init(&c, &e) != 0)
        return 1;
    c.limits = lo.limits;   // (the entries' models under the same memory guard)
    // One completer at a time in a directory: one started by a reopen while
    // another still works then finds the entry whole and leaves it.
    int lock = open(c.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock >= 0)
        while (flock(lock, LOCK_EX) != 0 && errno == EINTR)
            ;
    char why[512];
    for (size_t i = 0; i < n && !c.refused[0]; i++) {
        struct summary_file_source src;
        if (!is_entry_path(&c, entries[i]) || !entry_trusted(entries[i], why, sizeof why) ||
            summary_file_source_peek(&src, entries[i], &e) != 0)
            continue;
        char *real = strdup(src.path);
        if (real)
            hold(&c, real, entries[i], NULL);
    }
    app_cache_loaded(&c);
    app_cache_fini(&c, true);
    if (lock >= 0)
        close(lock);
    return 0;
}
