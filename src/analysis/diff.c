#include "config.h"
#include "analysis/diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/classify.h"
#include "util/sort.h"

static const char *const change_names[DIFF_CHANGE_COUNT] = {
    "added", "deleted", "increased", "decreased", "unchanged",
};

const char *diff_change_name(enum diff_change c)
{
    return (unsigned)c < DIFF_CHANGE_COUNT ? change_names[c] : "?";
}

void diff_semantics(const struct semantics *user, struct semantics *out)
{
    *out = *user;
    if (user->diff_hta_quirks)
        out->drop_last_step = false;
}

/* ---- iterations and ranks ------------------------------------------------ */

int diff_valid_iterations(const struct model *m, struct arena *a, int64_t **out, size_t *n,
                          struct err *e)
{
    size_t nstr = strtab_count(&m->strings);
    unsigned char *seen = calloc(nstr ? nstr : 1, 1);
    size_t cap = 16, k = 0;
    int64_t *v = malloc(cap * sizeof *v);
    if (!seen || !v) {
        free(seen);
        free(v);
        return err_set(e, ERR_NOMEM, "diff: out of memory");
    }
    for (size_t r = 0; r < m->nranks; r++) {
        const struct rank_model *rk = &m->ranks[r];
        for (size_t i = 0; i < rk->nevents; i++) {
            uint32_t id = rk->events[i].name;
            int64_t num;
            if (id >= nstr || seen[id])
                continue;
            seen[id] = 1;
            if (!diff_step_number(model_str(m, id), strtab_len(&m->strings, id), &num))
                continue;
            if (k == cap) {
                int64_t *grown = cap > SIZE_MAX / 2 / sizeof *v ? NULL
                                                                : realloc(v, 2 * cap * sizeof *v);
                if (!grown) {
                    free(seen);
                    free(v);
                    return err_set(e, ERR_NOMEM, "diff: out of memory");
                }
                v = grown;
                cap *= 2;
            }
            v[k++] = num;
        }
    }
    free(seen);
    k = sort_unique_i64(v, k);
    *out = arena_calloc(a, k ? k : 1, sizeof **out);
    if (!*out) {
        free(v);
        return err_set(e, ERR_NOMEM, "diff: out of memory");
    }
    memcpy(*out, v, k * sizeof *v);
    *n = k;
    free(v);
    return 0;
}

/* Iterations that some selected rank of the plan has (htx). */
static int rank_iterations(const struct model *m, const struct diff_plan *plan,
                           struct arena *a, int64_t **out, size_t *n, struct err *e)
{
    size_t total = 0;
    for (size_t r = 0; r < m->nranks; r++)
        if (i64_set_has(plan->ranks, plan->nranks, m->ranks[r].rank))
            total += m->ranks[r].niterations;
    int64_t *v = arena_calloc(a, total ? total : 1, sizeof *v);
    if (!v)
        return err_set(e, ERR_NOMEM, "diff: out of memory");
    size_t k = 0;
    for (size_t r = 0; r < m->nranks; r++) {
        const struct rank_model *rk = &m->ranks[r];
        if (!i64_set_has(plan->ranks, plan->nranks, rk->rank))
            continue;
        for (size_t i = 0; i < rk->niterations; i++)
            v[k++] = rk->iterations[i].number;
    }
    *n = sort_unique_i64(v, k);
    *out = v;
    return 0;
}

static int copy_sorted(struct arena *a, const int64_t *src, size_t n, int64_t **out,
                       size_t *nout, struct err *e)
{
    int64_t *v = arena_calloc(a, n ? n : 1, sizeof *v);
    if (!v)
        return err_set(e, ERR_NOMEM, "diff: out of memory");
    if (n)
        memcpy(v, src, n * sizeof *v);
    *out = v;
    *nout = sort_unique_i64(v, n);
    return 0;
}

