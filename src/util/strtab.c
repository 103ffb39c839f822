#include "config.h"
#include "util/strtab.h"

#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/vec.h"

static uint32_t hash_bytes(const char *s, size_t len)
{
    /* Eight bytes a step: kernel names run to hundreds of bytes, and every
     * event's name, category, pid and tid is hashed (by the model and by a
     * pack's dictionary). A multiply and a shift mix each word. */
    const uint64_t k = 0xbf58476d1ce4e5b9u;
    uint64_t h = 0x9e3779b97f4a7c15u ^ len;
    for (; len >= 8; s += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * k;
        h ^= h >> 31;
    }
    uint64_t tail = 0;
    memcpy(&tail, s, len);
    h = (h ^ tail) * k;
    h ^= h >> 29;
    return (uint32_t)(h ^ (h >> 32));
}

int strtab_init(struct strtab *t)
{
    memset(t, 0, sizeof *t);
    arena_init(&t->text, 256 * 1024);
    t->nslots = 1024;
    t->slots = calloc(t->nslots, sizeof *t->slots);
    if (!t->slots)
        return ERR_NOMEM;
    if (strtab_intern(t, "", 0) != 0) {
        strtab_fini(t);
        return ERR_NOMEM;
    }
    return 0;
}

void strtab_fini(struct strtab *t)
{
    arena_fini(&t->text);
    free(t->entries);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static size_t probe(const struct strtab *t, const char *s, size_t len, uint32_t h)
{
    size_t mask = t->nslots - 1;
    size_t i = h & mask;
    for (;;) {
        uint32_t slot = t->slots[i];
        if (slot == 0)
            return i;
        const struct strtab_entry *e = &t->entries[slot - 1];
        if (e->hash == h && e->len == len && memcmp(e->str, s, len) == 0)
            return i;
        i = (i + 1) & mask;
    }
}

static int grow_slots(struct strtab *t)
{
    if (t->nslots > SIZE_MAX / 2 / sizeof *t->slots)
        return ERR_NOMEM;
    size_t n = t->nslots * 2;
    uint32_t *slots = calloc(n, sizeof *slots);
    if (!slots)
        return ERR_NOMEM;
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
    for (size_t id = 0; id < t->count; id++) {
        const struct strtab_entry *e = &t->entries[id];
        t->slots[probe(t, e->str, e->len, e->hash)] = (uint32_t)id + 1;
    }
    return 0;
}

uint32_t strtab_find(const struct strtab *t, const char *s, size_t len)
{
    if (!t->slots || len > UINT32_MAX)
        return STRTAB_NONE;
    uint32_t slot = t->slots[probe(t, s, len, hash_bytes(s, len))];
    return slot ? slot - 1 : STRTAB_NONE;
}

uint32_t strtab_intern(struct strtab *t, const char *s, size_t len)
{
    if (len > UINT32_MAX - 1)
        return STRTAB_NONE;
    uint32_t h = hash_bytes(s, len);
    size_t i = probe(t, s, len, h);
    if (t->slots[i])
        return t->slots[i] - 1;
    if (t->count >= UINT32_MAX - 2)
        return STRTAB_NONE;
    if (VEC_PUSH_SLOT(t->entries, t->count, t->cap))
        return STRTAB_NONE;
    char *copy = arena_strndup(&t->text, s, len);
    if (!copy)
        return STRTAB_NONE;
    uint32_t id = (uint32_t)t->count++;
    t->entries[id] = (struct strtab_entry){copy, (uint32_t)len, h};
    t->slots[i] = id + 1;
    if (t->count * 4 >= t->nslots * 3 && grow_slots(t))
        return STRTAB_NONE;
    return id;
}
