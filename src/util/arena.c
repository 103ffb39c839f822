#include "config.h"
#include "util/arena.h"
#include "util/memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct arena_block {
    struct arena_block *next;
    size_t size;
    size_t used;
    _Alignas(16) unsigned char data[];
};

void arena_init(struct arena *a, size_t block_size)
{
    a->head = NULL;
    a->block_size = block_size ? block_size : 64 * 1024;
    a->total = 0;
}

void arena_fini(struct arena *a)
{
    struct arena_block *b = a->head;
    while (b) {
        struct arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->total = 0;
}

void arena_reset(struct arena *a)
{
    if (!a->head)
        return;
    struct arena_block *keep = a->head;
    struct arena_block *b = keep->next;
    while (b) {
        struct arena_block *next = b->next;
        a->total -= sizeof *b + b->size;
        free(b);
        b = next;
    }
    keep->next = NULL;
    keep->used = 0;
}

void *arena_alloc(struct arena *a, size_t size)
{
    if (size > SIZE_MAX - 15)
        return NULL;
    size = (size + 15) & ~(size_t)15;
    struct arena_block *b = a->head;
    if (!b || b->size - b->used < size) {
        size_t want = size > a->block_size ? size : a->block_size;
        if (want > SIZE_MAX - sizeof *b)
            return NULL;
        b = malloc(sizeof *b + want);
        if (!b)
            return NULL;
        b->size = want;
        b->used = 0;
        if (size > a->block_size)   /* a block of its own: the caller fills it */
            util_populate(b->data, size);
        b->next = a->head;
        a->head = b;
        a->total += sizeof *b + want;
    }
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

void *arena_calloc(struct arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    void *p = arena_alloc(a, n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *p = arena_alloc(a, len + 1);
    if (!p)
        return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}
