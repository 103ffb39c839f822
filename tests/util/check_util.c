#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/arena.h"
#include "util/content_hash.h"
#include "util/err.h"
#include "util/hmap.h"
#include "util/memory.h"
#include "util/outfile.h"
#include "util/pool.h"
#include "util/ring.h"
#include "util/sort.h"
#include "util/utf8.h"
#include "util/strtab.h"
#include "util/vec.h"

START_TEST(strtab_should_give_equal_strings_one_id)
{
    struct strtab t;
    ck_assert_int_eq(strtab_init(&t), 0);
    ck_assert_uint_eq(strtab_intern(&t, "", 0), 0);
    uint32_t a = strtab_intern(&t, "aten::mm", 8);
    uint32_t b = strtab_intern(&t, "aten::mm", 8);
    uint32_t c = strtab_intern(&t, "aten::mm2", 9);
    ck_assert_uint_eq(a, b);
    ck_assert_uint_ne(a, c);
    ck_assert_str_eq(strtab_str(&t, c), "aten::mm2");
    ck_assert_uint_eq(strtab_find(&t, "aten::mm", 8), a);
    ck_assert_uint_eq(strtab_find(&t, "nope", 4), STRTAB_NONE);
    // A hint is only a guess: right, wrong or out of range, the id is the same.
    uint32_t hint = 12345;
    ck_assert_uint_eq(strtab_intern_hinted(&t, "aten::mm", 8, &hint), a);
    ck_assert_uint_eq(hint, a);
    ck_assert_uint_eq(strtab_intern_hinted(&t, "aten::mm", 8, &hint), a);
    ck_assert_uint_eq(strtab_intern_hinted(&t, "aten::m", 7, &hint), hint);
    ck_assert_uint_ne(hint, a);
    ck_assert_str_eq(strtab_str(&t, hint), "aten::m");
    ck_assert_uint_eq(strtab_intern_hinted(&t, "aten::mm2", 9, &hint), c);
    strtab_fini(&t);
}
END_TEST

START_TEST(strtab_should_keep_ids_stable_while_growing)
{
    struct strtab t;
    ck_assert_int_eq(strtab_init(&t), 0);
    char buf[32];
    for (int i = 0; i < 20000; i++) {
        int n = snprintf(buf, sizeof buf, "k%d", i);
        ck_assert_uint_eq(strtab_intern(&t, buf, (size_t)n), (uint32_t)i + 1);
    }
    for (int i = 0; i < 20000; i += 997) {
        int n = snprintf(buf, sizeof buf, "k%d", i);
        ck_assert_uint_eq(strtab_find(&t, buf, (size_t)n), (uint32_t)i + 1);
    }
    ck_assert_uint_eq(strtab_count(&t), 20001);
    strtab_fini(&t);
}
END_TEST

START_TEST(strtab_should_keep_embedded_nul_bytes)
{
    struct strtab t;
    ck_assert_int_eq(strtab_init(&t), 0);
    uint32_t a = strtab_intern(&t, "a\0b", 3);
    uint32_t b = strtab_intern(&t, "a\0c", 3);
    ck_assert_uint_ne(a, b);
    ck_assert_uint_eq(strtab_len(&t, a), 3);
    strtab_fini(&t);
}
END_TEST

START_TEST(arena_should_align_and_reject_overflow)
{
    struct arena a;
    arena_init(&a, 64);
    for (int i = 1; i < 100; i++) {
        void *p = arena_alloc(&a, (size_t)i);
        ck_assert_ptr_nonnull(p);
        ck_assert_uint_eq((uintptr_t)p % 16, 0);
        memset(p, 0xab, (size_t)i);
    }
    ck_assert_ptr_null(arena_calloc(&a, SIZE_MAX / 2, 4));
    ck_assert_ptr_null(arena_alloc(&a, SIZE_MAX));
    arena_reset(&a);
    ck_assert_ptr_nonnull(arena_alloc(&a, 1000));
    arena_fini(&a);
}
END_TEST

