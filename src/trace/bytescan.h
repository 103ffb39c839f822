#ifndef HTX_TRACE_BYTESCAN_H
#define HTX_TRACE_BYTESCAN_H

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
 * no padding. (Whitespace stays with the reader's 8-byte space skip: runs
 * are mostly one byte, and a vector step for them measured slower.) Borrows
 * its input until return. */

/* The first '"' or '\\' in [p, end), or end: portable reference. */
static inline const char *trace_bytescan_special_scalar(const char *p, const char *end)
{
    while (p < end && *p != '"' && *p != '\\')
        p++;
    return p;
}

/* The first '"' or '\\' in [p, end), or end. */
static inline const char *trace_bytescan_special(const char *p, const char *end)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    while (end - p >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned m = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)));
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

#endif
