#ifndef HTX_ANALYSIS_CALLGRAPH_H
#define HTX_ANALYSIS_CALLGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "util/err.h"

/* HTA's call graph of one rank (spec §3.9): CPU events nested per thread by
 * sorting their endpoints, GPU kernels hung under their launchers, the
 * backward thread re-parented under the main thread's annotations, depths,
 * and, for the nodes at one depth, their subtrees (callgraph_label_subtrees).
 *
 * Nodes are the rank's current rows: node i is rank->rows[i]. A node that is
 * not part of the graph (GPU streams, Triton ops with stream 0, unlinked
 * kernels) has parent CALLGRAPH_NONE and depth CALLGRAPH_NO_DEPTH.
 *
 * Semantics (m->sem.gpu_side_is_stream_field): HTA nests the events with
 * stream == -1, attaches events with stream > 0 and index_correlation > 0,
 * and counts descendants that pass the GPU-kernel predicate (§1.8). htx
 * nests every event that is not GPU side, attaches every GPU-side event with
 * a launcher, and counts GPU-side descendants. */

#define CALLGRAPH_NONE UINT32_MAX          /* not in the graph */
#define CALLGRAPH_ROOT (UINT32_MAX - 1)    /* parent of a thread's top-level events */
#define CALLGRAPH_NO_DEPTH INT32_MIN

struct callgraph {
    size_t n;                 /* nodes = rank->nrows */
    uint32_t *parent;         /* node, CALLGRAPH_ROOT or CALLGRAPH_NONE */
    int32_t *depth;           /* 0 = top level of a thread */
    /* Thread time points where a zero-length and a negative-length event
     * (§1.5) meet: HTA's endpoint comparator raises ValueError("Unexpected
     * case") there. htx orders such ends as it orders any non-zero event's. */
    uint64_t hta_conflicts;
    int64_t first_conflict_ns;
    /* Time points where ends of non-zero events and a zero-length event meet
     * and HTA's comparator is not transitive (a close before an open, the
     * zero-length event after the open and before the close). htx puts the
     * zero-length event inside the event that ends. */
    uint64_t cyclic_points;
    /* Threads whose endpoints came in the model's nesting order without a
     * sort, and threads that were sorted (the order differed). */
    size_t merged_threads, sorted_threads;
};

/* Builds the graph of one rank over its current rows. The caller owns cg's
 * arrays; release them with callgraph_fini (also after a failure). Returns 0,
 * ERR_NOMEM, or ERR_LIMIT when the rank has more rows than node ids. */
int callgraph_build(const struct model *m, const struct rank_model *r, struct callgraph *cg,
                    struct err *e);

/* Labels the subtrees of roots[0..nroots), nodes at depth d: top[v] = k
 * for roots[k] and every node below it, CALLGRAPH_NONE for every other
 * node (the subtrees of nodes at one depth never overlap). top may be
 * (uint32_t *)cg->depth, whose depths are then lost. Returns 0 or
 * ERR_INTERNAL (a broken graph). */
int callgraph_label_subtrees(const struct callgraph *cg, int32_t d, const uint32_t *roots,
                             size_t nroots, uint32_t *top);

/* Whether ev counts among a node's GPU-kernel descendants: HTA's GPU-kernel
 * predicate (§1.8) under its semantics, any GPU-side event under htx's. */
bool callgraph_counts_as_kernel(const struct model *m, const struct event *ev);

/* Frees the arrays callgraph_build allocated and zeroes cg. */
void callgraph_fini(struct callgraph *cg);

#endif
