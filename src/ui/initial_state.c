#include "config.h"
#include "ui/initial_state.h"

#include <stdio.h>
#include <string.h>

#include "app/cache.h"
#include "ui/refresh.h"
#include "ui/view.h"
#include "ui/views/diff.h"
#include "ui/views/findings.h"

const char *ui_inputs_title(const struct ui_inputs *in, char *buf, size_t n)
{
    if (in->test_path && in->npaths == 1)
        snprintf(buf, n, "%s vs %s", in->paths[0], in->test_path);
    else if (in->npaths == 1)
        return in->paths[0];
    else
        snprintf(buf, n, "%zu paths", in->npaths);
    return buf;
}

static int apply_ranks(struct ui_state *st, const struct selection *sel, struct err *e)
{
    if (sel->nranks == 0)
        return 0;
    for (size_t r = 0; r < st->nranks; r++)
        st->ranks[r].included = false;
    for (size_t i = 0; i < sel->nranks; i++) {
        size_t r = 0;
        while (r < st->nranks && st->ranks[r].number != sel->ranks[i])
            r++;
        if (r == st->nranks)
            return err_set(e, ERR_USAGE, "--rank: the trace has no rank %lld",
                           (long long)sel->ranks[i]);
        st->ranks[r].included = true;
    }
    return 0;
}

static int apply_iterations(struct ui_state *st, const struct selection *sel, struct err *e)
{
    for (size_t i = 0; i < sel->niterations; i++) {
        size_t k = 0;
        while (k < st->niterations && st->iterations[k] != sel->iterations[i])
            k++;
        if (k == st->niterations)
            return err_set(e, ERR_USAGE, "--iteration: the trace has no iteration %lld",
                           (long long)sel->iterations[i]);
        st->iteration = (long)k;
    }
    if (sel->niterations > 1) {
        st->iteration = UI_ITER_LIST;
        st->iter_list = sel->iterations;
        st->niter_list = sel->niterations;
    }
    return 0;
}

/* The options' ranks, iterations and window; none for a diff (view d
 * picks each side's itself) or a drill (its rank whole). */
static int apply_selection(struct ui_state *st, const struct ui_inputs *in, struct err *e)
{
    struct selection sel = {0};

    if (in->whole || in->test_path)
        return 0;
    htx_options_selection(in->o, &sel);
    int rc = apply_ranks(st, &sel, e);
    if (rc == 0)
        rc = apply_iterations(st, &sel, e);
    st->has_window = sel.has_window;
    st->window_start = sel.window_start;
    st->window_end = sel.window_end;
    return rc;
}

/* --view: the first view, by its key. */
static void apply_start_view(struct ui_state *st, char key)
{
    for (int id = 0; id < UI_VIEW_COUNT; id++) {
        const struct ui_view_ops *v = ui_view_get(st, (enum ui_view_id)id);
        if (v && v->key == key) {
            st->view = (enum ui_view_id)id;
            return;
        }
    }
    ui_state_message(st, true, "view %c opens with htx diff CONTROL TEST", key);
}

/* A job with a problem opens on its findings (DESIGN.md "Findings"): one
 * costing more than max_cost_pct of the iteration, as `htx check` counts. */
static int open_on_findings(struct ui_state *st, struct model *m, double max_cost_pct,
                            struct err *e)
{
    bool worth = false;
    int rc = ui_findings_worth_opening(st, m, max_cost_pct, &worth, e);
    if (rc != 0 || !worth)
        return rc;
    st->view = UI_VIEW_FINDINGS;
    return ui_refresh(st, m, 0, e);
}

int ui_initial_state(struct ui_state *st, struct model *m, const struct model *test,
                     const struct ui_inputs *in, const struct summary_job *job, int rows,
                     int cols, struct err *e)
{
    const struct htx_options *o = in->o;

    if (ui_state_init(st, m, rows, cols) != 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    st->job = job && job->n ? job : NULL;
    st->summary_steps = st->job ? summary_job_step_count(st->job) : 0;
    if ((st->job ? summary_job_trust(st->job, &st->trust) : trust_of_model(m, &st->trust)) < 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    st->summary_test = test && in->summary_diff && in->summary_diff->job[1].n
                         ? &in->summary_diff->job[1]
                         : NULL;
    st->ascii = in->ascii;
    st->no_mouse = o->no_mouse;
    st->no_osc52 = o->no_osc52;
    st->title = ui_inputs_title(in, st->title_buf, sizeof st->title_buf);
    st->analyses = in->analyses;
    st->nanalyses = in->nanalyses;
    st->aopts = in->aopts;
    int rc = apply_selection(st, in, e);
    if (rc != 0)
        return rc;
    if (test) {
        rc = ui_diff_open(st, m, test, in->summary_diff ? in->summary_diff->src : NULL, o, e);
        if (rc != 0)
            return rc;
        st->view = UI_VIEW_DIFF;
        if (o->diff_sort_given)
            ui_diff_set_sort(st, o->diff_sort_delta ? UI_DIFF_SORT_DDUR : UI_DIFF_SORT_NAME);
    }
    if (!in->whole && o->start_view)
        apply_start_view(st, o->start_view);
    rc = ui_refresh(st, m, UI_RESELECT | UI_RELANE, e);
    if (rc == 0 && !test && !in->whole && !o->start_view)
        rc = open_on_findings(st, m, o->max_cost_pct, e);
    char changed[sizeof st->message];
    if (rc == 0 && m->nfailed)
        ui_state_message(st, true, "%zu file(s) failed to load: press i for details", m->nfailed);
    else if (rc == 0 && in->cache && app_cache_changed(in->cache, changed, sizeof changed))
        ui_state_message(st, true, "%s", changed);
    else if (rc == 0 && st->trust.n)
        ui_state_message(st, true, "%s%s: press i for what htx could not trust",
                         st->trust.findings[0].text, st->trust.n > 1 ? " (and more)" : "");
    return rc;
}
