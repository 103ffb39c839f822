#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../gen/gen_sim.h"
#include "oracle_compare.h"
#include "trace_doc.h"
#include "analysis/analysis.h"
#include "analysis/annotation_stacks.h"
#include "model/model.h"

/* GPU time by CPU annotation stack: tiny hand-written traces for
 * each case, and the invariants over generated traces and, when present,
 * the real traces of ../shared/traces. */

/* ---- tiny traces: tests/analysis/trace_doc.h ------------------------- */

/* The node at path (astack_node_path form), ASTACK_NONE when absent. */
static uint32_t find_path(const struct astack_tree *t, const char *path)
{
    for (uint32_t v = 0; v < t->nnodes; v++) {
        char *p = astack_node_path(t, v);
        ck_assert_ptr_nonnull(p);
        int same = strcmp(p, path) == 0;
        free(p);
        if (same)
            return v;
    }
    return ASTACK_NONE;
}

/* The node at path, which must exist. */
static const struct astack_node *node_at(const struct astack_tree *t, const char *path)
{
    uint32_t v = find_path(t, path);
    ck_assert_msg(v != ASTACK_NONE, "no node '%s'", path);
    return &t->nodes[v];
}

/* Invariants of one tree: self times sum to the attributed GPU time, each
 * attributed row is at exactly one node, inclusive = self + children, and
 * children come by inclusive time descending. */
static void check_invariants(const struct model *m, const struct rank_model *r,
                             const struct astack_tree *t)
{
    int64_t gpu_ns = 0, self_ns = 0;
    size_t gpu_n = 0;
    for (size_t i = 0; i < r->nrows; i++)
        if (astack_is_attributed(&r->events[r->rows[i]])) {
            gpu_ns += r->events[r->rows[i]].dur;
            gpu_n++;
        }
    ck_assert_uint_eq(t->nevents, gpu_n);
    ck_assert_uint_eq(t->first[t->nnodes], gpu_n);
    unsigned char *seen = calloc(r->nevents ? r->nevents : 1, 1);
    ck_assert_ptr_nonnull(seen);
    for (uint32_t v = 0; v < t->nnodes; v++) {
        const struct astack_node *nd = &t->nodes[v];
        self_ns += nd->self_ns;
        ck_assert_uint_eq(t->first[v + 1] - t->first[v], nd->self_count);
        int64_t sum = 0;
        for (size_t k = t->first[v]; k < t->first[v + 1]; k++) {
            ck_assert_msg(!seen[t->events[k]], "GPU event attributed twice");
            seen[t->events[k]] = 1;
            sum += r->events[t->events[k]].dur;
        }
        ck_assert_int_eq(sum, nd->self_ns);
        int64_t incl = nd->self_ns, prev = INT64_MAX;
        uint64_t count = nd->self_count;
        for (uint32_t c = nd->first_child; c != ASTACK_NONE; c = t->nodes[c].next_sibling) {
            ck_assert_uint_eq(t->nodes[c].parent, v);
            ck_assert_uint_eq(t->nodes[c].depth, nd->depth + 1);
            ck_assert_int_le(t->nodes[c].incl_ns, prev);
            prev = t->nodes[c].incl_ns;
            incl += t->nodes[c].incl_ns;
            count += t->nodes[c].incl_count;
        }
        ck_assert_int_eq(incl, nd->incl_ns);
        ck_assert_uint_eq(count, nd->incl_count);
    }
    ck_assert_int_eq(self_ns, gpu_ns);
    ck_assert_int_eq(t->nodes[0].incl_ns, gpu_ns);
    free(seen);
    (void)m;
}

static struct astack_tree build_tree(const struct model *m, enum astack_mode mode)
{
    struct astack_tree t;
    struct err e = {0, ""};
    ck_assert_int_eq(astack_build(m, &m->ranks[0], mode, &t, &e), 0);
    check_invariants(m, &m->ranks[0], &t);
    return t;
}