static int resolve_ranks(const struct model *m, const struct diff_request_side *req,
                         const char *label, struct arena *a, struct diff_plan *out,
                         struct err *e)
{
    bool hta = m->sem.diff_hta_quirks;
    if (m->nranks == 0)
        return err_set(e, ERR_EMPTY, "%s: no rank loaded", label);
    if (req->nranks && !req->all_ranks) {
        int rc = copy_sorted(a, req->ranks, req->nranks, &out->ranks, &out->nranks, e);
        if (rc)
            return rc;
        for (size_t i = 0; i < out->nranks; i++)
            if (!model_find_rank(m, out->ranks[i]))
                return err_set(e, ERR_USAGE, "%s: no rank %" PRId64 " (ranks %" PRId64
                               "..%" PRId64 ")", label, out->ranks[i], m->ranks[0].rank,
                               m->ranks[m->nranks - 1].rank);
        return 0;
    }
    bool all = req->all_ranks || !hta;
    size_t k = all ? m->nranks : 1;
    out->ranks = arena_calloc(a, k, sizeof *out->ranks);
    if (!out->ranks)
        return err_set(e, ERR_NOMEM, "diff: out of memory");
    for (size_t i = 0; i < k; i++)
        out->ranks[i] = m->ranks[i].rank;
    out->nranks = sort_unique_i64(out->ranks, k);
    return 0;
}

static int check_iterations(const int64_t *want, size_t nwant, const int64_t *valid,
                            size_t nvalid, const char *label, struct err *e)
{
    for (size_t i = 0; i < nwant; i++) {
        if (i64_set_has(valid, nvalid, want[i]))
            continue;
        if (nvalid == 0)
            return err_set(e, ERR_USAGE, "%s: no iteration %" PRId64
                           " (the trace has no ProfilerStep)", label, want[i]);
        return err_set(e, ERR_USAGE, "%s: no iteration %" PRId64 " (iterations %" PRId64
                       "..%" PRId64 ")", label, want[i], valid[0], valid[nvalid - 1]);
    }
    return 0;
}

int diff_resolve_side(const struct model *m, const struct diff_request_side *req,
                      const char *label, struct arena *a, struct diff_plan *out, struct err *e)
{
    bool hta = m->sem.diff_hta_quirks;
    memset(out, 0, sizeof *out);
    int rc = resolve_ranks(m, req, label, a, out, e);
    if (rc)
        return rc;
    int64_t *valid = NULL;
    size_t nvalid = 0;
    rc = hta ? diff_valid_iterations(m, a, &valid, &nvalid, e)
             : rank_iterations(m, out, a, &valid, &nvalid, e);
    if (rc)
        return rc;
    out->filter_iterations = hta;
    if (req->niterations && !req->all_iterations) {
        rc = copy_sorted(a, req->iterations, req->niterations, &out->iterations,
                         &out->niterations, e);
        return rc ? rc : check_iterations(out->iterations, out->niterations, valid, nvalid,
                                          label, e);
    }
    if (!hta)
        return 0;   /* htx: no iteration list = everything, like every analysis */
    if (nvalid == 0) {
        out->note = "no ProfilerStep in the trace: TraceDiff selects nothing";
        return 0;
    }
    out->iterations = valid;
    out->niterations = req->all_iterations ? nvalid : 1;
    return 0;
}

void diff_plan_selection(const struct diff_plan *plan, struct selection *out)
{
    memset(out, 0, sizeof *out);
    out->ranks = plan->ranks;
    out->nranks = plan->nranks;
    if (!plan->filter_iterations) {
        out->iterations = plan->iterations;
        out->niterations = plan->niterations;
    }
}

/* ---- summaries ------------------------------------------------------------ */

struct acc {
    int64_t count, dur;
};

bool diff_event_wanted(const struct model *m, const struct event *ev, const struct diff_filter *f)
{
    if (ev->kind == EV_KIND_TRACE_SPAN)
        return false;
    const struct diff_plan *p = f->plan;
    /* Under from_events the plan's iterations also stand in for model_select. */
    if (p && (p->filter_iterations || (f->from_events && p->niterations))) {
        if (ev->iteration < 0 || !i64_set_has(p->iterations, p->niterations, ev->iteration))
            return false;
    }
    switch (f->device) {
    case DIFF_DEVICE_CPU:
        return !model_is_gpu_side(m, ev);
    case DIFF_DEVICE_GPU:
        return model_is_gpu_side(m, ev);
    default:
        return true;
    }
}

