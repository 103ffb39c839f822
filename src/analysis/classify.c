#include "config.h"
#include "analysis/classify.h"

#include <stdlib.h>
#include <string.h>

/* ---- kernel classification (§2.1) ---------------------------------------- */

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool starts_any(const char *s, const char *const *prefixes)
{
    for (; *prefixes; prefixes++)
        if (starts(s, *prefixes))
            return true;
    return false;
}

static bool is_memory_name(const char *name)
{
    static const char *const mem[] = {"Memcpy", "Memset", "hipMemcpy", "hipMemset", "dma", NULL};
    return starts_any(name, mem);
}

/* Names of device-side work that is neither compute nor data movement in
 * both rule sets: MTIA executors and runtime calls that carry a stream. */
static const char *const not_compute_prefixes[] = {
    "runFunction", "job_exe", "packet", "pe_exe", "cpum_exe_subgraph",
    "collective_subgraph_execution", NULL};

static bool is_cuda_launch(const char *name)
{
    return starts(name, "cuda") && strstr(name + 4, "LaunchKernel");
}

static enum kernel_class classify_hta(const char *name)
{
    static const char *const comm[] = {"nccl", "hip", "hccl", NULL};
    if (starts_any(name, comm) || strstr(name, "ncclKernel"))
        return KC_COMMUNICATION;
    if (is_memory_name(name))
        return KC_MEMORY;
    if (strstr(name, "Memcpy") || strstr(name, "Memset") || strstr(name, "dma") ||
        strstr(name, "Sync") || starts(name, "Stream Wait Event") || is_cuda_launch(name) ||
        starts_any(name, not_compute_prefixes))
        return KC_OTHER;
    return KC_COMPUTATION;
}

/* Expert-parallel all-to-all kernels move tokens between GPUs and are
 * communication, though they are not NCCL: DeepEP's dispatch/combine
 * (deep_ep::, and vendored copies such as dpsk::ep::) in the intranode,
 * internode and low-latency internode_ll namespaces, AMD mori's
 * Ep{Dispatch,Combine}*Kernel, pplx-kernels' dispatch/combine, and kernels
 * of the NVSHMEM runtime itself. Names come demangled with a return type
 * ("void deep_ep::internode::dispatch<...>(...)"), hence substrings. The
 * layout pass (get_dispatch_layout) only counts tokens: computation. */
static bool is_expert_parallel_comm(const char *name)
{
    /* an "ep" namespace: deep_ep::, dpsk::ep::, ep:: (not sleep::) */
    static const char *const ep_spaces[] = {"ep::intranode::", "ep::internode::",
                                            "ep::internode_ll::", NULL};
    static const char *const markers[] = {"mori::moe::EpDispatch", "mori::moe::EpCombine",
                                          "pplx::dispatchKernel", "pplx::combineKernel", NULL};
    if (strstr(name, "get_dispatch_layout"))
        return false;
    for (size_t i = 0; ep_spaces[i]; i++)
        for (const char *p = strstr(name, ep_spaces[i]); p; p = strstr(p + 1, ep_spaces[i]))
            if (p == name || p[-1] == '_' || p[-1] == ':' || p[-1] == ' ')
                return true;
    for (size_t i = 0; markers[i]; i++)
        if (strstr(name, markers[i]))
            return true;
    /* nvshmem_/nvshmemi_/nvshmemx_ device code at the start of the name or
     * after the return type */
    const char *nv = strstr(name, "nvshmem");
    return nv && (nv == name || nv[-1] == ' ' || nv[-1] == ':') &&
           (nv[7] == '_' || ((nv[7] == 'i' || nv[7] == 'x') && nv[8] == '_'));
}

/* htx: NCCL/RCCL/HCCL by prefix or kernel-name marker; `hip` compute kernels
 * and names that merely contain "dma"/"Memcpy"/"Sync" are computation; only
 * the CUDA/HIP sync events, runtime-looking calls and MTIA executors are
 * OTHER. */
