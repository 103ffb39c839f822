#include "config.h"

#include "util/htxs_source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t htxs_fnv1a(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The span's bytes go through a buffer of this size: one of
 * HTXS_HASH_SPAN bytes, each of its pages faulted in, added about 220 page
 * faults to a 10 MB rank's summary. */
#define HASH_PIECE ((size_t)64 << 10)

/* FNV-1a of the HTXS_HASH_SPAN bytes from offset, or of those up to the
 * end of the file. */
static int hash_span(int fd, int64_t offset, uint64_t *out, uint8_t *buf)
{
    uint64_t h = HTXS_FNV_BASIS;
    for (int64_t done = 0; done < HTXS_HASH_SPAN;) {
        size_t left = (size_t)(HTXS_HASH_SPAN - done);
        size_t want = left < HASH_PIECE ? left : HASH_PIECE;
        long long got = htxs_read_at(fd, buf, want, (uint64_t)(offset + done));
        if (got < 0)
            return -1;
        h = htxs_fnv1a(h, buf, (size_t)got);
        if ((size_t)got < want)   // the end of the file
            break;
        done += got;
    }
    *out = h;
    return 0;
}

int htxs_source_of(struct htxs_source *src, const char *path, struct err *e)
{
    memset(src, 0, sizeof *src);
    size_t n = strlen(path);
    if (n >= sizeof src->path)
        return err_set(e, ERR_LIMIT, "%s: path too long for a summary", path);
    memcpy(src->path, path, n + 1);
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
    if (!rc && src->size <= HTXS_HASH_SPAN)
        src->tail_hash = src->head_hash;   // the same bytes: the whole file (FNV-1a, ~1 ns a byte)
    else if (!rc)
        rc = hash_span(fd, src->size - HTXS_HASH_SPAN, &src->tail_hash, buf);
    free(buf);
    close(fd);
    if (rc)
        return err_set(e, ERR_IO, "%s: cannot read to hash it", path);
    return 0;
}

void htxs_source_write(struct htxs_writer *w, const struct htxs_source *src)
{
    htxs_begin_section(w, HTXS_SOURCE);
    htxs_put_str(w, src->path, strlen(src->path));
    htxs_put_i64(w, src->size);
    htxs_put_i64(w, src->mtime_ns);
    htxs_put_u64(w, src->head_hash);
    htxs_put_u64(w, src->tail_hash);
    htxs_end_section(w);
}

static int source_of_section(struct htxs_source *src, const struct htxs_section *s,
                             const char *name, struct err *e)
{
    memset(src, 0, sizeof *src);
    if (!s)
        return err_set(e, ERR_PARSE, "%s: summary has no source record", name);
    struct htxs_cur c;
    htxs_cur_init(&c, s);
    size_t n;
    const char *p = htxs_get_str(&c, &n);
    src->size = htxs_get_i64(&c);
    src->mtime_ns = htxs_get_i64(&c);
    src->head_hash = htxs_get_u64(&c);
    src->tail_hash = htxs_get_u64(&c);
    if (c.bad || n >= sizeof src->path || memchr(p, 0, n))
        return err_set(e, ERR_PARSE, "%s: malformed source record", name);
    memcpy(src->path, p, n);
    src->path[n] = 0;
    return 0;
}

int htxs_source_read(struct htxs_source *src, const struct htxs_doc *doc, const char *name, struct err *e)
{
    return source_of_section(src, htxs_find(doc, HTXS_SOURCE), name, e);
}

int htxs_source_peek(struct htxs_source *src, const char *path, struct err *e)
{
    uint8_t *data;
    uint64_t len;
    int rc = htxs_peek_section(path, HTXS_SOURCE, &data, &len, e);
    if (rc == ERR_EMPTY)
        return source_of_section(src, NULL, path, e);
    if (rc)
        return rc;
    struct htxs_section s = {HTXS_SOURCE, data, len, 0};
    rc = source_of_section(src, &s, path, e);
    free(data);
    return rc;
}

enum htxs_freshness htxs_source_check(const struct htxs_source *recorded, bool deep)
{
    struct stat st;
    if (stat(recorded->path, &st) != 0)
        return HTXS_UNREACHABLE;
    if ((int64_t)st.st_size != recorded->size ||
        (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec != recorded->mtime_ns)
        return HTXS_STALE;
    if (!deep)
        return HTXS_FRESH;
    struct htxs_source now;
    if (htxs_source_of(&now, recorded->path, NULL) != 0)
        return HTXS_UNREACHABLE;
    if (now.size != recorded->size || now.mtime_ns != recorded->mtime_ns ||
        now.head_hash != recorded->head_hash || now.tail_hash != recorded->tail_hash)
        return HTXS_STALE;
    return HTXS_FRESH;
}
