#include "config.h"

/* Times each analysis on a model loaded once: where `make bench` sees the
 * report's time less a load (noisy: two 3-second loads for one figure),
 * this runs every analysis R times over the same model, one after the
 * other on one thread, and prints per analysis the median and range of its
 * CPU time, then their sum (the report's work on one core).
 *
 *   tests/analysis/analysis_speed [-r N] [htx report options] TRACE...
 *
 * e.g. `analysis_speed -r 5 --analysis=queue,sequences rank-0.json.gz`. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "app/options.h"
#include "app/session.h"
#include "model/model.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int repeat = 3;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "-r") == 0) {
        repeat = atoi(argv[2]);
        first = 3;
    }
    if (repeat < 1 || argc <= first) {
        fprintf(stderr, "usage: %s [-r N] [htx report options] TRACE...\n", argv[0]);
        return 2;
    }
    /* argv for the option parser: "htx report" and the rest */
    char **args = calloc((size_t)(argc - first + 3), sizeof *args);
    if (!args)
        return 1;
    args[0] = "htx";
    args[1] = "report";
    for (int i = first; i < argc; i++)
        args[i - first + 2] = argv[i];
    int nargs = argc - first + 2;
    struct htx_options opts;
    htx_options_init(&opts);
    struct err e = {0, ""};
    if (htx_options_parse(&opts, nargs, args, NULL, &e) < 0)
        return app_fail(&e);
    struct model *m = app_open(&opts, &e);
    if (!m)
        return app_fail(&e);
    struct analysis_opts ao;
    htx_options_analysis(&opts, &ao);
    size_t count;
    const struct analysis_info *all = analysis_list(&count);
    double *t = calloc((size_t)repeat * count, sizeof *t);
    if (!t)
        return 1;
    /* round by round, every analysis once a round: slow minutes of the
     * machine then spread over all of them */
    for (int r = 0; r < repeat; r++)
        for (size_t i = 0; i < count; i++) {
            if (!opts.analyses[all[i].id])
                continue;
            struct arena a;
            arena_init(&a, 1 << 20);
            struct table_list l = {0};
            double t0 = cpu_now();
            int rc = all[i].run(m, &ao, &a, &l, &e);
            t[i * (size_t)repeat + (size_t)r] = cpu_now() - t0;
            arena_fini(&a);
            if (rc < 0)
                return app_fail(&e);
        }
    size_t nevents = 0;
    for (size_t r = 0; r < m->nranks; r++)
        nevents += m->ranks[r].nevents;
    printf("%zu events, %d runs each, CPU seconds: median [min-max]\n", nevents, repeat);
    double total = 0;
    for (size_t i = 0; i < count; i++) {
        if (!opts.analyses[all[i].id])
            continue;
        double *v = t + i * (size_t)repeat;
        qsort(v, (size_t)repeat, sizeof *v, cmp_double);
        double med = v[repeat / 2];
        total += med;
        printf("  %-14s %.3f [%.3f-%.3f]\n", all[i].name, med, v[0], v[repeat - 1]);
    }
    printf("  %-14s %.3f\n", "sum", total);
    free(t);
    free(args);
    model_free(m);
    htx_options_fini(&opts);
    return 0;
}