START_TEST(vec_should_grow_and_reject_overflow)
{
    int *items = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < 1000; i++) {
        ck_assert_int_eq(VEC_PUSH_SLOT(items, n, cap), 0);
        items[n++] = i;
    }
    ck_assert_int_eq(items[999], 999);
    ck_assert_int_eq(vec_reserve((void **)&items, &cap, sizeof *items, SIZE_MAX / 2), ERR_NOMEM);
    free(items);
}
END_TEST

START_TEST(err_should_format_and_prefix)
{
    struct err e;
    err_clear(&e);
    ck_assert_int_eq(err_set(&e, ERR_PARSE, "event %d: missing \"ts\"", 7), ERR_PARSE);
    err_prefix(&e, "%s", "a.json");
    ck_assert_str_eq(e.msg, "a.json: event 7: missing \"ts\"");
    ck_assert_int_eq(err_exit_status(ERR_USAGE), 2);
    ck_assert_int_eq(err_exit_status(ERR_PARSE), 1);
    ck_assert_int_eq(err_exit_status(ERR_OK), 0);
}
END_TEST

/* Sorted by key only, so the sort's stability is visible in `seq`. */
struct keyed_item {
    int key;
    int seq;
};

static inline bool keyed_less(const struct keyed_item *a, const struct keyed_item *b)
{
    return a->key < b->key;
}

SORT_DEFINE_STABLE(sort_keyed, struct keyed_item, keyed_less)

static int cmp_key_then_seq(const void *pa, const void *pb)
{
    const struct keyed_item *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Sorts v stably and checks it against qsort with seq as tie-breaker. */
static void check_sorts_like_qsort(struct keyed_item *v, size_t n)
{
    struct keyed_item *want = malloc((n ? n : 1) * sizeof *want);
    ck_assert_ptr_nonnull(want);
    for (size_t i = 0; i < n; i++)
        v[i].seq = (int)i;
    memcpy(want, v, n * sizeof *v);
    qsort(want, n, sizeof *want, cmp_key_then_seq);
    ck_assert_int_eq(sort_keyed(v, n), 0);
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_eq(v[i].key, want[i].key);
        ck_assert_int_eq(v[i].seq, want[i].seq);
    }
    free(want);
}

START_TEST(sort_should_keep_ties_in_input_order)
{
    static const size_t sizes[] = {0, 1, 2, 23, 24, 25, 100, 1000, 4099};
    size_t most = 4099;
    struct keyed_item *v = malloc(most * sizeof *v);
    ck_assert_ptr_nonnull(v);
    unsigned seed = 12345;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        for (size_t i = 0; i < n; i++) {   /* few distinct keys: many ties */
            seed = seed * 1103515245u + 12345u;
            v[i].key = (int)(seed >> 16) % 7;
        }
        check_sorts_like_qsort(v, n);
        for (size_t i = 0; i < n; i++)     /* already sorted, with ties */
            v[i].key = (int)(i / 3);
        check_sorts_like_qsort(v, n);
        for (size_t i = 0; i < n; i++)     /* descending */
            v[i].key = (int)(n - i);
        check_sorts_like_qsort(v, n);
    }
    free(v);
}
END_TEST

/* Elements that only name their key: the context holds the keys. */
static bool index_less(const int *keys, const uint32_t *a, const uint32_t *b)
{
    return keys[*a] < keys[*b];
}

SORT_DEFINE_STABLE_CTX(sort_indices, uint32_t, const int *, index_less)

START_TEST(sort_with_a_context_should_order_by_the_context_stably)
{
    enum { N = 3001 };
    int *keys = malloc(N * sizeof *keys);
    uint32_t *idx = malloc(N * sizeof *idx);
    ck_assert_ptr_nonnull(keys);
    ck_assert_ptr_nonnull(idx);
    for (uint32_t i = 0; i < N; i++) {
        keys[i] = (int)((i * 7919u) % 13);   /* many ties */
        idx[i] = i;
    }
    ck_assert_int_eq(sort_indices(idx, N, keys), 0);
    for (size_t i = 1; i < N; i++) {
        ck_assert_int_le(keys[idx[i - 1]], keys[idx[i]]);
        if (keys[idx[i - 1]] == keys[idx[i]])
            ck_assert_uint_lt(idx[i - 1], idx[i]);   /* ties in input order */
    }
    free(keys);
    free(idx);
}
END_TEST

