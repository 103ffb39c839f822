#include "config.h"
#include "trace/read.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/event.h"
#include "trace/fields.h"
#include "trace/meta.h"
#include "trace/pack.h"
#include "trace/scan.h"
#include "util/summary_file.h"
#include "util/summary_file_source.h"
#include "util/le.h"
#include "util/memory.h"
#include "util/pool.h"
#include "util/str.h"

/* Ties the scanner, the two field readers and the metadata together and
 * feeds the sink. One reader per file; nothing is shared between readers. */

/* Scratch the fast path starts with; an element that needs more is taken
 * by the slow path, which makes room for it. */
#define READER_SCRATCH ((size_t)64 << 10)

struct split_run;

struct reader {
    const struct trace_sink *sink;
    struct trace_meta_state meta;
    char *scratch;           /* decoded strings of the current element */
    size_t scratch_cap;
    int max_nest;            /* containers an element may open, itself included */
    size_t max_event_bytes;
    uint64_t max_memory;
    uint64_t since_memory_check;
    struct trace_event ev;
    struct split_run *split;  /* a second thread reading the file's second half, or NULL */
};

/* The memory guard: the model grows with every element kept, so the
 * process's resident set is sampled every few thousand elements (a /proc
 * read costs microseconds) and the load stops before it takes the machine. */
int trace_memory_guard(uint64_t max_memory, struct err *e)
{
    uint64_t rss = max_memory ? util_resident_bytes() : 0;
    if (rss <= max_memory)
        return 0;
    return err_set(e, ERR_LIMIT, "stopped: htx uses %llu MiB of memory, over the limit of %llu MiB "
                   "(HTX_MAX_MEMORY; the default is 3/4 of physical memory, 0 = no limit)",
                   (unsigned long long)((rss + (1u << 20) - 1) >> 20),
                   (unsigned long long)(max_memory >> 20));
}

static int check_memory(struct reader *r, struct err *e)
{
    if (!r->max_memory || ++r->since_memory_check < READER_MEMORY_CHECK_EVERY)
        return 0;
    r->since_memory_check = 0;
    return trace_memory_guard(r->max_memory, e);
}

static int ensure_scratch(struct reader *r, size_t len, struct err *e)
{
    if (len > SIZE_MAX - TRACE_FIELDS_SLACK)
        return err_set(e, ERR_NOMEM, "element too large");
    size_t need = len + TRACE_FIELDS_SLACK;
    if (need <= r->scratch_cap)
        return 0;
    size_t cap = r->scratch_cap ? r->scratch_cap : 4096;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *p = realloc(r->scratch, cap);
    if (!p)
        return err_set(e, ERR_NOMEM, "out of memory for a %zu-byte element", len);
    r->scratch = p;
    r->scratch_cap = cap;
    return 0;
}

static int deliver(struct reader *r, struct err *e)
{
    if (!r->sink->event)
        return 0;
    int rc = r->sink->event(r->sink->ctx, &r->ev, e);
    if (rc == 0)
        return 0;
    if (e && e->code == 0)
        err_set(e, ERR_CANCEL, "stopped by the consumer");
    return rc < 0 ? rc : ERR_CANCEL;
}

/* Hands a parsed element to the sink, or a malformed one to the warnings. */
static int take(struct reader *r, enum trace_fields_result fr, uint64_t index, uint64_t offset,
                const char *what, struct err *e)
{
    if (fr == TRACE_FIELDS_MALFORMED) {
        if (r->sink->warning) {
            struct trace_warning w = {.index = index, .offset = offset, .what = what};
            r->sink->warning(r->sink->ctx, &w);
        }
        return 0;
    }
    r->ev.index = index;
    int rc = check_memory(r, e);
    return rc ? rc : deliver(r, e);
}

/* The fast path straight on the scanner's buffer; most elements end here. */
static int on_element_prefix(void *ctx, uint64_t index, uint64_t offset, const char *text,
                             size_t avail, size_t *used, struct err *e)
{
    struct reader *r = ctx;
    const char *what = NULL;
    enum trace_fields_result fr = trace_fields_parse(text, avail, r->scratch, r->scratch_cap,
                                                     r->max_nest, &r->ev, &what, used);
    if (fr == TRACE_FIELDS_UNSUPPORTED || *used > r->max_event_bytes) {
        *used = 0;
        return 0;
    }
    return take(r, fr, index, offset, what, e);
}

