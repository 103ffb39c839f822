#include "config.h"
#include "fuzz.h"

#include <string.h>

#include "model/model.h"

/* Model building alone: up to FUZZ_MAX_RANKS documents (split as for the
 * loader target) become a model under either semantics, whose indexes are
 * checked, then selected by rank, iteration, window and stream and checked
 * again. No analysis and no output, so small inputs run fast. */

static void check_selections(struct model *m, uint64_t h)
{
    const struct rank_model *r0 = &m->ranks[(h >> 2) % m->nranks];
    int64_t rank = r0->rank;
    int64_t iter = r0->niterations ? r0->iterations[(h >> 5) % r0->niterations].number : 0;
    struct rank_stream off = {rank, r0->nstreams ? r0->streams[(h >> 7) % r0->nstreams].stream : 0};
    struct selection sel = {.ranks = &rank, .nranks = (h >> 6) & 1};
    if (r0->niterations && ((h >> 8) & 1)) {
        sel.iterations = &iter;
        sel.niterations = 1;
    }
    if ((h >> 9) & 1) {
        sel.has_window = true;
        sel.window_start = r0->start_ns + (int64_t)((h >> 10) % 1000);
        sel.window_end = sel.window_start + 1 + (int64_t)((h >> 20) % 100000000);
    }
    if (r0->nstreams && ((h >> 12) & 1)) {
        sel.streams_off = &off;
        sel.nstreams_off = 1;
    }
    struct err e = {0, ""};
    if (model_select(m, &sel, &e) == 0) {
        for (size_t r = 0; r < m->nranks; r++)
            fuzz_check_rank(&m->ranks[r], h >> 3);
    } else {
        CHECK(e.code < 0 && e.msg[0] != '\0');
    }
    CHECK(model_select(m, NULL, &e) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"rank-0.json", "trace_rank_1.json.gz", "x.json",
                                        "rank7.pt.trace.json", "rank-0.json", "rank-2.json"};
    const void *docs[FUZZ_MAX_RANKS];
    const char *ns[FUZZ_MAX_RANKS];
    size_t lens[FUZZ_MAX_RANKS];
    size_t n = fuzz_split_ranks(data, size, docs, lens);
    uint64_t h = fuzz_fnv(0xcbf29ce484222325ull, data, size);
    for (size_t i = 0; i < n; i++)
        ns[i] = names[(i + (h >> 13)) % (sizeof names / sizeof names[0])];
    struct semantics sem;
    semantics_init(&sem, (h >> 4) & 1 ? SEMANTICS_HTA : SEMANTICS_HTX);
    struct err e = {0, ""};
    struct model *m = model_load_buffers(ns, docs, lens, n, &sem, &e);
    if (!m) {
        CHECK(e.code < 0 && e.msg[0] != '\0');
        return 0;
    }
    CHECK(m->nranks >= 1 && m->nranks + m->nfailed == n);
    for (size_t i = 0; i < m->nranks; i++) {
        if (i > 0)
            CHECK(m->ranks[i - 1].rank < m->ranks[i].rank);
        fuzz_check_rank(&m->ranks[i], h);
    }
    check_selections(m, h);
    model_free(m);
    return 0;
}
