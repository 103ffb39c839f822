#include "config.h"
#include "analysis/series.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/gpu_util.h"
#include "analysis/weighted.h"
#include "analysis/classify.h"
#include "util/vec.h"

/* Memory bandwidth (spec §3.7): GB/s in flight per copy kind. */

#define MEMBW_MAX_LABEL 16   /* "Memcpy Unknown" and 11-byte prefixes fit */

/* A transfer's start (+bw) or end (-bw). */
struct bwpoint {
    int64_t ts;
    double bw;
    uint32_t label, pid;
    int32_t delta;           /* +1 start, -1 end: transfers in flight */
};

/* The kinds seen so far, in first-seen order. */
#define MEMBW_MAX_LABELS 256
struct labels {
    char text[MEMBW_MAX_LABELS][MEMBW_MAX_LABEL];
    uint64_t with_bw[MEMBW_MAX_LABELS];   /* events with a bandwidth arg */
    size_t n;
};

/* §3.7 step 2. */
static void label_of(const char *name, char out[MEMBW_MAX_LABEL])
{
    if (strncmp(name, "Memset", 6) == 0)
        strcpy(out, "Memset");
    else if (strncmp(name, "Memcpy", 6) != 0)
        strcpy(out, "Memcpy Unknown");
    else
        snprintf(out, MEMBW_MAX_LABEL, "%.11s", name);
}

static uint32_t label_id(struct labels *l, const char *text)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->text[i], text) == 0)
            return (uint32_t)i;
    if (l->n == MEMBW_MAX_LABELS)
        return UINT32_MAX;
    memcpy(l->text[l->n], text, MEMBW_MAX_LABEL);
    return (uint32_t)l->n++;
}

/* Per name id: its label id + 1, 0 when not a memory event. Names are few,
 * events many, so each name is classified once. */
struct name_cache {
    uint32_t *label;
    size_t n;
};

static uint32_t classify_name(const struct model *m, struct name_cache *c, struct labels *l,
                              uint32_t name)
{
    if (name < c->n && c->label[name] != UINT32_MAX)
        return c->label[name];
    const char *s = model_str(m, name);
    uint32_t v = 0;
    if (kernel_classify(s, m->sem.hta_kernel_classes) == KC_MEMORY) {
        char text[MEMBW_MAX_LABEL];
        label_of(s, text);
        uint32_t id = label_id(l, text);
        v = id == UINT32_MAX ? 0 : id + 1;
    }
    if (name < c->n)
        c->label[name] = v;
    return v;
}

/* Starts in row order, then ends in row order (HTA's concatenation). */
static int collect_points(const struct model *m, const struct rank_model *r, struct arena *a,
                          struct labels *l, struct bwpoint **out, size_t *nout)
{
    struct name_cache c = {gpu_alloc(a, strtab_count(&m->strings), sizeof(uint32_t)),
                           strtab_count(&m->strings)};
    if (!c.label)
        return ERR_NOMEM;
    memset(c.label, 0xff, c.n * sizeof *c.label);
    // The transfers' positions, on the heap: a few of the rows, freed here.
    uint32_t *mem = NULL;
    size_t nmem = 0, cap = 0;
    for (size_t i = 0; i < r->nrows; i++) {
        const struct event *ev = &r->events[r->rows[i]];
        if (!model_is_gpu_side(m, ev) || !classify_name(m, &c, l, ev->name))
            continue;
        if (nmem == cap && VEC_PUSH_SLOT(mem, nmem, cap)) {
            free(mem);
            return ERR_NOMEM;
        }
        mem[nmem++] = r->rows[i];
    }
    struct bwpoint *pts = gpu_alloc(a, nmem, 2 * sizeof *pts);
    if (!pts) {
        free(mem);
        return ERR_NOMEM;
    }
    for (size_t i = 0; i < nmem; i++) {
        const struct event *ev = &r->events[mem[i]];
        uint32_t lab = classify_name(m, &c, l, ev->name) - 1;
        int64_t dur = ev->dur != 0 ? ev->dur : 1000;   /* HTA: a 0 duration becomes 1 us */
        l->with_bw[lab] += (ev->flags & EV_FLAG_HAS_BW) != 0;
        double bw = model_event_bw(r, ev);
        uint32_t pid = model_event_pid(m, ev);
        pts[i] = (struct bwpoint){ev->ts, bw, lab, pid, +1};
        pts[nmem + i] = (struct bwpoint){ev->ts + dur, -bw, lab, pid, -1};
    }
    free(mem);
    *out = pts;
    *nout = 2 * nmem;
    return 0;
}

static bool less_bw_ts(const void *keys, size_t a, size_t b)
{
    const struct bwpoint *p = keys;
    return p[a].ts < p[b].ts;
}

static int fill_series(const struct model *m, struct membw_series *s, const struct bwpoint *pts,
                       const size_t *perm, size_t n, uint32_t lab, struct arena *a)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += pts[perm[i]].label == lab;
    s->n = k;
    s->ts = gpu_alloc(a, k, sizeof *s->ts);
    s->bw_gbps = gpu_alloc(a, k, sizeof *s->bw_gbps);
    if (!s->ts || !s->bw_gbps)
        return ERR_NOMEM;
    double acc = 0.0;
    int64_t active = 0;
    k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct bwpoint *p = &pts[perm[i]];
        if (p->label != lab)
            continue;
        if (k == 0)
            s->pid = p->pid;
        acc += p->bw;
        active += p->delta;
        s->transfers += p->delta > 0;
        /* Bandwidth of nothing in flight is 0, not float residue. */
        if (active == 0 && !m->sem.membw_float_residue)
            acc = 0.0;
        s->ts[k] = p->ts;
        s->bw_gbps[k++] = acc;
    }
    return 0;
}

