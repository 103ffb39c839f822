#ifndef HTX_TESTS_MEMCHECK_H
#define HTX_TESTS_MEMCHECK_H

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* Under memcheck (tests/valgrind-wrap.sh sets HTX_MEMCHECK=1) a test runs
 * about fifty times slower. The property tests then draw fewer random
 * cases and the scale tests stop at smaller sizes: the same code paths,
 * so CI's memcheck run stays short; every size runs in the other builds. */

/* The largest real trace file the memcheck run reads (compressed bytes),
 * as tests/hostile/valgrind.sh's sample: every kind of trace but the
 * largest. */
#define MEMCHECK_TRACE_BYTES 1000000

static inline bool under_memcheck(void)
{
    const char *m = getenv("HTX_MEMCHECK");
    return m && m[0] == '1';
}

/* n rounds, or a tenth of them (at least one) under memcheck. */
static inline int memcheck_rounds(int n)
{
    return under_memcheck() ? (n + 9) / 10 : n;
}

/* Built with AddressSanitizer (the ASan and UBSan run), about five times
 * slower than the plain build. */
static inline bool under_asan(void)
{
#if defined(__SANITIZE_ADDRESS__)
    return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return true;
#else
    return false;
#endif
#else
    return false;
#endif
}

/* A test whose cost is its size (megabytes of records, a ring turned many
 * times, every real trace). Under memcheck it is left out, named in the
 * log: minutes for code paths the ASan run checks at full size. Under ASan
 * a loop of such cases runs its first case; the plain build runs them all.
 * This keeps CI within its time. */
#define tcase_add_large_test(tc, fn) tcase_add_large_loop_test(tc, fn, 0, 1)
#define tcase_add_large_loop_test(tc, fn, from, to)                                    \
    do {                                                                               \
        if (under_memcheck())                                                          \
            fprintf(stderr, "memcheck: %s is left to the other builds\n", #fn);          \
        else if (under_asan() && (to) - (from) > 1)                                    \
            tcase_add_loop_test(tc, fn, from, (from) + 1);                             \
        else                                                                           \
            tcase_add_loop_test(tc, fn, from, to);                                     \
    } while (0)

#endif
