#ifndef HTX_SUMMARY_DEFLATED_H
#define HTX_SUMMARY_DEFLATED_H

/* A summary section whose contents are deflated with trace/pack_dict.h's
 * dictionary: the contents' length (u64), then the deflate stream. The
 * tables, tiles and collective records are written so. */

#include <stdint.h>

#include "util/err.h"
#include "util/summary_file.h"

/* Appends section `kind` (tagged, util/summary_file.h) holding raw's body deflated.
 * 0, or -1 when it could not be deflated (w untouched: the caller may write
 * it plain). */
int summary_file_put_deflated(struct summary_file_writer *w, uint32_t kind, uint32_t tag,
                              const struct summary_file_writer *raw);

/* The same in two steps, so that the deflating runs on any thread and the
 * writer takes the sections in its order: a section's deflated contents
 * (z NULL when they could not be deflated), */
struct summary_file_deflated {
    uint32_t kind, tag;
    uint64_t len;        /* of the contents */
    uint8_t *z;          /* malloc'ed */
    size_t zlen;
};
void summary_file_deflate_section(uint32_t kind, uint32_t tag, const struct summary_file_writer *raw,
                                  struct summary_file_deflated *d);
/* and their section appended to w (0), or -1 when z is NULL (w untouched).
 * Either way d is freed. */
int summary_file_put_deflated_section(struct summary_file_writer *w, struct summary_file_deflated *d);

/* Section s's contents inflated (at most max bytes) into *raw (the caller
 * frees it), and a section of s's kind over them in *plain. ERR_PARSE
 * naming `name` and `what` ("tiles") when malformed, ERR_NOMEM. */
int summary_file_inflate_section(const struct summary_file_section *s, const char *name, const char *what,
                                 uint64_t max, uint8_t **raw, struct summary_file_section *plain, struct err *e);

#endif
