#include "config.h"
#include "trace/deflater.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "trace/pack_dict.h"
#include "trace/zbuf.h"
#include "util/err.h"
#include "util/vec.h"

#define ZLIB_LEVEL 6
#define ZLIB_SMALL_LEVEL 9   /* trace_deflater_small */
#define ZLIB_FAST_LEVEL 1    /* trace_deflater_fast, without ISA-L */
/* Bytes for one call of a deflater whose counts are 32-bit. */
#define STEP_MAX ((size_t)1 << 30)

struct trace_deflater {
    z_stream z;
    bool z_ready;       /* deflating with zlib as the bytes come */
    int level;          /* zlib's */
    uint8_t *hold;      /* bytes not yet deflated, at most TRACE_DEFLATER_HOLD */
    size_t held, hold_cap;
    size_t start;       /* *len when the stream began: a held stream's zlib output
                           is dropped from there if it passes the hold */
    bool hold_only;     /* trace_deflater_hold_only */
    bool fast;          /* trace_deflater_fast */
#ifdef HAVE_ISAL
    bool isal_wanted;   /* built with ISA-L and HTX_DEFLATE is not "zlib" */
    struct isal_zstream *isal;   /* the stream passed TRACE_DEFLATER_HOLD */
    uint8_t *level_buf;
    uint32_t adler;     /* of the bytes given to ISA-L, for the zlib trailer */
#endif
};

static int reserve(uint8_t **out, size_t *len, size_t *cap, size_t more)
{
    if (more > SIZE_MAX - *len)
        return ERR_NOMEM;
    return vec_reserve((void **)out, cap, 1, *len + more);
}

/* A stream of each level with the dictionary already given, copied by
 * zlib_start: giving zlib the dictionary hashes all of it, which costs
 * more than deflating a summary's small tables (a copy costs a thirtieth
 * of it); the copy deflates the same bytes. Only read once made, so
 * threads copy it at once. */
struct primed {
    pthread_once_t once;
    int level;
    z_stream z;
    bool ready;
};

static struct primed primed_levels[] = {
    {PTHREAD_ONCE_INIT, ZLIB_LEVEL, {0}, false},
    {PTHREAD_ONCE_INIT, ZLIB_SMALL_LEVEL, {0}, false},
};

/* zlib's blocks (a stream's window, hash chains and pending symbols: four
 * of 64 KiB at our levels) are kept for the next stream rather than freed:
 * each stream of a summary would otherwise take fresh memory, faulted in a
 * page at a time (measured: 220 of a 1.7 MB rank's 510 page faults).
 * At most SPARE_BLOCKS are kept, reachable till the end. */
#define SPARE_BLOCKS 16
#define BLOCK_HEADER 16   /* the block's size, before it (keeps malloc's alignment) */
static struct {
    pthread_mutex_t lock;
    void *block[SPARE_BLOCKS];
    size_t n;
} spare = {PTHREAD_MUTEX_INITIALIZER, {NULL}, 0};

static size_t block_size(const void *block)
{
    size_t size;
    memcpy(&size, (const char *)block - BLOCK_HEADER, sizeof size);
    return size;
}

static voidpf block_alloc(voidpf opaque, uInt items, uInt size)
{
    (void)opaque;
    if (size && items > (SIZE_MAX - BLOCK_HEADER) / size)
        return Z_NULL;
    size_t bytes = (size_t)items * size;
    pthread_mutex_lock(&spare.lock);
    for (size_t i = 0; i < spare.n; i++)
        if (block_size(spare.block[i]) == bytes) {
            void *b = spare.block[i];
            spare.block[i] = spare.block[--spare.n];
            pthread_mutex_unlock(&spare.lock);
            return b;
        }
    pthread_mutex_unlock(&spare.lock);
    char *p = malloc(BLOCK_HEADER + bytes);
    if (!p)
        return Z_NULL;
    memcpy(p, &bytes, sizeof bytes);
    return p + BLOCK_HEADER;
}

static void block_free(voidpf opaque, voidpf block)
{
    (void)opaque;
    pthread_mutex_lock(&spare.lock);
    bool kept = spare.n < SPARE_BLOCKS;
    if (kept)
        spare.block[spare.n++] = block;
    pthread_mutex_unlock(&spare.lock);
    if (!kept)
        free((char *)block - BLOCK_HEADER);
}

static int fresh_start(z_stream *z, int level)
{
    size_t dict_len;
    const unsigned char *dict = trace_pack_dictionary(&dict_len);
    z->zalloc = block_alloc;   // (a deflateCopy of z takes them too)
    z->zfree = block_free;
    z->opaque = Z_NULL;
    if (deflateInit(z, level) != Z_OK)
        return ERR_NOMEM;
    if (deflateSetDictionary(z, dict, (uInt)dict_len) != Z_OK) {
        deflateEnd(z);
        return ERR_INTERNAL;
    }
    return 0;
}

static void prime_level(struct primed *p)
{
    p->ready = fresh_start(&p->z, p->level) == 0;
}

