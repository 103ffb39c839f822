#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "analysis/annotation_tree.h"
#include "model/model.h"
#include "ui/actions.h"
#include "ui/term/draw.h"
#include "ui/widgets/grid.h"
#include "ui/screen.h"
#include "ui/refresh.h"
#include "ui/term/term.h"
#include "ui/views/timeline_lanes.h"

/* make bench: the time of one full timeline redraw (compose the screen
 * into a grid, headless) with a cell area of 200 columns x 60 lanes, on
 * synthetic traces of N events (one rank, or spread over R ranks) loaded
 * through model_load_buffers, or on trace files given with --load.
 * Target (DESIGN.md): under 16 ms at 1 M and at 10 M events.
 *
 * With --annotations, the synthetic trace gets CPU annotations and the
 * bench times the annotation attribution against the load instead.
 *
 * Usage: bench_ui [--events N] [--ranks R] [--streams S] [--annotations] [--load PATH...] */

#define CELLS_W 200
#define CELLS_H 60
#define REPEAT 20

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* With --annotations: CPU user annotations on the launching thread, a
 * ProfilerStep per ANNOT_STEP of time with ANNOT_LAYERS nested "layer"
 * annotations in it, so every launch has a stack of two. */
#define ANNOT_STEP 100000
#define ANNOT_LAYERS 10

static size_t annotate(char *buf, size_t n, size_t cap, int64_t end)
{
    for (int64_t s = 0; s * ANNOT_STEP < end && n + 512 < cap; s++) {
        n += (size_t)snprintf(buf + n, cap - n,
                              ",{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":"
                              "\"ProfilerStep#%lld\",\"pid\":1,\"tid\":1,\"ts\":%lld,\"dur\":%d}",
                              (long long)s, (long long)(s * ANNOT_STEP), ANNOT_STEP);
        for (int l = 0; l < ANNOT_LAYERS && n + 512 < cap; l++)
            n += (size_t)snprintf(buf + n, cap - n,
                                  ",{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":"
                                  "\"layer %d\",\"pid\":1,\"tid\":1,\"ts\":%lld,\"dur\":%d}",
                                  l, (long long)(s * ANNOT_STEP + l * (ANNOT_STEP / ANNOT_LAYERS)),
                                  ANNOT_STEP / ANNOT_LAYERS);
    }
    return n;
}

/* A rank's trace: S streams of back-to-back kernels (names from a small
 * catalogue: compute, NCCL, memcpy), each launched by a runtime call. */
static bool with_annotations;

static char *synth_rank(int rank, size_t nevents, int streams, size_t *len)
{
    static const char *names[] = {"sgemm_128x64_nn", "ncclDevKernel_AllReduce_Sum_f32",
                                  "elementwise_add_kernel", "softmax_warp_forward",
                                  "Memcpy DtoD (Device -> Device)"};
    size_t cap = nevents * 150 + 4096, n = 0;
    char *buf = malloc(cap);
    int64_t *t = calloc((size_t)streams, sizeof *t);
    unsigned seed = 12345u + (unsigned)rank;

    if (!buf || !t) {
        free(buf);
        free(t);
        return NULL;
    }
    n += (size_t)snprintf(buf + n, cap - n,
                          "{\"distributedInfo\":{\"rank\":%d},\"traceEvents\":[", rank);
    for (size_t i = 0; i < nevents / 2; i++) {
        seed = seed * 1103515245u + 12345u;
        int s = (int)((seed >> 8) % (unsigned)streams);
        int k = (int)((seed >> 4) % 5);
        int64_t dur = 2 + (seed >> 16) % 200, gap = (seed >> 12) % 50;
        t[s] += gap;
        n += (size_t)snprintf(buf + n, cap - n,
                              "%s{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\","
                              "\"pid\":1,\"tid\":1,\"ts\":%lld,\"dur\":3,\"args\":{\"correlation\":%zu}},"
                              "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":0,\"tid\":%d,"
                              "\"ts\":%lld,\"dur\":%lld,\"args\":{\"stream\":%d,\"correlation\":%zu}}",
                              i ? "," : "", (long long)(t[s] > 5 ? t[s] - 5 : 0), i,
                              k == 4 ? "gpu_memcpy" : "kernel", names[k], s + 7, (long long)t[s],
                              (long long)dur, s + 7, i);
        t[s] += dur;
    }
    int64_t end = 0;
    for (int s = 0; s < streams; s++)
        end = t[s] > end ? t[s] : end;
    if (with_annotations)
        n = annotate(buf, n, cap, end);
    n += (size_t)snprintf(buf + n, cap - n, "]}");
    free(t);
    *len = n;
    return buf;
}

