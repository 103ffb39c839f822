#include "config.h"
#include "analysis/clocks.h"

#include <stdlib.h>
#include <string.h>

#include "util/arena.h"

/* One rank's end in one collective, against the reference's. */
struct sample {
    uint32_t rank_index;
    int64_t diff, allowance;
};

static int cmp_sample(const void *a, const void *b)
{
    const struct sample *x = a, *y = b;
    if (x->rank_index != y->rank_index)
        return x->rank_index < y->rank_index ? -1 : 1;
    return (x->diff > y->diff) - (x->diff < y->diff);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Whether no rank of c can end before every rank has arrived: each needs
 * data from all (all-reduce, all-gather, reduce-scatter, all-to-all). A
 * broadcast's root or a send/recv pair can; their ends say nothing of the
 * clocks. */
static bool usable(const struct collective *c)
{
    return c->ninst >= 2 &&
           (c->kind == COLL_KIND_ALLREDUCE || c->kind == COLL_KIND_ALLGATHER ||
            c->kind == COLL_KIND_REDUCESCATTER || c->kind == COLL_KIND_ALLTOALL);
}

/* The lowest rank index in a usable collective. */
static uint32_t reference_of(const struct coll_result *r)
{
    uint32_t ref = UINT32_MAX;
    for (size_t i = 0; i < r->ncolls; i++)
        if (usable(&r->colls[i]) && r->colls[i].inst[0].rank_index < ref)
            ref = r->colls[i].inst[0].rank_index;
    return ref;
}

/* What one collective allows between the ends of instances a and b: on
 * one clock both kernels are running when the last rank arrives and end
 * after it, so their ends lie within the longer of the two. */
static int64_t allowance(const struct coll_instance *a, const struct coll_instance *b)
{
    int64_t da = a->end - a->arrival, db = b->end - b->arrival;
    return da > db ? da : db;
}

/* Samples of every rank against the reference ref: malloc'ed, *n. */
static struct sample *samples_of(const struct coll_result *r, uint32_t ref, size_t *n)
{
    size_t cap = 0;
    for (size_t i = 0; i < r->ncolls; i++)
        cap += r->colls[i].ninst;
    struct sample *s = malloc((cap ? cap : 1) * sizeof *s);
    *n = 0;
    for (size_t i = 0; s && i < r->ncolls; i++) {
        const struct collective *c = &r->colls[i];
        if (!usable(c) || c->inst[0].rank_index != ref)
            continue;   // instances by rank ascending: the reference is first
        for (size_t k = 1; k < c->ninst; k++)
            s[(*n)++] = (struct sample){c->inst[k].rank_index, c->inst[k].end - c->inst[0].end,
                                        allowance(&c->inst[k], &c->inst[0])};
    }
    return s;
}

/* Medians of the samples [a, b) of one rank. */
static int summarise(struct sample *s, size_t a, size_t b, struct clock_rank *out)
{
    size_t k = b - a;
    int64_t *allow = malloc(k * sizeof *allow);
    if (!allow)
        return ERR_NOMEM;
    for (size_t i = 0; i < k; i++)
        allow[i] = s[a + i].allowance;
    qsort(allow, k, sizeof *allow, cmp_i64);
    out->collectives = k;
    out->offset_ns = s[a + (k - 1) / 2].diff;   // sorted by diff within the rank
    out->allowance_ns = allow[k / 2];   // the upper median: a false alarm is worse
    if (out->allowance_ns < CLOCK_MIN_SKEW_NS)
        out->allowance_ns = CLOCK_MIN_SKEW_NS;
    int64_t mag = out->offset_ns < 0 ? -out->offset_ns : out->offset_ns;
    out->skewed = mag > out->allowance_ns;
    free(allow);
    return 0;
}

int clock_estimate_of(const struct coll_result *r, size_t nranks, struct clock_estimate *out,
                      struct err *e)
{
    memset(out, 0, sizeof *out);
    out->reference = -1;
    out->ranks = calloc(nranks ? nranks : 1, sizeof *out->ranks);
    if (!out->ranks)
        return err_set(e, ERR_NOMEM, "clocks: out of memory");
    out->nranks = nranks;
    uint32_t ref = reference_of(r);
    if (ref == UINT32_MAX || ref >= nranks)
        return 0;
    size_t n;
    struct sample *s = samples_of(r, ref, &n);
    if (!s) {
        clock_estimate_fini(out);
        return err_set(e, ERR_NOMEM, "clocks: out of memory");
    }
    for (size_t i = 0; i < r->ncolls; i++)
        if (usable(&r->colls[i]) && r->colls[i].inst[0].rank_index == ref) {
            out->reference = r->colls[i].inst[0].rank;
            break;
        }
    qsort(s, n, sizeof *s, cmp_sample);
    int rc = 0;
    for (size_t a = 0, b; a < n && rc == 0; a = b) {
        for (b = a; b < n && s[b].rank_index == s[a].rank_index; b++)
            ;
        if (s[a].rank_index < nranks)
            rc = summarise(s, a, b, &out->ranks[s[a].rank_index]);
    }
    free(s);
    if (rc) {
        clock_estimate_fini(out);
        return err_set(e, ERR_NOMEM, "clocks: out of memory");
    }
    return 0;
}

int clock_estimate(const struct model *m, struct clock_estimate *out, struct err *e)
{
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct coll_result r;
    int rc = coll_analyze(m, &o, &a, &r, e);
    if (rc == 0)
        rc = clock_estimate_of(&r, m->nranks, out, e);
    else
        memset(out, 0, sizeof *out);
    arena_fini(&a);
    return rc;
}

void clock_estimate_fini(struct clock_estimate *c)
{
    free(c->ranks);
    c->ranks = NULL;
    c->nranks = 0;
}

bool clock_any_skew(const struct clock_estimate *c)
{
    for (size_t i = 0; i < c->nranks; i++)
        if (c->ranks[i].skewed)
            return true;
    return false;
}

int clock_align(struct model *m, const struct selection *sel, size_t *aligned, struct err *e)
{
    *aligned = 0;
    struct clock_estimate c;
    int rc = clock_estimate(m, &c, e);
    if (rc)
        return rc;
    int64_t *shift = calloc(m->nranks ? m->nranks : 1, sizeof *shift);
    if (!shift) {
        clock_estimate_fini(&c);
        return err_set(e, ERR_NOMEM, "clocks: out of memory");
    }
    for (size_t i = 0; i < c.nranks; i++)
        if (c.ranks[i].skewed) {
            shift[i] = c.ranks[i].offset_ns;
            ++*aligned;
        }
    clock_estimate_fini(&c);
    rc = *aligned ? model_shift_clocks(m, shift, e) : 0;
    free(shift);
    return rc ? rc : *aligned ? model_select(m, sel, e) : 0;
}