/* Counts and durations, by name id, of the rank's events f wants into acc;
 * with gpu_acc, the GPU-side ones go there instead (both sides in one pass). */
static void accumulate(const struct model *m, const struct rank_model *rk,
                       const struct diff_filter *f, struct acc *acc, struct acc *gpu_acc,
                       size_t nstr)
{
    size_t n = f->from_events ? rk->nevents : rk->nrows;
    for (size_t i = 0; i < n; i++) {
        uint32_t pos = f->from_events ? (uint32_t)i : rk->rows[i];
        if (pos >= rk->nevents)
            continue;
        const struct event *ev = &rk->events[pos];
        if (ev->name >= nstr || !diff_event_wanted(m, ev, f))
            continue;
        struct acc *a = gpu_acc && model_is_gpu_side(m, ev) ? gpu_acc : acc;
        a[ev->name].count++;
        a[ev->name].dur += ev->dur;
    }
}

static bool rank_in_filter(const struct rank_model *rk, const struct diff_filter *f)
{
    if (!f->from_events)
        return rk->selected;
    return f->plan && i64_set_has(f->plan->ranks, f->plan->nranks, rk->rank);
}

static int cmp_entry(const void *a, const void *b)
{
    const struct diff_entry *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->key, y->key, n);
    if (c)
        return c;
    return (x->len > y->len) - (x->len < y->len);
}

/* Sets entry's key to the short name of name. */
static int set_short_key(const char *name, struct arena *a, struct diff_entry *en)
{
    size_t len = strlen(name);   /* shorten_name works on C strings */
    char *buf = arena_alloc(a, len + 1);
    if (!buf)
        return ERR_NOMEM;
    shorten_name(name, buf, len + 1);
    en->key = buf;
    en->len = strlen(buf);
    return 0;
}

/* Sorts entries by key and merges equal keys (short names). */
static size_t sort_merge(struct diff_entry *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_entry);
    size_t k = 1;
    for (size_t i = 1; i < n; i++) {
        if (cmp_entry(&v[i], &v[k - 1]) == 0) {
            v[k - 1].count += v[i].count;
            v[k - 1].dur_ns += v[i].dur_ns;
        } else {
            v[k++] = v[i];
        }
    }
    return k;
}

/* Merges out's k entries by key and says whether every total is whole us. */
static void finish_summary(struct diff_summary *out, size_t k)
{
    out->n = sort_merge(out->entries, k);
    out->whole_us = true;
    for (size_t i = 0; i < out->n; i++)
        if (out->entries[i].dur_ns % 1000 != 0)
            out->whole_us = false;
}

static int collect(const struct model *m, const struct acc *acc, size_t nstr, bool short_names,
                   struct arena *a, struct diff_summary *out)
{
    size_t k = 0;
    for (size_t id = 0; id < nstr; id++)
        k += acc[id].count > 0;
    out->entries = arena_calloc(a, k ? k : 1, sizeof *out->entries);
    if (!out->entries)
        return ERR_NOMEM;
    k = 0;
    for (size_t id = 0; id < nstr; id++) {
        if (acc[id].count == 0)
            continue;
        struct diff_entry *en = &out->entries[k++];
        en->count = acc[id].count;
        en->dur_ns = acc[id].dur;
        if (short_names) {
            if (set_short_key(model_str(m, (uint32_t)id), a, en))
                return ERR_NOMEM;
        } else {
            en->key = model_str(m, (uint32_t)id);
            en->len = strtab_len(&m->strings, (uint32_t)id);
        }
    }
    finish_summary(out, k);
    return 0;
}

/* ---- parts: what each rank adds, for a job read from its summaries ---------- */

static const struct table_col part_cols[] = {
    {"rank", NULL, COL_KEY},   {"name", NULL, COL_KEY},    {"cpu_count", NULL, 0},
    {"cpu_dur_ns", "ns", 0},   {"gpu_count", NULL, 0},     {"gpu_dur_ns", "ns", 0},
};
#define NPART_COLS (sizeof part_cols / sizeof part_cols[0])