START_TEST(nested_annotations_should_give_the_stack_outermost_first)
{
    struct doc d;
    doc_begin(&d);
    ev(&d, "user_annotation", "ProfilerStep#1", 1, 0, 1000, -1, -1);
    ev(&d, "user_annotation", "forward", 1, 10, 500, -1, -1);
    ev(&d, "user_annotation", "layer/1", 1, 20, 100, -1, -1);
    launch(&d, 1, 30, 40, 1);      /* ProfilerStep#1 / forward / layer\/1 */
    launch(&d, 1, 200, 25, 2);     /* ProfilerStep#1 / forward */
    launch(&d, 1, 600, 10, 3);     /* ProfilerStep#1 */
    launch(&d, 1, 2000, 5, 4);     /* outside: the root */
    struct model *m = load_doc(&d);
    struct astack_tree t = build_tree(m, ASTACK_ANNOTATIONS);
    uint32_t step = find_path(&t, "ProfilerStep#1");
    uint32_t fwd = find_path(&t, "ProfilerStep#1 / forward");
    uint32_t layer = find_path(&t, "ProfilerStep#1 / forward / layer\\/1");
    ck_assert_uint_ne(layer, ASTACK_NONE);
    ck_assert_int_eq(t.nodes[layer].self_ns, 40000);
    ck_assert_uint_eq(t.nodes[layer].depth, 3);
    ck_assert_int_eq(t.nodes[fwd].self_ns, 25000);
    ck_assert_int_eq(t.nodes[fwd].incl_ns, 65000);
    ck_assert_int_eq(t.nodes[step].self_ns, 10000);
    ck_assert_int_eq(t.nodes[step].incl_ns, 75000);
    ck_assert_uint_eq(t.nodes[step].incl_count, 3);
    ck_assert_int_eq(t.nodes[0].self_ns, 5000);
    ck_assert_uint_eq(t.nodes[0].first_child, step);
    ck_assert_str_eq(astack_node_name(&t, layer), "layer/1");
    ck_assert_uint_eq(t.no_launch, 0);
    ck_assert_uint_eq(t.crossing, 0);
    astack_free(&t);
    model_free(m);
}
END_TEST

START_TEST(kernels_without_launch_or_annotation_should_not_be_dropped)
{
    struct doc d;
    doc_begin(&d);
    ev(&d, "user_annotation", "step", 1, 0, 1000, -1, -1);
    launch(&d, 2, 100, 30, 1);                  /* thread 2 has no annotation */
    ev(&d, "kernel", "orphan", 9, 3000, 7, 7, 99); /* its launch is not in the trace */
    ev(&d, "gpu_memcpy", "Memcpy HtoD", 9, 3100, 3, 7, -1); /* no correlation at all */
    struct model *m = load_doc(&d);
    struct astack_tree t = build_tree(m, ASTACK_ANNOTATIONS);
    ck_assert_int_eq(t.nodes[0].self_ns, 30000);
    uint32_t none = find_path(&t, ASTACK_NO_LAUNCH_NAME);
    ck_assert_uint_ne(none, ASTACK_NONE);
    ck_assert_int_eq(t.nodes[none].kind, ASTACK_NO_LAUNCH);
    ck_assert_int_eq(t.nodes[none].self_ns, 10000);
    ck_assert_uint_eq(t.no_launch, 2);
    ck_assert_uint_eq(find_path(&t, "step"), ASTACK_NONE);
    astack_free(&t);
    model_free(m);
}
END_TEST

START_TEST(overlapping_and_zero_length_annotations_should_be_handled)
{
    struct doc d;
    doc_begin(&d);
    ev(&d, "user_annotation", "A", 1, 0, 100, -1, -1);
    ev(&d, "user_annotation", "B", 1, 50, 100, -1, -1);   /* crosses A's end */
    ev(&d, "user_annotation", "zero", 1, 60, 0, -1, -1);  /* zero length */
    launch(&d, 1, 60, 11, 1);      /* inside A and B: A / B */
    launch(&d, 1, 120, 13, 2);     /* after A ended: B alone */
    launch(&d, 1, 10, 17, 3);      /* A alone */
    struct model *m = load_doc(&d);
    struct astack_tree t = build_tree(m, ASTACK_ANNOTATIONS);
    ck_assert_int_eq(node_at(&t, "A / B")->self_ns, 11000);
    ck_assert_int_eq(node_at(&t, "B")->self_ns, 13000);
    ck_assert_int_eq(node_at(&t, "A")->self_ns, 17000);
    ck_assert_uint_eq(find_path(&t, "A / B / zero"), ASTACK_NONE);
    ck_assert_uint_ge(t.crossing, 1);
    ck_assert_uint_eq(m->ranks[0].crossing_annotations, 1);
    ck_assert_uint_eq(m->ranks[0].zero_length_annotations, 1);
    astack_free(&t);
    model_free(m);
}
END_TEST

