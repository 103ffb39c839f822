#include "config.h"
#include "analysis/collectives.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "analysis/classify.h"
#include "util/sort.h"
#include "util/vec.h"

/* qsort, which must not be given a NULL array even for zero elements. */
static void sort_n(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(v, n, size, cmp);
}

/* Matching, waits and blame over the selection (collectives.h). */

/* One communication kernel before matching: its record, with the key
 * matching derives from it. */
struct raw {
    uint32_t rank_index, pos;
    int64_t rank;
    uint32_t name;        /* "Collective name", else the kernel's name */
    uint32_t kernel;      /* the kernel's name */
    uint32_t coll_name;   /* "Collective name" id, 0 when absent */
    uint32_t group;       /* "Process Group Name" id, 0 when absent */
    uint32_t pg_ranks;    /* "Process Group Ranks" id, 0 when absent */
    int64_t stream, seq, group_size, bytes;
    int64_t ts, end, occurrence;
    int32_t iteration;
    enum coll_match_rule rule;
};

/* "[0, 1, 2]" into out (up to cap ranks); the count, or -1 when the text is
 * not such a list (PyTorch shortens long lists with "..."). */
static long parse_rank_list(const char *s, int64_t *out, size_t cap)
{
    while (*s == ' ')
        s++;
    if (*s++ != '[')
        return -1;
    long n = 0;
    for (;;) {
        while (*s == ' ')
            s++;
        if (*s == ']')
            break;
        char *end;
        if (!isdigit((unsigned char)*s))
            return -1;
        long long v = strtoll(s, &end, 10);
        if ((size_t)n < cap)
            out[n] = v;
        n++;
        s = end;
        while (*s == ' ')
            s++;
        if (*s == ',')
            s++;
        else if (*s != ']')
            return -1;
    }
    s++;
    while (*s == ' ')
        s++;
    return *s ? -1 : n;
}

/* ---- gathering ------------------------------------------------------------- */

struct gather {
    const struct model *m;
    const struct analysis_opts *o;
    struct busy_classes classes;
    struct coll_record *recs;
    size_t nrecs, cap;
};

static bool is_comm_kernel(struct gather *g, const struct event *ev)
{
    return ev->kind == EV_KIND_KERNEL && busy_class(&g->classes, ev->name) == KC_COMMUNICATION;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Within one rank: the rank's order-matched raws by key, then time. */
static int cmp_occurrence(const void *pa, const void *pb)
{
    const struct raw *a = pa, *b = pb;
#define CMP(x, y) do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)
    CMP(a->group, b->group);
    if (a->group == 0)
        CMP(a->stream, b->stream);
    CMP(a->name, b->name);
    CMP(a->iteration, b->iteration);
    CMP(a->ts, b->ts);
    CMP(a->pos, b->pos);
    return 0;
}

static bool same_order_key(const struct raw *a, const struct raw *b)
{
    return a->group == b->group && (a->group != 0 || a->stream == b->stream) &&
           a->name == b->name && a->iteration == b->iteration;
}

/* CPU ops of one rank that carry collective args (record_param_comms), by
 * thread and start: where a kernel lacks an arg, the op around its launch
 * may have it (older PyTorch writes them there only). */
struct cpu_comm {
    uint32_t thread;   /* struct event's: one (pid, tid) */
    int64_t ts, end;
    const struct comm_args *args;
};

static int cmp_cpu_comm(const void *pa, const void *pb)
{
    const struct cpu_comm *a = pa, *b = pb;
    CMP(a->thread, b->thread);
    CMP(a->ts, b->ts);
    return 0;
}

static int cpu_comm_index(const struct rank_model *r, struct cpu_comm **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    for (size_t i = 0; i < r->ncomm; i++)
        if (r->events[r->comm[i].pos].kind == EV_KIND_CPU_OP)
            (*n)++;
    if (*n == 0)
        return 0;
    struct cpu_comm *v = malloc(*n * sizeof *v);
    if (!v)
        return ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < r->ncomm; i++) {
        const struct event *ev = &r->events[r->comm[i].pos];
        if (ev->kind == EV_KIND_CPU_OP)
            v[k++] = (struct cpu_comm){ev->thread, ev->ts, ev->ts + ev->dur, &r->comm[i]};
    }
    sort_n(v, k, sizeof *v, cmp_cpu_comm);
    *out = v;
    return 0;
}

