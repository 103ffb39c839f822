#ifndef HTX_APP_RANK_SUMMARY_H
#define HTX_APP_RANK_SUMMARY_H

/* A rank summary's contents (util/summary_file.h), made one way for
 * `htx summarize` (cli/summarize.c) and for the TUI's cache (app/cache.h),
 * so that a cache entry is the summary summarize writes of the same trace. */

#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "trace/pack.h"
#include "util/err.h"
#include "util/summary_file.h"
#include "util/summary_file_source.h"

/* The options a summary is made under: htx's semantics and every default
 * analysis parameter (htx_options_make_canonical). */
void app_rank_summary_options(struct semantics *sem, struct analysis_opts *ao);

/* What a summary holds that was made before its model: the packed events,
 * pack's (finished after the analyses, so that a pack still deflating on a
 * thread of its own overlaps them) or, when pack is NULL,
 * events[0..events_len) (a pack already made), or none when both are NULL
 * (a summary without its events: what needs them reads its trace,
 * trace/read.h); and the trace's source
 * record, made when its events were read (summarize hashes the trace
 * beside its load; the cache keeps the record its entry's events were
 * written under). Borrowed until the writer they are put in is done with. */
struct rank_summary_parts {
    struct trace_pack *pack;
    const uint8_t *events;
    size_t events_len;
    const struct summary_file_source *source;
    /* When set, asked before each analysis: true stops the summary
     * (ERR_CANCEL; the cache's writer when the TUI quits). */
    bool (*stop)(void *ctx);
    void *stop_ctx;
};

/* Puts the summary of m into w (new, nothing put yet): the stored
 * analyses' tables, the rank and diff parts, the rank record, its tiles and
 * collective records, the events and the source record. m is the model of
 * the one trace at source_path, loaded under app_rank_summary_options, with
 * a rank number; ao is those options'. threads: the pool's (0 = cores, 1 =
 * this thread only). 0, or an error in e naming source_path (ERR_PARSE when
 * m is not one rank with a number). */
int app_rank_summary(const struct model *m, const struct analysis_opts *ao, int threads,
                     const struct rank_summary_parts *parts, const char *source_path,
                     struct summary_file_writer *w, struct err *e);

/* The table a summary stores under HTA's semantics beside its tables
 * (section SUMMARY_FILE_HTA_JOB): on what the rank's HTA tables depend in the
 * rest of the job. */
#define APP_HTA_JOB_TABLE "hta_job"
#define APP_HTA_JOB_COLS 4   /* step_names, mtia, start_ns, end_ns */
/* Whether the HTA tables of the n ranks whose SUMMARY_FILE_HTA_JOB tables are per
 * are those of their job: HTA drops the last step of every rank or of none,
 * as the job's ProfilerStep names decide, and selects MTIA jobs by the first
 * rank's device. False also when a rank has no such table. */
bool app_hta_job_agrees(const struct table_list *const *per, size_t n);

#endif
