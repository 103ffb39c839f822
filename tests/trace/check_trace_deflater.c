#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check_trace.h"
#include "trace/deflater.h"
#include "trace/pack_dict.h"
#include "trace/zbuf.h"
#include "../memcheck.h"

/* The deflater (trace/deflater.h): one zlib stream whatever the pieces it
 * was fed in, read by both inflaters; zlib's level 6 (9 for a stream said
 * small) for a stream within the hold, ISA-L past it when built with it,
 * zlib under HTX_DEFLATE=zlib. */

/* Loop tests run with _i 0 (the default deflater) and 1 (HTX_DEFLATE=zlib). */
static void deflate_by(int i)
{
    if (i)
        setenv("HTX_DEFLATE", "zlib", 1);
    else
        unsetenv("HTX_DEFLATE");
}

/* n bytes shaped like packed records: small varints, repeated names, some
 * noise, so that they deflate as records do. */
static uint8_t *records_like(size_t n)
{
    static const char *names[] = {"aten::mm", "cudaLaunchKernel", "ncclKernel_AllReduce",
                                  "void at::native::vectorized_elementwise_kernel<4>"};
    uint8_t *b = malloc(n);
    ck_assert_ptr_nonnull(b);
    uint32_t x = 12345;
    for (size_t i = 0; i < n;) {
        x = x * 1103515245u + 12345u;
        if ((x >> 16) % 5 == 0) {
            const char *s = names[(x >> 8) % 4];
            for (size_t k = 0; s[k] && i < n; k++)
                b[i++] = (uint8_t)s[k];
        } else {
            b[i++] = (uint8_t)((x >> 16) % 40);
        }
    }
    return b;
}

static uint8_t *deflate_in_pieces(const uint8_t *in, size_t n, const size_t *pieces,
                                  size_t npieces, bool small, size_t *len)
{
    struct trace_deflater *d = trace_deflater_new();
    ck_assert_ptr_nonnull(d);
    if (small)
        trace_deflater_small(d);
    uint8_t *out = NULL;
    size_t cap = 0, done = 0;
    *len = 0;
    for (size_t i = 0; done < n || i == 0; i++) {
        size_t k = pieces[i % npieces];
        k = k < n - done ? k : n - done;
        bool last = done + k == n;
        ck_assert_int_eq(trace_deflater_put(d, in + done, k, last, &out, len, &cap), 0);
        done += k;
        if (last)
            break;
    }
    trace_deflater_free(d);
    return out;
}

static void assert_inflates_to(const uint8_t *z, size_t zlen, const uint8_t *raw, size_t n)
{
    for (int zlib = 0; zlib < 2; zlib++) {
        if (zlib)
            setenv("HTX_INFLATE", "zlib", 1);
        else
            unsetenv("HTX_INFLATE");
        uint8_t *back = NULL;
        struct err e = {0, ""};
        ck_assert_int_eq(trace_inflate_exact("t", "stream", z, zlen, n, &back, &e), 0);
        ck_assert(n == 0 || memcmp(back, raw, n) == 0);
        free(back);
    }
    unsetenv("HTX_INFLATE");
}

/* The header names the dictionary; FLEVEL tells the deflater: 2 for zlib's
 * level 6, 3 for its level 9, 0 for ISA-L's header. */
static int header_level(const uint8_t *z, size_t zlen)
{
    ck_assert_uint_ge(zlen, 6);
    ck_assert_uint_eq(z[0], 0x78);
    ck_assert_uint_eq(((unsigned)z[0] << 8 | z[1]) % 31, 0);
    ck_assert(z[1] & 0x20);
    uint32_t id = (uint32_t)z[2] << 24 | (uint32_t)z[3] << 16 | (uint32_t)z[4] << 8 | z[5];
    ck_assert_uint_eq(id, trace_pack_dictionary_id());
    return z[1] >> 6;
}