int diff_parts_run(const struct model *m, const struct analysis_opts *o, struct arena *a,
                   struct table_list *out, struct err *e)
{
    (void)o;
    size_t nstr = strtab_count(&m->strings);
    struct acc *acc = calloc(2 * (nstr ? nstr : 1), sizeof *acc);   // cpu, then gpu
    struct table *t = table_list_new(a, out, DIFF_PARTS, "Ops by rank", part_cols, NPART_COLS, e);
    if (!acc || !t) {
        free(acc);
        return t ? err_set(e, ERR_NOMEM, "diff: out of memory") : e->code;
    }
    struct diff_filter all = {DIFF_DEVICE_ALL, false, NULL, false};
    int rc = 0;
    for (size_t r = 0; r < m->nranks && rc == 0; r++) {
        const struct rank_model *rk = &m->ranks[r];
        if (!rk->selected)
            continue;
        memset(acc, 0, 2 * (nstr ? nstr : 1) * sizeof *acc);
        accumulate(m, rk, &all, acc, acc + nstr, nstr);
        for (size_t id = 0; id < nstr && rc == 0; id++) {
            if (!acc[id].count && !acc[nstr + id].count)
                continue;
            struct cell *row = table_add_row(t);
            if (!row) {
                rc = ERR_NOMEM;
                break;
            }
            row[0] = cell_int(rk->rank);
            row[1] = cell_str(t, model_str(m, (uint32_t)id));
            row[2] = cell_int(acc[id].count);
            row[3] = cell_int(acc[id].dur);
            row[4] = cell_int(acc[nstr + id].count);
            row[5] = cell_int(acc[nstr + id].dur);
        }
    }
    free(acc);
    return rc ? err_set(e, ERR_NOMEM, "diff: out of memory") : 0;
}

const char *diff_parts_check(const struct table *parts)
{
    if (strcmp(parts->name, DIFF_PARTS) != 0 || parts->ncols != NPART_COLS)
        return "not a diff part";
    for (size_t i = 0; i < parts->nrows; i++) {
        const struct cell *row = table_cell(parts, i, 0);
        if (row[0].type != CELL_INT || row[1].type != CELL_STR || !row[1].v.s)
            return "a row without its rank or name";
        for (int c = 2; c < 6; c++)
            if (row[c].type != CELL_INT || row[c].v.i < 0)
                return "a count or duration that is not one";
        if (i && row[0].v.i < table_cell(parts, i - 1, 0)->v.i)
            return "ranks out of order";
    }
    return NULL;
}

/* The entries of a side's parts: the rows of rank `only` (or of the plan's
 * ranks, or all), by the filter's device; keys are the rows' names. */
static int summarize_parts(const struct table *parts, const int64_t *only,
                           const struct diff_filter *f, struct arena *a, struct diff_summary *out)
{
    out->entries = arena_calloc(a, parts->nrows ? parts->nrows : 1, sizeof *out->entries);
    if (!out->entries)
        return ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < parts->nrows; i++) {
        const struct cell *row = table_cell(parts, i, 0);
        int64_t rank = row[0].v.i;
        if (only ? rank != *only
                 : f->plan && !i64_set_has(f->plan->ranks, f->plan->nranks, rank))
            continue;
        int64_t count = 0, dur = 0;
        if (f->device != DIFF_DEVICE_GPU && (__builtin_add_overflow(count, row[2].v.i, &count) ||
                                             __builtin_add_overflow(dur, row[3].v.i, &dur)))
            return ERR_LIMIT;
        if (f->device != DIFF_DEVICE_CPU && (__builtin_add_overflow(count, row[4].v.i, &count) ||
                                             __builtin_add_overflow(dur, row[5].v.i, &dur)))
            return ERR_LIMIT;
        if (count == 0)
            continue;
        struct diff_entry *en = &out->entries[k++];
        en->count = count;
        en->dur_ns = dur;
        if (f->short_names) {
            if (set_short_key(row[1].v.s, a, en))
                return ERR_NOMEM;
        } else {
            en->key = row[1].v.s;
            en->len = strlen(row[1].v.s);
        }
    }
    finish_summary(out, k);
    return 0;
}