/* The args of the innermost collective op around the kernel's launch, or NULL. */
static const struct comm_args *launch_args(const struct rank_model *r, const struct event *kernel,
                                           const struct cpu_comm *v, size_t n)
{
    if (!n || kernel->partner == MODEL_NONE || kernel->partner >= r->nevents)
        return NULL;
    const struct event *launch = &r->events[kernel->partner];
    struct cpu_comm key = {launch->thread, launch->ts, 0, NULL};
    size_t lo = 0, hi = n;   /* first entry after key */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_cpu_comm(&v[mid], &key) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo, steps = 0; i > 0 && steps < 8; i--, steps++) {
        const struct cpu_comm *c = &v[i - 1];
        if (c->thread != launch->thread)
            break;
        if (c->ts <= launch->ts && launch->ts < c->end)
            return c->args;
    }
    return NULL;
}

/* Fills what a kernel's own args lack from its launching op's. */
static struct comm_args merged_args(const struct comm_args *k, const struct comm_args *op)
{
    struct comm_args a = k ? *k : *op;
    if (k && op) {
        a.coll_name = a.coll_name ? a.coll_name : op->coll_name;
        a.pg_name = a.pg_name ? a.pg_name : op->pg_name;
        a.pg_ranks = a.pg_ranks ? a.pg_ranks : op->pg_ranks;
        a.dtype = a.dtype ? a.dtype : op->dtype;
        a.group_size = a.group_size >= 0 ? a.group_size : op->group_size;
        a.in_nelems = a.in_nelems >= 0 ? a.in_nelems : op->in_nelems;
        a.out_nelems = a.out_nelems >= 0 ? a.out_nelems : op->out_nelems;
        a.seq = a.seq >= 0 ? a.seq : op->seq;
    }
    return a;
}

static int gather_rank(struct gather *g, uint32_t ri)
{
    const struct rank_model *r = &g->m->ranks[ri];
    struct cpu_comm *ops;
    size_t nops;
    if (cpu_comm_index(r, &ops, &nops))
        return ERR_NOMEM;
    uint32_t *pos = malloc((r->nrows ? r->nrows : 1) * sizeof *pos);
    if (!pos) {
        free(ops);
        return ERR_NOMEM;
    }
    size_t n = 0;
    for (size_t i = 0; i < r->nrows; i++)
        if (is_comm_kernel(g, &r->events[r->rows[i]]))
            pos[n++] = r->rows[i];
    /* Rows may repeat (semantics.filter_duplicates_rows): one instance each. */
    sort_n(pos, n, sizeof *pos, cmp_u32);
    for (size_t i = 0; i < n; i++) {
        if (i && pos[i] == pos[i - 1])
            continue;
        if (VEC_PUSH_SLOT(g->recs, g->nrecs, g->cap)) {
            free(pos);
            free(ops);
            return ERR_NOMEM;
        }
        const struct event *ev = &r->events[pos[i]];
        const struct comm_args *own = model_event_comm(r, ev);
        const struct comm_args *op = launch_args(r, ev, ops, nops);
        struct coll_record *w = &g->recs[g->nrecs++];
        *w = (struct coll_record){.rank = r->rank, .rank_index = ri, .pos = pos[i],
                                  .name = ev->name, .stream = ev->stream, .seq = -1,
                                  .group_size = -1, .bytes = -1, .ts = ev->ts,
                                  .end = ev->ts + ev->dur, .iteration = ev->iteration};
        if (own || op) {
            struct comm_args c = merged_args(own, op);
            w->coll_name = c.coll_name;
            w->group = c.pg_name;
            w->pg_ranks = c.pg_ranks;
            w->seq = c.seq;
            w->group_size = c.group_size;
            int size = coll_dtype_size(model_str(g->m, c.dtype));
            int64_t nel = c.in_nelems > c.out_nelems ? c.in_nelems : c.out_nelems;
            if (size > 0 && nel >= 0 && nel <= INT64_MAX / size)
                w->bytes = nel * size;
        }
    }
    free(pos);
    free(ops);
    return 0;
}

