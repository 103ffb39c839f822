#include "config.h"
#include "trace_doc.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>

void doc_raw(struct doc *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(d->text + d->len, sizeof d->text - d->len, fmt, ap);
    va_end(ap);
    ck_assert_msg(k > 0 && (size_t)k < sizeof d->text - d->len, "test document too long");
    d->len += (size_t)k;
}

void doc_begin(struct doc *d)
{
    d->len = 0;
    d->n = 0;
    doc_raw(d, "{\"traceEvents\": [");
}

void ev(struct doc *d, const char *cat, const char *name, int tid, int ts, int dur, int stream,
        int corr)
{
    doc_raw(d, "%s{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":1,\"tid\":%d,"
               "\"ts\":%d,\"dur\":%d,\"args\":{",
            d->n++ ? "," : "", cat, name, tid, ts, dur);
    if (stream >= 0)
        doc_raw(d, "\"stream\":%d%s", stream, corr >= 0 ? "," : "");
    if (corr >= 0)
        doc_raw(d, "\"correlation\":%d", corr);
    doc_raw(d, "}}");
}

void launch_named(struct doc *d, int tid, int ts, int dur, int corr, const char *kernel)
{
    ev(d, "cuda_runtime", "cudaLaunchKernel", tid, ts, 2, -1, corr);
    ev(d, "kernel", kernel, 9, ts + 1000, dur, 7, corr);
}

void launch(struct doc *d, int tid, int ts, int dur, int corr)
{
    launch_named(d, tid, ts, dur, corr, "k");
}

struct model *load_docs(struct doc *d, size_t n)
{
    const char *names[8];
    const void *bufs[8];
    size_t lens[8];
    static const char *const rank_names[8] = {"rank-0.json", "rank-1.json", "rank-2.json",
                                              "rank-3.json", "rank-4.json", "rank-5.json",
                                              "rank-6.json", "rank-7.json"};
    ck_assert_uint_le(n, 8);
    for (size_t i = 0; i < n; i++) {
        doc_raw(&d[i], "]}");
        names[i] = rank_names[i];
        bufs[i] = d[i].text;
        lens[i] = d[i].len;
    }
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, bufs, lens, n, &sem, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    return m;
}

struct model *load_doc(struct doc *d)
{
    return load_docs(d, 1);
}