START_TEST(utf8_should_decode_valid_and_reject_malformed_sequences)
{
    uint32_t cp;
    char out[4];
    ck_assert_uint_eq(utf8_decode("\xe2\x82\xac", 3, &cp), 3);
    ck_assert_uint_eq(cp, 0x20AC);
    ck_assert_uint_eq(utf8_decode("\xf0\x9f\x98\x80", SIZE_MAX, &cp), 4);
    ck_assert_uint_eq(cp, 0x1F600);
    ck_assert_uint_eq(utf8_decode("\xf4\x8f\xbf\xbf", 4, &cp), 4);   // U+10FFFF
    ck_assert_uint_eq(cp, 0x10FFFF);
    /* overlong, surrogate, past U+10FFFF, bad lead, stray continuation,
     * cut short by the end or by another byte, a NUL inside */
    static const char *bad[] = {"\xc0\x81", "\xc1\xbf", "\xe0\x80\x80", "\xf0\x80\x80\x80",
                                "\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80",
                                "\xf5\x80\x80\x80", "\xff", "\x80", "\xe2\x82", "\xe2\x82" "a",
                                "\xf0\x9f\x98"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(utf8_decode(bad[i], SIZE_MAX, &cp) == 0, "case %zu", i);
        ck_assert_uint_eq(utf8_decode_lossy(bad[i], SIZE_MAX, &cp), 1);
        ck_assert_uint_eq(cp, UTF8_REPLACEMENT);
    }
    ck_assert_uint_eq(utf8_decode("\xe2\x82\xac", 2, &cp), 0);   // len cuts it short
    /* every code point round-trips through encode and decode */
    for (uint32_t c = 0; c <= 0x10FFFF; c += (c < 0x1000 ? 1 : 97)) {
        if (c >= 0xD800 && c <= 0xDFFF)
            continue;
        size_t n = utf8_encode(c, out);
        ck_assert_uint_eq(utf8_decode(out, n, &cp), n);
        ck_assert_uint_eq(cp, c);
    }
    ck_assert_uint_eq(utf8_encode(0xD800, out), 3);   // lone surrogates are written as-is
    /* C0 80 is the reader's NUL (a trace's \u0000), read as U+0000. */
    ck_assert_uint_eq(utf8_decode("\xc0\x80", SIZE_MAX, &cp), 2);
    ck_assert_uint_eq(cp, 0);
}
END_TEST

/* ---- the one output writer ---- */

static char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static size_t temp_files(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c 'tmp......$'", dir);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = 0;
    ck_assert_int_eq(fscanf(p, "%zu", &n), 1);
    pclose(p);
    return n;
}

static int write_text(const char *dst, bool force, const char *const *inputs, size_t n,
                      const char *text, struct outfile *o, struct err *e)
{
    int rc = outfile_begin(o, dst, force, inputs, n, e);
    if (rc)
        return rc;
    FILE *f = outfile_stream(o, e);
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    return outfile_commit(o, e);
}

/* How many entries dir holds, but . and .. */
static int entries(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(fscanf(p, "%d", &n), 1);
    pclose(p);
    return n;
}

