#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/cache.h"
#include "app/rank_summary.h"
#include "summary/tables.h"
#include "util/summary_file.h"
#include "summary_test.h"

/* The TUI's cache (app/cache.h): an entry is the summary `htx summarize`
 * makes of its trace; a load that ends in a hurry (the user quits) leaves
 * an entry with its events alone, which the next load that reads it
 * completes. */

struct cache_case {
    char dir[64];
    char trace[PATH_MAX];   /* a copy of tests/data/cli/job/rank-0.json, by its real path */
};

static void cache_case_init(struct cache_case *k)
{
    snprintf(k->dir, sizeof k->dir, "/tmp/htx-cache-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(k->dir));
    char src[PATH_MAX], cmd[3 * PATH_MAX];
    const char *srcdir = getenv("HTX_SRCDIR");
    snprintf(src, sizeof src, "%s/tests/data/cli/job/rank-0.json", srcdir ? srcdir : "..");
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/rank-0.json'", src, k->dir);
    ck_assert_int_eq(system(cmd), 0);
    char given[PATH_MAX];
    snprintf(given, sizeof given, "%s/rank-0.json", k->dir);
    ck_assert_ptr_nonnull(realpath(given, k->trace));
    ck_assert_int_eq(setenv("XDG_CACHE_HOME", k->dir, 1), 0);
}

static void cache_case_fini(struct cache_case *k)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", k->dir);
    ck_assert_int_eq(system(cmd), 0);
    unsetenv("XDG_CACHE_HOME");
}

/* The trace loaded through a cache, as the TUI does (one thread); loaded:
 * whether the load reports being done (app_cache_loaded) before the cache
 * closes; complete: app_cache_fini's. Whether a rank came from the cache. */
static bool load_through_cache(const struct cache_case *k, bool loaded, bool complete)
{
    struct app_cache c;
    struct err e = {0, ""};
    ck_assert_int_eq(app_cache_init(&c, &e), 0);
    struct semantics sem;
    struct analysis_opts ao;
    app_rank_summary_options(&sem, &ao);
    struct load_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.threads = 1;
    app_cache_attach(&c, &lo);
    const char *paths[] = {k->trace};
    struct model *m = model_load(paths, 1, &sem, &lo, &e);
    ck_assert_msg(m != NULL, "%s", e.msg);
    bool from_cache = m->ranks[0].from_cache;
    if (loaded)
        app_cache_loaded(&c);
    model_free(m);
    app_cache_fini(&c, complete);
    return from_cache;
}

static int keep_pack(void *ctx, const char *path, struct trace_pack *pack, struct err *e)
{
    (void)path;
    (void)e;
    *(struct trace_pack **)ctx = pack;
    return 0;
}

/* What summarize writes of the trace, in *bytes (malloc'ed). */
static size_t summary_of(const struct cache_case *k, uint8_t **bytes)
{
    struct semantics sem;
    struct analysis_opts ao;
    app_rank_summary_options(&sem, &ao);
    struct load_opts lo;
    memset(&lo, 0, sizeof lo);
    struct trace_pack *pack = NULL;
    lo.packed = keep_pack;
    lo.packed_ctx = &pack;
    struct err e = {0, ""};
    const char *paths[] = {k->trace};
    struct model *m = model_load(paths, 1, &sem, &lo, &e);
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(pack);
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    struct summary_file_source src;
    ck_assert_int_eq(summary_file_source_of(&src, k->trace, &e), 0);
    struct rank_summary_parts parts = {.pack = pack, .source = &src};
    ck_assert_int_eq(app_rank_summary(m, &ao, 1, &parts, k->trace, &w, &e), 0);
    const uint8_t *buf;
    size_t len;
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &len, &e), 0);
    *bytes = malloc(len);
    ck_assert_ptr_nonnull(*bytes);
    memcpy(*bytes, buf, len);
    summary_file_writer_fini(&w);
    trace_pack_free(pack);
    model_free(m);
    return len;
}

/* The entry of the trace: its doc (the caller frees it). */
static void entry_doc(const struct cache_case *k, struct summary_file_doc *doc)
{
    struct app_cache c;
    struct err e = {0, ""};
    ck_assert_int_eq(app_cache_init(&c, &e), 0);
    char *entry = app_cache_entry(&c, k->trace);
    ck_assert_msg(entry != NULL, "no fresh entry of %s", k->trace);
    ck_assert_int_eq(summary_file_load_file(doc, entry, &e), 0);
    free(entry);
    app_cache_fini(&c, true);
}

static bool has_tables(const struct summary_file_doc *doc)
{
    for (uint32_t i = 0; i < doc->nsections; i++)
        if (summary_file_is_tables(&doc->sections[i]))
            return true;
    return false;
}

START_TEST(cache_entry_should_be_the_summary_of_its_trace)
{
    struct cache_case k;
    cache_case_init(&k);
    ck_assert(!load_through_cache(&k, true, true));
    uint8_t *want;
    size_t len = summary_of(&k, &want);
    struct summary_file_doc doc;
    entry_doc(&k, &doc);
    ck_assert_uint_eq(doc.len, len);
    ck_assert(memcmp(doc.owned, want, len) == 0);
    summary_file_doc_fini(&doc);
    ck_assert(load_through_cache(&k, true, true));   // and the next load reads it
    free(want);
    cache_case_fini(&k);
}
END_TEST

