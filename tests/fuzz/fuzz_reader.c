#include "config.h"
#include "fuzz.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "trace/event.h"
#include "trace/fields.h"
#include "trace/jstring.h"
#include "trace/pack.h"
#include "../trace/event_log.h"

/* The reader alone (scanner, field parser, string decoder), without the
 * model or gzip variants, so it runs thousands of inputs a second: the
 * input is one trace document read with the default and a tiny scan buffer
 * (which must agree) and under tight limits; then the same bytes as a single
 * traceEvents element through the fast field parser and, when that declines,
 * cJSON, and as a string body through the decoder. A document that reads
 * is also packed (trace/pack.h): the replay must give the same calls, and
 * the pack with one byte changed must replay or fail cleanly. */

static void check_pack(const uint8_t *data, size_t size, uint64_t h)
{
    struct trace_pack *p = trace_pack_new("fuzz.json");
    CHECK(p != NULL);
    struct event_log read_log, replay_log;
    struct trace_sink read_sink = event_log_sink(&read_log), tee;
    trace_pack_sink(p, &read_sink, &tee);
    struct err e = {0, ""};
    if (trace_read_buffer("fuzz", data, size, &tee, NULL, &e) == 0 && !read_log.failed) {
        const uint8_t *pack;
        size_t len;
        CHECK(trace_pack_finish(p, &pack, &len, &e) == 0);
        struct trace_sink replay_sink = event_log_sink(&replay_log);
        CHECK(trace_unpack("pack", pack, len, NULL, &replay_sink, NULL, &e) == 0);
        CHECK(replay_log.len == read_log.len &&
              (read_log.len == 0 || memcmp(replay_log.text, read_log.text, read_log.len) == 0));
        event_log_fini(&replay_log);
        uint8_t *damaged = malloc(len);
        CHECK(damaged != NULL);
        memcpy(damaged, pack, len);
        damaged[h % len] ^= (uint8_t)(1u << ((h >> 8) % 8));
        replay_sink = event_log_sink(&replay_log);
        (void)trace_unpack("pack", damaged, len, NULL, &replay_sink, NULL, &e);
        event_log_fini(&replay_log);
        free(damaged);
    }
    event_log_fini(&read_log);
    trace_pack_free(p);
}

static void check_element(const char *text, size_t len, uint64_t h)
{
    size_t cap = len + TRACE_FIELDS_SLACK;
    char *scratch = malloc(cap);
    CHECK(scratch != NULL);
    struct trace_event ev;
    const char *what = NULL;
    size_t used = 0;
    int nest = 1 + (int)(h % 70);
    enum trace_fields_result fr = trace_fields_parse(text, len, scratch, cap, nest, &ev, &what,
                                                     &used);
    CHECK(fr == TRACE_FIELDS_OK || fr == TRACE_FIELDS_MALFORMED ||
          fr == TRACE_FIELDS_UNSUPPORTED);
    if (fr == TRACE_FIELDS_MALFORMED)
        CHECK(what != NULL);
    if (fr != TRACE_FIELDS_UNSUPPORTED) {
        CHECK(used <= len);
        CHECK(ev.name.len == 0 || ev.name.s != NULL);
        CHECK(ev.cat.len == 0 || ev.cat.s != NULL);
    } else if (len <= ((size_t)64 << 10)) {
        void *tree = NULL;
        size_t at = 0;
        fr = trace_fields_parse_cjson(text, len, scratch, &ev, &what, &at, &tree);
        if (fr == TRACE_FIELDS_INVALID)
            CHECK(at <= len);
        trace_fields_free_tree(tree);
    }
    (void)trace_fields_is_json(text, len);
    free(scratch);
}

static void check_string(const char *text, size_t len)
{
    bool has_escape = false;
    const char *end = trace_jstring_end(text, text + len, &has_escape);
    CHECK(end == NULL || (end >= text && end < text + len && *end == '"'));
    size_t body = end ? (size_t)(end - text) : len;
    char *out = malloc(body + 1);
    CHECK(out != NULL);
    long n = trace_jstring_decode(text, body, out);
    long check_only = trace_jstring_decode(text, body, NULL);
    CHECK(n == check_only);
    CHECK(n < 0 || (size_t)n <= body);
    /* The decoder stores \u0000 as C0 80: its output never holds a NUL that
     * the input did not. */
    if (n > 0 && !memchr(text, 0, body))
        CHECK(memchr(out, 0, (size_t)n) == NULL);
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t h = fuzz_fnv(0xcbf29ce484222325ull, data, size);
    bool is_gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    /* 0: the scanner sizes its buffer from the document (as the model's
     * loader does for buffers); the tiny one forces every resumption path. */
    struct fuzz_digest plain = fuzz_read_doc(data, size, NULL, 0);
    struct fuzz_digest tiny = fuzz_read_doc(data, size, NULL, 1 + (size_t)(h % 97));
    if (is_gzip && (plain.rc || tiny.rc))
        CHECK(plain.rc && tiny.rc);
    else
        CHECK(fuzz_same_digest(&plain, &tiny));
    struct trace_limits lim = {
        .max_uncompressed = size / 2 + 1,
        .max_event_bytes = 16 + (size_t)(h % 512),
        .max_meta_bytes = 8 + (size_t)((h >> 11) % 256),
        .max_depth = 1 + (int)((h >> 23) % 8),
    };
    struct fuzz_digest d = fuzz_read_doc(data, size, &lim, 1 + (size_t)((h >> 29) % 300));
    if (!is_gzip && size > lim.max_uncompressed)
        CHECK(d.rc != 0);
    check_element((const char *)data, size, h);
    check_string((const char *)data, size);
    check_pack(data, size, h);
    return 0;
}
