#include "config.h"

#include "util/summary_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/le.h"

/* A summary's small sections without its events (summary_file_load_file_sparse):
 * a thousand summaries of 5 MB whose tables, tiles and records are 0.2 MB
 * each are opened by reading a twentieth of them. */

long long summary_file_read_at(int fd, void *buf, size_t n, uint64_t at)
{
    uint8_t *p = buf;
    size_t done = 0;
    while (done < n) {
        ssize_t got = pread(fd, p + done, n - done, (off_t)(at + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        done += (size_t)got;
    }
    return (long long)done;
}

static int read_at(int fd, void *buf, size_t n, uint64_t at)
{
    return summary_file_read_at(fd, buf, n, at) == (long long)n ? 0 : -1;
}

/* The sections' headers walked with every bound checked: kinds, tags and
 * lengths into s, their payloads' offsets into off, their headers'
 * checksums into hcrc. */
static int walk(int fd, uint64_t size, uint32_t nsections, struct summary_file_section *s, uint64_t *off,
                uint32_t *hcrc, const char *path, struct err *e)
{
    uint64_t at = SUMMARY_FILE_HEADER_LEN, end = size - SUMMARY_FILE_TRAILER_LEN;
    for (uint32_t i = 0; i < nsections; i++) {
        uint8_t h[SUMMARY_FILE_SECTION_HEADER_LEN];
        if (end - at < SUMMARY_FILE_SECTION_HEADER_LEN || read_at(fd, h, sizeof h, at))
            return err_set(e, ERR_PARSE, "%s: section %u header past the end", path, i);
        uint64_t n = le_load(h + 8, 8);
        at += SUMMARY_FILE_SECTION_HEADER_LEN;
        if (n > end - at)
            return err_set(e, ERR_PARSE, "%s: section %u (%llu bytes) past the end", path, i,
                           (unsigned long long)n);
        s[i] = (struct summary_file_section){(uint32_t)le_load(h, 4), NULL, n, (uint32_t)le_load(h + 4, 4)};
        off[i] = at;
        hcrc[i] = summary_file_crc32(0, h, sizeof h);
        at += n;
    }
    if (at != end)
        return err_set(e, ERR_PARSE, "%s: %llu stray bytes after the last section", path,
                       (unsigned long long)(end - at));
    if (nsections == 0 || s[nsections - 1].kind != SUMMARY_FILE_CHECKS || s[nsections - 1].tag != 0 ||
        s[nsections - 1].len != 4 + 8 * (uint64_t)(nsections - 1))
        return err_set(e, ERR_PARSE, "%s: no section checksums at the end", path);
    return 0;
}

static int read_payload(int fd, struct summary_file_section *s, uint64_t off, uint8_t *into,
                        const char *path, struct err *e)
{
    if (read_at(fd, into, (size_t)s->len, off))
        return err_set(e, ERR_IO, "%s: read error", path);
    s->data = into;
    return 0;
}

/* The checks section first; against it the file's header and every
 * section's header; then the kept payloads, each checked as it is read. */
static int read_kept(int fd, struct summary_file_doc *doc, const uint8_t *header, const uint64_t *off,
                     const uint32_t *hcrc, uint32_t skip, const char *path, struct err *e)
{
    struct summary_file_section *s = doc->sections;
    uint32_t last = doc->nsections - 1;
    uint64_t total = s[last].len;
    for (uint32_t i = 0; i < last; i++)
        total += s[i].kind != skip ? s[i].len : 0;   // < the file's size: no overflow
    doc->owned = malloc(total ? (size_t)total : 1);
    if (!doc->owned)
        return err_set(e, ERR_NOMEM, "%s: out of memory", path);
    int rc = read_payload(fd, &s[last], off[last], doc->owned, path, e);
    const uint8_t *checks = s[last].data;
    if (rc == 0 && summary_file_crc32(0, header, SUMMARY_FILE_HEADER_LEN) != le_load(checks, 4))
        return err_set(e, ERR_PARSE, "%s: bad checksum in the header (corrupt summary)", path);
    for (uint32_t i = 0; i < last && rc == 0; i++)
        if (hcrc[i] != le_load(checks + 4 + 8 * (size_t)i, 4))
            return err_set(e, ERR_PARSE, "%s: bad checksum in section %u's header (corrupt "
                           "summary)", path, i);
    uint64_t pos = s[last].len;
    for (uint32_t i = 0; i < last && rc == 0; i++) {
        if (s[i].kind == skip)
            continue;
        rc = read_payload(fd, &s[i], off[i], doc->owned + pos, path, e);
        pos += s[i].len;
        if (rc == 0 && summary_file_crc32(0, s[i].data, (size_t)s[i].len) !=
                           le_load(checks + 8 + 8 * (size_t)i, 4))
            return err_set(e, ERR_PARSE, "%s: bad checksum in section %u (corrupt summary)",
                           path, i);
    }
    return rc;
}

int summary_file_load_file_sparse(struct summary_file_doc *doc, const char *path, uint32_t skip, struct err *e)
{
    memset(doc, 0, sizeof *doc);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
    struct stat st;
    uint8_t h[SUMMARY_FILE_HEADER_LEN];
    bool sparse = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                  (uint64_t)st.st_size <= SUMMARY_FILE_MAX_FILE &&
                  (uint64_t)st.st_size >= SUMMARY_FILE_HEADER_LEN + SUMMARY_FILE_TRAILER_LEN &&
                  read_at(fd, h, sizeof h, 0) == 0 && memcmp(h, SUMMARY_FILE_MAGIC, SUMMARY_FILE_MAGIC_LEN) == 0 &&
                  le_load(h + 8, 2) == SUMMARY_FILE_MAJOR && le_load(h + 10, 2) >= 5 &&
                  le_load(h + 16, 8) == (uint64_t)st.st_size;
    if (!sparse) {   // older, or not sound: read whole, which names what is wrong
        close(fd);
        return summary_file_load_file(doc, path, e);
    }
    uint64_t size = (uint64_t)st.st_size;
    uint32_t nsections = (uint32_t)le_load(h + 12, 4);
    if (nsections > (size - SUMMARY_FILE_HEADER_LEN - SUMMARY_FILE_TRAILER_LEN) / SUMMARY_FILE_SECTION_HEADER_LEN) {
        close(fd);
        return err_set(e, ERR_PARSE, "%s: %u sections cannot fit in %llu bytes", path, nsections,
                       (unsigned long long)size);
    }
    doc->sections = calloc(nsections ? nsections : 1, sizeof *doc->sections);
    uint64_t *off = calloc(nsections ? nsections : 1, sizeof *off);
    uint32_t *hcrc = calloc(nsections ? nsections : 1, sizeof *hcrc);
    int rc = doc->sections && off && hcrc ? 0 : err_set(e, ERR_NOMEM, "%s: out of memory", path);
    doc->nsections = nsections;
    if (rc == 0)
        rc = walk(fd, size, nsections, doc->sections, off, hcrc, path, e);
    if (rc == 0)
        rc = read_kept(fd, doc, h, off, hcrc, skip, path, e);
    free(off);
    free(hcrc);
    close(fd);
    if (rc) {
        summary_file_doc_fini(doc);
        return rc;
    }
    doc->len = size;
    doc->major = (uint16_t)le_load(h + 8, 2);
    doc->minor = (uint16_t)le_load(h + 10, 2);
    return 0;
}