static void prime_default(void)
{
    prime_level(&primed_levels[0]);
}

static void prime_small(void)
{
    prime_level(&primed_levels[1]);
}

/* primed_levels[small], made once (pthread_once takes no argument). */
static struct primed *primed(bool small)
{
    pthread_once(&primed_levels[small].once, small ? prime_small : prime_default);
    return &primed_levels[small];
}

void trace_deflater_prime(void)
{
    primed(false);
    primed(true);
}

static int zlib_start(struct trace_deflater *d)
{
    bool small = d->level == ZLIB_SMALL_LEVEL;
    struct primed *p = small || d->level == ZLIB_LEVEL ? primed(small) : NULL;
    int rc = p && p->ready ? (deflateCopy(&d->z, &p->z) == Z_OK ? 0 : ERR_NOMEM)
                           : fresh_start(&d->z, d->level);
    d->z_ready = rc == 0;
    return rc;
}

static int zlib_put(struct trace_deflater *d, const uint8_t *in, size_t n, bool last,
                    uint8_t **out, size_t *len, size_t *cap)
{
    size_t done = 0;
    for (;;) {
        size_t piece = n - done > STEP_MAX ? STEP_MAX : n - done;
        bool end = last && done + piece == n;
        d->z.next_in = piece ? (Bytef *)(uintptr_t)(in + done) : Z_NULL;   // (in may be NULL)
        d->z.avail_in = (uInt)piece;
        int zr;
        do {
            if (reserve(out, len, cap, (size_t)1 << 16))
                return ERR_NOMEM;
            size_t room = *cap - *len > STEP_MAX ? STEP_MAX : *cap - *len;
            d->z.next_out = *out + *len;
            d->z.avail_out = (uInt)room;
            zr = deflate(&d->z, end ? Z_FINISH : Z_NO_FLUSH);
            *len += room - d->z.avail_out;
            if (zr != Z_OK && zr != Z_BUF_ERROR && zr != Z_STREAM_END)
                return ERR_INTERNAL;
        } while (end ? zr != Z_STREAM_END : d->z.avail_in > 0);
        done += piece;
        if (done == n)
            return 0;
    }
}

#ifdef HAVE_ISAL
#define ISAL_LEVEL 2
#define ISAL_LEVEL_BUF ISAL_DEF_LVL2_DEFAULT

static void put_be32(uint8_t *at, uint32_t v)
{
    at[0] = (uint8_t)(v >> 24);
    at[1] = (uint8_t)(v >> 16);
    at[2] = (uint8_t)(v >> 8);
    at[3] = (uint8_t)v;
}

/* ISA-L writes raw deflate; the zlib header and trailer around it are
 * written here: CMF 0x78 (deflate, 32 KiB window, as ISA-L's), FLG 0x20
 * (FDICT, "fastest", and a check that makes 0x7820 a multiple of 31), the
 * dictionary's Adler-32, and at the end the data's. */
static int isal_start(struct trace_deflater *d, uint8_t **out, size_t *len, size_t *cap)
{
    size_t dict_len;
    const unsigned char *dict = trace_pack_dictionary(&dict_len);
    d->isal = malloc(sizeof *d->isal);
    d->level_buf = malloc(ISAL_LEVEL_BUF);
    if (!d->isal || !d->level_buf || reserve(out, len, cap, 6))
        return ERR_NOMEM;
    isal_deflate_init(d->isal);
    d->isal->level = ISAL_LEVEL;
    d->isal->level_buf = d->level_buf;
    d->isal->level_buf_size = ISAL_LEVEL_BUF;
    d->isal->gzip_flag = IGZIP_DEFLATE;
    if (isal_deflate_set_dict(d->isal, (uint8_t *)(uintptr_t)dict, (uint32_t)dict_len) !=
        COMP_OK)
        return ERR_INTERNAL;
    d->adler = 1;
    (*out)[*len] = 0x78;
    (*out)[*len + 1] = 0x20;
    put_be32(*out + *len + 2, (uint32_t)trace_pack_dictionary_id());
    *len += 6;
    return 0;
}

/* n <= TRACE_DEFLATER_HOLD bytes through ISA-L, with room for all of their
 * output at once (stored blocks at worst), so each call is made alike. */
static int isal_put(struct trace_deflater *d, const uint8_t *in, size_t n, bool last,
                    uint8_t **out, size_t *len, size_t *cap)
{
    struct isal_zstream *s = d->isal;
    d->adler = isal_adler32(d->adler, in, n);
    s->next_in = (uint8_t *)(uintptr_t)in;
    s->avail_in = (uint32_t)n;
    s->end_of_stream = last;
    s->flush = NO_FLUSH;
    for (;;) {
        if (reserve(out, len, cap, n + n / 16 + ((size_t)1 << 16)))
            return ERR_NOMEM;
        size_t room = *cap - *len > STEP_MAX ? STEP_MAX : *cap - *len;
        uint32_t in_before = s->avail_in;
        s->next_out = *out + *len;
        s->avail_out = (uint32_t)room;
        if (isal_deflate(s) != COMP_OK)
            return ERR_INTERNAL;
        *len += room - s->avail_out;
        bool done = s->avail_in == 0 && (!last || s->internal_state.state == ZSTATE_END);
        if (done)
            break;
        if (s->avail_in == in_before && s->avail_out == room)
            return ERR_INTERNAL;   // no progress
    }
    if (last) {
        if (reserve(out, len, cap, 4))
            return ERR_NOMEM;
        put_be32(*out + *len, d->adler);
        *len += 4;
    }
    return 0;
}