/* A whole element the fast path did not take: again with room enough for
 * it, then cJSON. */
static int on_element(void *ctx, uint64_t index, uint64_t offset, const char *text, size_t len,
                      struct err *e)
{
    struct reader *r = ctx;
    int rc = ensure_scratch(r, len, e);
    if (rc)
        return rc;
    const char *what = NULL;
    void *tree = NULL;
    size_t used = 0;
    enum trace_fields_result fr = trace_fields_parse(text, len, r->scratch, r->scratch_cap,
                                                     r->max_nest, &r->ev, &what, &used);
    if (fr != TRACE_FIELDS_UNSUPPORTED && used != len)
        fr = TRACE_FIELDS_UNSUPPORTED;
    if (fr == TRACE_FIELDS_UNSUPPORTED && len > TRACE_CJSON_MAX_BYTES)
        return err_set(e, ERR_LIMIT, "byte %llu: traceEvents element %llu (%zu bytes) is not "
                       "strict JSON or nests deeper than %d, and is too large for cJSON",
                       (unsigned long long)offset, (unsigned long long)index, len,
                       TRACE_FIELDS_FAST_DEPTH);
    if (fr == TRACE_FIELDS_UNSUPPORTED) {
        size_t at = 0;
        fr = trace_fields_parse_cjson(text, len, r->scratch, &r->ev, &what, &at, &tree);
        if (fr == TRACE_FIELDS_INVALID)
            return err_set(e, ERR_PARSE, "byte %llu: invalid JSON in traceEvents element %llu",
                           (unsigned long long)(offset + at), (unsigned long long)index);
    }
    rc = take(r, fr, index, offset, what, e);
    trace_fields_free_tree(tree);
    return rc;
}

static int on_member(void *ctx, const char *key, size_t key_len, uint64_t offset,
                     const char *text, size_t len, struct err *e)
{
    struct reader *r = ctx;
    return trace_meta_add(&r->meta, key, key_len, offset, text, len, e);
}

static int on_split_point(void *ctx, uint64_t index, uint64_t offset, struct trace_jump *jump,
                          struct err *e);
static void split_stop(struct split_run *sp);

static void reader_init(struct reader *r, const struct trace_sink *sink,
                        const struct trace_limits *lim)
{
    *r = (struct reader){.sink = sink, .max_nest = lim->max_depth - 2,
                         .max_event_bytes = lim->max_event_bytes, .max_memory = lim->max_memory};
    trace_meta_init(&r->meta);
}

static int read_source(struct trace_source *src, const char *name, const struct trace_sink *sink,
                       const struct trace_limits *limits, size_t buf_size, struct split_run *split,
                       struct err *e)
{
    struct trace_limits lim = trace_limits_resolve(limits);
    struct reader r;
    reader_init(&r, sink, &lim);
    r.split = split;
    struct trace_scan_handler h = {.ctx = &r, .element = on_element,
                                   .element_prefix = on_element_prefix, .member = on_member,
                                   .at_element = split ? on_split_point : NULL};
    /* Scratch for decoded strings: no element is longer than a small
     * in-memory document, so that needs less than the usual 64 KiB. */
    uint64_t hint = trace_source_size_hint(src);
    int rc = ensure_scratch(&r, hint && hint < READER_SCRATCH ? (size_t)hint : READER_SCRATCH, e);
    if (rc == 0)
        rc = trace_scan_document(src, &lim, buf_size, &h, e);
    if (split)
        split_stop(split);   /* the point was never reached, or the read failed */
    free(r.scratch);
    if (rc == 0 && sink->meta) {
        rc = sink->meta(sink->ctx, &r.meta.meta, e);
        if (rc && e && e->code == 0)
            err_set(e, ERR_CANCEL, "stopped by the consumer");
        if (rc > 0)
            rc = ERR_CANCEL;
    }
    if (rc)
        err_prefix(e, "%s", name);
    return rc;
}

