#ifndef HTX_SUMMARY_TABLES_H
#define HTX_SUMMARY_TABLES_H

/* Result tables in a summary (section SUMMARY_FILE_TABLES): the tables one
 * analysis made on one rank under one semantics, exactly (doubles by their
 * bits, strings by their bytes), so a report made from summaries prints
 * what the report on the traces prints. Also the rank's input record
 * (SUMMARY_FILE_RANK): what `report` lists in "inputs". */

#include <stdbool.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/table.h"
#include "analysis/trust.h"
#include "summary/deflated.h"
#include "util/arena.h"
#include "util/err.h"
#include "util/summary_file.h"
#include "util/summary_file_source.h"

#define SUMMARY_FILE_MAX_COLS 256

/* The analyses whose tables a summary stores (under each semantics and the
 * defaults): those whose job tables are each rank's one after the other,
 * and the kernel breakdown's per-rank parts (analysis/kernels.h), which
 * reduce to the job's tables. */
#define SUMMARY_FILE_NSTORED 4
extern const enum analysis_id summary_file_stored_analyses[SUMMARY_FILE_NSTORED];
/* What summarize runs on a rank to store analysis id's tables. */
analysis_fn summary_file_stored_run(enum analysis_id id);
/* Tables stored under a number past the analyses': the rank's part of the
 * TUI's Ranks view (analysis/ranks.h: ranks_parts_run) and of a diff
 * (analysis/diff.h: diff_parts_run). */
#define SUMMARY_FILE_RANKS_PARTS 64
#define SUMMARY_FILE_DIFF_PARTS 65
/* Under HTA's semantics: on what the rank's HTA tables depend in its job
 * (app/rank_summary.h: APP_HTA_JOB_TABLE). */
#define SUMMARY_FILE_HTA_JOB 66
/* Whether a summary answers analysis id under semantics (0 htx, 1 hta)
 * without its events: a stored table, or under htx's its tiles
 * (utilization) or its collective records (collectives, stragglers). */
bool summary_file_answers(enum analysis_id id, int semantics);

/* One analysis' tables: which semantics (0 htx, 1 hta) and analysis. */
void summary_file_tables_write(struct summary_file_writer *w, int semantics, int analysis,
                               const struct table_list *l);
/* summary_file_tables_write in two steps: the deflating, on any thread, and the
 * section put in w (plain when d could not be deflated; d is freed). */
void summary_file_tables_deflate(int semantics, int analysis, const struct table_list *l,
                                 struct summary_file_deflated *d);
void summary_file_tables_put(struct summary_file_writer *w, int semantics, int analysis,
                             const struct table_list *l, struct summary_file_deflated *d);
/* One analysis' tables under both semantics, htx's and HTA's, in one
 * section (SUMMARY_FILE_TABLES_PAIR), in the same two steps; plain, two sections. */
#define SUMMARY_FILE_BOTH_SEMANTICS 2   /* the semantics a pair's tag names */
void summary_file_tables_deflate_pair(int analysis, const struct table_list *htx,
                                      const struct table_list *hta, struct summary_file_deflated *d);
void summary_file_tables_put_pair(struct summary_file_writer *w, int analysis, const struct table_list *htx,
                                  const struct table_list *hta, struct summary_file_deflated *d);
/* The same as one SUMMARY_FILE_TABLES section, plain (what summaries held before
 * format 1.5, and the writer's fallback when memory is short for deflating). */
void summary_file_tables_write_plain(struct summary_file_writer *w, int semantics, int analysis,
                                     const struct table_list *l);

/* The tag of a tables section (util/summary_file.h): which semantics and analysis,
 * so that a reader skips the tables it does not want unread. */
uint32_t summary_file_tables_tag(int semantics, int analysis);

/* Whether s holds tables (plain or deflated). */
bool summary_file_is_tables(const struct summary_file_section *s);

/* Reads section s (summary_file_is_tables) into tables made in a (appended to l); *semantics and
 * *analysis say whose they are: of a pair (SUMMARY_FILE_TABLES_PAIR), those under
 * semantics `want`. ERR_PARSE naming `name` when malformed, ERR_NOMEM. */
int summary_file_tables_read(const struct summary_file_section *s, const char *name, struct arena *a, int want,
                             int *semantics, int *analysis, struct table_list *l, struct err *e);

/* The rank's record for the report's "inputs". */
struct summary_file_rank {
    int64_t rank;
    uint64_t events;       /* complete events, as info and report count them */
    char path[SUMMARY_FILE_SOURCE_PATH_MAX];
};
void summary_file_rank_write(struct summary_file_writer *w, const struct summary_file_rank *r);
int summary_file_rank_read(const struct summary_file_doc *doc, const char *name, struct summary_file_rank *r,
                           struct err *e);
/* The record of the summary at path, read alone (summary_file_peek_section: a hint,
 * its checksum unchecked). */
int summary_file_rank_peek(const char *path, struct summary_file_rank *r, struct err *e);

/* The rank's facts for the job's checks (analysis/trust.h), section
 * SUMMARY_FILE_TRUST: world size, first event, events dropped, repaired and
 * overlapping, process groups, graph kernels and launches. Fields may be
 * added at its end: a reader reads those it knows. summary_file_trust_read
 * fills t (its pgs pointing into pgs, room for TRACE_MAX_PGS) and sets
 * *found; a summary made before the section has none (found false, t says
 * nothing). ERR_PARSE naming a malformed one. */
void summary_file_trust_write(struct summary_file_writer *w, const struct trust_rank *t);
int summary_file_trust_read(const struct summary_file_doc *doc, const char *name, struct trust_rank *t,
                            struct trace_pg *pgs, bool *found, struct err *e);

#endif
