#include "config.h"
#include "trace/pack.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/strtab.h"

enum { OP_END = 0, OP_EVENT = 1, OP_WARNING = 2, OP_META = 3 };

/* Event mask bits: which optional parts follow, and the booleans. */
enum {
    M_HAS_NAME = 1u << 0, M_HAS_CAT = 1u << 1, M_NAME = 1u << 2, M_CAT = 1u << 3,
    M_PID = 1u << 4, M_PID_NUM = 1u << 5, M_TID = 1u << 6, M_TID_NUM = 1u << 7,
    M_TS = 1u << 8, M_TS_FLOAT = 1u << 9, M_TS_US = 1u << 10,
    M_DUR = 1u << 11, M_DUR_FLOAT = 1u << 12, M_DUR_US = 1u << 13,
    M_STREAM = 1u << 14, M_CORR = 1u << 15, M_MEMBW = 1u << 16, M_BYTES = 1u << 17,
    M_ARG_NAME = 1u << 18, M_COLL_NAME = 1u << 19, M_PG_NAME = 1u << 20,
    M_PG_RANKS = 1u << 21, M_DTYPE = 1u << 22, M_GROUP_SIZE = 1u << 23,
    M_IN_NELEMS = 1u << 24, M_OUT_NELEMS = 1u << 25, M_SEQ = 1u << 26,
    M_SEQ_LOWER = 1u << 27, M_FLOW_ID = 1u << 28, M_FLOW_BIND = 1u << 29,
    M_ALL = (1u << 30) - 1,
};

enum { UNITS_TS_US = 1, UNITS_DUR_US = 2 };

#define HEADER_FIXED 16          /* version, raw length, path length */
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
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(bits >> (8 * i));
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

/* Times are deltas from the previous time on the same thread (tid string
 * id): a thread's events are nearly in order, and a flow starts where its
 * event does. */
static int64_t *thread_slot(int64_t **prev, size_t *cap, uint32_t id)
{
    if (id >= *cap) {
        size_t n = *cap ? *cap : 64;
        while (n <= id)
            n *= 2;
        int64_t *grown = realloc(*prev, n * sizeof *grown);
        if (!grown)
            return NULL;
        memset(grown + *cap, 0, (n - *cap) * sizeof *grown);
        *prev = grown;
        *cap = n;
    }
    return &(*prev)[id];
}

/* The double a time's text most likely had: exact for whole microseconds,
 * and nearly always right otherwise (one rounding in long double, one to
 * double); the recorder stores the double whenever this misses. */
static double derived_us(int64_t ns)
{
    if (ns % 1000 == 0)
        return (double)(ns / 1000);
    return (double)((long double)ns / 1000.0L);
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
    m |= ev->arg_name.s ? M_ARG_NAME : 0;
    m |= ev->coll_name.s ? M_COLL_NAME : 0;
    m |= ev->pg_name.s ? M_PG_NAME : 0;
    m |= ev->pg_ranks.s ? M_PG_RANKS : 0;
    m |= ev->dtype.s ? M_DTYPE : 0;
    m |= ev->group_size.present ? M_GROUP_SIZE : 0;
    m |= ev->in_nelems.present ? M_IN_NELEMS : 0;
    m |= ev->out_nelems.present ? M_OUT_NELEMS : 0;
    m |= ev->seq.present ? M_SEQ : 0;
    m |= ev->seq_lower.present ? M_SEQ_LOWER : 0;
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
    if (m & M_ARG_NAME)
        put_str(p, ev->arg_name.s, ev->arg_name.len);
    if (m & M_COLL_NAME)
        put_str(p, ev->coll_name.s, ev->coll_name.len);
    if (m & M_PG_NAME)
        put_str(p, ev->pg_name.s, ev->pg_name.len);
    if (m & M_PG_RANKS)
        put_str(p, ev->pg_ranks.s, ev->pg_ranks.len);
    if (m & M_DTYPE)
        put_str(p, ev->dtype.s, ev->dtype.len);
    if (m & M_GROUP_SIZE)
        put_s(p, ev->group_size.v);
    if (m & M_IN_NELEMS)
        put_s(p, ev->in_nelems.v);
    if (m & M_OUT_NELEMS)
        put_s(p, ev->out_nelems.v);
    if (m & M_SEQ)
        put_s(p, ev->seq.v);
    if (m & M_SEQ_LOWER)
        put_s(p, ev->seq_lower.v);
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

static void le_put(uint8_t *at, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        at[i] = (uint8_t)(v >> (8 * i));
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
        le_put(p->out, TRACE_PACK_VERSION, 4);
        le_put(p->out + 4, p->raw_len, 8);
        le_put(p->out + 12, n, 4);
    }
    if (p->error)
        return err_set(e, p->error, "%s: cannot pack the trace (%s)", p->source,
                       p->error == ERR_NOMEM ? "out of memory" : "deflate failed");
    *out = p->out;
    *len = p->out_len;
    return 0;
}

