#ifndef HTX_TRACE_PACK_DICT_H
#define HTX_TRACE_PACK_DICT_H

/* The preset deflate dictionary (zlib's deflateSetDictionary) of packs of
 * TRACE_PACK_VERSION 3 and of deflated summary tables: the PyTorch, CUDA
 * and NCCL names every Kineto trace repeats, and htx's own table words, so
 * that a small rank's summary does not spell them out again. Frozen: a
 * stream made with it names its Adler-32 and inflates only with it. */

#include <stddef.h>

/* The dictionary's bytes (static) and length. */
const unsigned char *trace_pack_dictionary(size_t *len);

#endif