START_TEST(names_with_control_characters_and_separators_should_be_escaped)
{
    struct doc d;
    doc_begin(&d);
    ev(&d, "user_annotation", "a\\\\b/c\\u001b[31m", 1, 0, 100, -1, -1);
    launch(&d, 1, 10, 5, 1);
    struct model *m = load_doc(&d);
    struct astack_tree t = build_tree(m, ASTACK_ANNOTATIONS);
    ck_assert_uint_ne(find_path(&t, "a\\\\b\\/c\033[31m"), ASTACK_NONE);
    astack_free(&t);
    model_free(m);
}
END_TEST

START_TEST(ops_mode_should_add_enclosing_cpu_ops)
{
    struct doc d;
    doc_begin(&d);
    ev(&d, "user_annotation", "step", 1, 0, 1000, -1, -1);
    ev(&d, "python_function", "nn.Module: Linear", 1, 5, 500, -1, -1);
    ev(&d, "cpu_op", "aten::linear", 1, 10, 100, -1, -1);
    launch(&d, 1, 20, 9, 1);
    struct model *m = load_doc(&d);
    struct astack_tree t = build_tree(m, ASTACK_OPS);
    ck_assert_uint_ne(find_path(&t, "step / nn.Module: Linear / aten::linear"), ASTACK_NONE);
    astack_free(&t);
    t = build_tree(m, ASTACK_ANNOTATIONS);
    ck_assert_int_eq(node_at(&t, "step")->self_ns, 9000);
    astack_free(&t);
    model_free(m);
}
END_TEST

/* The table is htx's: absent under --semantics=hta, present under htx. */
START_TEST(table_should_exist_only_under_htx_semantics)
{
    for (int mode = 0; mode < 2; mode++) {
        struct doc d;
        doc_begin(&d);
        ev(&d, "user_annotation", "step", 1, 0, 1000, -1, -1);
        launch(&d, 1, 20, 9, 1);
        doc_raw(&d, "]}");
        struct semantics sem;
        semantics_init(&sem, mode ? SEMANTICS_HTA : SEMANTICS_HTX);
        const char *names[] = {"rank0.json"};
        const void *bufs[] = {d.text};
        size_t lens[] = {d.len};
        struct err e = {0, ""};
        struct model *m = model_load_buffers(names, bufs, lens, 1, &sem, &e);
        ck_assert_ptr_nonnull(m);
        struct analysis_opts o;
        analysis_opts_default(&o);
        struct arena a;
        arena_init(&a, 0);
        struct table_list l = {{0}, 0};
        ck_assert_int_eq(annotations_run(m, &o, &a, &l, &e), 0);
        int found = 0;
        for (size_t i = 0; i < l.count; i++)
            if (strcmp(l.tables[i]->name, "kernels_by_annotation_stack") == 0) {
                found = 1;
                ck_assert_uint_eq(l.tables[i]->nrows, 2);
            }
        ck_assert_int_eq(found, !mode);
        arena_fini(&a);
        model_free(m);
    }
}
END_TEST

/* Two ranks: the cross-rank table sums over them, and a rank without a
 * path counts 0 in its min and mean. */
START_TEST(ranks_table_should_give_sum_min_mean_max_over_ranks)
{
    struct doc d[2];
    for (int r = 0; r < 2; r++) {
        doc_begin(&d[r]);
        doc_raw(&d[r], "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,"
                       "\"args\":{\"name\":\"x\"}}");
        d[r].n = 1;
        ev(&d[r], "user_annotation", "fwd", 1, 0, 1000, -1, -1);
        launch(&d[r], 1, 10, r ? 30 : 10, 1);
        if (r == 1) {
            ev(&d[r], "user_annotation", "bwd", 1, 2000, 1000, -1, -1);
            launch(&d[r], 1, 2010, 4, 2);
        }
        doc_raw(&d[r], "]}");
    }
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    const char *names[] = {"rank-0.json", "rank-1.json"};
    const void *bufs[] = {d[0].text, d[1].text};
    size_t lens[] = {d[0].len, d[1].len};
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, bufs, lens, 2, &sem, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    ck_assert_uint_eq(m->nranks, 2);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct arena a;
    arena_init(&a, 0);
    struct table_list l = {{0}, 0};
    ck_assert_int_eq(annotations_run(m, &o, &a, &l, &e), 0);
    const struct table *t = NULL;
    for (size_t i = 0; i < l.count; i++)
        if (strcmp(l.tables[i]->name, "kernels_by_annotation_stack_ranks") == 0)
            t = l.tables[i];
    ck_assert_ptr_nonnull(t);
    int seen = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const struct cell *row = &t->cells[i * t->ncols];
        ck_assert_int_eq(row[0].type, CELL_STR);
        if (strcmp(row[0].v.s, "fwd") == 0) {
            ck_assert_double_eq(row[2].v.d, 40.0);  /* sum */
            ck_assert_double_eq(row[3].v.d, 10.0);  /* min */
            ck_assert_double_eq(row[4].v.d, 20.0);  /* mean */
            ck_assert_double_eq(row[5].v.d, 30.0);  /* max */
            ck_assert_int_eq(row[7].v.i, 2);
            seen |= 1;
        } else if (strcmp(row[0].v.s, "bwd") == 0) {
            ck_assert_double_eq(row[3].v.d, 0.0);
            ck_assert_double_eq(row[4].v.d, 2.0);
            ck_assert_double_eq(row[5].v.d, 4.0);
            ck_assert_int_eq(row[7].v.i, 1);
            seen |= 2;
        }
    }
    ck_assert_int_eq(seen, 3);
    arena_fini(&a);
    model_free(m);
}
END_TEST

