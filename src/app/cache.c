#include "config.h"
#include "app/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/collectives.h"
#include "analysis/tiles.h"
#include "app/session.h"
#include "summary/colls_io.h"
#include "summary/tables.h"
#include "summary/tiles_io.h"
#include "summary/write.h"
#include "trace/pack.h"
#include "util/htxs.h"
#include "util/htxs_source.h"
#include "util/str.h"
#include "util/vec.h"

static void release_held(struct app_cache *c);

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
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->queued, NULL);
    return 0;
}

void app_cache_fini(struct app_cache *c)
{
    if (c->dir[0]) {
        pthread_mutex_lock(&c->lock);
        release_held(c);   // a load that did not finish: its packs without the rest
        c->closing = true;
        pthread_cond_signal(&c->queued);
        bool joinable = c->writer_started;
        pthread_mutex_unlock(&c->lock);
        if (joinable)
            pthread_join(c->writer, NULL);
        pthread_cond_destroy(&c->queued);
        pthread_mutex_destroy(&c->lock);
    }
    memset(c, 0, sizeof *c);
}

/* The entry of the trace whose real path is real. */
static bool entry_of_real(const struct app_cache *c, const char *real, char *out, size_t size)
{
    unsigned long long h = htxs_fnv1a(HTXS_FNV_BASIS, real, strlen(real));
    int n = snprintf(out, size, "%s/%016llx%s", c->dir, h, APP_CACHE_SUFFIX);
    return n > 0 && (size_t)n < size;
}

/* lo->cached: the entry, when it is whole and made from the trace as it is. */
static char *cached(void *ctx, const char *path)
{
    return app_cache_entry(ctx, path);
}

char *app_cache_entry(struct app_cache *c, const char *path)
{
    char entry[4200];
    char *real = realpath(path, NULL);
    if (!real || !entry_of_real(c, real, entry, sizeof entry)) {
        free(real);
        return NULL;
    }
    struct htxs_doc doc;
    struct htxs_source src;
    bool fresh = htxs_load_file(&doc, entry, NULL) == 0 &&
                 htxs_source_read(&src, &doc, entry, NULL) == 0 &&
                 strcmp(src.path, real) == 0 && htxs_find(&doc, HTXS_EVENTS) &&
                 htxs_source_check(&src, true) == HTXS_FRESH;
    htxs_doc_fini(&doc);
    free(real);
    if (!fresh)
        return NULL;
    utimensat(AT_FDCWD, entry, NULL, 0);   // used now: the last to be pruned
    return strdup(entry);
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
    struct htxs_writer extra;   /* sections from the model: rank, tiles, collective records */
    bool has_extra;
};

/* Appends the sections of extra (a writer of whole sections), tags and all. */
static void copy_sections(struct htxs_writer *w, struct htxs_writer *extra)
{
    const uint8_t *buf;
    size_t len;
    struct htxs_doc doc;
    struct err ignored = {0, ""};
    if (htxs_writer_finish(extra, &buf, &len, &ignored) != 0 ||
        htxs_parse(&doc, buf, len, "cache entry", &ignored) != 0)
        return;
    for (uint32_t i = 0; i < doc.nsections; i++) {
        const struct htxs_section *s = &doc.sections[i];
        htxs_begin_section_tagged(w, s->kind, s->tag);
        htxs_put_bytes(w, s->data, (size_t)s->len);
        htxs_end_section(w);
    }
    htxs_doc_fini(&doc);
}

/* Writes one entry (source record + events). Nothing is reported: a cache
 * that cannot be written is only a slower next start. */