/* ---- replaying ------------------------------------------------------------ */

struct reader {
    const uint8_t *p, *end;
    bool bad;
    const char *why;   // static text for the first problem
    struct trace_str *dict;
    size_t ndict, dict_cap;
};

static void fail(struct reader *r, const char *why)
{
    if (!r->bad)
        r->why = why;
    r->bad = true;
    r->p = r->end;
}

static uint64_t get_u(struct reader *r)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (r->p >= r->end) {
            fail(r, "truncated record");
            return 0;
        }
        uint8_t b = *r->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    fail(r, "varint too long");
    return 0;
}

static int64_t get_s(struct reader *r)
{
    uint64_t u = get_u(r);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static double get_f64(struct reader *r)
{
    double d = 0;
    if (r->end - r->p < 8) {
        fail(r, "truncated record");
        return d;
    }
    uint64_t bits = 0;
    for (int i = 0; i < 8; i++)
        bits |= (uint64_t)r->p[i] << (8 * i);
    r->p += 8;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static struct trace_str get_str_id(struct reader *r, uint32_t *id_out)
{
    struct trace_str none = {NULL, 0};
    uint64_t id = get_u(r);
    *id_out = 0;
    if (r->bad)
        return none;
    *id_out = (uint32_t)id;
    if (id < r->ndict)
        return r->dict[id];
    if (id != r->ndict) {
        fail(r, "string id out of range");
        return none;
    }
    uint64_t len = get_u(r);
    if (r->bad || len > (uint64_t)(r->end - r->p)) {
        fail(r, "string past the end");
        return none;
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
    struct trace_str s = {(const char *)r->p, (size_t)len};
    r->dict[r->ndict++] = s;
    r->p += len;
    return s;
}

static struct trace_str get_str(struct reader *r)
{
    uint32_t id;
    return get_str_id(r, &id);
}

static void get_index(struct reader *r, uint64_t *prev, uint64_t *index)
{
    *index = *prev + 1 + (uint64_t)get_s(r);
    *prev = *index;
}

/* A str field: present in the mask, or NULL as the reader leaves it. */
static struct trace_str opt_str(struct reader *r, uint32_t m, uint32_t bit)
{
    struct trace_str none = {NULL, 0};
    return (m & bit) ? get_str(r) : none;
}

static struct trace_int opt_int(struct reader *r, uint32_t m, uint32_t bit)
{
    struct trace_int v = {0, false};
    if (m & bit) {
        v.v = get_s(r);
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

struct replay {
    uint64_t prev_index;
    int64_t *prev_ts;   /* by tid string id, as recorded */
    size_t prev_ts_cap;
    int64_t prev_corr;
};

static void read_event(struct reader *r, struct replay *st, struct trace_event *ev)
{
    memset(ev, 0, sizeof *ev);
    uint64_t mask = get_u(r);
    if (mask > M_ALL)
        fail(r, "unknown event fields");
    uint32_t m = (uint32_t)mask;
    if (r->p >= r->end) {
        fail(r, "truncated record");
        return;
    }
    uint8_t ph = *r->p++;
    if (ph > TRACE_PH_OTHER)
        fail(r, "unknown phase");
    ev->ph = (enum trace_ph)ph;
    get_index(r, &st->prev_index, &ev->index);
    ev->has_name = m & M_HAS_NAME;
    ev->has_cat = m & M_HAS_CAT;
    ev->name = opt_str(r, m, M_NAME);
    ev->cat = opt_str(r, m, M_CAT);
    ev->pid = opt_str(r, m, M_PID);
    ev->pid_is_num = m & M_PID_NUM;
    uint32_t tid = 0;
    if (m & M_TID)
        ev->tid = get_str_id(r, &tid);
    ev->tid_is_num = m & M_TID_NUM;
    int64_t *prev = thread_slot(&st->prev_ts, &st->prev_ts_cap, tid);
    if (!prev) {
        fail(r, NULL);
        return;
    }
    if (r->p >= r->end) {
        fail(r, "truncated record");
        return;
    }
    uint8_t units = *r->p++;
    if (units & ~(UNITS_TS_US | UNITS_DUR_US))
        fail(r, "unknown time units");
    int64_t delta = get_s(r);
    if ((units & UNITS_TS_US) && !scale_us(&delta))
        fail(r, "time out of range");
    int64_t ts = (int64_t)((uint64_t)*prev + (uint64_t)delta);
    *prev = ts;
    get_time(r, &ev->ts, ts, m & M_TS, m & M_TS_FLOAT, m & M_TS_US);
    int64_t dur = get_s(r);
    if ((units & UNITS_DUR_US) && !scale_us(&dur))
        fail(r, "time out of range");
    get_time(r, &ev->dur, dur, m & M_DUR, m & M_DUR_FLOAT, m & M_DUR_US);
    ev->stream = opt_int(r, m, M_STREAM);
    if (m & M_CORR) {
        st->prev_corr = (int64_t)((uint64_t)st->prev_corr + (uint64_t)get_s(r));
        ev->correlation = (struct trace_int){st->prev_corr, true};
    }
    ev->has_mem_bw = m & M_MEMBW;
    ev->mem_bw_gbps = ev->has_mem_bw ? get_f64(r) : 0;
    ev->bytes = opt_int(r, m, M_BYTES);
    ev->arg_name = opt_str(r, m, M_ARG_NAME);
    ev->coll_name = opt_str(r, m, M_COLL_NAME);
    ev->pg_name = opt_str(r, m, M_PG_NAME);
    ev->pg_ranks = opt_str(r, m, M_PG_RANKS);
    ev->dtype = opt_str(r, m, M_DTYPE);
    ev->group_size = opt_int(r, m, M_GROUP_SIZE);
    ev->in_nelems = opt_int(r, m, M_IN_NELEMS);
    ev->out_nelems = opt_int(r, m, M_OUT_NELEMS);
    ev->seq = opt_int(r, m, M_SEQ);
    ev->seq_lower = opt_int(r, m, M_SEQ_LOWER);
    if (m & M_FLOW_ID) {
        st->prev_corr = (int64_t)((uint64_t)st->prev_corr + (uint64_t)get_s(r));
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

static void read_meta(struct reader *r, struct trace_meta *mt, struct trace_str source)
{
    memset(mt, 0, sizeof *mt);
    copy_fixed(mt->source_path, sizeof mt->source_path, source);
    uint64_t flags = get_u(r);
    if (flags > 7)
        fail(r, "unknown metadata fields");
    mt->has_rank = flags & 1;
    mt->has_world_size = flags & 2;
    mt->has_base_time = flags & 4;
    mt->rank = get_s(r);
    mt->world_size = get_s(r);
    mt->base_time_ns = get_s(r);
    int64_t props = get_s(r);
    if (props < 0 || props > INT32_MAX)
        fail(r, "bad metadata");
    mt->device_properties = (int)props;
    copy_fixed(mt->backend, sizeof mt->backend, get_str(r));
    copy_fixed(mt->display_time_unit, sizeof mt->display_time_unit, get_str(r));
    copy_fixed(mt->device_name, sizeof mt->device_name, get_str(r));
}

static uint64_t le_get(const uint8_t *at, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)at[i] << (8 * i);
    return v;
}

const char *trace_pack_source(const void *pack, size_t len, size_t *path_len)
{
    const uint8_t *b = pack;
    if (len < HEADER_FIXED || le_get(b, 4) != TRACE_PACK_VERSION)
        return NULL;
    uint64_t n = le_get(b + 12, 4);
    if (n > TRACE_PACK_PATH_MAX || n > len - HEADER_FIXED)
        return NULL;
    *path_len = (size_t)n;
    return (const char *)b + HEADER_FIXED;
}

/* Inflates the records of a pack into a new buffer of exactly raw_len bytes. */
static int inflate_records(const char *name, const uint8_t *z, size_t zlen, uint64_t raw_len,
                           uint8_t **raw, struct err *e)
{
    *raw = malloc(raw_len ? (size_t)raw_len : 1);
    if (!*raw)
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit(&s) != Z_OK)
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
    int rc = 0;
    uint64_t done = 0;
    size_t zdone = 0;
    for (;;) {
        uInt in_step = zlen - zdone > (1u << 30) ? 1u << 30 : (uInt)(zlen - zdone);
        uint64_t left = raw_len - done;
        uInt out_step = left > (1u << 30) ? 1u << 30 : (uInt)left;
        s.next_in = (Bytef *)z + zdone;
        s.avail_in = in_step;
        s.next_out = *raw + done;
        s.avail_out = out_step;
        int zr = inflate(&s, Z_NO_FLUSH);
        zdone += in_step - s.avail_in;
        done += out_step - s.avail_out;
        if (zr == Z_STREAM_END) {
            if (done != raw_len || zdone != zlen)
                rc = err_set(e, ERR_PARSE, "%s: packed events: length does not match", name);
            break;
        }
        if (zr == Z_MEM_ERROR) {
            rc = err_set(e, ERR_NOMEM, "%s: out of memory", name);
            break;
        }
        if (zr != Z_OK || (s.avail_out == out_step && s.avail_in == in_step)) {
            rc = err_set(e, ERR_PARSE, "%s: packed events: %s", name,
                         zr == Z_OK || zr == Z_BUF_ERROR ? "truncated or longer than declared"
                                                         : "corrupt deflate data");
            break;
        }
    }
    inflateEnd(&s);
    if (rc) {
        free(*raw);
        *raw = NULL;
    }
    return rc;
}

static int replay(const char *name, const uint8_t *raw, size_t raw_len, size_t pack_len,
                  struct trace_str source, const struct trace_sink *sink, struct err *e)
{
    struct reader r = {raw, raw + raw_len, false, NULL, NULL, 0, 0};
    struct replay st = {UINT64_MAX, NULL, 0, 0};
    int rc = 0;
    // The recorder's dictionary (a strtab) starts with "" as id 0.
    if (!(r.dict = malloc(1024 * sizeof *r.dict)))
        return err_set(e, ERR_NOMEM, "%s: out of memory", name);
    r.dict[0] = (struct trace_str){"", 0};
    r.ndict = 1;
    r.dict_cap = 1024;
    bool ended = false, had_meta = false;
    uint64_t records = 0;
    while (rc == 0 && !ended && r.p < r.end) {
        uint8_t op = *r.p++;
        if (op == OP_END) {
            ended = true;
        } else if (op == OP_EVENT) {
            struct trace_event ev;
            read_event(&r, &st, &ev);
            if (!r.bad)
                rc = sink->event(sink->ctx, &ev, e);
        } else if (op == OP_WARNING) {
            struct trace_warning w;
            get_index(&r, &st.prev_index, &w.index);
            w.offset = get_u(&r);
            struct trace_str what = get_str(&r);
            char text[256];
            copy_fixed(text, sizeof text, what);
            w.what = text;
            if (!r.bad && sink->warning)
                sink->warning(sink->ctx, &w);
        } else if (op == OP_META && !had_meta) {
            struct trace_meta mt;
            read_meta(&r, &mt, source);
            had_meta = true;
            if (!r.bad && sink->meta)
                rc = sink->meta(sink->ctx, &mt, e);
        } else {
            fail(&r, "unknown record");
        }
        if (r.bad && rc == 0)
            rc = r.why ? err_set(e, ERR_PARSE, "%s: packed events, byte %zu: %s", name,
                                 (size_t)(r.p - raw), r.why)
                       : err_set(e, ERR_NOMEM, "%s: out of memory", name);
        if (rc == 0 && ++records % 65536 == 0 && sink->progress &&
            sink->progress(sink->ctx, (uint64_t)((double)(r.p - raw) / (double)raw_len * (double)pack_len)))
            rc = err_set(e, ERR_CANCEL, "%s: cancelled", name);
    }
    if (rc == 0 && (!ended || r.p != r.end))
        rc = err_set(e, ERR_PARSE, "%s: packed events: %s", name,
                     ended ? "bytes after the end" : "truncated (no end record)");
    free(r.dict);
    free(st.prev_ts);
    return rc;
}

int trace_unpack(const char *name, const void *pack, size_t len, const struct trace_sink *sink,
                 const struct trace_limits *limits, struct err *e)
{
    const uint8_t *b = pack;
    size_t path_len;
    if (!trace_pack_source(pack, len, &path_len))
        return err_set(e, ERR_PARSE, "%s: packed events: bad header (another version?)", name);
    uint64_t raw_len = le_get(b + 4, 8);
    size_t zoff = HEADER_FIXED + path_len;
    // deflate cannot expand more than 1032:1: a larger claim is a lie.
    uint64_t most = (uint64_t)(len - zoff) * 1032 + 64;
    if (raw_len > most || raw_len > SIZE_MAX / 2)
        return err_set(e, ERR_PARSE, "%s: packed events: impossible length %llu", name,
                       (unsigned long long)raw_len);
    if (limits && limits->max_uncompressed && raw_len > limits->max_uncompressed)
        return err_set(e, ERR_LIMIT, "%s: packed events of %llu bytes exceed the limit", name,
                       (unsigned long long)raw_len);
    uint8_t *raw;
    int rc = inflate_records(name, b + zoff, len - zoff, raw_len, &raw, e);
    if (rc)
        return rc;
    struct trace_str source = {(const char *)b + HEADER_FIXED, path_len};
    rc = replay(name, raw, (size_t)raw_len, len, source, sink, e);
    free(raw);
    return rc;
}
