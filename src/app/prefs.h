#ifndef HTX_APP_PREFS_H
#define HTX_APP_PREFS_H

#include <stddef.h>

#include "app/options.h"
#include "util/err.h"

/* Remembered preferences: $XDG_CONFIG_HOME/htx/config, else
 * ~/.config/htx/config. Lines of `key = value`; blank lines and lines
 * starting with '#' are skipped. Keys:
 *   sort            name | delta      (diff --report --sort, the TUI diff's order)
 *   view            KEY | NAME        (--view: the TUI's first view)
 *   comm-patterns   PREFIX,...        (--comm-patterns)
 *   memory-patterns PREFIX,...        (--memory-patterns)
 *   color           yes | no          (no = --no-color)
 *   mouse           yes | no          (no = --no-mouse)
 *   osc52           yes | no          (no = --no-osc52)
 * Applied to the options before the command line, so flags win. Curses-free:
 * both front ends get it through htx_options. */

#define HTX_CONFIG_MAX_LINE 1024
#define HTX_CONFIG_MAX_SIZE (64 * 1024)

/* The config file's path into buf; NULL when neither XDG_CONFIG_HOME nor
 * HOME is set (or the path does not fit). */
const char *htx_config_path(char *buf, size_t size);

/* Applies text[0..len) (the contents of the file `name`, for messages) to o.
 * o keeps pointers into text: it must outlive o. A bad line gives
 * ERR_USAGE "NAME:LINE: ...". */
int htx_config_apply(struct htx_options *o, const char *name, char *text, size_t len,
                     struct err *e);

/* Reads and applies the file at path; a missing file is no error. The
 * text is kept in o (freed by htx_options_fini). */
int htx_config_load(struct htx_options *o, const char *path, struct err *e);

/* Loads the config file, when there is one, into o before the command line
 * is parsed (so flags win); nothing with --help or --version among argv.
 * Returns 0 or a negative ERR_* with e naming FILE:LINE. */
int htx_config_before_argv(struct htx_options *o, int argc, char **argv, struct err *e);

#endif
