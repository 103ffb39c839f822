#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "planted_job.h"
#include "analysis/analysis.h"
#include "analysis/collectives.h"
#include "analysis/ranks.h"
#include "model/model.h"

/* The Ranks view's tables (analysis/ranks.c) over the generator's
 * collectives job: the planted straggler comes first with the blame the
 * collectives analysis gives it, its slow step shows in its step times and
 * against the median, and the shares are percentages of the GPU span. */

static struct model *make_job(struct planted_job *j, int world, int straggler, int64_t delay_us)
{
    struct gen_coll_cfg cfg = {.world = world, .iterations = 3, .first_step = 10,
                               .per_step = 2, .seq = 1, .straggler = straggler, .step = 11,
                               .coll = 1, .delay_us = delay_us};
    planted_job_make(j, &cfg);
    return j->m;
}

static double num(const struct table *t, size_t row, const char *col)
{
    int c = table_col_index(t, col);
    ck_assert_msg(c >= 0, "no column %s", col);
    const struct cell *x = table_cell(t, row, (size_t)c);
    return x->type == CELL_INT ? (double)x->v.i : x->v.d;
}

START_TEST(rank_overview_should_put_the_planted_straggler_first)
{
    const int world = 8, planted = 6;
    const int64_t delay_us = 1500;
    struct planted_job job;
    struct model *m = make_job(&job, world, planted, delay_us);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct table_list tl = {.count = 0};
    struct err e = {0, ""};
    ck_assert_int_eq(ranks_overview_run(m, &o, &a, &tl, &e), 0);
    ck_assert_uint_eq(tl.count, 2);
    const struct table *t = tl.tables[0], *steps = tl.tables[1];
    ck_assert_str_eq(t->name, "rank_overview");
    ck_assert_uint_eq(t->nrows, (size_t)world);
    /* first: the planted rank, blamed for the others' waits, waiting for nobody */
    ck_assert_int_eq((int)num(t, 0, "rank"), planted);
    ck_assert(fabs(num(t, 0, "blame (us)") - (double)((world - 1) * delay_us)) <= 1.0);
    ck_assert(fabs(num(t, 0, "suffered (us)")) <= 1.0);
    for (size_t i = 1; i < t->nrows; i++) {
        ck_assert(num(t, i, "blame (us)") <= num(t, i - 1, "blame (us)"));
        ck_assert(fabs(num(t, i, "suffered (us)") - (double)delay_us) <= 1.0);
        ck_assert_int_eq((int)num(t, i, "steps"), 3);
    }
    for (size_t i = 0; i < t->nrows; i++) {
        double idle = num(t, i, "idle (%)"), comm = num(t, i, "comm (%)");
        ck_assert(idle >= 0 && idle <= 100 && comm > 0 && comm <= 100);
    }
    /* step times: 3 per rank, in the overview's rank order */
    ck_assert_uint_eq(steps->nrows, (size_t)(3 * world));
    ck_assert_int_eq((int)num(steps, 0, "rank"), planted);
    ck_assert_int_eq((int)num(steps, 1, "iteration"), 11);
    arena_fini(&a);
    planted_job_remove(&job);
}
END_TEST

START_TEST(rank_overview_should_follow_the_selection)
{
    const int world = 4;
    struct planted_job job;
    struct model *m = make_job(&job, world, -1, 0);
    const int64_t ranks[] = {1, 3}, iters[] = {12};
    struct selection sel = {.ranks = ranks, .nranks = 2, .iterations = iters, .niterations = 1};
    struct err e = {0, ""};
    ck_assert_int_eq(model_select(m, &sel, &e), 0);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct table_list tl = {.count = 0};
    ck_assert_int_eq(ranks_overview_run(m, &o, &a, &tl, &e), 0);
    const struct table *t = tl.tables[0];
    ck_assert_uint_eq(t->nrows, 2);
    /* no straggler: no blame; ties by rank */
    ck_assert_int_eq((int)num(t, 0, "rank"), 1);
    ck_assert_int_eq((int)num(t, 1, "rank"), 3);
    for (size_t i = 0; i < 2; i++) {
        ck_assert_int_eq((int)num(t, i, "steps"), 1);
        ck_assert(fabs(num(t, i, "blame (us)")) <= 1.0);
        ck_assert(fabs(num(t, i, "vs_median (%)")) < 1e-9);
    }
    arena_fini(&a);
    planted_job_remove(&job);
}
END_TEST

/* The overview from each rank's part alone (what a summary stores) and the
 * job's collectives is the overview on the job; a part that is not one is
 * refused. */
START_TEST(rank_parts_should_reduce_to_the_overview)
{
    const int world = 4;
    struct planted_job job;
    struct model *m = make_job(&job, world, 2, 800);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct err e = {0, ""};
    struct table_list whole = {.count = 0}, parts[4], reduced = {.count = 0};
    ck_assert_int_eq(ranks_overview_run(m, &o, &a, &whole, &e), 0);
    const struct table_list *p[4];
    for (int r = 0; r < world; r++) {   // each rank alone, as summarize sees it
        int64_t rank = r;
        struct selection sel = {.ranks = &rank, .nranks = 1};
        ck_assert_int_eq(model_select(m, &sel, &e), 0);
        memset(&parts[r], 0, sizeof parts[r]);
        ck_assert_int_eq(ranks_parts_run(m, &o, &a, &parts[r], &e), 0);
        p[world - 1 - r] = &parts[r];   // in any order
    }
    ck_assert_int_eq(model_select(m, NULL, &e), 0);
    struct coll_result cr;
    ck_assert_int_eq(coll_analyze(m, &o, &a, &cr, &e), 0);
    ck_assert_int_eq(ranks_reduce(p, (size_t)world, &cr, &a, &reduced, &e), 0);
    ck_assert_uint_eq(reduced.count, 2);
    for (size_t t = 0; t < 2; t++) {
        const struct table *x = whole.tables[t], *y = reduced.tables[t];
        ck_assert_uint_eq(x->nrows, y->nrows);
        ck_assert_uint_eq(x->ncols, y->ncols);
        for (size_t i = 0; i < x->nrows; i++)
            for (size_t c = 0; c < x->ncols; c++) {
                const struct cell *u = table_cell(x, i, c), *v = table_cell(y, i, c);
                ck_assert_int_eq(u->type, v->type);
                ck_assert_msg(u->type == CELL_INT ? u->v.i == v->v.i
                                                  : (isnan(u->v.d) && isnan(v->v.d)) ||
                                                        u->v.d == v->v.d,
                              "%s row %zu column %zu differs", x->name, i, c);
            }
    }
    /* not a part: no steps table, or more steps than it has rows */
    struct table_list broken = parts[0];
    broken.count = 1;
    const struct table_list *bp = &broken;
    struct table_list none = {.count = 0};
    ck_assert_int_eq(ranks_reduce(&bp, 1, NULL, &a, &none, &e), ERR_PARSE);
    broken = parts[1];
    table_cell(broken.tables[0], 0, 1)->v.i += 1;
    bp = &broken;
    ck_assert_int_eq(ranks_reduce(&bp, 1, NULL, &a, &none, &e), ERR_PARSE);
    arena_fini(&a);
    planted_job_remove(&job);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ranks");
    TCase *tc = tcase_create("overview");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, rank_overview_should_put_the_planted_straggler_first);
    tcase_add_test(tc, rank_overview_should_follow_the_selection);
    tcase_add_test(tc, rank_parts_should_reduce_to_the_overview);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
