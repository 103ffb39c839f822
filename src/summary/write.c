#include "config.h"

#include "summary/write.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "util/outfile.h"

static int write_pieces(const char *path, struct summary_file_piece *pieces, size_t n, int force,
                        struct err *e)
{
    struct outfile o;
    int rc = outfile_begin(&o, path, force != 0, NULL, 0, e);
    if (rc)
        return rc;
    struct iovec iov[SUMMARY_FILE_MAX_PIECES];
    size_t first = 0;
    for (size_t i = 0; i < n; i++)
        iov[i] = (struct iovec){(void *)pieces[i].p, pieces[i].n};
    while (first < n) {
        ssize_t w = writev(o.fd, iov + first, (int)(n - first));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int saved = errno;
            outfile_abort(&o);
            return err_set(e, ERR_IO, "%s: cannot write: %s", path, strerror(saved ? saved : EIO));
        }
        size_t done = (size_t)w;
        while (first < n && done >= iov[first].iov_len)
            done -= iov[first++].iov_len;
        if (first < n) {   // a short write ended inside iov[first]
            iov[first].iov_base = (char *)iov[first].iov_base + done;
            iov[first].iov_len -= done;
        }
    }
    return outfile_commit(&o, e);
}

int summary_file_writer_save(struct summary_file_writer *w, const char *path, int force, struct err *e)
{
    struct summary_file_piece pieces[SUMMARY_FILE_MAX_PIECES];
    size_t n;
    int rc = summary_file_writer_pieces(w, pieces, &n, e);
    return rc ? rc : write_pieces(path, pieces, n, force, e);
}

int summary_file_write_file(const char *path, const uint8_t *buf, size_t len, int force, struct err *e)
{
    struct summary_file_piece one = {buf, len};
    return write_pieces(path, &one, 1, force, e);
}
