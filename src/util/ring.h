#ifndef HTX_UTIL_RING_H
#define HTX_UTIL_RING_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* The one hand-off of bytes between two threads: a bounded ring of blocks
 * from one producer to one consumer, in order. Reading gzip ahead of the
 * parser (trace/source.c: the producer inflates) and deflating a pack behind
 * the recorder (trace/pack.c: the consumer deflates) both go through it, so
 * one core parses while the other (de)compresses.
 *
 * The producer fills ring_empty() and hands it over with ring_publish(); the
 * consumer takes ring_full() and gives it back with ring_release(). Either
 * side waits only when the ring is full (producer) or empty (consumer).
 * ring_end() says no more blocks come (with how it ended); ring_close() says
 * the consumer left, and the producer's waits then return NULL. */

#define RING_MAX_BLOCKS 8

struct ring {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint8_t *block[RING_MAX_BLOCKS];
    size_t len[RING_MAX_BLOCKS];
    uint64_t tag[RING_MAX_BLOCKS];  /* the producer's note on a block (progress) */
    size_t nblocks, block_size;
    size_t head, count;             /* full blocks from head */
    size_t resident;                /* blocks made resident (the first ones): the producer's */
    bool ended, closed;
    int rc;                         /* how the producer ended: 0 or an error */
    struct err err;
};

/* nblocks (1..RING_MAX_BLOCKS) blocks of block_size bytes; ERR_NOMEM. */
int ring_init(struct ring *r, size_t nblocks, size_t block_size);
void ring_fini(struct ring *r);

/* Producer: the next block to fill (block_size bytes), waiting while every
 * block is full; NULL once the consumer closed the ring. */
uint8_t *ring_empty(struct ring *r);
/* Producer: the block ring_empty gave now holds len bytes. */
void ring_publish(struct ring *r, size_t len, uint64_t tag);
/* Producer: no more blocks; rc and e (may be NULL) reach the consumer after
 * the last block. */
void ring_end(struct ring *r, int rc, const struct err *e);

/* Consumer: the oldest full block, waiting while there is none; NULL at
 * the end, with *rc (and *e when rc != 0 and e is not NULL) as ring_end
 * gave them. */
const uint8_t *ring_full(struct ring *r, size_t *len, uint64_t *tag, int *rc, struct err *e);
/* Consumer: done with the block ring_full gave. */
void ring_release(struct ring *r);
/* Consumer: takes no more blocks; a waiting producer wakes up. */
void ring_close(struct ring *r);

#endif
