#ifndef HTX_TESTS_ORACLE_COMPARE_H
#define HTX_TESTS_ORACLE_COMPARE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/table.h"

/* Comparing htx tables with HTA's own outputs in ../shared/oracle (see its
 * README): a DataFrame is {"__type__": "DataFrame", "shape", "split":
 * {"columns", "index", "data"}}. Shared by the analysis test suites. */

/* The oracle root ($HTX_SRCDIR/../shared/oracle) or NULL when absent
 * (then tests print "../shared not found: skipping ..." and pass).
 * Writes into buf. */
const char *oracle_root(char *buf, size_t size);
/* Same for the traces root ($HTX_SRCDIR/../shared/traces). */
const char *oracle_traces_root(char *buf, size_t size);

/* Loads each of the trace sets dirs[0..n) of ../shared/traces that exists,
 * under htx semantics, and with both_semantics under hta too, and calls
 * fn(model, ctx) on each (the model is freed after). Returns how many were
 * visited (a test then asserts > 0), or -1 when ../shared/traces is absent,
 * after saying on stderr that `test` skips its real traces. */
struct model;
int oracle_each_trace(const char *test, const char *const *dirs, size_t n, bool both_semantics,
                      void (*fn)(struct model *m, void *ctx), void *ctx);

/* Parses a JSON file. Caller owns the result (cJSON_Delete); NULL when the
 * file is missing or malformed (why in msg). */
cJSON *oracle_load(const char *path, char *msg, size_t msgsz);

/* The "status" of the manifest entry whose "analysis" is name ("ok",
 * "exception", "none", "skipped"), or NULL when there is none. */
const char *oracle_status(const cJSON *manifest, const char *analysis);

/* The DataFrame at doc.result (key NULL) or doc.result.<key>, or NULL. */
const cJSON *oracle_frame(const cJSON *doc, const char *key);

/* Compares a DataFrame with a table, row by row in order. Every DataFrame
 * column must exist in the table under its name (for "a|b" MultiIndex
 * columns: the lower level "b"); extra table columns are ignored. When
 * index_cols is given (n_index names), the DataFrame's index becomes those
 * columns (a list index for a MultiIndex, else one name), as DESIGN.md's
 * "Report formats" says. Numbers match within 1e-6 relative or abs_tol
 * absolute; null matches a NULL cell or NaN; strings match exactly.
 * Returns the number of mismatches; the first few are described in msg. */
int oracle_compare(const cJSON *frame, const struct table *t, const char *const *index_cols,
                   size_t n_index, double abs_tol, char *msg, size_t msgsz);

#endif
