#include "config.h"
#include "cli/commands.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/trust.h"
#include "app/session.h"
#include "util/sort.h"
#include "util/vec.h"

/* `htx info`: what was loaded, per rank. Counts are of complete (ph "X")
 * events by category, as DESIGN.md's JSON schema lists them. */

struct info_counts {
    const char *key;
    uint64_t n;
};

#define INFO_NCOUNTS 8

static void rank_counts(const struct rank_model *r, struct info_counts c[INFO_NCOUNTS])
{
    const uint64_t *k = r->complete_by_kind;
    c[0] = (struct info_counts){"events", r->complete_events};
    c[1] = (struct info_counts){"kernels", k[EV_KIND_KERNEL]};
    c[2] = (struct info_counts){"memcpy", k[EV_KIND_MEMCPY]};
    c[3] = (struct info_counts){"memset", k[EV_KIND_MEMSET]};
    c[4] = (struct info_counts){"cpu_ops", k[EV_KIND_CPU_OP]};
    c[5] = (struct info_counts){"runtime", k[EV_KIND_RUNTIME] + k[EV_KIND_DRIVER]};
    c[6] = (struct info_counts){"user_annotations", k[EV_KIND_USER_ANNOTATION]};
    c[7] = (struct info_counts){"gpu_user_annotations", k[EV_KIND_GPU_USER_ANNOTATION]};
}

/* Distinct numeric args.stream of complete kernel/memcpy/memset events,
 * ascending. Caller frees *out. Consecutive repeats are skipped early so
 * the buffer stays small on real traces. */
static size_t rank_streams(const struct rank_model *r, int64_t **out)
{
    int64_t *v = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < r->nevents; i++) {
        const struct event *ev = &r->events[i];
        bool gpu = ev->kind == EV_KIND_KERNEL || ev->kind == EV_KIND_MEMCPY ||
                   ev->kind == EV_KIND_MEMSET;
        if (!gpu || !(ev->flags & EV_FLAG_COMPLETE) || !(ev->flags & EV_FLAG_HAS_STREAM))
            continue;
        if (n > 0 && v[n - 1] == ev->stream)
            continue;
        if (VEC_PUSH_SLOT(v, n, cap) < 0)
            break;
        v[n++] = ev->stream;
        if (n == cap && n >= 1024)
            n = sort_unique_i64(v, n);
    }
    *out = v;
    return sort_unique_i64(v, n);
}

/* ProfilerStep numbers, ascending without repeats. Caller frees *out. */
static size_t rank_iterations(const struct rank_model *r, int64_t **out)
{
    int64_t *v = malloc((r->niterations ? r->niterations : 1) * sizeof *v);
    if (!v) {
        *out = NULL;
        return 0;
    }
    for (size_t i = 0; i < r->niterations; i++)
        v[i] = r->iterations[i].number;
    *out = v;
    return sort_unique_i64(v, r->niterations);
}

static bool rank_wanted(const struct rank_model *r, const struct htx_options *opts)
{
    if (opts->ranks.all)
        return true;
    return i64_set_has(opts->ranks.v, opts->ranks.n, r->rank);
}

/* "3-5, 9": runs of consecutive numbers shortened, for text output. */
static void write_ranges(FILE *f, const int64_t *v, size_t n)
{
    if (n == 0) {
        fputs("none", f);
        return;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1)
            j++;
        fprintf(f, "%s%lld", i ? ", " : "", (long long)v[i]);
        if (j > i)
            fprintf(f, "%s%lld", j == i + 1 ? ", " : "-", (long long)v[j]);
        i = j + 1;
    }
}

