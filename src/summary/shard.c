#include "config.h"

#include "summary/shard.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A decimal in [0, LONG_MAX) with nothing else around it. */
static bool parse_long(const char *s, size_t n, long *out)
{
    if (n == 0 || n > 18)
        return false;
    long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

static bool parse_env(summary_file_getenv_fn get, const char *name, long *out)
{
    const char *v = get(name);
    return v && parse_long(v, strlen(v), out);
}

static int check_range(struct summary_file_shard *s, struct err *e)
{
    if (s->count < 1 || s->index < 0 || s->index >= s->count)
        return err_set(e, ERR_USAGE, "shard %ld/%ld from %s: need 0 <= I < N", s->index, s->count,
                       s->from);
    return 0;
}

static int from_env(struct summary_file_shard *s, summary_file_getenv_fn get, const char *id_var, const char *n_var,
                    const char *from, bool *found, struct err *e, bool check)
{
    *found = false;
    if (!get(id_var) && !get(n_var))
        return 0;
    *found = true;
    s->from = from;
    if (!parse_env(get, id_var, &s->index) || !parse_env(get, n_var, &s->count))
        return err_set(e, ERR_USAGE, "--shard=auto: %s and %s must both be set to numbers", id_var, n_var);
    return check ? check_range(s, e) : 0;
}

int summary_file_shard_parse(struct summary_file_shard *s, const char *arg, summary_file_getenv_fn get, struct err *e)
{
    memset(s, 0, sizeof *s);
    s->count = 1;
    if (strcmp(arg, "auto") != 0) {
        s->from = "--shard";
        const char *slash = strchr(arg, '/');
        if (!slash || !parse_long(arg, (size_t)(slash - arg), &s->index) ||
            !parse_long(slash + 1, strlen(slash + 1), &s->count))
            return err_set(e, ERR_USAGE, "--shard=%s: expected I/N (e.g. 0/4) or auto", arg);
        return check_range(s, e);
    }
    bool found;
    int rc = from_env(s, get, "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT",
                      "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT", &found, e, false);
    if (found) {
        long min;
        /* --array=1-8 numbers tasks from 1: shards are relative to the first. */
        if (!rc && parse_env(get, "SLURM_ARRAY_TASK_MIN", &min)) {
            if (min > s->index)
                return err_set(e, ERR_USAGE, "--shard=auto: SLURM_ARRAY_TASK_ID %ld below SLURM_ARRAY_TASK_MIN %ld",
                               s->index, min);
            s->index -= min;
        }
        if (!rc)
            rc = check_range(s, e);
        return rc;
    }
    static const char *const vars[][3] = {
        {"SLURM_PROCID", "SLURM_NTASKS", "SLURM_PROCID/SLURM_NTASKS"},
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE"},
        {"PMI_RANK", "PMI_SIZE", "PMI_RANK/PMI_SIZE"},
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        rc = from_env(s, get, vars[i][0], vars[i][1], vars[i][2], &found, e, true);
        if (found)
            return rc;
    }
    s->from = "no scheduler variables (one shard)";
    return 0;
}

bool summary_file_shard_owns(const struct summary_file_shard *s, size_t i)
{
    return (long)(i % (size_t)s->count) == s->index;
}
