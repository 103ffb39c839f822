#include "config.h"
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/collectives.h"
#include "analysis/tiles.h"
#include "model/model.h"
#include "summary/colls_io.h"
#include "summary/tiles_io.h"
#include "util/arena.h"

/* One analysis at a time: the first byte of the input picks the analysis
 * (modulo their number), the second its options and semantics, and the
 * rest is a trace document (or up to FUZZ_MAX_RANKS of them). The picked
 * analysis runs on the whole model and on one iteration; its tables go
 * through every output format (no raw ESC, JSON that parses). Each analysis
 * thus gets the fuzzer's whole attention in turn, at a few thousand inputs a
 * second, instead of a share of one slow all-in-one run. */

static void run_one(const struct analysis_info *a, const struct model *m,
                    const struct analysis_opts *o, struct arena *scratch, bool with_formats)
{
    struct table_list out;
    memset(&out, 0, sizeof out);
    struct err e = {0, ""};
    int rc = a->run(m, o, scratch, &out, &e);
    CHECK(rc <= 0);
    CHECK(rc == 0 || e.msg[0] != '\0');
    CHECK(out.count <= TABLE_LIST_MAX);
    for (size_t k = 0; with_formats && k < out.count; k++)
        fuzz_check_formats(out.tables[k]);
    arena_reset(scratch);
}

/* Under utilization: every rank's tiles are sound, and read back from a
 * summary's section they are the same runs (the report from summaries
 * renders them through the same function). */
static void check_tiles(const struct model *m, const struct analysis_opts *o)
{
    struct arena a;
    arena_init(&a, 0);
    for (size_t i = 0; i < m->nranks; i++) {
        struct tiles t, back;
        CHECK(tiles_build(m, &m->ranks[i], o, false, &a, &t) == 0);
        CHECK(tiles_check(&t) == NULL);
        struct summary_file_writer w;
        summary_file_writer_init(&w);
        summary_file_tiles_write(&w, &t);
        const uint8_t *buf;
        size_t len;
        struct err e = {0, ""};
        struct summary_file_doc doc;
        CHECK(summary_file_writer_finish(&w, &buf, &len, &e) == 0);
        CHECK(summary_file_parse(&doc, buf, len, "fuzz.htxs", &e) == 0);
        CHECK(summary_file_tiles_read(&doc, "fuzz.htxs", &a, &back, &e) == 0);
        CHECK(back.nlanes == t.nlanes && back.first == t.first && back.count == t.count &&
              back.width_log2 == t.width_log2);
        for (size_t l = 0; l < t.nlanes; l++)
            for (int cl = 0; cl < TILE_NCLASSES; cl++) {
                const struct tile_run *x = &t.lanes[l].runs[cl], *y = &back.lanes[l].runs[cl];
                CHECK(x->n == y->n);
                CHECK(x->n == 0 || (memcmp(x->index, y->index, x->n * sizeof *x->index) == 0 &&
                                    memcmp(x->cum, y->cum, x->n * sizeof *x->cum) == 0));
            }
        summary_file_doc_fini(&doc);
        summary_file_writer_fini(&w);
    }
    arena_fini(&a);
}

/* Under collectives: each rank's records read back from a summary's
 * section, in a string table of their own, match into the same
 * collectives and blame as the events do. */
