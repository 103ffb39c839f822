#include "config.h"
#include "cli/diff_cmd.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/diff_request.h"
#include "app/summary_job_diff.h"
#include "analysis/diff_triage.h"
#include "cli/diff_out.h"
#include "app/format.h"
#include "app/session.h"

#define EXIT_REGRESSION 3

/* One side of the diff while the command runs. */
struct side {
    const char *label;   /* "control" or "test" */
    const char *path;
    struct model *m;     /* loaded, or made from its summaries */
    struct diff_plan plan;
    struct diff_side src;   /* what is compared: m, or the summaries' parts */
};

/* ---- loading and selecting ------------------------------------------------ */

/* Prints "htx: <label>: <message>" and returns the exit status. */
static int fail(const char *label, struct err *e)
{
    if (!e->code)
        e->code = ERR_INTERNAL;
    err_prefix(e, "%s", label);
    return app_fail(e);
}

static void warn_side(const struct side *s)
{
    for (const char *n = s->m->notes; n && *n;) {
        const char *nl = strchr(n, '\n');
        int len = (int)(nl ? (size_t)(nl - n) : strlen(n));
        if (len > 0)
            app_warn("%s: %.*s", s->label, len, n);
        n = nl ? nl + 1 : NULL;
    }
    for (size_t i = 0; i < s->m->nfailed; i++) {
        const struct failed_file *f = &s->m->failed[i];
        if (strstr(f->message, f->path))
            app_warn("%s: skipped %s", s->label, f->message);
        else
            app_warn("%s: skipped %s: %s", s->label, f->path, f->message);
    }
}

static int load_side(const struct htx_options *opts, const struct semantics *sem,
                     struct side *s)
{
    struct err e = {0, ""};
    struct load_opts lo;
    if (app_load_opts_init(&lo, opts, &e) < 0)
        return fail(s->label, &e);
    s->m = model_load(&s->path, 1, sem, &lo, &e);
    if (!s->m || app_refuse_failed_summaries(s->m, &e))
        return fail(s->label, &e);
    warn_side(s);
    return 0;
}

static int select_side(const struct htx_options *opts, struct side *s, struct arena *a)
{
    struct err e = {0, ""};
    struct diff_request_side req;
    app_diff_request(opts, strcmp(s->label, "test") == 0, &req);
    if (diff_resolve_side(s->m, &req, s->label, a, &s->plan, &e))
        return app_fail(&e);   /* the message names the side already */
    struct selection sel;
    diff_plan_selection(&s->plan, &sel);
    sel.has_window = opts->has_window;
    sel.window_start = opts->window_start;
    sel.window_end = opts->window_end;
    if (model_select(s->m, &sel, &e))
        return fail(s->label, &e);
    return 0;
}

/* ---- the regression gate -------------------------------------------------- */

static void print_regressions(const struct diff_regression *r, size_t n, double pct)
{
    for (size_t i = 0; i < n; i++) {
        char growth[48];
        if (isinf(r[i].growth_pct))
            snprintf(growth, sizeof growth, "new");
        else
            snprintf(growth, sizeof growth, "+%.1f%%", r[i].growth_pct);
        /* The name comes from the trace: escaped like every other message. */
        fprintf(stderr, "htx: regression beyond %g%%: %s", pct, r[i].is_total ? "" : "kernel ");
        format_write_escaped(stderr, r[i].name);
        fprintf(stderr, ": %.3f us -> %.3f us (%s)\n", (double)r[i].control_ns / 1e3,
                (double)r[i].test_ns / 1e3, growth);
    }
}

