#ifndef HTX_GEN_RNG_H
#define HTX_GEN_RNG_H

/* Deterministic random numbers for the trace generator (splitmix64).
 * Streams are keyed by what they describe (seed, rank, step, layer, ...) so a
 * change in one part of a trace (an op added in the test half of a diff pair)
 * does not shift the random numbers of every later part. */

#include <stdint.h>

struct gen_rng {
    uint64_t s;
};

static inline uint64_t gen_rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A stream for the key (a, b, c, d). */
static inline struct gen_rng gen_rng_key(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t h = gen_rng_mix(a + 0x9e3779b97f4a7c15ull);
    h = gen_rng_mix(h ^ (b + 0x632be59bd9b4e019ull));
    h = gen_rng_mix(h ^ (c + 0x8cb92ba72f3d8dd7ull));
    h = gen_rng_mix(h ^ (d + 0x2545f4914f6cdd1dull));
    return (struct gen_rng){h};
}

static inline uint64_t gen_rng_next(struct gen_rng *r)
{
    r->s += 0x9e3779b97f4a7c15ull;
    return gen_rng_mix(r->s);
}

/* Uniform in [0, 1). */
static inline double gen_rng_unit(struct gen_rng *r)
{
    return (double)(gen_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [0, n); n > 0. */
static inline uint64_t gen_rng_below(struct gen_rng *r, uint64_t n)
{
    return gen_rng_next(r) % n;
}

/* A multiplicative jitter around 1: most values within +-spread, with a rare
 * long tail (2-4x) when `tail` is non-zero, as real op times have. */
static inline double gen_rng_jitter(struct gen_rng *r, double spread, int tail)
{
    double u = gen_rng_unit(r) + gen_rng_unit(r) - 1.0; /* triangular in (-1, 1) */
    double j = 1.0 + spread * u;
    if (tail && gen_rng_below(r, 200) == 0)
        j *= 2.0 + 2.0 * gen_rng_unit(r);
    return j;
}

#endif