static void check_colls(const struct model *m, const struct analysis_opts *o)
{
    struct coll_record *recs = NULL, *back = NULL;
    size_t n = 0, nback = 0;
    CHECK(coll_records(m, o, &recs, &n) == 0);
    struct arena a;
    arena_init(&a, 0);
    struct strtab strings;
    CHECK(strtab_init(&strings) == 0);
    back = calloc(n + 1, sizeof *back);
    CHECK(back != NULL);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && recs[j].rank_index == recs[i].rank_index)
            j++;
        struct summary_file_writer w;
        summary_file_writer_init(&w);
        summary_file_colls_write(&w, recs[i].rank, &m->origin_ns, &m->strings, recs + i, j - i);
        const uint8_t *buf;
        size_t len;
        struct err e = {0, ""};
        struct summary_file_doc doc;
        struct summary_file_colls c;
        CHECK(summary_file_writer_finish(&w, &buf, &len, &e) == 0);
        CHECK(summary_file_parse(&doc, buf, len, "fuzz.htxs", &e) == 0);
        CHECK(summary_file_colls_read(&doc, "fuzz.htxs", &a, &c, &e) == 0);
        CHECK(c.n == j - i && c.origin == m->origin_ns);
        for (size_t k = 0; k < c.n; k++) {
            struct coll_record *b = &back[nback++];
            *b = c.recs[k];
            b->rank_index = recs[i].rank_index;
            uint32_t *ids[4] = {&b->name, &b->coll_name, &b->group, &b->pg_ranks};
            for (int f = 0; f < 4; f++)
                *ids[f] = strtab_intern(&strings, c.strings[*ids[f]], c.lens[*ids[f]]);
        }
        summary_file_doc_fini(&doc);
        summary_file_writer_fini(&w);
        i = j;
    }
    int64_t *ranks = calloc(m->nranks + 1, sizeof *ranks);
    bool *selected = calloc(m->nranks + 1, sizeof *selected);
    CHECK(ranks && selected);
    for (size_t i = 0; i < m->nranks; i++) {
        ranks[i] = m->ranks[i].rank;
        selected[i] = m->ranks[i].selected;
    }
    struct coll_job job = {&strings, ranks, selected, m->nranks};
    struct coll_result x, y;
    struct err e = {0, ""};
    CHECK(coll_analyze(m, o, &a, &x, &e) == 0);
    CHECK(coll_analyze_records(&job, back, nback, &a, &y, &e) == 0);
    CHECK(x.ncolls == y.ncolls && x.nranking == y.nranking && x.nblame == y.nblame);
    for (size_t i = 0; i < x.ncolls; i++) {
        const struct collective *p = &x.colls[i], *q = &y.colls[i];
        CHECK(strcmp(strtab_str(x.strings, p->name), strtab_str(y.strings, q->name)) == 0);
        CHECK(strcmp(strtab_str(x.strings, p->group), strtab_str(y.strings, q->group)) == 0);
        CHECK(p->ninst == q->ninst && p->seq == q->seq && p->skew == q->skew &&
              p->total_wait == q->total_wait && p->bytes == q->bytes && p->time == q->time &&
              p->iteration == q->iteration && p->kind == q->kind);
    }
    for (size_t i = 0; i < x.nranking; i++)
        CHECK(x.ranking[i].rank == y.ranking[i].rank && x.ranking[i].blame == y.ranking[i].blame);
    free(ranks);
    free(selected);
    free(recs);
    free(back);
    strtab_fini(&strings);
    arena_fini(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    size_t na = 0;
    const struct analysis_info *list = analysis_list(&na);
    const struct analysis_info *a = &list[data[0] % na];
    uint8_t flags = data[1];
    data += 2;
    size -= 2;
    static const char *const names[] = {"rank-0.json", "rank-1.json", "rank-2.json"};
    const void *docs[FUZZ_MAX_RANKS];
    size_t lens[FUZZ_MAX_RANKS];
    size_t n = fuzz_split_ranks(data, size, docs, lens);
    struct semantics sem;
    semantics_init(&sem, flags & 1 ? SEMANTICS_HTA : SEMANTICS_HTX);
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, docs, lens, n, &sem, &e);
    if (!m)
        return 0;
    struct analysis_opts o;
    analysis_opts_default(&o);
    if (flags & 2)
        o.operator_name = "aten::mm";
    o.shorten_names = (flags >> 2) & 1;
    if (flags & 8)
        o.consecutive_kernel_delay_ns = (int64_t)(flags >> 4) * 1000;
    struct arena scratch;
    arena_init(&scratch, 0);
    run_one(a, m, &o, &scratch, true);
    if (a->id == ANALYSIS_UTILIZATION)
        check_tiles(m, &o);
    if (a->id == ANALYSIS_COLLECTIVES)
        check_colls(m, &o);
    const struct rank_model *r0 = &m->ranks[0];
    if (r0->niterations) {
        int64_t iter = r0->iterations[(flags >> 4) % r0->niterations].number;
        struct selection sel = {.iterations = &iter, .niterations = 1};
        if (model_select(m, &sel, &e) == 0)
            run_one(a, m, &o, &scratch, false);
    }
    arena_fini(&scratch);
    model_free(m);
    return 0;
}