/* Counts and sums the rows of a side's ranks (the model's selected ones, or
 * the plan's in its parts; or `only` when not NULL) by name. The summary's
 * arrays live in a; full-name keys point into the model's string table or
 * the parts. */
static int diff_summarize(const struct diff_side *side, const int64_t *only,
                          const struct diff_filter *f, struct arena *a, struct diff_summary *out,
                          struct err *e)
{
    memset(out, 0, sizeof *out);
    out->whole_us = true;
    if (!side->m) {
        int rc = summarize_parts(side->parts, only, f, a, out);
        return rc ? err_set(e, rc, rc == ERR_NOMEM ? "diff: out of memory"
                                                   : "diff: totals past int64")
                  : 0;
    }
    const struct model *m = side->m;
    size_t nstr = strtab_count(&m->strings);
    struct acc *acc = calloc(nstr ? nstr : 1, sizeof *acc);
    if (!acc)
        return err_set(e, ERR_NOMEM, "diff: out of memory");
    bool empty_plan = f->plan && f->plan->filter_iterations && f->plan->niterations == 0;
    for (size_t r = 0; r < m->nranks && !empty_plan; r++) {
        const struct rank_model *rk = &m->ranks[r];
        if (only ? rk->rank != *only : !rank_in_filter(rk, f))
            continue;
        accumulate(m, rk, f, acc, NULL, nstr);
    }
    int rc = collect(m, acc, nstr, f->short_names, a, out);
    free(acc);
    return rc ? err_set(e, rc, "diff: out of memory") : 0;
}

/* ---- join ----------------------------------------------------------------- */

static enum diff_change classify(int64_t c, int64_t t)
{
    if (c == 0)
        return DIFF_ADDED;
    if (t == 0)
        return DIFF_DELETED;
    if (t > c)
        return DIFF_INCREASED;
    return t < c ? DIFF_DECREASED : DIFF_UNCHANGED;
}

static void set_row(struct diff_row *row, const struct diff_entry *c, const struct diff_entry *t)
{
    const struct diff_entry *k = c ? c : t;
    row->name = k->key;
    row->len = k->len;
    row->control_count = c ? c->count : 0;
    row->control_dur_ns = c ? c->dur_ns : 0;
    row->test_count = t ? t->count : 0;
    row->test_dur_ns = t ? t->dur_ns : 0;
    row->change = classify(row->control_count, row->test_count);
}

/* Merge-walks both sorted summaries. Under hta_order, control keys go to the
 * front and test-only keys after them; both runs stay in key order. */
/* Outer join of two summaries. hta_order: control keys in key order, then
 * the test-only keys in key order (§3.10 step 2); else the union in key
 * order. Rows live in a. */
static int diff_join(const struct diff_summary *control, const struct diff_summary *test,
              bool hta_order, struct arena *a, struct diff_result *out, struct err *e)
{
    memset(out, 0, sizeof *out);
    size_t max = control->n + test->n;
    out->rows = arena_calloc(a, max ? max : 1, sizeof *out->rows);
    struct diff_row *tail = arena_calloc(a, test->n ? test->n : 1, sizeof *tail);
    if (!out->rows || !tail)
        return err_set(e, ERR_NOMEM, "diff: out of memory");
    size_t i = 0, j = 0, n = 0, ntail = 0;
    while (i < control->n || j < test->n) {
        int c = i == control->n ? 1 : j == test->n ? -1
                                                    : cmp_entry(&control->entries[i],
                                                                &test->entries[j]);
        if (c < 0) {
            set_row(&out->rows[n++], &control->entries[i++], NULL);
        } else if (c > 0) {
            struct diff_row *row = hta_order ? &tail[ntail++] : &out->rows[n++];
            set_row(row, NULL, &test->entries[j++]);
        } else {
            set_row(&out->rows[n++], &control->entries[i++], &test->entries[j++]);
        }
    }
    memcpy(out->rows + n, tail, ntail * sizeof *tail);
    out->nrows = n + ntail;
    out->whole_us = control->whole_us && test->whole_us;
    out->same_keys = true;
    for (size_t r = 0; r < out->nrows; r++) {
        out->counts[out->rows[r].change]++;
        if (out->rows[r].change == DIFF_ADDED || out->rows[r].change == DIFF_DELETED)
            out->same_keys = false;
    }
    return 0;
}