int trace_read_source(struct trace_source *src, const char *name, const struct trace_sink *sink,
                      const struct trace_limits *limits, size_t buf_size, struct err *e)
{
    return read_source(src, name, sink, limits, buf_size, NULL, e);
}

static struct trace_source_opts source_opts(const struct trace_sink *sink,
                                            const struct trace_limits *limits)
{
    struct trace_source_opts o = {0};
    o.max_uncompressed = limits ? limits->max_uncompressed : 0;
    o.read_ahead = limits && limits->read_ahead;
    o.progress = sink->progress;
    o.progress_ctx = sink->ctx;
    return o;
}

/* Replaces a parse error's message when the real cause is elsewhere: the
 * file changed under the reader (the offset may lie past its new end), or a
 * file named .gz is not gzip (zlib or raw deflate data would otherwise be
 * reported as "not a JSON object"). */
static int explain_failure(struct trace_source *src, const char *path, int rc, struct err *e)
{
    if (trace_source_changed(src))
        return err_set(e, ERR_IO, "%s: the file changed while it was read", path);
    int first = trace_source_first_byte(src);
    bool json_start = first < 0 || strchr(" \t\r\n{[\xEF", first) != NULL;
    if (rc == ERR_PARSE && str_ends_with(path, ".gz") && !trace_source_is_gzip(src) && !json_start)
        return err_set(e, ERR_PARSE, "%s: not gzip data: the name ends in .gz, but the file "
                       "does not start with gzip's magic bytes (1f 8b)", path);
    return rc;
}

/* A rank summary (util/summary_file.h) is read as the trace it was made from:
 * its packed events replayed. */
static bool is_summary(const void *buf, size_t len)
{
    return len >= SUMMARY_FILE_MAGIC_LEN && memcmp(buf, SUMMARY_FILE_MAGIC, SUMMARY_FILE_MAGIC_LEN) == 0;
}

/* The state of the trace a summary records in *src (deep: its hashes too);
 * TRACE_SOURCE_NONE when it records none. */
static enum trace_source_state source_state(const struct summary_file_doc *doc, const char *name,
                                            bool deep, struct summary_file_source *src)
{
    if (summary_file_source_read(src, doc, name, NULL) != 0)
        return TRACE_SOURCE_NONE;
    switch (summary_file_source_check(src, deep)) {
    case SUMMARY_FILE_FRESH: return TRACE_SOURCE_FRESH;
    case SUMMARY_FILE_STALE: return TRACE_SOURCE_STALE;
    default: return TRACE_SOURCE_UNREACHABLE;
    }
}

static bool file_is_summary(const char *path);

/* The sink of a summary's trace read in place of the summary's events: the
 * meta names the trace as a pack's does, and the progress counts in bytes of
 * the summary, as a pack's replay does. */
struct as_summarized {
    struct trace_sink next;
    const char *trace;
    uint64_t summary_len, trace_len;
};

static int summarized_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    struct as_summarized *a = ctx;
    return a->next.event(a->next.ctx, ev, e);
}

static void summarized_warning(void *ctx, const struct trace_warning *w)
{
    struct as_summarized *a = ctx;
    if (a->next.warning)
        a->next.warning(a->next.ctx, w);
}

static int summarized_meta(void *ctx, const struct trace_meta *m, struct err *e)
{
    struct as_summarized *a = ctx;
    struct trace_meta named = *m;
    named.source_path = (struct trace_str){a->trace, strlen(a->trace)};
    named.source_state = TRACE_SOURCE_FRESH;
    return a->next.meta ? a->next.meta(a->next.ctx, &named, e) : 0;
}

static int summarized_progress(void *ctx, uint64_t bytes)
{
    struct as_summarized *a = ctx;
    if (!a->next.progress)
        return 0;
    double share = a->trace_len ? (double)bytes / (double)a->trace_len : 1.0;
    return a->next.progress(a->next.ctx, (uint64_t)((share < 1.0 ? share : 1.0) *
                                                    (double)a->summary_len));
}

/* A summary made without its events (htx summarize without --with-events)
 * is read as its trace when that is still the file it was made from (the
 * deep check: its content stands in for the events); else the error says
 * why it cannot be, naming both. */
