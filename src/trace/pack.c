#include "config.h"
#include "trace/pack.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "trace/pack_format.h"
#include "trace/deflater.h"
#include "util/summary_file.h"
#include "util/le.h"
#include "util/pool.h"
#include "util/ring.h"
#include "util/strtab.h"
#include "util/vec.h"

#define STAGE_START (1u << 16)   /* first size of the raw records' buffer */
#define MAX_VARINT 10

/* ---- recording ------------------------------------------------------------ */

/* Deflating behind: blocks of raw records on their way to the deflater, small
 * enough that little is left to deflate when the reading ends (the zlib of a
 * small rank), as many as a ring holds. */
#define BEHIND_BLOCKS 8
#define BEHIND_BLOCK ((size_t)1 << 18)

struct pack_behind {
    pthread_t thread;
    struct ring ring;
    uint8_t *block;   /* being filled by the recorder, NULL once the deflater left */
    size_t len;
    int error;        /* the deflater's, read after the join */
    bool ended;       /* behind_end was called */
};

struct trace_pack {
    char *source;
    struct trace_sink next;
    struct strtab dict;
    uint8_t *stage;        /* raw records, deflated by trace_pack_finish */
    size_t staged, stage_cap;
    uint64_t raw_len;
    struct trace_deflater *deflater;
    uint8_t *out;          /* header + deflated records */
    size_t out_len, out_cap;
    int64_t *prev_ts;      /* by tid string id */
    size_t prev_ts_cap;
    int64_t prev_corr;
    uint64_t prev_index;
    uint32_t hint[4];      /* the last event's name, cat, pid, tid ids */
    uint32_t hint_no_id[4];   /* the same for strings the next sink gave no id (a flow's name
                                 and cat): so that they do not miss the others' hints */
    struct colbuf {        /* the open block's columns (pack_format.h) */
        uint8_t *b;
        size_t len, cap;
    } col[PACK_NCOLS];
    uint32_t block_records;
    bool second;           /* trace_pack_mark_second: its blocks say so */
    int error;
    bool finished;
    bool sealed;           /* trace_pack_seal: the end is recorded */
    struct pack_behind *behind;   /* deflating on its own thread, or NULL */
    trace_pack_ids_fn ids;        /* trace_pack_reuse_ids, or NULL */
    void *ids_ctx;
    uint32_t *id_of;              /* the next sink's string id -> pack id + 1, 0: unknown */
    size_t id_of_cap;
};

static int out_reserve(struct trace_pack *p, size_t more)
{
    if (p->out_len + more <= p->out_cap)
        return 0;
    size_t cap = p->out_cap ? p->out_cap : 1 << 16;
    while (cap < p->out_len + more)
        cap *= 2;
    uint8_t *n = realloc(p->out, cap);
    if (!n)
        return ERR_NOMEM;
    p->out = n;
    p->out_cap = cap;
    return 0;
}

/* Deflates n raw bytes (all of them when last) after the header. */
static int deflate_bytes(struct trace_pack *p, const uint8_t *b, size_t n, bool last)
{
    return trace_deflater_put(p->deflater, b, n, last, &p->out, &p->out_len, &p->out_cap);
}

/* ---- deflating behind the recorder (trace_pack_deflate_behind) ------------
 * The recorder fills ring blocks; this thread deflates them in order and
 * owns z and out until trace_pack_finish joins it. */

static void *deflater_main(void *arg)
{
    struct trace_pack *p = arg;
    struct ring *r = &p->behind->ring;
    for (;;) {
        size_t len;
        int rc;
        const uint8_t *b = ring_full(r, &len, NULL, &rc, NULL);
        if (!b) {   // the end: rc is 0 when the recording finished
            if (rc == 0)
                p->behind->error = deflate_bytes(p, NULL, 0, true);
            break;
        }
        int dr = deflate_bytes(p, b, len, false);
        ring_release(r);
        if (dr) {
            p->behind->error = dr;
            ring_close(r);   // the recorder stops at its next block
            break;
        }
    }
    return NULL;
}

