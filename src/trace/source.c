#include "config.h"
#include "trace/source.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l.h>
#endif

#include "util/pool.h"
#include "util/ring.h"

/* Compressed input is read in large blocks: zlib's inflate is fastest when it
 * can run long without returning (1100 MB/s measured with 1 MiB blocks). */
#define SOURCE_IN_CAP ((size_t)1 << 20)
#define SOURCE_PROGRESS_EVERY ((uint64_t)4 << 20)

struct trace_source {
    int fd;                      /* -1 when reading from memory */
    unsigned char *own;          /* input block (file mode) */
    const unsigned char *in;     /* pending input: own, or the caller's buffer */
    size_t in_len, in_pos;
    uint64_t in_base;            /* input offset of in[0] */
    bool in_eof;
    bool detected, gzip, finished;
    int first_byte;              /* of the input, -1 when empty */
    z_stream z;
    bool z_ready;
#ifdef HAVE_ISAL
    struct inflate_state *isal;  /* Intel ISA-L's inflate, used instead of zlib's when built
                                    with it (several times faster), unless HTX_INFLATE=zlib */
#endif
    uint64_t doc_bytes, next_progress;
    struct trace_source_opts o;
    struct stat opened;          /* file mode: size and times when opened */
    struct read_ahead *ahead;    /* o.read_ahead on gzip: the inflating thread */
};

static struct trace_source *source_new(const struct trace_source_opts *opts, struct err *e)
{
    struct trace_source *s = calloc(1, sizeof *s);
    if (!s) {
        err_set(e, ERR_NOMEM, "out of memory");
        return NULL;
    }
    s->fd = -1;
    if (opts)
        s->o = *opts;
    if (!s->o.progress_every)
        s->o.progress_every = SOURCE_PROGRESS_EVERY;
    s->next_progress = s->o.progress_every;
    return s;
}