static int read_summarized_trace(const char *name, const struct summary_file_doc *doc,
                                 size_t file_len, const struct trace_sink *sink,
                                 const struct trace_split_opts *split,
                                 const struct trace_limits *limits, struct err *e)
{
    struct summary_file_source src;
    switch (source_state(doc, name, true, &src)) {
    case TRACE_SOURCE_NONE:
        return err_set(e, ERR_PARSE, "%s: a rank summary without its events or its trace's name",
                       name);
    case TRACE_SOURCE_FRESH:
        break;
    case TRACE_SOURCE_STALE:
        return err_set(e, ERR_PARSE, "%s: made without its events (htx summarize --with-events "
                       "keeps them), and its trace %s changed since", name, src.path);
    case TRACE_SOURCE_UNREACHABLE: {
        char tried[1024];
        summary_file_source_tried(&src, name, tried, sizeof tried);
        return err_set(e, ERR_PARSE, "%s: its trace is not found (tried %s); htx summarize "
                       "--with-events keeps the events in the summary", name, tried);
    }
    }
    if (file_is_summary(src.path))   // a summary is never made of one: no loop of them
        return err_set(e, ERR_PARSE, "%s: its trace %s is a rank summary", name, src.path);
    struct as_summarized a = {*sink, src.path, file_len, (uint64_t)src.size};
    struct trace_sink through = {.ctx = &a, .event = summarized_event,
                                 .warning = summarized_warning, .meta = summarized_meta,
                                 .progress = summarized_progress};
    int rc = split ? trace_read_file_split(src.path, &through, split, limits, e)
                   : trace_read_file(src.path, &through, limits, e);
    if (rc && rc != ERR_CANCEL)   // (the trace's own message names the trace)
        err_prefix(e, "%s", name);
    return rc;
}

/* A summary's packed events, replayed on two threads when split is set. */
static int read_summary(const char *name, const struct summary_file_doc *doc, size_t file_len,
                        const struct trace_sink *sink, const struct trace_split_opts *split,
                        const struct trace_limits *limits, struct err *e)
{
    const struct summary_file_section *s = summary_file_find(doc, SUMMARY_FILE_EVENTS);
    if (!s)
        return read_summarized_trace(name, doc, file_len, sink, split, limits, e);
    struct summary_file_source src;
    enum trace_source_state state = source_state(doc, name, false, &src);
    // (a summary that names no trace reads as one whose trace is away)
    struct trace_pack_origin origin = {state == TRACE_SOURCE_NONE ? TRACE_SOURCE_UNREACHABLE : state,
                                       file_len};
    return split ? trace_unpack_split(name, s->data, (size_t)s->len, &origin, sink, split,
                                      limits, e)
                 : trace_unpack(name, s->data, (size_t)s->len, &origin, sink, limits, e);
}

static int read_summary_file(const char *path, const struct trace_sink *sink,
                             const struct trace_split_opts *split,
                             const struct trace_limits *limits, struct err *e)
{
    struct summary_file_doc doc;
    int rc = summary_file_load_file(&doc, path, e);
    if (rc == 0)
        rc = read_summary(path, &doc, doc.len, sink, split, limits, e);
    summary_file_doc_fini(&doc);
    return rc;
}

/* Peeks at a regular file only: a FIFO would block here, and the trace
 * source names what else it is. Plain open/read: this runs for every
 * file of a directory. */
static bool file_is_summary(const char *path)
{
    char head[SUMMARY_FILE_MAGIC_LEN];
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    ssize_t n = regular ? read(fd, head, sizeof head) : -1;
    close(fd);
    return n == (ssize_t)sizeof head && is_summary(head, sizeof head);
}

int trace_read_file(const char *path, const struct trace_sink *sink,
                    const struct trace_limits *limits, struct err *e)
{
    if (file_is_summary(path))
        return read_summary_file(path, sink, NULL, limits, e);
    struct trace_source_opts o = source_opts(sink, limits);
    struct trace_source *src = trace_source_open_file(path, &o, e);
    if (!src) {
        err_prefix(e, "%s", path);
        return e ? e->code : ERR_IO;
    }
    int rc = trace_read_source(src, path, sink, limits, 0, e);
    if (rc && rc != ERR_CANCEL && rc != ERR_NOMEM)
        rc = explain_failure(src, path, rc, e);
    trace_source_close(src);
    return rc;
}

