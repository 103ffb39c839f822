#ifndef HTX_UTIL_OUTFILE_H
#define HTX_UTIL_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/err.h"

/* The one way htx creates a file (screen dumps, the TUI's CSV export,
 * `htx counters`, and anything written later). The output is written to a
 * temporary file beside the destination and moved into place only when
 * complete, so a failure or a kill never leaves a half-written file, and:
 *   - an input of this run is never replaced, even with force (same file
 *     found by device and inode, so links and other spellings count too);
 *   - an existing destination is kept unless force;
 *   - a destination that is a symbolic link, a directory or anything but a
 *     regular file is refused (the temporary file is created with O_EXCL,
 *     which never follows a link, and the final step replaces the name,
 *     never writes through it);
 *   - on failure the temporary file is removed.
 * No fsync: the point is never to clobber, not durability across crashes.
 *
 * Use: outfile_begin, write to o->fd (or outfile_stream), close it, then
 * outfile_commit; or outfile_abort at any point after begin. */

struct outfile {
    int fd;          /* the temporary file, open for writing; -1 once closed */
    FILE *stream;    /* set by outfile_stream */
    char *tmp;       /* its path (malloc'd) */
    char *dst;       /* the destination (malloc'd copy) */
    bool force;
    bool existed;    /* set when a refusal was because dst already exists */
};

/* Checks dst against the rules above (inputs[0..ninputs) are this run's
 * input files; NULL entries are skipped) and creates the temporary file.
 * Returns 0, or ERR_USAGE for a refusal (o->existed tells whether dst was
 * simply there), ERR_IO or ERR_NOMEM, with e naming dst. On failure o
 * holds nothing to free. */
int outfile_begin(struct outfile *o, const char *dst, bool force, const char *const *inputs,
                  size_t ninputs, struct err *e);

/* A stdio stream on o->fd (owned by o from then on: commit/abort close it). */
FILE *outfile_stream(struct outfile *o, struct err *e);

/* Marks o->fd as closed by the caller (e.g. gzclose closed it). */
void outfile_fd_closed(struct outfile *o);

/* Closes what is still open (reporting write errors), then moves the
 * temporary file into place: without force, a destination that appeared
 * meanwhile is kept (link() never replaces) and o->existed is set. Frees o
 * whatever the result; the temporary file is gone either way. */
int outfile_commit(struct outfile *o, struct err *e);

/* Closes and removes the temporary file and frees o. */
void outfile_abort(struct outfile *o);

/* Removes every temporary file of this process's outfiles not yet
 * committed or aborted. Async-signal-safe: for a handler that ends the
 * process (a Ctrl-C must not leave rank-N.htxs.tmpXXXXXX behind). */
void outfile_remove_temporaries(void);

/* Installs a handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT, where they
 * have their default action, that removes the temporaries and then dies of
 * the signal as before. For the headless commands; the TUI has its own. */
void outfile_remove_on_signals(void);

#endif
