#include "config.h"
#include "cli/commands.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/series.h"
#include "app/session.h"
#include "trace/counters_write.h"

/* `htx counters`: for each selected rank, a new file beside its trace with
 * queue-length and memcpy-bandwidth counter events added (HTA's
 * generate_trace_with_counters). Inputs are never overwritten; an existing
 * output is kept unless --force. One rank failing does not stop the others;
 * the exit status is the worst seen. */

static int write_rank(const struct model *m, const struct rank_model *r, const char *dst,
                      bool force, const char *const *inputs, size_t ninputs,
                      struct arena *scratch, struct err *e)
{
    struct counter_series *series;
    size_t n;
    int rc = series_counters_build(m, r, scratch, &series, &n, e);
    if (!rc)
        rc = counters_write_file(r->path, dst, force, inputs, ninputs, series, n, e);
    if (rc)
        return rc;
    /* Escaped always, like every output: piped output still reaches a terminal. */
    format_write_escaped(stdout, dst);
    fputc('\n', stdout);
    fflush(stdout);
    return 0;
}

/* Every selected rank's output name, into dsts[i] (PATH_MAX each, "" for
 * ranks not selected). Two inputs that map to one output (d/g.json and
 * d/g.json.gz) are a usage error found before anything is written. */
static int plan_outputs(const struct model *m, char (*dsts)[PATH_MAX], struct err *e)
{
    for (size_t i = 0; i < m->nranks; i++) {
        dsts[i][0] = '\0';
        if (m->ranks[i].selected &&
            counters_output_path(m->ranks[i].path, dsts[i], PATH_MAX, e) != 0)
            return e->code;
    }
    for (size_t i = 0; i < m->nranks; i++)
        for (size_t j = i + 1; j < m->nranks; j++)
            if (dsts[i][0] && strcmp(dsts[i], dsts[j]) == 0)
                return err_set(e, ERR_USAGE, "%s and %s would both be written to %s",
                               m->ranks[i].path, m->ranks[j].path, dsts[i]);
    return 0;
}

int cli_counters_main(const struct htx_options *opts)
{
    struct err e = {0, ""};
    struct model *m = app_open(opts, &e);
    if (!m)
        return app_fail(&e);
    char (*dsts)[PATH_MAX] = calloc(m->nranks ? m->nranks : 1, sizeof *dsts);
    const char **inputs = calloc(m->nranks ? m->nranks : 1, sizeof *inputs);
    if (!dsts || !inputs || plan_outputs(m, dsts, &e) != 0) {
        if (!dsts || !inputs)
            err_set(&e, ERR_NOMEM, "out of memory");
        free(dsts);
        free(inputs);
        model_free(m);
        return app_fail(&e);
    }
    for (size_t i = 0; i < m->nranks; i++)
        inputs[i] = m->ranks[i].path;
    int status = 0;
    struct arena scratch;
    arena_init(&scratch, 1 << 20);
    for (size_t i = 0; i < m->nranks; i++) {
        if (!m->ranks[i].selected)
            continue;
        int rc = write_rank(m, &m->ranks[i], dsts[i], opts->force, inputs, m->nranks, &scratch,
                            &e);
        int s = rc ? app_fail(&e) : 0;
        status = s > status ? s : status;
        arena_reset(&scratch);
    }
    arena_fini(&scratch);
    free(dsts);
    free(inputs);
    model_free(m);
    return status;
}
