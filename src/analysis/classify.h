#ifndef HTX_ANALYSIS_CLASSIFY_H
#define HTX_ANALYSIS_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Kernel classification (spec §2.1) and short names (§2.2). Names it
 * returns are static strings. */

/* §2.1 kernel classification. hta_rules: HTA's exact rules (pass
 * m->sem.hta_kernel_classes). Otherwise htx's: nccl/rccl/hccl prefixes and
 * ncclKernel/ncclDevKernel/rcclKernel anywhere, and expert-parallel all-to-all
 * kernels (DeepEP deep_ep::/…::ep:: intranode/internode/internode_ll, mori
 * EpDispatch/EpCombine, pplx dispatch/combine, nvshmem_/nvshmemi_/nvshmemx_
 * device code) are COMMUNICATION; Memcpy,
 * Memset, hipMemcpy, hipMemset, dma prefixes are MEMORY; the sync events
 * (Stream Sync, Stream Wait Event, Event Sync, Context Sync), cuda*LaunchKernel,
 * hip runtime API names (hip + uppercase) and MTIA executors are OTHER;
 * everything else (hip compute kernels, fused_adamax...) is COMPUTATION.
 * kernel_classify_with first tries the user's comma-separated name prefixes
 * (NULL = none) for COMMUNICATION, then MEMORY. Borrows its strings. */
enum kernel_class { KC_COMPUTATION = 0, KC_COMMUNICATION, KC_MEMORY, KC_OTHER };
enum kernel_class kernel_classify(const char *name, bool hta_rules);
enum kernel_class kernel_classify_with(const char *name, bool hta_rules,
                                       const char *comm_patterns, const char *memory_patterns);
const char *kernel_class_name(enum kernel_class k);

/* §2.2 short names. Writes into out (size outsz, always NUL-terminated). */
void shorten_name(const char *name, char *out, size_t outsz);

#endif
