#include "config.h"
#include "util/hmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* Every key bit must reach the slot bits: keys are often two 32-bit ids
 * packed (parent << 32 | name, pid << 32 | tid), and a plain multiply
 * carries high key bits only upwards, so such keys differing only in
 * their high half would all collide below 2^15 slots. MurmurHash3's 64-bit
 * finalizer mixes both halves. */
static size_t slot_of(int64_t key, size_t cap)
{
    uint64_t h = (uint64_t)key;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

static int alloc_table(struct hmap *m, size_t cap)
{
    m->keys = malloc(cap * sizeof *m->keys);
    m->vals = malloc(cap * sizeof *m->vals);
    m->used = calloc(cap, 1);
    m->cap = cap;
    m->count = 0;
    if (!m->keys || !m->vals || !m->used) {
        hmap_fini(m);
        return ERR_NOMEM;
    }
    return 0;
}

int hmap_init(struct hmap *m, size_t expected)
{
    memset(m, 0, sizeof *m);
    size_t cap = 64;
    while (cap < expected * 2) {
        if (cap > SIZE_MAX / 4 / sizeof(int64_t))
            return ERR_NOMEM;
        cap *= 2;
    }
    return alloc_table(m, cap);
}

void hmap_fini(struct hmap *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    memset(m, 0, sizeof *m);
}

static int grow(struct hmap *m)
{
    struct hmap old = *m;
    if (old.cap > SIZE_MAX / 4 / sizeof(int64_t))
        return ERR_NOMEM;
    if (alloc_table(m, old.cap * 2)) {
        *m = old;
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < old.cap; i++)
        if (old.used[i] && hmap_put(m, old.keys[i], old.vals[i])) {
            hmap_fini(m);
            *m = old;
            return ERR_NOMEM;
        }
    hmap_fini(&old);
    return 0;
}

int hmap_put(struct hmap *m, int64_t key, uint32_t val)
{
    if ((m->count + 1) * 4 > m->cap * 3 && grow(m))
        return ERR_NOMEM;
    size_t i = slot_of(key, m->cap);
    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->used[i]) {
        m->used[i] = 1;
        m->keys[i] = key;
        m->count++;
    }
    m->vals[i] = val;
    return 0;
}

uint32_t *hmap_get(const struct hmap *m, int64_t key)
{
    if (!m->cap)
        return NULL;
    size_t i = slot_of(key, m->cap);
    while (m->used[i]) {
        if (m->keys[i] == key)
            return &m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return NULL;
}

int hmap_number(struct hmap *m, int64_t key, uint32_t next, uint32_t *val, bool *added)
{
    uint32_t *at = hmap_get(m, key);
    *added = !at;
    *val = at ? *at : next;
    return at ? 0 : hmap_put(m, key, next);
}