/* A stream of in[0..n) short of the hold, none of it deflated yet, start
 * to end: ISA-L for a fast one, else zlib. */
static int whole_put(struct trace_deflater *d, const uint8_t *in, size_t n, uint8_t **out,
                     size_t *len, size_t *cap)
{
    int rc = d->fast ? isal_start(d, out, len, cap) : zlib_start(d);
    return rc ? rc : d->fast ? isal_put(d, in, n, true, out, len, cap)
                             : zlib_put(d, in, n, true, out, len, cap);
}

/* Holds the bytes until the stream ends or passes TRACE_DEFLATER_HOLD.
 * Until it passes, zlib also deflates them as they come (on a caller's
 * thread of its own, behind the reading: a small rank's zlib time then
 * hides in the load instead of following it); zlib's output is the same
 * however its input is cut. A stream that passes the hold drops that
 * output and starts again with ISA-L from the held bytes. */
static int held_put(struct trace_deflater *d, const uint8_t *in, size_t n, bool last,
                    uint8_t **out, size_t *len, size_t *cap)
{
    // the whole stream at once (a summary's table): deflated as the held
    // bytes would be, without copying them first
    if (last && d->held == 0 && !d->isal && !d->z_ready && n < TRACE_DEFLATER_HOLD)
        return whole_put(d, in, n, out, len, cap);
    while (n > 0) {
        size_t k = TRACE_DEFLATER_HOLD - d->held;
        k = n < k ? n : k;
        if (vec_reserve((void **)&d->hold, &d->hold_cap, 1, d->held + k))
            return ERR_NOMEM;
        memcpy(d->hold + d->held, in, k);
        int rc = 0;
        if (!d->isal && !d->z_ready && !d->hold_only) {
            d->start = *len;
            rc = zlib_start(d);
        }
        if (rc == 0 && d->z_ready)
            rc = zlib_put(d, d->hold + d->held, k, false, out, len, cap);
        if (rc)
            return rc;
        d->held += k;
        in += k;
        n -= k;
        if (d->held == TRACE_DEFLATER_HOLD) {
            if (d->z_ready) {
                deflateEnd(&d->z);
                d->z_ready = false;
                *len = d->start;
            }
            rc = d->isal ? 0 : isal_start(d, out, len, cap);
            if (rc == 0)
                rc = isal_put(d, d->hold, d->held, false, out, len, cap);
            if (rc)
                return rc;
            d->held = 0;
        }
    }
    if (!last)
        return 0;
    if (d->isal)
        return isal_put(d, d->hold, d->held, true, out, len, cap);
    if (d->z_ready)   // deflated as it came: zlib's smaller output
        return zlib_put(d, NULL, 0, true, out, len, cap);
    return whole_put(d, d->hold, d->held, out, len, cap);   // held only
}
#endif

struct trace_deflater *trace_deflater_new(void)
{
    struct trace_deflater *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->level = ZLIB_LEVEL;
#ifdef HAVE_ISAL
    const char *which = getenv("HTX_DEFLATE");   // as HTX_INFLATE chooses the inflater
    d->isal_wanted = !which || strcmp(which, "zlib") != 0;
#endif
    return d;
}

void trace_deflater_small(struct trace_deflater *d)
{
    d->level = ZLIB_SMALL_LEVEL;
}

void trace_deflater_hold_only(struct trace_deflater *d)
{
    d->hold_only = true;
}

void trace_deflater_fast(struct trace_deflater *d)
{
    d->fast = d->hold_only = true;
    d->level = ZLIB_FAST_LEVEL;
}

int trace_deflater_put(struct trace_deflater *d, const uint8_t *in, size_t n, bool last,
                       uint8_t **out, size_t *len, size_t *cap)
{
#ifdef HAVE_ISAL
    if (d->isal_wanted)
        return held_put(d, in, n, last, out, len, cap);
#endif
    int rc = d->z_ready ? 0 : zlib_start(d);
    return rc ? rc : zlib_put(d, in, n, last, out, len, cap);
}

void trace_deflater_free(struct trace_deflater *d)
{
    if (!d)
        return;
    if (d->z_ready)
        deflateEnd(&d->z);
    free(d->hold);
#ifdef HAVE_ISAL
    free(d->isal);
    free(d->level_buf);
#endif
    free(d);
}
