#ifndef HTX_APP_SUMMARY_JOB_H
#define HTX_APP_SUMMARY_JOB_H

/* A job read from its rank summaries without their events: each
 * rank's record, the tables a summary stores and its tiles, and nothing
 * else, so a job whose events do not fit in one machine is still read
 * whole. `htx report` answers the analyses the summaries answer from it;
 * the TUI shows it when the events are not loaded (model_new_from_summaries). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/diff.h"
#include "analysis/findings.h"
#include "analysis/tiles.h"
#include "analysis/trust.h"
#include "app/options.h"
#include "model/model.h"
#include "summary/colls_io.h"
#include "summary/tables.h"
#include "util/arena.h"
#include "util/err.h"

struct summary_thread_name;

struct summary_job_rank {
    char *file;                                  /* the summary */
    struct summary_file_rank rank;               /* rank, events, trace path */
    struct table_list tables[SUMMARY_FILE_NSTORED];      /* summary_file_stored_analyses, in order, under
                                                            the semantics wanted (SUMMARY_JOB_HTA) */
    bool has_tables[SUMMARY_FILE_NSTORED];       /* which were found (a summary of an
                                                    older format lacks some) */
    struct table_list hta_job;                   /* under SUMMARY_JOB_HTA: SUMMARY_FILE_HTA_JOB's */
    bool has_hta_job;
    struct tiles tiles;                          /* count 0 when it has none */
    bool has_tiles;
    struct summary_thread_name *thread_names;    /* its thread lanes' names (with the tiles) */
    size_t nthread_names;
    struct summary_file_colls colls;             /* its collective records */
    bool has_colls;
    struct table_list rank_parts;                /* its part of the Ranks view */
    bool has_rank_parts;
    struct table *diff_parts;                    /* its part of a diff, or NULL */
    struct trust_rank trust;                     /* its facts for the job's checks */
    struct trace_pg pgs[TRACE_MAX_PGS];          /* ... their process groups */
    bool has_trust;                              /* (a summary made before them has none) */
    struct arena arena;                          /* what is read of it (ranks are read
                                                    side by side) */
};

struct summary_job {
    struct summary_job_rank *ranks;              /* ascending rank */
    size_t n;
    unsigned want;                               /* SUMMARY_JOB_*: what was read */
    uint64_t events;                             /* over every rank */
    bool events_away;                            /* summary_job_choose: the events would fit,
                                                    but a summary without them names a trace
                                                    not here, or changed since */
    size_t tiles_share;                          /* a rank's tiles at most (bytes), coarsened
                                                    to fit; 0: as stored */
    struct arena arena;                          /* the files' names */
};

/* The summary files the paths name (a directory's *.htxs, sorted; a file as
 * given), malloc'ed (free with summary_job_free_files), and how many trace
 * files are among the paths (so a caller can tell summaries-only inputs). */
int summary_job_files(const char *const *paths, size_t npaths, char ***files, size_t *n,
                      size_t *traces, struct err *e);
void summary_job_free_files(char **files, size_t n);

/* What summary_job_open keeps of each summary besides its record: the tables
 * of summary_file_stored_analyses[k], the tiles, the collective records, the parts
 * of the Ranks view and of a diff. The rest is not decoded (what a report
 * of a 1024-rank job does not ask for costs it nothing). */
#define SUMMARY_JOB_TABLE(k) (1u << (k))
#define SUMMARY_JOB_TILES (1u << 8)
#define SUMMARY_JOB_COLLS (1u << 9)
#define SUMMARY_JOB_RANK_PARTS (1u << 10)
#define SUMMARY_JOB_DIFF_PARTS (1u << 11)
/* The stored tables wanted are those of HTA's semantics, not htx's (only
 * the stored analyses' have both). */
#define SUMMARY_JOB_HTA (1u << 12)
#define SUMMARY_JOB_VIEWS (~(SUMMARY_JOB_DIFF_PARTS | SUMMARY_JOB_HTA))   /* what the TUI shows */

/* Reads every summary whole (checked) and keeps its record and what `want`
 * names; one rank per summary (two summaries of a rank name both).
 * warn_stale: a summary whose trace changed is named on stderr.
 * tiles_budget (0: none): the tiles of all ranks together take at most
 * about that many bytes, each rank's coarsened (tiles_fit) to its share;
 * what is made from them is then as exact as their coarser width. 0, or
 * the first error naming its file (l is then empty). */
int summary_job_open(struct summary_job *l, char **files, size_t n, unsigned want, bool warn_stale,
                     size_t tiles_budget, struct err *e);

/* What the TUI lets a summary job's tiles take: a quarter of memory_limit
 * (HTX_MAX_MEMORY; 0: no limit), SUMMARY_JOB_TILES_MAX at most. A thousand
 * ranks of a GB have about 2 MB of tiles each, 2 GB in all. */
#define SUMMARY_JOB_TILES_MAX ((size_t)256 << 20)
size_t summary_job_tiles_budget(uint64_t memory_limit);
/* What summary_job_tables needs for analysis id under semantics (enum
 * semantics_mode). */
unsigned summary_job_want(enum analysis_id id, int semantics);
void summary_job_fini(struct summary_job *l);

/* Analysis id over the ranks with selected[i] (NULL: all), as the analysis
 * on their events gives it under the semantics l was opened for
 * (SUMMARY_JOB_HTA: HTA's, where only the stored analyses are answered, and
 * only when app_hta_job_agrees): the stored tables one
 * rank after the other, the kernel tables reduced from the ranks' parts,
 * the collectives and stragglers matched from their records, or
 * (utilization) the table of their tiles, in a. ERR_EMPTY when the
 * summaries do not answer it (summary_file_answers), or a rank lacks what it
 * takes (a summary made before tiles, kernel parts or records); ERR_PARSE naming a
 * summary whose tables are not the others'; ERR_NOMEM. */
