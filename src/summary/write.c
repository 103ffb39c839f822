#include "config.h"

#include "summary/write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int htxs_write_file(const char *path, const uint8_t *buf, size_t len, int force, struct err *e)
{
    struct stat st;
    if (!force && lstat(path, &st) == 0)
        return err_set(e, ERR_USAGE, "%s: exists (use --force to overwrite)", path);
    size_t n = strlen(path);
    char *tmp = malloc(n + sizeof ".tmp.XXXXXX");
    if (!tmp)
        return err_set(e, ERR_NOMEM, "%s: out of memory", path);
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int rc = err_set(e, ERR_IO, "%s: cannot create a temp file: %s", path, strerror(errno));
        free(tmp);
        return rc;
    }
    fchmod(fd, 0644); /* mkstemp makes 0600; a summary is as readable as its trace */
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, buf + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int ok = done == len && fsync(fd) == 0;
    int saved = errno;
    ok = close(fd) == 0 && ok;
    /* With force the rename replaces the old file; without it, a file that
     * appeared since the check is kept (link fails with EEXIST). */
    if (ok && force)
        ok = rename(tmp, path) == 0;
    else if (ok) {
        ok = link(tmp, path) == 0;
        if (!ok && errno == EEXIST) {
            unlink(tmp);
            free(tmp);
            return err_set(e, ERR_USAGE, "%s: exists (use --force to overwrite)", path);
        }
        if (ok)
            unlink(tmp);
    }
    if (!ok) {
        saved = errno ? errno : saved;
        unlink(tmp);
        free(tmp);
        return err_set(e, ERR_IO, "%s: cannot write: %s", path, strerror(saved));
    }
    free(tmp);
    return 0;
}
