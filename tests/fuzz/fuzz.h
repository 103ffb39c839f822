#ifndef HTX_TESTS_FUZZ_H
#define HTX_TESTS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ---- shared by the targets (tests/fuzz/fuzz_common.c) ---- */

/* Aborts with the place and the condition when cond is false, so the fuzzer
 * reports a broken invariant like a crash. */
#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "fuzz: check failed at %s:%d: %s\n", __FILE__,       \
                    __LINE__, #cond);                                            \
            abort();                                                             \
        }                                                                        \
    } while (0)

uint64_t fuzz_fnv(uint64_t h, const void *p, size_t n);

/* Splits an input into up to FUZZ_MAX_RANKS documents at
 * FUZZ_RANK_SEPARATOR; returns how many (at least 1). */
size_t fuzz_split_ranks(const uint8_t *data, size_t size, const void **docs, size_t *lens);

struct rank_model;
struct table;
/* A rank's indexes point inside it and are ordered as documented. */
void fuzz_check_rank(const struct rank_model *r, uint64_t h);
/* t in every format: no raw ESC in text or CSV, JSON that parses. */
void fuzz_check_formats(const struct table *t);

/* What a read delivered, summed up so two reads can be compared. */
struct fuzz_digest {
    uint64_t h;
    uint64_t events, warnings;
    int rc;
};

struct trace_limits;
/* Reads len bytes at buf (plain or gzip) with the given limits and scan
 * buffer size (0: the default); the reader's invariants are checked. */
struct fuzz_digest fuzz_read_doc(const void *buf, size_t len, const struct trace_limits *lim,
                                 size_t buf_size);
bool fuzz_same_digest(const struct fuzz_digest *a, const struct fuzz_digest *b);

#endif
