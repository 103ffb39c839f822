#ifndef HTX_UTIL_ARENA_H
#define HTX_UTIL_ARENA_H

#include <stddef.h>

/* A bump allocator made of chained blocks. Everything allocated from an arena
 * is released at once by arena_fini (or arena_reset, which keeps the first
 * block for reuse). Not thread-safe: one arena per thread. */

struct arena_block;

struct arena {
    struct arena_block *head;
    size_t block_size;  /* default size of new blocks */
    size_t total;       /* bytes obtained from malloc, for memory reports */
};

/* arena_init allocates nothing (block_size 0 = a default); the arena owns
 * every block it hands out until arena_fini frees them all. */
void arena_init(struct arena *a, size_t block_size);
void arena_fini(struct arena *a);
/* Frees every block but the newest, and makes it empty. */
void arena_reset(struct arena *a);

/* Returns size bytes aligned to 16, or NULL when out of memory. Valid until
 * arena_fini/arena_reset. */
void *arena_alloc(struct arena *a, size_t size);
/* Like arena_alloc, zero-filled; NULL also when n * size overflows. */
void *arena_calloc(struct arena *a, size_t n, size_t size);
/* Copies len bytes and adds a NUL. */
char *arena_strndup(struct arena *a, const char *s, size_t len);

#endif
