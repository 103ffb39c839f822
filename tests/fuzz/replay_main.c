#include "config.h"
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Runs the fuzz target over saved inputs without libFuzzer, so make check
 * replays every crash ever found (tests/fuzz/regressions) and the seed
 * corpus under gcc, ASan or valgrind.
 *
 *   tests/fuzz/replay [FILE|DIR]...
 *
 * Without arguments it replays the directories FUZZ_REPLAY_DIRS names,
 * under $HTX_SRCDIR. Exit 0 when every input ran; a broken invariant aborts
 * inside the target. */

#ifndef FUZZ_REPLAY_DIRS
#define FUZZ_REPLAY_DIRS "tests/fuzz/regressions", "tests/fuzz/corpus"
#endif

static int replay_file(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return 1;
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            char *grown = realloc(buf, cap);
            if (!grown) {
                fprintf(stderr, "replay: %s: out of memory\n", path);
                free(buf);
                fclose(f);
                return 1;
            }
            buf = grown;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: %s: read error\n", path);
        free(buf);
        return 1;
    }
    LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
    free(buf);
    (*count)++;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays the regular files of dir (not recursive), in name order. */
static int replay_dir(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t n = 0;
    int status = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char **grown = realloc(names, (n + 1) * sizeof *names);
        char *path = NULL;
        if (!grown || asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
            names = grown ? grown : names;
            status = 1;
            break;
        }
        names = grown;
        names[n++] = path;
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
            status |= replay_file(names[i], count);
        free(names[i]);
    }
    free(names);
    return status;
}

static int replay_path(const char *path, size_t *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return 1;
    }
    return S_ISDIR(st.st_mode) ? replay_dir(path, count) : replay_file(path, count);
}

int main(int argc, char **argv)
{
    size_t count = 0;
    int status = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            status |= replay_path(argv[i], &count);
    } else {
        const char *src = getenv("HTX_SRCDIR");
        if (!src)
            src = ".";
        static const char *const dirs[] = {FUZZ_REPLAY_DIRS};
        for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
            char *path = NULL;
            if (asprintf(&path, "%s/%s", src, dirs[i]) < 0)
                return 1;
            status |= replay_path(path, &count);
            free(path);
        }
    }
    printf("replay: %zu inputs replayed%s\n", count, status ? ", some unreadable" : "");
    return status;
}