static double load_secs;   /* of the last synth_model: model_load_buffers alone */

static struct model *synth_model(size_t events, int ranks, int streams)
{
    const char **names = calloc((size_t)ranks, sizeof *names);
    const void **bufs = calloc((size_t)ranks, sizeof *bufs);
    size_t *lens = calloc((size_t)ranks, sizeof *lens);
    char (*fname)[32] = calloc((size_t)ranks, sizeof *fname);
    struct semantics sem;
    struct err e = {0, ""};
    struct model *m = NULL;

    semantics_init(&sem, SEMANTICS_HTX);
    for (int r = 0; names && bufs && lens && fname && r < ranks; r++) {
        snprintf(fname[r], sizeof fname[r], "rank-%d.json", r);
        names[r] = fname[r];
        bufs[r] = synth_rank(r, events / (size_t)ranks, streams, &lens[r]);
        if (!bufs[r])
            goto out;
    }
    double t0 = now();
    m = model_load_buffers(names, bufs, lens, (size_t)ranks, &sem, &e);
    load_secs = now() - t0;
    if (!m)
        fprintf(stderr, "bench_ui: %s\n", e.msg);
out:
    for (int r = 0; bufs && r < ranks; r++)
        free((void *)bufs[r]);
    free(names);
    free(bufs);
    free(lens);
    free(fname);
    return m;
}

/* Sizes the screen so that the timeline's cell area is CELLS_W x CELLS_H. */
static void size_screen(struct ui_state *st, struct model *m)
{
    struct err e = {0, ""};

    for (int cols = CELLS_W; cols < CELLS_W + 200; cols++) {
        st->cols = cols;
        st->rows = CELLS_H + 10;
        ui_refresh(st, m, UI_RELAYOUT, &e);
        if (ui_timeline_cols(st) == CELLS_W)
            break;
    }
    while (ui_timeline_lane_rows(st) > CELLS_H) {
        st->rows--;
        ui_refresh(st, m, UI_RELAYOUT, &e);
    }
}

/* REPEAT redraws: the best and the worst frame, in ms (a user sees the
 * worst one). */
static double time_redraws(struct ui_state *st, const struct model *m, struct ui_grid *g,
                           double *worst)
{
    double best = 1e9;

    *worst = 0;
    for (int i = 0; i < REPEAT; i++) {
        double t0 = now();
        ui_screen_compose(st, m, g);
        double dt = now() - t0;
        best = dt < best ? dt : best;
        *worst = dt > *worst ? dt : *worst;
    }
    *worst *= 1e3;
    return best * 1e3;
}

/* Painting the composed grid with curses (headless, every cell). */
static double time_paint(struct ui_state *st, const struct model *m, struct ui_grid *g)
{
    struct ui_term_opts o = {false, true, true, st->rows, st->cols};
    struct err e = {0, ""};
    double best = 1e9;

    if (ui_term_open(&o, &e) != 0)
        return -1;
    ui_screen_compose(st, m, g);
    for (int i = 0; i < 5; i++) {
        double t0 = now();
        ui_draw_grid(g, true);
        double dt = now() - t0;
        best = dt < best ? dt : best;
    }
    ui_term_close();
    return best * 1e3;
}