/* ---- regression gate ------------------------------------------------------ */

static double growth(int64_t c, int64_t t)
{
    if (c == 0)
        return t > 0 ? INFINITY : 0.0;
    return ((double)t - (double)c) / fabs((double)c) * 100.0;
}

static int cmp_regression(const void *a, const void *b)
{
    const struct diff_regression *x = a, *y = b;
    if (x->growth_pct != y->growth_pct)
        return x->growth_pct > y->growth_pct ? -1 : 1;
    return strcmp(x->name, y->name);
}

int diff_find_regressions(const struct diff_result *gpu, double pct, int64_t min_ns,
                          struct arena *a, struct diff_regression **out, size_t *n,
                          struct err *e)
{
    *out = arena_calloc(a, gpu->nrows + 1, sizeof **out);
    if (!*out)
        return err_set(e, ERR_NOMEM, "diff: out of memory");
    int64_t ctotal = 0, ttotal = 0;
    size_t k = 1;
    for (size_t i = 0; i < gpu->nrows; i++) {
        const struct diff_row *row = &gpu->rows[i];
        ctotal += row->control_dur_ns;
        ttotal += row->test_dur_ns;
        int64_t larger = row->control_dur_ns > row->test_dur_ns ? row->control_dur_ns
                                                                : row->test_dur_ns;
        double g = growth(row->control_dur_ns, row->test_dur_ns);
        if (larger <= min_ns || !(g > pct))
            continue;
        struct diff_regression *rg = &(*out)[k++];
        rg->name = row->name;
        rg->control_ns = row->control_dur_ns;
        rg->test_ns = row->test_dur_ns;
        rg->growth_pct = g;
    }
    qsort(*out + 1, k - 1, sizeof **out, cmp_regression);
    double g = growth(ctotal, ttotal);
    if (g > pct) {
        struct diff_regression *total = &(*out)[0];
        total->name = "total GPU time";
        total->is_total = true;
        total->control_ns = ctotal;
        total->test_ns = ttotal;
        total->growth_pct = g;
        *n = k;
    } else {
        *out += 1;
        *n = k - 1;
    }
    return 0;
}

/* ---- the whole diff ------------------------------------------------------- */

static bool side_hta(const struct diff_side *s)
{
    return s->m ? s->m->sem.diff_hta_quirks : false;   // parts: htx's
}

/* Both sides summarized (only: one rank each, NULL: the plans') and joined;
 * under htx's semantics their ProfilerStep#N rows paired by position. */
static int compare_sides(const struct diff_side *c, const int64_t *conly,
                         const struct diff_side *t, const int64_t *tonly,
                         const struct diff_run_opts *o, bool short_names, struct arena *a,
                         struct diff_result *out, struct err *e)
{
    struct diff_filter cf = {o->device, short_names, o->control, o->from_events};
    struct diff_filter tf = {o->device, short_names, o->test, o->from_events};
    struct diff_summary cs, ts;
    int rc = diff_summarize(c, conly, &cf, a, &cs, e);
    if (!rc)
        rc = diff_summarize(t, tonly, &tf, a, &ts, e);
    bool renamed = false;
    if (!rc && !side_hta(c) && diff_pair_steps(&cs, &ts, a, &renamed))
        rc = err_set(e, ERR_NOMEM, "diff: out of memory");
    if (!rc && renamed) {
        finish_summary(&cs, cs.n);
        finish_summary(&ts, ts.n);
    }
    if (!rc)
        rc = diff_join(&cs, &ts, side_hta(c), a, out, e);
    return rc;
}

int diff_compare_side_pair(const struct diff_side *control, const struct diff_side *test,
                           const struct diff_run_opts *o, bool short_names, struct arena *a,
                           struct diff_result *out, struct err *e)
{
    return compare_sides(control, NULL, test, NULL, o, short_names, a, out, e);
}

