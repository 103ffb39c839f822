#include "config.h"
#include "cli/cli.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/commands.h"
#include "cli/diff_cmd.h"
#include "cli/options.h"
#include "cli/session.h"
#include "ui/ui.h"

/* argv -> one command. This file is linked into the program itself (not
 * libcore.a) because it calls ui_main, which lives in libui.a. */

static int run(const struct htx_options *opts)
{
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
        return cli_report_main(opts);
    case HTX_CMD_COUNTERS:
        return cli_counters_main(opts);
    case HTX_CMD_DIFF: {
        /* Without --report the diff is the TUI's. */
        int status = cli_diff_main(opts);
        return status >= 0 ? status : ui_main(opts);
    }
    default:
        return ui_main(opts);
    }
}

int cli_main(int argc, char **argv)
{
    struct htx_options opts;
    struct err e = {0, ""};
    htx_options_init(&opts);
    int status;
    if (htx_options_parse(&opts, argc, argv, getenv("NO_COLOR"), &e) < 0)
        status = cli_fail(&e);
    else
        status = run(&opts);
    htx_options_fini(&opts);
    return status;
}