static void text_rank(FILE *f, const struct rank_model *r)
{
    struct info_counts c[INFO_NCOUNTS];
    rank_counts(r, c);
    fprintf(f, "rank %lld: ", (long long)r->rank);
    format_write_escaped(f, r->path);
    fprintf(f, "\n  %-22s %s\n", "rank from", model_rank_source_name(r->rank_source));
    if (r->world_size >= 0)
        fprintf(f, "  %-22s %lld\n", "world size", (long long)r->world_size);
    else
        fprintf(f, "  %-22s unknown\n", "world size");
    fprintf(f, "  %-22s %s", "device", model_device_name(r->device));
    if (r->device_name[0]) {
        fputs(" (", f);
        format_write_escaped(f, r->device_name);
        fputc(')', f);
    }
    fputc('\n', f);
    for (int i = 0; i < INFO_NCOUNTS; i++)
        fprintf(f, "  %-22s %llu\n", c[i].key, (unsigned long long)c[i].n);
    if (r->ngraph_launches)
        fprintf(f, "  %-22s %llu in %zu launch%s\n", "graph kernels",
                (unsigned long long)r->graph_kernels, r->ngraph_launches,
                r->ngraph_launches == 1 ? "" : "es");
    int64_t *v;
    size_t n = rank_streams(r, &v);
    // A count first, so that a lone stream 0 does not read as none.
    fprintf(f, "  %-22s %zu", "streams", n);
    if (n) {
        fputs(" (", f);
        write_ranges(f, v, n);
        fputc(')', f);
    }
    free(v);
    n = rank_iterations(r, &v);
    fprintf(f, "\n  %-22s ", "iterations");
    write_ranges(f, v, n);
    free(v);
    fprintf(f, "\n  %-22s %lld\n  %-22s %lld\n", "start_ns", (long long)r->start_ns, "end_ns",
            (long long)r->end_ns);
    fprintf(f, "  %-22s %llu\n", "warnings", (unsigned long long)r->nwarnings);
    for (size_t i = 0; i < r->nwarning_texts; i++) {
        fputs("    ", f);
        format_write_escaped(f, r->warning_texts[i]);
        fputc('\n', f);
    }
}

/* The job's checks that fired: one "trust" block after the ranks. */
static void text_trust(FILE *f, const struct trust_report *tr, bool first)
{
    if (tr->n == 0)
        return;
    fputs(first ? "trust\n" : "\ntrust\n", f);
    for (size_t i = 0; i < tr->n; i++) {
        fprintf(f, "  %-22s %s", trust_check_name(tr->findings[i].check),
                tr->findings[i].severe ? "severe: " : "");
        format_write_escaped(f, tr->findings[i].text);
        fputc('\n', f);
    }
}

void info_write_text(FILE *f, const struct model *m, const struct htx_options *opts)
{
    bool first = true;
    for (size_t i = 0; i < m->nranks; i++) {
        if (!rank_wanted(&m->ranks[i], opts))
            continue;
        if (!first)
            fputc('\n', f);
        first = false;
        text_rank(f, &m->ranks[i]);
    }
    for (size_t i = 0; i < m->nfailed; i++) {
        fputs(first && i == 0 ? "failed: " : "\nfailed: ", f);
        format_write_escaped(f, m->failed[i].path);
        fputs("\n  ", f);
        format_write_escaped(f, m->failed[i].message);
        fputc('\n', f);
    }
    struct trust_report tr;
    if (trust_of_model(m, &tr) == 0)
        text_trust(f, &tr, first && m->nfailed == 0);
}

static void json_numbers(struct jsonw *w, const char *key, const int64_t *v, size_t n)
{
    jsonw_key(w, key);
    jsonw_begin_array(w);
    for (size_t i = 0; i < n; i++)
        jsonw_int(w, (long long)v[i]);
    jsonw_end_array(w);
}

