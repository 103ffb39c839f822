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

/* A test whose cost is its size (megabytes of records, a ring turned many
 * times, every real trace): added everywhere but under memcheck, where it
 * would take minutes for code paths the ASan and UBSan run already checks
 * at full size. The log says what was left out. */
#define tcase_add_large_test(tc, fn) tcase_add_large_loop_test(tc, fn, 0, 1)
#define tcase_add_large_loop_test(tc, fn, from, to)                                    \
    do {                                                                               \
        if (under_memcheck())                                                          \
            fprintf(stderr, "memcheck: %s is left to the other builds\n", #fn);          \
        else                                                                           \
            tcase_add_loop_test(tc, fn, from, to);                                     \
    } while (0)

#endif