int diff_compare_sides(const struct model *cm, const struct rank_model *conly,
                       const struct model *tm, const struct rank_model *tonly,
                       const struct diff_run_opts *o, bool short_names, struct arena *a,
                       struct diff_result *out, struct err *e)
{
    struct diff_side c = {cm, NULL}, t = {tm, NULL};
    return compare_sides(&c, conly ? &conly->rank : NULL, &t, tonly ? &tonly->rank : NULL, o,
                         short_names, a, out, e);
}

/* Whether the side has that rank (parts: every rank of its plan). */
static bool side_has_rank(const struct diff_side *s, int64_t rank)
{
    return !s->m || model_find_rank(s->m, rank) != NULL;
}

/* One compare_traces_by_rank block per pair of selected ranks, paired by
 * position (control's i-th rank against test's i-th). */
static int add_by_rank(const struct diff_side *cs, const struct diff_side *ts,
                       const struct diff_run_opts *o, const struct diff_table_opts *to,
                       struct arena *a, struct table_list *tl, struct err *e)
{
    struct table *t = diff_by_rank_table_new(to, a);
    if (!t)
        return err_set(e, ERR_NOMEM, "diff: out of memory");
    size_t np = o->control->nranks < o->test->nranks ? o->control->nranks : o->test->nranks;
    for (size_t i = 0; i < np; i++) {
        const int64_t *cr = &o->control->ranks[i], *tr = &o->test->ranks[i];
        struct diff_result r;
        if (!side_has_rank(cs, *cr) || !side_has_rank(ts, *tr))
            continue;
        int rc = compare_sides(cs, cr, ts, tr, o, o->short_names, a, &r, e);
        if (!rc && diff_by_rank_table_add(t, *cr, *tr, &r, to))
            rc = err_set(e, ERR_NOMEM, "diff: out of memory");
        if (rc)
            return rc;
    }
    if (o->control->nranks != o->test->nranks)
        table_set_note(t, "control has %zu ranks and test %zu: paired the first %zu by position",
                       o->control->nranks, o->test->nranks, np);
    return table_list_add(tl, t) ? err_set(e, ERR_INTERNAL, "diff: too many tables") : 0;
}

static void note_plans(struct table *t, const struct diff_run_opts *o)
{
    if (o->control->note && o->test->note)
        table_set_note(t, "control and test: %s", o->control->note);
    else if (o->control->note)
        table_set_note(t, "control: %s", o->control->note);
    else if (o->test->note)
        table_set_note(t, "test: %s", o->test->note);
}

int diff_run(const struct model *control, const struct model *test,
             const struct diff_run_opts *o, struct arena *a, struct diff_output *out,
             struct err *e)
{
    struct diff_side c = {control, NULL}, t = {test, NULL};
    return diff_run_sides(&c, &t, o, a, out, e);
}

int diff_run_sides(const struct diff_side *control, const struct diff_side *test,
                   const struct diff_run_opts *o, struct arena *a, struct diff_output *out,
                   struct err *e)
{
    bool hta = side_hta(control);
    struct diff_table_opts to = {hta, o->short_names};
    memset(out, 0, sizeof *out);
    int rc = compare_sides(control, NULL, test, NULL, o, o->short_names, a, &out->result, e);
    if (rc)
        return rc;
    /* HTA's ops_diff always compares full names. */
    if (hta && o->short_names)
        rc = compare_sides(control, NULL, test, NULL, o, false, a, &out->ops, e);
    else
        out->ops = out->result;
    if (rc)
        return rc;
    struct table *ct = diff_compare_traces_table(&out->result, &to, a);
    struct table *ot = diff_ops_diff_table(&out->ops, a);
    if (!ct || !ot)
        return err_set(e, ERR_NOMEM, "diff: out of memory");
    note_plans(ct, o);
    table_list_add(&out->tables, ct);
    if (o->per_rank && !hta) {
        rc = add_by_rank(control, test, o, &to, a, &out->tables, e);
        if (rc)
            return rc;
    }
    return table_list_add(&out->tables, ot) ? err_set(e, ERR_INTERNAL, "diff: too many tables")
                                            : 0;
}
