#ifndef HTX_TESTS_FUZZ_H
#define HTX_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* The loader fuzz target (tests/fuzz/fuzz_load.c). libFuzzer calls it with
 * each generated input; tests/fuzz/replay_main.c calls it with every file of
 * the corpus and the regression inputs, so the same code runs in make check
 * without libFuzzer. It returns 0 and aborts on a broken invariant (ASan,
 * UBSan or valgrind report the memory errors). Borrows data until return. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs hold up to FUZZ_MAX_RANKS rank documents separated by this line. */
#define FUZZ_RANK_SEPARATOR "\n@@rank\n"
#define FUZZ_MAX_RANKS 3

#endif
