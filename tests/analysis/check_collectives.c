#include "config.h"

#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/collectives.h"
#include "analysis/stragglers_hta.h"
#include "../gen/gen_coll.h"
#include "../gen/gen_out.h"
#include "model/model.h"
#include "oracle_compare.h"
#include "planted_job.h"
#include "trace/fields.h"

/* Collectives matched across ranks, waits, blame and the straggler
 * ranking: hand-built jobs for the matching rules and bad input, the
 * generator's planted stragglers in 8-, 64- and 512-rank jobs, and HTA's
 * get_potential_stragglers on the shared trace sets. */

/* ---- building small jobs in memory ------------------------------------------ */

#define MAX_DOC_RANKS 8
#define DOC_CAP 16384

struct job {
    char docs[MAX_DOC_RANKS][DOC_CAP];
    size_t len[MAX_DOC_RANKS];
    int nranks, corr;
};

static void job_init(struct job *j, int nranks)
{
    memset(j, 0, sizeof *j);
    j->nranks = nranks;
    j->corr = 1;
    for (int r = 0; r < nranks; r++)
        j->len[r] = (size_t)snprintf(j->docs[r], DOC_CAP,
                                     "{\"distributedInfo\": {\"rank\": %d, \"world_size\": %d},"
                                     " \"traceEvents\": [\n"
                                     "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": "
                                     "\"ProfilerStep#1\", \"pid\": 1, \"tid\": 1, \"ts\": 0, "
                                     "\"dur\": 100000}",
                                     r, nranks);
}

/* A communication kernel on rank r at ts (µs) for dur (µs), launched from
 * inside ProfilerStep#1; args is the text after "correlation": N (may be ""). */
static void job_kernel(struct job *j, int r, const char *name, int stream, long ts, long dur,
                       const char *args)
{
    int c = j->corr++;
    j->len[r] += (size_t)snprintf(j->docs[r] + j->len[r], DOC_CAP - j->len[r],
                                  ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": "
                                  "\"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": %ld, "
                                  "\"dur\": 1, \"args\": {\"correlation\": %d}}"
                                  ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", "
                                  "\"pid\": 0, \"tid\": %d, \"ts\": %ld, \"dur\": %ld, \"args\": "
                                  "{\"stream\": %d, \"correlation\": %d%s%s}}",
                                  ts - 2, c, name, stream, ts, dur, stream, c, *args ? ", " : "",
                                  args);
    ck_assert_uint_lt(j->len[r], DOC_CAP - 64);
}

static struct model *job_load(struct job *j, enum semantics_mode mode)
{
    const char *names[MAX_DOC_RANKS];
    const void *bufs[MAX_DOC_RANKS];
    size_t lens[MAX_DOC_RANKS];
    static char namebuf[MAX_DOC_RANKS][32];
    for (int r = 0; r < j->nranks; r++) {
        j->len[r] += (size_t)snprintf(j->docs[r] + j->len[r], DOC_CAP - j->len[r], "\n]}\n");
        snprintf(namebuf[r], sizeof namebuf[r], "rank-%d.json", r);
        names[r] = namebuf[r];
        bufs[r] = j->docs[r];
        lens[r] = j->len[r];
    }
    struct semantics sem;
    semantics_init(&sem, mode);
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, bufs, lens, (size_t)j->nranks, &sem, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    return m;
}

static void analyze(const struct model *m, struct arena *a, struct coll_result *r)
{
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct err e = {0, ""};
    ck_assert_int_eq(coll_analyze(m, &o, a, r, &e), 0);
}

static const struct straggler *ranked(const struct coll_result *r, int64_t rank)
{
    for (size_t i = 0; i < r->nranking; i++)
        if (r->ranking[i].rank == rank)
            return &r->ranking[i];
    ck_abort_msg("rank %" PRId64 " not ranked", rank);
    return NULL;
}

#define AR "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"
#define AG "ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"

