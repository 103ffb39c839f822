#include "config.h"
#include "trace/zbuf.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int trace_deflate_buffer(const void *in, size_t n, uint8_t **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    if (n > (1u << 30))   /* one call of zlib's 32-bit counts */
        return ERR_LIMIT;
    uLong cap = compressBound((uLong)n);
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf)
        return ERR_NOMEM;
    uLongf len = cap;
    if (compress2(buf, &len, in, (uLong)n, 6) != Z_OK) {
        free(buf);
        return ERR_NOMEM;
    }
    *out = buf;
    *out_len = len;
    return 0;
}

int trace_inflate_exact(const char *name, const char *what, const uint8_t *z, size_t zlen,
                        uint64_t raw_len, uint8_t **raw, struct err *e)
{
    *raw = NULL;
    // deflate cannot expand more than 1032:1: a larger claim is a lie.
    if (raw_len > (uint64_t)zlen * 1032 + 64 || raw_len > SIZE_MAX / 2)
        return err_set(e, ERR_PARSE, "%s: %s: impossible length %llu", name, what,
                       (unsigned long long)raw_len);
    *raw = malloc(raw_len ? (size_t)raw_len : 1);
    if (!*raw)
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
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
        uInt in_step = zlen - zdone > (1u << 30) ? 1u << 30 : (uInt)(zlen - zdone);
        uint64_t left = raw_len - done;
        uInt out_step = left > (1u << 30) ? 1u << 30 : (uInt)left;
        s.next_in = (Bytef *)z + zdone;
        s.avail_in = in_step;
        s.next_out = *raw + done;
        s.avail_out = out_step;
        int zr = inflate(&s, Z_NO_FLUSH);
        zdone += in_step - s.avail_in;
        done += out_step - s.avail_out;
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

