#include "config.h"
#include "util/ring.h"

#include <stdlib.h>

#include "util/memory.h"

int ring_init(struct ring *r, size_t nblocks, size_t block_size)
{
    *r = (struct ring){.nblocks = nblocks, .block_size = block_size};
    if (nblocks == 0 || nblocks > RING_MAX_BLOCKS || block_size == 0)
        return ERR_INTERNAL;
    for (size_t i = 0; i < nblocks; i++)
        if (!(r->block[i] = malloc(block_size))) {
            for (size_t k = 0; k < i; k++)
                free(r->block[k]);
            return ERR_NOMEM;
        }
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->changed, NULL);
    return 0;
}

void ring_fini(struct ring *r)
{
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->changed);
    for (size_t i = 0; i < r->nblocks; i++)
        free(r->block[i]);
    r->nblocks = 0;
}

uint8_t *ring_empty(struct ring *r)
{
    pthread_mutex_lock(&r->lock);
    while (r->count == r->nblocks && !r->closed)
        pthread_cond_wait(&r->changed, &r->lock);
    // The slot after the full ones is the producer's alone until published.
    size_t slot = (r->head + r->count) % r->nblocks;
    uint8_t *b = r->closed ? NULL : r->block[slot];
    pthread_mutex_unlock(&r->lock);
    // Every block is filled whole, over and over: made resident when first
    // given (a system call a block, not a fault a page), on the producer's
    // thread and only if used: a 1.7 MB trace takes three of the four 1 MiB
    // blocks (the third to find its end), so making all four resident
    // before the first byte would delay it for nothing.
    if (b && slot == r->resident) {
        util_populate(b, r->block_size);
        r->resident++;
    }
    return b;
}

void ring_publish(struct ring *r, size_t len, uint64_t tag)
{
    pthread_mutex_lock(&r->lock);
    size_t slot = (r->head + r->count) % r->nblocks;
    r->len[slot] = len;
    r->tag[slot] = tag;
    r->count++;
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
}

void ring_end(struct ring *r, int rc, const struct err *e)
{
    pthread_mutex_lock(&r->lock);
    r->ended = true;
    r->rc = rc;
    if (rc && e)
        r->err = *e;
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
}

const uint8_t *ring_full(struct ring *r, size_t *len, uint64_t *tag, int *rc, struct err *e)
{
    pthread_mutex_lock(&r->lock);
    while (r->count == 0 && !r->ended)
        pthread_cond_wait(&r->changed, &r->lock);
    const uint8_t *b = NULL;
    *rc = 0;
    if (r->count) {
        b = r->block[r->head];
        *len = r->len[r->head];
        if (tag)
            *tag = r->tag[r->head];
    } else {
        *len = 0;
        *rc = r->rc;
        if (r->rc && e)
            *e = r->err;
    }
    pthread_mutex_unlock(&r->lock);
    return b;
}

void ring_release(struct ring *r)
{
    pthread_mutex_lock(&r->lock);
    r->head = (r->head + 1) % r->nblocks;
    r->count--;
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
}

void ring_close(struct ring *r)
{
    pthread_mutex_lock(&r->lock);
    r->closed = true;
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
}
