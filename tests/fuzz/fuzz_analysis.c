#include "config.h"
#include "fuzz.h"

#include <string.h>

#include "analysis/analysis.h"
#include "analysis/tiles.h"
#include "model/model.h"
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
        struct htxs_writer w;
        htxs_writer_init(&w);
        htxs_tiles_write(&w, &t);
        const uint8_t *buf;
        size_t len;
        struct err e = {0, ""};
        struct htxs_doc doc;
        CHECK(htxs_writer_finish(&w, &buf, &len, &e) == 0);
        CHECK(htxs_parse(&doc, buf, len, "fuzz.htxs", &e) == 0);
        CHECK(htxs_tiles_read(&doc, "fuzz.htxs", &a, &back, &e) == 0);
        CHECK(back.nlanes == t.nlanes && back.first == t.first && back.count == t.count &&
              back.width_log2 == t.width_log2);
        for (size_t l = 0; l < t.nlanes; l++)
            for (int cl = 0; cl < TILE_NCLASSES; cl++) {
                const struct tile_run *x = &t.lanes[l].runs[cl], *y = &back.lanes[l].runs[cl];
                CHECK(x->n == y->n);
                CHECK(x->n == 0 || (memcmp(x->index, y->index, x->n * sizeof *x->index) == 0 &&
                                    memcmp(x->cum, y->cum, x->n * sizeof *x->cum) == 0));
            }
        htxs_doc_fini(&doc);
        htxs_writer_fini(&w);
    }
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