/* Adds the regressions table; *crossed = how many things crossed the line. */
static int run_gate(const struct htx_options *opts, const struct side *c, const struct side *t,
                    struct arena *a, struct diff_output *out, size_t *crossed)
{
    struct err e = {0, ""};
    struct diff_run_opts g = {DIFF_DEVICE_GPU, false, &c->plan, &t->plan, false, false};
    struct diff_result gpu;
    struct diff_regression *r;
    if (diff_compare_side_pair(&c->src, &t->src, &g, false, a, &gpu, &e) ||
        diff_find_regressions(&gpu, opts->fail_on_regression_pct, opts->min_duration_ns, a, &r,
                              crossed, &e))
        return fail("regression gate", &e);
    struct table *tab = diff_regressions_table(r, *crossed, a);
    if (!tab || table_list_add(&out->tables, tab)) {
        e.code = ERR_NOMEM;
        snprintf(e.msg, sizeof e.msg, "out of memory");
        return fail("regression gate", &e);
    }
    if (*crossed)
        table_set_note(tab, "grew more than %g%% (kernels with more than %" PRId64 " ns)",
                       opts->fail_on_regression_pct, opts->min_duration_ns);
    else
        table_set_note(tab, "nothing grew beyond the threshold of %g%% (kernels with more than %"
                       PRId64 " ns)", opts->fail_on_regression_pct, opts->min_duration_ns);
    print_regressions(r, *crossed, opts->fail_on_regression_pct);
    return 0;
}

/* Writes everything to a memory stream first, so that an error never leaves
 * half a report on stdout. */
/* A side's checks: of its summaries' records when it was read from them
 * (its model then knows no facts), else of its model. */
static int side_trust(const struct side *s, const struct summary_job *l, struct trust_report *out)
{
    bool job = s->m->nranks > 0 && s->m->ranks[0].summary_only && l->n > 0;
    return job ? summary_job_trust(l, out) : trust_of_model(s->m, out);
}

static int write_report(const struct htx_options *opts, const struct side *sides,
                        const struct summary_job_diff *ld, const struct table_list *tl, bool hta)
{
    struct err e = {0, ""};
    struct app_out out;
    if (app_out_open(&out, &e))
        return app_fail(&e);
    struct format_opts fo;
    format_opts_default(&fo);
    fo.ascii = opts->ascii;
    struct diff_out_side os[2];
    struct trust_report trust[2];
    bool ok = true;
    for (int k = 0; k < 2; k++) {
        ok = ok && side_trust(&sides[k], &ld->job[k], &trust[k]) == 0;
        os[k] = (struct diff_out_side){sides[k].label, sides[k].path, sides[k].m, &sides[k].plan,
                                       &trust[k]};
    }
    if (!ok || diff_write(out.f, opts->format, &fo, os, tl, hta)) {
        app_out_discard(&out);
        err_set(&e, ERR_IO, "cannot write the report");
        return app_fail(&e);
    }
    return app_out_commit(&out, stdout, &e) ? app_fail(&e) : 0;
}

/* ---- triage ---------------------------------------------------------------- */

/* Under htx the compare tables gain the per-call change and a time marker
 * next to HTA's count category (with the legend as their note); under hta
 * they stay HTA's. --sort=delta/--top order and cut them under both, as the
 * user asked. */
static int triage_tables(const struct htx_options *opts, bool hta, struct table_list *tl,
                         struct arena *a)
{
    for (size_t i = 0; i < tl->count; i++) {
        struct table *t = tl->tables[i];
        if (strcmp(t->name, "compare_traces") != 0 && strcmp(t->name, "compare_traces_by_rank") != 0)
            continue;
        if (!hta) {
            struct table *x = diff_triage_table(t, a);
            if (!x)
                return ERR_NOMEM;
            tl->tables[i] = t = x;
        }
        if ((opts->diff_sort_delta || opts->diff_top > 0) &&
            diff_sort_by_delta(t, (size_t)opts->diff_top) < 0)
            return ERR_NOMEM;
    }
    return 0;
}

/* ---- the command ----------------------------------------------------------- */

static enum diff_device device_of(enum htx_device d)
{
    return d == HTX_DEVICE_CPU ? DIFF_DEVICE_CPU : d == HTX_DEVICE_GPU ? DIFF_DEVICE_GPU
                                                                       : DIFF_DEVICE_ALL;
}

/* The sides from their summaries: the models from the summaries and parts move to the
 * sides; what they borrow stays in ld. */
