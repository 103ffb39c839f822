#ifndef HTX_CLI_SESSION_H
#define HTX_CLI_SESSION_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/options.h"
#include "model/model.h"
#include "util/err.h"

/* What every headless command does around its real work: load the traces
 * the options name, report files that failed (on stderr, then carry on
 * with the others), check and apply the selection, and buffer stdout so a
 * failing command prints nothing there. */

/* Prints "htx: warning: ..." on stderr. Borrows its arguments until return. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "htx: <e->msg>" on stderr and returns the exit status for e.
 * Borrows e until return. */
int cli_fail(const struct err *e);

/* The load options every command uses: the thread count from opts and
 * the per-file limit on uncompressed bytes from $HTX_MAX_INPUT_SIZE
 * ("64M", "4G"; unset or 0 = no limit), a guard against gzip bombs.
 * ERR_USAGE when the variable is not a size. */
int cli_load_opts_init(struct load_opts *lo, const struct htx_options *opts, struct err *e);

/* What every command that reads traces starts with: loads opts->paths with
 * the options' semantics and thread count, reports failed rank files and
 * skipped directory entries on stderr, checks that every --rank and
 * --iteration named exists (ERR_USAGE naming the missing value) and applies
 * the selection. Returns NULL with e set when nothing loads or the
 * selection is wrong. Caller owns the model (model_free). */
struct model *cli_open(const struct htx_options *opts, struct err *e);

/* Output collected in memory and written to stdout only on success. */
struct cli_out {
    FILE *f;
    char *buf;
    size_t len;
};

/* Opens the memory stream; o owns the buffer until cli_out_commit or
 * cli_out_discard, one of which must follow. ERR_NOMEM on failure. */
int cli_out_open(struct cli_out *o, struct err *e);
/* Writes the collected output to dst and frees the buffer; ERR_IO when the
 * buffer or dst failed (full disk, closed pipe). */
int cli_out_commit(struct cli_out *o, FILE *dst, struct err *e);
/* Drops the collected output and frees the buffer. */
void cli_out_discard(struct cli_out *o);

#endif