/* Three ranks, two allreduces; rank 2 arrives 100 µs late at the second. */
static void three_rank_job(struct job *j, bool with_seq)
{
    job_init(j, 3);
    for (int r = 0; r < 3; r++) {
        char args[256];
        for (int k = 0; k < 2; k++) {
            long arrive = 1000 + 5000 * k + (k == 1 && r == 2 ? 100 : 0);
            long end = 1000 + 5000 * k + (k == 1 ? 100 : 0) + 50;
            snprintf(args, sizeof args,
                     "\"Collective name\": \"allreduce\", \"Process Group Name\": \"0\", "
                     "\"Process Group Ranks\": \"[0, 1, 2]\", \"Group size\": 3, "
                     "\"In msg nelems\": 1000, \"Out msg nelems\": 1000, \"dtype\": \"Float\"%s",
                     with_seq ? (k ? ", \"Seq\": 8" : ", \"Seq\": 7") : "");
            job_kernel(j, r, AR, 40, arrive, end - arrive, args);
        }
    }
}

static void assert_three_rank_figures(const struct coll_result *r)
{
    ck_assert_uint_eq(r->ncolls, 2);
    const struct collective *c = &r->colls[1];
    ck_assert_uint_eq(c->ninst, 3);
    ck_assert_int_eq(c->inst[c->last].rank, 2);
    ck_assert_int_eq(c->skew, 100000);
    ck_assert_int_eq(c->inst[0].wait, 100000);
    ck_assert_int_eq(c->inst[1].wait, 100000);
    ck_assert_int_eq(c->inst[2].wait, 0);
    ck_assert_int_eq(c->total_wait, 200000);
    ck_assert_int_eq(c->bytes, 4000);
    ck_assert_int_eq(c->time, 50000);
    ck_assert_double_eq_tol(c->algbw, 4000.0 / 50000.0, 1e-12);
    ck_assert_double_eq_tol(c->busbw, 4000.0 / 50000.0 * 2.0 * 2.0 / 3.0, 1e-12);
    ck_assert_int_eq(r->colls[0].total_wait, 0);
    ck_assert_uint_ge(r->nranking, 3);
    ck_assert_int_eq(r->ranking[0].rank, 2);
    ck_assert_int_eq(r->ranking[0].blame, 200000);
    ck_assert_int_eq(r->ranking[0].worst_blame, 200000);
    ck_assert_int_eq(r->ranking[0].worst_iteration, 1);
    ck_assert_int_eq(ranked(r, 0)->suffered, 100000);
    ck_assert_int_eq(ranked(r, 1)->blame, 0);
}

