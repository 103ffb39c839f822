#include "config.h"
#include "ui/setup.h"

#include <stdio.h>
#include <string.h>

#include "ui/sync.h"
#include "ui/view.h"
#include "ui/views/diff.h"

const char *ui_config_title(const struct ui_config *c, char *buf, size_t n)
{
    if (c->test_path && c->npaths == 1)
        snprintf(buf, n, "%s vs %s", c->paths[0], c->test_path);
    else if (c->npaths == 1)
        return c->paths[0];
    else
        snprintf(buf, n, "%zu paths", c->npaths);
    return buf;
}

static int apply_ranks(struct ui_state *st, const struct ui_config *c, struct err *e)
{
    if (c->nranks == 0)
        return 0;
    for (size_t r = 0; r < st->nranks; r++)
        st->ranks[r].included = false;
    for (size_t i = 0; i < c->nranks; i++) {
        size_t r = 0;
        while (r < st->nranks && st->ranks[r].number != c->ranks[i])
            r++;
        if (r == st->nranks)
            return err_set(e, ERR_USAGE, "--rank: the trace has no rank %lld",
                           (long long)c->ranks[i]);
        st->ranks[r].included = true;
    }
    return 0;
}

static int apply_iterations(struct ui_state *st, const struct ui_config *c, struct err *e)
{
    for (size_t i = 0; i < c->niterations; i++) {
        size_t k = 0;
        while (k < st->niterations && st->iterations[k] != c->iterations[i])
            k++;
        if (k == st->niterations)
            return err_set(e, ERR_USAGE, "--iteration: the trace has no iteration %lld",
                           (long long)c->iterations[i]);
        st->iteration = (long)k;
    }
    if (c->niterations > 1) {
        st->iteration = UI_ITER_LIST;
        st->iter_list = c->iterations;
        st->niter_list = c->niterations;
    }
    return 0;
}

int ui_setup_state(struct ui_state *st, struct model *m, const struct model *test,
                   const struct ui_config *c, const struct summary_job *job, int rows, int cols,
                   struct err *e)
{
    if (ui_state_init(st, m, rows, cols) != 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    st->job = job && job->n ? job : NULL;
    st->summary_steps = st->job ? summary_job_step_count(st->job) : 0;
    if ((st->job ? summary_job_trust(st->job, &st->trust) : trust_of_model(m, &st->trust)) < 0)
        return err_set(e, ERR_NOMEM, "out of memory");
    st->summary_test = test && c->summary_diff && c->summary_diff->job[1].n ? &c->summary_diff->job[1]
                                                                            : NULL;
    st->ascii = c->ascii;
    st->no_mouse = c->no_mouse;
    st->no_osc52 = c->no_osc52;
    st->title = ui_config_title(c, st->title_buf, sizeof st->title_buf);
    st->analyses = c->analyses;
    st->nanalyses = c->nanalyses;
    st->aopts = c->aopts;
    int rc = apply_ranks(st, c, e);
    if (rc == 0)
        rc = apply_iterations(st, c, e);
    if (rc != 0)
        return rc;
    st->has_window = c->has_window;
    st->window_start = c->window_start;
    st->window_end = c->window_end;
    if (test && c->diff_open) {
        rc = c->diff_open(st, m, test, c->summary_diff ? c->summary_diff->src : NULL, c->diff_ctx, e);
        if (rc != 0)
            return rc;
        st->view = st->prev_view = UI_VIEW_DIFF;
        if (c->diff_sort >= 0)
            ui_diff_set_sort(st, c->diff_sort ? UI_DIFF_SORT_NAME : UI_DIFF_SORT_DDUR);
    }
    if (c->start_view) {
        bool found = false;
        for (int id = 0; id < UI_VIEW_COUNT && !found; id++) {
            const struct ui_view_ops *v = ui_view_get(st, (enum ui_view_id)id);
            if (v && v->key == c->start_view) {
                st->view = st->prev_view = (enum ui_view_id)id;
                found = true;
            }
        }
        if (!found)
            ui_state_message(st, true, "view %c opens with htx diff CONTROL TEST", c->start_view);
    }
    rc = ui_sync(st, m, UI_RESELECT | UI_RELANE, e);
    if (rc == 0 && m->nfailed)
        ui_state_message(st, true, "%zu file(s) failed to load: press i for details", m->nfailed);
    else if (rc == 0 && st->trust.n)
        ui_state_message(st, true, "%s%s: press i for what htx could not trust",
                         st->trust.findings[0].text, st->trust.n > 1 ? " (and more)" : "");
    return rc;
}