START_TEST(cache_entry_left_in_a_hurry_should_be_completed_by_the_next_load)
{
    struct cache_case k;
    cache_case_init(&k);
    // the user quits before the load is done: the entry has its events only
    ck_assert(!load_through_cache(&k, false, false));
    struct summary_file_doc doc;
    entry_doc(&k, &doc);
    ck_assert_ptr_nonnull(summary_file_find(&doc, SUMMARY_FILE_EVENTS));
    ck_assert(!has_tables(&doc));
    ck_assert_ptr_null(summary_file_find(&doc, SUMMARY_FILE_TILES));
    summary_file_doc_fini(&doc);
    // a hurried quit of the next load does not complete it either
    ck_assert(load_through_cache(&k, true, false));
    entry_doc(&k, &doc);
    ck_assert(!has_tables(&doc));
    summary_file_doc_fini(&doc);
    // a load that reads it and ends unhurried completes it
    ck_assert(load_through_cache(&k, true, true));
    uint8_t *want;
    size_t len = summary_of(&k, &want);
    entry_doc(&k, &doc);
    ck_assert(has_tables(&doc));
    ck_assert_uint_eq(doc.len, len);
    ck_assert(memcmp(doc.owned, want, len) == 0);
    summary_file_doc_fini(&doc);
    free(want);
    cache_case_fini(&k);
}
END_TEST

/* htx cache-complete on the given paths (what a TUI that quits starts). */
static int cache_complete(const char *path)
{
    struct htx_options o;
    htx_options_init(&o);
    const char *paths[] = {path};
    o.paths = paths;
    o.npaths = 1;
    int rc = app_cache_complete(&o);
    o.paths = NULL;
    o.npaths = 0;
    htx_options_fini(&o);
    return rc;
}

/* The path of k's entry, written with its events only (a quit before
 * the load's end); the caller frees it. */
static char *events_only_entry(struct cache_case *k)
{
    ck_assert(!load_through_cache(k, false, false));
    struct app_cache c;
    struct err e = {0, ""};
    ck_assert_int_eq(app_cache_init(&c, &e), 0);
    char *entry = app_cache_entry(&c, k->trace);
    app_cache_fini(&c, true);
    ck_assert_ptr_nonnull(entry);
    return entry;
}

START_TEST(cache_entry_left_unfinished_should_be_completed_by_cache_complete)
{
    struct cache_case k;
    cache_case_init(&k);
    char *entry = events_only_entry(&k);
    // a file that is no entry of the cache's directory is left alone
    char trace_before[64];
    struct stat st;
    ck_assert_int_eq(stat(k.trace, &st), 0);
    snprintf(trace_before, sizeof trace_before, "%lld %lld", (long long)st.st_size,
             (long long)st.st_mtim.tv_nsec);
    ck_assert_int_eq(cache_complete(k.trace), 0);
    ck_assert_int_eq(stat(k.trace, &st), 0);
    char trace_after[64];
    snprintf(trace_after, sizeof trace_after, "%lld %lld", (long long)st.st_size,
             (long long)st.st_mtim.tv_nsec);
    ck_assert_str_eq(trace_before, trace_after);
    // the entry is completed: the summary summarize writes, with its thread names
    ck_assert_int_eq(cache_complete(entry), 0);
    uint8_t *want;
    size_t len = summary_of(&k, &want);
    struct summary_file_doc doc;
    entry_doc(&k, &doc);
    ck_assert(has_tables(&doc));
    ck_assert_ptr_nonnull(summary_file_find(&doc, SUMMARY_FILE_THREADS));
    ck_assert_uint_eq(doc.len, len);
    ck_assert(memcmp(doc.owned, want, len) == 0);
    summary_file_doc_fini(&doc);
    // and nothing beside it (the write is a temporary file renamed)
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test \"$(ls -A '%s/htx' | grep -cv '\\.htxs$')\" = 0", k.dir);
    ck_assert_int_eq(system(cmd), 0);
    free(want);
    free(entry);
    cache_case_fini(&k);
}
END_TEST

struct completer {
    pthread_t thread;
    const char *entry;
    int rc;
};

static void *run_completer(void *arg)
{
    struct completer *w = arg;
    w->rc = cache_complete(w->entry);
    return NULL;
}

START_TEST(cache_complete_should_wait_for_the_completer_already_running)
{
    struct cache_case k;
    cache_case_init(&k);
    char *entry = events_only_entry(&k);
    // another completer holds the directory: this one waits, writing nothing
    char dir[512];
    snprintf(dir, sizeof dir, "%s/htx", k.dir);
    int held = open(dir, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(held, 0);
    ck_assert_int_eq(flock(held, LOCK_EX), 0);
    struct completer w = {.entry = entry, .rc = -1};
    ck_assert_int_eq(pthread_create(&w.thread, NULL, run_completer, &w), 0);
    usleep(300 * 1000);
    struct summary_file_doc doc;
    entry_doc(&k, &doc);
    ck_assert(!has_tables(&doc));
    summary_file_doc_fini(&doc);
    // the other one done: this one completes the entry
    close(held);
    pthread_join(w.thread, NULL);
    ck_assert_int_eq(w.rc, 0);
    entry_doc(&k, &doc);
    ck_assert(has_tables(&doc));
    summary_file_doc_fini(&doc);
    free(entry);
    cache_case_fini(&k);
}
END_TEST

TCase *cache_tcase(void)
{
    TCase *tc = tcase_create("cache");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, cache_entry_should_be_the_summary_of_its_trace);
    tcase_add_test(tc, cache_entry_left_in_a_hurry_should_be_completed_by_the_next_load);
    tcase_add_test(tc, cache_entry_left_unfinished_should_be_completed_by_cache_complete);
    tcase_add_test(tc, cache_complete_should_wait_for_the_completer_already_running);
    return tc;
}
