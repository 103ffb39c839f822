#ifndef HTX_ANALYSIS_BUSY_H
#define HTX_ANALYSIS_BUSY_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/intervals.h"
#include "analysis/classify.h"
#include "model/model.h"

/* Helpers private to the temporal, kernel, overlap and idle analyses: which
 * GPU events count, their kernel class, and their merged busy intervals. */

#define BUSY_CLASS_UNKNOWN 0xff   /* in struct busy_classes: not classified yet */

/* Kernel class per name id, computed once per name (names repeat a lot).
 * Owns its array: release with busy_classes_fini. Starts from o->busy_memo's
 * classes when that memo is of the same model and kernel patterns: a
 * name's class takes thousands of instructions of strstr (demangled
 * templates run to a thousand characters), and a summary's analyses would
 * each classify the same names again. */
#define BUSY_LENT_KEPT 16
struct busy_classes {
    const struct model *m;
    const struct analysis_opts *o;
    uint8_t *cls;        /* KC_* or BUSY_CLASS_UNKNOWN, by string id */
    size_t n;
    /* the last arrays a memo set lent through c (a ring), which
     * busy_merged_free then leaves alone */
    const struct interval *lent[BUSY_LENT_KEPT];
    size_t nlent;
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
 * class_mask, taken in filtered-table order. *out is read only, released
 * with busy_merged_free (NULL when *k = 0). Returns 0 or ERR_NOMEM. */
int busy_merged(struct busy_classes *c, const struct rank_model *r, unsigned class_mask,
                struct interval **out, size_t *k);

/* busy_merged for n <= BUSY_MAX_MASKS class masks at once (out[j], k[j] for
 * masks[j]), in one pass over the rows. On failure every out[j] is NULL. */
#define BUSY_MAX_MASKS 4
int busy_merged_each(struct busy_classes *c, const struct rank_model *r, const unsigned *masks,
                     size_t n, struct interval **out, size_t *k);

/* What busy_merged_each makes for the masks the temporal, overlap, kernel
 * and ranks analyses ask for (every class, and computation, communication
 * and memory alone), made in one pass over the rows: a summary runs those
 * four on each of its two models, which would otherwise make 8 passes
 * over every row. With o->busy_memo
 * pointing to it, busy_merged_each on that model's rank lends the memo's
 * arrays instead of passing over the rows; the same intervals. */
#define BUSY_MEMO_MASKS 4
struct busy_memo {
    const struct model *m;
    const struct rank_model *r;
    struct interval *iv[BUSY_MEMO_MASKS];   /* NULL when k is 0 */
    size_t k[BUSY_MEMO_MASKS];
    uint8_t *cls;            /* the classes found making them (struct busy_classes) */
    size_t ncls;
    const char *comm_patterns, *memory_patterns;   /* that classified */
};
/* 0 or ERR_NOMEM (memo empty); o's kernel patterns classify. */
int busy_memo_build(struct busy_memo *memo, const struct model *m, const struct analysis_opts *o,
                    const struct rank_model *r);
void busy_memo_fini(struct busy_memo *memo);

/* The busy memos of every rank of a model, each made by the first
 * analysis that asks busy_merged_each for one of its masks on that rank
 * (under the rank's lock) and lent to the others: analyses run side by
 * side on one model (the report) then pass over a rank's rows once for
 * the four masks instead of once each. With o->busy_memos pointing to it
 * (o's kernel patterns those of busy_memo_set_init's), busy_merged_each
 * gives the same intervals. */
struct busy_memo_set {
    const struct model *m;
    const char *comm_patterns, *memory_patterns;
    size_t n;                     /* m->nranks */
    struct busy_memo *memo;       /* by rank index */
    pthread_mutex_t *lock;
    unsigned char *state;         /* BUSY_MEMO_* */
};
enum { BUSY_MEMO_UNMADE, BUSY_MEMO_MADE, BUSY_MEMO_FAILED };
/* 0 or ERR_NOMEM; makes no memo yet. Borrows m and o's patterns until
 * busy_memo_set_fini. */
int busy_memo_set_init(struct busy_memo_set *s, const struct model *m,
                       const struct analysis_opts *o);
void busy_memo_set_fini(struct busy_memo_set *s);
/* What a rank's memos hold, in bytes an event of the rank (1 GB rank:
 * 16 MB), as struct analysis_info counts memory. */
#define BUSY_MEMO_MEMORY 6

/* Frees the memos made so far (an analysis asking again makes its rank's
 * anew): for a caller whose analyses that read them have all run. Safe
 * beside analyses running on s. */
void busy_memo_set_release(struct busy_memo_set *s);

/* Releases what busy_merged or busy_merged_each gave: frees it, unless c's
 * memo lent it, or c's memo set in one of its last BUSY_LENT_KEPT arrays
 * lent (free each rank's before asking for many more). */
void busy_merged_free(const struct busy_classes *c, struct interval *iv);

/* Adds a "(us)" double from ns. */
static inline double busy_us(int64_t ns)
{
    return (double)ns / 1000.0;
}

#endif
