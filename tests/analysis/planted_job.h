#ifndef HTX_TESTS_PLANTED_JOB_H
#define HTX_TESTS_PLANTED_JOB_H

#include "../gen/gen_coll.h"
#include "model/model.h"

/* A generated collectives job (tests/gen/gen_coll.h) on disk and loaded:
 * one file per rank of cfg->world in a new temporary directory, loaded
 * under htx semantics on two threads. A failure fails the Check test. */
struct planted_job {
    char dir[512];
    int world;
    struct model *m;
};

void planted_job_make(struct planted_job *j, const struct gen_coll_cfg *cfg);

/* Frees the model and removes the files and the directory. */
void planted_job_remove(struct planted_job *j);

#endif
