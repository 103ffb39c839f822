#ifndef HTX_ANALYSIS_BUSY_H
#define HTX_ANALYSIS_BUSY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/intervals.h"
#include "analysis/classify.h"
#include "model/model.h"

/* Helpers private to the temporal, kernel, overlap and idle analyses: which
 * GPU events count, their kernel class, and their merged busy intervals. */

/* Kernel class per name id, computed once per name (names repeat a lot).
 * Owns its array: release with busy_classes_fini. */
struct busy_classes {
    const struct model *m;
    const struct analysis_opts *o;
    uint8_t *cls;        /* KC_* or BUSY_CLASS_UNKNOWN, by string id */
    size_t n;
};
int busy_classes_init(struct busy_classes *c, const struct model *m,
                      const struct analysis_opts *o);
void busy_classes_fini(struct busy_classes *c);
enum kernel_class busy_class(struct busy_classes *c, uint32_t name_id);

/* Is ev GPU work that occupies the device (§3.1 "stream != -1", minus the
 * sync events unless semantics.sync_is_gpu_busy)? */
bool busy_is_gpu_event(const struct model *m, const struct event *ev);

#define BUSY_CLASS_BIT(k) (1u << (k))
#define BUSY_ALL_CLASSES 0xfu

/* Merged intervals (§2.3) of the rank's GPU events whose class is in
 * class_mask, taken in filtered-table order. *out is malloc'ed (caller
 * frees; NULL when *k = 0). Returns 0 or ERR_NOMEM. */
int busy_merged(struct busy_classes *c, const struct rank_model *r, unsigned class_mask,
                struct interval **out, size_t *k);

/* busy_merged for n <= BUSY_MAX_MASKS class masks at once (out[j], k[j] for
 * masks[j]), in one pass over the rows. On failure every out[j] is NULL. */
#define BUSY_MAX_MASKS 4
int busy_merged_each(struct busy_classes *c, const struct rank_model *r, const unsigned *masks,
                     size_t n, struct interval **out, size_t *k);

/* Adds a "(us)" double from ns. */
static inline double busy_us(int64_t ns)
{
    return (double)ns / 1000.0;
}

#endif
