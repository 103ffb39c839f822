#ifndef HTX_ANALYSIS_TABLE_H
#define HTX_ANALYSIS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/err.h"

/* Every analysis result is one or more tables: named columns (HTA's own
 * column names, so a row can be checked against HTA's DataFrame) and rows of
 * typed cells. The CLI writes them as text/CSV/JSON and the UI draws them;
 * neither needs to know which analysis made them.
 *
 * Ownership: a table and all its strings live in the arena given to
 * table_new; they are freed with that arena. */

enum cell_type { CELL_NULL = 0, CELL_INT, CELL_DOUBLE, CELL_STR, CELL_BOOL };

struct cell {
    enum cell_type type;
    union {
        int64_t i;
        double d;     /* NaN is written as JSON null, like pandas */
        const char *s;
        bool b;
    } v;
};

enum col_flags {
    COL_PERCENT = 1 << 0,  /* 0..100: text output draws a bar */
    COL_RATIO = 1 << 1,    /* 0..1: text output draws a bar */
    COL_KEY = 1 << 2,      /* identifies the row (rank, stream, name) */
};

struct table_col {
    const char *name;      /* HTA's column name, e.g. "sum (us)" */
    const char *unit;      /* for text headers, may be NULL ("us", "%") */
    unsigned flags;        /* enum col_flags */
};

struct table {
    const char *name;      /* JSON key, e.g. "temporal_breakdown" */
    const char *title;     /* human title for text output and the UI */
    struct table_col *cols;
    size_t ncols;
    struct cell *cells;    /* row-major, nrows * ncols */
    size_t nrows, cap;
    size_t nrows_total;    /* rows it stands for when it holds only its largest
                            * (analysis_opts.launch_top_rows); else 0 */
    const char *note;      /* why it is empty, or what to know; may be NULL */
    struct arena *arena;
};

/* Creates an empty table in a, which owns it and everything added to it
 * (name, title and columns are copied). NULL on ENOMEM. */
struct table *table_new(struct arena *a, const char *name, const char *title,
                        const struct table_col *cols, size_t ncols);

/* Appends a row of CELL_NULL cells and returns it (ncols cells, owned by the
 * table, valid until the next table_add_row), NULL on ENOMEM. */
struct cell *table_add_row(struct table *t);
/* Room for `more` rows beyond the current ones, allocated once: a table
 * whose size is known (one row a kernel launch) then takes no doubling
 * copies, which an arena never gives back. 0 or ERR_NOMEM. */
int table_reserve(struct table *t, size_t more);

static inline struct cell *table_cell(const struct table *t, size_t row, size_t col)
{
    return &t->cells[row * t->ncols + col];
}

/* A copy of t in a, everything it refers to included and its cells sized
 * to its rows: an analysis's tables moved out of the arena that also holds
 * its scratch. NULL on ENOMEM. */
struct table *table_copy(struct arena *a, const struct table *t);

/* Index of a column by name, or -1. Borrows name until return. */
int table_col_index(const struct table *t, const char *name);

static inline struct cell cell_int(int64_t v) { struct cell c = {CELL_INT, {.i = v}}; return c; }
static inline struct cell cell_double(double v) { struct cell c = {CELL_DOUBLE, {.d = v}}; return c; }
static inline struct cell cell_bool(bool v) { struct cell c = {CELL_BOOL, {.b = v}}; return c; }
static inline struct cell cell_null(void) { struct cell c = {CELL_NULL, {.i = 0}}; return c; }
/* Copies s into the table's arena (NULL-safe: NULL gives ""). */
struct cell cell_str(struct table *t, const char *s);
/* Sets the note (printf-style), copied into the table's arena. */
void table_set_note(struct table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A result made of several tables, in output order. */
#define TABLE_LIST_MAX 16
struct table_list {
    struct table *tables[TABLE_LIST_MAX];
    size_t count;
};

/* Appends t (borrowed: the arena that made it owns it); ERR_LIMIT when the
 * list already holds TABLE_LIST_MAX tables. */
int table_list_add(struct table_list *l, struct table *t);

/* The table of l called name with ncols columns, or NULL (none, or one of
 * another shape: a part read from a summary that is not one). */
const struct table *table_list_find(const struct table_list *l, const char *name, size_t ncols);

/* table_new and table_list_add in one: the new table, or NULL with e set
 * (ERR_NOMEM, or ERR_LIMIT when the list is full). */
struct table *table_list_new(struct arena *a, struct table_list *l, const char *name,
                             const char *title, const struct table_col *cols, size_t ncols,
                             struct err *e);

/* Numeric value of a cell as double (NaN for NULL/strings). */
double cell_as_double(const struct cell *c);

#endif
