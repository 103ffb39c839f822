#ifndef HTX_SUMMARY_SHARD_H
#define HTX_SUMMARY_SHARD_H

/* --shard=I/N and --shard=auto of `htx summarize`: which of the
 * input files this process summarizes, so that N processes started by a
 * scheduler split a job without talking to each other. File i goes to shard
 * i mod N (inputs are given in the same order to every process). */

#include <stdbool.h>
#include <stddef.h>

#include "util/err.h"

struct summary_file_shard {
    long index, count; /* 0 <= index < count */
    const char *from;  /* "--shard", or the environment variables used */
};

/* Looks up an environment variable; NULL when unset (getenv, or a table in tests). */
typedef const char *(*summary_file_getenv_fn)(const char *name);

/* Parses "I/N" or "auto". auto reads, first match wins: a Slurm job array
 * (SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_COUNT; the task id is taken
 * relative to SLURM_ARRAY_TASK_MIN when set), then SLURM_PROCID/SLURM_NTASKS,
 * OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE, PMI_RANK/PMI_SIZE; and 0/1 when
 * none is set. Malformed or out-of-range values are ERR_USAGE naming them. */
int summary_file_shard_parse(struct summary_file_shard *s, const char *arg, summary_file_getenv_fn getenv_fn, struct err *e);

/* Whether input number i (0-based, in command-line order) belongs to s. */
bool summary_file_shard_owns(const struct summary_file_shard *s, size_t i);

#endif
