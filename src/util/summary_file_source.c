#include "config.h"

#include "util/summary_file_source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/content_hash.h"

uint64_t summary_file_fnv1a(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The span's bytes go through a buffer of this size: one of
 * SUMMARY_FILE_HASH_SPAN bytes, each of its pages faulted in, would add
 * about 220 page faults to a 10 MB rank's summary. */
#define HASH_PIECE ((size_t)64 << 10)

/* FNV-1a of the SUMMARY_FILE_HASH_SPAN bytes from offset, or of those up to the
 * end of the file. */
static int hash_span(int fd, int64_t offset, uint64_t *out, uint8_t *buf)
{
    uint64_t h = SUMMARY_FILE_FNV_BASIS;
    for (int64_t done = 0; done < SUMMARY_FILE_HASH_SPAN;) {
        size_t left = (size_t)(SUMMARY_FILE_HASH_SPAN - done);
        size_t want = left < HASH_PIECE ? left : HASH_PIECE;
        long long got = summary_file_read_at(fd, buf, want, (uint64_t)(offset + done));
        if (got < 0)
            return -1;
        h = summary_file_fnv1a(h, buf, (size_t)got);
        if ((size_t)got < want)   // the end of the file
            break;
        done += got;
    }
    *out = h;
    return 0;
}

/* src from the file at path: all but the content hash, and that too when
 * content. */
static int source_of(struct summary_file_source *src, const char *path, bool content,
                     struct err *e)
{
    memset(src, 0, sizeof *src);
    size_t n = strlen(path);
    if (n >= sizeof src->path)
        return err_set(e, ERR_LIMIT, "%s: path too long for a summary", path);
    memcpy(src->path, path, n + 1);
    memcpy(src->given, path, n + 1);
    char *real = realpath(path, NULL);
    if (real && strlen(real) < sizeof src->absolute)
        strcpy(src->absolute, real);
    free(real);
    struct stat st;
    if (stat(path, &st) != 0)
        return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
    src->size = (int64_t)st.st_size;
    src->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
    uint8_t *buf = malloc(HASH_PIECE);
    int rc = buf ? 0 : -1;
    if (!rc)
        rc = hash_span(fd, 0, &src->head_hash, buf);
    if (!rc && src->size <= SUMMARY_FILE_HASH_SPAN)
        src->tail_hash = src->head_hash;   // the same bytes: the whole file (FNV-1a, ~1 ns a byte)
    else if (!rc)
        rc = hash_span(fd, src->size - SUMMARY_FILE_HASH_SPAN, &src->tail_hash, buf);
    if (!rc && content) {
        rc = util_content_hash_fd(fd, &src->content_hash, NULL);
        src->has_content = rc == 0;
    }
    free(buf);
    close(fd);
    if (rc)
        return err_set(e, ERR_IO, "%s: cannot read to hash it", path);
    return 0;
}

int summary_file_source_of(struct summary_file_source *src, const char *path, struct err *e)
{
    return source_of(src, path, true, e);
}

void summary_file_source_write(struct summary_file_writer *w, const struct summary_file_source *src)
{
    summary_file_begin_section(w, SUMMARY_FILE_SOURCE);
    summary_file_put_str(w, src->path, strlen(src->path));
    summary_file_put_i64(w, src->size);
    summary_file_put_i64(w, src->mtime_ns);
    summary_file_put_u64(w, src->head_hash);
    summary_file_put_u64(w, src->tail_hash);
    summary_file_put_str(w, src->absolute, strlen(src->absolute));
    if (src->has_content)   // after the fields older readers know, which skip it
        summary_file_put_u64(w, src->content_hash);
    summary_file_end_section(w);
}

/* Candidate k (0, 1, 2) of the trace's path seen from here, for the summary
 * at name, into buf; false when k has none (an absolute path recorded needs
 * no second candidate, an old summary has no real path). */
static bool candidate(const struct summary_file_source *src, const char *name, int k, char *buf,
                      size_t n)
{
    int w = -1;
    if (k == 0) {
        w = snprintf(buf, n, "%s", src->given);
    } else if (k == 1 && src->given[0] != '/') {
        const char *slash = strrchr(name, '/');
        if (!slash)
            return false;   // the summary is in the working directory: candidate 0
        w = snprintf(buf, n, "%.*s/%s", (int)(slash - name), name, src->given);
    } else if (k == 2 && src->absolute[0] && strcmp(src->absolute, src->given) != 0) {
        w = snprintf(buf, n, "%s", src->absolute);
    }
    return w > 0 && (size_t)w < n;
}

/* src->path: the first candidate that exists, else the recorded one. */
static void locate(struct summary_file_source *src, const char *name)
{
    char p[SUMMARY_FILE_SOURCE_PATH_MAX];
    struct stat st;
    for (int k = 0; k < 3; k++) {
        if (candidate(src, name, k, p, sizeof p) && stat(p, &st) == 0) {
            strcpy(src->path, p);
            return;
        }
    }
    strcpy(src->path, src->given);
}

void summary_file_source_tried(const struct summary_file_source *src, const char *name, char *buf,
                               size_t n)
{
    char p[SUMMARY_FILE_SOURCE_PATH_MAX];
    bool beside = candidate(src, name, 1, p, sizeof p);
    bool real = candidate(src, name, 2, p, sizeof p);
    snprintf(buf, n, "%s%s%s%s", src->given, beside ? " here and beside the summary" : "",
             real ? ", then " : "", real ? src->absolute : "");
}

static int source_of_section(struct summary_file_source *src, const struct summary_file_section *s,
                             const char *name, struct err *e)
{
    memset(src, 0, sizeof *src);
    if (!s)
        return err_set(e, ERR_PARSE, "%s: summary has no source record", name);
    struct summary_file_cur c;
    summary_file_cur_init(&c, s);
    size_t n;
    const char *p = summary_file_get_str(&c, &n);
    src->size = summary_file_get_i64(&c);
    src->mtime_ns = summary_file_get_i64(&c);
    src->head_hash = summary_file_get_u64(&c);
    src->tail_hash = summary_file_get_u64(&c);
    if (c.bad || n >= sizeof src->given || memchr(p, 0, n))
        return err_set(e, ERR_PARSE, "%s: malformed source record", name);
    memcpy(src->given, p, n);
    src->given[n] = 0;
    if (c.p < c.end) {   // the real path, in summaries that record it
        size_t an;
        const char *a = summary_file_get_str(&c, &an);
        if (c.bad || an >= sizeof src->absolute || memchr(a, 0, an))
            return err_set(e, ERR_PARSE, "%s: malformed source record", name);
        memcpy(src->absolute, a, an);
        src->absolute[an] = 0;
    }
    if (c.p < c.end) {   // the content hash, in summaries that record it
        src->content_hash = summary_file_get_u64(&c);
        if (c.bad)
            return err_set(e, ERR_PARSE, "%s: malformed source record", name);
        src->has_content = true;
    }
    locate(src, name);
    return 0;
}

int summary_file_source_read(struct summary_file_source *src, const struct summary_file_doc *doc, const char *name, struct err *e)
{
    return source_of_section(src, summary_file_find(doc, SUMMARY_FILE_SOURCE), name, e);
}

int summary_file_source_peek(struct summary_file_source *src, const char *path, struct err *e)
{
    uint8_t *data;
    uint64_t len;
    int rc = summary_file_peek_section(path, SUMMARY_FILE_SOURCE, &data, &len, e);
    if (rc == ERR_EMPTY)
        return source_of_section(src, NULL, path, e);
    if (rc)
        return rc;
    struct summary_file_section s = {SUMMARY_FILE_SOURCE, data, len, 0};
    rc = source_of_section(src, &s, path, e);
    free(data);
    return rc;
}

enum summary_file_freshness summary_file_source_check(const struct summary_file_source *recorded, bool deep)
{
    struct stat st;
    if (stat(recorded->path, &st) != 0)
        return SUMMARY_FILE_UNREACHABLE;
    if ((int64_t)st.st_size != recorded->size ||
        (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec != recorded->mtime_ns)
        return SUMMARY_FILE_STALE;
    if (!deep)
        return SUMMARY_FILE_FRESH;
    struct summary_file_source now;
    if (source_of(&now, recorded->path, false, NULL) != 0)
        return SUMMARY_FILE_UNREACHABLE;
    if (now.size != recorded->size || now.mtime_ns != recorded->mtime_ns ||
        now.head_hash != recorded->head_hash || now.tail_hash != recorded->tail_hash)
        return SUMMARY_FILE_STALE;
    return SUMMARY_FILE_FRESH;
}

int summary_file_source_same_content(const struct summary_file_source *recorded,
                                     const atomic_bool *stop)
{
    if (!recorded->has_content)
        return 0;
    int fd = open(recorded->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return ERR_IO;
    uint64_t h;
    int rc = util_content_hash_fd(fd, &h, stop);
    close(fd);
    return rc ? rc : h == recorded->content_hash;
}