int summary_job_tables(const struct summary_job *l, const bool *selected, enum analysis_id id,
                       struct arena *a, struct table_list *out, struct err *e);

/* The collectives of the ranks with selected[i] (NULL: all), matched from
 * their summaries' records as coll_analyze matches them from their events
 * (times from the job's origin, the ranks' indices those of l), their
 * strings interned in `strings` (an initialised strtab the caller frees
 * after the result), the rest in a. ERR_EMPTY when a rank's summary has no
 * records (made before they were); ERR_PARSE naming a summary whose times
 * do not fit the job's; ERR_NOMEM. */
int summary_job_coll_result(const struct summary_job *l, const bool *selected, struct strtab *strings,
                            struct arena *a, struct coll_result *out, struct err *e);

/* The Ranks view's tables (rank_overview, rank_steps) of the ranks with
 * selected[i], as ranks_overview_run makes them from their events: their
 * stored parts, with the blame of the collectives matched from their
 * records. ERR_EMPTY when a summary has no part (made before they were). */
int summary_job_rank_tables(const struct summary_job *l, const bool *selected, struct arena *a,
                            struct table_list *out, struct err *e);

/* How many distinct step numbers the ranks' stored Ranks parts name (a
 * model from summaries has no iterations: its steps are in those parts); 0 when
 * none does, or out of memory. */
size_t summary_job_step_count(const struct summary_job *l);

/* The job as one side of a diff (analysis/diff.h): its ranks' parts, in
 * rank order, one table in a. ERR_EMPTY when a summary has none (made
 * before they were), ERR_PARSE naming one that is not sound. */
int summary_job_diff_side(const struct summary_job *l, struct arena *a, struct diff_side *side,
                          struct err *e);

/* The job's checks over l's ranks (those whose summaries hold their
 * facts; the others are counted as files, their facts unknown). 0 or
 * ERR_NOMEM. */
int summary_job_trust(const struct summary_job *l, struct trust_report *out);

/* The findings of the ranks with selected[i] (NULL: all) from what their
 * summaries hold (findings_of_facts: the collectives matched from their
 * records, the Ranks view's parts, the temporal breakdown and the
 * overlap; what a summary lacks leaves its rules silent), trust lowering
 * their confidence (may be NULL), items in a. 0, or ERR_NOMEM with e set.
 * summary_job_findings_want: what summary_job_open must read for it. */
int summary_job_findings(const struct summary_job *l, const bool *selected,
                         const struct trust_report *trust, struct arena *a, struct findings *out,
                         struct err *e);
unsigned summary_job_findings_want(void);

/* Which ranks m (a summary job's model) selects, by index: malloc'ed (the
 * caller frees it), NULL when out of memory. */
bool *summary_job_model_selection(const struct model *m);

/* summary_job_tables over the ranks m (its model) selects; ERR_EMPTY
 * when m's semantics are not those l was opened for. */
int summary_job_model_tables(const struct summary_job *l, const struct model *m, enum analysis_id id,
                             struct arena *a, struct table_list *out, struct err *e);

/* The job's model from its summaries (model_new_from_summaries): its ranks,
 * their lanes from their tiles and their spans. NULL with e set: ERR_EMPTY naming a summary
 * made before tiles were, ERR_NOMEM. */
struct model *summary_job_model(const struct summary_job *l, const struct semantics *sem,
                                struct err *e);

/* The summary job to show while the events of paths load: of the rank
 * summaries they name, or of the traces' entries in cache (when every one
 * is fresh). 1 with l open, 0 (l empty) when there is none, or an error of
 * summary_job_open. */
struct app_cache;
int summary_job_preview(const char *const *paths, size_t npaths, struct app_cache *cache,
                        const struct semantics *sem, struct summary_job *l, struct err *e);
/* What the TUI reads of summaries under sem: SUMMARY_JOB_VIEWS, with the
 * stored tables of HTA's semantics under HTA's. */
unsigned summary_job_views(const struct semantics *sem);

/* The events files[0..n) hold, from their rank records alone (no checksum:
 * a hint for choosing how to open them); false when one cannot be read so
 * or the sum overflows. */
bool summary_job_peek_events(char *const *files, size_t n, uint64_t *events);

/* Whether the events of files[0..n) can be read: each summary holds them,
 * or names a trace that is here and unchanged (size and mtime: the loader
 * checks its content too). From their section headers and source records
 * alone (summary_file_peek_section: a hint). False also when a summary cannot be
 * read so. */
bool summary_job_events_at_hand(char *const *files, size_t n);

/* Whether the TUI shows paths without their events: they name rank
 * summaries only, and mode is skip, or auto and their events would take
 * more than memory_limit bytes (0: no limit) at SUMMARY_JOB_BYTES_PER_EVENT,
 * or are not at hand (summary_job_events_at_hand: l->events_away).
 * Returns 1 with l open (the caller shows and closes it), 0 with l empty
 * (load the events), or an error with e set: ERR_USAGE for skip on paths
 * that are not all summaries, or those of summary_job_open. */
#define SUMMARY_JOB_BYTES_PER_EVENT 64   /* a loaded event with its indices (DESIGN.md) */
int summary_job_choose(const char *const *paths, size_t npaths, enum htx_events mode,
                       uint64_t memory_limit, const struct semantics *sem, struct summary_job *l,
                       struct err *e);

#endif
