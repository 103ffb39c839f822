#include "config.h"

#include "util/summary_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <sys/types.h>

#include "util/le.h"

/* CRC-32 (IEEE: reflected 0xEDB88320, init and final xor ~0), eight bytes
 * a step (slicing-by-8): a byte a step is slow on summaries of megabytes.
 * zlib stays in src/trace (tests/layering.sh). */
static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++)
            crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xFF];
}

uint32_t summary_file_crc32(uint32_t crc, const void *p, size_t n)
{
    pthread_once(&crc_once, crc_init);
    const uint8_t *b = p;
    crc = ~crc;
    for (; n >= 8; n -= 8, b += 8) {
        uint32_t lo = crc ^ ((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                             (uint32_t)b[3] << 24);
        crc = crc_table[7][lo & 0xFF] ^ crc_table[6][(lo >> 8) & 0xFF] ^
              crc_table[5][(lo >> 16) & 0xFF] ^ crc_table[4][lo >> 24] ^ crc_table[3][b[4]] ^
              crc_table[2][b[5]] ^ crc_table[1][b[6]] ^ crc_table[0][b[7]];
    }
    while (n--)
        crc = crc_table[0][(crc ^ *b++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

void summary_file_writer_init(struct summary_file_writer *w)
{
    memset(w, 0, sizeof *w);
    w->len = SUMMARY_FILE_HEADER_LEN; /* filled in by finish */
}

void summary_file_writer_fini(struct summary_file_writer *w)
{
    free(w->buf);
    free(w->checks);
    memset(w, 0, sizeof *w);
}

static uint8_t *reserve(struct summary_file_writer *w, size_t n)
{
    if (w->failed)
        return NULL;
    if (n > SUMMARY_FILE_MAX_FILE || w->len + w->borrowed_len + n > SUMMARY_FILE_MAX_FILE) {
        w->failed = 1;
        return NULL;
    }
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < w->len + n)
            cap *= 2;
        uint8_t *b = realloc(w->buf, cap);
        if (!b) {
            w->failed = 1;
            return NULL;
        }
        if (!w->buf)
            memset(b, 0, SUMMARY_FILE_HEADER_LEN);
        w->buf = b;
        w->cap = cap;
    }
    uint8_t *p = w->buf + w->len;
    w->len += n;
    return p;
}

void summary_file_put_bytes(struct summary_file_writer *w, const void *p, size_t n)
{
    uint8_t *d = reserve(w, n);
    if (d && n)
        memcpy(d, p, n);
}

void summary_file_put_borrowed(struct summary_file_writer *w, const void *p, size_t n)
{
    if (w->failed || !n)
        return;
    if (w->nborrowed == SUMMARY_FILE_MAX_BORROWED || n > SUMMARY_FILE_MAX_FILE ||
        w->len + w->borrowed_len + n > SUMMARY_FILE_MAX_FILE) {
        w->failed = 1;
        return;
    }
    w->borrowed[w->nborrowed++] = (struct summary_file_borrowed){w->len, p, n};
    w->borrowed_len += n;
}

void summary_file_put_u32(struct summary_file_writer *w, uint32_t v)
{
    uint8_t *d = reserve(w, 4);
    if (d)
        le_store(d, v, 4);
}

void summary_file_put_u64(struct summary_file_writer *w, uint64_t v)
{
    uint8_t *d = reserve(w, 8);
    if (d)
        le_store(d, v, 8);
}

void summary_file_put_i64(struct summary_file_writer *w, int64_t v) { summary_file_put_u64(w, (uint64_t)v); }

void summary_file_put_f64(struct summary_file_writer *w, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    summary_file_put_u64(w, bits);
}

void summary_file_put_varint(struct summary_file_writer *w, uint64_t v)
{
    uint8_t b[10];
    size_t n = 0;
    do {
        b[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    summary_file_put_bytes(w, b, n);
}

void summary_file_put_svarint(struct summary_file_writer *w, int64_t v)
{
    summary_file_put_varint(w, ((uint64_t)v << 1) ^ (uint64_t)(v < 0 ? -1 : 0));
}

void summary_file_put_str(struct summary_file_writer *w, const char *s, size_t n)
{
    if (n > UINT32_MAX) {
        w->failed = 1;
        return;
    }
    summary_file_put_u32(w, (uint32_t)n);
    summary_file_put_bytes(w, s, n);
}

void summary_file_begin_section(struct summary_file_writer *w, uint32_t kind)
{
    summary_file_begin_section_tagged(w, kind, 0);
}

void summary_file_begin_section_tagged(struct summary_file_writer *w, uint32_t kind, uint32_t tag)
{
    if (w->section_start)
        w->failed = 1; /* sections do not nest */
    size_t at = w->len;
    summary_file_put_u32(w, kind);
    summary_file_put_u32(w, tag);
    summary_file_put_u64(w, 0);
    if (!w->failed) {
        w->section_start = at;
        w->section_borrowed = w->borrowed_len;
        w->section_nborrowed = w->nborrowed;
    }
}

/* The open section's payload's CRC-32 (borrowed runs included). */
static uint32_t payload_crc(const struct summary_file_writer *w)
{
    uint32_t crc = 0;
    size_t from = w->section_start + SUMMARY_FILE_SECTION_HEADER_LEN;
    for (size_t i = w->section_nborrowed; i < w->nborrowed; i++) {
        const struct summary_file_borrowed *b = &w->borrowed[i];
        crc = summary_file_crc32(crc, w->buf + from, b->at - from);
        crc = summary_file_crc32(crc, b->p, b->n);
        from = b->at;
    }
    return summary_file_crc32(crc, w->buf + from, w->len - from);
}

void summary_file_end_section(struct summary_file_writer *w)
{
    if (!w->section_start) {
        w->failed = 1;
        return;
    }
    if (!w->failed)
        le_store(w->buf + w->section_start + 8,
                 w->len - w->section_start - SUMMARY_FILE_SECTION_HEADER_LEN +
                     (w->borrowed_len - w->section_borrowed), 8);
    if (!w->failed && w->nchecks + 2 > w->checks_cap) {
        size_t cap = w->checks_cap ? 2 * w->checks_cap : 16;
        uint32_t *c = realloc(w->checks, cap * sizeof *c);
        if (c) {
            w->checks = c;
            w->checks_cap = cap;
        } else {
            w->failed = 1;
        }
    }
    if (!w->failed) {
        w->checks[w->nchecks++] = summary_file_crc32(0, w->buf + w->section_start, SUMMARY_FILE_SECTION_HEADER_LEN);
        w->checks[w->nchecks++] = payload_crc(w);
    }
    w->section_start = 0;
    w->sections++;
}

const uint8_t *summary_file_writer_body(const struct summary_file_writer *w, size_t *len)
{
    *len = w->len - SUMMARY_FILE_HEADER_LEN;
    if (w->failed || w->nborrowed)
        return NULL;
    return w->buf ? w->buf + SUMMARY_FILE_HEADER_LEN : (const uint8_t *)"";
}

int summary_file_writer_pieces(struct summary_file_writer *w, struct summary_file_piece pieces[SUMMARY_FILE_MAX_PIECES], size_t *n,
                               struct err *e)
{
    *n = 0;
    if (w->section_start)
        w->failed = 1;
    /* the header as it will be (with the checks section and the trailer),
     * so that the checks hold its checksum first */
    size_t nchecks = w->nchecks;
    uint64_t checks_len = SUMMARY_FILE_SECTION_HEADER_LEN + 4 * ((uint64_t)nchecks + 1);   // + header's
    if (!reserve(w, 0) || w->failed)
        return err_set(e, ERR_NOMEM, "summary too large or out of memory");
    memcpy(w->buf, SUMMARY_FILE_MAGIC, SUMMARY_FILE_MAGIC_LEN); /* includes the NUL */
    le_store(w->buf + 8, SUMMARY_FILE_MAJOR, 2);
    le_store(w->buf + 10, SUMMARY_FILE_MINOR, 2);
    le_store(w->buf + 12, w->sections + 1, 4);
    le_store(w->buf + 16, w->len + w->borrowed_len + checks_len + SUMMARY_FILE_TRAILER_LEN, 8);
    summary_file_begin_section(w, SUMMARY_FILE_CHECKS);
    summary_file_put_u32(w, summary_file_crc32(0, w->buf, SUMMARY_FILE_HEADER_LEN));
    for (size_t i = 0; i < nchecks && !w->failed; i++)
        summary_file_put_u32(w, w->checks[i]);
    summary_file_end_section(w);
    uint8_t *crc = reserve(w, SUMMARY_FILE_TRAILER_LEN);
    if (w->failed || !crc)
        return err_set(e, ERR_NOMEM, "summary too large or out of memory");
    size_t from = 0;
    for (size_t i = 0; i < w->nborrowed; i++) {
        const struct summary_file_borrowed *b = &w->borrowed[i];
        if (b->at > from)
            pieces[(*n)++] = (struct summary_file_piece){w->buf + from, b->at - from};
        pieces[(*n)++] = (struct summary_file_piece){b->p, b->n};
        from = b->at;
    }
    pieces[(*n)++] = (struct summary_file_piece){w->buf + from, w->len - from};
    uint32_t sum = 0;
    for (size_t i = 0; i < *n; i++)   // the last piece ends with the CRC's own room
        sum = summary_file_crc32(sum, pieces[i].p, pieces[i].n - (i + 1 == *n ? SUMMARY_FILE_TRAILER_LEN : 0));
    le_store(crc, sum, 4);
    return 0;
}

int summary_file_writer_finish(struct summary_file_writer *w, const uint8_t **out, size_t *len, struct err *e)
{
    struct summary_file_piece pieces[SUMMARY_FILE_MAX_PIECES];
    size_t n;
    int rc = summary_file_writer_pieces(w, pieces, &n, e);
    if (rc)
        return rc;
    if (w->nborrowed) {   // gathered from the back, so no piece is overwritten before it moves
        size_t total = w->len + w->borrowed_len;
        uint8_t *b = realloc(w->buf, total);
        if (!b)
            return err_set(e, ERR_NOMEM, "out of memory");
        w->buf = b;
        w->cap = total;
        size_t end = total, own_end = w->len;
        for (size_t i = w->nborrowed; i-- > 0;) {
            const struct summary_file_borrowed *bw = &w->borrowed[i];
            size_t own = own_end - bw->at;
            memmove(b + end - own, b + bw->at, own);
            end -= own;
            memcpy(b + end - bw->n, bw->p, bw->n);
            end -= bw->n;
            own_end = bw->at;
        }
        w->len = total;
        w->nborrowed = 0;
        w->borrowed_len = 0;
    }
    *out = w->buf;
    *len = w->len;
    return 0;
}

int summary_file_parse(struct summary_file_doc *doc, const uint8_t *buf, size_t len, const char *name, struct err *e)
{
    memset(doc, 0, sizeof *doc);
    if (len < SUMMARY_FILE_MAGIC_LEN || memcmp(buf, SUMMARY_FILE_MAGIC, SUMMARY_FILE_MAGIC_LEN) != 0)
        return err_set(e, ERR_PARSE, "%s: not an htx summary (wrong magic)", name);
    if (len < SUMMARY_FILE_HEADER_LEN + SUMMARY_FILE_TRAILER_LEN)
        return err_set(e, ERR_PARSE, "%s: truncated summary (%zu bytes)", name, len);
    uint16_t major = (uint16_t)le_load(buf + 8, 2), minor = (uint16_t)le_load(buf + 10, 2);
    if (major != SUMMARY_FILE_MAJOR)
        return err_set(e, ERR_PARSE, "%s: summary format version %u.%u, this htx reads %u.x", name,
                       major, minor, SUMMARY_FILE_MAJOR);
    uint32_t nsections = (uint32_t)le_load(buf + 12, 4);
    uint64_t declared = le_load(buf + 16, 8);
    if (declared != len)
        return err_set(e, ERR_PARSE, "%s: truncated summary (%zu of %llu bytes)", name, len,
                       (unsigned long long)declared);
    uint32_t want = (uint32_t)le_load(buf + len - SUMMARY_FILE_TRAILER_LEN, 4);
    if (summary_file_crc32(0, buf, len - SUMMARY_FILE_TRAILER_LEN) != want)
        return err_set(e, ERR_PARSE, "%s: bad checksum (corrupt summary)", name);
    /* A section needs at least its header, which bounds the count before allocating. */
    size_t body = len - SUMMARY_FILE_HEADER_LEN - SUMMARY_FILE_TRAILER_LEN;
    if (nsections > body / SUMMARY_FILE_SECTION_HEADER_LEN)
        return err_set(e, ERR_PARSE, "%s: %u sections cannot fit in %zu bytes", name, nsections, len);
    struct summary_file_section *s = calloc(nsections ? nsections : 1, sizeof *s);
    if (!s)
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
    size_t at = SUMMARY_FILE_HEADER_LEN, end = len - SUMMARY_FILE_TRAILER_LEN;
    for (uint32_t i = 0; i < nsections; i++) {
        if (end - at < SUMMARY_FILE_SECTION_HEADER_LEN) {
            free(s);
            return err_set(e, ERR_PARSE, "%s: section %u header past the end", name, i);
        }
        uint64_t n = le_load(buf + at + 8, 8);
        at += SUMMARY_FILE_SECTION_HEADER_LEN;
        if (n > end - at) {
            free(s);
            return err_set(e, ERR_PARSE, "%s: section %u (%llu bytes) past the end", name, i,
                           (unsigned long long)n);
        }
        s[i].kind = (uint32_t)le_load(buf + at - SUMMARY_FILE_SECTION_HEADER_LEN, 4);
        s[i].tag = (uint32_t)le_load(buf + at - SUMMARY_FILE_SECTION_HEADER_LEN + 4, 4);
        s[i].data = buf + at;
        s[i].len = n;
        at += (size_t)n;
    }
    if (at != end) {
        free(s);
        return err_set(e, ERR_PARSE, "%s: %zu stray bytes after the last section", name, end - at);
    }
    doc->major = major;
    doc->len = len;
    doc->minor = minor;
    doc->nsections = nsections;
    doc->sections = s;
    return 0;
}

int summary_file_load_file(struct summary_file_doc *doc, const char *path, struct err *e)
{
    memset(doc, 0, sizeof *doc);
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            if (cap >= SUMMARY_FILE_MAX_FILE) {
                free(buf);
                fclose(f);
                return err_set(e, ERR_LIMIT, "%s: larger than any summary (> 1 GiB)", path);
            }
            cap = cap ? cap * 2 : 65536;
            uint8_t *b = realloc(buf, cap + 1);
            if (!b) {
                free(buf);
                fclose(f);
                return err_set(e, ERR_NOMEM, "%s: out of memory", path);
            }
            buf = b;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return err_set(e, ERR_IO, "%s: read error", path);
    }
    int rc = summary_file_parse(doc, buf, len, path, e);
    if (rc) {
        free(buf);
        return rc;
    }
    doc->owned = buf;
    return 0;
}

void summary_file_doc_fini(struct summary_file_doc *doc)
{
    free(doc->sections);
    free(doc->owned);
    memset(doc, 0, sizeof *doc);
}

int summary_file_peek_section(const char *path, uint32_t kind, uint8_t **data, uint64_t *len,
                              struct err *e)
{
    if (data)
        *data = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
    uint8_t h[SUMMARY_FILE_HEADER_LEN];
    int rc = fread(h, 1, sizeof h, f) == sizeof h && memcmp(h, SUMMARY_FILE_MAGIC, SUMMARY_FILE_MAGIC_LEN) == 0 &&
                     le_load(h + 8, 2) == SUMMARY_FILE_MAJOR
                 ? ERR_EMPTY
                 : err_set(e, ERR_PARSE, "%s: not an htx summary of this version", path);
    uint64_t size = le_load(h + 16, 8), at = SUMMARY_FILE_HEADER_LEN;
    uint32_t nsections = (uint32_t)le_load(h + 12, 4);
    for (uint32_t i = 0; i < nsections && rc == ERR_EMPTY; i++) {
        uint8_t sh[SUMMARY_FILE_SECTION_HEADER_LEN];
        if (fread(sh, 1, sizeof sh, f) != sizeof sh) {
            rc = err_set(e, ERR_PARSE, "%s: truncated summary", path);
            break;
        }
        uint64_t n = le_load(sh + 8, 8);
        at += SUMMARY_FILE_SECTION_HEADER_LEN;
        if (n > size || at > size - n || n > SUMMARY_FILE_MAX_FILE) {
            rc = err_set(e, ERR_PARSE, "%s: section %u past the end", path, i);
        } else if (le_load(sh, 4) == kind && !data) {
            rc = 0;
            *len = n;
        } else if (le_load(sh, 4) == kind) {
            *data = malloc(n ? (size_t)n : 1);
            if (!*data)
                rc = err_set(e, ERR_NOMEM, "%s: out of memory", path);
            else if (fread(*data, 1, (size_t)n, f) != n)
                rc = err_set(e, ERR_PARSE, "%s: truncated summary", path);
            else
                rc = 0;
            *len = n;
        } else if (fseeko(f, (off_t)n, SEEK_CUR) != 0) {
            rc = err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
        }
        at += n;
    }
    fclose(f);
    if (rc && data) {
        free(*data);
        *data = NULL;
    }
    if (rc == ERR_EMPTY)
        err_set(e, ERR_EMPTY, "%s: no such section", path);
    return rc;
}

const struct summary_file_section *summary_file_find(const struct summary_file_doc *doc, uint32_t kind)
{
    for (uint32_t i = 0; i < doc->nsections; i++)
        if (doc->sections[i].kind == kind)
            return &doc->sections[i];
    return NULL;
}

void summary_file_cur_init(struct summary_file_cur *c, const struct summary_file_section *s)
{
    c->p = s->data;
    c->end = s->data + s->len;
    c->bad = 0;
}

static const uint8_t *take(struct summary_file_cur *c, size_t n)
{
    if (c->bad || (size_t)(c->end - c->p) < n) {
        c->bad = 1;
        return NULL;
    }
    const uint8_t *p = c->p;
    c->p += n;
    return p;
}

uint32_t summary_file_get_u32(struct summary_file_cur *c)
{
    const uint8_t *p = take(c, 4);
    return p ? (uint32_t)le_load(p, 4) : 0;
}

uint64_t summary_file_get_u64(struct summary_file_cur *c)
{
    const uint8_t *p = take(c, 8);
    return p ? le_load(p, 8) : 0;
}

uint64_t summary_file_get_varint(struct summary_file_cur *c)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        const uint8_t *p = take(c, 1);
        if (!p)
            return 0;
        if (shift == 63 && *p > 1)
            break;   // past 64 bits
        v |= (uint64_t)(*p & 0x7f) << shift;
        if (!(*p & 0x80))
            return v;
    }
    c->bad = 1;
    return 0;
}

int64_t summary_file_get_svarint(struct summary_file_cur *c)
{
    uint64_t u = summary_file_get_varint(c);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

int64_t summary_file_get_i64(struct summary_file_cur *c) { return (int64_t)summary_file_get_u64(c); }

double summary_file_get_f64(struct summary_file_cur *c)
{
    uint64_t bits = summary_file_get_u64(c);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

const char *summary_file_get_str(struct summary_file_cur *c, size_t *n)
{
    uint32_t len = summary_file_get_u32(c);
    const uint8_t *p = take(c, len);
    *n = p ? len : 0;
    return p ? (const char *)p : "";
}
