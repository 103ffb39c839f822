#include "config.h"
#include "trace/pack.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "trace/pack_format.h"
#include "util/le.h"
#include "util/strtab.h"

#define STAGE_START (1u << 16)   /* first size of the raw records' buffer */
#define MAX_VARINT 10
/* zlib level 6: a quarter smaller than level 1 at the same summarize time
 * (measured on the ../shared traces: 0.63-2.2 % of the JSON, not 0.87-2.5 %). */
#define PACK_LEVEL 6

/* ---- recording ------------------------------------------------------------ */

struct trace_pack {
    char *source;
    struct trace_sink next;
    struct strtab dict;
    uint8_t *stage;        /* raw records, deflated by trace_pack_finish */
    size_t staged, stage_cap;
    uint64_t raw_len;
    z_stream z;
    bool z_ready;
    uint8_t *out;          /* header + deflated records */
    size_t out_len, out_cap;
    int64_t *prev_ts;      /* by tid string id */
    size_t prev_ts_cap;
    int64_t prev_corr;
    uint64_t prev_index;
    int error;
    bool finished;
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

/* Deflates the raw records, in pieces zlib's 32-bit counts can take. */
static int deflate_records(struct trace_pack *p)
{
    size_t done = 0;
    for (;;) {
        size_t piece = p->staged - done > (1u << 30) ? 1u << 30 : p->staged - done;
        bool last = done + piece == p->staged;
        p->z.next_in = p->stage + done;
        p->z.avail_in = (uInt)piece;
        int zr;
        do {
            if (out_reserve(p, 1 << 16))
                return ERR_NOMEM;
            p->z.next_out = p->out + p->out_len;
            p->z.avail_out = (uInt)(p->out_cap - p->out_len);
            zr = deflate(&p->z, last ? Z_FINISH : Z_NO_FLUSH);
            p->out_len = p->out_cap - p->z.avail_out;
            if (zr != Z_OK && zr != Z_BUF_ERROR && zr != Z_STREAM_END)
                return ERR_INTERNAL;
        } while (last ? zr != Z_STREAM_END : p->z.avail_in > 0);
        done += piece;
        if (last)
            return 0;
    }
}

/* Room for `more` raw bytes. The records stay raw until trace_pack_finish,
 * so that recording costs the reader's thread little and the deflating
 * can run where the caller likes (the cache: after the first screen). */
static uint8_t *stage_room(struct trace_pack *p, size_t more)
{
    if (p->error)
        return NULL;
    if (p->staged + more > p->stage_cap) {
        size_t cap = p->stage_cap;
        while (cap < p->staged + more) {
            if (cap > SIZE_MAX / 2) {
                p->error = ERR_NOMEM;
                return NULL;
            }
            cap *= 2;
        }
        uint8_t *n = realloc(p->stage, cap);
        if (!n) {
            p->error = ERR_NOMEM;
            return NULL;
        }
        p->stage = n;
        p->stage_cap = cap;
    }
    return p->stage + p->staged;
}

static void put_bytes(struct trace_pack *p, const void *b, size_t n)
{
    uint8_t *at = stage_room(p, n);
    if (!at)
        return;
    memcpy(at, b, n);
    p->staged += n;
    p->raw_len += n;
}

static void put_u(struct trace_pack *p, uint64_t v)
{
    uint8_t b[MAX_VARINT];
    size_t n = 0;
    do {
        b[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
        v >>= 7;
    } while (v);
    put_bytes(p, b, n);
}

static void put_s(struct trace_pack *p, int64_t v)
{
    put_u(p, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void put_f64(struct trace_pack *p, double d)
{
    uint8_t b[8];
    le_store_f64(b, d);
    put_bytes(p, b, 8);
}

/* Returns the string's id (0 when memory ran out: the error is sticky). */
static uint32_t put_str(struct trace_pack *p, const char *s, size_t len)
{
    size_t before = strtab_count(&p->dict);
    uint32_t id = strtab_intern(&p->dict, s ? s : "", s ? len : 0);
    if (id == STRTAB_NONE) {
        p->error = p->error ? p->error : ERR_NOMEM;
        return 0;
    }
    put_u(p, id);
    if (id == before) {   // new: its bytes follow
        put_u(p, len);
        put_bytes(p, s, len);
    }
    return id;
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

static void put_index(struct trace_pack *p, uint64_t index)
{
    put_s(p, (int64_t)(index - p->prev_index - 1));
    p->prev_index = index;
}

static void record_event(struct trace_pack *p, const struct trace_event *ev)
{
    uint32_t m = event_mask(ev);
    uint8_t op = OP_EVENT, ph = (uint8_t)ev->ph;
    put_bytes(p, &op, 1);
    put_u(p, m);
    put_bytes(p, &ph, 1);
    put_index(p, ev->index);
    if (m & M_NAME)
        put_str(p, ev->name.s, ev->name.len);
    if (m & M_CAT)
        put_str(p, ev->cat.s, ev->cat.len);
    if (m & M_PID)
        put_str(p, ev->pid.s, ev->pid.len);
    uint32_t tid = (m & M_TID) ? put_str(p, ev->tid.s, ev->tid.len) : 0;
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
    put_bytes(p, &units, 1);
    put_s(p, units & UNITS_TS_US ? delta / 1000 : delta);
    *prev = ev->ts.ns;
    if (m & M_TS_US)
        put_f64(p, ev->ts.us);
    put_s(p, units & UNITS_DUR_US ? ev->dur.ns / 1000 : ev->dur.ns);
    if (m & M_DUR_US)
        put_f64(p, ev->dur.us);
    if (m & M_STREAM)
        put_s(p, ev->stream.v);
    if (m & M_CORR) {
        put_s(p, (int64_t)((uint64_t)ev->correlation.v - (uint64_t)p->prev_corr));
        p->prev_corr = ev->correlation.v;
    }
    if (m & M_MEMBW)
        put_f64(p, ev->mem_bw_gbps);
    if (m & M_BYTES)
        put_s(p, ev->bytes.v);
    for (size_t i = 0; i < PACK_NARGS; i++) {
        const void *f = (const char *)ev + pack_args[i].offset;
        if (!(m & pack_args[i].bit))
            continue;
        if (pack_args[i].is_str)
            put_str(p, ((const struct trace_str *)f)->s, ((const struct trace_str *)f)->len);
        else
            put_s(p, ((const struct trace_int *)f)->v);
    }
    if (m & M_FLOW_ID) {   // a flow's id is its events' correlation
        put_s(p, (int64_t)((uint64_t)ev->flow_id.v - (uint64_t)p->prev_corr));
        p->prev_corr = ev->flow_id.v;
    }
}

static void record_meta(struct trace_pack *p, const struct trace_meta *mt)
{
    uint8_t op = OP_META;
    put_bytes(p, &op, 1);
    put_u(p, (uint64_t)mt->has_rank | (uint64_t)mt->has_world_size << 1 |
                 (uint64_t)mt->has_base_time << 2);
    put_s(p, mt->rank);
    put_s(p, mt->world_size);
    put_s(p, mt->base_time_ns);
    put_s(p, mt->device_properties);
    put_str(p, mt->backend, strnlen(mt->backend, sizeof mt->backend));
    put_str(p, mt->display_time_unit, strnlen(mt->display_time_unit, sizeof mt->display_time_unit));
    put_str(p, mt->device_name, strnlen(mt->device_name, sizeof mt->device_name));
}

static int rec_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    struct trace_pack *p = ctx;
    record_event(p, ev);
    return p->next.event(p->next.ctx, ev, e);
}

static void rec_warning(void *ctx, const struct trace_warning *w)
{
    struct trace_pack *p = ctx;
    uint8_t op = OP_WARNING;
    put_bytes(p, &op, 1);
    put_index(p, w->index);
    put_u(p, w->offset);
    put_str(p, w->what, strlen(w->what));
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
    if (!p->source || !p->stage || strtab_init(&p->dict) ||
        deflateInit(&p->z, PACK_LEVEL) != Z_OK) {
        free(p->source);
        free(p->stage);
        free(p);
        return NULL;
    }
    p->z_ready = true;
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
    if (p->z_ready)
        deflateEnd(&p->z);
    strtab_fini(&p->dict);
    free(p->prev_ts);
    free(p->source);
    free(p->stage);
    free(p->out);
    free(p);
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

int trace_pack_finish(struct trace_pack *p, const uint8_t **out, size_t *len, struct err *e)
{
    if (!p->finished) {
        uint8_t op = OP_END;
        put_bytes(p, &op, 1);
        if (!p->error)
            p->error = deflate_records(p);
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
