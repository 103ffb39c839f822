#include "config.h"
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "cli/prefs.h"
#include "cli/diff_cmd.h"
#include "cli/options.h"
#include "cli/session.h"
#include "ui/ui.h"

/* argv -> one command. This file is linked into the program itself (not
 * libcore.a) because it calls ui_main, which lives in libui.a. */

/* Before the interface starts (and before it asks for a terminal): every
 * PATH must exist. A first word that is no file but nearly a command is a
 * typo of the command ("htx reprot x"): usage error with the suggestion. */
static int check_ui_paths(const struct htx_options *opts)
{
    for (size_t i = 0; i < opts->npaths; i++) {
        struct stat st;
        if (stat(opts->paths[i], &st) == 0)
            continue;
        int err = errno;
        const char *near = i == 0 ? htx_nearest_command(opts->paths[0]) : NULL;
        struct err e = {0, ""};
        if (near) {
            err_set(&e, ERR_USAGE, "'%s' is not a file or a command; did you mean 'htx %s'?",
                    opts->paths[0], near);
            return cli_fail(&e);
        }
        err_set(&e, ERR_IO, "%s: %s", opts->paths[i], strerror(err));
        cli_fail(&e);
        return 1;  /* bad input, whatever ERR_IO maps to */
    }
    return 0;
}

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
    default: {
        int status = check_ui_paths(opts);
        return status ? status : ui_main(opts);
    }
    }
}

/* The config file first, so that the command line wins. --help and
 * --version work whatever the file holds. */
static int load_config(struct htx_options *opts, int argc, char **argv, struct err *e)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") ||
            !strcmp(argv[i], "--version") || !strcmp(argv[i], "-V"))
            return 0;
    char path[4096];
    return htx_config_path(path, sizeof path) ? htx_config_load(opts, path, e) : 0;
}

int cli_main(int argc, char **argv)
{
    struct htx_options opts;
    struct err e = {0, ""};
    htx_options_init(&opts);
    int status;
    if (argc < 2) {
        /* first contact: what htx is for, not an error about a PATH */
        fputs(htx_short_usage(), stderr);
        status = 2;
    } else if (load_config(&opts, argc, argv, &e) < 0) {
        status = cli_fail(&e);
    } else if (htx_options_parse(&opts, argc, argv, getenv("NO_COLOR"), &e) < 0)
        status = cli_fail(&e);
    else
        status = run(&opts);
    htx_options_fini(&opts);
    return status;
}
