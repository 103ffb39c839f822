#ifndef HTX_TRACE_BYTESCAN_H
#define HTX_TRACE_BYTESCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define TRACE_BYTESCAN_SIMD "sse2"
#elif defined(__ARM_NEON) && defined(__aarch64__)
#include <arm_neon.h>
#define TRACE_BYTESCAN_SIMD "neon"
#else
#define TRACE_BYTESCAN_SIMD "scalar"
#endif

/* The byte searches the JSON reader spends its time in: the end of a string
 * body's plain run and the end of a whitespace run. Each takes 16 bytes a
 * step with SSE2 (always there on x86-64) or NEON (aarch64), and the rest
 * (fewer than 16 bytes, or another CPU) with the portable scalar forms below,
 * which are the reference a test holds the vector forms to. A vector load is
 * only made while at least 16 bytes remain before end: nothing is read past
 * [p, end), so buffers need no padding. Borrow their input until return. */

/* The first '"' or '\\' in [p, end), or end: portable reference. */
static inline const char *trace_bytescan_special_scalar(const char *p, const char *end)
{
    while (p < end && *p != '"' && *p != '\\')
        p++;
    return p;
}

static inline int trace_bytescan_is_space(char ch)
{
    return ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
}

/* The first byte of [p, end) that is not JSON whitespace, or end:
 * portable reference. */
static inline const char *trace_bytescan_space_scalar(const char *p, const char *end)
{
    while (p < end && trace_bytescan_is_space(*p))
        p++;
    return p;
}

#if defined(__SSE2__)
/* Bit i set for each byte i of the 16 at p equal to any of the four
 * (a repeated byte is harmless). */
static inline unsigned trace_bytescan_mask4(const char *p, char a, char b, char c, char d)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(a)),
                                          _mm_cmpeq_epi8(x, _mm_set1_epi8(b))),
                             _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(c)),
                                          _mm_cmpeq_epi8(x, _mm_set1_epi8(d))));
    return (unsigned)_mm_movemask_epi8(m);
}
#elif defined(__ARM_NEON) && defined(__aarch64__)
/* As the SSE2 form: 4 bits per byte (shrn of the compare), so the index of
 * the first hit is ctz / 4. Returns the 64-bit nibble mask. */
static inline uint64_t trace_bytescan_mask4(const char *p, char a, char b, char c, char d)
{
    uint8x16_t x = vld1q_u8((const uint8_t *)p);
    uint8x16_t m = vorrq_u8(vorrq_u8(vceqq_u8(x, vdupq_n_u8((uint8_t)a)),
                                     vceqq_u8(x, vdupq_n_u8((uint8_t)b))),
                            vorrq_u8(vceqq_u8(x, vdupq_n_u8((uint8_t)c)),
                                     vceqq_u8(x, vdupq_n_u8((uint8_t)d))));
    uint8x8_t n = vshrn_n_u16(vreinterpretq_u16_u8(m), 4);
    return vget_lane_u64(vreinterpret_u64_u8(n), 0);
}
#endif

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
    while (end - p >= 16) {
        uint64_t m = trace_bytescan_mask4(p, '"', '\\', '"', '\\');
        if (m)
            return p + (__builtin_ctzll(m) >> 2);
        p += 16;
    }
#endif
    return trace_bytescan_special_scalar(p, end);
}

/* The first byte of [p, end) that is not JSON whitespace, or end. Most runs
 * are empty or one space, so the first byte is looked at alone. */
static inline const char *trace_bytescan_space(const char *p, const char *end)
{
    if (p >= end || !trace_bytescan_is_space(*p))
        return p;
#if defined(__SSE2__)
    while (end - p >= 16) {
        unsigned m = ~trace_bytescan_mask4(p, ' ', '\n', '\r', '\t') & 0xFFFFu;
        if (m)
            return p + __builtin_ctz(m);
        p += 16;
    }
#elif defined(__ARM_NEON) && defined(__aarch64__)
    while (end - p >= 16) {
        uint64_t m = ~trace_bytescan_mask4(p, ' ', '\n', '\r', '\t');
        if (m)
            return p + (__builtin_ctzll(m) >> 2);
        p += 16;
    }
#endif
    return trace_bytescan_space_scalar(p, end);
}

#endif