START_TEST(deflater_should_make_one_stream_whatever_the_pieces)
{
    deflate_by(_i);
    size_t n = 2 * TRACE_DEFLATER_HOLD + 12345;
    uint8_t *raw = records_like(n);
    size_t whole_len, pieces_len, odd_len;
    const size_t whole[] = {n}, ring[] = {(size_t)1 << 20},
                 odd[] = {1, 7, TRACE_DEFLATER_HOLD - 3, 65536 + 5, 0};
    uint8_t *z_whole = deflate_in_pieces(raw, n, whole, 1, false, &whole_len);
    uint8_t *z_ring = deflate_in_pieces(raw, n, ring, 1, false, &pieces_len);
    uint8_t *z_odd = deflate_in_pieces(raw, n, odd, 5, false, &odd_len);
    ck_assert_uint_eq(whole_len, pieces_len);
    ck_assert_uint_eq(whole_len, odd_len);
    ck_assert(memcmp(z_whole, z_ring, whole_len) == 0);
    ck_assert(memcmp(z_whole, z_odd, whole_len) == 0);
    ck_assert_uint_lt(whole_len, n / 2);
#ifdef HAVE_ISAL
    ck_assert_int_eq(header_level(z_whole, whole_len), _i ? 2 : 0);
#else
    ck_assert_int_eq(header_level(z_whole, whole_len), 2);
#endif
    assert_inflates_to(z_whole, whole_len, raw, n);

    // A stream cut short, or one byte changed, is refused by both inflaters.
    for (int zlib = 0; zlib < 2; zlib++) {
        if (zlib)
            setenv("HTX_INFLATE", "zlib", 1);
        uint8_t *back = NULL;
        struct err e = {0, ""};
        ck_assert_int_eq(trace_inflate_exact("t", "s", z_whole, whole_len - 1, n, &back, &e),
                         ERR_PARSE);
        z_whole[whole_len - 2] ^= 0x10;   // the data's Adler-32
        ck_assert_int_eq(trace_inflate_exact("t", "s", z_whole, whole_len, n, &back, &e),
                         ERR_PARSE);
        z_whole[whole_len - 2] ^= 0x10;
        unsetenv("HTX_INFLATE");
    }
    free(z_whole), free(z_ring), free(z_odd), free(raw);
}
END_TEST

/* Within the hold, the bytes zlib's level 6 (9 for a stream said small)
 * makes with the dictionary; at the hold and past it, ISA-L's when built
 * with it. */
START_TEST(deflater_should_keep_zlib_for_a_stream_within_the_hold)
{
    deflate_by(_i);
    const size_t sizes[] = {0, 1, 100000, TRACE_DEFLATER_HOLD - 1, TRACE_DEFLATER_HOLD};
    uint8_t *raw = records_like(TRACE_DEFLATER_HOLD);
    for (size_t t = 0; t < 2 * sizeof sizes / sizeof sizes[0]; t++) {
        size_t n = sizes[t / 2], len;
        bool small = t % 2;
        const size_t third[] = {n / 3 + 1};
        uint8_t *z = deflate_in_pieces(raw, n, third, 1, small, &len);
        assert_inflates_to(z, len, raw, n);
        // given whole, in one put, the same bytes
        const size_t whole[] = {n};
        size_t whole_len;
        uint8_t *z_whole = deflate_in_pieces(raw, n, whole, 1, small, &whole_len);
        ck_assert_uint_eq(whole_len, len);
        ck_assert(memcmp(z_whole, z, len) == 0);
        free(z_whole);
        bool isal = false;
#ifdef HAVE_ISAL
        isal = !_i && n == TRACE_DEFLATER_HOLD;
#endif
        ck_assert_int_eq(header_level(z, len), isal ? 0 : small ? 3 : 2);
        if (!isal) {
            size_t dict_len;
            const unsigned char *dict = trace_pack_dictionary(&dict_len);
            z_stream zs;
            memset(&zs, 0, sizeof zs);
            ck_assert_int_eq(deflateInit(&zs, small ? 9 : 6), Z_OK);
            ck_assert_int_eq(deflateSetDictionary(&zs, dict, (uInt)dict_len), Z_OK);
            uLong bound = deflateBound(&zs, (uLong)n) + 16;
            uint8_t *want = malloc(bound);
            zs.next_in = raw;
            zs.avail_in = (uInt)n;
            zs.next_out = want;
            zs.avail_out = (uInt)bound;
            ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
            ck_assert_uint_eq(len, zs.total_out);
            ck_assert(memcmp(z, want, len) == 0);
            deflateEnd(&zs);
            free(want);
        }
        free(z);
    }
    free(raw);

    // Nothing at all, given as NULL (an empty table's body), is an empty
    // stream; a buffer (a summary's table) of up to
    // TRACE_DEFLATE_SMALL_BUFFER is deflated at level 9, a larger one (a big
    // rank's tiles) the fastest way (ISA-L, or zlib's level 1).
    uint8_t *z = NULL;
    size_t zlen = 0;
    ck_assert_int_eq(trace_deflate_buffer(NULL, 0, false, &z, &zlen), 0);
    ck_assert_int_eq(header_level(z, zlen), 3);
    assert_inflates_to(z, zlen, NULL, 0);
    free(z);
    const size_t small = TRACE_DEFLATE_SMALL_BUFFER;
    raw = records_like(small + 1);
    for (size_t n = small; n <= small + 1; n++) {
        ck_assert_int_eq(trace_deflate_buffer(raw, n, false, &z, &zlen), 0);
        ck_assert_int_eq(header_level(z, zlen), n == small ? 3 : 0);
        assert_inflates_to(z, zlen, raw, n);
        free(z);
        // numbers (a summary's tiles) at level 6 up to the same size
        ck_assert_int_eq(trace_deflate_buffer(raw, n, true, &z, &zlen), 0);
        ck_assert_int_eq(header_level(z, zlen), n == small ? 2 : 0);
        assert_inflates_to(z, zlen, raw, n);
        free(z);
    }
    free(raw);
}
END_TEST

