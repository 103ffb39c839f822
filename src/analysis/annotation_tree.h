#ifndef HTX_ANALYSIS_ANNOTATION_TREE_H
#define HTX_ANALYSIS_ANNOTATION_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/annotation_stacks.h"
#include "model/model.h"
#include "util/err.h"

/* The annotation tree of the selected ranks (the view's data):
 * each selected rank's stack tree (annotation_stacks.h) merged by path,
 * with the GPU events attributed exactly at a node split by their name
 * into kernel leaves, as ncdu splits a directory into its files.
 *
 * Node 0 is the root. A stack node (ATREE_STACK) is one name at one stack
 * position, or the "(launch not in trace)" node; a leaf (ATREE_KERNEL) is
 * one kernel, memcpy or memset name directly under a stack node. Times
 * are summed over the selected ranks; min and max are a node's inclusive
 * time over those ranks, a rank without the node counting 0, and
 * slowest_rank the rank of the max (lowest rank number on ties).
 * Children are linked from first_child through next_sibling, by inclusive
 * time descending, then stack nodes before leaves, then by name.
 * Invariants (tests/analysis/check_annotation_tree.c): inclusive = self +
 * the children's inclusive; a stack node's self is the sum of its leaves;
 * the leaves' times sum to the root's inclusive time, which is the total
 * duration of the attributed events of the selected ranks. */

#define ATREE_NONE UINT32_MAX

enum atree_kind { ATREE_ROOT = 0, ATREE_STACK, ATREE_NO_LAUNCH, ATREE_KERNEL };

struct atree_node {
    uint32_t parent, first_child, next_sibling;
    uint32_t name;          /* model string id (ATREE_STACK, ATREE_KERNEL) */
    uint32_t depth;         /* root 0 */
    uint8_t kind;           /* enum atree_kind */
    uint32_t nranks;        /* selected ranks having the node */
    int64_t incl_ns, self_ns;
    uint64_t count;         /* GPU events at or under the node */
    int64_t min_ns, max_ns; /* inclusive over the selected ranks */
    int64_t slowest_rank;
};

struct atree {
    const struct model *m;
    struct atree_node *nodes;
    size_t nnodes;
    size_t nranks;                 /* selected ranks merged */
    struct astack_tree *ranks;     /* their own trees, in model order */
    uint32_t *rank_node;           /* [node * nranks + k]: node's stack node in
                                      ranks[k] (a leaf: its parent's), or ASTACK_NONE */
    uint32_t *preorder;            /* nodes depth first, children in their order */
    uint32_t *preorder_pos;        /* inverse of preorder */
    uint64_t no_launch, crossing;  /* summed over the ranks */
};

/* Builds the tree of m's selected ranks in `mode`. Returns 0, or ERR_NOMEM
 * with e set (tree then empty). Valid until the next model_select; free
 * with atree_free. */
int atree_build(const struct model *m, enum astack_mode mode, struct atree *t, struct err *e);
void atree_free(struct atree *t);

/* "" for the root, ASTACK_NO_LAUNCH_NAME, or the name. */
const char *atree_name(const struct atree *t, uint32_t node);

/* The GPU events at or under node, over every merged rank, by start time
 * (ties: rank, then position): *out (malloc'd; caller frees) receives
 * *n pairs (model rank index, position in that rank's events). Returns 0
 * or ERR_NOMEM. */
struct atree_event {
    uint32_t rank, pos;
};
int atree_events(const struct atree *t, uint32_t node, struct atree_event **out, size_t *n);

/* Next node after `from` in depth-first order (children in their order),
 * wrapping (dir +1) or the previous one (dir -1), whose name `match`
 * accepts; ATREE_NONE when none. The root never matches. (The matcher is
 * the caller's: the view's text search.) */
uint32_t atree_find(const struct atree *t, uint32_t from, int dir,
                    bool (*match)(const char *name, const void *ctx), const void *ctx);

#endif