int trace_read_buffer(const char *name, const void *buf, size_t len,
                      const struct trace_sink *sink, const struct trace_limits *limits,
                      struct err *e)
{
    if (is_summary(buf, len)) {
        struct summary_file_doc doc;
        int rc = summary_file_parse(&doc, buf, len, name, e);
        if (rc == 0)
            rc = read_summary(name, &doc, len, sink, NULL, limits, e);
        summary_file_doc_fini(&doc);
        return rc;
    }
    struct trace_source_opts o = source_opts(sink, limits);
    struct trace_source *src = trace_source_open_buffer(buf, len, &o, e);
    if (!src) {
        err_prefix(e, "%s", name);
        return e ? e->code : ERR_NOMEM;
    }
    int rc = trace_read_source(src, name, sink, limits, 0, e);
    trace_source_close(src);
    return rc;
}

/* ---- one file read by two threads ----------------------------------------
 * A second thread reads the elements from a guessed element start in the
 * middle of the file to the end of traceEvents, into a sink of its own,
 * while the caller's thread reads the document from the start. The guess is
 * right when the first thread meets an element that starts exactly there:
 * it then hands the second half over (split->adopt) and jumps to the end of
 * the array. Any other outcome (the guess inside a string or a nested
 * object, a second half that fails or warns, adopt refusing) leaves the
 * first thread reading on as if alone: the result is always the sequential
 * one.
 * A gzip file has no middle to seek to: the second thread inflates it from
 * the start, without parsing (a fifth of the time parsing takes), to a
 * little past the middle of the document, makes its guess there and
 * publishes it. At the end of the array it reads on to the end of the
 * document, which the first thread, having met that element, takes from
 * it instead of inflating the second half again. */

/* Files smaller than this are read by one thread: the second would save
 * less than it costs to start. */
#define SPLIT_MIN_BYTES ((uint64_t)32 << 20)
/* The same for gzip files, compressed: traces deflate about tenfold. */
#define SPLIT_MIN_GZIP_BYTES ((uint64_t)3 << 20)
/* Bytes searched for an element start after the middle of the file. */
#define SPLIT_WINDOW ((size_t)1 << 20)

struct split_run {
    const char *path;
    const struct trace_source *first;   /* the first thread's: opened before this starts */
    const struct trace_split_opts *o;
    struct trace_limits lim;
    _Atomic uint64_t at;      /* the guessed element start; 0 until a gzip one is made */
    bool gzip;
    uint64_t size;            /* the file's */
    uint32_t isize;           /* gzip: the last member's length mod 2^32, from its trailer */
    struct trace_scan_rest rest;   /* gzip: the document after the array */
    pthread_t thread;
    bool running;             /* joined by split_stop or at the point */
    atomic_bool stop;
    int rc;                   /* the second thread's */
    struct err err;
    uint64_t end, count;      /* where its elements end, how many */
};

static bool json_ws(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The first "}, {\"" in buf (whitespace allowed around the comma and after
 * the brace): the offset of its '{', or SIZE_MAX. */
static size_t element_start_in(const unsigned char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (buf[i] != '}')
            continue;
        size_t k = i + 1;
        while (k < len && json_ws(buf[k]))
            k++;
        if (k >= len || buf[k] != ',')
            continue;
        k++;
        while (k < len && json_ws(buf[k]))
            k++;
        if (k >= len || buf[k] != '{')
            continue;
        size_t brace = k++;
        while (k < len && json_ws(buf[k]))
            k++;
        if (k < len && buf[k] == '"')
            return brace;
    }
    return SIZE_MAX;
}

