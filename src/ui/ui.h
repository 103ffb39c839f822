#ifndef HTX_UI_UI_H
#define HTX_UI_UI_H

struct htx_options;

/* Runs the interactive TUI (or, with opts->script, the headless screen-dump
 * test mode) over the traces named in opts, and returns the process exit
 * status (0 ok, 1 bad input, 2 bad usage). Borrows opts until return. */
int ui_main(const struct htx_options *opts);

#endif
