#include "config.h"
#include "planted_job.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../gen/gen_out.h"

static void rank_path(const struct planted_job *j, int r, char *buf, size_t n)
{
    snprintf(buf, n, "%s/rank-%d.pt.trace.json", j->dir, r);
}

void planted_job_make(struct planted_job *j, const struct gen_coll_cfg *cfg)
{
    const char *base = getenv("TMPDIR");
    snprintf(j->dir, sizeof j->dir, "%s/htx-planted.XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(j->dir));
    j->world = cfg->world;
    for (int r = 0; r < cfg->world; r++) {
        char path[600];
        rank_path(j, r, path, sizeof path);
        struct gen_out o;
        ck_assert_int_eq(gen_out_open(&o, path, 0, 0), 0);
        gen_coll_rank(cfg, r, &o);
        ck_assert_int_eq(gen_out_close(&o), 0);
    }
    const char *paths[] = {j->dir};
    struct semantics sem;
    semantics_init(&sem, SEMANTICS_HTX);
    struct load_opts lo = {.threads = 2};
    struct err e = {0, ""};
    j->m = model_load(paths, 1, &sem, &lo, &e);
    ck_assert_msg(j->m != NULL, "load failed: %s", e.msg);
    ck_assert_uint_eq(j->m->nranks, (size_t)cfg->world);
}

void planted_job_remove(struct planted_job *j)
{
    model_free(j->m);
    j->m = NULL;
    for (int r = 0; r < j->world; r++) {
        char path[600];
        rank_path(j, r, path, sizeof path);
        unlink(path);
    }
    rmdir(j->dir);
}