int trace_pack_deflate_behind(struct trace_pack *p, bool reading_busy)
{
    if (p->behind || p->raw_len || p->block_records)
        return 0;
    if (reading_busy)
        trace_deflater_hold_only(p->deflater);
    struct pack_behind *b = calloc(1, sizeof *b);
    if (!b || ring_init(&b->ring, BEHIND_BLOCKS, BEHIND_BLOCK)) {
        free(b);
        return ERR_NOMEM;
    }
    p->behind = b;
    if (pool_thread_start(&b->thread, deflater_main, p) != 0) {
        ring_fini(&b->ring);   // no thread to spare: deflate at finish
        free(b);
        p->behind = NULL;
        return 0;
    }
    b->block = ring_empty(&b->ring);
    return 0;
}

void trace_pack_small(struct trace_pack *p)
{
    trace_deflater_small(p->deflater);
}

/* Hands the deflating thread its last block and the end: after the last
 * block when done, else at once. Once. */
static void behind_end(struct pack_behind *b, bool done)
{
    if (b->ended)
        return;
    if (done && b->block && b->len)
        ring_publish(&b->ring, b->len, 0);
    ring_end(&b->ring, done ? 0 : ERR_CANCEL, NULL);
    b->block = NULL;   /* a record after the end fails (behind_put) */
    b->ended = true;
}

/* Ends the deflating thread (behind_end) and waits for it. */
static int behind_stop(struct trace_pack *p, bool done)
{
    struct pack_behind *b = p->behind;
    behind_end(b, done);
    pthread_join(b->thread, NULL);
    int rc = b->error;
    ring_fini(&b->ring);
    free(b);
    p->behind = NULL;
    return rc;
}

static void behind_put(struct trace_pack *p, const uint8_t *bytes, size_t n)
{
    struct pack_behind *b = p->behind;
    while (n) {
        if (!b->block) {   // the deflater failed and left: its error is told at finish
            p->error = p->error ? p->error : ERR_INTERNAL;
            return;
        }
        size_t room = BEHIND_BLOCK - b->len, k = n < room ? n : room;
        memcpy(b->block + b->len, bytes, k);
        b->len += k;
        bytes += k;
        n -= k;
        if (b->len == BEHIND_BLOCK) {
            ring_publish(&b->ring, b->len, 0);
            b->len = 0;
            b->block = ring_empty(&b->ring);
        }
    }
}

/* Room for `more` raw bytes. Unless deflated behind, the records stay raw
 * until trace_pack_finish, so that recording costs the reader's thread
 * little and the deflating can run where the caller likes (the cache:
 * after the first screen). */
static uint8_t *stage_room(struct trace_pack *p, size_t more)
{
    if (p->error)
        return NULL;
    if (more > SIZE_MAX - p->staged ||
        vec_reserve((void **)&p->stage, &p->stage_cap, 1, p->staged + more)) {
        p->error = ERR_NOMEM;
        return NULL;
    }
    return p->stage + p->staged;
}

static void emit_bytes(struct trace_pack *p, const void *b, size_t n)
{
    p->raw_len += n;
    if (p->behind) {
        if (!p->error)
            behind_put(p, b, n);
        return;
    }
    uint8_t *at = stage_room(p, n);
    if (!at)
        return;
    memcpy(at, b, n);
    p->staged += n;
}

/* Room for `more` bytes in column c; NULL when memory ran out (sticky). */
static uint8_t *col_room(struct trace_pack *p, enum pack_col c, size_t more)
{
    struct colbuf *cb = &p->col[c];
    if (cb->len + more <= cb->cap)
        return cb->b + cb->len;
    if (p->error)
        return NULL;
    if (more > SIZE_MAX - cb->len || vec_reserve((void **)&cb->b, &cb->cap, 1, cb->len + more)) {
        p->error = ERR_NOMEM;
        return NULL;
    }
    return cb->b + cb->len;
}

/* The puts run for every field of every event on the reader's thread: their
 * common case (room in the column) is inlined, the growth is not. */
#define HOT static inline __attribute__((always_inline))

HOT void put_bytes(struct trace_pack *p, enum pack_col c, const void *b, size_t n)
{
    uint8_t *d = col_room(p, c, n);
    if (!d)
        return;
    memcpy(d, b, n);
    p->col[c].len += n;
}

