#ifndef HTX_ANALYSIS_ANNOTATIONS_H
#define HTX_ANALYSIS_ANNOTATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "util/arena.h"
#include "util/err.h"

/* Kernel <-> user-annotation attribution (spec §3.8).
 *
 * HTA gives each kernel the shortest gpu_user_annotation on its own pid/tid
 * that overlaps it strictly (a.ts < k.end and k.ts < a.end), later (shorter)
 * annotations in its dur-descending sort winning ties. htx also keeps the
 * whole stack: every annotation that overlaps the kernel, outermost first in
 * that same order, so the last one is HTA's innermost.
 *
 * gpu = false uses the CPU side instead: user_annotation events on the
 * thread of the kernel's launching CPU event that overlap the launcher. For a
 * CPU event (or a kernel without a launcher) the event itself is the probe.
 *
 * An index answers these questions for one rank in O(log n + stack size)
 * after an O(n log n) build: annotations are grouped by (pid, tid), sorted by
 * ts, with a max-end segment tree per group. */

struct annot_index;

/* Builds the index over the rank's current rows (annotations outside the
 * rows are not seen). Allocated in a (freed with the arena); borrows m until
 * then, and is invalid after the next model_select. NULL on ERR_NOMEM. */
struct annot_index *annot_index_new(const struct model *m, const struct rank_model *r, bool gpu,
                                    struct arena *a, struct err *e);

/* Number of annotations in the index. Allocates nothing. */
size_t annot_index_count(const struct annot_index *x);

/* Position (in rank->events) of the innermost annotation of the event at
 * pos, or MODEL_NONE when none overlaps. Allocates nothing. */
uint32_t annot_innermost(const struct annot_index *x, uint32_t pos);

/* Writes the annotation stack of the event at pos (positions in
 * rank->events, outermost first) into out[0..cap) and returns its full
 * length; when it is longer than cap, the innermost cap entries are kept.
 * Returns 0 when none overlaps, and also when a temporary buffer cannot be
 * allocated. */
size_t annot_stack(const struct annot_index *x, uint32_t pos, uint32_t *out, size_t cap);

/* Bulk form, without allocation: the stack of the event at pos as entry
 * numbers (0 .. annot_index_count), outermost first, into entries, which must
 * hold annot_index_max_stack(x) numbers; returns the stack's length. */
size_t annot_index_max_stack(const struct annot_index *x);
size_t annot_stack_entries(const struct annot_index *x, uint32_t pos, uint32_t *entries);
/* The probe starts over which one stack stays the same: those from .. until
 * of one thread whose event ends after the same annotations start (the
 * first limit entries of group). An opaque value, filled by
 * annot_stack_entries_span. */
struct annot_span {
    const void *group;
    size_t limit;
    int64_t from, until;
};

/* annot_stack_entries that also fills span (a span that holds for no event
 * when it cannot tell). Allocates nothing. */
size_t annot_stack_entries_span(const struct annot_index *x, uint32_t pos, uint32_t *entries,
                                struct annot_span *span);

/* Whether the stack of the event at pos is the one span was filled with.
 * Allocates nothing. */
bool annot_span_holds(const struct annot_index *x, uint32_t pos, const struct annot_span *span);

/* Position in rank->events of an entry (MODEL_NONE when out of range).
 * Allocates nothing. */
uint32_t annot_entry_pos(const struct annot_index *x, uint32_t entry);

/* One-shot form for the UI: builds a temporary index of the rank, writes the
 * stack of the event at pos as annot_stack does, and sets *len to its full
 * length. O(n log n) per call: keep an annot_index for repeated queries.
 * Frees its index before returning; out is the caller's. Returns 0 or
 * ERR_NOMEM. */
int annotation_stack(const struct model *m, const struct rank_model *r, uint32_t pos, bool gpu,
                     uint32_t *out, size_t cap, size_t *len, struct err *e);

/* Is this event one of the kernels HTA attributes (the GPU-kernel predicate
 * under semantics.gpu_side_is_stream_field, GPU side otherwise)? Borrows
 * both until return. */
bool annot_is_kernel(const struct model *m, const struct event *ev);

/* Does any rank of the trace (loaded events, not only the selection) hold an
 * event of the annotation category (HTA returns None otherwise)? Borrows m
 * until return. */
bool annot_category_seen(const struct model *m, bool gpu);

#endif