/* A process killed while it writes leaves no temporary file behind. */
START_TEST(outfile_should_remove_its_temporaries_on_a_signal)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        char dir[] = "/tmp/htx-check-outfile-XXXXXX";
        ck_assert_ptr_nonnull(mkdtemp(dir));
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            signal(sigs[k], SIG_DFL);
            outfile_remove_on_signals();
            struct outfile a, b, c;
            struct err e = {0, ""};
            char p[128];
            snprintf(p, sizeof p, "%s/a.htxs", dir);
            if (outfile_begin(&a, p, false, NULL, 0, &e) != 0)
                _exit(3);
            snprintf(p, sizeof p, "%s/b.htxs", dir);
            if (outfile_begin(&b, p, false, NULL, 0, &e) != 0 || write(b.fd, "x", 1) != 1)
                _exit(3);
            outfile_abort(&a);   // a slot given back and used again
            snprintf(p, sizeof p, "%s/c.htxs", dir);
            if (outfile_begin(&c, p, false, NULL, 0, &e) != 0)
                _exit(3);
            raise(sigs[k]);
            _exit(4);
        }
        int status;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == sigs[k],
                      "the child did not die of signal %d (status %d)", sigs[k], status);
        ck_assert_int_eq(entries(dir), 0);
        ck_assert_int_eq(rmdir(dir), 0);
    }
}
END_TEST

START_TEST(outfile_should_never_clobber)
{
    char dir[] = "/tmp/htx-check-outfile-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char dst[128], input[128], link_path[128];
    snprintf(dst, sizeof dst, "%s/out.txt", dir);
    snprintf(input, sizeof input, "%s/in.json", dir);
    snprintf(link_path, sizeof link_path, "%s/link", dir);
    struct outfile o;
    struct err e = {0, ""};

    ck_assert_int_eq(write_text(dst, false, NULL, 0, "one", &o, &e), 0);
    ck_assert_str_eq(slurp(dst), "one");
    ck_assert_int_eq(write_text(dst, false, NULL, 0, "two", &o, &e), ERR_USAGE);
    ck_assert(o.existed);
    ck_assert_ptr_nonnull(strstr(e.msg, "already exists"));
    ck_assert_str_eq(slurp(dst), "one");
    ck_assert_int_eq(write_text(dst, true, NULL, 0, "two", &o, &e), 0);
    ck_assert_str_eq(slurp(dst), "two");

    /* An input, even with force and under another name (a hard link). */
    ck_assert_int_eq(write_text(input, false, NULL, 0, "{}", &o, &e), 0);
    char alias[128];
    snprintf(alias, sizeof alias, "%s/alias", dir);
    ck_assert_int_eq(link(input, alias), 0);
    const char *inputs[] = {NULL, input};
    ck_assert_int_eq(write_text(alias, true, inputs, 2, "x", &o, &e), ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "is an input"));
    ck_assert_str_eq(slurp(input), "{}");

    /* A symbolic link is refused, dangling or not, force or not. */
    ck_assert_int_eq(symlink(dst, link_path), 0);
    ck_assert_int_eq(write_text(link_path, true, NULL, 0, "x", &o, &e), ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(e.msg, "symbolic link"));
    ck_assert_str_eq(slurp(dst), "two");

    /* Aborted: nothing left behind; the temporary file sits beside dst. */
    char fresh[128];
    snprintf(fresh, sizeof fresh, "%s/fresh", dir);
    ck_assert_int_eq(outfile_begin(&o, fresh, false, NULL, 0, &e), 0);
    ck_assert_uint_eq(temp_files(dir), 1);
    outfile_abort(&o);
    ck_assert_uint_eq(temp_files(dir), 0);
    ck_assert_int_ne(access(fresh, F_OK), 0);
    /* A file that appeared meanwhile is kept (without force). */
    ck_assert_int_eq(outfile_begin(&o, fresh, false, NULL, 0, &e), 0);
    FILE *f = fopen(fresh, "w");
    fputs("theirs", f);
    fclose(f);
    ck_assert_int_eq(outfile_commit(&o, &e), ERR_USAGE);
    ck_assert_str_eq(slurp(fresh), "theirs");
    ck_assert_uint_eq(temp_files(dir), 0);

    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The thread pool runs each task once, on any number of threads, and a
 * task returning non-zero stops the handing out of the rest. */
struct pool_count {
    int runs[100];
    size_t stop_at;
};