HOT void put_byte(struct trace_pack *p, enum pack_col c, uint8_t v)
{
    struct colbuf *cb = &p->col[c];
    uint8_t *d = cb->len < cb->cap ? cb->b + cb->len : col_room(p, c, 1);
    if (!d)
        return;
    *d = v;
    cb->len++;
}

/* v as a LEB128 varint at b (room for MAX_VARINT); its length. */
static inline size_t varint_at(uint8_t *b, uint64_t v)
{
    size_t n = 0;
    do {
        b[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return n;
}

HOT void put_u(struct trace_pack *p, enum pack_col c, uint64_t v)
{
    struct colbuf *cb = &p->col[c];
    uint8_t *b = cb->len + MAX_VARINT <= cb->cap ? cb->b + cb->len : col_room(p, c, MAX_VARINT);
    if (b)
        cb->len += varint_at(b, v);
}

/* The open block's header and columns into the raw stream. */
static void close_block(struct trace_pack *p)
{
    if (!p->block_records)
        return;
    uint8_t head[(PACK_NCOLS + 1) * MAX_VARINT];
    size_t n = 0;
    for (int k = -1; k < PACK_NCOLS; k++)
        n += varint_at(head + n, k >= 0 ? p->col[k].len
                                        : PACK_NCOLS | (p->second ? PACK_BLOCK_SECOND : 0));
    emit_bytes(p, head, n);
    for (int i = 0; i < PACK_NCOLS; i++) {
        int k = pack_column_at(TRACE_PACK_VERSION, i);
        if (p->col[k].len)
            emit_bytes(p, p->col[k].b, p->col[k].len);
        p->col[k].len = 0;
    }
    p->block_records = 0;
    // The next block's deltas start afresh, so that it can be read without
    // decoding the blocks before it (only their new strings are needed).
    p->prev_index = UINT64_MAX;
    p->prev_corr = 0;
    if (p->prev_ts)
        memset(p->prev_ts, 0, p->prev_ts_cap * sizeof *p->prev_ts);
}

/* After each record: a block holds whole records. */
static void end_record(struct trace_pack *p)
{
    if (++p->block_records >= PACK_BLOCK_RECORDS ||
        p->col[C_STRBYTES].len >= PACK_BLOCK_STRBYTES)
        close_block(p);
}

static inline uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

HOT void put_s(struct trace_pack *p, enum pack_col c, int64_t v)
{
    put_u(p, c, zigzag(v));
}

static void put_f64(struct trace_pack *p, double d)
{
    uint8_t b[8];
    le_store_f64(b, d);
    put_bytes(p, C_F64, b, 8);
}

/* Whether s is exactly run_text's text of a run (pack_format.h: RUN_MIN to
 * RUN_MAX values below RUN_TOP, evenly spaced upwards): then its first
 * value, step and count. Canonical digits and ", " only, so that the text
 * made again is s. */
static bool as_run(const char *s, size_t len, uint64_t *first, uint64_t *step, uint64_t *count)
{
    if (len < 2 * RUN_MIN + 1 || s[0] != '[' || s[len - 1] != ']')
        return false;
    uint64_t prev = 0, n = 0;
    size_t i = 1, last = len - 1;
    *first = *step = 0;
    for (;;) {
        if (i >= last || s[i] < '0' || s[i] > '9' ||
            (s[i] == '0' && i + 1 < last && s[i + 1] >= '0' && s[i + 1] <= '9'))
            return false;
        uint64_t v = 0;
        for (; i < last && s[i] >= '0' && s[i] <= '9'; i++)
            if ((v = v * 10 + (uint64_t)(s[i] - '0')) >= RUN_TOP)
                return false;
        if (n == 0)
            *first = v;
        else if (v <= prev || (n == 1 ? (*step = v - prev, false) : v - prev != *step))
            return false;
        prev = v;
        if (++n > RUN_MAX)
            return false;
        if (i == last)
            break;
        if (last - i < 3 || s[i] != ',' || s[i + 1] != ' ')
            return false;
        i += 2;
    }
    *count = n;
    return n >= RUN_MIN;
}

/* Returns the string's id (0 when memory ran out: the error is sticky);
 * hint as for strtab_intern_hinted. A new string follows its id as a run
 * (first << 1 | 1, step, count) or as its length << 1 and bytes. */
static uint32_t put_str_hinted(struct trace_pack *p, enum pack_col c, const char *s, size_t len,
                               uint32_t *hint)
{
    size_t before = strtab_count(&p->dict);
    uint32_t id = strtab_intern_hinted(&p->dict, s ? s : "", s ? len : 0, hint);
    if (id == STRTAB_NONE) {
        p->error = p->error ? p->error : ERR_NOMEM;
        return 0;
    }
    put_u(p, c, id);
    if (id != before)
        return id;
    uint64_t first = 0, step = 0, count = 0;
    if (s && as_run(s, len, &first, &step, &count)) {
        put_u(p, C_STRLEN, first << 1 | 1);
        put_u(p, C_STRLEN, step);
        put_u(p, C_STRLEN, count);
    } else {
        put_u(p, C_STRLEN, (uint64_t)len << 1);
        put_bytes(p, C_STRBYTES, s, len);
    }
    return id;
}

/* The first time the next sink's id its_id is met: put_str_hinted, and
 * the pack's id kept for it. */
static uint32_t put_str_new_id(struct trace_pack *p, enum pack_col c, const char *s, size_t len,
                               uint32_t *hint, uint32_t its_id)
{
    uint32_t id = put_str_hinted(p, c, s, len, hint);
    if (its_id == UINT32_MAX || p->error)
        return id;
    if (its_id >= p->id_of_cap) {
        size_t cap = p->id_of_cap ? p->id_of_cap : 1024;
        while (cap <= its_id)
            cap *= 2;
        uint32_t *n = realloc(p->id_of, cap * sizeof *n);
        if (!n) {
            p->error = ERR_NOMEM;
            return id;
        }
        memset(n + p->id_of_cap, 0, (cap - p->id_of_cap) * sizeof *n);
        p->id_of = n;
        p->id_of_cap = cap;
    }
    p->id_of[its_id] = id + 1;
    return id;
}

/* put_str_hinted, through the next sink's id of the string when it gave
 * one (its_id, UINT32_MAX when not): a string met before costs a lookup in
 * an array, not a hash. */
HOT uint32_t put_str_known(struct trace_pack *p, enum pack_col c, const char *s, size_t len,
                           uint32_t *hint, uint32_t its_id)
{
    if (its_id < p->id_of_cap && p->id_of[its_id]) {
        uint32_t id = p->id_of[its_id] - 1;
        put_u(p, c, id);
        return id;
    }
    return put_str_new_id(p, c, s, len, hint, its_id);
}

static uint32_t put_str(struct trace_pack *p, enum pack_col c, const char *s, size_t len)
{
    uint32_t none = STRTAB_NONE;
    return put_str_hinted(p, c, s, len, &none);
}

static bool us_is_derived(const struct trace_time *t)
{
    double d = derived_us(t->ns);
    return memcmp(&d, &t->us, sizeof d) == 0;
}

static uint32_t event_mask(const struct trace_event *ev)
{
    uint32_t m = 0;
    m |= ev->has_name ? M_HAS_NAME : 0;
    m |= ev->has_cat ? M_HAS_CAT : 0;
    m |= ev->name.s ? M_NAME : 0;
    m |= ev->cat.s ? M_CAT : 0;
    m |= ev->pid.s ? M_PID : 0;
    m |= ev->pid_is_num ? M_PID_NUM : 0;
    m |= ev->tid.s ? M_TID : 0;
    m |= ev->tid_is_num ? M_TID_NUM : 0;
    m |= ev->ts.present ? M_TS : 0;
    m |= ev->ts.is_float ? M_TS_FLOAT : 0;
    m |= !us_is_derived(&ev->ts) ? M_TS_US : 0;
    m |= ev->dur.present ? M_DUR : 0;
    m |= ev->dur.is_float ? M_DUR_FLOAT : 0;
    m |= !us_is_derived(&ev->dur) ? M_DUR_US : 0;
    m |= ev->stream.present ? M_STREAM : 0;
    m |= ev->correlation.present ? M_CORR : 0;
    m |= ev->has_mem_bw ? M_MEMBW : 0;
    m |= ev->bytes.present ? M_BYTES : 0;
    for (size_t i = 0; i < PACK_NARGS; i++) {
        const void *f = (const char *)ev + pack_args[i].offset;
        bool present = pack_args[i].is_str ? ((const struct trace_str *)f)->s != NULL
                                           : ((const struct trace_int *)f)->present;
        m |= present ? pack_args[i].bit : 0;
    }
    m |= ev->flow_id.present ? M_FLOW_ID : 0;
    m |= ev->flow_bind_enclosing ? M_FLOW_BIND : 0;
    return m;
}

HOT void put_index(struct trace_pack *p, uint64_t index)
{
    put_s(p, C_INDEX, (int64_t)(index - p->prev_index - 1));
    p->prev_index = index;
}

/* ids: the next sink's ids of name, cat, pid and tid (trace_pack_ids_fn),
 * or NULL. */
static void record_event(struct trace_pack *p, const struct trace_event *ev, const uint32_t *ids)
{
    static const uint32_t none[4] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
    if (!ids)
        ids = none;
    uint32_t m = event_mask(ev);
    uint8_t op = OP_EVENT, ph = (uint8_t)ev->ph;
    put_byte(p, C_SHAPE, op);
    put_u(p, C_SHAPE, m);
    put_byte(p, C_SHAPE, ph);
    put_index(p, ev->index);
#define HINT(k) (ids[k] == UINT32_MAX ? &p->hint_no_id[k] : &p->hint[k])
    if (m & M_NAME)
        put_str_known(p, C_NAME, ev->name.s, ev->name.len, HINT(0), ids[0]);
    if (m & M_CAT)
        put_str_known(p, C_CAT, ev->cat.s, ev->cat.len, HINT(1), ids[1]);
    if (m & M_PID)
        put_str_known(p, C_PID, ev->pid.s, ev->pid.len, HINT(2), ids[2]);
    uint32_t tid = (m & M_TID) ? put_str_known(p, C_TID, ev->tid.s, ev->tid.len, HINT(3), ids[3])
                               : 0;
#undef HINT
    int64_t *prev = thread_slot(&p->prev_ts, &p->prev_ts_cap, tid);
    if (!prev) {
        p->error = ERR_NOMEM;
        return;
    }
    // Absent times are written too (as the reader left them), so a replay
    // hands over the same struct whatever the reader does with them. Most
    // traces have whole microseconds: a units byte says which time is
    // written in µs (a third of the varint's bytes).
    int64_t delta = (int64_t)((uint64_t)ev->ts.ns - (uint64_t)*prev);
    uint8_t units = (uint8_t)((delta % 1000 == 0 ? UNITS_TS_US : 0) |
                              (ev->dur.ns % 1000 == 0 ? UNITS_DUR_US : 0));
    put_byte(p, C_UNITS, units);
    put_s(p, C_TS, units & UNITS_TS_US ? delta / 1000 : delta);
    *prev = ev->ts.ns;
    if (m & M_TS_US)
        put_f64(p, ev->ts.us);
    put_s(p, C_DUR, units & UNITS_DUR_US ? ev->dur.ns / 1000 : ev->dur.ns);
    if (m & M_DUR_US)
        put_f64(p, ev->dur.us);
    if (m & M_STREAM)
        put_s(p, C_STREAM, ev->stream.v);
    if (m & M_CORR) {
        put_s(p, C_CORR, (int64_t)((uint64_t)ev->correlation.v - (uint64_t)p->prev_corr));
        p->prev_corr = ev->correlation.v;
    }
    if (m & M_MEMBW)
        put_f64(p, ev->mem_bw_gbps);
    if (m & M_BYTES)
        put_s(p, C_BYTES, ev->bytes.v);
    for (size_t i = 0; i < PACK_NARGS && (m & PACK_ARG_BITS); i++) {   // most events have none
        const void *f = (const char *)ev + pack_args[i].offset;
        if (!(m & pack_args[i].bit))
            continue;
        if (pack_args[i].is_str)
            put_str(p, C_ARGS, ((const struct trace_str *)f)->s, ((const struct trace_str *)f)->len);
        else
            put_s(p, C_ARGS, ((const struct trace_int *)f)->v);
    }
    if (m & M_FLOW_ID) {   // a flow's id is its events' correlation
        put_s(p, C_CORR, (int64_t)((uint64_t)ev->flow_id.v - (uint64_t)p->prev_corr));
        p->prev_corr = ev->flow_id.v;
    }
    end_record(p);
}

static void record_meta(struct trace_pack *p, const struct trace_meta *mt)
{
    uint8_t op = OP_META;
    put_byte(p, C_SHAPE, op);
    put_u(p, C_MISC, (uint64_t)mt->has_rank | (uint64_t)mt->has_world_size << 1 |
                 (uint64_t)mt->has_base_time << 2 | (uint64_t)(mt->npgs > 0) << 3);
    put_s(p, C_MISC, mt->rank);
    put_s(p, C_MISC, mt->world_size);
    put_s(p, C_MISC, mt->base_time_ns);
    put_s(p, C_MISC, mt->device_properties);
    put_str(p, C_MISC, mt->backend, strnlen(mt->backend, sizeof mt->backend));
    put_str(p, C_MISC, mt->display_time_unit,
            strnlen(mt->display_time_unit, sizeof mt->display_time_unit));
    put_str(p, C_MISC, mt->device_name, strnlen(mt->device_name, sizeof mt->device_name));
    if (mt->npgs > 0) {   // flag 8: a trace without process groups packs without them
        put_u(p, C_MISC, (uint64_t)mt->npgs);
        for (int k = 0; k < mt->npgs; k++) {
            const struct trace_pg *pg = &mt->pgs[k];
            put_str(p, C_MISC, pg->name, strnlen(pg->name, sizeof pg->name));
            put_s(p, C_MISC, pg->size);
            put_u(p, C_MISC, pg->ranks_hash);
        }
    }
    end_record(p);
}

static int rec_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    struct trace_pack *p = ctx;
    if (!p->ids) {
        record_event(p, ev, NULL);
        return p->next.event(p->next.ctx, ev, e);
    }
    int rc = p->next.event(p->next.ctx, ev, e);
    if (rc == 0)
        record_event(p, ev, p->ids(p->ids_ctx, ev->index));
    return rc;
}

static void rec_warning(void *ctx, const struct trace_warning *w)
{
    struct trace_pack *p = ctx;
    uint8_t op = OP_WARNING;
    put_byte(p, C_SHAPE, op);
    put_index(p, w->index);
    put_u(p, C_MISC, w->offset);
    put_str(p, C_MISC, w->what, strlen(w->what));
    end_record(p);
    if (p->next.warning)
        p->next.warning(p->next.ctx, w);
}

static int rec_meta(void *ctx, const struct trace_meta *m, struct err *e)
{
    struct trace_pack *p = ctx;
    record_meta(p, m);
    return p->next.meta ? p->next.meta(p->next.ctx, m, e) : 0;
}

static int rec_progress(void *ctx, uint64_t bytes)
{
    struct trace_pack *p = ctx;
    return p->next.progress ? p->next.progress(p->next.ctx, bytes) : 0;
}

struct trace_pack *trace_pack_new(const char *source_path)
{
    struct trace_pack *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    size_t n = strnlen(source_path, TRACE_PACK_PATH_MAX - 1);
    p->source = strndup(source_path, n);
    p->stage = malloc(STAGE_START);
    p->stage_cap = STAGE_START;
    p->prev_index = UINT64_MAX;   // the first element is index 0: delta 0
    if (!p->source || !p->stage || strtab_init(&p->dict)) {
        free(p->source);
        free(p->stage);
        free(p);
        return NULL;
    }
    p->deflater = trace_deflater_new();
    if (!p->deflater) {
        trace_pack_free(p);
        return NULL;
    }
    // The header's fields are filled by trace_pack_finish.
    if (out_reserve(p, HEADER_FIXED + n)) {
        trace_pack_free(p);
        return NULL;
    }
    p->out_len = HEADER_FIXED + n;
    memcpy(p->out + HEADER_FIXED, p->source, n);
    return p;
}

void trace_pack_free(struct trace_pack *p)
{
    if (!p)
        return;
    if (p->behind)
        behind_stop(p, false);
    trace_deflater_free(p->deflater);
    strtab_fini(&p->dict);
    for (int k = 0; k < PACK_NCOLS; k++)
        free(p->col[k].b);
    free(p->prev_ts);
    free(p->id_of);
    free(p->source);
    free(p->stage);
    free(p->out);
    free(p);
}

void trace_pack_mark_second(struct trace_pack *p)
{
    p->second = true;
}

int trace_pack_adopt(struct trace_pack *p, struct trace_pack *second, uint64_t first_index)
{
    close_block(second);
    if (second->error || p->error)
        return second->error ? second->error : p->error;
    close_block(p);
    // (The bytes are a recorder's own: the checks only keep a bug from reading on.)
    struct summary_file_cur blocks = {second->stage, second->stage + second->staged, 0};
    while (blocks.p < blocks.end) {
        uint64_t len[PACK_NCOLS + 1], total = 0;
        for (int k = 0; k <= PACK_NCOLS; k++)
            len[k] = summary_file_get_varint(&blocks);
        for (int k = 1; k <= PACK_NCOLS; k++)
            total += len[k];
        if (blocks.bad || total > (uint64_t)(blocks.end - blocks.p))
            return p->error = ERR_INTERNAL;
        // A block's first element index is its delta from "none" (as at
        // the pack's start): the second half's, from its own 0, moves on.
        const uint8_t *b = blocks.p, *col = b, *index = b;
        for (int i = 0, k; (k = pack_column_at(TRACE_PACK_VERSION, i)) != C_INDEX; i++)
            index += len[1 + k];
        uint8_t first[MAX_VARINT];
        size_t nfirst = 0;
        struct summary_file_cur in_index = {index, index + len[1 + C_INDEX], 0};
        if (len[1 + C_INDEX]) {
            int64_t local = summary_file_get_svarint(&in_index);
            if (in_index.bad)
                return p->error = ERR_INTERNAL;
            nfirst = varint_at(first, zigzag((int64_t)((uint64_t)local + first_index)));
            len[1 + C_INDEX] = len[1 + C_INDEX] - (uint64_t)(in_index.p - index) + nfirst;
        }
        const uint8_t *rest = in_index.p;
        uint8_t head[(PACK_NCOLS + 1) * MAX_VARINT];
        size_t n = 0;
        for (int k = 0; k <= PACK_NCOLS; k++)
            n += varint_at(head + n, len[k]);
        emit_bytes(p, head, n);
        emit_bytes(p, col, (size_t)(index - col));
        emit_bytes(p, first, nfirst);
        emit_bytes(p, rest, (size_t)(b + total - rest));
        blocks.p = b + total;
    }
    second->staged = 0;
    return p->error;
}

void trace_pack_reuse_ids(struct trace_pack *p, trace_pack_ids_fn ids, void *ctx)
{
    p->ids = ids;
    p->ids_ctx = ctx;
}

void trace_pack_sink(struct trace_pack *p, const struct trace_sink *next, struct trace_sink *out)
{
    p->next = *next;
    out->ctx = p;
    out->event = rec_event;
    out->warning = rec_warning;
    out->meta = rec_meta;
    out->progress = rec_progress;
}

void trace_pack_seal(struct trace_pack *p)
{
    if (p->sealed || p->finished)
        return;
    uint8_t op = OP_END;
    put_byte(p, C_SHAPE, op);
    p->block_records++;
    close_block(p);
    if (p->behind)
        behind_end(p->behind, !p->error);
    p->sealed = true;
}

int trace_pack_finish(struct trace_pack *p, const uint8_t **out, size_t *len, struct err *e)
{
    if (!p->finished) {
        trace_pack_seal(p);
        if (p->behind) {
            int rc = behind_stop(p, !p->error);
            p->error = rc ? rc : p->error;   // the deflater's error explains the recorder's
        } else if (!p->error) {
            p->error = deflate_bytes(p, p->stage, p->staged, true);
        }
        free(p->stage);   // the raw records are done with
        p->stage = NULL;
        p->staged = p->stage_cap = 0;
        p->finished = true;
        size_t n = strlen(p->source);
        le_store(p->out, TRACE_PACK_VERSION, 4);
        le_store(p->out + 4, p->raw_len, 8);
        le_store(p->out + 12, n, 4);
    }
    if (p->error)
        return err_set(e, p->error, "%s: cannot pack the trace (%s)", p->source,
                       p->error == ERR_NOMEM ? "out of memory" : "deflate failed");
    *out = p->out;
    *len = p->out_len;
    return 0;
}
