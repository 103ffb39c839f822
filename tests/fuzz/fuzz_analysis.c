#include "config.h"
#include "fuzz.h"

#include <string.h>

#include "analysis/analysis.h"
#include "model/model.h"
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
