#ifndef HTX_ANALYSIS_ANNOTATION_STACKS_H
#define HTX_ANALYSIS_ANNOTATION_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "util/err.h"

/* GPU time by CPU annotation stack (htx semantics).
 *
 * Every kernel, memcpy and memset of the rank's current rows is attributed
 * to the stack of CPU events enclosing its launching runtime call
 * (event.partner) on the launcher's thread, outermost first. "Enclosing"
 * means the launcher starts inside [a.ts, a.ts + a.dur) and ends no later
 * than a.ts + a.dur; so a zero-length annotation encloses nothing, and of
 * two overlapping, non-nested annotations only those that really contain
 * the launcher are kept (the pairs are counted in crossing). The enclosing
 * events are the ancestors in the thread's nested index (model.h,
 * struct thread_index), found in O(log n + depth) per GPU event, so an
 * annotation outside the selection's rows is not seen.
 *
 * Mode ASTACK_ANNOTATIONS keeps user_annotation events only; ASTACK_OPS
 * also keeps cpu_op and python_function events (nn.Module hierarchy).
 * A GPU event whose launcher is absent (no correlation, no ac2g flow) goes
 * to the "(launch not in trace)" node under the root, never dropped. A
 * launcher on a thread with no enclosing event leaves its GPU time as the
 * root's self time. The work of a CUDA/HIP graph (model_is_graph_work) is
 * attributed to one more node under its launch's stack: the graph launch
 * call itself (cudaGraphLaunch, hipGraphLaunch), whichever the mode.
 *
 * The result is a tree: node 0 is the root (the rank, depth 0, no name);
 * each other node is one name at one stack position. Its inclusive time
 * and count cover every GPU event at or under it; self covers those
 * attributed exactly there. Children are linked from first_child through
 * next_sibling, by inclusive time descending (ties: name, then creation).
 * Invariants (tests/analysis/check_annotation_stacks.c): the self times
 * sum to the total duration of the attributed events, every attributed
 * GPU event is at exactly one node, and a node's inclusive time is its
 * self time plus its children's inclusive times. */

#define ASTACK_NONE UINT32_MAX
#define ASTACK_NO_LAUNCH_NAME "(launch not in trace)"

enum astack_mode { ASTACK_ANNOTATIONS = 0, ASTACK_OPS };

enum astack_node_kind {
    ASTACK_ROOT = 0,
    ASTACK_EVENT,       /* an enclosing CPU event: name is its name id */
    ASTACK_NO_LAUNCH,   /* "(launch not in trace)" */
};

struct astack_node {
    uint32_t parent, first_child, next_sibling;  /* node numbers, ASTACK_NONE */
    uint32_t name;         /* id in model->strings (ASTACK_EVENT only) */
    uint32_t depth;        /* root 0 */
    uint8_t kind;          /* enum astack_node_kind */
    int64_t incl_ns, self_ns;
    uint64_t incl_count, self_count;
};

struct astack_tree {
    const struct model *m;       /* borrowed, for names */
    const struct rank_model *r;  /* borrowed; valid until the next model_select */
    struct astack_node *nodes;   /* nodes[0] is the root */
    size_t nnodes;
    /* The GPU events attributed exactly at node v (its self): positions in
     * rank->events, events[first[v] .. first[v + 1]), in row order. */
    uint32_t *events;
    size_t *first;               /* nnodes + 1 entries */
    size_t nevents;
    uint64_t no_launch;          /* GPU events without a launcher */
    uint64_t crossing;           /* kept CPU events overlapping their parent without nesting */
};

/* Builds the tree of rank r over its current rows. Returns 0, or
 * ERR_NOMEM with e set (tree then empty). Free with astack_free. */
int astack_build(const struct model *m, const struct rank_model *r, enum astack_mode mode,
                 struct astack_tree *tree, struct err *e);

void astack_free(struct astack_tree *tree);

/* Name of a node: "" for the root, ASTACK_NO_LAUNCH_NAME, or the event's. */
const char *astack_node_name(const struct astack_tree *tree, uint32_t node);

/* The node's path from the root's child down: names joined by " / ", with
 * "\" written "\\" and "/" written "\/" inside a name, so the separator
 * never appears unescaped. "" for the root. Caller frees; NULL on ENOMEM. */
char *astack_node_path(const struct astack_tree *tree, uint32_t node);

/* Is this event attributed (kernel, memcpy or memset)? */
bool astack_is_attributed(const struct event *ev);

#endif