static int count_task(void *ctx, size_t i)
{
    struct pool_count *c = ctx;
    __atomic_add_fetch(&c->runs[i], 1, __ATOMIC_RELAXED);
    return i == c->stop_at;
}

START_TEST(pool_should_run_every_task_once_and_stop_when_asked)
{
    for (int threads = -1; threads <= 5; threads++) {
        struct pool_count c = {.stop_at = SIZE_MAX};
        ck_assert(!pool_run(100, threads, count_task, &c));
        for (size_t i = 0; i < 100; i++)
            ck_assert_int_eq(c.runs[i], 1);
    }
    struct pool_count c = {.stop_at = 3};
    ck_assert(pool_run(100, 1, count_task, &c));   // one thread: exactly 0..3 ran
    ck_assert_int_eq(c.runs[3], 1);
    ck_assert_int_eq(c.runs[4], 0);
    ck_assert(!pool_run(0, 4, count_task, &c));
    ck_assert_int_ge(pool_cores(), 1);
}
END_TEST

/* The ring hands every byte over in order, with its tag, through far more
 * blocks than it has; the end and its error reach the consumer after the
 * last block; a consumer that closes frees a producer waiting on a full
 * ring. */
struct ring_producer {
    struct ring *r;
    size_t nblocks;
    int end_rc;
    size_t produced;   /* blocks published before ring_empty gave NULL */
};

static void *produce(void *arg)
{
    struct ring_producer *p = arg;
    for (size_t i = 0; i < p->nblocks; i++) {
        uint8_t *b = ring_empty(p->r);
        if (!b)
            return NULL;
        size_t len = 1 + i % p->r->block_size;
        for (size_t k = 0; k < len; k++)
            b[k] = (uint8_t)(i + k);
        ring_publish(p->r, len, i * 7);
        p->produced++;
    }
    struct err e = {0, ""};
    if (p->end_rc)
        err_set(&e, p->end_rc, "the producer failed");
    ring_end(p->r, p->end_rc, &e);
    return NULL;
}

START_TEST(ring_should_hand_over_blocks_in_order)
{
    for (int end_rc = 0; end_rc <= ERR_IO; end_rc += ERR_IO) {
        struct ring r;
        ck_assert_int_eq(ring_init(&r, 3, 64), 0);
        struct ring_producer p = {&r, 500, end_rc, 0};
        pthread_t t;
        ck_assert_int_eq(pthread_create(&t, NULL, produce, &p), 0);
        size_t i = 0, len;
        uint64_t tag;
        int rc;
        struct err e = {0, ""};
        const uint8_t *b;
        while ((b = ring_full(&r, &len, &tag, &rc, &e)) != NULL) {
            ck_assert_uint_eq(len, 1 + i % 64);
            ck_assert_uint_eq(tag, i * 7);
            for (size_t k = 0; k < len; k++)
                ck_assert_uint_eq(b[k], (uint8_t)(i + k));
            ring_release(&r);
            i++;
        }
        ck_assert_uint_eq(i, 500);
        ck_assert_int_eq(rc, end_rc);
        if (end_rc)
            ck_assert_str_eq(e.msg, "the producer failed");
        ck_assert(!ring_full(&r, &len, &tag, &rc, &e));   // the end stays the end
        pthread_join(t, NULL);
        ring_fini(&r);
    }
    struct ring r;
    ck_assert_int_eq(ring_init(&r, 2, 16), 0);
    struct ring_producer p = {&r, 1000, 0, 0};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, produce, &p), 0);
    size_t len;
    int rc;
    ck_assert_ptr_nonnull(ring_full(&r, &len, NULL, &rc, NULL));
    ring_close(&r);   // the consumer leaves with the producer blocked on a full ring
    pthread_join(t, NULL);
    ck_assert_uint_lt(p.produced, 1000);
    ring_fini(&r);
    ck_assert_int_ne(ring_init(&r, 0, 16), 0);
    ck_assert_int_ne(ring_init(&r, RING_MAX_BLOCKS + 1, 16), 0);
}
END_TEST

