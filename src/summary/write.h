#ifndef HTX_SUMMARY_WRITE_H
#define HTX_SUMMARY_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/summary_file.h"

/* Writes the writer's file (summary_file_writer_pieces: what was put, borrowed bytes
 * included, without gathering them) to path through the one file writer
 * (util/outfile.h): a temp file beside path, moved into place when
 * complete. Refuses an existing path unless force (ERR_USAGE naming
 * --force), a link and anything but a regular file. The one place a
 * summary reaches the disk. Finishes w: only summary_file_writer_fini may follow. */
int summary_file_writer_save(struct summary_file_writer *w, const char *path, int force, struct err *e);

/* The same for a finished summary in one buffer. */
int summary_file_write_file(const char *path, const uint8_t *buf, size_t len, int force, struct err *e);

#endif