/* ---- invariants over generated and real traces --------------------------- */

static void check_model(struct model *m)
{
    for (size_t i = 0; i < m->nranks; i++)
        for (int mode = 0; mode < 2; mode++) {
            struct astack_tree t;
            struct err e = {0, ""};
            ck_assert_int_eq(astack_build(m, &m->ranks[i], (enum astack_mode)mode, &t, &e), 0);
            check_invariants(m, &m->ranks[i], &t);
            astack_free(&t);
        }
}

START_TEST(invariants_should_hold_on_generated_traces)
{
    char dir[] = "/tmp/htx-astack-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[600];
    snprintf(path, sizeof path, "%s/rank-0.json", dir);
    struct gen_cfg cfg = {.seed = 7, .world = 1, .iterations = 3, .first_step = 1, .layers = 2,
                          .bucket_layers = 1};
    struct gen_out o;
    struct gen_stats st;
    memset(&st, 0, sizeof st);
    ck_assert_int_eq(gen_out_open(&o, path, 0, 0), 0);
    gen_sim_rank(&cfg, 0, &o, "astack", &st);
    ck_assert_int_eq(gen_out_close(&o), 0);
    const char *paths[] = {path};
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct load_opts lo = {.threads = 1};
    struct err e = {0, ""};
    struct model *m = model_load(paths, 1, &sem, &lo, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    check_model(m);
    /* the generator's kernels are all launched under ProfilerStep#N */
    struct astack_tree t;
    ck_assert_int_eq(astack_build(m, &m->ranks[0], ASTACK_ANNOTATIONS, &t, &e), 0);
    ck_assert_uint_gt(t.nnodes, 1);
    ck_assert_int_lt(t.nodes[0].self_ns, t.nodes[0].incl_ns);
    astack_free(&t);
    model_free(m);
    unlink(path);
    rmdir(dir);
}
END_TEST

static void check_model_ctx(struct model *m, void *ctx)
{
    (void)ctx;
    check_model(m);
}

START_TEST(invariants_should_hold_on_shared_traces)
{
    static const char *const dirs[] = {"two_ranks", "amd_mi250", "nccl", "cpu_only",
                                       "rank_non_gpu"};
    int n = oracle_each_trace("check_annotation_stacks", dirs, sizeof dirs / sizeof dirs[0],
                              false, check_model_ctx, NULL);
    ck_assert_msg(n != 0, "no trace of ../shared/traces loaded");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("annotation_stacks");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, nested_annotations_should_give_the_stack_outermost_first);
    tcase_add_test(tc, kernels_without_launch_or_annotation_should_not_be_dropped);
    tcase_add_test(tc, overlapping_and_zero_length_annotations_should_be_handled);
    tcase_add_test(tc, names_with_control_characters_and_separators_should_be_escaped);
    tcase_add_test(tc, ops_mode_should_add_enclosing_cpu_ops);
    tcase_add_test(tc, table_should_exist_only_under_htx_semantics);
    tcase_add_test(tc, ranks_table_should_give_sum_min_mean_max_over_ranks);
    tcase_add_test(tc, invariants_should_hold_on_generated_traces);
    tcase_add_test(tc, invariants_should_hold_on_shared_traces);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
