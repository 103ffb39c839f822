#ifndef HTX_CLI_COMMANDS_H
#define HTX_CLI_COMMANDS_H

#include <stdio.h>

#include "analysis/table.h"
#include "app/format.h"
#include "app/options.h"
#include "model/model.h"

/* The headless commands. Each *_main loads what opts names, writes its
 * output to stdout only when everything succeeded, reports problems on
 * stderr prefixed "htx: ", and returns the process exit status (0 ok, 1 bad
 * input, 2 bad usage). They borrow opts until return. The writers below are
 * the pure part, over an already loaded model, for tests. */

int cli_info_main(const struct htx_options *opts);
int cli_report_main(const struct htx_options *opts);
int cli_counters_main(const struct htx_options *opts);
/* `htx check` on traces (or summaries read as their traces): also
 * CHECK_EXIT_FINDING when a finding costs more than --max-cost. */
#define CHECK_EXIT_FINDING 3
int cli_check_main(const struct htx_options *opts);
/* Names on stderr the problems of f (not the hot spots) that cost more
 * than pct percent of the iteration; how many. */
struct findings;
size_t check_over_threshold(const struct findings *f, double pct);

/* `htx info`: every rank of m (those in --rank when given), then the files
 * that failed. Borrows everything until return. */
void info_write_text(FILE *f, const struct model *m, const struct htx_options *opts);
void info_write_json(FILE *f, const struct model *m, const struct htx_options *opts);

/* The rows of each per-launch table the report's text shows. */
#define REPORT_LAUNCH_TEXT_ROWS 20

/* `htx report`: the tables of lists[0..nlists) in the chosen format (the
 * JSON document has htx_version, semantics, inputs, one key per table and
 * notes). Returns 0 or -1 on a write error. Borrows everything. */
int report_write(FILE *f, const struct model *m, const struct htx_options *opts,
                 const struct table_list *lists, size_t nlists, const struct format_opts *fo);

/* The same from what the report lists in "inputs" and "failed" (a report
 * made from summaries has no model). */
struct report_input {
    const char *path;
    int64_t rank;
    uint64_t events;
};
struct trust_report;
struct report_inputs {
    const struct report_input *ranks;
    size_t n;
    const struct failed_file *failed;
    size_t nfailed;
    const struct trust_report *trust;   /* the job's checks (analysis/trust.h), or NULL */
};
/* ids[l]: the analysis of lists[l] (NULL: the lists in order, as given). */
int report_write_inputs(FILE *f, const struct report_inputs *in, const struct htx_options *opts,
                        const enum analysis_id *ids, const struct table_list *lists,
                        size_t nlists, const struct format_opts *fo);
/* Text reports open with the straggler ranking: in a multi-rank job the
 * first question is which rank holds the others back. Its longer
 * per-iteration table goes to the end. */
bool report_leads_the_text(const struct htx_options *opts, enum analysis_id id);
/* Under --semantics=htx the kernel tables are in triage order: the per-rank
 * kernel_breakdown by total time with "others" last, preceded by
 * kernel_summary. l's tables from kernels_run, in place; the new table is
 * made in scratch. 0, ERR_NOMEM or ERR_LIMIT. */
int report_triage_kernel_tables(struct table_list *l, struct arena *scratch);
/* The selected ranks of m as the report's inputs, with the job's checks
 * in *trust (which in->trust points to); free in->ranks. 0 or -1 (out of
 * memory). */
int report_inputs_of(const struct model *m, struct report_inputs *in,
                     struct trust_report *trust);

/* The same report written as the tables come, so each analysis's tables
 * can be freed once out: report_begin, report_add per table in output
 * order, report_defer for a table that goes after all the others (it is
 * copied), then report_end, which returns 0 or -1 when something could not
 * be written (and then every call after the failure did nothing). The
 * writer borrows f, in, opts and fo until report_end; report_add borrows
 * the table until return. */
struct report_writer {
    FILE *f;
    const struct report_inputs *in;
    const struct htx_options *opts;
    const struct format_opts *fo;
    struct jsonw json;
    struct arena arena;           /* notes, deferred tables, text excerpts */
    struct report_note {
        const char *name, *note;
    } *notes;
    size_t nnotes, notes_cap;
    struct table *first_csv;      /* CSV: the first table, until a second comes */
    struct table *deferred[TABLE_LIST_MAX];
    size_t ndeferred;
    size_t written;               /* CSV tables written */
    bool failed;
};
void report_begin(struct report_writer *rw, FILE *f, const struct report_inputs *in,
                  const struct htx_options *opts, const struct format_opts *fo);
int report_add(struct report_writer *rw, const struct table *t);
int report_defer(struct report_writer *rw, const struct table *t);
int report_end(struct report_writer *rw);

#endif
