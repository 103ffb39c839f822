#include "config.h"
#include "event_log.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(struct event_log *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct event_log *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || l->failed)
        return;
    if (l->len + (size_t)n + 1 > l->cap) {
        size_t cap = l->cap ? l->cap : 4096;
        while (cap < l->len + (size_t)n + 1)
            cap *= 2;
        char *t = realloc(l->text, cap);
        if (!t) {
            l->failed = 1;
            return;
        }
        l->text = t;
        l->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(l->text + l->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    l->len += (size_t)n;
}

/* A string as hex (any byte, NUL included), or "-" when absent. */
static void add_str(struct event_log *l, const char *key, struct trace_str s)
{
    add(l, " %s=", key);
    if (!s.s) {
        add(l, "-");
        return;
    }
    add(l, "'");
    for (size_t i = 0; i < s.len; i++)
        add(l, "%02x", (unsigned char)s.s[i]);
}

static void add_time(struct event_log *l, const char *key, const struct trace_time *t)
{
    uint64_t bits;
    memcpy(&bits, &t->us, sizeof bits);
    add(l, " %s=%d/%d/%" PRId64 "/%016" PRIx64, key, t->present, t->is_float, t->ns, bits);
}

static void add_int(struct event_log *l, const char *key, struct trace_int v)
{
    add(l, " %s=%d/%" PRId64, key, v.present, v.present ? v.v : 0);
}

static int log_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)e;
    struct event_log *l = ctx;
    uint64_t bw;
    memcpy(&bw, &ev->mem_bw_gbps, sizeof bw);
    add(l, "E %" PRIu64 " ph=%d hn=%d hc=%d pn=%d tn=%d bw=%d/%016" PRIx64 " bp=%d", ev->index,
        (int)ev->ph, ev->has_name, ev->has_cat, ev->pid_is_num, ev->tid_is_num, ev->has_mem_bw,
        ev->has_mem_bw ? bw : 0, ev->flow_bind_enclosing);
    add_str(l, "name", ev->name);
    add_str(l, "cat", ev->cat);
    add_str(l, "pid", ev->pid);
    add_str(l, "tid", ev->tid);
    add_time(l, "ts", &ev->ts);
    add_time(l, "dur", &ev->dur);
    add_int(l, "stream", ev->stream);
    add_int(l, "corr", ev->correlation);
    add_int(l, "bytes", ev->bytes);
    add_str(l, "arg_name", ev->arg_name);
    add_str(l, "coll", ev->coll_name);
    add_str(l, "pg", ev->pg_name);
    add_str(l, "pgr", ev->pg_ranks);
    add_str(l, "dtype", ev->dtype);
    add_int(l, "gs", ev->group_size);
    add_int(l, "in", ev->in_nelems);
    add_int(l, "out", ev->out_nelems);
    add_int(l, "seq", ev->seq);
    add_int(l, "seql", ev->seq_lower);
    add_int(l, "flow", ev->flow_id);
    add(l, "\n");
    return 0;
}

static void log_warning(void *ctx, const struct trace_warning *w)
{
    add(ctx, "W %" PRIu64 " %" PRIu64 " %s\n", w->index, w->offset, w->what);
}

static int log_meta(void *ctx, const struct trace_meta *m, struct err *e)
{
    (void)e;
    add(ctx, "M %d/%" PRId64 " %d/%" PRId64 " %d/%" PRId64 " props=%d backend=%s unit=%s device=%s\n",
        m->has_rank, m->rank, m->has_world_size, m->world_size, m->has_base_time,
        m->base_time_ns, m->device_properties, m->backend, m->display_time_unit, m->device_name);
    return 0;
}

struct trace_sink event_log_sink(struct event_log *log)
{
    memset(log, 0, sizeof *log);
    struct trace_sink s = {log, log_event, log_warning, log_meta, NULL};
    return s;
}

void event_log_fini(struct event_log *log)
{
    free(log->text);
    memset(log, 0, sizeof *log);
}
