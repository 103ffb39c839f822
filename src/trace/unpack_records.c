#include "config.h"
#include "trace/unpack_records.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "trace/read.h"
#include "util/le.h"
#include "util/vec.h"

static void fail(struct reader *r, const char *why)
{
    if (!r->bad)
        r->why = why;
    r->bad = true;
    for (int k = 0; k < PACK_NCOLS; k++)
        r->cur[k].p = r->cur[k].end;
    r->blocks.p = r->blocks.end;
}

static uint64_t cursor_u(struct reader *r, struct cursor *c)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (c->p >= c->end) {
            fail(r, "truncated record");
            return 0;
        }
        uint8_t b = *c->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    fail(r, "varint too long");
    return 0;
}

static uint64_t get_u(struct reader *r, enum pack_col c)
{
    return cursor_u(r, r->col[c]);
}

static int64_t get_s(struct reader *r, enum pack_col c)
{
    uint64_t u = get_u(r, c);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static uint8_t get_byte(struct reader *r, enum pack_col c)
{
    struct cursor *cu = r->col[c];
    if (cu->p >= cu->end) {
        fail(r, "truncated record");
        return 0;
    }
    return *cu->p++;
}

static double get_f64(struct reader *r)
{
    struct cursor *c = r->col[C_F64];
    if (c->end - c->p < 8) {
        fail(r, "truncated record");
        return 0;
    }
    double d = le_load_f64(c->p);
    c->p += 8;
    return d;
}

/* The header of the block at c->p (version 4): its columns' lengths and
 * their *total, c then at the first column. false, with r failed, when
 * malformed. */
static bool block_header(struct reader *r, struct cursor *c, uint64_t len[PACK_NCOLS],
                         uint64_t *total, bool *second)
{
    uint64_t head = cursor_u(r, c);
    *second = head == (PACK_NCOLS | PACK_BLOCK_SECOND) && r->version >= PACK_SECOND_VERSION;
    if (head != PACK_NCOLS && !*second) {
        fail(r, "unknown block");
        return false;
    }
    for (int k = 0; k < PACK_NCOLS; k++)
        len[k] = cursor_u(r, c);
    uint64_t avail = (uint64_t)(c->end - c->p);
    *total = 0;
    for (int k = 0; k < PACK_NCOLS && !r->bad; k++) {
        if (len[k] > avail - *total) {   // *total <= avail: no overflow
            fail(r, "block past the end");
            return false;
        }
        *total += len[k];
    }
    return !r->bad;
}

void unpack_release_pages(struct reader *r, const uint8_t *lo, const uint8_t *hi)
{
    uintptr_t a = ((uintptr_t)lo + r->page - 1) & ~(uintptr_t)(r->page - 1);
    uintptr_t b = (uintptr_t)hi & ~(uintptr_t)(r->page - 1);
    if (b > a && madvise((void *)a, b - a, MADV_DONTNEED) == 0)
        r->released = true;
}

/* The block just read through, given back but for its strings' bytes. */
static void release_block(struct reader *r)
{
    if (!r->page || !r->blk_hi)
        return;
    unpack_release_pages(r, r->blk_lo, r->str_lo);
    unpack_release_pages(r, r->str_hi, r->blk_hi);
}

/* Version 4: the next block's columns (its header read from r->blocks). */
static void read_block(struct reader *r)
{
    uint64_t len[PACK_NCOLS], total;
    release_block(r);
    r->blk_lo = r->blocks.p;
    if (!block_header(r, &r->blocks, len, &total, &r->second))
        return;
    for (int i = 0; i < PACK_NCOLS; i++) {
        int k = pack_column_at(r->version, i);
        r->cur[k] = (struct cursor){r->blocks.p, r->blocks.p + len[k]};
        r->blocks.p += len[k];
    }
    r->blk_hi = r->blocks.p;
    r->str_lo = r->cur[C_STRBYTES].p;
    r->str_hi = r->cur[C_STRBYTES].end;
    r->blocks_read++;
}

/* Whether a record follows: in version 4, a block whose records are all
 * read must have every column read to its end, and the next block opens. */
static bool record_follows(struct reader *r)
{
    if (!r->columns)
        return r->cur[0].p < r->cur[0].end;
    while (!r->bad && r->cur[C_SHAPE].p == r->cur[C_SHAPE].end) {
        for (int k = 0; k < PACK_NCOLS; k++)
            if (r->cur[k].p != r->cur[k].end) {
                fail(r, "block with unread fields");
                return true;   // told by the caller's error check
            }
        if (r->blocks.p == r->blocks.end)
            return false;
        read_block(r);
    }
    return true;   // a record, or a failure the caller tells
}

/* Whether every byte was read (after the end record). */
static bool all_read(const struct reader *r)
{
    for (int k = 0; k < PACK_NCOLS; k++)
        if (r->cur[k].p != r->cur[k].end)
            return false;
    return !r->columns || r->blocks.p == r->blocks.end;
}

/* How far the replay is, in raw bytes (by blocks from version 4). */
static size_t raw_read(const struct reader *r)
{
    return (size_t)((r->columns ? r->blocks.p : r->cur[0].p) - r->raw);
}

/* A string written as a run (pack.c's as_run): its text, kept in r->runs;
 * NULL when the run is impossible or memory is short (r failed). */
static const char *get_run(struct reader *r, uint64_t first, uint64_t *len)
{
    uint64_t step = get_u(r, C_STRLEN), count = get_u(r, C_STRLEN);
    if (r->bad || count < RUN_MIN || count > RUN_MAX || step == 0 || first >= RUN_TOP ||
        (RUN_TOP - 1 - first) / step < count - 1) {
        fail(r, "bad run");
        return NULL;
    }
    *len = run_text_len(first, step, count);
    if ((r->run_bytes += *len) > RUN_TEXT_MAX) {
        fail(r, "runs longer than a pack can hold");
        return NULL;
    }
    char *text = malloc((size_t)*len);
    if (!text || (r->nruns == r->runs_cap &&
                  vec_reserve((void **)&r->runs, &r->runs_cap, sizeof *r->runs, r->nruns + 1))) {
        free(text);
        fail(r, NULL);
        return NULL;
    }
    run_text(first, step, count, text);
    r->runs[r->nruns++] = text;
    return text;
}

/* The next new string (its length or run in C_STRLEN, its bytes in
 * C_STRBYTES), added to the dictionary. */
static struct trace_str define_str(struct reader *r)
{
    struct trace_str none = {NULL, 0};
    uint64_t len = get_u(r, C_STRLEN);
    struct cursor *bytes = r->col[C_STRBYTES];
    const char *text = (const char *)bytes->p;
    if (!r->bad && r->version >= 2 && (len & 1)) {
        text = get_run(r, len >> 1, &len);
        if (!text)
            return none;
    } else {
        len = r->version >= 2 ? len >> 1 : len;
        if (r->bad || len > (uint64_t)(bytes->end - bytes->p)) {
            fail(r, "string past the end");
            return none;
        }
        bytes->p += len;
    }
    if (r->ndict == r->dict_cap) {
        size_t cap = r->dict_cap ? r->dict_cap * 2 : 1024;
        struct trace_str *n = realloc(r->dict, cap * sizeof *n);
        if (!n) {
            fail(r, NULL);   // NULL why: out of memory
            return none;
        }
        r->dict = n;
        r->dict_cap = cap;
    }
    int k = r->second;
    if (r->nids[k] == r->ids_cap[k]) {
        size_t cap = r->ids_cap[k] * 2;
        uint32_t *n = realloc(r->ids[k], cap * sizeof *n);
        if (!n) {
            fail(r, NULL);
            return none;
        }
        r->ids[k] = n;
        r->ids_cap[k] = cap;
    }
    r->ids[k][r->nids[k]++] = (uint32_t)r->ndict;
    struct trace_str s = {text, (size_t)len};
    r->dict[r->ndict++] = s;
    return s;
}

static struct trace_str get_str_id(struct reader *r, enum pack_col c, uint32_t *id_out)
{
    struct trace_str none = {NULL, 0};
    uint64_t id = get_u(r, c);
    *id_out = 0;
    if (r->bad)
        return none;
    int k = r->second;
    if (id < r->nids[k]) {
        *id_out = r->ids[k][id];
        return r->dict[*id_out];
    }
    if (id != r->nids[k]) {   // (*id_out stays 0: a caller indexing by it allocates nothing for it)
        fail(r, "string id out of range");
        return none;
    }
    *id_out = (uint32_t)r->ndict;   // (what define_str gives it)
    return define_str(r);
}

static struct trace_str get_str(struct reader *r, enum pack_col c)
{
    uint32_t id;
    return get_str_id(r, c, &id);
}

static void get_index(struct reader *r, uint64_t *prev, uint64_t *index)
{
    *index = *prev + 1 + (uint64_t)get_s(r, C_INDEX);
    *prev = *index;
}

/* A str field: present in the mask, or NULL as the reader leaves it. */
static struct trace_str opt_str(struct reader *r, enum pack_col c, uint32_t m, uint32_t bit)
{
    struct trace_str none = {NULL, 0};
    return (m & bit) ? get_str(r, c) : none;
}

static struct trace_int opt_int(struct reader *r, enum pack_col c, uint32_t m, uint32_t bit)
{
    struct trace_int v = {0, false};
    if (m & bit) {
        v.v = get_s(r, c);
        v.present = true;
    }
    return v;
}

static void get_time(struct reader *r, struct trace_time *t, int64_t ns, bool present,
                     bool is_float, bool us_stored)
{
    t->ns = ns;
    t->present = present;
    t->is_float = is_float;
    t->us = us_stored ? get_f64(r) : derived_us(ns);
}

/* µs to ns, false when it would overflow (only a forged pack does that). */
static bool scale_us(int64_t *v)
{
    if (*v > INT64_MAX / 1000 || *v < INT64_MIN / 1000)
        return false;
    *v *= 1000;
    return true;
}

static void read_event(struct reader *r, struct replay *st, struct trace_event *ev)
{
    memset(ev, 0, sizeof *ev);
    uint64_t mask = get_u(r, C_SHAPE);
    if (mask > M_ALL)
        fail(r, "unknown event fields");
    uint32_t m = (uint32_t)mask;
    uint8_t ph = get_byte(r, C_SHAPE);
    if (r->bad)
        return;
    if (ph > TRACE_PH_OTHER)
        fail(r, "unknown phase");
    ev->ph = (enum trace_ph)ph;
    get_index(r, &st->prev_index, &ev->index);
    ev->has_name = m & M_HAS_NAME;
    ev->has_cat = m & M_HAS_CAT;
    ev->name = opt_str(r, C_NAME, m, M_NAME);
    ev->cat = opt_str(r, C_CAT, m, M_CAT);
    ev->pid = opt_str(r, C_PID, m, M_PID);
    ev->pid_is_num = m & M_PID_NUM;
    uint32_t tid = 0;
    if (m & M_TID)
        ev->tid = get_str_id(r, C_TID, &tid);
    ev->tid_is_num = m & M_TID_NUM;
    if (r->bad)
        return;
    int64_t *prev = thread_slot(&st->prev_ts, &st->prev_ts_cap, tid);
    if (!prev) {
        fail(r, NULL);
        return;
    }
    uint8_t units = get_byte(r, C_UNITS);
    if (r->bad)
        return;
    if (units & ~(UNITS_TS_US | UNITS_DUR_US))
        fail(r, "unknown time units");
    int64_t delta = get_s(r, C_TS);
    if ((units & UNITS_TS_US) && !scale_us(&delta))
        fail(r, "time out of range");
    int64_t ts = (int64_t)((uint64_t)*prev + (uint64_t)delta);
    *prev = ts;
    get_time(r, &ev->ts, ts, m & M_TS, m & M_TS_FLOAT, m & M_TS_US);
    int64_t dur = get_s(r, C_DUR);
    if ((units & UNITS_DUR_US) && !scale_us(&dur))
        fail(r, "time out of range");
    get_time(r, &ev->dur, dur, m & M_DUR, m & M_DUR_FLOAT, m & M_DUR_US);
    ev->stream = opt_int(r, C_STREAM, m, M_STREAM);
    if (m & M_CORR) {
        st->prev_corr = (int64_t)((uint64_t)st->prev_corr + (uint64_t)get_s(r, C_CORR));
        ev->correlation = (struct trace_int){st->prev_corr, true};
    }
    ev->has_mem_bw = m & M_MEMBW;
    ev->mem_bw_gbps = ev->has_mem_bw ? get_f64(r) : 0;
    ev->bytes = opt_int(r, C_BYTES, m, M_BYTES);
    for (size_t i = 0; i < PACK_NARGS; i++) {
        void *f = (char *)ev + pack_args[i].offset;
        if (pack_args[i].is_str)
            *(struct trace_str *)f = opt_str(r, C_ARGS, m, pack_args[i].bit);
        else
            *(struct trace_int *)f = opt_int(r, C_ARGS, m, pack_args[i].bit);
    }
    if (m & M_FLOW_ID) {
        st->prev_corr = (int64_t)((uint64_t)st->prev_corr + (uint64_t)get_s(r, C_CORR));
        ev->flow_id = (struct trace_int){st->prev_corr, true};
    }
    ev->flow_bind_enclosing = m & M_FLOW_BIND;
}

/* A dictionary string into a fixed buffer of the metadata. */
static void copy_fixed(char *dst, size_t cap, struct trace_str s)
{
    size_t n = s.len < cap - 1 ? s.len : cap - 1;
    if (n)
        memcpy(dst, s.s, n);
    dst[n] = '\0';
}

static void read_meta(struct reader *r, struct trace_meta *mt, struct trace_str source,
                      enum trace_source_state state)
{
    memset(mt, 0, sizeof *mt);
    mt->source_path = source;
    mt->source_state = state;
    uint64_t flags = get_u(r, C_MISC);
    if (flags > 15)
        fail(r, "unknown metadata fields");
    mt->has_rank = flags & 1;
    mt->has_world_size = flags & 2;
    mt->has_base_time = flags & 4;
    mt->rank = get_s(r, C_MISC);
    mt->world_size = get_s(r, C_MISC);
    mt->base_time_ns = get_s(r, C_MISC);
    int64_t props = get_s(r, C_MISC);
    if (props < 0 || props > INT32_MAX)
        fail(r, "bad metadata");
    mt->device_properties = (int)props;
    copy_fixed(mt->backend, sizeof mt->backend, get_str(r, C_MISC));
    copy_fixed(mt->display_time_unit, sizeof mt->display_time_unit, get_str(r, C_MISC));
    copy_fixed(mt->device_name, sizeof mt->device_name, get_str(r, C_MISC));
    uint64_t npgs = flags & 8 ? get_u(r, C_MISC) : 0;
    if (npgs > TRACE_MAX_PGS)
        fail(r, "bad metadata");
    for (uint64_t k = 0; k < npgs && !r->bad; k++) {
        struct trace_pg *pg = &mt->pgs[mt->npgs++];
        copy_fixed(pg->name, sizeof pg->name, get_str(r, C_MISC));
        pg->size = get_s(r, C_MISC);
        pg->ranks_hash = get_u(r, C_MISC);
    }
}

int unpack_decode_init(struct decode *d, const struct pack_run *pr, size_t from, size_t to)
{
    memset(d, 0, sizeof *d);
    struct reader *r = &d->r;
    r->raw = pr->raw;
    r->version = pr->version;
    r->columns = pr->version >= PACK_COLUMNS_VERSION;
    r->page = r->columns ? pr->page : 0;
    for (int k = 0; k < PACK_NCOLS; k++)
        r->col[k] = r->columns ? &r->cur[k] : &r->cur[0];
    if (r->columns)
        r->blocks = (struct cursor){pr->raw + from, pr->raw + to};
    else
        r->cur[0] = (struct cursor){pr->raw + from, pr->raw + to};
    d->st.prev_index = UINT64_MAX;
    // The recorder's dictionary (a strtab) starts with "" as id 0.
    if (!(r->dict = malloc(1024 * sizeof *r->dict)))
        return ERR_NOMEM;
    r->dict[0] = (struct trace_str){"", 0};
    r->ndict = 1;
    r->dict_cap = 1024;
    for (int k = 0; k < 2; k++) {   // both numberings start with it
        if (!(r->ids[k] = malloc(1024 * sizeof *r->ids[k]))) {
            unpack_decode_fini(d);
            return ERR_NOMEM;
        }
        r->ids[k][0] = 0;
        r->nids[k] = 1;
        r->ids_cap[k] = 1024;
    }
    return 0;
}

void unpack_decode_fini(struct decode *d)
{
    free(d->r.dict);
    free(d->r.ids[0]);
    free(d->r.ids[1]);
    for (size_t i = 0; i < d->r.nruns; i++)
        free(d->r.runs[i]);
    free(d->r.runs);
    free(d->st.prev_ts);
    memset(d, 0, sizeof *d);
}

int unpack_decode_run(struct decode *d, const struct pack_run *pr, const struct trace_sink *sink,
                      bool tail, uint64_t *first, const atomic_bool *stop, struct err *e)
{
    struct reader *r = &d->r;
    const char *name = pr->name;
    int rc = 0;
    bool counted = false;
    while (rc == 0 && !d->ended && record_follows(r)) {
        if (r->blocks_read != d->block) {   // its deltas start afresh (pack_format.h)
            d->block = r->blocks_read;
            d->st.prev_index = UINT64_MAX;
            d->st.prev_corr = 0;
            if (d->st.prev_ts)
                memset(d->st.prev_ts, 0, d->st.prev_ts_cap * sizeof *d->st.prev_ts);
        }
        if (tail && !r->bad) {
            uint8_t next = *r->col[C_SHAPE]->p;
            if (next != OP_EVENT && next != OP_WARNING)
                break;
        }
        uint8_t op = r->bad ? OP_END : get_byte(r, C_SHAPE);
        if (r->bad) {
            // record_follows failed: told below
        } else if (op == OP_END) {
            d->ended = true;
        } else if (op == OP_EVENT) {
            struct trace_event ev;
            read_event(r, &d->st, &ev);
            if (tail && !counted)
                *first = ev.index, counted = true;
            ev.index -= tail ? *first : 0;
            if (!r->bad)
                rc = sink->event(sink->ctx, &ev, e);
        } else if (op == OP_WARNING) {
            struct trace_warning w;
            get_index(r, &d->st.prev_index, &w.index);
            if (tail && !counted)
                *first = w.index, counted = true;
            w.index -= tail ? *first : 0;
            w.offset = get_u(r, C_MISC);
            struct trace_str what = get_str(r, C_MISC);
            char text[256];
            copy_fixed(text, sizeof text, what);
            w.what = text;
            if (!r->bad && sink->warning)
                sink->warning(sink->ctx, &w);
        } else if (op == OP_META && !d->had_meta) {
            struct trace_meta mt;
            read_meta(r, &mt, pr->source, pr->origin->state);
            d->had_meta = true;
            if (!r->bad && sink->meta)
                rc = sink->meta(sink->ctx, &mt, e);
        } else {
            fail(r, "unknown record");
        }
        if (r->bad && rc == 0)
            rc = r->why ? err_set(e, ERR_PARSE, "%s: packed events, byte %zu: %s", name,
                                  raw_read(r), r->why)
                        : err_set(e, ERR_NOMEM, "%s: out of memory", name);
        if (rc == 0 && ++d->records % READER_MEMORY_CHECK_EVERY == 0 &&
            (rc = trace_memory_guard(pr->max_memory, e)))
            err_prefix(e, "%s", name);
        if (rc == 0 && stop && d->records % 1024 == 0 && atomic_load(stop))
            rc = err_set(e, ERR_CANCEL, "%s: cancelled", name);
        if (rc == 0 && !tail && d->records % 65536 == 0 && sink->progress &&
            sink->progress(sink->ctx, (uint64_t)((double)raw_read(r) / (double)pr->raw_len *
                                                 (double)pr->origin->file_bytes)))
            rc = err_set(e, ERR_CANCEL, "%s: cancelled", name);
    }
    return rc;
}

int unpack_decode_check_end(const struct decode *d, const struct pack_run *pr, struct err *e)
{
    if (!d->ended || !all_read(&d->r))
        return err_set(e, ERR_PARSE, "%s: packed events: %s", pr->name,
                       d->ended ? "bytes after the end" : "truncated (no end record)");
    return 0;
}

size_t unpack_middle_block(const struct pack_run *pr)
{
    struct cursor c = {pr->raw, pr->raw + pr->raw_len};
    while (c.p < c.end) {
        size_t at = (size_t)(c.p - pr->raw);
        if (at >= pr->raw_len / 2)
            return at;
        uint64_t len[PACK_NCOLS], total;
        struct reader scratch = {0};   // a bad header: the one-thread replay tells
        scratch.version = pr->version;
        bool second;
        if (!block_header(&scratch, &c, len, &total, &second))
            return 0;
        c.p += total;
    }
    return 0;
}

bool unpack_learn_strings(struct decode *d, const struct pack_run *pr, size_t at)
{
    struct reader *r = &d->r;
    struct cursor c = {pr->raw, pr->raw + at};
    bool ok = true;
    while (ok && c.p < c.end) {
        uint64_t len[PACK_NCOLS], total;
        if (!block_header(r, &c, len, &total, &r->second))
            return false;
        const uint8_t *col = c.p;
        struct cursor lens = {0}, bytes = {0};
        for (int i = 0; i < PACK_NCOLS; i++) {
            int k = pack_column_at(r->version, i);
            if (k == C_STRLEN)
                lens = (struct cursor){col, col + len[k]};
            if (k == C_STRBYTES)
                bytes = (struct cursor){col, col + len[k]};
            col += len[k];
        }
        r->col[C_STRLEN] = &lens;
        r->col[C_STRBYTES] = &bytes;
        while (!r->bad && lens.p < lens.end)
            define_str(r);
        ok = !r->bad && bytes.p == bytes.end;
        r->col[C_STRLEN] = &r->cur[C_STRLEN];
        r->col[C_STRBYTES] = &r->cur[C_STRBYTES];
        c.p += total;
    }
    return ok;
}
