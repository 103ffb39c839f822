#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "app/options.h"
#include "app/prefs.h"
#include "app/session.h"
#include "cli/cli.h"
#include "ui/ui.h"

/* argv -> a headless command (src/cli) or the TUI (src/ui); nothing else.
 * The two front ends share src/app and never include each other. */
int main(int argc, char **argv)
{
    struct htx_options opts;
    struct err e = {0, ""};
    htx_options_init(&opts);
    int status;
    if (argc < 2) {
        // first contact: what htx is for, not an error about a PATH
        fputs(htx_short_usage(), stderr);
        status = 2;
    } else if (htx_config_before_argv(&opts, argc, argv, &e) < 0 ||
               htx_options_parse(&opts, argc, argv, getenv("NO_COLOR"), &e) < 0) {
        status = app_fail(&e);
    } else if (cli_is_headless(&opts)) {
        status = cli_run(&opts);
    } else {
        status = app_check_paths(&opts);
        if (status == 0)
            status = ui_main(&opts);
    }
    htx_options_fini(&opts);
    return status;
}
