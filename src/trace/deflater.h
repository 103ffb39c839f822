#ifndef HTX_TRACE_DEFLATER_H
#define HTX_TRACE_DEFLATER_H

/* One zlib stream with trace/pack_dict.h's dictionary, fed in pieces and
 * appended to a growing buffer: how a summary's packed events and its
 * tables are deflated. Any zlib inflater reads what it makes
 * (trace/zbuf.h: trace_inflate_exact).
 *
 * Which deflater: a stream that ends within TRACE_DEFLATER_HOLD bytes is
 * deflated by zlib at level 6 (9 for one expected small), as its bytes
 * come: there a byte saved counts more than the time (a small rank's
 * summary is mostly its events). A longer one
 * goes through Intel ISA-L's level 2 when htx is built with it and
 * HTX_DEFLATE is not "zlib", so that `htx summarize` keeps up with the
 * read (measured on a 1 GB rank: 11x zlib's speed, 8 % larger). ISA-L
 * is given whole TRACE_DEFLATER_HOLD pieces, so its output depends on the
 * bytes only, not on how they were fed. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TRACE_DEFLATER_HOLD ((size_t)4 << 20)

struct trace_deflater;

/* NULL when out of memory. */
struct trace_deflater *trace_deflater_new(void);

/* A stream expected past the hold, fed while every core is busy: its held
 * bytes are not deflated by zlib as they come (work dropped at the hold),
 * only at its end if it ends within the hold after all. The output is the
 * same. Call before the first put. */
void trace_deflater_hold_only(struct trace_deflater *d);

/* A stream expected small (trace_file_size_of's small trace, a small table):
 * zlib at level 9, a little smaller than level 6 and no slower on a few
 * hundred KiB (on megabytes it is several times slower). Call before the
 * first put. */
void trace_deflater_small(struct trace_deflater *d);

/* A stream whose bytes are all given at once, past trace_deflater_small's
 * size (a big rank's tiles): deflated by ISA-L where built with it, else
 * by zlib at level 1 (level 6 costs several times the work on such a
 * section). Call before the first put. */
void trace_deflater_fast(struct trace_deflater *d);

/* Deflates in[0..n), and ends the stream when last (then only free may
 * follow), appending to *out (length *len, capacity *cap; grown with
 * realloc). 0, ERR_NOMEM, or ERR_INTERNAL when the deflater failed. */
int trace_deflater_put(struct trace_deflater *d, const uint8_t *in, size_t n, bool last,
                       uint8_t **out, size_t *len, size_t *cap);

void trace_deflater_free(struct trace_deflater *d);

/* Gives zlib the dictionary now, for each level a stream may start at, as
 * the first stream of that level would: `htx summarize` calls it on the
 * core the load leaves idle, rather than after the load, where it would
 * delay a small rank's first deflated tables. */
void trace_deflater_prime(void);

#endif
