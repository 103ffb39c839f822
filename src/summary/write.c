#include "config.h"

#include "summary/write.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "util/outfile.h"

/* Through the one file writer (util/outfile.h): temp file beside path, never
 * over an input or a link, an existing summary kept unless force. */
int htxs_write_file(const char *path, const uint8_t *buf, size_t len, int force, struct err *e)
{
    struct outfile o;
    int rc = outfile_begin(&o, path, force != 0, NULL, 0, e);
    if (rc)
        return rc;
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(o.fd, buf + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int saved = errno;
            outfile_abort(&o);
            return err_set(e, ERR_IO, "%s: cannot write: %s", path, strerror(saved ? saved : EIO));
        }
        done += (size_t)w;
    }
    return outfile_commit(&o, e);
}
