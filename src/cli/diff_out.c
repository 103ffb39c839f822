#include "config.h"
#include "cli/diff_out.h"

#include "cli/diff_fit.h"

#include <inttypes.h>
#include <string.h>

/* ---- text ------------------------------------------------------------------ */

/* "0-3,5"; `none` when the list is empty. */
static void text_list(FILE *f, const int64_t *v, size_t n, const char *none)
{
    if (n == 0) {
        fputs(none, f);
        return;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && v[j + 1] == v[j] + 1)
            j++;
        fprintf(f, "%s%" PRId64, i ? "," : "", v[i]);
        if (j > i)
            fprintf(f, "-%" PRId64, v[j]);
        i = j + 1;
    }
}

static void text_side(FILE *f, const struct diff_out_side *s)
{
    const struct diff_plan *p = s->plan;
    fprintf(f, "%-8s", s->label);
    format_write_escaped(f, s->path);
    fputs("  rank ", f);
    text_list(f, p->ranks, p->nranks, "all");
    fputs("  iteration ", f);
    text_list(f, p->iterations, p->niterations, p->filter_iterations ? "none" : "all");
    fputc('\n', f);
}

/* A side's checks that fired, one line each. */
static void text_trust(FILE *f, const struct diff_out_side *s)
{
    const struct trust_report *tr = s->trust;
    if (!tr || tr->n == 0)
        return;
    fprintf(f, "trust (%s): %zu check%s fired%s\n", s->label, tr->n, tr->n == 1 ? "" : "s",
            trust_severe(tr) ? " (! severe: the job is not what its files claim)" : "");
    for (size_t i = 0; i < tr->n; i++) {
        fprintf(f, "  %c %s: ", tr->findings[i].severe ? '!' : '-',
                trust_check_name(tr->findings[i].check));
        format_write_escaped(f, tr->findings[i].text);
        fputc('\n', f);
    }
}

static int write_text(FILE *f, const struct format_opts *fo, const struct diff_out_side *sides,
                      const struct table_list *tl, bool hta)
{
    fprintf(f, "htx %s diff: %s semantics\n", PACKAGE_VERSION, hta ? "hta" : "htx");
    text_side(f, &sides[0]);
    text_side(f, &sides[1]);
    text_trust(f, &sides[0]);
    text_trust(f, &sides[1]);
    int width = diff_text_width();
    for (size_t i = 0; i < tl->count; i++) {
        fputc('\n', f);
        if (diff_write_text_table(f, tl->tables[i], fo, hta, width) < 0)
            return -1;
    }
    return 0;
}

/* ---- CSV ------------------------------------------------------------------- */

/* The two sides' checks as one table with a side column, in a; NULL when
 * none fired or out of memory (*nomem says which). */
static struct table *trust_rows(const struct diff_out_side *sides, struct arena *a, bool *nomem)
{
    static const struct table_col cols[] = {
        {"side", NULL, COL_KEY}, {"check", NULL, COL_KEY}, {"severe", NULL, 0},
        {"count", NULL, 0}, {"ranks", NULL, 0}, {"message", NULL, 0},
    };
    *nomem = false;
    if ((!sides[0].trust || !sides[0].trust->n) && (!sides[1].trust || !sides[1].trust->n))
        return NULL;
    struct table *t = table_new(a, "trust", "What htx could not trust", cols, 6);
    for (int k = 0; t && k < 2; k++) {
        struct table *one = sides[k].trust ? trust_table(sides[k].trust, a) : NULL;
        for (size_t r = 0; one && r < one->nrows; r++) {
            struct cell *row = table_add_row(t);
            if (!row) {
                one = NULL;
                break;
            }
            row[0] = cell_str(t, sides[k].label);
            memcpy(row + 1, table_cell(one, r, 0), 5 * sizeof *row);
        }
        if (sides[k].trust && !one)
            t = NULL;
    }
    *nomem = t == NULL;
    return t;
}

/* The tables, then the trust table when there is one. */
static int write_csv_tables(FILE *f, const struct format_opts *fo, const struct table_list *tl,
                            const struct table *trust)
{
    size_t n = tl->count + (trust != NULL);
    for (size_t i = 0; i < n; i++) {
        const struct table *t = i < tl->count ? tl->tables[i] : trust;
        if (i)
            fputs("\r\n", f);
        if (n > 1) {
            fputs("# ", f);
            format_csv_field(f, t->name);
            fputs("\r\n", f);
        }
        if (format_table_csv(f, t, fo) < 0)
            return -1;
    }
    return 0;
}

