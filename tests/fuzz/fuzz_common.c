#include "config.h"
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "app/format.h"
#include "model/model.h"
#include "trace/read.h"
#include "trace/source.h"

/* Invariant checks shared by the fuzz targets (fuzz.h). */

uint64_t fuzz_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

size_t fuzz_split_ranks(const uint8_t *data, size_t size, const void **docs, size_t *lens)
{
    size_t n = 0;
    const size_t seplen = strlen(FUZZ_RANK_SEPARATOR);
    const uint8_t *p = data, *end = data + size;
    while (n < FUZZ_MAX_RANKS) {
        const uint8_t *sep = n + 1 < FUZZ_MAX_RANKS
            ? memmem(p, (size_t)(end - p), FUZZ_RANK_SEPARATOR, seplen) : NULL;
        docs[n] = p;
        lens[n] = sep ? (size_t)(sep - p) : (size_t)(end - p);
        n++;
        if (!sep)
            break;
        p = sep + seplen;
    }
    return n;
}

static void check_stream(const struct stream_index *s, const struct rank_model *r, uint64_t h)
{
    for (size_t i = 0; i < s->n; i++) {
        CHECK(s->pos[i] < r->nevents);
        if (i > 0) {
            CHECK(r->events[s->pos[i - 1]].ts <= r->events[s->pos[i]].ts);
            CHECK(s->max_end[i - 1] <= s->max_end[i]);
        }
    }
    if (s->n == 0)
        return;
    int64_t t0 = r->events[s->pos[(size_t)(h % s->n)]].ts;
    int64_t t1 = t0 + (int64_t)((h >> 20) % 100000);
    size_t first = 0;
    size_t end = model_stream_window(s, r->events, t0, t1, &first);
    CHECK(first <= end && end <= s->n);
}

void fuzz_check_rank(const struct rank_model *r, uint64_t h)
{
    CHECK(r->path != NULL);
    for (size_t i = 0; i < r->nrows; i++)
        CHECK(r->rows[i] < r->nevents);
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        CHECK(ev->partner == MODEL_NONE || ev->partner < r->nevents);
        CHECK(ev->kind < EV_KIND_COUNT);
    }
    for (size_t i = 0; i < r->niterations; i++)
        CHECK(r->iterations[i].pos < r->nevents);
    for (size_t i = 0; i < r->nstreams; i++)
        check_stream(&r->streams[i], r, h >> i);
    for (size_t t = 0; t < r->nthreads; t++) {
        const struct thread_index *ti = &r->threads[t];
        for (size_t i = 0; i < ti->n; i++) {
            CHECK(ti->pos[i] < r->nevents);
            CHECK(ti->parent[i] == MODEL_NONE || ti->parent[i] < ti->n);
        }
    }
    CHECK(r->nwarning_texts <= MODEL_MAX_WARNING_TEXTS);
}

/* Writes t in every format; text must hold no raw ESC (a trace name must never
 * reach the terminal as an escape sequence) and JSON must parse. */
void fuzz_check_formats(const struct table *t)
{
    struct format_opts fo;
    format_opts_default(&fo);
    fo.bar_width = 10;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    format_table_text(f, t, &fo);
    fflush(f);
    CHECK(memchr(buf, 0x1b, len) == NULL);
    rewind(f);
    len = 0;
    format_table_csv(f, t, &fo);
    fflush(f);
    CHECK(memchr(buf, 0x1b, len) == NULL);
    rewind(f);
    len = 0;
    struct jsonw w;
    jsonw_init(&w, f, 1);
    format_table_json_rows(&w, t);
    jsonw_finish(&w);
    fclose(f);
    cJSON *doc = cJSON_ParseWithLength(buf, len);
    CHECK(doc != NULL);
    cJSON_Delete(doc);
    free(buf);
}


/* ---- reading a document ---- */