/* A block is made resident when the producer first takes it, not before:
 * a short stream through a ring of four touches only the blocks it fills. */
START_TEST(ring_should_make_only_the_blocks_used_resident)
{
    enum { NBLOCKS = 4, BLOCK = 4096 };
    struct ring r;
    ck_assert_int_eq(ring_init(&r, NBLOCKS, BLOCK), 0);
    ck_assert_uint_eq(r.resident, 0);
    size_t len;
    int rc;
    for (size_t k = 1; k <= NBLOCKS + 2; k++) {   // one block at a time: slots 0, 1, 2, 3, 0, 1
        uint8_t *b = ring_empty(&r);
        memset(b, (int)k, BLOCK);
        ring_publish(&r, BLOCK, k);
        ck_assert_uint_eq(r.resident, k < NBLOCKS ? k : NBLOCKS);
        ck_assert_ptr_nonnull(ring_full(&r, &len, NULL, &rc, NULL));
        ring_release(&r);
    }
    ring_fini(&r);
}
END_TEST

/* The hash map keeps every key through growth (any int64, negative and
 * extreme ones included), overwrites on put, and numbers keys densely. */
START_TEST(hmap_should_keep_and_number_keys)
{
    struct hmap h;
    ck_assert_int_eq(hmap_init(&h, 4), 0);
    ck_assert_ptr_null(hmap_get(&h, 7));
    for (int64_t k = -5000; k < 5000; k++)
        ck_assert_int_eq(hmap_put(&h, k * 7919, (uint32_t)(k + 5000)), 0);
    ck_assert_int_eq(hmap_put(&h, INT64_MIN, 1), 0);
    ck_assert_int_eq(hmap_put(&h, INT64_MAX, 2), 0);
    for (int64_t k = -5000; k < 5000; k++) {
        uint32_t *v = hmap_get(&h, k * 7919);
        ck_assert_ptr_nonnull(v);
        ck_assert_uint_eq(*v, (uint32_t)(k + 5000));
    }
    ck_assert_uint_eq(*hmap_get(&h, INT64_MIN), 1);
    ck_assert_int_eq(hmap_put(&h, INT64_MIN, 9), 0);   // overwritten, not added
    ck_assert_uint_eq(*hmap_get(&h, INT64_MIN), 9);
    ck_assert_uint_eq(h.count, 10002);
    ck_assert_ptr_null(hmap_get(&h, 1));
    hmap_fini(&h);

    ck_assert_int_eq(hmap_init(&h, 0), 0);
    uint32_t v, n = 0;
    bool added;
    static const int64_t keys[] = {40, -3, 40, 12, -3, 40};
    static const uint32_t want[] = {0, 1, 0, 2, 1, 0};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        ck_assert_int_eq(hmap_number(&h, keys[i], n, &v, &added), 0);
        ck_assert_uint_eq(v, want[i]);
        ck_assert(added == (v == n));
        n += added;
    }
    ck_assert_uint_eq(n, 3);
    hmap_fini(&h);
}
END_TEST

START_TEST(memory_figures_should_be_plausible)
{
    uint64_t phys = util_physical_memory(), rss = util_resident_bytes();
    ck_assert_uint_gt(phys, (uint64_t)64 << 20);
    ck_assert_uint_gt(rss, 0);
    ck_assert_uint_lt(rss, phys);
    ck_assert_uint_eq(util_default_memory_limit(), phys / 4 * 3);
}
END_TEST

