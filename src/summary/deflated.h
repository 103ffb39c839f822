#ifndef HTX_SUMMARY_DEFLATED_H
#define HTX_SUMMARY_DEFLATED_H

/* A summary section whose contents are deflated with trace/pack_dict.h's
 * dictionary: the contents' length (u64), then the deflate stream. The
 * tables, tiles and collective records are written so. */

#include <stdint.h>

#include "util/err.h"
#include "util/htxs.h"

/* Appends section `kind` (tagged, util/htxs.h) holding raw's body deflated.
 * 0, or -1 when it could not be deflated (w untouched: the caller may write
 * it plain). */
int htxs_put_deflated(struct htxs_writer *w, uint32_t kind, uint32_t tag,
                      const struct htxs_writer *raw);

/* Section s's contents inflated (at most max bytes) into *raw (the caller
 * frees it), and a section of s's kind over them in *plain. ERR_PARSE
 * naming `name` and `what` ("tiles") when malformed, ERR_NOMEM. */
int htxs_inflate_section(const struct htxs_section *s, const char *name, const char *what,
                         uint64_t max, uint8_t **raw, struct htxs_section *plain, struct err *e);

#endif