static uint64_t mix_str(uint64_t h, const struct trace_str *s)
{
    CHECK(s->len == 0 || s->s != NULL);
    h = fuzz_fnv(h, &s->len, sizeof s->len);
    return s->len ? fuzz_fnv(h, s->s, s->len) : h;
}

static uint64_t mix_time(uint64_t h, const struct trace_time *t)
{
    h = fuzz_fnv(h, &t->present, sizeof t->present);
    return t->present ? fuzz_fnv(h, &t->ns, sizeof t->ns) : h;
}

static uint64_t mix_int(uint64_t h, const struct trace_int *v)
{
    h = fuzz_fnv(h, &v->present, sizeof v->present);
    return v->present ? fuzz_fnv(h, &v->v, sizeof v->v) : h;
}

static int digest_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)e;
    struct fuzz_digest *d = ctx;
    uint64_t h = fuzz_fnv(d->h, &ev->index, sizeof ev->index);
    int ph = (int)ev->ph;
    h = fuzz_fnv(h, &ph, sizeof ph);
    h = mix_str(mix_str(h, &ev->name), &ev->cat);
    h = mix_str(mix_str(h, &ev->pid), &ev->tid);
    h = mix_time(mix_time(h, &ev->ts), &ev->dur);
    h = mix_int(mix_int(h, &ev->stream), &ev->correlation);
    h = mix_int(mix_int(h, &ev->bytes), &ev->flow_id);
    h = mix_str(h, &ev->arg_name);
    h = mix_str(mix_str(h, &ev->coll_name), &ev->pg_name);
    h = mix_str(mix_str(h, &ev->pg_ranks), &ev->dtype);
    h = mix_int(mix_int(h, &ev->group_size), &ev->in_nelems);
    h = mix_int(mix_int(h, &ev->out_nelems), &ev->seq);
    h = mix_int(h, &ev->seq_lower);
    d->h = h;
    d->events++;
    return 0;
}

static void digest_warning(void *ctx, const struct trace_warning *w)
{
    struct fuzz_digest *d = ctx;
    CHECK(w->what != NULL);
    d->h = fuzz_fnv(d->h, &w->index, sizeof w->index);
    d->warnings++;
}

static int digest_meta(void *ctx, const struct trace_meta *m, struct err *e)
{
    (void)e;
    struct fuzz_digest *d = ctx;
    CHECK(memchr(m->backend, 0, sizeof m->backend) != NULL);
    CHECK(memchr(m->display_time_unit, 0, sizeof m->display_time_unit) != NULL);
    CHECK(memchr(m->device_name, 0, sizeof m->device_name) != NULL);
    d->h = fuzz_fnv(d->h, &m->rank, sizeof m->rank);
    d->h = fuzz_fnv(d->h, &m->base_time_ns, sizeof m->base_time_ns);
    return 0;
}

struct fuzz_digest fuzz_read_doc(const void *buf, size_t len, const struct trace_limits *lim,
                              size_t buf_size)
{
    struct fuzz_digest d = {.h = 0xcbf29ce484222325ull};
    struct trace_sink sink = {.ctx = &d, .event = digest_event, .warning = digest_warning,
                              .meta = digest_meta};
    struct err e = {0, ""};
    struct trace_source_opts so = {.max_uncompressed = lim ? lim->max_uncompressed : 0};
    struct trace_source *src = trace_source_open_buffer(buf, len, &so, &e);
    CHECK(src != NULL);
    d.rc = trace_read_source(src, "fuzz.json", &sink, lim, buf_size, &e);
    trace_source_close(src);
    CHECK(d.rc <= 0);
    CHECK(d.rc == 0 || (e.code == d.rc && e.msg[0] != '\0'));
    CHECK(memchr(e.msg, 0, sizeof e.msg) != NULL);
    return d;
}

bool fuzz_same_digest(const struct fuzz_digest *a, const struct fuzz_digest *b)
{
    return a->rc == b->rc && a->h == b->h && a->events == b->events && a->warnings == b->warnings;
}