/* Label ids ordered by label text (HTA groups by label ascending); an
 * insertion sort, as there are only a handful of kinds. */
static void sort_labels(const struct labels *l, uint32_t *ids)
{
    for (size_t i = 0; i < l->n; i++) {
        size_t j = i;
        while (j > 0 && strcmp(l->text[ids[j - 1]], l->text[i]) > 0) {
            ids[j] = ids[j - 1];
            j--;
        }
        ids[j] = (uint32_t)i;
    }
}

int membw_series_build(const struct model *m, const struct rank_model *r, struct arena *a,
                       struct membw_series **out, size_t *nout, struct err *e)
{
    *out = NULL;
    *nout = 0;
    struct labels *l = gpu_alloc(a, 1, sizeof *l);
    struct bwpoint *pts;
    size_t n;
    if (!l || collect_points(m, r, a, l, &pts, &n))
        return err_set(e, ERR_NOMEM, "memory bandwidth: out of memory");
    if (n == 0)
        return 0;
    size_t *perm = gpu_alloc(a, n, sizeof *perm);
    uint32_t *ids = gpu_alloc(a, l->n, sizeof *ids);
    struct membw_series *s = gpu_alloc(a, l->n, sizeof *s);
    if (!perm || !ids || !s || sem_argsort(m, perm, n, pts, less_bw_ts))
        return err_set(e, ERR_NOMEM, "memory bandwidth: out of memory");
    sort_labels(l, ids);
    for (size_t k = 0; k < l->n; k++) {
        s[k].label = arena_strndup(a, l->text[ids[k]], strlen(l->text[ids[k]]));
        s[k].with_bw = l->with_bw[ids[k]];
        if (!s[k].label || fill_series(m, &s[k], pts, perm, n, ids[k], a))
            return err_set(e, ERR_NOMEM, "memory bandwidth: out of memory");
    }
    *out = s;
    *nout = l->n;
    return 0;
}

/* ---- membw_run: the summary table ---- */

/* describe() of the positive samples (HTA drops zeros and negative noise);
 * under htx each weighted by the time it held. Returns 1 when there is no
 * positive sample (no row, as HTA), 0 when d is set, or ERR_NOMEM. */
static int summarise(const struct model *m, const struct membw_series *s, struct arena *a,
                     struct describe *d)
{
    double *v = gpu_alloc(a, s->n, sizeof *v);
    double *w = gpu_alloc(a, s->n, sizeof *w);
    if (!v || !w)
        return ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!(s->bw_gbps[i] > 0.0))
            continue;
        v[k] = s->bw_gbps[i];
        w[k++] = i + 1 < s->n ? (double)(s->ts[i + 1] - s->ts[i]) : 0.0;
    }
    if (k == 0)
        return 1;
    if (m->sem.sample_weighted_summaries) {
        describe_values(v, k, d);
        return 0;
    }
    return describe_time_weighted(v, w, k, a, d);
}

struct membw_notes {
    size_t ranks_with_series;
    char missing[256];        /* kinds without any bandwidth value */
};

static void note_missing(struct membw_notes *nt, const char *label)
{
    if (strstr(nt->missing, label))
        return;
    size_t len = strlen(nt->missing);
    snprintf(nt->missing + len, sizeof nt->missing - len, "%s%s", len ? ", " : "", label);
}

static int membw_rank(const struct model *m, const struct rank_model *r, struct arena *a,
                      struct table *t, struct membw_notes *nt, struct err *e)
{
    struct membw_series *s;
    size_t ns;
    int rc = membw_series_build(m, r, a, &s, &ns, e);
    if (rc)
        return rc;
    nt->ranks_with_series += ns > 0;
    for (size_t k = 0; k < ns; k++) {
        struct describe d;
        if (s[k].with_bw == 0)
            note_missing(nt, s[k].label);
        rc = summarise(m, &s[k], a, &d);
        if (rc == 1)
            continue;
        struct cell *row = rc ? NULL : table_add_row(t);
        if (!row)
            return err_set(e, ERR_NOMEM, "memory bandwidth: out of memory");
        row[0] = cell_int(r->rank);
        row[1] = cell_str(t, s[k].label);
        describe_put_cells(row, 2, &d);
    }
    return 0;
}

int membw_run(const struct model *m, const struct analysis_opts *o, struct arena *scratch,
              struct table_list *out, struct err *e)
{
    (void)o;
    struct table_col cols[2 + DESCRIBE_NCOLS] = {
        {"rank", NULL, COL_KEY}, {"name", NULL, COL_KEY},
    };
    describe_cols(cols + 2, "GB/s");
    struct table *t = table_new(scratch, "memory_bw_summary", "Memory bandwidth per copy kind",
                                cols, 2 + DESCRIBE_NCOLS);
    if (!t)
        return err_set(e, ERR_NOMEM, "memory bandwidth: out of memory");
    struct membw_notes nt = {0, ""};
    for (size_t i = 0; i < m->nranks; i++) {
        if (!m->ranks[i].selected)
            continue;
        int rc = membw_rank(m, &m->ranks[i], scratch, t, &nt, e);
        if (rc)
            return rc;
    }
    const char *how = m->sem.sample_weighted_summaries
        ? "positive samples, one per change point (HTA)"
        : "time-weighted over the time each kind had transfers in flight";
    if (nt.ranks_with_series == 0)
        table_set_note(t, "no GPU memory copy or set in the selection");
    else if (nt.missing[0])
        table_set_note(t, "%s; no \"memory bandwidth (GB/s)\" value in the trace for: %s", how,
                       nt.missing);
    else
        table_set_note(t, "%s", how);
    if (table_list_add(out, t))
        return err_set(e, ERR_INTERNAL, "memory bandwidth: too many tables");
    return 0;
}