/* The records of rank `only` (SIZE_MAX: of every selected rank). */
static int records_of(const struct model *m, const struct analysis_opts *o, size_t only,
                      struct coll_record **out, size_t *n)
{
    struct gather g = {.m = m, .o = o};
    int rc = busy_classes_init(&g.classes, m, o);
    for (size_t i = 0; i < m->nranks && rc == 0; i++)
        if (only == SIZE_MAX ? m->ranks[i].selected : i == only)
            rc = gather_rank(&g, (uint32_t)i);
    busy_classes_fini(&g.classes);
    if (rc) {
        free(g.recs);
        g.recs = NULL;
        g.nrecs = 0;
    }
    *out = g.recs;
    *n = g.nrecs;
    return rc;
}

int coll_records(const struct model *m, const struct analysis_opts *o, struct coll_record **out,
                 size_t *n)
{
    return records_of(m, o, SIZE_MAX, out, n);
}

int coll_rank_records(const struct model *m, const struct analysis_opts *o, size_t rank_index,
                      struct coll_record **out, size_t *n)
{
    return records_of(m, o, rank_index, out, n);
}

/* The raws of one rank's records recs[0..n): the matching key, and the
 * occurrence indices of the order-matched ones per key and iteration. */
static void raws_of_rank(const struct coll_record *recs, size_t n, struct raw *rs)
{
    for (size_t i = 0; i < n; i++) {
        const struct coll_record *c = &recs[i];
        rs[i] = (struct raw){.rank_index = c->rank_index, .pos = c->pos, .rank = c->rank,
                             .name = c->coll_name ? c->coll_name : c->name, .kernel = c->name,
                             .coll_name = c->coll_name, .group = c->group,
                             .pg_ranks = c->pg_ranks, .stream = c->stream, .seq = c->seq,
                             .group_size = c->group_size, .bytes = c->bytes, .ts = c->ts,
                             .end = c->end, .occurrence = -1, .iteration = c->iteration,
                             .rule = c->group && c->seq >= 0 ? COLL_MATCH_SEQ
                                                             : COLL_MATCH_ORDER};
    }
    sort_n(rs, n, sizeof *rs, cmp_occurrence);
    int64_t occ = 0;
    for (size_t i = 0; i < n; i++) {
        occ = i && same_order_key(&rs[i], &rs[i - 1]) ? occ + 1 : 0;
        rs[i].occurrence = occ;
    }
}

/* ---- matching -------------------------------------------------------------- */

/* All raws by match key, then rank, then time. */
static int cmp_match(const void *pa, const void *pb)
{
    const struct raw *a = pa, *b = pb;
    CMP(a->rule, b->rule);
    CMP(a->group, b->group);
    if (a->rule == COLL_MATCH_SEQ) {
        CMP(a->seq, b->seq);
    } else {
        if (a->group == 0)
            CMP(a->stream, b->stream);
        CMP(a->name, b->name);
        CMP(a->iteration, b->iteration);
        CMP(a->occurrence, b->occurrence);
    }
    CMP(a->rank, b->rank);
    CMP(a->ts, b->ts);
    CMP(a->pos, b->pos);
    return 0;
}

static bool same_match_key(const struct raw *a, const struct raw *b)
{
    if (a->rule != b->rule || a->group != b->group)
        return false;
    if (a->rule == COLL_MATCH_SEQ)
        return a->seq == b->seq;
    return same_order_key(a, b) && a->occurrence == b->occurrence;
}

struct matcher {
    const struct coll_job *job;
    struct arena *a;
    struct coll_result *out;
    struct collective *colls;
    size_t ncolls, cap;
    int64_t *members;          /* scratch for Process Group Ranks */
    size_t members_cap;
};

