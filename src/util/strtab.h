#ifndef HTX_UTIL_STRTAB_H
#define HTX_UTIL_STRTAB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/arena.h"

/* String interning: every distinct byte string gets a small id, so events
 * store 4-byte ids instead of names. Id 0 is always the empty string.
 * Strings may contain any bytes (NUL included); strtab_str always returns a
 * NUL-terminated copy, so use strtab_len for the true length.
 * Returned pointers stay valid until strtab_fini. Not thread-safe. */

#define STRTAB_NONE UINT32_MAX

struct strtab_entry {
    const char *str;
    uint32_t len;
    uint32_t hash;
};

struct strtab {
    struct arena text;
    struct strtab_entry *entries; /* indexed by id */
    size_t count, cap;
    uint32_t *slots;              /* open addressing: id + 1, 0 = empty */
    size_t nslots;
};

/* strtab_init makes an empty table holding "" as id 0 (0 or ERR_NOMEM);
 * the table owns every string interned since, and strtab_fini frees them. */
int strtab_init(struct strtab *t);
void strtab_fini(struct strtab *t);

/* Returns the id of s (adding it if new) or STRTAB_NONE when out of memory or
 * when the table would exceed 2^32-2 strings. Borrows s until return. */
uint32_t strtab_intern(struct strtab *t, const char *s, size_t len);
/* strtab_intern, first trying *hint (an id this caller got last time, or
 * anything else), which it then updates: a field whose value repeats from
 * one event to the next (category, pid, tid) costs a compare, not a hash. */
static inline uint32_t strtab_intern_hinted(struct strtab *t, const char *s, size_t len,
                                            uint32_t *hint)
{
    if (*hint < t->count && t->entries[*hint].len == len &&
        memcmp(t->entries[*hint].str, s, len) == 0)
        return *hint;
    uint32_t id = strtab_intern(t, s, len);
    if (id != STRTAB_NONE)
        *hint = id;
    return id;
}
/* Returns the id of s if present, else STRTAB_NONE. Borrows s until return. */
uint32_t strtab_find(const struct strtab *t, const char *s, size_t len);

static inline const char *strtab_str(const struct strtab *t, uint32_t id)
{
    return id < t->count ? t->entries[id].str : "";
}

static inline size_t strtab_len(const struct strtab *t, uint32_t id)
{
    return id < t->count ? t->entries[id].len : 0;
}

static inline size_t strtab_count(const struct strtab *t)
{
    return t->count;
}

#endif
