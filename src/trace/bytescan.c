#include "config.h"
#include "trace/bytescan.h"

/* The AVX2 form of the string-end search, compiled for AVX2 alone (the
 * rest of htx runs on any x86-64) and taken only when the CPU has it. */

#ifdef TRACE_BYTESCAN_AVX2
#include <immintrin.h>

bool trace_bytescan_avx2;

__attribute__((constructor)) static void bytescan_pick(void)
{
    __builtin_cpu_init();
    trace_bytescan_avx2 = __builtin_cpu_supports("avx2");
}

__attribute__((target("avx2"))) const char *trace_bytescan_special_avx2(const char *p,
                                                                        const char *end)
{
    const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\');
    while (end - p >= 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
        unsigned m = (unsigned)_mm256_movemask_epi8(
            _mm256_or_si256(_mm256_cmpeq_epi8(x, quote), _mm256_cmpeq_epi8(x, backslash)));
        if (m)
            return p + __builtin_ctz(m);
        p += 32;
    }
    return trace_bytescan_special_16(p, end);
}
#endif