static enum kernel_class classify_htx(const char *name)
{
    static const char *const comm[] = {"nccl", "rccl", "hccl", NULL};
    static const char *const sync[] = {"Stream Sync", "Stream Wait Event", "Event Sync",
                                       "Context Sync", "Device Synchronize", NULL};
    if (starts_any(name, comm) || strstr(name, "ncclKernel") || strstr(name, "ncclDevKernel") ||
        strstr(name, "rcclKernel") || is_expert_parallel_comm(name))
        return KC_COMMUNICATION;
    if (is_memory_name(name))
        return KC_MEMORY;
    /* hipLaunchKernel, hipStreamSynchronize...: HIP runtime API names. */
    bool hip_api = starts(name, "hip") && name[3] >= 'A' && name[3] <= 'Z';
    if (starts_any(name, sync) || is_cuda_launch(name) || hip_api ||
        starts_any(name, not_compute_prefixes))
        return KC_OTHER;
    return KC_COMPUTATION;
}

enum kernel_class kernel_classify(const char *name, bool hta_rules)
{
    if (!name)
        return KC_OTHER;
    return hta_rules ? classify_hta(name) : classify_htx(name);
}

/* Does name start with one of the comma-separated prefixes of list? */
static bool matches_pattern_list(const char *name, const char *list)
{
    while (list && *list) {
        const char *comma = strchr(list, ',');
        size_t len = comma ? (size_t)(comma - list) : strlen(list);
        if (len > 0 && strncmp(name, list, len) == 0)
            return true;
        list = comma ? comma + 1 : NULL;
    }
    return false;
}

enum kernel_class kernel_classify_with(const char *name, bool hta_rules,
                                       const char *comm_patterns, const char *memory_patterns)
{
    if (name && matches_pattern_list(name, comm_patterns))
        return KC_COMMUNICATION;
    if (name && matches_pattern_list(name, memory_patterns))
        return KC_MEMORY;
    return kernel_classify(name, hta_rules);
}

const char *kernel_class_name(enum kernel_class k)
{
    switch (k) {
    case KC_COMPUTATION: return "COMPUTATION";
    case KC_COMMUNICATION: return "COMMUNICATION";
    case KC_MEMORY: return "MEMORY";
    case KC_OTHER: break;
    }
    return "OTHER";
}

/* ---- short names (§2.2) -------------------------------------------------- */

/* Pops the stack down to (and including) the nearest open bracket. */
static size_t pop_to(const char *stack, size_t top, char open)
{
    while (top > 0 && stack[top - 1] != open)
        top--;
    return top > 0 ? top - 1 : 0;
}

static void copy_out(const char *s, size_t len, char *out, size_t outsz)
{
    if (outsz == 0)
        return;
    if (len >= outsz)
        len = outsz - 1;
    memcpy(out, s, len);
    out[len] = '\0';
}

void shorten_name(const char *name, char *out, size_t outsz)
{
    if (!name)
        name = "";
    size_t len = strlen(name);
    if (is_memory_name(name) || (!strchr(name, '<') && !strchr(name, '('))) {
        copy_out(name, len, out, outsz);
        return;
    }
    char small[512];
    char *stack = len < sizeof small ? small : malloc(len + 1);
    if (!stack) {
        copy_out(name, len, out, outsz);
        return;
    }
    size_t top = 0;
    for (size_t i = 0; i < len; i++) {
        char c = name[i];
        if (c == '-' && name[i + 1] == '>') {
            i++;   /* "->" is deleted before the scan */
            continue;
        }
        if (c == '>')
            top = pop_to(stack, top, '<');
        else if (c == ')')
            top = pop_to(stack, top, '(');
        else
            stack[top++] = c;
    }
    size_t start = top;
    while (start > 0 && stack[start - 1] != ' ')
        start--;
    copy_out(stack + start, top - start, out, outsz);
    if (stack != small)
        free(stack);
}
