#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/findings.h"
#include "app/format.h"
#include "app/session.h"
#include "cli/commands.h"

/* `htx check PATH...`: the findings (analysis/findings.h) as `htx report
 * --analysis=findings` prints them, and exit status 3 when a problem (not
 * a hot spot) costs more than --max-cost percent of the iteration: a gate
 * for CI, like `htx diff --report --fail-on-regression`. */

size_t check_over_threshold(const struct findings *f, double pct)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++) {
        const struct finding *x = &f->items[i];
        if (finding_kind_is_hot_spot(x->kind) || 100.0 * x->cost_share <= pct)
            continue;
        fprintf(stderr, "htx: finding beyond %g%%: %s: ", pct, finding_kind_name(x->kind));
        format_write_escaped(stderr, x->title);
        fprintf(stderr, " (%.1f%% of the iteration, ranks %s)\n", 100.0 * x->cost_share, x->ranks);
        n++;
    }
    return n;
}

int cli_check_main(const struct htx_options *opts)
{
    struct err e = {0, ""};
    struct model *m = app_open(opts, &e);
    if (!m)
        return app_fail(&e);
    struct analysis_opts ao;
    htx_options_analysis(opts, &ao);
    struct arena a;
    arena_init(&a, 1 << 16);
    struct report_inputs in = {0};
    struct trust_report trust;
    struct findings f;
    struct table_list l = {{0}, 0};
    struct app_out out = {0};
    int rc = report_inputs_of(m, &in, &trust) < 0 ? err_set(&e, ERR_NOMEM, "out of memory") : 0;
    if (rc == 0)
        rc = findings_of_model(m, &ao, &trust, &a, &f, &e);
    struct table *t = rc ? NULL : findings_table(&f, &a);
    if (rc == 0 && (!t || table_list_add(&l, t)))
        rc = err_set(&e, ERR_NOMEM, "out of memory");
    if (rc == 0)
        rc = app_out_open(&out, &e);
    if (rc == 0) {
        struct format_opts fo;
        format_opts_default(&fo);
        fo.ascii = opts->ascii;
        fo.short_names = opts->short_names;
        if (report_write_inputs(out.f, &in, opts, NULL, &l, 1, &fo) < 0) {
            app_out_discard(&out);
            rc = err_set(&e, ERR_NOMEM, "check: cannot build the output");
        } else {
            rc = app_out_commit(&out, stdout, &e);
        }
    }
    size_t crossed = rc ? 0 : check_over_threshold(&f, opts->max_cost_pct);
    free((void *)in.ranks);
    arena_fini(&a);
    model_free(m);
    if (rc)
        return app_fail(&e);
    return crossed ? CHECK_EXIT_FINDING : 0;
}
