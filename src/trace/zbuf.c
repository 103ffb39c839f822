#include "config.h"
#include "trace/zbuf.h"

#include "trace/deflater.h"
#include "trace/pack_dict.h"
#include "util/memory.h"

#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <zlib.h>
#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

int trace_deflate_buffer(const void *in, size_t n, bool numbers, uint8_t **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    size_t cap = 0;
    struct trace_deflater *d = trace_deflater_new();
    if (d && n <= TRACE_DEFLATE_SMALL_BUFFER && !numbers)
        trace_deflater_small(d);
    else if (d && n > TRACE_DEFLATE_SMALL_BUFFER)
        trace_deflater_fast(d);
    int rc = d ? trace_deflater_put(d, in, n, true, out, out_len, &cap) : ERR_NOMEM;
    trace_deflater_free(d);
    if (rc) {
        free(*out);
        *out = NULL;
        *out_len = 0;
    }
    return rc;
}

/* Bytes for one call of an inflater whose counts are 32-bit. */
static uint32_t step_of(uint64_t left)
{
    return left > (1u << 30) ? 1u << 30 : (uint32_t)left;
}

static uint32_t dict_id;
static pthread_once_t dict_id_once = PTHREAD_ONCE_INIT;

static void compute_dictionary_id(void)
{
    size_t n;
    const unsigned char *dict = trace_pack_dictionary(&n);
    dict_id = (uint32_t)adler32(adler32(0L, Z_NULL, 0), dict, (uInt)n);
}

uint32_t trace_pack_dictionary_id(void)
{
    pthread_once(&dict_id_once, compute_dictionary_id);
    return dict_id;
}

#ifdef HAVE_ISAL
/* The zlib stream z through ISA-L (faster than zlib), with the checks
 * zlib makes: the dictionary the header names (by its Adler-32), the
 * stream's own Adler-32, its end where z ends and raw_len bytes out. */
static int inflate_isal(const char *name, const char *what, const uint8_t *z, size_t zlen,
                        uint64_t raw_len, uint8_t *raw, struct err *e)
{
    size_t dict_len;
    const unsigned char *dict = trace_pack_dictionary(&dict_len);
    if (zlen >= 6 && (z[1] & 0x20)) {   // FDICT: the dictionary's Adler-32 follows
        uLong want = (uLong)z[2] << 24 | (uLong)z[3] << 16 | (uLong)z[4] << 8 | z[5];
        if (want != trace_pack_dictionary_id())
            return err_set(e, ERR_PARSE, "%s: %s: deflated with an unknown dictionary "
                           "(another version?)", name, what);
    }
    struct inflate_state *st = malloc(sizeof *st);
    if (!st)
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
    isal_inflate_init(st);
    st->crc_flag = ISAL_ZLIB;
    int rc = 0;
    uint64_t done = 0;
    size_t zdone = 0;
    for (;;) {
        uint32_t in_step = step_of(zlen - zdone), out_step = step_of(raw_len - done);
        st->next_in = (uint8_t *)z + zdone;
        st->avail_in = in_step;
        st->next_out = raw + done;
        st->avail_out = out_step;
        int ret = isal_inflate(st);
        zdone += in_step - st->avail_in;
        done += out_step - st->avail_out;
        if (ret == ISAL_NEED_DICT) {
            if (isal_inflate_set_dict(st, (uint8_t *)dict, (uint32_t)dict_len) == COMP_OK)
                continue;
            rc = err_set(e, ERR_NOMEM, "%s: out of memory", name);
            break;
        }
        if (ret == ISAL_DECOMP_OK && st->block_state == ISAL_BLOCK_FINISH) {
            if (done != raw_len || zdone != zlen)
                rc = err_set(e, ERR_PARSE, "%s: %s: length does not match", name, what);
            break;
        }
        if (ret != ISAL_DECOMP_OK || (st->avail_out == out_step && st->avail_in == in_step) ||
            (zdone == zlen && st->avail_out == out_step)) {
            rc = err_set(e, ERR_PARSE, "%s: %s: %s", name, what,
                         ret == ISAL_DECOMP_OK ? "truncated or longer than declared"
                                               : "corrupt deflate data");
            break;
        }
    }
    free(st);
    return rc;
}
#endif

int trace_inflate_exact(const char *name, const char *what, const uint8_t *z, size_t zlen,
                        uint64_t raw_len, uint8_t **raw, struct err *e)
{
    *raw = NULL;
    // deflate cannot expand more than 1032:1: a larger claim is a lie.
    if (raw_len > (uint64_t)zlen * 1032 + 64 || raw_len > SIZE_MAX / 2)
        return err_set(e, ERR_PARSE, "%s: %s: impossible length %llu", name, what,
                       (unsigned long long)raw_len);
    *raw = util_alloc_resident((size_t)raw_len, 1);   // written whole at once: no fault a page
    if (!*raw)
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
#ifdef HAVE_ISAL
    const char *which = getenv("HTX_INFLATE");   // as for gzip traces (trace/source.c)
    if (!which || strcmp(which, "zlib") != 0) {
        int rc = inflate_isal(name, what, z, zlen, raw_len, *raw, e);
        if (rc) {
            free(*raw);
            *raw = NULL;
        }
        return rc;
    }
#endif
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit(&s) != Z_OK) {
        free(*raw);
        *raw = NULL;
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
    }
    int rc = 0;
    uint64_t done = 0;
    size_t zdone = 0;
    for (;;) {
        uInt in_step = step_of(zlen - zdone), out_step = step_of(raw_len - done);
        s.next_in = (Bytef *)z + zdone;
        s.avail_in = in_step;
        s.next_out = *raw + done;
        s.avail_out = out_step;
        int zr = inflate(&s, Z_NO_FLUSH);
        zdone += in_step - s.avail_in;
        done += out_step - s.avail_out;
        if (zr == Z_NEED_DICT) {   // the only one htx knows; zlib checks its Adler-32
            size_t dict_len;
            const unsigned char *dict = trace_pack_dictionary(&dict_len);
            if (inflateSetDictionary(&s, dict, (uInt)dict_len) == Z_OK)
                continue;
            rc = err_set(e, ERR_PARSE, "%s: %s: deflated with an unknown dictionary "
                         "(another version?)", name, what);
            break;
        }
        if (zr == Z_STREAM_END) {
            if (done != raw_len || zdone != zlen)
                rc = err_set(e, ERR_PARSE, "%s: %s: length does not match", name, what);
            break;
        }
        if (zr == Z_MEM_ERROR) {
            rc = err_set(e, ERR_NOMEM, "%s: out of memory", name);
            break;
        }
        if (zr != Z_OK || (s.avail_out == out_step && s.avail_in == in_step)) {
            rc = err_set(e, ERR_PARSE, "%s: %s: %s", name, what,
                         zr == Z_OK || zr == Z_BUF_ERROR ? "truncated or longer than declared"
                                                         : "corrupt deflate data");
            break;
        }
    }
    inflateEnd(&s);
    if (rc) {
        free(*raw);
        *raw = NULL;
    }
    return rc;
}

