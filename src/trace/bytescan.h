#ifndef HTX_TRACE_BYTESCAN_H
#define HTX_TRACE_BYTESCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON) && defined(__aarch64__)
#include <arm_neon.h>
#endif

/* The byte search the JSON reader spends most of its time in: the end of a
 * string body's plain run. It takes 16 bytes a step with SSE2 (always there
 * on x86-64) or NEON (aarch64), and the rest (fewer than 16 bytes, or
 * another CPU) with the portable scalar form, which is the reference a test
 * holds the vector forms to. A vector load is only made while at least 16
 * bytes remain before end: nothing is read past [p, end), so buffers need
 * no padding. Past the first 16 bytes, a CPU with AVX2 (asked once at
 * start, bytescan.c) takes 32 bytes a step: long strings (kernel names,
 * args) only, so the choice costs the short ones nothing. (Whitespace stays
 * with the reader's 8-byte space skip: runs are mostly one byte, and a
 * vector step for them measured slower.) Borrows its input until return. */

#if defined(__x86_64__) && defined(__GNUC__) && defined(__SSE2__)
#define TRACE_BYTESCAN_AVX2 1
/* Whether the AVX2 form is taken: set at start from the CPU (tests turn it
 * off to hold the SSE2 form to the scalar one too). */
extern bool trace_bytescan_avx2;
/* The first '"' or '\\' in [p, end), or end, 32 bytes a step; only on a
 * CPU with AVX2. */
const char *trace_bytescan_special_avx2(const char *p, const char *end);
#endif

/* The first '"' or '\\' in [p, end), or end: portable reference. */
static inline const char *trace_bytescan_special_scalar(const char *p, const char *end)
{
    while (p < end && *p != '"' && *p != '\\')
        p++;
    return p;
}

#if defined(__SSE2__)
/* Bit i set for each byte i of the 16 at p that is '"' or '\\'. */
static inline unsigned trace_bytescan_mask16(const char *p)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                                    _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
}
#endif

/* The first '"' or '\\' in [p, end), or end: 16 bytes a step, then scalar. */
static inline const char *trace_bytescan_special_16(const char *p, const char *end)
{
#if defined(__SSE2__)
    while (end - p >= 16) {
        unsigned m = trace_bytescan_mask16(p);
        if (m)
            return p + __builtin_ctz(m);
        p += 16;
    }
#elif defined(__ARM_NEON) && defined(__aarch64__)
    const uint8x16_t quote = vdupq_n_u8('"'), backslash = vdupq_n_u8('\\');
    while (end - p >= 16) {
        uint8x16_t x = vld1q_u8((const uint8_t *)p);
        uint8x16_t hit = vorrq_u8(vceqq_u8(x, quote), vceqq_u8(x, backslash));
        /* Four bits a byte (shift-narrow), so the first hit is ctz / 4. */
        uint8x8_t n = vshrn_n_u16(vreinterpretq_u16_u8(hit), 4);
        uint64_t m = vget_lane_u64(vreinterpret_u64_u8(n), 0);
        if (m)
            return p + (__builtin_ctzll(m) >> 2);
        p += 16;
    }
#endif
    return trace_bytescan_special_scalar(p, end);
}

/* The first '"' or '\\' in [p, end), or end. */
static inline const char *trace_bytescan_special(const char *p, const char *end)
{
#ifdef TRACE_BYTESCAN_AVX2
    if (end - p >= 16) {
        unsigned m = trace_bytescan_mask16(p);
        if (m)
            return p + __builtin_ctz(m);
        p += 16;
        if (trace_bytescan_avx2 && end - p >= 32)
            return trace_bytescan_special_avx2(p, end);
    }
#endif
    return trace_bytescan_special_16(p, end);
}

#endif