static bool rank_is_selected(const struct coll_job *job, int64_t rank)
{
    size_t lo = 0, hi = job->nranks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (job->ranks[mid] == rank)
            return job->selected[mid];
        if (job->ranks[mid] < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* One rank's instance of a group whose other members are not selected (a
 * one-rank file of a larger job): kept as a partial collective, so its size
 * and bandwidth are still reported; it has no wait and blames no one. */
static bool alone_but_partial(struct matcher *mt, const struct raw *g)
{
    if (g->pg_ranks) {
        long listed = parse_rank_list(strtab_str(mt->job->strings, g->pg_ranks), mt->members,
                                      mt->members_cap);
        if (listed < 2 || listed > (long)mt->members_cap)
            return false;
        bool member = false;
        for (long j = 0; j < listed; j++) {
            if (mt->members[j] == g->rank)
                member = true;
            else if (rank_is_selected(mt->job, mt->members[j]))
                return false;
        }
        return member;
    }
    return g->group_size > 1 && mt->out->ranks_selected == 1;
}

/* Checks one candidate (raws g[0..k), sorted by rank); COLL_ISSUE_COUNT when
 * it is a consistent collective. *partial: group members were not loaded. */
static enum coll_issue check_candidate(struct matcher *mt, const struct raw *g, size_t k,
                                       bool *partial)
{
    *partial = false;
    if (k < 2) {
        *partial = alone_but_partial(mt, g);
        return *partial ? COLL_ISSUE_COUNT : COLL_ISSUE_ALONE;
    }
    for (size_t i = 1; i < k; i++) {
        if (g[i].rank == g[i - 1].rank)
            return COLL_ISSUE_DUPLICATE;
        if (g[0].rule == COLL_MATCH_SEQ && g[i].name != g[0].name)
            return COLL_ISSUE_NAME_MISMATCH;
        if (g[i].group_size != g[0].group_size || g[i].pg_ranks != g[0].pg_ranks)
            return COLL_ISSUE_SIZE_MISMATCH;
    }
    int64_t expected = g[0].group_size;
    long listed = -1;
    if (g[0].pg_ranks) {
        listed = parse_rank_list(strtab_str(mt->job->strings, g[0].pg_ranks), mt->members,
                                 mt->members_cap);
        if (listed > (long)mt->members_cap)
            listed = -1;  /* longer than any job we loaded: not checkable */
    }
    if (listed >= 0) {
        if (expected >= 0 && listed != expected)
            return COLL_ISSUE_SIZE_MISMATCH;
        expected = listed;
        size_t nl = sort_unique_i64(mt->members, (size_t)listed);
        if (nl != (size_t)listed)
            return COLL_ISSUE_SIZE_MISMATCH;  /* a rank listed twice */
        /* Both lists ascending: every instance's rank must be a member, and
         * a member that is selected but absent never called it. */
        size_t j = 0;
        for (size_t i = 0; i <= k; i++) {
            while (j < nl && (i == k || mt->members[j] < g[i].rank)) {
                if (rank_is_selected(mt->job, mt->members[j]))
                    return COLL_ISSUE_MISSING_RANK;
                *partial = true;
                j++;
            }
            if (i == k)
                break;
            if (j == nl || mt->members[j] != g[i].rank)
                return COLL_ISSUE_NOT_MEMBER;
            j++;
        }
        return COLL_ISSUE_COUNT;
    }
    if (expected >= 0 && (int64_t)k > expected)
        return COLL_ISSUE_SIZE_MISMATCH;
    if (expected >= 0 && (int64_t)k < expected) {
        /* Members unknown: if enough ranks are selected to hold the group, one
         * of them did not call it; else the group's other ranks are not loaded. */
        if (mt->out->ranks_selected >= (size_t)expected)
            return COLL_ISSUE_MISSING_RANK;
        *partial = true;
    }
    return COLL_ISSUE_COUNT;
}

static int add_collective(struct matcher *mt, const struct raw *g, size_t k, bool partial)
{
    if (VEC_PUSH_SLOT(mt->colls, mt->ncolls, mt->cap))
        return ERR_NOMEM;
    struct coll_instance *inst = arena_alloc(mt->a, k * sizeof *inst);
    if (!inst)
        return ERR_NOMEM;
    struct collective *c = &mt->colls[mt->ncolls++];
    memset(c, 0, sizeof *c);
    c->name = g[0].name;
    c->group = g[0].group;
    c->stream = g[0].stream;
    c->rule = g[0].rule;
    c->seq = c->rule == COLL_MATCH_SEQ ? g[0].seq : -1;
    c->occurrence = c->rule == COLL_MATCH_ORDER ? g[0].occurrence : -1;
    c->inst = inst;
    c->ninst = k;
    c->partial = partial;
    c->group_size = g[0].group_size >= 0 ? g[0].group_size : (int64_t)k;
    c->kind = coll_kind_of(strtab_str(mt->job->strings, g[0].name));
    if (c->kind == COLL_KIND_OTHER && g[0].coll_name)
        /* an unknown "Collective name": the kernel's name may still tell */
        c->kind = coll_kind_of(strtab_str(mt->job->strings, g[0].kernel));
    c->bytes = -1;
    for (size_t i = 0; i < k; i++) {
        inst[i] = (struct coll_instance){.rank = g[i].rank, .rank_index = g[i].rank_index,
                                         .pos = g[i].pos, .stream = g[i].stream,
                                         .iteration = g[i].iteration, .arrival = g[i].ts,
                                         .end = g[i].end};
        if (c->bytes < 0 && g[i].bytes >= 0)
            c->bytes = g[i].bytes;
        if (inst[i].arrival < inst[c->first].arrival)
            c->first = i;
        if (inst[i].arrival > inst[c->last].arrival)
            c->last = i;
    }
    int64_t last_arrival = inst[c->last].arrival, last_end = INT64_MIN;
    for (size_t i = 0; i < k; i++) {
        int64_t w = last_arrival - inst[i].arrival;
        int64_t dur = inst[i].end - inst[i].arrival;
        inst[i].wait = w < dur ? w : dur;
        if (inst[i].wait < 0)
            inst[i].wait = 0;
        c->total_wait += inst[i].wait;
        if (inst[i].wait > c->max_wait)
            c->max_wait = inst[i].wait;
        if (inst[i].end > last_end)
            last_end = inst[i].end;
    }
    c->skew = last_arrival - inst[c->first].arrival;
    c->iteration = inst[c->last].iteration;
    c->time = last_end - last_arrival;
    c->algbw = c->bytes >= 0 && c->time > 0 ? (double)c->bytes / (double)c->time : NAN;
    c->busbw = c->algbw * coll_busbw_factor(c->kind, c->group_size);
    return 0;
}

static int match_all(struct matcher *mt, struct raw *raws, size_t n)
{
    sort_n(raws, n, sizeof *raws, cmp_match);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && same_match_key(&raws[i], &raws[j]))
            j++;
        bool partial;
        enum coll_issue issue = check_candidate(mt, raws + i, j - i, &partial);
        if (issue == COLL_ISSUE_COUNT) {
            if (add_collective(mt, raws + i, j - i, partial))
                return ERR_NOMEM;
            if (j - i == 1)
                mt->out->kept_alone++;
            else
                mt->out->matched[raws[i].rule] += j - i;
        } else {
            mt->out->unmatched[issue] += j - i;
        }
        i = j;
    }
    return 0;
}