/* zlib's blocks are kept for the next stream, on whichever thread: streams
 * deflated on four threads at once come out as each does alone. */
#define RACE_THREADS 4
#define RACE_ROUNDS 12
struct race {
    const uint8_t *raw;
    size_t n;
    const uint8_t *want;
    size_t want_len;
    bool same;
};

static void *race_deflate(void *arg)
{
    struct race *r = arg;
    r->same = true;
    for (int k = 0; k < RACE_ROUNDS; k++) {
        uint8_t *z = NULL;
        size_t zlen = 0;
        r->same &= trace_deflate_buffer(r->raw, r->n, k % 2, &z, &zlen) == 0;
        if (k % 2 == 0)
            r->same &= zlen == r->want_len && memcmp(z, r->want, zlen) == 0;
        free(z);
    }
    return NULL;
}

START_TEST(deflater_should_give_the_same_bytes_on_threads_at_once)
{
    deflate_by(_i);
    uint8_t *raw = records_like(TRACE_DEFLATE_SMALL_BUFFER);
    struct race r[RACE_THREADS];
    uint8_t *want[RACE_THREADS];
    for (size_t t = 0; t < RACE_THREADS; t++) {
        size_t n = TRACE_DEFLATE_SMALL_BUFFER / (t + 1) - t, want_len;
        ck_assert_int_eq(trace_deflate_buffer(raw + t, n, false, &want[t], &want_len), 0);
        r[t] = (struct race){raw + t, n, want[t], want_len, false};
    }
    pthread_t tid[RACE_THREADS];
    for (size_t t = 0; t < RACE_THREADS; t++)
        ck_assert_int_eq(pthread_create(&tid[t], NULL, race_deflate, &r[t]), 0);
    for (size_t t = 0; t < RACE_THREADS; t++) {
        pthread_join(tid[t], NULL);
        ck_assert_msg(r[t].same, "thread %zu: other bytes", t);
        assert_inflates_to(want[t], r[t].want_len, r[t].raw, r[t].n);
        free(want[t]);
    }
    free(raw);
}
END_TEST

Suite *trace_deflater_suite(void)
{
    Suite *s = suite_create("trace_deflater");
    TCase *t = tcase_create("deflater");
    tcase_set_timeout(t, 120);
    tcase_add_large_loop_test(t, deflater_should_make_one_stream_whatever_the_pieces, 0, 2);
    tcase_add_large_loop_test(t, deflater_should_keep_zlib_for_a_stream_within_the_hold, 0, 2);
    tcase_add_loop_test(t, deflater_should_give_the_same_bytes_on_threads_at_once, 0, 2);
    suite_add_tcase(s, t);
    return s;
}
