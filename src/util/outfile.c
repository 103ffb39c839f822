#include "config.h"
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The temporary files that exist now, for outfile_remove_temporaries: a
 * slot holds a path from its creation until it is gone (renamed or
 * removed). Lock-free, so a signal handler may read it. Past
 * OUTFILE_TRACKED files at once, the others are removed on failure as
 * always but not on a signal. */
#define OUTFILE_TRACKED 256
static _Atomic(char *) live[OUTFILE_TRACKED];

static void track(char *tmp)
{
    for (size_t i = 0; i < OUTFILE_TRACKED; i++) {
        char *none = NULL;
        if (atomic_compare_exchange_strong(&live[i], &none, tmp))
            return;
    }
}

static void untrack(const char *tmp)
{
    for (size_t i = 0; i < OUTFILE_TRACKED; i++) {
        char *mine = (char *)tmp;
        if (atomic_compare_exchange_strong(&live[i], &mine, NULL))
            return;
    }
}

void outfile_remove_temporaries(void)
{
    for (size_t i = 0; i < OUTFILE_TRACKED; i++) {
        char *tmp = atomic_exchange(&live[i], NULL);
        if (tmp)
            unlink(tmp);
    }
}

static void on_signal(int sig)
{
    outfile_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

void outfile_remove_on_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
            continue;   // ignored (nohup) or someone else's
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sigemptyset(&sa.sa_mask);
        sa.sa_handler = on_signal;
        sigaction(sigs[i], &sa, NULL);
    }
}

static int refuse_existing(struct outfile *o, const char *dst, struct err *e)
{
    o->existed = true;
    return err_set(e, ERR_USAGE, "%s: already exists (use --force to replace it)", dst);
}

/* The checks made before anything is created. lstat, not stat: a link at
 * dst is judged as a link, never by what it points to. */
static int check_destination(struct outfile *o, const char *dst, bool force,
                             const char *const *inputs, size_t ninputs, struct err *e)
{
    struct stat ds;
    if (lstat(dst, &ds) != 0) {
        if (errno == ENOENT)
            return 0;
        return err_set(e, ERR_IO, "%s: %s", dst, strerror(errno));
    }
    if (S_ISLNK(ds.st_mode))
        return err_set(e, ERR_USAGE, "%s: is a symbolic link: refusing to write through it", dst);
    if (S_ISDIR(ds.st_mode))
        return err_set(e, ERR_USAGE, "%s: is a directory", dst);
    if (!S_ISREG(ds.st_mode))
        return err_set(e, ERR_USAGE, "%s: not a regular file: refusing to replace it", dst);
    for (size_t i = 0; i < ninputs; i++) {
        struct stat is;
        if (inputs[i] && stat(inputs[i], &is) == 0 && is.st_dev == ds.st_dev &&
            is.st_ino == ds.st_ino)
            return strcmp(inputs[i], dst) == 0
                       ? err_set(e, ERR_USAGE, "%s: is an input: refusing to overwrite it", dst)
                       : err_set(e, ERR_USAGE, "%s: is an input (%s): refusing to overwrite it",
                                 dst, inputs[i]);
    }
    if (!force)
        return refuse_existing(o, dst, e);
    return 0;
}

int outfile_begin(struct outfile *o, const char *dst, bool force, const char *const *inputs,
                  size_t ninputs, struct err *e)
{
    memset(o, 0, sizeof *o);
    o->fd = -1;
    o->force = force;
    if (!dst[0])
        return err_set(e, ERR_USAGE, "empty output file name");
    int rc = check_destination(o, dst, force, inputs, ninputs, e);
    if (rc)
        return rc;
    size_t len = strlen(dst);
    o->dst = dup_str(dst);
    o->tmp = malloc(len + 16);
    if (!o->dst || !o->tmp) {
        free(o->dst);
        free(o->tmp);
        o->dst = o->tmp = NULL;
        return err_set(e, ERR_NOMEM, "%s: out of memory", dst);
    }
    /* Beside dst, so the final rename stays within one file system. */
    snprintf(o->tmp, len + 16, "%s.tmpXXXXXX", dst);
    o->fd = mkstemp(o->tmp);   /* O_CREAT | O_EXCL: never follows a link */
    if (o->fd < 0) {
        rc = err_set(e, ERR_IO, "%s: cannot create a file beside it: %s", dst, strerror(errno));
        free(o->dst);
        free(o->tmp);
        o->dst = o->tmp = NULL;
        return rc;
    }
    track(o->tmp);
    /* mkstemp makes 0600; a report or dump is as readable as any new file. */
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(o->fd, 0666 & ~mask);
    return 0;
}

FILE *outfile_stream(struct outfile *o, struct err *e)
{
    if (!o->stream && o->fd >= 0) {
        o->stream = fdopen(o->fd, "w");
        if (!o->stream)
            err_set(e, ERR_NOMEM, "%s: %s", o->dst, strerror(errno));
    }
    return o->stream;
}

void outfile_fd_closed(struct outfile *o)
{
    o->fd = -1;
    o->stream = NULL;
}

/* Closes the stream or descriptor; false when buffered data was lost. */
static bool close_all(struct outfile *o)
{
    bool ok = true;
    if (o->stream) {
        ok = !ferror(o->stream);
        ok = fclose(o->stream) == 0 && ok;
    } else if (o->fd >= 0) {
        ok = close(o->fd) == 0;
    }
    o->stream = NULL;
    o->fd = -1;
    return ok;
}

static void release(struct outfile *o)
{
    untrack(o->tmp);
    free(o->tmp);
    free(o->dst);
    o->tmp = o->dst = NULL;
}

void outfile_abort(struct outfile *o)
{
    if (!o->tmp)
        return;
    close_all(o);
    unlink(o->tmp);
    release(o);
}

/* Moves tmp into place. link() cannot replace an existing file, so without
 * force a file that appeared since outfile_begin is kept. */
static int publish(struct outfile *o, struct err *e)
{
    struct stat ds;
    if (o->force) {
        /* Checked again: a link or directory may have appeared meanwhile. */
        if (lstat(o->dst, &ds) == 0 && !S_ISREG(ds.st_mode))
            return err_set(e, ERR_USAGE, "%s: no longer a regular file: not replaced", o->dst);
        if (rename(o->tmp, o->dst) != 0)
            return err_set(e, ERR_IO, "%s: %s", o->dst, strerror(errno));
        return 0;
    }
    if (link(o->tmp, o->dst) == 0) {
        unlink(o->tmp);
        return 0;
    }
    if (errno == EEXIST)
        return refuse_existing(o, o->dst, e);
    /* File systems without hard links: check again, then rename. */
    if (lstat(o->dst, &ds) == 0 || errno != ENOENT)
        return refuse_existing(o, o->dst, e);
    if (rename(o->tmp, o->dst) != 0)
        return err_set(e, ERR_IO, "%s: %s", o->dst, strerror(errno));
    return 0;
}

int outfile_commit(struct outfile *o, struct err *e)
{
    if (!o->tmp)
        return err_set(e, ERR_INTERNAL, "output file not open");
    int saved = 0;
    int rc = 0;
    if (!close_all(o)) {
        saved = errno;
        rc = err_set(e, ERR_IO, "%s: write failed: %s", o->dst,
                     saved ? strerror(saved) : "I/O error");
    }
    if (!rc)
        rc = publish(o, e);
    unlink(o->tmp);   /* after link() or a failure; harmless after rename */
    release(o);
    return rc;
}