static bool is_gzip_file(int fd)
{
    unsigned char magic[2];
    return pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

/* Whether a file of size bytes is worth reading on two threads. */
static bool size_is_large(uint64_t size, bool gzip)
{
    return size >= (gzip ? SPLIT_MIN_GZIP_BYTES : SPLIT_MIN_BYTES);
}

#define SMALL_TRACE_BYTES ((uint64_t)4 << 20)

struct trace_file_size trace_file_size_of(const char *path)
{
    struct trace_file_size size = {false, false};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return size;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        bool gzip = is_gzip_file(fd);
        unsigned char isize[4];
        size.large = size_is_large((uint64_t)st.st_size, gzip);
        size.small = (uint64_t)st.st_size <= SMALL_TRACE_BYTES;
        // A gzip member's trailer holds its length mod 4 GiB: a multiple of
        // 4 GiB more, or more members, only cost level 9 on the pack's
        // first hold (trace/deflater.h) where 6 would have done.
        if (size.small && gzip)
            size.small = st.st_size >= 4 && pread(fd, isize, 4, st.st_size - 4) == 4 &&
                         le_load(isize, 4) <= SMALL_TRACE_BYTES;
    }
    close(fd);
    return size;
}

/* A guessed element start after the middle of a plain file of size bytes,
 * or 0 for none (too small, nothing found). */
static uint64_t guess_split_point(int fd, uint64_t size)
{
    if (!size_is_large(size, false))
        return 0;
    unsigned char *buf = malloc(SPLIT_WINDOW);
    if (!buf)
        return 0;
    uint64_t from = size / 2;
    ssize_t n = pread(fd, buf, SPLIT_WINDOW, (off_t)from);
    size_t at = n > 0 ? element_start_in(buf, (size_t)n) : SIZE_MAX;
    free(buf);
    return at == SIZE_MAX ? 0 : from + at;
}

/* The document's length: the gzip trailer's, plus the 4 GiB multiple that
 * brings it nearest to the estimate from the ratio so far, when that
 * agrees with the estimate within a half (else, more members than one: the
 * estimate). */
static uint64_t gzip_doc_length(uint32_t isize, uint64_t estimate)
{
    uint64_t k = estimate > isize ? (estimate - isize + ((uint64_t)1 << 31)) >> 32 : 0;
    uint64_t length = isize + (k << 32);
    uint64_t off = length > estimate ? length - estimate : estimate - length;
    return off <= estimate / 2 ? length : estimate;
}

/* The share of a gzip document the first thread parses: the second one
 * inflates the first part before it parses, and inflates as it parses. */
#define SPLIT_GZIP_SHARE 0.58

/* The gzip guess: src inflated to SPLIT_GZIP_SHARE of the document (its
 * length known once an eighth of the file is in), then an element start
 * looked for window after window (w holds SPLIT_WINDOW bytes). Sets *start
 * and the bytes of w from there (*from, *n), and publishes the guess. */
static int guess_gzip_split(struct split_run *sp, struct trace_source *src, char *w,
                            uint64_t *start, size_t *from, size_t *n)
{
    uint64_t target = UINT64_MAX;
    for (;;) {
        if (atomic_load_explicit(&sp->stop, memory_order_relaxed))
            return err_set(&sp->err, ERR_CANCEL, "stopped");
        uint64_t doc = trace_source_doc_bytes(src);
        size_t got = 0;
        int rc = trace_source_read(src, w, SPLIT_WINDOW, &got, &sp->err);
        if (rc)
            return rc;
        if (!got)
            return err_set(&sp->err, ERR_PARSE, "no element start after the middle");
        uint64_t input = trace_source_input_bytes(src);
        if (target == UINT64_MAX && input >= sp->size / 8 && input > 0) {
            double estimate = (double)(doc + got) / (double)input * (double)sp->size;
            uint64_t length = gzip_doc_length(sp->isize, estimate < 1e18 ? (uint64_t)estimate : 0);
            target = (uint64_t)((double)length * SPLIT_GZIP_SHARE);
        }
        size_t i = doc + got >= target ? element_start_in((const unsigned char *)w, got) : SIZE_MAX;
        if (i == SIZE_MAX)
            continue;
        *start = doc + i;
        *from = i;
        *n = got - i;
        atomic_store(&sp->at, *start);
        return 0;
    }
}

