#include "config.h"
#include "app/summary_job.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/cache.h"
#include "trace/discover.h"
#include "util/summary_file_source.h"
#include "util/str.h"
#include "util/vec.h"

/* Which files a summary job is made of (the rank summaries a path names,
 * or the cache's entries of the traces it names) and whether a front end
 * opens the job, its events, or both. */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int push_file(char ***out, size_t *n, size_t *cap, const char *dir, const char *name,
                     struct err *e)
{
    if (VEC_PUSH_SLOT(*out, *n, *cap))
        return err_set(e, ERR_NOMEM, "out of memory");
    size_t len = (dir ? strlen(dir) + 1 : 0) + strlen(name) + 1;
    if (!((*out)[*n] = malloc(len)))
        return err_set(e, ERR_NOMEM, "out of memory");
    snprintf((*out)[(*n)++], len, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
    return 0;
}

int summary_job_files(const char *const *paths, size_t npaths, char ***out, size_t *n,
                      size_t *traces, struct err *e)
{
    size_t cap = 0;
    *out = NULL;
    *n = *traces = 0;
    for (size_t i = 0; i < npaths; i++) {
        const char *p = paths[i];
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(p);
            if (!d)
                return err_set(e, ERR_IO, "%s: cannot read the directory", p);
            size_t first = *n;
            struct dirent *de;
            int rc = 0;
            while (rc == 0 && (de = readdir(d)) != NULL) {
                bool summary = str_ends_with(de->d_name, SUMMARY_FILE_SUFFIX);
                *traces += trace_is_trace_name(de->d_name) && !summary;
                if (summary)
                    rc = push_file(out, n, &cap, p, de->d_name, e);
            }
            closedir(d);
            if (rc)
                return rc;
            if (*n - first > 1)   // none listed: *out may still be NULL
                qsort(*out + first, *n - first, sizeof **out, cmp_str);
        } else {
            *traces += !str_ends_with(p, SUMMARY_FILE_SUFFIX);
            int rc = push_file(out, n, &cap, NULL, p, e);
            if (rc)
                return rc;
        }
    }
    return 0;
}

void summary_job_free_files(char **files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(files[i]);
    free(files);
}

/* The cache's fresh entries of the traces paths name (all of them, else
 * none: *n 0). */
static int cache_entries(const char *const *paths, size_t npaths, struct app_cache *cache,
                         char ***out, size_t *n, struct err *e)
{
    struct trace_file_list list;
    *out = NULL;
    *n = 0;
    int rc = trace_discover(paths, npaths, &list, e);
    if (rc)
        return rc;
    char **v = calloc(list.count + 1, sizeof *v);
    size_t k = 0;
    while (v && k < list.count && !str_ends_with(list.files[k].path, SUMMARY_FILE_SUFFIX) &&
           (v[k] = app_cache_entry(cache, list.files[k].path)) != NULL)
        k++;
    if (v && k == list.count && k > 0) {
        *out = v;
        *n = k;
    } else {
        summary_job_free_files(v, k);
    }
    trace_file_list_fini(&list);
    return v ? 0 : err_set(e, ERR_NOMEM, "out of memory");
}

int summary_job_preview(const char *const *paths, size_t npaths, struct app_cache *cache,
                        const struct semantics *sem, struct summary_job *l, struct err *e)
{
    memset(l, 0, sizeof *l);
    char **files;
    size_t nfiles, traces;
    int rc = summary_job_files(paths, npaths, &files, &nfiles, &traces, e);
    if (rc == 0 && traces && cache) {   // traces: their cache entries, when all are fresh
        summary_job_free_files(files, nfiles);
        rc = cache_entries(paths, npaths, cache, &files, &nfiles, e);
        traces = 0;
    }
    if (rc == 0 && nfiles && !traces)   // the events load behind: the tiles as stored
        rc = summary_job_open(l, files, nfiles, summary_job_views(sem), false, 0, e);
    summary_job_free_files(files, nfiles);
    if (rc)
        return rc;
    return l->n > 0;
}

bool summary_job_peek_events(char *const *files, size_t n, uint64_t *events)
{
    *events = 0;
    for (size_t i = 0; i < n; i++) {
        struct summary_file_rank r;
        struct err ignored = {0, ""};
        if (summary_file_rank_peek(files[i], &r, &ignored) != 0 ||
            __builtin_add_overflow(*events, r.events, events))
            return false;
    }
    return true;
}

bool summary_job_events_at_hand(char *const *files, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct err ignored = {0, ""};
        uint64_t len;
        int rc = summary_file_peek_section(files[i], SUMMARY_FILE_EVENTS, NULL, &len, &ignored);
        struct summary_file_source src;
        if (rc != 0 && !(rc == ERR_EMPTY && summary_file_source_peek(&src, files[i], &ignored) == 0 &&
                         summary_file_source_check(&src, false) == SUMMARY_FILE_FRESH))
            return false;
    }
    return true;
}

int summary_job_choose(const char *const *paths, size_t npaths, enum htx_events mode,
                       uint64_t memory_limit, const struct semantics *sem, struct summary_job *l,
                       struct err *e)
{
    memset(l, 0, sizeof *l);
    if (mode == HTX_EVENTS_LOAD)
        return 0;
    char **files;
    size_t nfiles, traces;
    int rc = summary_job_files(paths, npaths, &files, &nfiles, &traces, e);
    if (rc == 0 && (traces || nfiles == 0)) {
        summary_job_free_files(files, nfiles);
        return mode == HTX_EVENTS_SKIP
                   ? err_set(e, ERR_USAGE, "--events=skip shows rank summaries (*%s) only, "
                             "and these paths name traces", SUMMARY_FILE_SUFFIX)
                   : 0;
    }
    /* auto: the events' count from each rank's record alone (the loader
     * checks every summary whole when it reads the events); a summary that
     * cannot be peeked at is opened below, which names what is wrong */
    uint64_t events = 0;
    bool counted =
        rc == 0 && mode == HTX_EVENTS_AUTO && summary_job_peek_events(files, nfiles, &events);
    bool fits = counted && !(memory_limit && events > memory_limit / SUMMARY_JOB_BYTES_PER_EVENT);
    bool at_hand = fits && summary_job_events_at_hand(files, nfiles);
    if (rc == 0 && !at_hand)
        rc = summary_job_open(l, files, nfiles, summary_job_views(sem), false,
                              summary_job_tiles_budget(memory_limit), e);
    summary_job_free_files(files, nfiles);
    if (rc || at_hand)
        return rc;
    bool too_big = memory_limit && l->events > memory_limit / SUMMARY_JOB_BYTES_PER_EVENT;
    l->events_away = fits;
    if (mode == HTX_EVENTS_SKIP || too_big || l->events_away)
        return 1;
    summary_job_fini(l);
    return 0;
}
