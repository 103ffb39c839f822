#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/scan.h"
#include "trace/source.h"

/* Seeds for the fuzz targets from real or generated traces, made at fuzz
 * time so no trace is copied into the repository:
 *
 *   seed-slices TRACE OUTDIR PREFIX [SLICES] [EVENTS]
 *
 * cuts SLICES (default 8) windows of EVENTS (default 12) consecutive
 * traceEvents elements, spread over the file, and writes each as a small
 * document OUTDIR/PREFIX-N.json holding the file's distributedInfo and
 * deviceProperties too. The elements are copied byte for byte (the
 * scanner's split), so the seeds keep the file's exact spelling. */

struct slicer {
    FILE *out[64];
    uint64_t start[64];
    int nslices, nevents;
    uint64_t total;       /* elements in the file (second pass) */
    char *members;        /* ,"key":value for the kept members */
    size_t members_len;
};

static int count_element(void *ctx, uint64_t index, uint64_t offset, const char *text,
                         size_t len, struct err *e)
{
    (void)offset, (void)text, (void)len, (void)e;
    ((struct slicer *)ctx)->total = index + 1;
    return 0;
}

static int keep_member(void *ctx, const char *key, size_t key_len, uint64_t offset,
                       const char *text, size_t len, struct err *e)
{
    (void)offset, (void)e;
    struct slicer *s = ctx;
    if (!(key_len == 15 && memcmp(key, "distributedInfo", 15) == 0) &&
        !(key_len == 16 && memcmp(key, "deviceProperties", 16) == 0))
        return 0;
    if (len > 4096)
        return 0;
    char *grown = realloc(s->members, s->members_len + key_len + len + 8);
    if (!grown)
        return -1;
    s->members = grown;
    s->members_len += (size_t)sprintf(s->members + s->members_len, ",\"%.*s\":%.*s", (int)key_len,
                                      key, (int)len, text);
    return 0;
}

static int slice_element(void *ctx, uint64_t index, uint64_t offset, const char *text,
                         size_t len, struct err *e)
{
    (void)offset, (void)e;
    struct slicer *s = ctx;
    for (int i = 0; i < s->nslices; i++)
        if (s->out[i] && index >= s->start[i] && index < s->start[i] + (uint64_t)s->nevents) {
            if (index > s->start[i])
                fputc(',', s->out[i]);
            fwrite(text, 1, len, s->out[i]);
        }
    return 0;
}

static int scan(const char *path, const struct trace_scan_handler *h)
{
    struct err e = {0, ""};
    struct trace_source *src = trace_source_open_file(path, NULL, &e);
    if (!src) {
        fprintf(stderr, "seed-slices: %s: %s\n", path, e.msg);
        return 1;
    }
    int rc = trace_scan_document(src, NULL, 0, h, &e);
    trace_source_close(src);
    if (rc)
        fprintf(stderr, "seed-slices: %s: %s\n", path, e.msg);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: seed-slices TRACE OUTDIR PREFIX [SLICES] [EVENTS]\n");
        return 2;
    }
    struct slicer s = {.nslices = argc > 4 ? atoi(argv[4]) : 8,
                       .nevents = argc > 5 ? atoi(argv[5]) : 12};
    if (s.nslices < 1 || s.nslices > 64 || s.nevents < 1)
        return 2;
    struct trace_scan_handler count = {.ctx = &s, .element = count_element, .member = keep_member};
    if (scan(argv[1], &count))
        return 1;
    for (int i = 0; i < s.nslices; i++) {
        char name[4096];
        snprintf(name, sizeof name, "%s/%s-%d.json", argv[2], argv[3], i);
        s.start[i] = s.total * (uint64_t)i / (uint64_t)s.nslices;
        s.out[i] = fopen(name, "w");
        if (!s.out[i]) {
            perror(name);
            return 1;
        }
        fprintf(s.out[i], "{\"traceEvents\":[");
    }
    struct trace_scan_handler slice = {.ctx = &s, .element = slice_element};
    int rc = scan(argv[1], &slice);
    for (int i = 0; i < s.nslices; i++) {
        fprintf(s.out[i], "]%.*s}\n", (int)s.members_len, s.members ? s.members : "");
        if (fclose(s.out[i]) != 0)
            rc = 1;
    }
    free(s.members);
    return rc;
}
