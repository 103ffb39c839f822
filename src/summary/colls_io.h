#ifndef HTX_SUMMARY_COLLS_IO_H
#define HTX_SUMMARY_COLLS_IO_H

/* A rank's collective records (analysis/collectives.h) in a summary, so a
 * job's collectives are matched, and its stragglers ranked, without its
 * events: section SUMMARY_FILE_COLLS, its raw length (u64) then the deflate stream
 * of:
 *   svarint rank | varint has an origin (0: the rank has no event) | svarint
 *   origin (absolute ns of the rank's time 0)
 *   varint nstrings | per string but the first (""): varint 2 x length, bytes;
 *   or a rank list "[a, a+d, ..., a+(n-1)d]" written as varint 1, svarint a,
 *   svarint d, varint n (a job's Process Group Ranks: 5 KB for 1024 ranks)
 *   varint nrecords | per record: varint name, coll_name, group, pg_ranks
 *   (indices into the strings) | svarint stream, seq, group_size, bytes |
 *   svarint ts - the previous record's ts | varint end - ts |
 *   svarint iteration | varint pos - the previous record's pos
 * Each record's times are ns from the origin; its rank is the section's. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/collectives.h"
#include "summary/deflated.h"
#include "util/arena.h"
#include "util/err.h"
#include "util/summary_file.h"
#include "util/strtab.h"

#define COLLS_MAX_STRINGS (1u << 20)
#define COLLS_MAX_STRING (1u << 20)   /* a Process Group Ranks list of many ranks */

/* Appends the section for the records recs[0..n) of one rank (ids in
 * strings, times from *origin, the rank's absolute time 0; NULL when the
 * rank has no event, which then puts no time 0 on a job); a failure is
 * the writer's (sticky). */
void summary_file_colls_write(struct summary_file_writer *w, int64_t rank, const int64_t *origin,
                              const struct strtab *strings, const struct coll_record *recs, size_t n);
/* The same in two steps (summary/deflated.h), the deflating on any thread:
 * d->z NULL when it failed. */
void summary_file_colls_deflate(int64_t rank, const int64_t *origin, const struct strtab *strings,
                                const struct coll_record *recs, size_t n, struct summary_file_deflated *d);

/* One rank's records as read: ids index strings (strings[0] is ""),
 * rank_index 0, times from origin. */
struct summary_file_colls {
    int64_t rank, origin;
    bool has_origin;
    const char **strings;      /* NUL-terminated copies */
    size_t *lens;              /* their lengths (a name may hold a NUL) */
    size_t nstrings;
    struct coll_record *recs;
    size_t n;
};

/* Reads the doc's records into c (arrays in a). ERR_EMPTY when it has none
 * (made before they were), ERR_PARSE naming `name` when malformed (an id
 * past the strings, times past the model's limit, an end before its start,
 * bytes after the records), ERR_NOMEM. */
int summary_file_colls_read(const struct summary_file_doc *doc, const char *name, struct arena *a,
                            struct summary_file_colls *c, struct err *e);

#endif