/* ---- blame ----------------------------------------------------------------- */

/* Collectives in time order; ties by the strings, not their ids: the ids
 * depend on how the job was read (events, or the records of its
 * summaries), the order must not. */
struct coll_key {
    const struct collective *c;
    const char *group, *name;
};

static int cmp_coll_time(const void *pa, const void *pb)
{
    const struct coll_key *ka = pa, *kb = pb;
    const struct collective *a = ka->c, *b = kb->c;
    int64_t ta = a->inst[a->last].arrival, tb = b->inst[b->last].arrival;
    CMP(ta, tb);
    int d = strcmp(ka->group, kb->group);
    if (d)
        return d;
    CMP(a->seq, b->seq);
    if ((d = strcmp(ka->name, kb->name)) != 0)
        return d;
    CMP(a->occurrence, b->occurrence);
    CMP(a->rule, b->rule);
    CMP(a->stream, b->stream);
    CMP(a->inst[a->last].iteration, b->inst[b->last].iteration);
    return 0;
}

/* mt's collectives in time order, into out->colls (in a). */
static int sorted_colls(const struct matcher *mt, struct arena *a, struct coll_result *out)
{
    struct coll_key *keys = malloc(mt->ncolls * sizeof *keys);
    out->colls = arena_alloc(a, mt->ncolls * sizeof *out->colls);
    if (!keys || !out->colls) {
        free(keys);
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < mt->ncolls; i++)
        keys[i] = (struct coll_key){&mt->colls[i], strtab_str(mt->job->strings, mt->colls[i].group),
                                    strtab_str(mt->job->strings, mt->colls[i].name)};
    sort_n(keys, mt->ncolls, sizeof *keys, cmp_coll_time);
    for (size_t i = 0; i < mt->ncolls; i++)
        out->colls[i] = *keys[i].c;
    out->ncolls = mt->ncolls;
    free(keys);
    return 0;
}

