#ifndef HTX_SUMMARY_WRITE_H
#define HTX_SUMMARY_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Writes len bytes to path atomically: a temp file in path's directory,
 * fsync'd, then renamed over path. Refuses an existing path unless force
 * (ERR_USAGE, "exists, use --force"). The one place a summary reaches the
 * disk, so that issue 11's shared safe writer replaces it in one line. */
int htxs_write_file(const char *path, const uint8_t *buf, size_t len, int force, struct err *e);

#endif
