#include "config.h"
#include "cli/commands.h"

#include <limits.h>
#include <string.h>

#include "analysis/series.h"
#include "app/session.h"
#include "trace/counters_write.h"

/* `htx counters`: for each selected rank, a new file beside its trace with
 * queue-length and memcpy-bandwidth counter events added (HTA's
 * generate_trace_with_counters). Inputs are never overwritten; an existing
 * output is kept unless --force. One rank failing does not stop the others;
 * the exit status is the worst seen. */

static int write_rank(const struct model *m, const struct rank_model *r, bool force,
                      struct arena *scratch, struct err *e)
{
    char dst[PATH_MAX];
    struct counter_series *series;
    size_t n;
    int rc = counters_output_path(r->path, dst, sizeof dst, e);
    if (!rc)
        rc = series_counters_build(m, r, scratch, &series, &n, e);
    if (!rc)
        rc = counters_write_file(r->path, dst, force, series, n, e);
    if (rc)
        return rc;
    if (app_stdout_is_tty())
        format_write_escaped(stdout, dst);
    else
        fputs(dst, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    return 0;
}

int cli_counters_main(const struct htx_options *opts)
{
    struct err e = {0, ""};
    struct model *m = app_open(opts, &e);
    if (!m)
        return app_fail(&e);
    int status = 0;
    struct arena scratch;
    arena_init(&scratch, 1 << 20);
    for (size_t i = 0; i < m->nranks; i++) {
        if (!m->ranks[i].selected)
            continue;
        int rc = write_rank(m, &m->ranks[i], opts->force, &scratch, &e);
        int s = rc ? app_fail(&e) : 0;
        status = s > status ? s : status;
        arena_reset(&scratch);
    }
    arena_fini(&scratch);
    model_free(m);
    return status;
}
