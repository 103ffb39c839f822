#ifndef HTX_UTIL_HMAP_H
#define HTX_UTIL_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An open-addressing hash map from int64 keys to uint32 values, for joins on
 * correlation ids and similar. Not thread-safe. Hand-rolled because libc has
 * none usable here (hsearch is one global table with string keys) and the
 * allowed dependencies (ncurses, cJSON, zlib) have none; flat key and value
 * arrays keep a join over millions of events in cache. */

struct hmap {
    int64_t *keys;
    uint32_t *vals;
    unsigned char *used;
    size_t cap, count;
};

/* hmap_init sizes the table for `expected` keys (it grows past that) and
 * returns 0 or ERR_NOMEM; the map owns its arrays until hmap_fini. */
int hmap_init(struct hmap *m, size_t expected);
void hmap_fini(struct hmap *m);
/* Inserts or overwrites (keys and values are copied). Returns 0 or ERR_NOMEM. */
int hmap_put(struct hmap *m, int64_t key, uint32_t val);
/* Returns a pointer to the value (valid until the next put), or NULL. */
uint32_t *hmap_get(const struct hmap *m, int64_t key);
/* The dense numbering of keys: *val is key's value, or `next` when the key
 * is new (then put, and *added set: the caller appends the entry `next`
 * numbers). Returns 0 or ERR_NOMEM. */
int hmap_number(struct hmap *m, int64_t key, uint32_t next, uint32_t *val, bool *added);

#endif
