#ifndef HTX_TRACE_ZBUF_H
#define HTX_TRACE_ZBUF_H

/* Whole buffers through zlib, for what a summary stores deflated (its
 * packed events, its tables): zlib lives in src/trace (tests/layering.sh). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Buffers up to this size are deflated by zlib (trace_deflate_buffer). A
 * small rank's tables are all below it, and there level 9 keeps its
 * summary small beside its trace. Above it, level 9 would be the longest
 * task of a summary, and ISA-L deflates instead (where built with it):
 * measured on a 75 KB table, 25x faster for a third more bytes. */
#define TRACE_DEFLATE_SMALL_BUFFER ((size_t)32 << 10)

/* in[0..n) deflated with trace/pack_dict.h's dictionary (trace/deflater.h)
 * into a new buffer (*out, *out_len; the caller frees it): up to
 * TRACE_DEFLATE_SMALL_BUFFER at zlib's level 9, or 6 for numbers (a
 * summary's tiles: varints of times, where 9 saves 0.4 % for twice the
 * time), past it the fastest way (trace_deflater_fast). 0, ERR_NOMEM or
 * ERR_INTERNAL. */
int trace_deflate_buffer(const void *in, size_t n, bool numbers, uint8_t **out, size_t *out_len);

/* The dictionary's Adler-32, by which a zlib header names it: computed
 * once, not at each of a job's thousands of inflates. */
uint32_t trace_pack_dictionary_id(void);

/* Inflates z[0..zlen), made with or without the dictionary, into a new
 * buffer of exactly raw_len bytes (*raw; the caller frees it). ERR_PARSE
 * naming `name` and `what` when the data is corrupt, shorter or longer than
 * raw_len, followed by other bytes, or made with another dictionary;
 * ERR_NOMEM. */
int trace_inflate_exact(const char *name, const char *what, const uint8_t *z, size_t zlen,
                        uint64_t raw_len, uint8_t **raw, struct err *e);

#endif
