#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model/build.h"

/* CUDA and HIP graphs: one runtime call (cudaGraphLaunch, hipGraphLaunch,
 * cuGraphLaunch) launches every kernel of the graph, and each of them
 * carries that call's correlation, so each links to it. Its kernels start
 * when the graph reaches them, long after the call: their launch delay is
 * the graph's, not theirs. */

static bool is_gpu_work(const struct event *ev)
{
    return ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY || ev->kind == EV_KIND_MEMSET;
}

static bool is_launcher(const struct event *ev)
{
    return ev->kind == EV_KIND_RUNTIME || ev->kind == EV_KIND_DRIVER;
}

/* The call's name says it launches a graph. */
static bool graph_launch_name(const struct model *m, uint32_t name)
{
    const char *s = model_str(m, name);
    return strstr(s, "GraphLaunch") != NULL;
}

/* The launcher of GPU event ev, or MODEL_NONE. */
static uint32_t launcher_of(const struct rank_model *r, const struct event *ev)
{
    if (!is_gpu_work(ev) || ev->partner == MODEL_NONE || ev->partner >= r->nevents)
        return MODEL_NONE;
    return is_launcher(&r->events[ev->partner]) ? ev->partner : MODEL_NONE;
}

int model_find_graphs(const struct model *m, struct rank_model *r, struct err *e)
{
    free(r->graph_launches);
    r->graph_launches = NULL;
    r->ngraph_launches = 0;
    r->graph_kernels = 0;
    /* kernels[p]: kernels launched by the call at p, saturating at 2 (2 at
     * once for a call named as a graph launch) */
    uint8_t *kernels = r->nevents ? calloc(r->nevents, 1) : NULL;
    if (r->nevents && !kernels)
        return err_set(e, ERR_NOMEM, "out of memory finding graph launches");
    size_t n = 0;
    for (size_t i = 0; i < r->nevents; i++) {
        uint32_t p = launcher_of(r, &r->events[i]);
        if (p == MODEL_NONE)
            continue;
        if (kernels[p] == 0 && graph_launch_name(m, r->events[p].name))
            kernels[p] = 2;   // a graph even with one kernel
        else if (kernels[p] < 2 && r->events[i].kind == EV_KIND_KERNEL)
            kernels[p]++;
    }
    for (size_t i = 0; i < r->nevents; i++)
        n += kernels[i] >= 2;
    r->graph_launches = n ? malloc(n * sizeof *r->graph_launches) : NULL;
    if (n && !r->graph_launches) {
        free(kernels);
        return err_set(e, ERR_NOMEM, "out of memory finding graph launches");
    }
    for (size_t i = 0; i < r->nevents; i++)
        if (kernels[i] >= 2)
            r->graph_launches[r->ngraph_launches++] = (uint32_t)i;
    free(kernels);
    for (size_t i = 0; i < r->nevents && n; i++)
        r->graph_kernels += model_is_graph_work(r, &r->events[i]);
    return 0;
}

bool model_is_graph_launch(const struct rank_model *r, uint32_t pos)
{
    size_t lo = 0, hi = r->ngraph_launches;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->graph_launches[mid] == pos)
            return true;
        if (r->graph_launches[mid] < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

bool model_is_graph_work(const struct rank_model *r, const struct event *ev)
{
    if (r->ngraph_launches == 0)
        return false;
    uint32_t p = launcher_of(r, ev);
    return p != MODEL_NONE && model_is_graph_launch(r, p);
}
