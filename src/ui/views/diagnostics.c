#include "config.h"

#include <stdio.h>
#include <string.h>

#include "ui/document.h"
#include "ui/widgets/text.h"

/* View i: what was loaded and what was skipped or assumed, per rank, and
 * why each empty analysis is empty (the answer to "it loaded but shows
 * nothing"). Everything comes from the model and the analyses' notes. */

static int rank_source_text(struct ui_doc *d, const struct rank_model *r)
{
    const char *how = "from distributedInfo.rank";
    if (r->rank_source == RANK_FROM_FILE_NAME)
        how = "from the file name";
    else if (r->rank_source == RANK_DEFAULTED)
        how = "defaulted (no rank in the file or its name)";
    char ws[32] = "unknown";
    if (r->world_size >= 0)
        snprintf(ws, sizeof ws, "%lld", (long long)r->world_size);
    return ui_doc_text(d, "  rank %s · world size %s · device %s%s%s%s%s%s", how, ws,
                       model_device_name(r->device), r->device_name[0] ? " (" : "",
                       r->device_name, r->device_name[0] ? ")" : "",
                       r->backend[0] ? " · backend " : "", r->backend);
}

/* Where the events came from, when not from the trace itself. */
static int origin_text(struct ui_doc *d, const struct rank_model *r)
{
    if (r->summary_path)
        return ui_doc_text(d, "  read from the summary %s%s", r->summary_path,
                           r->summary_stale ? " (stale: the trace changed since)" : "");
    if (r->from_cache)
        return ui_doc_text(d, "  read from the cache (unchanged since it was cached; "
                              "--no-cache reads the trace)");
    return 0;
}

static int counts_text(struct ui_doc *d, const struct rank_model *r)
{
    char buf[768];
    int n = snprintf(buf, sizeof buf, "  complete events %llu:",
                     (unsigned long long)r->complete_events);

    for (int k = 0; k < EV_KIND_COUNT && n > 0 && (size_t)n < sizeof buf; k++)
        if (r->complete_by_kind[k])
            n += snprintf(buf + n, sizeof buf - (size_t)n, " %s %llu,",
                          model_kind_name((enum ev_kind)k),
                          (unsigned long long)r->complete_by_kind[k]);
    if (n > 0 && (size_t)n < sizeof buf && buf[n - 1] == ',')
        buf[n - 1] = 0;
    return ui_doc_text(d, "%s", buf) ||
           ui_doc_text(d, "  elements in traceEvents %llu, kept %zu",
                       (unsigned long long)r->elements, r->nevents);
}

static int list_text(struct ui_doc *d, const struct ui_rank *ur, const struct rank_model *r)
{
    char buf[512];
    int n = snprintf(buf, sizeof buf, "  streams:");

    for (size_t s = 0; s < ur->nstreams && n > 0 && (size_t)n < sizeof buf - 24; s++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, " %lld", (long long)ur->streams[s]);
    if (ur->nstreams == 0 && n > 0)
        n += snprintf(buf + n, sizeof buf - (size_t)n, " none");
    if (n > 0 && (size_t)n < sizeof buf - 24)
        n += snprintf(buf + n, sizeof buf - (size_t)n, " · iterations:");
    for (size_t i = 0; i < r->niterations && n > 0 && (size_t)n < sizeof buf - 24; i++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, " %lld",
                      (long long)r->iterations[i].number);
    if (r->niterations == 0 && n > 0 && (size_t)n < sizeof buf - 8)
        snprintf(buf + n, sizeof buf - (size_t)n, " none");
    char span[32];
    ui_format_duration(r->end_ns - r->start_ns, span, sizeof span);
    return ui_doc_text(d, "%s", buf) ||
           ui_doc_text(d, "  selected span %s, %zu rows%s", span, r->nrows,
                       r->selected ? "" : " (rank not selected)");
}

static int problems_text(struct ui_doc *d, const struct rank_model *r)
{
    int rc = 0;

    if (r->nwarnings == 0 && r->unmatched_correlations == 0 && r->overlapping_kernels == 0 &&
        r->crossing_annotations == 0 && r->zero_length_annotations == 0)
        return ui_doc_text(d, "  no warnings");
    if (r->nwarnings)
        rc |= ui_doc_text(d, "  %llu warning(s):", (unsigned long long)r->nwarnings);
    for (size_t i = 0; i < r->nwarning_texts && rc == 0; i++)
        rc |= ui_doc_text(d, "    %s", r->warning_texts[i]);
    if (r->nwarnings > r->nwarning_texts && rc == 0)
        rc |= ui_doc_text(d, "    (and %llu more)",
                          (unsigned long long)(r->nwarnings - r->nwarning_texts));
    if (r->unmatched_correlations)
        rc |= ui_doc_text(d, "  %llu GPU event(s) whose launching CPU event is absent",
                          (unsigned long long)r->unmatched_correlations);
    if (r->overlapping_kernels)
        rc |= ui_doc_text(d, "  %llu kernel(s) overlapping another on the same stream "
                             "(kept and marked)",
                          (unsigned long long)r->overlapping_kernels);
    if (r->crossing_annotations)
        rc |= ui_doc_text(d, "  %llu user annotation(s) ending after the one they start in "
                             "(not nested; annotation stacks keep only enclosing ones)",
                          (unsigned long long)r->crossing_annotations);
    if (r->zero_length_annotations)
        rc |= ui_doc_text(d, "  %llu zero-length user annotation(s) (they enclose no launch)",
                          (unsigned long long)r->zero_length_annotations);
    return rc;
}

