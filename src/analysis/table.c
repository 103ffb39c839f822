#include "config.h"
#include "analysis/table.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table *table_new(struct arena *a, const char *name, const char *title,
                        const struct table_col *cols, size_t ncols)
{
    struct table *t = arena_calloc(a, 1, sizeof *t);
    if (!t)
        return NULL;
    t->arena = a;
    t->name = arena_strndup(a, name, strlen(name));
    t->title = arena_strndup(a, title ? title : name, strlen(title ? title : name));
    t->cols = arena_calloc(a, ncols ? ncols : 1, sizeof *t->cols);
    if (!t->name || !t->title || !t->cols)
        return NULL;
    for (size_t i = 0; i < ncols; i++) {
        t->cols[i].name = arena_strndup(a, cols[i].name, strlen(cols[i].name));
        t->cols[i].unit = cols[i].unit ? arena_strndup(a, cols[i].unit, strlen(cols[i].unit)) : NULL;
        t->cols[i].flags = cols[i].flags;
        if (!t->cols[i].name)
            return NULL;
    }
    t->ncols = ncols;
    return t;
}

static int set_capacity(struct table *t, size_t cap)
{
    if (t->ncols && cap > SIZE_MAX / sizeof(struct cell) / t->ncols)
        return ERR_NOMEM;
    struct cell *cells = arena_alloc(t->arena, cap * t->ncols * sizeof *cells);
    if (!cells)
        return ERR_NOMEM;
    if (t->nrows)
        memcpy(cells, t->cells, t->nrows * t->ncols * sizeof *cells);
    t->cells = cells;
    t->cap = cap;
    return 0;
}

int table_reserve(struct table *t, size_t more)
{
    if (more > SIZE_MAX - t->nrows)
        return ERR_NOMEM;
    size_t need = t->nrows + more;
    if (need <= t->cap)
        return 0;
    // At least doubling: a table reserved rank after rank grows like one
    // filled row by row, not by a copy of everything each rank.
    return set_capacity(t, t->cap && need < 2 * t->cap ? 2 * t->cap : need);
}

struct cell *table_add_row(struct table *t)
{
    if (t->nrows == t->cap && set_capacity(t, t->cap ? t->cap * 2 : 16))
        return NULL;
    struct cell *row = &t->cells[t->nrows * t->ncols];
    memset(row, 0, t->ncols * sizeof *row);
    t->nrows++;
    return row;
}

int table_col_index(const struct table *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (strcmp(t->cols[i].name, name) == 0)
            return (int)i;
    return -1;
}

struct cell cell_str(struct table *t, const char *s)
{
    if (!s)
        s = "";
    struct cell c = {CELL_STR, {.s = arena_strndup(t->arena, s, strlen(s))}};
    if (!c.v.s)
        c = cell_null();
    return c;
}

void table_set_note(struct table *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    t->note = arena_strndup(t->arena, buf, strlen(buf));
}

static const char *copy_str(struct arena *a, const char *s)
{
    return s ? arena_strndup(a, s, strlen(s)) : NULL;
}

struct table *table_copy(struct arena *a, const struct table *t)
{
    struct table *c = table_new(a, t->name, t->title, t->cols, t->ncols);
    if (!c || (t->note && !(c->note = copy_str(a, t->note))))
        return NULL;
    c->nrows_total = t->nrows_total;
    if (t->nrows == 0)
        return c;
    if (set_capacity(c, t->nrows))
        return NULL;
    memcpy(c->cells, t->cells, t->nrows * t->ncols * sizeof *c->cells);
    c->nrows = t->nrows;
    for (size_t col = 0; col < t->ncols; col++) {
        const char *last_from = NULL, *last_to = NULL;
        for (size_t r = 0; r < t->nrows; r++) {
            struct cell *cell = table_cell(c, r, col);
            if (cell->type != CELL_STR)
                continue;
            /* a string repeated down a column (a rank's name) is copied once */
            if (cell->v.s != last_from) {
                last_from = cell->v.s;
                if (!(last_to = copy_str(a, last_from)))
                    return NULL;
            }
            cell->v.s = last_to;
        }
    }
    return c;
}

int table_list_add(struct table_list *l, struct table *t)
{
    if (!t || l->count >= TABLE_LIST_MAX)
        return -1;
    l->tables[l->count++] = t;
    return 0;
}

struct table *table_list_new(struct arena *a, struct table_list *l, const char *name,
                             const char *title, const struct table_col *cols, size_t ncols,
                             struct err *e)
{
    struct table *t = table_new(a, name, title, cols, ncols);
    if (!t) {
        err_set(e, ERR_NOMEM, "out of memory");
        return NULL;
    }
    if (table_list_add(l, t)) {
        err_set(e, ERR_LIMIT, "too many result tables (at most %d)", TABLE_LIST_MAX);
        return NULL;
    }
    return t;
}

double cell_as_double(const struct cell *c)
{
    switch (c->type) {
    case CELL_INT:
        return (double)c->v.i;
    case CELL_DOUBLE:
        return c->v.d;
    case CELL_BOOL:
        return c->v.b ? 1.0 : 0.0;
    default:
        return NAN;
    }
}

const struct table *table_list_find(const struct table_list *l, const char *name, size_t ncols)
{
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->tables[i]->name, name) == 0)
            return l->tables[i]->ncols == ncols ? l->tables[i] : NULL;
    return NULL;
}