static int write_csv(FILE *f, const struct format_opts *fo, const struct table_list *tl,
                     const struct diff_out_side *sides)
{
    struct arena a;
    arena_init(&a, 0);
    bool nomem;
    struct table *trust = trust_rows(sides, &a, &nomem);
    int rc = nomem ? -1 : write_csv_tables(f, fo, tl, trust);
    arena_fini(&a);
    return rc;
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_list(struct jsonw *w, const int64_t *v, size_t n)
{
    jsonw_begin_array(w);
    for (size_t i = 0; i < n; i++)
        jsonw_int(w, (long long)v[i]);
    jsonw_end_array(w);
}

static void json_inputs(struct jsonw *w, const struct diff_out_side *sides)
{
    jsonw_key(w, "inputs");
    jsonw_begin_array(w);
    for (int k = 0; k < 2; k++) {
        const struct model *m = sides[k].m;
        for (size_t i = 0; i < m->nranks; i++) {
            const struct rank_model *r = &m->ranks[i];
            jsonw_begin_object(w);
            jsonw_key(w, "side");
            jsonw_string(w, sides[k].label);
            jsonw_input_fields(w, r);
            jsonw_end_object(w);
        }
    }
    jsonw_end_array(w);
}

static void json_failed(struct jsonw *w, const struct diff_out_side *sides)
{
    if (sides[0].m->nfailed + sides[1].m->nfailed == 0)
        return;
    jsonw_key(w, "failed");
    jsonw_begin_array(w);
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sides[k].m->nfailed; i++) {
            jsonw_begin_object(w);
            jsonw_key(w, "side");
            jsonw_string(w, sides[k].label);
            jsonw_failed_fields(w, &sides[k].m->failed[i]);
            jsonw_end_object(w);
        }
    jsonw_end_array(w);
}

/* Which ranks and iterations each side compared (the defaults resolved). */
static void json_selection(struct jsonw *w, const struct diff_out_side *sides)
{
    jsonw_key(w, "selection");
    jsonw_begin_object(w);
    for (int k = 0; k < 2; k++) {
        const struct diff_plan *p = sides[k].plan;
        jsonw_key(w, sides[k].label);
        jsonw_begin_object(w);
        jsonw_key(w, "ranks");
        json_list(w, p->ranks, p->nranks);
        jsonw_key(w, "iterations");
        if (p->niterations || p->filter_iterations)
            json_list(w, p->iterations, p->niterations);
        else
            jsonw_string(w, "all");
        jsonw_end_object(w);
    }
    jsonw_end_object(w);
}

/* "trust": each side's checks that fired, as rows (always both sides). */
static void json_trust(struct jsonw *w, const struct diff_out_side *sides)
{
    jsonw_key(w, "trust");
    jsonw_begin_object(w);
    for (int k = 0; k < 2; k++) {
        struct arena a;
        arena_init(&a, 0);
        struct table *t = sides[k].trust ? trust_table(sides[k].trust, &a) : NULL;
        jsonw_key(w, sides[k].label);
        if (t) {
            format_table_json_rows(w, t);
        } else {
            jsonw_begin_array(w);
            jsonw_end_array(w);
        }
        arena_fini(&a);
    }
    jsonw_end_object(w);
}

/* HTA's ops_diff: an object of five name lists, all five always present. */
static void json_ops_diff(struct jsonw *w, const struct table *t)
{
    jsonw_key(w, t->name);
    jsonw_begin_object(w);
    for (int c = 0; c < DIFF_CHANGE_COUNT; c++) {
        const char *key = diff_change_name((enum diff_change)c);
        jsonw_key(w, key);
        jsonw_begin_array(w);
        for (size_t r = 0; r < t->nrows; r++)
            if (strcmp(table_cell(t, r, 0)->v.s, key) == 0)
                jsonw_string(w, table_cell(t, r, 1)->v.s);
        jsonw_end_array(w);
    }
    jsonw_end_object(w);
}

static void json_notes(struct jsonw *w, const struct table_list *tl)
{
    jsonw_key(w, "notes");
    jsonw_begin_object(w);
    for (size_t i = 0; i < tl->count; i++)
        if (tl->tables[i]->note && tl->tables[i]->note[0]) {
            jsonw_key(w, tl->tables[i]->name);
            jsonw_string(w, tl->tables[i]->note);
        }
    jsonw_end_object(w);
}

static void write_json(FILE *f, const struct diff_out_side *sides, const struct table_list *tl,
                       bool hta)
{
    struct jsonw w;
    jsonw_init(&w, f, 2);
    jsonw_begin_object(&w);
    jsonw_key(&w, "htx_version");
    jsonw_string(&w, PACKAGE_VERSION);
    jsonw_key(&w, "semantics");
    jsonw_string(&w, hta ? "hta" : "htx");
    json_inputs(&w, sides);
    json_failed(&w, sides);
    json_selection(&w, sides);
    json_trust(&w, sides);
    for (size_t i = 0; i < tl->count; i++) {
        const struct table *t = tl->tables[i];
        if (strcmp(t->name, "ops_diff") == 0) {
            json_ops_diff(&w, t);
            continue;
        }
        jsonw_key(&w, t->name);
        format_table_json_rows(&w, t);
    }
    json_notes(&w, tl);
    jsonw_end_object(&w);
    jsonw_finish(&w);
}

int diff_write(FILE *f, enum htx_format fmt, const struct format_opts *fo,
               const struct diff_out_side sides[2], const struct table_list *tl, bool hta)
{
    int rc = 0;
    if (fmt == HTX_FORMAT_JSON)
        write_json(f, sides, tl, hta);
    else if (fmt == HTX_FORMAT_CSV)
        rc = write_csv(f, fo, tl, sides);
    else
        rc = write_text(f, fo, sides, tl, hta);
    return rc || ferror(f) ? -1 : 0;
}