static int ranks_text(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    for (size_t i = 0; i < m->nranks; i++) {
        const struct rank_model *r = &m->ranks[i];
        if (ui_doc_text(d, "rank %lld · %s", (long long)r->rank, r->path ? r->path : "") ||
            rank_source_text(d, r) || origin_text(d, r) || counts_text(d, r) ||
            list_text(d, &st->ranks[i], r) || problems_text(d, r) || ui_doc_text(d, "%s", ""))
            return ERR_NOMEM;
    }
    return 0;
}

static int failed_text(const struct model *m, struct ui_doc *d)
{
    if (m->nfailed && ui_doc_text(d, "files that failed to load:"))
        return ERR_NOMEM;
    for (size_t i = 0; i < m->nfailed; i++) {
        const char *msg = m->failed[i].message ? m->failed[i].message : "";
        const char *path = m->failed[i].path ? m->failed[i].path : "";
        // Messages usually name their file already.
        bool named = strncmp(msg, path, strlen(path)) == 0;
        if (ui_doc_text(d, "  %s%s%s", named ? "" : path, named ? "" : ": ", msg))
            return ERR_NOMEM;
    }
    if (m->notes && m->notes[0]) {
        if (ui_doc_text(d, "notes:"))
            return ERR_NOMEM;
        const char *p = m->notes;
        while (*p) {
            const char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            if (ui_doc_text(d, "  %.*s", (int)len, p))
                return ERR_NOMEM;
            p += len + (nl ? 1 : 0);
        }
    }
    if ((m->nfailed || (m->notes && m->notes[0])) && ui_doc_text(d, "%s", ""))
        return ERR_NOMEM;
    return 0;
}

/* Runs every analysis and lists the tables that came out empty, with the
 * reason the analysis gave. */
static int empty_text(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    size_t empty = 0;

    if (ui_doc_text(d, "empty analyses:"))
        return ERR_NOMEM;
    for (size_t i = 0; st->analyses && i < st->nanalyses; i++) {
        struct table_list tl = {.count = 0};
        struct err e = {0, ""};
        if (st->analyses[i].run(m, &st->aopts, &d->arena, &tl, &e) != 0) {
            if (ui_doc_text(d, "  %s: failed: %s", st->analyses[i].name, e.msg))
                return ERR_NOMEM;
            empty++;
            continue;
        }
        for (size_t t = 0; t < tl.count; t++) {
            if (tl.tables[t]->nrows > 0)
                continue;
            empty++;
            const char *note = tl.tables[t]->note;
            if (ui_doc_text(d, "  %s: %s", tl.tables[t]->name,
                            note && note[0] ? note : "no rows (no note given)"))
                return ERR_NOMEM;
        }
    }
    if (!st->analyses && ui_doc_text(d, "  (the analyses are not available in this build)"))
        return ERR_NOMEM;
    if (st->analyses && empty == 0 && ui_doc_text(d, "  none: every analysis has rows"))
        return ERR_NOMEM;
    return 0;
}

/* The warning `htx report` prints when a multi-rank job shows no
 * communication kernel, as the view's second line. */
static int comm_text(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    bool missing = false;
    if (analysis_comm_missing(m, &st->aopts, &missing) != 0)
        return ERR_NOMEM;
    return missing ? ui_doc_text(d, "warning: %s", ANALYSIS_COMM_MISSING_HINT) : 0;
}

/* The job's checks that fired (analysis/trust.h), each with its count. */
static int trust_text(const struct ui_state *st, struct ui_doc *d)
{
    if (st->trust.n == 0)
        return 0;
    if (ui_doc_text(d, "trust: %zu check(s) fired%s", st->trust.n,
                    trust_severe(&st->trust) ? " (! severe: the job is not what its files claim)"
                                             : ""))
        return ERR_NOMEM;
    for (size_t i = 0; i < st->trust.n; i++) {
        const struct trust_finding *f = &st->trust.findings[i];
        if (ui_doc_text(d, "  %c %s (%llu): %s", f->severe ? '!' : '-',
                        trust_check_name(f->check), (unsigned long long)f->count, f->text))
            return ERR_NOMEM;
    }
    return 0;
}

static int build(struct ui_state *st, const struct model *m, struct ui_doc *d)
{
    int rc = ui_doc_text(d, "%zu rank(s) loaded, %zu file(s) failed", m->nranks, m->nfailed);
    if (rc == 0)
        rc = trust_text(st, d);
    if (rc == 0)
        rc = comm_text(st, m, d);
    if (rc == 0)
        rc = ui_doc_text(d, "%s", "");
    if (rc == 0)
        rc = ranks_text(st, m, d);
    if (rc == 0)
        rc = failed_text(m, d);
    if (rc == 0)
        rc = empty_text(st, m, d);
    return rc;
}

static int refresh(struct ui_state *st, const struct model *m, struct err *e)
{
    return ui_doc_refresh(st, m, UI_VIEW_DIAGNOSTICS, NULL, 0, build, e);
}

const struct ui_view_ops ui_view_diagnostics = {
    .id = UI_VIEW_DIAGNOSTICS,
    .key = 'i',
    .name = "Diagnostics",
    .hints = UI_DOC_HINTS,
    .refresh = refresh,
    .stale = ui_doc_stale,
    .contexts = ui_doc_contexts,
    .rows = ui_doc_rows,
    .top = ui_doc_top,
    .row = ui_doc_row,
    .pinned = ui_doc_pinned,
    .pinned_row = ui_doc_pinned_row,
    .status = ui_doc_status,
    .prompt_initial = ui_doc_prompt_initial,
    .prompt_apply = ui_doc_prompt_apply,
    .escape = ui_doc_escape,
    .click = ui_doc_click,
    .cursor_name = ui_doc_cursor_name,
};
