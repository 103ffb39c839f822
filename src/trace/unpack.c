#include "config.h"
#include "trace/pack.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "trace/pack_format.h"
#include "trace/read.h"
#include "trace/unpack_records.h"
#include "trace/zbuf.h"
#include "util/le.h"
#include "util/pool.h"

const char *trace_pack_source(const void *pack, size_t len, size_t *path_len)
{
    const uint8_t *b = pack;
    if (len < HEADER_FIXED || le_load(b, 4) < 1 || le_load(b, 4) > TRACE_PACK_VERSION_MAX)
        return NULL;
    uint64_t n = le_load(b + 12, 4);
    if (n > TRACE_PACK_PATH_MAX || n > len - HEADER_FIXED)
        return NULL;
    *path_len = (size_t)n;
    return (const char *)b + HEADER_FIXED;
}


static int replay(const struct pack_run *pr, const struct trace_sink *sink, struct err *e)
{
    struct decode d;
    int rc = unpack_decode_init(&d, pr, 0, pr->raw_len);
    if (rc == 0)
        rc = unpack_decode_run(&d, pr, sink, false, NULL, NULL, e);
    else
        rc = err_set(e, ERR_NOMEM, "%s: out of memory", pr->name);
    if (rc == 0)
        rc = unpack_decode_check_end(&d, pr, e);
    unpack_decode_fini(&d);
    return rc;
}

/* ---- one pack replayed by two threads -------------------------------------
 * From version 4 a block's deltas start afresh, so a second thread can
 * replay the blocks from the middle on, knowing only the strings the blocks
 * before it added (read from their string columns alone), into a sink of
 * its own, while the caller's thread replays the first half. Then, as with
 * a plain file read in two halves (trace_read_file_split), split->adopt
 * takes the second half's elements over and the caller's thread goes on
 * from where the second thread stopped (the metadata, the end); refused,
 * failed or cancelled, the caller's thread replays the second half itself.
 * The result is always the one-thread replay's. */


/* Records smaller than this replay on one thread. */
#define SPLIT_MIN_RAW ((size_t)1 << 20)


struct tail_run {
    const struct pack_run *pr;
    const struct trace_sink *sink;
    struct decode d;
    pthread_t thread;
    atomic_bool stop;
    uint64_t first;   /* the index of its first element */
    int rc;
    struct err err;
};

static void *tail_main(void *arg)
{
    struct tail_run *t = arg;
    t->rc = unpack_decode_run(&t->d, t->pr, t->sink, true, &t->first, &t->stop, &t->err);
    return NULL;
}

static int replay_split(const struct pack_run *pr, const struct trace_sink *sink,
                        const struct trace_split_opts *split, struct err *e)
{
    size_t at = pr->version >= PACK_COLUMNS_VERSION && pr->raw_len >= SPLIT_MIN_RAW
                    ? unpack_middle_block(pr) : 0;
    struct tail_run *t = at ? calloc(1, sizeof *t) : NULL;
    struct decode head;
    bool started = false;
    if (t && unpack_decode_init(&head, pr, 0, at) == 0) {
        *t = (struct tail_run){.pr = pr, .sink = split->tail};
        atomic_init(&t->stop, false);
        started = unpack_decode_init(&t->d, pr, at, pr->raw_len) == 0 && unpack_learn_strings(&t->d, pr, at) &&
                  pool_thread_start(&t->thread, tail_main, t) == 0;
        if (!started) {
            unpack_decode_fini(&t->d);
            unpack_decode_fini(&head);
        }
    }
    if (!started) {
        free(t);
        return replay(pr, sink, e);
    }
    int rc = unpack_decode_run(&head, pr, sink, false, NULL, NULL, e);
    if (rc)
        atomic_store(&t->stop, true);
    pthread_join(t->thread, NULL);
    if (rc == 0 && head.ended)   // an end record in the first half
        rc = err_set(e, ERR_PARSE, "%s: packed events: bytes after the end", pr->name);
    struct decode *rest = &head;
    uint8_t *again = NULL;
    if (rc == 0) {
        int adopted = t->rc == 0 && t->d.records > 0 ? split->adopt(split->ctx, t->first, e) : 1;
        if (adopted < 0) {
            rc = adopted;
        } else if (adopted == 0) {   // on from where the second thread stopped
            t->d.had_meta = head.had_meta;
            t->d.records += head.records;
            rest = &t->d;
        } else if (!t->d.r.released) {
            head.r.blocks.end = pr->raw + pr->raw_len;
        } else {   // the second half again, whole (its strings' bytes stay where they were)
            rc = trace_inflate_exact(pr->name, "packed events", pr->z, pr->zlen, pr->raw_len,
                                     &again, e);
            head.r.raw = again;
            head.r.blocks = (struct cursor){again + at, again + pr->raw_len};
            if (again && head.r.page)   // (its first half is never read)
                unpack_release_pages(&head.r, again, again + at);
        }
    }
    if (rc == 0)
        rc = unpack_decode_run(rest, pr, sink, false, NULL, NULL, e);
    if (rc == 0)
        rc = unpack_decode_check_end(rest, pr, e);
    unpack_decode_fini(&head);
    unpack_decode_fini(&t->d);
    free(t);
    free(again);
    return rc;
}

