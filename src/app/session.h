#ifndef HTX_APP_SESSION_H
#define HTX_APP_SESSION_H

#include <stdbool.h>
#include <stdio.h>

#include "app/options.h"
#include "model/model.h"
#include "util/err.h"

/* What every headless command does around its real work: load the traces
 * the options name, report files that failed (on stderr, then carry on
 * with the others), check and apply the selection, and buffer stdout so a
 * failing command prints nothing there. */

/* Prints "htx: warning: ..." on stderr. Borrows its arguments until return. */
void app_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "htx: <e->msg>" on stderr and returns the exit status for e.
 * Borrows e until return. */
int app_fail(const struct err *e);

/* "1048576", "512K", "64M", "4G", "1T" (binary multiples, an optional
 * trailing B or iB) into bytes; false when it is not such a size. */
bool app_parse_size(const char *text, uint64_t *bytes);

/* The load options every command uses: the thread count from opts and
 * the per-file limit on uncompressed bytes from $HTX_MAX_INPUT_SIZE
 * ("64M", "4G"; unset or 0 = no limit), a guard against gzip bombs.
 * ERR_USAGE when the variable is not a size. */
int app_load_opts_init(struct load_opts *lo, const struct htx_options *opts, struct err *e);

/* What every command that reads traces starts with: loads opts->paths with
 * the options' semantics and thread count, reports failed rank files and
 * skipped directory entries on stderr, checks that every --rank and
 * --iteration named exists (ERR_USAGE naming the missing value) and applies
 * the selection. Returns NULL with e set when nothing loads or the
 * selection is wrong. Caller owns the model (model_free). */
struct model *app_open(const struct htx_options *opts, struct err *e);

/* --align=collectives (opts->align_collectives): shifts the clock of each
 * rank whose collectives end off the reference rank's (analysis/clocks.h),
 * once, after the load; every analysis then sees the aligned times. m's
 * selection is all after it. 0, or an error with e set. */
int app_align_clocks(struct model *m, const struct htx_options *opts, struct err *e);

/* A rank summary that failed to load fails the command (a broken trace is
 * skipped with a warning, but a summary was made to be complete): ERR_PARSE
 * naming it, or 0. */
int app_refuse_failed_summaries(const struct model *m, struct err *e);

/* Output collected aside (a temporary file, else memory) and written to
 * stdout only on success: a failing command prints nothing half-done. */
struct app_out {
    FILE *f;
    bool in_file;   /* f is a temporary file; else a memory stream into buf */
    char *buf;
    size_t len;
};

/* Opens the stream; o owns it until app_out_commit or app_out_discard, one
 * of which must follow. ERR_NOMEM on failure. */
int app_out_open(struct app_out *o, struct err *e);
/* Writes the collected output to dst and frees the buffer; ERR_IO when the
 * buffer or dst failed (full disk, closed pipe). */
int app_out_commit(struct app_out *o, FILE *dst, struct err *e);
/* Drops the collected output and frees the buffer. */
void app_out_discard(struct app_out *o);

/* Before the TUI starts (and asks for a terminal): every PATH must exist.
 * A first word that is no file but nearly a command is a typo of the
 * command ("htx reprot x"). Returns 0, or the exit status after saying why
 * on stderr (2 for a likely typo, 1 for a missing file). */
int app_check_paths(const struct htx_options *opts);

#endif