static void *split_main(void *arg)
{
    struct split_run *sp = arg;
    struct trace_source_opts so = {0};
    so.max_uncompressed = sp->lim.max_uncompressed;
    struct trace_source *src = trace_source_open_file(sp->path, &so, &sp->err);
    if (!src) {
        sp->rc = ERR_IO;
        return NULL;
    }
    if (!trace_source_same_file(src, sp->first)) {   /* replaced since: not its half */
        trace_source_close(src);
        sp->rc = ERR_IO;
        return NULL;
    }
    struct reader r;
    reader_init(&r, sp->o->tail, &sp->lim);
    struct trace_scan_handler h = {.ctx = &r, .element = on_element,
                                   .element_prefix = on_element_prefix};
    sp->rc = ensure_scratch(&r, READER_SCRATCH, &sp->err);
    uint64_t start = atomic_load(&sp->at);
    char *w = sp->gzip ? malloc(SPLIT_WINDOW) : NULL;
    size_t from = 0, n = 0;
    if (sp->rc == 0 && sp->gzip)
        sp->rc = w ? guess_gzip_split(sp, src, w, &start, &from, &n)
                   : err_set(&sp->err, ERR_NOMEM, "out of memory");
    if (sp->rc == 0)
        sp->rc = trace_scan_elements_from(src, start, w ? w + from : NULL, n, &sp->lim, &h,
                                          &sp->stop, &sp->end, &sp->count,
                                          sp->gzip ? &sp->rest : NULL, &sp->err);
    free(w);
    free(r.scratch);
    trace_source_close(src);
    return NULL;
}

static void split_stop(struct split_run *sp)
{
    if (!sp->running)
        return;
    atomic_store(&sp->stop, true);
    pthread_join(sp->thread, NULL);
    sp->running = false;
}

static int on_split_point(void *ctx, uint64_t index, uint64_t offset, struct trace_jump *jump,
                          struct err *e)
{
    struct split_run *sp = ((struct reader *)ctx)->split;
    uint64_t at = sp->running ? atomic_load(&sp->at) : 0;
    if (!at || offset < at)   // (a gzip guess not made yet)
        return 0;
    if (offset > at) {   /* the guess was inside an element, or made too late */
        split_stop(sp);
        return 0;
    }
    pthread_join(sp->thread, NULL);
    sp->running = false;
    if (sp->rc != 0 || sp->count == 0)
        return 0;
    int rc = sp->o->adopt(sp->o->ctx, index, e);
    if (rc > 0)
        return 0;
    if (rc == 0)
        *jump = (struct trace_jump){sp->end, sp->count, sp->rest.text, sp->rest.len};
    return rc;
}

int trace_read_file_split(const char *path, const struct trace_sink *sink,
                          const struct trace_split_opts *split, const struct trace_limits *limits,
                          struct err *e)
{
    if (file_is_summary(path))
        return read_summary_file(path, sink, split, limits, e);
    uint64_t at = 0, size = 0;
    bool gzip = false;
    unsigned char trailer[4];
    uint32_t isize = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        size = (uint64_t)st.st_size;
        gzip = is_gzip_file(fd);
        if (!gzip)
            at = guess_split_point(fd, size);
        else if (size >= 4 && pread(fd, trailer, 4, (off_t)(size - 4)) == 4)
            isize = (uint32_t)le_load(trailer, 4);
    }
    if (fd >= 0)
        close(fd);
    // No split (small, no element boundary found): the plain read, which
    // keeps the inflating thread for gzip.
    if (!at && !(gzip && size_is_large(size, true)))
        return trace_read_file(path, sink, limits, e);
    struct trace_source_opts o = source_opts(sink, limits);
    o.read_ahead = o.read_ahead && gzip;
    struct trace_source *src = trace_source_open_file(path, &o, e);
    if (!src) {
        err_prefix(e, "%s", path);
        return e ? e->code : ERR_IO;
    }
    struct split_run sp = {.path = path, .first = src, .o = split,
                           .lim = trace_limits_resolve(limits), .gzip = gzip, .size = size,
                           .isize = isize};
    atomic_init(&sp.at, at);
    atomic_init(&sp.stop, false);
    sp.running = pool_thread_start(&sp.thread, split_main, &sp) == 0;
    int rc = read_source(src, path, sink, limits, 0, sp.running ? &sp : NULL, e);
    free(sp.rest.text);
    if (rc && rc != ERR_CANCEL && rc != ERR_NOMEM)
        rc = explain_failure(src, path, rc, e);
    trace_source_close(src);
    return rc;
}