static int summary_sides(const struct htx_options *opts, struct side *sides,
                         struct summary_job_diff *ld, struct arena *a, struct err *e)
{
    int rc = summary_job_diff_open(opts, SUMMARY_JOB_TILES, true, 0, ld, e);
    for (int k = 0; k < 2 && rc == 0; k++) {
        sides[k].m = ld->m[k];
        ld->m[k] = NULL;
        sides[k].src = ld->src[k];
        struct diff_request_side req;
        app_diff_request(opts, k == 1, &req);
        rc = diff_resolve_side(sides[k].m, &req, sides[k].label, a, &sides[k].plan, e);
    }
    return rc;
}

static void free_sides(struct side *sides, struct summary_job_diff *ld)
{
    for (int k = 0; k < 2; k++) {
        model_free(sides[k].m);
        sides[k].m = NULL;
        sides[k].src = (struct diff_side){NULL, NULL};
    }
    summary_job_diff_fini(ld);
}

/* The sides from their summaries (when they answer and --events allows), or
 * their events, loaded and selected. */
static int open_sides(const struct htx_options *opts, const struct semantics *sem,
                      struct side *sides, struct summary_job_diff *ld, struct arena *a)
{
    const char *why = app_diff_needs_events(opts, sem);
    struct err e = {0, ""};
    if (opts->events == HTX_EVENTS_SKIP && why) {
        err_set(&e, ERR_USAGE, "--events=skip: the diff needs the events: %s", why);
        return app_fail(&e);
    }
    if (!why && opts->events != HTX_EVENTS_LOAD) {
        int rc = summary_sides(opts, sides, ld, a, &e);
        if (rc == 0)
            return 0;
        free_sides(sides, ld);
        if (rc != ERR_EMPTY || opts->events == HTX_EVENTS_SKIP)
            return rc == ERR_USAGE ? app_fail(&e) : fail("diff", &e);
        // summaries made before the parts: their events answer
    }
    for (int k = 0; k < 2; k++) {
        int rc = load_side(opts, sem, &sides[k]);
        if (!rc)
            rc = select_side(opts, &sides[k], a);
        if (rc)
            return rc;
        sides[k].src = (struct diff_side){sides[k].m, NULL};
    }
    return 0;
}

static int diff_report(const struct htx_options *opts, struct side *sides,
                       struct summary_job_diff *ld, struct arena *a)
{
    struct semantics sem;
    app_diff_semantics(opts, &sem);
    int rc = open_sides(opts, &sem, sides, ld, a);
    if (rc)
        return rc;
    bool hta = sem.diff_hta_quirks;
    struct diff_run_opts ro = {
        device_of(opts->device), opts->short_names, &sides[0].plan, &sides[1].plan,
        !hta && (sides[0].plan.nranks > 1 || sides[1].plan.nranks > 1), false,
    };
    struct diff_output out;
    struct err e = {0, ""};
    if (diff_run_sides(&sides[0].src, &sides[1].src, &ro, a, &out, &e))
        return fail("diff", &e);
    if (triage_tables(opts, hta, &out.tables, a) < 0) {
        err_set(&e, ERR_NOMEM, "out of memory");
        return fail("diff", &e);
    }
    size_t crossed = 0;
    if (opts->has_fail_on_regression) {
        rc = run_gate(opts, &sides[0], &sides[1], a, &out, &crossed);
        if (rc)
            return rc;
    }
    rc = write_report(opts, sides, ld, &out.tables, hta);
    return rc ? rc : crossed ? EXIT_REGRESSION : 0;
}

int cli_diff_main(const struct htx_options *opts)
{
    if (opts->npaths != 2) {
        fprintf(stderr, "htx diff: expected CONTROL and TEST\n");
        return 2;
    }
    struct side sides[2];
    memset(sides, 0, sizeof sides);
    sides[0].label = "control";
    sides[0].path = opts->paths[0];
    sides[1].label = "test";
    sides[1].path = opts->paths[1];
    struct arena a;
    arena_init(&a, 1 << 20);
    struct summary_job_diff ld;
    memset(&ld, 0, sizeof ld);
    int rc = diff_report(opts, sides, &ld, &a);
    free_sides(sides, &ld);
    arena_fini(&a);
    return rc;
}
