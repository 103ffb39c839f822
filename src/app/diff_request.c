#include "config.h"
#include "app/diff_request.h"

#include <string.h>

static void request_lists(const struct htx_int_list *ranks, const struct htx_int_list *iters,
                          struct diff_request_side *out)
{
    memset(out, 0, sizeof *out);
    if (!ranks->all) {
        out->ranks = ranks->v;
        out->nranks = ranks->n;
    }
    out->all_ranks = ranks->given && ranks->all;
    if (!iters->all) {
        out->iterations = iters->v;
        out->niterations = iters->n;
    }
    out->all_iterations = iters->given && iters->all;
}

void app_diff_request(const struct htx_options *opts, bool test, struct diff_request_side *out)
{
    const struct htx_int_list *r = test ? &opts->test_ranks : &opts->control_ranks;
    const struct htx_int_list *it = test ? &opts->test_iterations : &opts->control_iterations;
    request_lists(r->given ? r : &opts->ranks, it->given ? it : &opts->iterations, out);
}

void app_diff_semantics(const struct htx_options *opts, struct semantics *out)
{
    struct semantics user;
    htx_options_semantics(opts, &user);
    diff_semantics(&user, out);
    if (opts->last_step == HTX_LAST_STEP_DROP)
        out->drop_last_step = true;
    else if (opts->last_step == HTX_LAST_STEP_INCLUDE)
        out->drop_last_step = false;
}