/* trace_unpack, and trace_unpack_split when split is set. */
static int unpack(const char *name, const void *pack, size_t len,
                  const struct trace_pack_origin *origin, const struct trace_sink *sink,
                  const struct trace_split_opts *split, const struct trace_limits *limits,
                  struct err *e)
{
    struct trace_pack_origin none = {TRACE_SOURCE_NONE, len};
    if (!origin)
        origin = &none;
    const uint8_t *b = pack;
    size_t path_len;
    if (!trace_pack_source(pack, len, &path_len))
        return err_set(e, ERR_PARSE, "%s: packed events: bad header (another version?)", name);
    uint64_t raw_len = le_load(b + 4, 8);
    size_t zoff = HEADER_FIXED + path_len;
    if (limits && limits->max_uncompressed && raw_len > limits->max_uncompressed)
        return err_set(e, ERR_LIMIT, "%s: packed events of %llu bytes exceed the limit", name,
                       (unsigned long long)raw_len);
    // The records are inflated whole: they must fit beside what is loaded.
    if (limits && limits->max_memory && raw_len > limits->max_memory)
        return err_set(e, ERR_LIMIT, "%s: packed events of %llu MiB would pass the memory limit "
                       "of %llu MiB (HTX_MAX_MEMORY)", name,
                       (unsigned long long)(raw_len >> 20),
                       (unsigned long long)(limits->max_memory >> 20));
    uint8_t *raw;
    int rc = trace_inflate_exact(name, "packed events", b + zoff, len - zoff, raw_len, &raw, e);
    if (rc)
        return rc;
    long page = sysconf(_SC_PAGESIZE);
    struct pack_run pr = {name, (uint32_t)le_load(b, 4), raw, (size_t)raw_len, b + zoff, len - zoff,
                          page > 0 && (page & (page - 1)) == 0 ? (size_t)page : 0, origin,
                          {(const char *)b + HEADER_FIXED, path_len},
                          limits ? limits->max_memory : 0};
    rc = split ? replay_split(&pr, sink, split, e) : replay(&pr, sink, e);
    free(raw);
    return rc;
}

int trace_unpack(const char *name, const void *pack, size_t len,
                 const struct trace_pack_origin *origin, const struct trace_sink *sink,
                 const struct trace_limits *limits, struct err *e)
{
    return unpack(name, pack, len, origin, sink, NULL, limits, e);
}

int trace_unpack_split(const char *name, const void *pack, size_t len,
                       const struct trace_pack_origin *origin, const struct trace_sink *sink,
                       const struct trace_split_opts *split, const struct trace_limits *limits,
                       struct err *e)
{
    return unpack(name, pack, len, origin, sink, split, limits, e);
}
