#ifndef HTX_UTIL_CONTENT_HASH_H
#define HTX_UTIL_CONTENT_HASH_H

/* A file's whole content as one 64-bit hash: XXH3-64 of xxHash (seed 0),
 * which runs at several GB/s, so that the cache can check every byte of a
 * trace behind its first screen (app/cache.h). It notices a change; it is
 * no security hash. The one file that includes xxhash.h. */

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* The hash of p[0..n). */
uint64_t util_content_hash(const void *p, size_t n);

/* The hash of the file open at fd, read from its start to its end in 1 MiB
 * pieces; *stop (when stop is given) becoming true ends the reading. 0, or
 * ERR_IO (a read failed), ERR_NOMEM or ERR_CANCEL; the caller names the
 * file. Borrows fd, which it neither moves nor closes. */
int util_content_hash_fd(int fd, uint64_t *out, const atomic_bool *stop);

#endif
