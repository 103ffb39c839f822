#include "config.h"
#include "util/content_hash.h"

#include <stdlib.h>
#include <xxhash.h>

#include "util/summary_file.h"

#define CONTENT_HASH_PIECE ((size_t)1 << 20)

uint64_t util_content_hash(const void *p, size_t n)
{
    return (uint64_t)XXH3_64bits(p, n);
}

int util_content_hash_fd(int fd, uint64_t *out, const atomic_bool *stop)
{
    uint8_t *buf = malloc(CONTENT_HASH_PIECE);
    XXH3_state_t *state = XXH3_createState();
    int rc = buf && state && XXH3_64bits_reset(state) == XXH_OK ? 0 : ERR_NOMEM;
    for (uint64_t at = 0; rc == 0;) {
        if (stop && atomic_load(stop)) {
            rc = ERR_CANCEL;
            break;
        }
        long long got = summary_file_read_at(fd, buf, CONTENT_HASH_PIECE, at);
        if (got < 0)
            rc = ERR_IO;
        else if (got == 0)
            break;
        else if (XXH3_64bits_update(state, buf, (size_t)got) != XXH_OK)
            rc = ERR_NOMEM;
        at += got > 0 ? (uint64_t)got : 0;
    }
    if (rc == 0)
        *out = (uint64_t)XXH3_64bits_digest(state);
    XXH3_freeState(state);
    free(buf);
    return rc;
}