struct trace_source *trace_source_open_file(const char *path, const struct trace_source_opts *opts,
                                            struct err *e)
{
    struct trace_source *s = source_new(opts, e);
    if (!s)
        return NULL;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below. */
    s->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (s->fd < 0) {
        err_set(e, ERR_IO, "%s", strerror(errno));
        trace_source_close(s);
        return NULL;
    }
    struct stat st = {0};
    if (fstat(s->fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        err_set(e, ERR_IO, "%s", S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
        trace_source_close(s);
        return NULL;
    }
    s->opened = st;
    /* A plain file's size is its document's: over the limit, it is refused
     * before a byte of it is read (the two magic bytes aside). */
    unsigned char magic[2] = {0, 0};
    if (s->o.max_uncompressed && (uint64_t)st.st_size > s->o.max_uncompressed &&
        pread(s->fd, magic, 2, 0) == 2 && !(magic[0] == 0x1f && magic[1] == 0x8b)) {
        err_set(e, ERR_LIMIT, "the file is %llu bytes, over the limit of %llu bytes",
                (unsigned long long)st.st_size, (unsigned long long)s->o.max_uncompressed);
        trace_source_close(s);
        return NULL;
    }
    int flags = fcntl(s->fd, F_GETFL);
    if (flags >= 0)
        fcntl(s->fd, F_SETFL, flags & ~O_NONBLOCK);
    s->own = malloc(SOURCE_IN_CAP);
    if (!s->own) {
        err_set(e, ERR_NOMEM, "out of memory");
        trace_source_close(s);
        return NULL;
    }
    s->in = s->own;
    return s;
}

struct trace_source *trace_source_open_buffer(const void *buf, size_t len,
                                              const struct trace_source_opts *opts,
                                              struct err *e)
{
    struct trace_source *s = source_new(opts, e);
    if (!s)
        return NULL;
    s->in = buf;
    s->in_len = len;
    s->in_eof = true;
    return s;
}

static void ahead_stop(struct trace_source *s);

void trace_source_close(struct trace_source *s)
{
    if (!s)
        return;
    ahead_stop(s);
    if (s->z_ready)
        inflateEnd(&s->z);
#ifdef HAVE_ISAL
    free(s->isal);
#endif
    if (s->fd >= 0)
        close(s->fd);
    free(s->own);
    free(s);
}

static uint64_t trace_source_file_bytes(const struct trace_source *s)
{
    return s->in_base + s->in_pos;
}

static uint64_t ahead_delivered(const struct trace_source *s);

uint64_t trace_source_doc_bytes(const struct trace_source *s)
{
    return s->ahead ? ahead_delivered(s) : s->doc_bytes;
}

uint64_t trace_source_size_hint(const struct trace_source *s)
{
    if (s->fd >= 0)
        return 0;
    bool gzip_magic = s->in_len >= 2 && s->in[0] == 0x1f && s->in[1] == 0x8b;
    if (!gzip_magic)
        return s->in_len;
    /* gzip's trailer ends with the size mod 2^32 of the last member: only a
     * hint (more members, or a lie, just mean the buffer grows or refills). */
    if (s->in_len < 18)
        return 0;
    const unsigned char *t = s->in + s->in_len - 4;
    uint64_t isize = (uint64_t)t[0] | (uint64_t)t[1] << 8 | (uint64_t)t[2] << 16 |
                     (uint64_t)t[3] << 24;
    /* deflate expands at most about 1032:1: a larger claim is a lie. */
    uint64_t most = (uint64_t)s->in_len * 1032;
    return isize < most ? isize : most;
}

bool trace_source_is_gzip(const struct trace_source *s)
{
    return s->detected && s->gzip;
}

int trace_source_first_byte(const struct trace_source *s)
{
    return s->detected ? s->first_byte : -1;
}

bool trace_source_same_file(const struct trace_source *a, const struct trace_source *b)
{
    return a->fd >= 0 && b->fd >= 0 && a->opened.st_dev == b->opened.st_dev &&
           a->opened.st_ino == b->opened.st_ino && a->opened.st_size == b->opened.st_size &&
           a->opened.st_mtim.tv_sec == b->opened.st_mtim.tv_sec &&
           a->opened.st_mtim.tv_nsec == b->opened.st_mtim.tv_nsec;
}

bool trace_source_changed(const struct trace_source *s)
{
    struct stat now;
    if (s->fd < 0 || fstat(s->fd, &now) != 0)
        return false;
    return now.st_size != s->opened.st_size || now.st_mtim.tv_sec != s->opened.st_mtim.tv_sec ||
           now.st_mtim.tv_nsec != s->opened.st_mtim.tv_nsec;
}

static int report_progress(struct trace_source *s, struct err *e)
{
    uint64_t done = trace_source_file_bytes(s);
    // Reading ahead, the reading thread reports (ahead_read), not the inflating one.
    if (s->ahead || !s->o.progress || done < s->next_progress)
        return 0;
    s->next_progress = done + s->o.progress_every;
    if (s->o.progress(s->o.progress_ctx, done))
        return err_set(e, ERR_CANCEL, "cancelled");
    return 0;
}

/* Moves the unread input to the front of the block and reads more after it.
 * Leaves in_eof set at the end of the file; memory sources are always there. */
static int refill(struct trace_source *s, struct err *e)
{
    if (s->in_eof)
        return 0;
    size_t keep = s->in_len - s->in_pos;
    memmove(s->own, s->own + s->in_pos, keep);
    s->in_base += s->in_pos;
    s->in_pos = 0;
    s->in_len = keep;
    while (s->in_len < SOURCE_IN_CAP) {
        ssize_t n = read(s->fd, s->own + s->in_len, SOURCE_IN_CAP - s->in_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return err_set(e, ERR_IO, "read error: %s", strerror(errno));
        if (n == 0) {
            s->in_eof = true;
            break;
        }
        s->in_len += (size_t)n;
    }
    return 0;
}

static int detect(struct trace_source *s, struct err *e)
{
    if (s->in_len - s->in_pos < 2) {
        int rc = refill(s, e);
        if (rc)
            return rc;
    }
    s->detected = true;
    const unsigned char *head = s->in + s->in_pos;
    s->first_byte = s->in_len > s->in_pos ? head[0] : -1;
    s->gzip = s->in_len - s->in_pos >= 2 && head[0] == 0x1f && head[1] == 0x8b;
    if (!s->gzip)
        return 0;
#ifdef HAVE_ISAL
    const char *which = getenv("HTX_INFLATE");
    if (!which || strcmp(which, "zlib") != 0) {
        s->isal = malloc(sizeof *s->isal);
        if (!s->isal)
            return err_set(e, ERR_NOMEM, "out of memory");
        isal_inflate_init(s->isal);
        s->isal->crc_flag = ISAL_GZIP;   // header, CRC-32 and length checked as zlib does
        return 0;
    }
#endif
    /* 15 window bits + 16: a gzip wrapper, whose CRC-32 and length zlib checks. */
    if (inflateInit2(&s->z, 15 + 16) != Z_OK)
        return err_set(e, ERR_NOMEM, "cannot initialise zlib");
    s->z_ready = true;
    return 0;
}

static int read_plain(struct trace_source *s, char *dst, size_t cap, size_t *got, struct err *e)
{
    if (s->in_pos == s->in_len && !s->in_eof && s->fd >= 0) {
        /* Nothing buffered: read straight into the caller's buffer. */
        s->in_base += s->in_pos;
        s->in_pos = s->in_len = 0;
        for (;;) {
            ssize_t n = read(s->fd, dst, cap);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                return err_set(e, ERR_IO, "read error: %s", strerror(errno));
            if (n == 0)
                s->in_eof = true;
            s->in_base += (uint64_t)n;
            *got = (size_t)n;
            return 0;
        }
    }
    size_t n = s->in_len - s->in_pos;
    if (n > cap)
        n = cap;
    memcpy(dst, s->in + s->in_pos, n);
    s->in_pos += n;
    *got = n;
    return 0;
}

/* The decoder's input window over the pending bytes (at most 4 GiB at a
 * time), and back: zlib's z_stream or ISA-L's inflate_state. */
static void in_set(struct trace_source *s)
{
    size_t left = s->in_len - s->in_pos;
    uint32_t avail = left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
    unsigned char *next = (unsigned char *)(uintptr_t)(s->in + s->in_pos);
#ifdef HAVE_ISAL
    if (s->isal) {
        s->isal->next_in = next;
        s->isal->avail_in = avail;
        return;
    }
#endif
    s->z.next_in = next;
    s->z.avail_in = avail;
}

static void in_sync(struct trace_source *s)
{
#ifdef HAVE_ISAL
    if (s->isal) {
        s->in_pos = (size_t)(s->isal->next_in - s->in);
        return;
    }
#endif
    s->in_pos = (size_t)(s->z.next_in - s->in);
}

static uint32_t in_avail(const struct trace_source *s)
{
#ifdef HAVE_ISAL
    if (s->isal)
        return s->isal->avail_in;
#endif
    return s->z.avail_in;
}

/* Ready for the next gzip member. */
static int decoder_reset(struct trace_source *s, struct err *e)
{
#ifdef HAVE_ISAL
    if (s->isal) {
        isal_inflate_reset(s->isal);
        s->isal->crc_flag = ISAL_GZIP;
        return 0;
    }
#endif
    return inflateReset(&s->z) == Z_OK ? 0 : err_set(e, ERR_INTERNAL, "inflateReset failed");
}

/* Zero bytes after the last member (tape blocks, preallocated files): gzip -d
 * accepts them, so they end the document when nothing but zeros follows. */
static int skip_zero_padding(struct trace_source *s, struct err *e)
{
    for (;;) {
        while (s->in_pos < s->in_len && s->in[s->in_pos] == 0)
            s->in_pos++;
        if (s->in_pos < s->in_len)
            return err_set(e, ERR_PARSE, "trailing garbage after the gzip data and zero padding "
                           "at compressed byte %llu", (unsigned long long)trace_source_file_bytes(s));
        if (s->in_eof) {
            s->finished = true;
            in_set(s);   /* keeps in_sync from moving in_pos back */
            return 0;
        }
        int rc = refill(s, e);
        if (rc)
            return rc;
    }
}

/* After a gzip member ends: another member follows (concatenated gzip), or
 * the input ends, or what follows is not gzip. */
static int next_member(struct trace_source *s, struct err *e)
{
    in_sync(s);
    if (s->in_len - s->in_pos < 2) {
        int rc = refill(s, e);
        if (rc)
            return rc;
    }
    size_t left = s->in_len - s->in_pos;
    if (left == 0) {
        s->finished = true;
        in_set(s);   /* refill moved the block: keep in_sync's view current */
        return 0;
    }
    if (s->in[s->in_pos] == 0)
        return skip_zero_padding(s, e);
    if (left < 2 || s->in[s->in_pos] != 0x1f || s->in[s->in_pos + 1] != 0x8b)
        return err_set(e, ERR_PARSE, "trailing garbage after the gzip data at compressed byte %llu",
                       (unsigned long long)trace_source_file_bytes(s));
    int rc = decoder_reset(s, e);
    in_set(s);
    return rc;
}

static int inflate_error(struct trace_source *s, int ret, struct err *e)
{
    in_sync(s);
    unsigned long long at = (unsigned long long)trace_source_file_bytes(s);
    if (ret == Z_MEM_ERROR)
        return err_set(e, ERR_NOMEM, "out of memory in zlib");
    const char *why = s->z.msg ? s->z.msg : "invalid data";
    if (strcmp(why, "incorrect data check") == 0)
        return err_set(e, ERR_PARSE, "corrupt gzip data: CRC mismatch at compressed byte %llu", at);
    return err_set(e, ERR_PARSE, "corrupt gzip data at compressed byte %llu: %s", at, why);
}

/* More input for the decoder; the end of the file inside a member is a
 * truncated file. */
static int feed_inflate(struct trace_source *s, struct err *e)
{
    in_sync(s);
    if (s->in_pos == s->in_len) {
        int rc = refill(s, e);
        if (rc)
            return rc;
    }
    in_set(s);
    if (in_avail(s) == 0)
        return err_set(e, ERR_PARSE, "truncated gzip data: the file ends at compressed byte %llu "
                       "inside a gzip member", (unsigned long long)trace_source_file_bytes(s));
    return report_progress(s, e);
}

#ifdef HAVE_ISAL
static int isal_error(struct trace_source *s, int ret, struct err *e)
{
    in_sync(s);
    unsigned long long at = (unsigned long long)trace_source_file_bytes(s);
    if (ret == ISAL_INCORRECT_CHECKSUM)
        return err_set(e, ERR_PARSE, "corrupt gzip data: CRC mismatch at compressed byte %llu", at);
    const char *why = ret == ISAL_INVALID_BLOCK      ? "invalid block"
                      : ret == ISAL_INVALID_SYMBOL   ? "invalid symbol"
                      : ret == ISAL_INVALID_LOOKBACK ? "invalid distance too far back"
                      : ret == ISAL_INVALID_WRAPPER  ? "invalid gzip header"
                      : ret == ISAL_UNSUPPORTED_METHOD ? "unknown compression method"
                                                       : "invalid data";
    return err_set(e, ERR_PARSE, "corrupt gzip data at compressed byte %llu: %s", at, why);
}

static int read_gzip_isal(struct trace_source *s, char *dst, size_t cap, size_t *got,
                          struct err *e)
{
    struct inflate_state *st = s->isal;
    st->next_out = (uint8_t *)dst;
    st->avail_out = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
    uint32_t want = st->avail_out;
    while (st->avail_out > 0 && !s->finished) {
        int rc = st->avail_in == 0 ? feed_inflate(s, e) : 0;
        if (rc)
            return rc;
        int ret = isal_inflate(st);
        if (ret < 0)
            return isal_error(s, ret, e);
        if (st->block_state == ISAL_BLOCK_FINISH && (rc = next_member(s, e)) != 0)
            return rc;
    }
    in_sync(s);
    *got = want - st->avail_out;
    return 0;
}
#endif

static int read_gzip(struct trace_source *s, char *dst, size_t cap, size_t *got, struct err *e)
{
#ifdef HAVE_ISAL
    if (s->isal)
        return read_gzip_isal(s, dst, cap, got, e);
#endif
    s->z.next_out = (unsigned char *)dst;
    s->z.avail_out = cap > UINT32_MAX ? UINT32_MAX : (uInt)cap;
    uInt want = s->z.avail_out;
    while (s->z.avail_out > 0 && !s->finished) {
        if (s->z.avail_in == 0) {
            int rc = feed_inflate(s, e);
            if (rc)
                return rc;
        }
        int ret = inflate(&s->z, Z_NO_FLUSH);
        if (ret == Z_STREAM_END) {
            int rc = next_member(s, e);
            if (rc)
                return rc;
        } else if (ret == Z_BUF_ERROR && s->z.avail_in == 0) {
            continue;  /* needs more input: fed at the top of the loop */
        } else if (ret != Z_OK) {
            return inflate_error(s, ret, e);
        }
    }
    in_sync(s);
    *got = want - s->z.avail_out;
    return 0;
}

/* The document's next bytes, read here and now. */
static int read_direct(struct trace_source *s, char *dst, size_t cap, size_t *got, struct err *e)
{
    *got = 0;
    if (s->o.max_uncompressed) {
        /* One byte more than allowed is enough to know the limit is exceeded,
         * so a gzip bomb stops without inflating further. (A limit of
         * UINT64_MAX has no "one more": room would wrap to 0 and end the
         * document early.) */
        uint64_t room = s->o.max_uncompressed - s->doc_bytes;
        if (room < UINT64_MAX)
            room++;
        if (cap > room)
            cap = (size_t)room;
    }
    int rc = s->gzip ? read_gzip(s, dst, cap, got, e) : read_plain(s, dst, cap, got, e);
    if (rc)
        return rc;
    s->doc_bytes += *got;
    if (s->o.max_uncompressed && s->doc_bytes > s->o.max_uncompressed)
        return err_set(e, ERR_LIMIT, "the uncompressed document exceeds the limit of %llu bytes%s",
                       (unsigned long long)s->o.max_uncompressed,
                       s->gzip ? " (a gzip bomb?)" : "");
    return report_progress(s, e);
}

/* ---- reading ahead ----------------------------------------------------------
 * One thread inflates into a ring of AHEAD_BLOCKS blocks (util/ring) while
 * the caller parses the previous ones. The inflating thread owns everything
 * of s but `ahead`; the rest of `ahead` is the caller's. */

/* 1 MiB blocks read a 260 MB trace as fast as 4 MiB ones, with 12 MiB less resident. */
#define AHEAD_BLOCKS 4
#define AHEAD_BLOCK ((size_t)1 << 20)

struct read_ahead {
    pthread_t thread;
    struct ring ring;
    const uint8_t *block;      /* the full block being taken, or NULL */
    size_t len, pos;           /* its bytes, and how many were taken */
    uint64_t file_bytes;       /* compressed bytes inflated when it was filled */
    uint64_t delivered;        /* document bytes handed to the reader */
};

static void *ahead_main(void *arg)
{
    struct trace_source *s = arg;
    struct ring *r = &s->ahead->ring;
    uint8_t *b;
    while ((b = ring_empty(r)) != NULL) {
        size_t got = 0;
        struct err e = {0, ""};
        int rc = read_direct(s, (char *)b, AHEAD_BLOCK, &got, &e);
        if (rc == 0 && got)
            ring_publish(r, got, trace_source_file_bytes(s));
        if (rc || !got) {
            ring_end(r, rc, &e);
            break;
        }
    }
    return NULL;
}

static int ahead_start(struct trace_source *s, struct err *e)
{
    struct read_ahead *a = calloc(1, sizeof *a);
    if (!a || ring_init(&a->ring, AHEAD_BLOCKS, AHEAD_BLOCK)) {
        free(a);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    s->ahead = a;
    if (pool_thread_start(&a->thread, ahead_main, s) != 0) {
        // No thread to spare: read here, as without read_ahead.
        s->ahead = NULL;
        s->o.read_ahead = false;
        ring_fini(&a->ring);
        free(a);
    }
    return 0;
}

static void ahead_stop(struct trace_source *s)
{
    struct read_ahead *a = s->ahead;
    if (!a)
        return;
    ring_close(&a->ring);
    pthread_join(a->thread, NULL);
    ring_fini(&a->ring);
    free(a);
    s->ahead = NULL;
}

static uint64_t ahead_delivered(const struct trace_source *s)
{
    return s->ahead->delivered;
}

/* Reading ahead, the reading thread reports progress, as of the block it
 * takes from. */
static int ahead_progress(struct trace_source *s, struct err *e)
{
    uint64_t done = s->ahead->file_bytes;
    if (!s->o.progress || done < s->next_progress)
        return 0;
    s->next_progress = done + s->o.progress_every;
    if (s->o.progress(s->o.progress_ctx, done))
        return err_set(e, ERR_CANCEL, "cancelled");
    return 0;
}

/* Up to cap bytes of the block being taken: copied to dst, or only let go
 * when dst is NULL (a forward seek). */
static int ahead_read(struct trace_source *s, char *dst, size_t cap, size_t *got, struct err *e)
{
    struct read_ahead *a = s->ahead;
    *got = 0;
    if (!a->block) {
        int rc;
        a->block = ring_full(&a->ring, &a->len, &a->file_bytes, &rc, e);
        a->pos = 0;
        if (!a->block)
            return rc;
    }
    size_t n = a->len - a->pos;
    n = n < cap ? n : cap;
    if (dst)
        memcpy(dst, a->block + a->pos, n);
    a->pos += n;
    if (a->pos == a->len) {
        ring_release(&a->ring);
        a->block = NULL;
    }
    a->delivered += n;
    *got = n;
    return ahead_progress(s, e);
}

/* The first read's set-up: what the input is, and for gzip its decoder
 * (and the inflating thread when reading ahead). */
static int start(struct trace_source *s, struct err *e)
{
    int rc = detect(s, e);
    if (rc == 0 && s->gzip)
        in_set(s);
    if (rc == 0 && s->gzip && s->o.read_ahead)
        rc = ahead_start(s, e);
    return rc;
}

/* Ahead of the reader: whole blocks let go, no byte copied. */
static int ahead_skip(struct trace_source *s, uint64_t n, struct err *e)
{
    while (n) {
        size_t got;
        int rc = ahead_read(s, NULL, n < SIZE_MAX ? (size_t)n : SIZE_MAX, &got, e);
        if (rc)
            return rc;
        if (!got)
            return err_set(e, ERR_PARSE, "the document ends before its offset");
        n -= got;
    }
    return 0;
}

/* Forward in a gzip document: the bytes before offset are inflated (their
 * CRC and limits checked as when read) and let go. */
static int gzip_skip_to(struct trace_source *s, uint64_t offset, struct err *e)
{
    uint64_t at = trace_source_doc_bytes(s);
    if (offset < at)
        return err_set(e, ERR_INTERNAL, "a gzip document is only read forward");
    if (s->ahead)
        return ahead_skip(s, offset - at, e);
    size_t cap = AHEAD_BLOCK;
    char *scratch = malloc(cap);
    if (!scratch)
        return err_set(e, ERR_NOMEM, "out of memory");
    int rc = 0;
    while (rc == 0 && at < offset) {
        size_t got, want = offset - at < cap ? (size_t)(offset - at) : cap;
        rc = read_direct(s, scratch, want, &got, e);
        if (rc == 0 && !got)
            rc = err_set(e, ERR_PARSE, "the document ends before its offset");
        at += got;
    }
    free(scratch);
    return rc;
}

uint64_t trace_source_input_bytes(const struct trace_source *s)
{
    return s->ahead ? s->ahead->file_bytes : trace_source_file_bytes(s);
}

int trace_source_seek(struct trace_source *s, uint64_t offset, struct err *e)
{
    if (!s->detected) {
        int rc = start(s, e);
        if (rc)
            return rc;
    }
    if (s->gzip)
        return gzip_skip_to(s, offset, e);
    if (s->fd < 0 || s->ahead || offset > (uint64_t)s->opened.st_size)
        return err_set(e, ERR_INTERNAL, "only a plain file can be read from an offset");
    if (lseek(s->fd, (off_t)offset, SEEK_SET) < 0)
        return err_set(e, ERR_IO, "seek error: %s", strerror(errno));
    s->in_base = s->doc_bytes = offset;
    s->in_pos = s->in_len = 0;
    s->in_eof = false;
    return 0;
}

int trace_source_read(struct trace_source *s, char *dst, size_t cap, size_t *got, struct err *e)
{
    *got = 0;
    if (!s->detected) {
        int rc = start(s, e);
        if (rc)
            return rc;
    }
    return s->ahead ? ahead_read(s, dst, cap, got, e) : read_direct(s, dst, cap, got, e);
}