static void json_rank(struct jsonw *w, const struct rank_model *r)
{
    struct info_counts c[INFO_NCOUNTS];
    rank_counts(r, c);
    jsonw_begin_object(w);
    jsonw_key(w, "path");
    jsonw_string(w, r->path);
    jsonw_key(w, "rank");
    jsonw_int(w, (long long)r->rank);
    jsonw_key(w, "world_size");
    if (r->world_size >= 0)
        jsonw_int(w, (long long)r->world_size);
    else
        jsonw_null(w);
    jsonw_key(w, "device");
    jsonw_string(w, model_device_name(r->device));
    for (int i = 0; i < INFO_NCOUNTS; i++) {
        jsonw_key(w, c[i].key);
        jsonw_uint(w, (unsigned long long)c[i].n);
    }
    int64_t *v;
    size_t n = rank_streams(r, &v);
    json_numbers(w, "streams", v, n);
    free(v);
    jsonw_key(w, "graph_kernels");
    jsonw_uint(w, (unsigned long long)r->graph_kernels);
    jsonw_key(w, "graph_launches");
    jsonw_uint(w, (unsigned long long)r->ngraph_launches);
    n = rank_iterations(r, &v);
    json_numbers(w, "iterations", v, n);
    free(v);
    jsonw_key(w, "start_ns");
    jsonw_int(w, (long long)r->start_ns);
    jsonw_key(w, "end_ns");
    jsonw_int(w, (long long)r->end_ns);
    jsonw_key(w, "rank_source");
    jsonw_string(w, model_rank_source_name(r->rank_source));
    jsonw_key(w, "device_name");
    jsonw_string(w, r->device_name);
    jsonw_key(w, "warnings");
    jsonw_begin_array(w);
    for (size_t i = 0; i < r->nwarning_texts; i++)
        jsonw_string(w, r->warning_texts[i]);
    jsonw_end_array(w);
    jsonw_key(w, "warning_count");
    jsonw_uint(w, (unsigned long long)r->nwarnings);
    jsonw_key(w, "events_dropped");
    jsonw_uint(w, (unsigned long long)r->events_dropped);
    jsonw_key(w, "events_repaired");
    jsonw_uint(w, (unsigned long long)r->events_repaired);
    jsonw_end_object(w);
}

void info_write_json(FILE *f, const struct model *m, const struct htx_options *opts)
{
    struct jsonw w;
    jsonw_init(&w, f, 2);
    jsonw_begin_object(&w);
    jsonw_key(&w, "inputs");
    jsonw_begin_array(&w);
    for (size_t i = 0; i < m->nranks; i++)
        if (rank_wanted(&m->ranks[i], opts))
            json_rank(&w, &m->ranks[i]);
    jsonw_end_array(&w);
    if (m->nfailed > 0) {
        jsonw_key(&w, "failed");
        jsonw_begin_array(&w);
        for (size_t i = 0; i < m->nfailed; i++) {
            jsonw_begin_object(&w);
            jsonw_key(&w, "path");
            jsonw_string(&w, m->failed[i].path);
            jsonw_key(&w, "error");
            jsonw_string(&w, m->failed[i].message);
            jsonw_end_object(&w);
        }
        jsonw_end_array(&w);
    }
    struct trust_report tr;
    struct arena a;
    arena_init(&a, 0);
    struct table *t = trust_of_model(m, &tr) == 0 ? trust_table(&tr, &a) : NULL;
    jsonw_key(&w, "trust");
    if (t) {
        format_table_json_rows(&w, t);
    } else {
        jsonw_begin_array(&w);
        jsonw_end_array(&w);
    }
    arena_fini(&a);
    jsonw_end_object(&w);
    jsonw_finish(&w);
}

int cli_info_main(const struct htx_options *opts)
{
    struct err e = {0, ""};
    struct model *m = app_open(opts, &e);
    if (!m)
        return app_fail(&e);
    struct app_out out;
    int rc = app_out_open(&out, &e);
    if (!rc) {
        if (opts->format == HTX_FORMAT_JSON)
            info_write_json(out.f, m, opts);
        else
            info_write_text(out.f, m, opts);
        rc = app_out_commit(&out, stdout, &e);
    }
    model_free(m);
    return rc ? app_fail(&e) : 0;
}