static int bench(struct model *m, const char *label)
{
    struct ui_state st;
    struct ui_grid g;
    struct err e = {0, ""};
    size_t events = 0;

    for (size_t r = 0; r < m->nranks; r++)
        events += m->ranks[r].nevents;
    if (ui_state_init(&st, m, 70, 220) != 0 || ui_refresh(&st, m, UI_RESELECT | UI_RELANE, &e))
        return 1;
    // Every stream of every rank is a lane; CPU threads too, up to 60 lanes.
    for (size_t r = 0; r < st.nranks; r++)
        for (size_t t = 0; t < st.ranks[r].nthreads; t++)
            st.ranks[r].thread_on[t] = true;
    ui_refresh(&st, m, UI_RELANE, &e);
    size_screen(&st, m);
    if (ui_grid_init(&g, st.rows, st.cols, false) != 0)
        return 1;
    size_t lanes = st.nlanes < ui_timeline_lane_rows(&st) ? st.nlanes : ui_timeline_lane_rows(&st);
    double fit_worst, zoomed_worst;
    double fit = time_redraws(&st, m, &g, &fit_worst);
    for (int i = 0; i < 10; i++)
        ui_dispatch(&st, m, '+');   // 1/1024 of the trace
    double zoomed = time_redraws(&st, m, &g, &zoomed_worst);
    double paint = time_paint(&st, m, &g);
    printf("timeline redraw %-14s %9zu events %2zu ranks, %3d x %2zu cells: fit %5.2f ms "
           "(worst of %d %5.2f), zoomed x1024 %5.2f ms (worst %5.2f) (target: worst < 16 ms); "
           "curses paint %5.2f ms\n",
           label, events, m->nranks, ui_timeline_cols(&st), lanes, fit, REPEAT, fit_worst, zoomed,
           zoomed_worst, paint);
    ui_grid_fini(&g);
    ui_state_fini(&st);
    return fit_worst < 16 && zoomed_worst < 16 ? 0 : 2;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The target: attributing every GPU event to its annotation stack costs
 * less than loading. Times the view's tree (over every rank) and
 * the headless tables, ATTR_RUNS times each, against the load. */
#define ATTR_RUNS 3
static int bench_attribution(struct model *m, size_t events)
{
    double tree[ATTR_RUNS], tables[ATTR_RUNS];
    struct analysis_opts o;
    analysis_opts_default(&o);
    for (int i = 0; i < ATTR_RUNS; i++) {
        struct atree t;
        struct err e = {0, ""};
        double t0 = now();
        if (atree_build(m, ASTACK_ANNOTATIONS, &t, &e) != 0) {
            fprintf(stderr, "bench_ui: %s\n", e.msg);
            return 1;
        }
        tree[i] = now() - t0;
        if (i == 0)
            fprintf(stderr, "bench_ui: tree of %zu nodes over %zu GPU events\n", t.nnodes,
                    (size_t)t.nodes[0].count);
        atree_free(&t);
        struct arena a;
        struct table_list l = {.count = 0};
        arena_init(&a, 1 << 20);
        t0 = now();
        if (annotation_stack_tables(m, &o, &a, &l, &e) != 0) {
            fprintf(stderr, "bench_ui: %s\n", e.msg);
            arena_fini(&a);
            return 1;
        }
        tables[i] = now() - t0;
        arena_fini(&a);
    }
    qsort(tree, ATTR_RUNS, sizeof tree[0], cmp_double);
    qsort(tables, ATTR_RUNS, sizeof tables[0], cmp_double);
    printf("annotation attribution %9zu events: load %.2f s; view tree %.2f s [%.2f-%.2f] = "
           "%.2fx the load; headless stack tables %.2f s [%.2f-%.2f] = %.2fx the load "
           "(target < 1x)\n",
           events, load_secs, tree[ATTR_RUNS / 2], tree[0], tree[ATTR_RUNS - 1],
           tree[ATTR_RUNS / 2] / load_secs, tables[ATTR_RUNS / 2], tables[0],
           tables[ATTR_RUNS - 1], tables[ATTR_RUNS / 2] / load_secs);
    return tree[ATTR_RUNS / 2] < load_secs && tables[ATTR_RUNS / 2] < load_secs ? 0 : 2;
}

int main(int argc, char **argv)
{
    size_t events = 1000000;
    int ranks = 1, streams = 60, status = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--events") == 0 && i + 1 < argc) {
            events = (size_t)strtod(argv[++i], NULL);
        } else if (strcmp(argv[i], "--ranks") == 0 && i + 1 < argc) {
            ranks = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--streams") == 0 && i + 1 < argc) {
            streams = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--annotations") == 0) {
            with_annotations = true;
        } else if (strcmp(argv[i], "--load") == 0) {
            struct semantics sem;
            struct load_opts lo = {0};
            struct err e = {0, ""};
            semantics_init(&sem, SEMANTICS_HTX);
            struct model *m = model_load((const char *const *)argv + i + 1, (size_t)(argc - i - 1),
                                         &sem, &lo, &e);
            if (!m) {
                fprintf(stderr, "bench_ui: %s\n", e.msg);
                return 1;
            }
            status |= bench(m, "(trace files)");
            model_free(m);
            return status;
        } else {
            fprintf(stderr, "usage: bench_ui [--events N] [--ranks R] [--streams S] "
                            "[--annotations] [--load PATH...]\n");
            return 2;
        }
    }
    if (ranks < 1 || streams < 1 || events < 2) {
        fprintf(stderr, "bench_ui: bad sizes\n");
        return 2;
    }
    double t0 = now();
    struct model *m = synth_model(events, ranks, streams);
    if (!m)
        return 1;
    fprintf(stderr, "bench_ui: %zu synthetic events loaded in %.1f s\n", events, now() - t0);
    status = with_annotations ? bench_attribution(m, events) : bench(m, "(synthetic)");
    model_free(m);
    return status;
}
