#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle_compare.h"
#include "trace_doc.h"
#include "analysis/annotation_tree.h"
#include "model/model.h"

/* The annotation tree of the selected ranks (the view's data):
 * stacks merged over ranks, kernel leaves, min/max over ranks, the events
 * under a node for the timeline, and search. */

/* The child of parent named so (any kind), ATREE_NONE when absent. */
static uint32_t child_named(const struct atree *t, uint32_t parent, const char *name)
{
    for (uint32_t c = t->nodes[parent].first_child; c != ATREE_NONE; c = t->nodes[c].next_sibling)
        if (strcmp(atree_name(t, c), name) == 0)
            return c;
    return ATREE_NONE;
}

static uint32_t must_child(const struct atree *t, uint32_t parent, const char *name)
{
    uint32_t c = child_named(t, parent, name);
    ck_assert_msg(c != ATREE_NONE, "no child '%s' under '%s'", name, atree_name(t, parent));
    return c;
}

/* Invariants: inclusive = self + children, a stack node's self = its
 * leaves, children by inclusive descending, depth = parent's + 1, the
 * root's inclusive = the attributed GPU time of the selected ranks, and
 * the events listed under the root are each attributed event once. */
static void check_invariants(const struct model *m, const struct atree *t)
{
    int64_t gpu_ns = 0;
    size_t gpu_n = 0;
    for (size_t i = 0; i < m->nranks; i++) {
        const struct rank_model *r = &m->ranks[i];
        for (size_t k = 0; r->selected && k < r->nrows; k++)
            if (astack_is_attributed(&r->events[r->rows[k]])) {
                gpu_ns += r->events[r->rows[k]].dur;
                gpu_n++;
            }
    }
    ck_assert_int_eq(t->nodes[0].incl_ns, gpu_ns);
    ck_assert_uint_eq(t->nodes[0].count, gpu_n);
    int64_t leaves = 0;
    for (uint32_t v = 0; v < t->nnodes; v++) {
        const struct atree_node *nd = &t->nodes[v];
        int64_t incl = nd->kind == ATREE_KERNEL ? nd->self_ns : 0, self = 0, prev = INT64_MAX;
        uint64_t count = nd->kind == ATREE_KERNEL ? nd->count : 0;
        for (uint32_t c = nd->first_child; c != ATREE_NONE; c = t->nodes[c].next_sibling) {
            const struct atree_node *cn = &t->nodes[c];
            ck_assert_uint_eq(cn->parent, v);
            ck_assert_uint_eq(cn->depth, nd->depth + 1);
            ck_assert_int_le(cn->incl_ns, prev);
            prev = cn->incl_ns;
            incl += cn->incl_ns;
            count += cn->count;
            if (cn->kind == ATREE_KERNEL)
                self += cn->incl_ns;
        }
        if (nd->kind == ATREE_KERNEL) {
            ck_assert_uint_eq(nd->first_child, ATREE_NONE);
            leaves += nd->incl_ns;
        } else {
            ck_assert_int_eq(self, nd->self_ns);
        }
        ck_assert_int_eq(incl, nd->incl_ns);
        ck_assert_uint_eq(count, nd->count);
        ck_assert_int_le(nd->min_ns, nd->max_ns);
        ck_assert_int_le(nd->max_ns, nd->incl_ns);
    }
    ck_assert_int_eq(leaves, gpu_ns);
    struct atree_event *evs;
    size_t n;
    ck_assert_int_eq(atree_events(t, 0, &evs, &n), 0);
    ck_assert_uint_eq(n, gpu_n);
    for (size_t i = 1; i < n; i++) {
        const struct event *a = &m->ranks[evs[i - 1].rank].events[evs[i - 1].pos];
        const struct event *b = &m->ranks[evs[i].rank].events[evs[i].pos];
        ck_assert_int_le(a->ts, b->ts);
        ck_assert_msg(evs[i - 1].rank != evs[i].rank || evs[i - 1].pos != evs[i].pos,
                      "an event listed twice");
    }
    free(evs);
}

static struct atree build(const struct model *m, enum astack_mode mode)
{
    struct atree t;
    struct err e = {0, ""};
    ck_assert_int_eq(atree_build(m, mode, &t, &e), 0);
    check_invariants(m, &t);
    return t;
}

/* Rank 0: fwd with gemm 10 and relu 5; rank 1: fwd with gemm 30, and bwd
 * with gemm 4 (rank 0 has no bwd). */
static struct model *two_ranks(void)
{
    struct doc d[2];
    for (int r = 0; r < 2; r++) {
        doc_begin(&d[r]);
        ev(&d[r], "user_annotation", "fwd", 1, 0, 1000, -1, -1);
        launch_named(&d[r], 1, 10, r ? 30 : 10, 1, "gemm");
        if (r == 0)
            launch_named(&d[r], 1, 20, 5, 2, "relu");
        if (r == 1) {
            ev(&d[r], "user_annotation", "bwd", 1, 2000, 1000, -1, -1);
            launch_named(&d[r], 1, 2010, 4, 2, "gemm");
        }
    }
    return load_docs(d, 2);
}

