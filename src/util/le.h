#ifndef HTX_UTIL_LE_H
#define HTX_UTIL_LE_H

/* Little-endian integers of n bytes (n <= 8), as the file formats htx
 * writes store them (util/summary_file.h, trace/pack.h): byte by byte, so neither
 * the host's byte order nor alignment matters. */

#include <stdint.h>
#include <string.h>

static inline void le_store(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t le_load(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* A double by its bits. */
static inline void le_store_f64(uint8_t *p, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    le_store(p, bits, 8);
}

static inline double le_load_f64(const uint8_t *p)
{
    uint64_t bits = le_load(p, 8);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

#endif