static int cmp_blame(const void *pa, const void *pb)
{
    const struct rank_iter_blame *a = pa, *b = pb;
    CMP(a->rank, b->rank);
    CMP(a->iteration, b->iteration);
    return 0;
}

static int cmp_ranking(const void *pa, const void *pb)
{
    const struct straggler *a = pa, *b = pb;
    CMP(b->blame, a->blame);
    CMP(a->rank, b->rank);
    return 0;
}

/* Adds blame, st's share of collective i's (c) wait, to st. */
static void blame_rank(struct straggler *st, size_t i, const struct collective *c, int64_t blame)
{
    st->blame += blame;
    if (blame <= 0)
        return;
    st->last_count++;
    if (st->worst == SIZE_MAX || c->total_wait > st->worst_blame) {
        st->worst = i;
        st->worst_blame = c->total_wait;
        st->worst_iteration = c->iteration;
    }
}

static int blame_tables(const struct coll_job *job, struct arena *a, struct coll_result *out)
{
    size_t ncontrib = 0;
    for (size_t i = 0; i < out->ncolls; i++)
        ncontrib += 2 * (size_t)out->colls[i].ninst;   // its waits, and its last arrivers' shares
    struct rank_iter_blame *b = arena_alloc(a, (ncontrib ? ncontrib : 1) * sizeof *b);
    struct straggler *s = arena_calloc(a, job->nranks ? job->nranks : 1, sizeof *s);
    if (!b || !s)
        return ERR_NOMEM;
    for (size_t i = 0; i < job->nranks; i++) {
        s[i].rank = job->ranks[i];
        s[i].rank_index = (uint32_t)i;
        s[i].worst = SIZE_MAX;
        s[i].worst_iteration = MODEL_ITER_NONE;
    }
    size_t nb = 0;
    for (size_t i = 0; i < out->ncolls; i++) {
        const struct collective *c = &out->colls[i];
        const struct coll_instance *last = &c->inst[c->last];
        if (c->ninst < 2)
            continue;  /* a partial collective of one rank: nobody waits */
        for (size_t k = 0; k < c->ninst; k++) {
            const struct coll_instance *in = &c->inst[k];
            b[nb++] = (struct rank_iter_blame){in->rank, in->iteration, 0, in->wait};
            s[in->rank_index].suffered += in->wait;
            s[in->rank_index].collectives++;
        }
        /* Ranks that arrive at the same last moment share the blame: the
         * remainder of the division goes one ns each to the first of them,
         * so the shares add up to the wait exactly. */
        int64_t tied = 0;
        for (size_t k = 0; k < c->ninst; k++)
            tied += c->inst[k].arrival == last->arrival;
        int64_t share = c->total_wait / tied, rest = c->total_wait % tied;
        for (size_t k = 0; k < c->ninst; k++) {
            const struct coll_instance *in = &c->inst[k];
            if (in->arrival != last->arrival)
                continue;
            int64_t blame = share + (rest-- > 0);
            b[nb++] = (struct rank_iter_blame){in->rank, c->iteration, blame, 0};
            blame_rank(&s[in->rank_index], i, c, blame);
        }
    }
    /* merge the contributions per (rank, iteration) */
    sort_n(b, nb, sizeof *b, cmp_blame);
    size_t w = 0;
    for (size_t i = 0; i < nb; i++) {
        if (w && b[w - 1].rank == b[i].rank && b[w - 1].iteration == b[i].iteration) {
            b[w - 1].blame += b[i].blame;
            b[w - 1].suffered += b[i].suffered;
        } else {
            b[w++] = b[i];
        }
    }
    out->blame = b;
    out->nblame = w;
    /* the ranking: ranks that took part in a matched collective */
    size_t nr = 0;
    for (size_t i = 0; i < job->nranks; i++)
        if (s[i].collectives)
            s[nr++] = s[i];
    sort_n(s, nr, sizeof *s, cmp_ranking);
    out->ranking = s;
    out->nranking = nr;
    return 0;
}