START_TEST(ranks_should_merge_by_path_with_min_max_and_the_slowest_rank)
{
    struct model *m = two_ranks();
    struct atree t = build(m, ASTACK_ANNOTATIONS);
    ck_assert_uint_eq(t.nranks, 2);
    uint32_t fwd = must_child(&t, 0, "fwd"), bwd = must_child(&t, 0, "bwd");
    ck_assert_uint_eq(t.nodes[0].first_child, fwd);   // 45 us before 4 us
    ck_assert_int_eq(t.nodes[fwd].incl_ns, 45000);
    ck_assert_int_eq(t.nodes[fwd].self_ns, 45000);
    ck_assert_int_eq(t.nodes[fwd].min_ns, 15000);
    ck_assert_int_eq(t.nodes[fwd].max_ns, 30000);
    ck_assert_int_eq(t.nodes[fwd].slowest_rank, 1);
    ck_assert_uint_eq(t.nodes[fwd].nranks, 2);
    ck_assert_int_eq(t.nodes[bwd].min_ns, 0);          // rank 0 lacks it
    ck_assert_int_eq(t.nodes[bwd].max_ns, 4000);
    ck_assert_uint_eq(t.nodes[bwd].nranks, 1);
    uint32_t gemm = must_child(&t, fwd, "gemm"), relu = must_child(&t, fwd, "relu");
    ck_assert_int_eq(t.nodes[gemm].kind, ATREE_KERNEL);
    ck_assert_int_eq(t.nodes[gemm].incl_ns, 40000);
    ck_assert_uint_eq(t.nodes[gemm].count, 2);
    ck_assert_int_eq(t.nodes[gemm].min_ns, 10000);
    ck_assert_int_eq(t.nodes[relu].min_ns, 0);
    ck_assert_uint_eq(t.nodes[fwd].first_child, gemm);
    atree_free(&t);
    model_free(m);
}
END_TEST

START_TEST(events_should_list_a_node_subtree_or_a_leaf_in_time_order)
{
    struct model *m = two_ranks();
    struct atree t = build(m, ASTACK_ANNOTATIONS);
    uint32_t fwd = must_child(&t, 0, "fwd"), gemm = must_child(&t, fwd, "gemm");
    struct atree_event *evs;
    size_t n;
    ck_assert_int_eq(atree_events(&t, fwd, &evs, &n), 0);
    ck_assert_uint_eq(n, 3);
    free(evs);
    ck_assert_int_eq(atree_events(&t, gemm, &evs, &n), 0);
    ck_assert_uint_eq(n, 2);
    for (size_t i = 0; i < n; i++) {
        const struct event *e = &m->ranks[evs[i].rank].events[evs[i].pos];
        ck_assert_str_eq(model_str(m, e->name), "gemm");
        ck_assert_int_eq(e->kind, EV_KIND_KERNEL);
    }
    ck_assert_uint_ne(evs[0].rank, evs[1].rank);
    free(evs);
    atree_free(&t);
    model_free(m);
}
END_TEST

static bool has_text(const char *name, const void *ctx)
{
    return strstr(name, ctx) != NULL;
}

START_TEST(find_should_walk_depth_first_both_ways_and_wrap)
{
    struct model *m = two_ranks();
    struct atree t = build(m, ASTACK_ANNOTATIONS);
    uint32_t fwd = must_child(&t, 0, "fwd"), bwd = must_child(&t, 0, "bwd");
    uint32_t g1 = must_child(&t, fwd, "gemm"), g2 = must_child(&t, bwd, "gemm");
    ck_assert_uint_eq(atree_find(&t, 0, 1, has_text, "gemm"), g1);
    ck_assert_uint_eq(atree_find(&t, g1, 1, has_text, "gemm"), g2);
    ck_assert_uint_eq(atree_find(&t, g2, 1, has_text, "gemm"), g1);
    ck_assert_uint_eq(atree_find(&t, g1, -1, has_text, "gemm"), g2);
    ck_assert_uint_eq(atree_find(&t, 0, 1, has_text, "nothing"), ATREE_NONE);
    atree_free(&t);
    model_free(m);
}
END_TEST

START_TEST(a_deselected_rank_should_be_left_out)
{
    struct model *m = two_ranks();
    int64_t only[] = {0};
    struct selection sel = {.ranks = only, .nranks = 1};
    struct err e = {0, ""};
    ck_assert_int_eq(model_select(m, &sel, &e), 0);
    struct atree t = build(m, ASTACK_ANNOTATIONS);
    ck_assert_uint_eq(t.nranks, 1);
    ck_assert_uint_eq(child_named(&t, 0, "bwd"), ATREE_NONE);
    ck_assert_int_eq(t.nodes[must_child(&t, 0, "fwd")].incl_ns, 15000);
    atree_free(&t);
    model_free(m);
}
END_TEST

static void both_modes(struct model *m, void *ctx)
{
    (void)ctx;
    for (int mode = 0; mode < 2; mode++) {
        struct atree t = build(m, (enum astack_mode)mode);
        atree_free(&t);
    }
}

START_TEST(invariants_should_hold_on_shared_traces)
{
    static const char *const dirs[] = {"two_ranks", "amd_mi250", "nccl", "cpu_only",
                                       "rank_non_gpu"};
    int n = oracle_each_trace("check_annotation_tree", dirs, sizeof dirs / sizeof dirs[0], false,
                              both_modes, NULL);
    ck_assert_msg(n != 0, "no trace of ../shared/traces loaded");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("annotation_tree");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, ranks_should_merge_by_path_with_min_max_and_the_slowest_rank);
    tcase_add_test(tc, events_should_list_a_node_subtree_or_a_leaf_in_time_order);
    tcase_add_test(tc, find_should_walk_depth_first_both_ways_and_wrap);
    tcase_add_test(tc, a_deselected_rank_should_be_left_out);
    tcase_add_test(tc, invariants_should_hold_on_shared_traces);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