START_TEST(match_should_use_group_and_sequence_number)
{
    struct job j;
    three_rank_job(&j, true);
    struct model *m = job_load(&j, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct coll_result r;
    analyze(m, &a, &r);
    ck_assert_uint_eq(r.matched[COLL_MATCH_SEQ], 6);
    ck_assert_uint_eq(r.matched[COLL_MATCH_ORDER], 0);
    ck_assert_int_eq(r.colls[1].seq, 8);
    ck_assert_int_eq(r.colls[1].rule, COLL_MATCH_SEQ);
    assert_three_rank_figures(&r);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(match_should_fall_back_to_order_without_sequence_numbers)
{
    struct job j;
    three_rank_job(&j, false);
    struct model *m = job_load(&j, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct coll_result r;
    analyze(m, &a, &r);
    ck_assert_uint_eq(r.matched[COLL_MATCH_SEQ], 0);
    ck_assert_uint_eq(r.matched[COLL_MATCH_ORDER], 6);
    ck_assert_int_eq(r.colls[1].occurrence, 1);
    ck_assert_int_eq(r.colls[1].seq, -1);
    assert_three_rank_figures(&r);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(match_should_key_by_stream_when_kernels_have_no_group)
{
    struct job j;
    job_init(&j, 2);
    /* two streams, bare kernels (old PyTorch): matched per stream and name */
    job_kernel(&j, 0, AR, 40, 1000, 300, "");
    job_kernel(&j, 1, AR, 40, 1200, 100, "");
    job_kernel(&j, 0, AR, 44, 2000, 100, "");
    job_kernel(&j, 1, AR, 44, 1900, 200, "");
    struct model *m = job_load(&j, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct coll_result r;
    analyze(m, &a, &r);
    ck_assert_uint_eq(r.ncolls, 2);
    ck_assert_uint_eq(r.matched[COLL_MATCH_ORDER], 4);
    ck_assert_int_eq(r.colls[0].stream, 40);
    ck_assert_int_eq(r.colls[0].inst[r.colls[0].last].rank, 1);
    ck_assert_int_eq(r.colls[0].total_wait, 200000);
    ck_assert_int_eq(r.colls[1].stream, 44);
    ck_assert_int_eq(r.colls[1].inst[r.colls[1].last].rank, 0);
    ck_assert_int_eq(r.colls[1].total_wait, 100000);
    ck_assert_int_eq(r.ranking[0].rank, 1);
    ck_assert_int_eq(r.ranking[0].blame, 200000);
    arena_fini(&a);
    model_free(m);
}
END_TEST

/* record_param_comms around the launch of the next job_kernel at ts (µs). */
static void job_param_comms(struct job *j, int r, long ts, const char *args)
{
    j->len[r] += (size_t)snprintf(j->docs[r] + j->len[r], DOC_CAP - j->len[r],
                                  ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": "
                                  "\"record_param_comms\", \"pid\": 1, \"tid\": 1, \"ts\": %ld, "
                                  "\"dur\": 3, \"args\": {%s}}",
                                  ts - 3, args);
}

START_TEST(match_should_take_missing_args_from_the_launching_op)
{
    struct job j;
    job_init(&j, 2);
    /* the kernels carry only the collective name; group, Seq and sizes are
     * on record_param_comms around their launches. Seq 5 on rank 0 comes
     * second in time, so order matching would pair them wrongly. */
    for (int r = 0; r < 2; r++) {
        for (int k = 0; k < 2; k++) {
            int seq = r == 0 ? 6 - k : 5 + k;
            char args[256];
            snprintf(args, sizeof args, "\"Process Group Name\": \"7\", \"Group size\": 2, "
                     "\"Seq\": %d, \"In msg nelems\": 8, \"Out msg nelems\": 8, "
                     "\"dtype\": \"Double\"", seq);
            long ts = 1000 + 1000 * k + (r == 1 && seq == 6 ? 40 : 0);
            job_param_comms(&j, r, ts, args);
            job_kernel(&j, r, AR, 40, ts, 100 - (ts % 1000), "\"Collective name\": \"allreduce\"");
        }
    }
    struct model *m = job_load(&j, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct coll_result r;
    analyze(m, &a, &r);
    ck_assert_uint_eq(r.matched[COLL_MATCH_SEQ], 4);
    ck_assert_uint_eq(r.ncolls, 2);
    for (size_t i = 0; i < 2; i++) {
        const struct collective *c = &r.colls[i];
        ck_assert_str_eq(model_str(m, c->group), "7");
        ck_assert_int_eq(c->bytes, 64);
        if (c->seq == 6) {
            ck_assert_int_eq(c->inst[c->last].rank, 1);
            ck_assert_int_eq(c->skew, 1000000 + 40000);
        }
    }
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(match_should_report_a_rank_that_never_calls_a_collective)
{
    struct job j;
    job_init(&j, 3);
#define MISSING_ARGS "\"Collective name\": \"allreduce\", \"Process Group Name\": \"0\", " \
                     "\"Process Group Ranks\": \"[0, 1, 2]\", \"Group size\": 3, \"Seq\": %d"
    char args[256];
    for (int r = 0; r < 3; r++) {
        snprintf(args, sizeof args, MISSING_ARGS, 1);
        job_kernel(&j, r, AR, 40, 1000 + 10 * r, 100, args);
        if (r != 1) {  /* rank 1 never calls the second */
            snprintf(args, sizeof args, MISSING_ARGS, 2);
            job_kernel(&j, r, AR, 40, 5000, 100, args);
        }
    }
    struct model *m = job_load(&j, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct coll_result r;
    analyze(m, &a, &r);
    ck_assert_uint_eq(r.ncolls, 1);
    ck_assert_int_eq(r.colls[0].seq, 1);
    ck_assert_uint_eq(r.matched[COLL_MATCH_SEQ], 3);
    ck_assert_uint_eq(r.unmatched[COLL_ISSUE_MISSING_RANK], 2);
    ck_assert_int_eq(r.ranking[0].rank, 2);
    ck_assert_int_eq(r.ranking[0].blame, 20000 + 10000);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(match_should_keep_process_groups_apart)
{
    struct job j;
    job_init(&j, 4);
    /* groups "1" = ranks 0, 1 and "2" = ranks 2, 3, both at Seq 1; the
     * late ranks differ per group */
    for (int r = 0; r < 4; r++) {
        char args[256];
        int g = r < 2 ? 1 : 2;
        snprintf(args, sizeof args,
                 "\"Collective name\": \"allgather\", \"Process Group Name\": \"%d\", "
                 "\"Process Group Ranks\": \"[%d, %d]\", \"Group size\": 2, \"Seq\": 1, "
                 "\"In msg nelems\": 10, \"Out msg nelems\": 20, \"dtype\": \"BFloat16\"",
                 g, g == 1 ? 0 : 2, g == 1 ? 1 : 3);
        long late = r == 1 ? 300 : r == 2 ? 50 : 0;
        job_kernel(&j, r, AG, 40, 1000 + late, 400 - late, args);
    }
    struct model *m = job_load(&j, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct coll_result r;
    analyze(m, &a, &r);
    ck_assert_uint_eq(r.ncolls, 2);
    ck_assert_uint_eq(r.matched[COLL_MATCH_SEQ], 4);
    for (size_t i = 0; i < 2; i++) {
        const struct collective *c = &r.colls[i];
        ck_assert_uint_eq(c->ninst, 2);
        ck_assert_int_eq(c->bytes, 40);
        ck_assert_int_eq(c->kind, COLL_KIND_ALLGATHER);
        ck_assert_double_eq_tol(coll_busbw_factor(c->kind, c->group_size), 0.5, 1e-12);
        bool first_group = strcmp(model_str(m, c->group), "1") == 0;
        ck_assert_int_eq(c->inst[c->last].rank, first_group ? 1 : 2);
        ck_assert_int_eq(c->total_wait, first_group ? 300000 : 50000);
    }
    ck_assert_int_eq(r.ranking[0].rank, 1);
    ck_assert_int_eq(r.ranking[1].rank, 2);
    ck_assert_int_eq(ranked(&r, 0)->suffered, 300000);
    ck_assert_int_eq(ranked(&r, 3)->suffered, 50000);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(match_should_refuse_contradictory_group_fields)
{
    struct job j;
    job_init(&j, 3);
    char args[256];
    /* Seq 1: names differ; Seq 2: group sizes differ; Seq 3: rank 2 is not
     * in its own group's list; Seq 4: rank 0 has it twice */
    for (int r = 0; r < 3; r++) {
        snprintf(args, sizeof args, "\"Collective name\": \"%s\", \"Process Group Name\": \"0\", "
                 "\"Seq\": 1", r == 2 ? "broadcast" : "allreduce");
        job_kernel(&j, r, AR, 40, 1000, 100, args);
        snprintf(args, sizeof args, "\"Process Group Name\": \"0\", \"Group size\": %d, "
                 "\"Seq\": 2", r == 0 ? 2 : 3);
        job_kernel(&j, r, AR, 40, 2000, 100, args);
        snprintf(args, sizeof args, "\"Process Group Name\": \"0\", \"Process Group Ranks\": "
                 "\"[0, 1, 3]\", \"Seq\": 3");
        job_kernel(&j, r, AR, 40, 3000, 100, args);
        snprintf(args, sizeof args, "\"Process Group Name\": \"0\", \"Seq\": 4");
        job_kernel(&j, r, AR, 40, 4000, 100, args);
        if (r == 0)
            job_kernel(&j, r, AR, 40, 4500, 100, args);
    }
    struct model *m = job_load(&j, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct coll_result r;
    analyze(m, &a, &r);
    ck_assert_uint_eq(r.ncolls, 0);
    ck_assert_uint_eq(r.instances, 13);
    ck_assert_uint_eq(r.unmatched[COLL_ISSUE_NAME_MISMATCH], 3);
    ck_assert_uint_eq(r.unmatched[COLL_ISSUE_SIZE_MISMATCH], 3);
    ck_assert_uint_eq(r.unmatched[COLL_ISSUE_NOT_MEMBER], 3);
    ck_assert_uint_eq(r.unmatched[COLL_ISSUE_DUPLICATE], 4);
    ck_assert_uint_eq(r.nranking, 0);
    /* the tables say so instead of failing */
    struct table_list l = {0};
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct err e = {0, ""};
    ck_assert_int_eq(collectives_run(m, &o, &a, &l, &e), 0);
    ck_assert_uint_eq(l.count, 3);
    ck_assert_uint_eq(l.tables[0]->nrows, 0);
    ck_assert_ptr_nonnull(l.tables[0]->note);
    ck_assert_uint_eq(l.tables[2]->nrows, 2 + 4);
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(one_rank_should_not_straggle)
{
    struct job j;
    job_init(&j, 1);
    job_kernel(&j, 0, AR, 40, 1000, 100,
               "\"Collective name\": \"allreduce\", \"Process Group Name\": \"0\", "
               "\"Process Group Ranks\": \"[0, 1]\", \"Group size\": 2, \"In msg nelems\": "
               "1000, \"Out msg nelems\": 1000, \"dtype\": \"Float\"");
    struct model *m = job_load(&j, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct coll_result r;
    analyze(m, &a, &r);
    ck_assert_uint_eq(r.ncolls, 1);  /* kept for its bandwidth, rank 1 not loaded */
    ck_assert_uint_eq(r.kept_alone, 1);
    ck_assert_uint_eq(r.matched[COLL_MATCH_ORDER], 0);
    ck_assert(r.colls[0].partial);
    ck_assert_int_eq(r.colls[0].bytes, 4000);
    ck_assert_uint_eq(r.nranking, 0);
    struct table_list l = {0};
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct err e = {0, ""};
    ck_assert_int_eq(stragglers_run(m, &o, &a, &l, &e), 0);
    ck_assert_uint_eq(l.tables[0]->nrows, 0);
    ck_assert_ptr_nonnull(strstr(l.tables[0]->note, "one rank cannot straggle"));
    arena_fini(&a);
    model_free(m);
}
END_TEST

START_TEST(bandwidth_should_use_nccl_tests_factors)
{
    ck_assert_int_eq(coll_kind_of("allreduce"), COLL_KIND_ALLREDUCE);
    ck_assert_int_eq(coll_kind_of("ncclDevKernel_AllReduce_Sum_f32_RING_LL"),
                     COLL_KIND_ALLREDUCE);
    ck_assert_int_eq(coll_kind_of("_reduce_scatter_base"), COLL_KIND_REDUCESCATTER);
    ck_assert_int_eq(coll_kind_of("all_gather_into_tensor_coalesced"), COLL_KIND_ALLGATHER);
    ck_assert_int_eq(coll_kind_of("all_to_all"), COLL_KIND_ALLTOALL);
    ck_assert_int_eq(coll_kind_of("broadcast"), COLL_KIND_BROADCAST);
    ck_assert_int_eq(coll_kind_of("reduce"), COLL_KIND_REDUCE);
    ck_assert_int_eq(coll_kind_of("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t"),
                     COLL_KIND_SENDRECV);
    ck_assert_int_eq(coll_kind_of("barrier"), COLL_KIND_OTHER);
    ck_assert_double_eq_tol(coll_busbw_factor(COLL_KIND_ALLREDUCE, 8), 1.75, 1e-12);
    ck_assert_double_eq_tol(coll_busbw_factor(COLL_KIND_ALLGATHER, 8), 0.875, 1e-12);
    ck_assert_double_eq_tol(coll_busbw_factor(COLL_KIND_REDUCESCATTER, 4), 0.75, 1e-12);
    ck_assert_double_eq_tol(coll_busbw_factor(COLL_KIND_ALLTOALL, 2), 0.5, 1e-12);
    ck_assert_double_eq_tol(coll_busbw_factor(COLL_KIND_BROADCAST, 8), 1.0, 1e-12);
    ck_assert(isnan(coll_busbw_factor(COLL_KIND_OTHER, 8)));
    ck_assert_int_eq(coll_dtype_size("Float"), 4);
    ck_assert_int_eq(coll_dtype_size("BFloat16"), 2);
    ck_assert_int_eq(coll_dtype_size("Long"), 8);
    ck_assert_int_eq(coll_dtype_size("Byte"), 1);
    ck_assert_int_eq(coll_dtype_size("NoSuchType"), 0);
}
END_TEST

static bool same_str(struct trace_str a, struct trace_str b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, a.len) == 0) &&
           (a.s == NULL) == (b.s == NULL);
}

static bool same_int(struct trace_int a, struct trace_int b)
{
    return a.present == b.present && (!a.present || a.v == b.v);
}

START_TEST(reader_should_read_collective_args_on_both_paths)
{
    static const char *const elements[] = {
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 2, "
        "\"args\": {\"Collective name\": \"allreduce\", \"Process Group Name\": \"0\", "
        "\"Process Group Ranks\": \"[0, 1]\", \"Group size\": 2, \"In msg nelems\": 7.9, "
        "\"Out msg nelems\": 8, \"dtype\": \"Float\", \"Seq\": 12, \"seq\": 3, "
        "\"Sequence number\": 99, \"Seq\": 13}}",
        /* wrong types leave the fields absent; escaped keys still count */
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"ts\": 1, \"dur\": 2, \"args\": "
        "{\"Collective name\": 5, \"Process Group Name\": [\"0\"], \"Group size\": \"2\", "
        "\"dtype\": null, \"seq\": 4, \"In msg nel\\u0065ms\": 6}}",
    };
    for (size_t i = 0; i < sizeof elements / sizeof elements[0]; i++) {
        const char *t = elements[i];
        size_t len = strlen(t), used = 0, at = 0;
        char s1[1024], s2[1024];
        struct trace_event a, b;
        const char *wa = NULL, *wb = NULL;
        void *tree = NULL;
        ck_assert_int_eq(trace_fields_parse(t, len, s1, sizeof s1, 510, &a, &wa, &used),
                         TRACE_FIELDS_OK);
        ck_assert_int_eq(trace_fields_parse_cjson(t, len, s2, &b, &wb, &at, &tree),
                         TRACE_FIELDS_OK);
        ck_assert(same_str(a.coll_name, b.coll_name) && same_str(a.pg_name, b.pg_name));
        ck_assert(same_str(a.pg_ranks, b.pg_ranks) && same_str(a.dtype, b.dtype));
        ck_assert(same_int(a.group_size, b.group_size) && same_int(a.in_nelems, b.in_nelems));
        ck_assert(same_int(a.out_nelems, b.out_nelems) && same_int(a.seq, b.seq));
        ck_assert(same_int(a.seq_lower, b.seq_lower));
        if (i == 0) {
            ck_assert(a.seq.present && a.seq.v == 12);  /* the first "Seq" counts */
            ck_assert(a.in_nelems.present && a.in_nelems.v == 7);
            ck_assert_uint_eq(a.pg_ranks.len, 6);
        } else {
            ck_assert(!a.coll_name.s && !a.pg_name.s && !a.dtype.s && !a.group_size.present);
            ck_assert(a.seq_lower.present && a.seq_lower.v == 4 && !a.seq.present);
            ck_assert(a.in_nelems.present && a.in_nelems.v == 6);
        }
        trace_fields_free_tree(tree);
    }
}
END_TEST

/* ---- planted stragglers from the generator ------------------------------------ */

static const int planted_sizes[] = {8, 64, 512};

START_TEST(planted_straggler_should_rank_first_with_its_delay)
{
    int world = planted_sizes[_i];
    int planted = world == 8 ? 5 : world == 64 ? 37 : 300;
    int64_t delay_us = world == 8 ? 2500 : world == 64 ? 777 : 4321;
    struct gen_coll_cfg cfg = {.world = world, .iterations = 3, .first_step = 10,
                               .per_step = 3, .seq = _i != 1, .straggler = planted, .step = 11,
                               .coll = 2, .delay_us = delay_us};
    struct planted_job job;
    planted_job_make(&job, &cfg);
    struct model *m = job.m;
    struct arena a;
    arena_init(&a, 0);
    struct coll_result r;
    analyze(m, &a, &r);
    ck_assert_uint_eq(r.ncolls, 9);
    ck_assert_uint_eq(r.matched[_i != 1 ? COLL_MATCH_SEQ : COLL_MATCH_ORDER], (size_t)(9 * world));
    const int64_t d = delay_us * 1000, tol = 1000;
    /* the planted rank first, blamed for everyone else's delay */
    const struct straggler *top = &r.ranking[0];
    ck_assert_int_eq(top->rank, planted);
    ck_assert_int_eq(r.nranking, world);
    ck_assert(llabs(top->blame - (int64_t)(world - 1) * d) <= tol);
    ck_assert_int_eq(top->worst_iteration, 11);
    ck_assert_uint_eq(top->last_count, 1);
    ck_assert_uint_ne(top->worst, SIZE_MAX);
    const struct collective *c = &r.colls[top->worst];
    ck_assert_str_eq(model_str(m, c->name), "reduce_scatter");
    ck_assert(llabs(c->skew - d) <= tol);
    ck_assert(llabs(c->max_wait - d) <= tol);
    ck_assert_int_eq(r.ranking[1].blame, 0);
    /* every other rank waited exactly the delay, once */
    for (size_t i = 0; i < c->ninst; i++)
        ck_assert(llabs(c->inst[i].wait - (c->inst[i].rank == planted ? 0 : d)) <= tol);
    for (size_t i = 0; i < r.nranking; i++)
        if (r.ranking[i].rank != planted)
            ck_assert(llabs(r.ranking[i].suffered - d) <= tol);
    for (size_t i = 0; i < r.nblame; i++) {
        const struct rank_iter_blame *b = &r.blame[i];
        int64_t want_suffered = b->rank != planted && b->iteration == 11 ? d : 0;
        int64_t want_blame = b->rank == planted && b->iteration == 11 ? (world - 1) * d : 0;
        ck_assert(llabs(b->suffered - want_suffered) <= tol);
        ck_assert(llabs(b->blame - want_blame) <= tol);
    }
    arena_fini(&a);
    planted_job_remove(&job);
}
END_TEST

/* ---- HTA's get_potential_stragglers on the shared sets ------------------------- */

static const char *const oracle_sets[] = {
    "two_ranks", "nccl", "amd_mi250", "cpu_only", "rank_non_gpu", "diff/control", "diff/test",
    "diff_small/control", "diff_small/test",
};
#define N_SETS (sizeof oracle_sets / sizeof oracle_sets[0])

static struct model *load_set(const char *set, enum semantics_mode mode)
{
    char root[512], dir[800];
    ck_assert_ptr_nonnull(oracle_traces_root(root, sizeof root));
    snprintf(dir, sizeof dir, "%s/%s", root, set);
    const char *paths[] = {dir};
    struct semantics sem;
    semantics_init(&sem, mode);
    struct load_opts lo = {.threads = 1};
    struct err e = {0, ""};
    struct model *m = model_load(paths, 1, &sem, &lo, &e);
    ck_assert_msg(m != NULL, "%s: load failed: %s", set, e.msg);
    return m;
}

static cJSON *oracle_doc(const char *set, const char *file)
{
    char root[512], path[1024], msg[256];
    ck_assert_ptr_nonnull(oracle_root(root, sizeof root));
    snprintf(path, sizeof path, "%s/hta-extra/%s/%s", root, set, file);
    return oracle_load(path, msg, sizeof msg);
}

static bool have_shared(const char *set)
{
    char root[512];
    if (oracle_root(root, sizeof root) && oracle_traces_root(root, sizeof root))
        return true;
    printf("../shared not found: skipping the stragglers oracle test for %s\n", set);
    return false;
}

static void check_candidates(const char *set, const struct model *m, int k, const char *file,
                             const char *manifest_key, const cJSON *manifest)
{
    struct arena a;
    arena_init(&a, 0);
    struct analysis_opts o;
    analysis_opts_default(&o);
    o.num_candidates = k;
    struct table_list l = {0};
    struct err e = {0, ""};
    ck_assert_int_eq(stragglers_run(m, &o, &a, &l, &e), 0);
    ck_assert_uint_eq(l.count, 1);
    const struct table *t = l.tables[0];
    ck_assert_str_eq(t->name, "potential_stragglers");
    const char *status = oracle_status(manifest, manifest_key);
    cJSON *doc = status && strcmp(status, "ok") == 0 ? oracle_doc(set, file) : NULL;
    if (doc) {
        const cJSON *want = cJSON_GetObjectItemCaseSensitive(doc, "result");
        ck_assert_msg(cJSON_IsArray(want), "%s %s: no result list", set, file);
        ck_assert_msg(t->nrows == (size_t)cJSON_GetArraySize(want), "%s k=%d: %zu ranks, HTA %d",
                      set, k, t->nrows, cJSON_GetArraySize(want));
        for (size_t i = 0; i < t->nrows; i++)
            ck_assert_msg(table_cell(t, i, 0)->v.i ==
                              (int64_t)cJSON_GetArrayItem(want, (int)i)->valuedouble,
                          "%s k=%d: position %zu is rank %" PRId64 ", HTA %g", set, k, i,
                          table_cell(t, i, 0)->v.i,
                          cJSON_GetArrayItem(want, (int)i)->valuedouble);
        cJSON_Delete(doc);
    } else if (status && strcmp(status, "exception") == 0) {
        /* HTA raised: htx answers no candidate, and says why */
        ck_assert_msg(t->nrows == 0, "%s: HTA raises, htx gave %zu ranks", set, t->nrows);
        ck_assert_ptr_nonnull(t->note);
        ck_assert_ptr_nonnull(strstr(t->note, "HTA"));
    }
    arena_fini(&a);
}

START_TEST(stragglers_should_match_hta_oracle)
{
    const char *set = oracle_sets[_i];
    if (!have_shared(set))
        return;
    cJSON *manifest = oracle_doc(set, "manifest.json");
    ck_assert_msg(manifest != NULL, "%s: no hta-extra manifest", set);
    struct model *m = load_set(set, SEMANTICS_HTA);
    check_candidates(set, m, 2, "potential_stragglers_nc2.json", "potential_stragglers_nc2",
                     manifest);
    check_candidates(set, m, 1, "potential_stragglers_nc1.json", "potential_stragglers_nc1",
                     manifest);
    model_free(m);
    cJSON_Delete(manifest);
}
END_TEST

START_TEST(stragglers_should_answer_every_shared_set_under_htx)
{
    const char *set = oracle_sets[_i];
    if (!have_shared(set))
        return;
    struct model *m = load_set(set, SEMANTICS_HTX);
    struct arena a;
    arena_init(&a, 0);
    struct analysis_opts o;
    analysis_opts_default(&o);
    struct err e = {0, ""};
    struct table_list l = {0};
    ck_assert_int_eq(stragglers_run(m, &o, &a, &l, &e), 0);
    ck_assert_int_eq(collectives_run(m, &o, &a, &l, &e), 0);
    for (size_t k = 0; k < l.count; k++)
        ck_assert_msg(l.tables[k]->nrows > 0 || l.tables[k]->note, "%s %s: empty without a note",
                      set, l.tables[k]->name);
    if (m->nranks == 1)
        ck_assert_uint_eq(l.tables[0]->nrows, 0);  /* one rank cannot straggle */
    if (strcmp(set, "two_ranks") == 0) {
        /* HTA's candidates are both ranks; the blame ranking orders them */
        ck_assert_uint_eq(l.tables[0]->nrows, 2);
        ck_assert_int_eq(table_cell(l.tables[0], 0, 0)->v.i, 1);
    }
    if (strcmp(set, "nccl") == 0) {
        /* one rank of a two-rank group: its collectives keep their bandwidth */
        ck_assert_uint_eq(l.tables[2]->nrows, 21);
        ck_assert_uint_gt(l.tables[3]->nrows, 0);
    }
    arena_fini(&a);
    model_free(m);
}
END_TEST

static Suite *collectives_suite(void)
{
    Suite *s = suite_create("collectives");
    TCase *tc = tcase_create("matching");
    tcase_add_test(tc, match_should_use_group_and_sequence_number);
    tcase_add_test(tc, match_should_fall_back_to_order_without_sequence_numbers);
    tcase_add_test(tc, match_should_key_by_stream_when_kernels_have_no_group);
    tcase_add_test(tc, match_should_take_missing_args_from_the_launching_op);
    tcase_add_test(tc, match_should_report_a_rank_that_never_calls_a_collective);
    tcase_add_test(tc, match_should_keep_process_groups_apart);
    tcase_add_test(tc, match_should_refuse_contradictory_group_fields);
    tcase_add_test(tc, one_rank_should_not_straggle);
    tcase_add_test(tc, bandwidth_should_use_nccl_tests_factors);
    tcase_add_test(tc, reader_should_read_collective_args_on_both_paths);
    suite_add_tcase(s, tc);
    tc = tcase_create("planted");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, planted_straggler_should_rank_first_with_its_delay, 0,
                        (int)(sizeof planted_sizes / sizeof planted_sizes[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("oracle");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, stragglers_should_match_hta_oracle, 0, (int)N_SETS);
    tcase_add_loop_test(tc, stragglers_should_answer_every_shared_set_under_htx, 0, (int)N_SETS);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(collectives_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
