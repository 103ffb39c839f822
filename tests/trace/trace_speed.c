#include "config.h"

/* Times the trace reader on the given files, one after the other, with a
 * sink that only counts: the parse throughput without the model. Prints
 * per file the uncompressed size, the time, MB/s and events/s. With -p,
 * every event is also recorded into a pack (trace/pack.h) as summarize
 * does, without deflating it: what recording costs the reader's thread. */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace/event.h"
#include "trace/pack.h"
#include "trace/read.h"
#include "trace/source.h"

struct counts {
    uint64_t events, x_events, warnings;
    int64_t ts_sum;
};

static int count_event(void *ctx, const struct trace_event *ev, struct err *e)
{
    (void)e;
    struct counts *c = ctx;
    c->events++;
    c->x_events += ev->ph == TRACE_PH_X;
    c->ts_sum += ev->ts.ns;
    return 0;
}

static void count_warning(void *ctx, const struct trace_warning *w)
{
    (void)w;
    ((struct counts *)ctx)->warnings++;
}

/* CPU time of this process: on a shared machine, less noisy than the wall
 * clock (compare with the user+sys time of gzip -dc). */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int time_file(const char *path, int repeat, bool pack)
{
    double best = 0;
    uint64_t doc = 0;
    struct counts c = {0};
    for (int r = 0; r < repeat; r++) {
        struct err e = {0};
        c = (struct counts){0};
        struct trace_sink sink = {.ctx = &c, .event = count_event, .warning = count_warning};
        struct trace_pack *p = pack ? trace_pack_new(path) : NULL;
        if (p) {
            struct trace_sink tee;
            trace_pack_sink(p, &sink, &tee);
            sink = tee;
        }
        struct trace_source *src = trace_source_open_file(path, NULL, &e);
        if (!src) {
            fprintf(stderr, "%s: %s\n", path, e.msg);
            return 1;
        }
        double t0 = now();
        int rc = trace_read_source(src, path, &sink, NULL, 0, &e);
        double t = now() - t0;
        trace_pack_free(p);
        doc = trace_source_doc_bytes(src);
        trace_source_close(src);
        if (rc) {
            fprintf(stderr, "%s\n", e.msg);
            return 1;
        }
        if (r == 0 || t < best)
            best = t;
    }
    printf("%s: %.1f MB uncompressed, %llu elements (%llu X, %llu warnings), best of %d: "
           "%.3f s CPU, %.0f MB/s, %.2f M events/s\n",
           path, (double)doc / 1e6, (unsigned long long)c.events, (unsigned long long)c.x_events,
           (unsigned long long)c.warnings, repeat, best, (double)doc / 1e6 / best,
           (double)c.events / 1e6 / best);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: trace_speed [-r N] [-p] FILE...\n");
        return 2;
    }
    int repeat = 3, i = 1;
    bool pack = false;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-p") == 0) {
            pack = true;
        } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
        } else {
            fprintf(stderr, "trace_speed: unknown option %s\nusage: trace_speed [-r N] [-p] FILE...\n",
                    argv[i]);
            return 2;
        }
    }
    int status = 0;
    for (; i < argc; i++)
        status |= time_file(argv[i], repeat < 1 ? 1 : repeat, pack);
    return status;
}
