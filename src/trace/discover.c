#include "config.h"
#include "trace/discover.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "util/str.h"
#include "util/vec.h"

bool trace_is_trace_name(const char *name)
{
    return str_ends_with(name, ".json") || str_ends_with(name, ".json.gz") ||
           str_ends_with(name, ".htxs");   // rank summaries read as their traces (trace/pack.h)
}

int trace_file_list_note(struct trace_file_list *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return ERR_INTERNAL;
    size_t need = l->notes_len + (size_t)n + 2;
    if (need < l->notes_len || vec_reserve((void **)&l->notes, &l->notes_cap, 1, need))
        return ERR_NOMEM;
    va_start(ap, fmt);
    vsnprintf(l->notes + l->notes_len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    l->notes_len += (size_t)n;
    l->notes[l->notes_len++] = '\n';
    l->notes[l->notes_len] = '\0';
    return 0;
}

static int add_file(struct trace_file_list *l, const char *path, uint64_t size, struct err *e)
{
    if (VEC_PUSH_SLOT(l->files, l->count, l->cap))
        return err_set(e, ERR_NOMEM, "out of memory");
    char *copy = strdup(path);
    if (!copy)
        return err_set(e, ERR_NOMEM, "out of memory");
    l->files[l->count].path = copy;
    l->files[l->count].size = size;
    l->count++;
    return 0;
}

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir, sorted. Caller frees each and the array. */
static int list_dir(const char *dir, char ***names, size_t *count, struct err *e)
{
    DIR *d = opendir(dir);
    if (!d)
        return err_set(e, ERR_IO, "%s: %s", dir, strerror(errno));
    size_t cap = 0;
    *names = NULL;
    *count = 0;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
            continue;
        char *copy = strdup(de->d_name);
        if (!copy || VEC_PUSH_SLOT(*names, *count, cap)) {
            free(copy);
            rc = err_set(e, ERR_NOMEM, "out of memory");
            break;
        }
        (*names)[(*count)++] = copy;
    }
    closedir(d);
    if (*count > 1)
        qsort(*names, *count, sizeof **names, cmp_name);
    return rc;
}

static char *join(const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    bool slash = a > 0 && dir[a - 1] == '/';
    char *p = malloc(a + b + 2);
    if (p)
        sprintf(p, "%s%s%s", dir, slash ? "" : "/", name);
    return p;
}

/* Adds a directory entry, or a note saying why it was left out. */
static int take_entry(struct trace_file_list *out, const char *path, const char *name,
                      size_t *taken, struct err *e)
{
    struct stat st;
    int rc;
    if (!trace_is_trace_name(name))
        rc = trace_file_list_note(out, "%s: skipped (not a .json, .json.gz or .htxs file)", path);
    else if (str_ends_with(name, "_with_counters.json") || str_ends_with(name, "_with_counters.json.gz"))
        /* htx counters writes these beside the ranks they copy; taking them
         * would load every rank twice. Name the file to open it. */
        rc = trace_file_list_note(out, "%s: skipped (written by htx counters)", path);
    else if (stat(path, &st) != 0)
        rc = trace_file_list_note(out, "%s: skipped (%s)", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = trace_file_list_note(out, "%s: skipped (%s)", path, kind_of(st.st_mode));
    else {
        (*taken)++;
        return add_file(out, path, (uint64_t)st.st_size, e);
    }
    return rc ? err_set(e, rc, "out of memory") : 0;
}

static int expand_dir(struct trace_file_list *out, const char *dir, struct err *e)
{
    char **names = NULL;
    size_t n = 0;
    int rc = list_dir(dir, &names, &n, e);
    size_t taken = 0;
    for (size_t i = 0; i < n; i++) {
        if (rc == 0) {
            char *path = join(dir, names[i]);
            rc = path ? take_entry(out, path, names[i], &taken, e)
                      : err_set(e, ERR_NOMEM, "out of memory");
            free(path);
        }
        free(names[i]);
    }
    free(names);
    if (rc == 0 && taken == 0)
        rc = err_set(e, ERR_EMPTY, "%s: no trace files (.json, .json.gz) or rank summaries (.htxs) "
                     "in this directory", dir);
    return rc;
}

static int expand_path(struct trace_file_list *out, const char *path, struct err *e)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        if (trace_is_trace_name(path))
            return err_set(e, ERR_IO, "%s: is a directory, not a trace file", path);
        return expand_dir(out, path, e);
    }
    if (!S_ISREG(st.st_mode))
        return err_set(e, ERR_IO, "%s: is %s, not a trace file", path, kind_of(st.st_mode));
    return add_file(out, path, (uint64_t)st.st_size, e);
}

int trace_discover(const char *const *paths, size_t npaths, struct trace_file_list *out,
                   struct err *e)
{
    memset(out, 0, sizeof *out);
    if (npaths == 0)
        return err_set(e, ERR_USAGE, "no trace path given");
    for (size_t i = 0; i < npaths; i++) {
        int rc = expand_path(out, paths[i], e);
        if (rc) {
            trace_file_list_fini(out);
            return rc;
        }
    }
    return 0;
}

void trace_file_list_fini(struct trace_file_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->files[i].path);
    free(l->files);
    free(l->notes);
    memset(l, 0, sizeof *l);
}

/* Parses "rank" [-_]? digits at s (which starts at the word), or -1. */
static long rank_at(const char *s)
{
    if (strncasecmp(s, "rank", 4) != 0)
        return -1;
    s += 4;
    if (*s == '-' || *s == '_')
        s++;
    if (!isdigit((unsigned char)*s))
        return -1;
    long v = 0;
    for (; isdigit((unsigned char)*s); s++) {
        if (v > (LONG_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

long trace_rank_from_filename(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    long found = -1;
    for (const char *p = base; *p; p++) {
        long v = rank_at(p);
        if (v >= 0)
            found = v;
    }
    return found;
}