/* util_populate makes pages resident and never changes what they hold. */
START_TEST(populate_should_make_pages_resident_and_keep_their_bytes)
{
    ck_assert_ptr_null(util_alloc_resident(SIZE_MAX / 2 + 1, 2));
    size_t len = (size_t)32 << 20;
    uint64_t before = util_resident_bytes();
    unsigned char *p = util_alloc_resident(len, 1);
    ck_assert_ptr_nonnull(p);
    uint64_t after = util_resident_bytes();
    long page = sysconf(_SC_PAGESIZE);
    void *probe = aligned_alloc((size_t)page, (size_t)page);
    ck_assert_ptr_nonnull(probe);
    /* kernels before 5.14 have no MADV_POPULATE_WRITE: then only the bytes */
    bool supported = madvise(probe, (size_t)page, MADV_POPULATE_WRITE) == 0;
    free(probe);
    if (supported)
        ck_assert_uint_ge(after, before + len / 2);
    for (size_t i = 0; i < len; i += 4093)
        p[i] = (unsigned char)(i * 31);
    util_populate(p + 1, len - 2);   /* not page-aligned at either end */
    for (size_t i = 0; i < len; i += 4093)
        ck_assert_uint_eq(p[i], (unsigned char)(i * 31));
    free(p);
}
END_TEST

START_TEST(content_hash_should_match_xxh3_and_read_a_file_whole)
{
    // XXH3-64, seed 0: the xxHash project's vectors
    ck_assert_uint_eq(util_content_hash("", 0), 0x2D06800538D394C2ull);
    ck_assert_uint_eq(util_content_hash("a", 1), 0xE6C632B61E964E1Full);
    ck_assert_uint_eq(util_content_hash("abc", 3), 0x78AF5F94892F3950ull);
    // a file of three pieces and a bit: read in pieces, the hash of its bytes
    size_t n = (3u << 20) + 7;
    uint8_t *buf = malloc(n);
    ck_assert_ptr_nonnull(buf);
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        buf[i] = (uint8_t)x;
    }
    char path[] = "/tmp/htx-check-hash.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
    uint64_t h = 0;
    ck_assert_int_eq(util_content_hash_fd(fd, &h, NULL), 0);
    ck_assert_uint_eq(h, util_content_hash(buf, n));
    // one byte in the middle changed: another hash
    ck_assert_int_eq(pwrite(fd, "\x55", 1, (off_t)(n / 2)), 1);
    uint64_t h2 = 0;
    ck_assert_int_eq(util_content_hash_fd(fd, &h2, NULL), 0);
    buf[n / 2] = 0x55;
    ck_assert_uint_eq(h2, util_content_hash(buf, n));
    ck_assert_uint_ne(h2, h);
    atomic_bool stop = true;
    ck_assert_int_eq(util_content_hash_fd(fd, &h2, &stop), ERR_CANCEL);
    close(fd);
    free(buf);
}
END_TEST

int main(void)
{
    
Suite *s = suite_create("util");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, strtab_should_give_equal_strings_one_id);
    tcase_add_test(tc, strtab_should_keep_ids_stable_while_growing);
    tcase_add_test(tc, strtab_should_keep_embedded_nul_bytes);
    tcase_add_test(tc, arena_should_align_and_reject_overflow);
    tcase_add_test(tc, sort_with_a_context_should_order_by_the_context_stably);
    tcase_add_test(tc, populate_should_make_pages_resident_and_keep_their_bytes);
    tcase_add_test(tc, vec_should_grow_and_reject_overflow);
    tcase_add_test(tc, err_should_format_and_prefix);
    tcase_add_test(tc, sort_should_keep_ties_in_input_order);
    tcase_add_test(tc, utf8_should_decode_valid_and_reject_malformed_sequences);
    tcase_add_test(tc, outfile_should_never_clobber);
    tcase_add_test(tc, outfile_should_remove_its_temporaries_on_a_signal);
    tcase_add_test(tc, memory_figures_should_be_plausible);
    tcase_add_test(tc, pool_should_run_every_task_once_and_stop_when_asked);
    tcase_add_test(tc, ring_should_hand_over_blocks_in_order);
    tcase_add_test(tc, ring_should_make_only_the_blocks_used_resident);
    tcase_add_test(tc, hmap_should_keep_and_number_keys);
    tcase_add_test(tc, content_hash_should_match_xxh3_and_read_a_file_whole);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
