#include "config.h"
#include "cli/cli.h"

#include <stdio.h>

#include "app/cache.h"
#include "cli/commands.h"
#include "cli/diff_cmd.h"
#include "cli/summaries.h"
#include "util/outfile.h"

bool cli_is_headless(const struct htx_options *opts)
{
    switch (opts->cmd) {
    case HTX_CMD_HELP:
    case HTX_CMD_VERSION:
    case HTX_CMD_INFO:
    case HTX_CMD_REPORT:
    case HTX_CMD_COUNTERS:
    case HTX_CMD_SUMMARIZE:
    case HTX_CMD_CHECK:
    case HTX_CMD_CACHE_COMPLETE:
        return true;
    case HTX_CMD_DIFF:
        return opts->diff_report;
    default:
        return false;
    }
}

int cli_run(const struct htx_options *opts)
{
    outfile_remove_on_signals();
    switch (opts->cmd) {
    case HTX_CMD_HELP:
        fputs(htx_usage(), stdout);
        return fflush(stdout) == 0 ? 0 : 1;
    case HTX_CMD_VERSION:
        printf("htx %s\n", PACKAGE_VERSION);
        return fflush(stdout) == 0 ? 0 : 1;
    case HTX_CMD_INFO:
        return cli_info_main(opts);
    case HTX_CMD_REPORT:
        return cli_report_paths(opts);
    case HTX_CMD_SUMMARIZE:
        return cli_summarize_main(opts);
    case HTX_CMD_COUNTERS:
        return cli_counters_main(opts);
    case HTX_CMD_CHECK:
        return cli_check_paths(opts);
    case HTX_CMD_DIFF:
        return cli_diff_main(opts);
    case HTX_CMD_CACHE_COMPLETE:
        return app_cache_complete(opts);
    default:
        return 2;
    }
}