/* The raws of recs, rank by rank (each rank's records are contiguous). */
static int raws_of(const struct coll_record *recs, size_t n, struct raw **out)
{
    struct raw *raws = malloc((n ? n : 1) * sizeof *raws);
    if (!raws)
        return ERR_NOMEM;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && recs[j].rank_index == recs[i].rank_index)
            j++;
        raws_of_rank(recs + i, j - i, raws + i);
        i = j;
    }
    *out = raws;
    return 0;
}

int coll_analyze_records(const struct coll_job *job, const struct coll_record *recs, size_t n,
                         struct arena *a, struct coll_result *out, struct err *e)
{
    memset(out, 0, sizeof *out);
    out->strings = job->strings;
    out->missing_rank_example = -1;
    for (size_t i = 0, k = 0; i < job->nranks; i++) {
        if (!job->selected[i])
            continue;
        out->ranks_selected++;
        while (k < n && recs[k].rank_index < i)
            k++;
        if (k < n && recs[k].rank_index == i)
            out->ranks_with_comm++;
        else if (out->missing_rank_example < 0)
            out->missing_rank_example = job->ranks[i];
    }
    if (out->ranks_with_comm == 0)
        out->missing_rank_example = -1;
    out->instances = n;
    struct matcher mt = {.job = job, .a = a, .out = out};
    /* Process Group Ranks name ranks of the whole job, which may be larger
     * than the ranks loaded; longer lists are left unchecked. */
    mt.members_cap = job->nranks > 65536 ? job->nranks : 65536;
    mt.members = malloc(mt.members_cap * sizeof *mt.members);
    struct raw *raws = NULL;
    int rc = mt.members ? raws_of(recs, n, &raws) : ERR_NOMEM;
    if (rc == 0)
        rc = match_all(&mt, raws, n);
    if (rc == 0 && mt.ncolls)
        rc = sorted_colls(&mt, a, out);
    if (rc == 0)
        rc = blame_tables(job, a, out);
    free(raws);
    free(mt.colls);
    free(mt.members);
    if (rc) {
        memset(out, 0, sizeof *out);
        return err_set(e, ERR_NOMEM, "collectives: out of memory");
    }
    return 0;
}

int coll_analyze(const struct model *m, const struct analysis_opts *o, struct arena *a,
                 struct coll_result *out, struct err *e)
{
    struct coll_record *recs = NULL;
    size_t n = 0;
    int64_t *ranks = malloc((m->nranks ? m->nranks : 1) * sizeof *ranks);
    bool *selected = malloc((m->nranks ? m->nranks : 1) * sizeof *selected);
    int rc = ranks && selected ? coll_records(m, o, &recs, &n) : ERR_NOMEM;
    if (rc == 0) {
        for (size_t i = 0; i < m->nranks; i++) {
            ranks[i] = m->ranks[i].rank;
            selected[i] = m->ranks[i].selected;
        }
        struct coll_job job = {&m->strings, ranks, selected, m->nranks};
        rc = coll_analyze_records(&job, recs, n, a, out, e);
    } else {
        memset(out, 0, sizeof *out);
        rc = err_set(e, ERR_NOMEM, "collectives: out of memory");
    }
    free(recs);
    free(ranks);
    free(selected);
    return rc;
}