static void write_entry(struct pending *w)
{
    struct app_cache *c = w->c;
    const uint8_t *pack;
    size_t len;
    struct htxs_source src;
    struct err ignored = {0, ""};
    if (trace_pack_finish(w->pack, &pack, &len, &ignored) == 0 && len <= c->max_bytes &&
        htxs_source_of(&src, w->real, NULL) == 0) {
        struct htxs_writer hw;
        htxs_writer_init(&hw);
        htxs_source_write(&hw, &src);
        if (w->has_extra)
            copy_sections(&hw, &w->extra);
        htxs_begin_section(&hw, HTXS_EVENTS);
        htxs_put_borrowed(&hw, pack, len);
        htxs_end_section(&hw);
        if (make_dir(c->dir) && htxs_writer_save(&hw, w->entry, 1, &ignored) == 0)
            prune(c, w->entry);   // only this thread prunes
        htxs_writer_fini(&hw);
    }
    trace_pack_free(w->pack);
    if (w->has_extra)
        htxs_writer_fini(&w->extra);
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
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* lo->packed: queues the pack for the writer thread. */
static int packed(void *ctx, const char *path, struct trace_pack *pack, struct err *e)
{
    (void)e;
    struct app_cache *c = ctx;
    struct pending *w = calloc(1, sizeof *w);
    if (w)
        w->real = realpath(path, NULL);
    if (!w || !w->real || !entry_of_real(c, w->real, w->entry, sizeof w->entry)) {
        if (w)
            free(w->real);
        free(w);
        trace_pack_free(pack);
        return 0;
    }
    w->c = c;
    w->pack = pack;
    pthread_mutex_lock(&c->lock);
    bool taken = !c->closing;
    if (taken) {
        w->next = c->held;
        c->held = w;
    }
    pthread_mutex_unlock(&c->lock);
    if (!taken) {
        trace_pack_free(pack);
        free(w->real);
        free(w);
    }
    return 0;
}

/* Queues the held packs for the writer (started on the first). Under the lock. */
static void release_held(struct app_cache *c)
{
    if (!c->held)
        return;
    if (!c->writer_started && !c->closing)
        c->writer_started = pthread_create(&c->writer, NULL, writer, c) == 0;
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

/* The sections of rank r for its entry. */
static void rank_extra(const struct model *m, size_t r, bool canonical, struct htxs_writer *x)
{
    const struct rank_model *rm = &m->ranks[r];
    struct htxs_rank rec = {.rank = rm->rank, .events = rm->complete_events};
    snprintf(rec.path, sizeof rec.path, "%s", rm->path);
    htxs_rank_write(x, &rec);
    struct analysis_opts ao;
    analysis_opts_default(&ao);
    if (canonical) {
        struct arena a;
        arena_init(&a, 1 << 20);
        struct tiles t;
        if (tiles_build(m, rm, &ao, false, &a, &t) == 0)
            htxs_tiles_write(x, &t);
        arena_fini(&a);
        struct coll_record *recs;
        size_t n;
        if (coll_rank_records(m, &ao, r, &recs, &n) == 0)
            htxs_colls_write(x, rm->rank, m->has_origin ? &m->origin_ns : NULL, &m->strings,
                             recs, n);
        free(recs);
    }
}

void app_cache_model(struct app_cache *c, const struct model *m)
{
    struct semantics htx;
    semantics_init(&htx, SEMANTICS_HTX);
    bool canonical = memcmp(&m->sem, &htx, sizeof htx) == 0;   // what a summary holds
    pthread_mutex_lock(&c->lock);
    struct pending *held = c->held;
    pthread_mutex_unlock(&c->lock);
    for (size_t r = 0; r < m->nranks && held; r++) {
        char *real = m->ranks[r].path ? realpath(m->ranks[r].path, NULL) : NULL;
        for (struct pending *w = held; real && w; w = w->next)
            if (!w->has_extra && strcmp(w->real, real) == 0) {
                htxs_writer_init(&w->extra);
                rank_extra(m, r, canonical, &w->extra);
                w->has_extra = true;
            }
        free(real);
    }
    pthread_mutex_lock(&c->lock);
    release_held(c);
    pthread_mutex_unlock(&c->lock);
}

void app_cache_attach(struct app_cache *c, struct load_opts *lo)
{
    lo->cached = cached;
    lo->cached_ctx = c;
    lo->packed = packed;
    lo->packed_ctx = c;
}
