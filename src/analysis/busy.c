#include "config.h"
#include "analysis/busy.h"

#include <stdlib.h>
#include <string.h>

#include "util/memory.h"
#include "util/vec.h"

static bool same_patterns(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* o's memo, when it is of model m and classified by o's kernel patterns
 * (what it holds is then what m's rows give under o), or NULL. */
static const struct busy_memo *memo_for(const struct model *m, const struct analysis_opts *o)
{
    const struct busy_memo *memo = o ? o->busy_memo : NULL;
    return memo && memo->m == m && same_patterns(memo->comm_patterns, o->comm_patterns) &&
                   same_patterns(memo->memory_patterns, o->memory_patterns)
               ? memo
               : NULL;
}

int busy_classes_init(struct busy_classes *c, const struct model *m,
                      const struct analysis_opts *o)
{
    memset(c, 0, sizeof *c);
    c->m = m;
    c->o = o;
    c->n = strtab_count(&m->strings);
    c->cls = util_alloc_resident(c->n, 1);
    if (!c->cls)
        return ERR_NOMEM;
    const struct busy_memo *memo = memo_for(m, o);
    if (memo && memo->cls && memo->ncls == c->n)
        memcpy(c->cls, memo->cls, c->n);
    else
        memset(c->cls, BUSY_CLASS_UNKNOWN, c->n);
    return 0;
}

void busy_classes_fini(struct busy_classes *c)
{
    free(c->cls);
    c->cls = NULL;
    c->n = 0;
}

enum kernel_class busy_class(struct busy_classes *c, uint32_t name_id)
{
    const char *comm = c->o ? c->o->comm_patterns : NULL;
    const char *mem = c->o ? c->o->memory_patterns : NULL;
    bool hta = c->m->sem.hta_kernel_classes;
    if (name_id >= c->n)
        return kernel_classify_with(model_str(c->m, name_id), hta, comm, mem);
    if (c->cls[name_id] == BUSY_CLASS_UNKNOWN)
        c->cls[name_id] = (uint8_t)kernel_classify_with(model_str(c->m, name_id), hta, comm, mem);
    return (enum kernel_class)c->cls[name_id];
}

bool busy_is_gpu_event(const struct model *m, const struct event *ev)
{
    if (!model_is_gpu_side(m, ev))
        return false;
    return m->sem.sync_is_gpu_busy || ev->kind != EV_KIND_SYNC;
}

static const unsigned memo_masks[BUSY_MEMO_MASKS] = {
    BUSY_ALL_CLASSES, BUSY_CLASS_BIT(KC_COMPUTATION), BUSY_CLASS_BIT(KC_COMMUNICATION),
    BUSY_CLASS_BIT(KC_MEMORY),
};

/* The memo's index of mask, or BUSY_MEMO_MASKS. */
static size_t memo_slot(unsigned mask)
{
    size_t i = 0;
    while (i < BUSY_MEMO_MASKS && memo_masks[i] != mask)
        i++;
    return i;
}

/* Whether every mask has a slot in a memo. */
static bool memo_has_masks(const unsigned *masks, size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (memo_slot(masks[j]) == BUSY_MEMO_MASKS)
            return false;
    return true;
}

static void lend(const struct busy_memo *memo, const unsigned *masks, size_t n,
                 struct interval **out, size_t *k)
{
    for (size_t j = 0; j < n; j++) {
        size_t s = memo_slot(masks[j]);
        out[j] = memo->iv[s];
        k[j] = memo->k[s];
    }
}

/* c's memo set, when it is of c's model and patterns, or NULL. */
static struct busy_memo_set *set_for(const struct busy_classes *c)
{
    struct busy_memo_set *s = c->o ? c->o->busy_memos : NULL;
    return s && s->m == c->m && same_patterns(s->comm_patterns, c->o->comm_patterns) &&
                   same_patterns(s->memory_patterns, c->o->memory_patterns)
               ? s
               : NULL;
}

/* A memo of the set for rank r, made with c's classes (c's own array,
 * filled as it goes: no copy a rank), keeping none. 0 or ERR_NOMEM. */
static int set_memo_build(struct busy_memo *memo, struct busy_classes *c,
                          const struct rank_model *r)
{
    memset(memo, 0, sizeof *memo);
    struct analysis_opts own = *c->o;
    own.busy_memos = NULL;   // (made here, not read)
    struct busy_classes with = *c;
    with.o = &own;
    int rc = busy_merged_each(&with, r, memo_masks, BUSY_MEMO_MASKS, memo->iv, memo->k);
    if (rc == 0) {
        memo->m = c->m;
        memo->r = r;
        memo->comm_patterns = own.comm_patterns;
        memo->memory_patterns = own.memory_patterns;
    }
    return rc;
}

/* Rank r's memo of the set, made now if no one has: 1 (lent, and noted
 * in c), 0 (not there: make them), or ERR_NOMEM. */
static int from_set(struct busy_memo_set *s, struct busy_classes *c, const struct rank_model *r,
                    const unsigned *masks, size_t n, struct interval **out, size_t *k)
{
    if (r < s->m->ranks || r >= s->m->ranks + s->n)
        return 0;
    size_t i = (size_t)(r - s->m->ranks);
    pthread_mutex_lock(&s->lock[i]);
    if (s->state[i] == BUSY_MEMO_UNMADE)
        s->state[i] = set_memo_build(&s->memo[i], c, r) ? BUSY_MEMO_FAILED : BUSY_MEMO_MADE;
    int rc = s->state[i] == BUSY_MEMO_MADE ? 1 : ERR_NOMEM;
    pthread_mutex_unlock(&s->lock[i]);
    if (rc == 1) {
        lend(&s->memo[i], masks, n, out, k);
        for (size_t j = 0; j < n; j++)
            if (out[j])
                c->lent[c->nlent++ % BUSY_LENT_KEPT] = out[j];
    }
    return rc;
}

/* busy_merged_each from c's memo, when it has rank r and every mask: 1
 * (done: its arrays lent), 0 (not there: make them), or ERR_NOMEM. */
static int from_memo(struct busy_classes *c, const struct rank_model *r, const unsigned *masks,
                     size_t n, struct interval **out, size_t *k)
{
    if (!memo_has_masks(masks, n))
        return 0;
    struct busy_memo_set *s = set_for(c);
    if (s)
        return from_set(s, c, r, masks, n, out, k);
    const struct busy_memo *memo = memo_for(c->m, c->o);
    if (!memo || memo->r != r)
        return 0;
    lend(memo, masks, n, out, k);
    return 1;
}

void busy_merged_free(const struct busy_classes *c, struct interval *iv)
{
    const struct busy_memo *memo = c->o ? c->o->busy_memo : NULL;
    for (size_t j = 0; memo && iv && j < BUSY_MEMO_MASKS; j++)
        if (iv == memo->iv[j])
            return;   // lent
    for (size_t j = 0; iv && j < BUSY_LENT_KEPT && j < c->nlent; j++)
        if (iv == c->lent[j])
            return;   // lent by the set
    free(iv);
}

int busy_memo_set_init(struct busy_memo_set *s, const struct model *m,
                       const struct analysis_opts *o)
{
    memset(s, 0, sizeof *s);
    size_t n = m->nranks ? m->nranks : 1;
    s->memo = calloc(n, sizeof *s->memo);
    s->lock = malloc(n * sizeof *s->lock);
    s->state = calloc(n, sizeof *s->state);
    if (!s->memo || !s->lock || !s->state) {
        free(s->memo);
        free(s->lock);
        free(s->state);
        memset(s, 0, sizeof *s);
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < m->nranks; i++)
        pthread_mutex_init(&s->lock[i], NULL);
    s->m = m;
    s->n = m->nranks;
    s->comm_patterns = o->comm_patterns;
    s->memory_patterns = o->memory_patterns;
    return 0;
}

void busy_memo_set_release(struct busy_memo_set *s)
{
    for (size_t i = 0; i < s->n; i++) {
        pthread_mutex_lock(&s->lock[i]);
        if (s->state[i] == BUSY_MEMO_MADE)
            busy_memo_fini(&s->memo[i]);
        s->state[i] = BUSY_MEMO_UNMADE;
        pthread_mutex_unlock(&s->lock[i]);
    }
}

void busy_memo_set_fini(struct busy_memo_set *s)
{
    busy_memo_set_release(s);
    for (size_t i = 0; i < s->n; i++)
        pthread_mutex_destroy(&s->lock[i]);
    free(s->memo);
    free(s->lock);
    free(s->state);
    memset(s, 0, sizeof *s);
}

int busy_memo_build(struct busy_memo *memo, const struct model *m, const struct analysis_opts *o,
                    const struct rank_model *r)
{
    memset(memo, 0, sizeof *memo);
    struct analysis_opts own = *o;
    own.busy_memo = NULL;   // (made here, not read)
    own.busy_memos = NULL;
    struct busy_classes c;
    if (busy_classes_init(&c, m, &own))
        return ERR_NOMEM;
    int rc = busy_merged_each(&c, r, memo_masks, BUSY_MEMO_MASKS, memo->iv, memo->k);
    if (rc == 0) {   // (else empty, and no rank's: never read)
        memo->m = m;
        memo->r = r;
        memo->cls = c.cls;   // (kept: busy_memo_fini frees it)
        memo->ncls = c.n;
        memo->comm_patterns = o->comm_patterns;
        memo->memory_patterns = o->memory_patterns;
    } else {
        busy_classes_fini(&c);
    }
    return rc;
}

void busy_memo_fini(struct busy_memo *memo)
{
    for (size_t j = 0; j < BUSY_MEMO_MASKS; j++)
        free(memo->iv[j]);
    free(memo->cls);
    memset(memo, 0, sizeof *memo);
}

int busy_merged_each(struct busy_classes *c, const struct rank_model *r, const unsigned *masks,
                     size_t n, struct interval **out, size_t *k)
{
    if (n > BUSY_MAX_MASKS)
        return ERR_INTERNAL;
    int lent = from_memo(c, r, masks, n, out, k);
    if (lent)
        return lent < 0 ? lent : 0;
    size_t len[BUSY_MAX_MASKS] = {0}, cap[BUSY_MAX_MASKS] = {0};
    for (size_t j = 0; j < n; j++) {
        out[j] = NULL;
        k[j] = 0;
    }
    /* one pass that grows the arrays: a pass over every row (the events are
     * read from memory, not cache) costs more than the doubling's copies */
    int rc = 0;
    for (size_t i = 0; i < r->nrows && !rc; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (!busy_is_gpu_event(c->m, ev))
            continue;
        unsigned bit = BUSY_CLASS_BIT(busy_class(c, ev->name));
        for (size_t j = 0; j < n && !rc; j++) {
            if (!(masks[j] & bit))
                continue;
            if (len[j] == cap[j] && VEC_PUSH_SLOT(out[j], len[j], cap[j]))
                rc = ERR_NOMEM;
            else
                out[j][len[j]++] = (struct interval){ev->ts, ev->ts + ev->dur};
        }
    }
    for (size_t j = 0; j < n && !rc; j++)
        rc = intervals_merge_ordered(out[j], len[j], c->m->sem.unstable_sort, &k[j]);
    for (size_t j = 0; j < n; j++)
        if (rc || !k[j]) {
            free(out[j]);
            out[j] = NULL;
            k[j] = 0;
        }
    return rc;
}

int busy_merged(struct busy_classes *c, const struct rank_model *r, unsigned class_mask,
                struct interval **out, size_t *k)
{
    return busy_merged_each(c, r, &class_mask, 1, out, k);
}
