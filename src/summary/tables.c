#include "config.h"
#include "summary/tables.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/kernels.h"
#include "summary/deflated.h"

/* Section HTXS_TABLES:
 *   u32 semantics | u32 analysis | u32 ntables, then per table:
 *   str name | opt title | opt note | u32 ncols | per column: str name, opt unit, u32 flags
 *   u64 nrows | per cell: u32 type, then i64 (int, bool) or f64 (double) or str (string)
 * where opt is u32 present (0/1) followed by a str when present.
 * Section HTXS_TABLES_Z: u64 length of such contents, then their deflate
 * stream (zlib format). */

const enum analysis_id htxs_stored_analyses[HTXS_NSTORED] = {
    ANALYSIS_TEMPORAL, ANALYSIS_IDLE, ANALYSIS_OVERLAP, ANALYSIS_KERNELS,
};

analysis_fn htxs_stored_run(enum analysis_id id)
{
    if (id == ANALYSIS_KERNELS)
        return kernels_parts_run;
    const struct analysis_info *a = analysis_get(id);
    return a ? a->run : NULL;
}

bool htxs_answers(enum analysis_id id)
{
    for (size_t i = 0; i < HTXS_NSTORED; i++)
        if (htxs_stored_analyses[i] == id)
            return true;
    return id == ANALYSIS_UTILIZATION || id == ANALYSIS_COLLECTIVES || id == ANALYSIS_STRAGGLERS;
}

static void put_opt(struct htxs_writer *w, const char *s)
{
    htxs_put_u32(w, s != NULL);
    if (s)
        htxs_put_str(w, s, strlen(s));
}

static void put_table(struct htxs_writer *w, const struct table *t)
{
    htxs_put_str(w, t->name, strlen(t->name));
    put_opt(w, t->title);
    put_opt(w, t->note);
    htxs_put_u32(w, (uint32_t)t->ncols);
    for (size_t c = 0; c < t->ncols; c++) {
        htxs_put_str(w, t->cols[c].name, strlen(t->cols[c].name));
        put_opt(w, t->cols[c].unit);
        htxs_put_u32(w, t->cols[c].flags);
    }
    htxs_put_u64(w, t->nrows);
    for (size_t i = 0; i < t->nrows * t->ncols; i++) {
        const struct cell *c = &t->cells[i];
        htxs_put_u32(w, (uint32_t)c->type);
        if (c->type == CELL_INT)
            htxs_put_i64(w, c->v.i);
        else if (c->type == CELL_BOOL)
            htxs_put_i64(w, c->v.b);
        else if (c->type == CELL_DOUBLE)
            htxs_put_f64(w, c->v.d);
        else if (c->type == CELL_STR)
            htxs_put_str(w, c->v.s ? c->v.s : "", c->v.s ? strlen(c->v.s) : 0);
    }
}

static void put_tables(struct htxs_writer *w, int semantics, int analysis,
                       const struct table_list *l)
{
    htxs_put_u32(w, (uint32_t)semantics);
    htxs_put_u32(w, (uint32_t)analysis);
    htxs_put_u32(w, (uint32_t)l->count);
    for (size_t i = 0; i < l->count; i++)
        put_table(w, l->tables[i]);
}

/* Deflated (HTXS_TABLES_Z): column names and keys repeat, and a small
 * rank's tables were a fifth of its summary (2.5 KB of 12 KB at 807
 * events; 0.85 KB deflated). Written plain (HTXS_TABLES) when memory is
 * short for the deflating. */
uint32_t htxs_tables_tag(int semantics, int analysis)
{
    return 1u + (uint32_t)(analysis & 0xffff) + ((uint32_t)(semantics & 0xff) << 16);
}

void htxs_tables_write(struct htxs_writer *w, int semantics, int analysis,
                       const struct table_list *l)
{
    struct htxs_writer raw;
    htxs_writer_init(&raw);
    put_tables(&raw, semantics, analysis, l);
    uint32_t tag = htxs_tables_tag(semantics, analysis);
    if (htxs_put_deflated(w, HTXS_TABLES_Z, tag, &raw) != 0) {
        htxs_begin_section_tagged(w, HTXS_TABLES, tag);
        put_tables(w, semantics, analysis, l);
        htxs_end_section(w);
    }
    htxs_writer_fini(&raw);
}

bool htxs_is_tables(const struct htxs_section *s)
{
    return s->kind == HTXS_TABLES || s->kind == HTXS_TABLES_Z;
}

/* A string of the section copied into a (NUL-terminated); NULL when the
 * cursor is bad or memory is short (*nomem says which). */
static char *get_str(struct htxs_cur *c, struct arena *a, bool *nomem)
{
    size_t n;
    const char *s = htxs_get_str(c, &n);
    if (c->bad)
        return NULL;
    char *copy = arena_strndup(a, s ? s : "", s ? n : 0);
    *nomem |= copy == NULL;
    return copy;
}

static char *get_opt(struct htxs_cur *c, struct arena *a, bool *nomem)
{
    uint32_t present = htxs_get_u32(c);
    if (present > 1)
        c->bad = 1;
    return present == 1 ? get_str(c, a, nomem) : NULL;
}

static struct table *get_table(struct htxs_cur *c, struct arena *a, bool *nomem)
{
    char *name = get_str(c, a, nomem), *title = get_opt(c, a, nomem), *note = get_opt(c, a, nomem);
    uint32_t ncols = htxs_get_u32(c);
    if (c->bad || *nomem || !name || ncols == 0 || ncols > HTXS_MAX_COLS) {
        c->bad |= !*nomem;
        return NULL;
    }
    struct table_col cols[HTXS_MAX_COLS];
    for (uint32_t i = 0; i < ncols && !c->bad && !*nomem; i++) {
        cols[i].name = get_str(c, a, nomem);
        cols[i].unit = get_opt(c, a, nomem);
        cols[i].flags = htxs_get_u32(c);
        if (!cols[i].name)
            c->bad |= !*nomem;
    }
    uint64_t nrows = htxs_get_u64(c);
    // Every cell takes at least 4 bytes: more rows than bytes left is a lie.
    if (c->bad || *nomem || nrows > (uint64_t)(c->end - c->p) / 4 / ncols) {
        c->bad |= !*nomem;
        return NULL;
    }
    struct table *t = table_new(a, name, title ? title : name, cols, ncols);
    if (!t) {
        *nomem = true;
        return NULL;
    }
    if (!title)
        t->title = NULL;
    t->note = note;
    for (uint64_t r = 0; r < nrows && !c->bad; r++) {
        struct cell *row = table_add_row(t);
        if (!row) {
            *nomem = true;
            return NULL;
        }
        for (uint32_t k = 0; k < ncols && !c->bad; k++) {
            uint32_t type = htxs_get_u32(c);
            if (type == CELL_INT) {
                row[k] = cell_int(htxs_get_i64(c));
            } else if (type == CELL_BOOL) {
                int64_t b = htxs_get_i64(c);
                row[k] = (struct cell){.type = CELL_BOOL, .v.b = b != 0};
                c->bad |= b != 0 && b != 1;
            } else if (type == CELL_DOUBLE) {
                row[k] = cell_double(htxs_get_f64(c));
            } else if (type == CELL_STR) {
                char *s = get_str(c, a, nomem);
                if (!s)
                    return NULL;
                row[k] = (struct cell){.type = CELL_STR, .v.s = s};
            } else if (type == CELL_NULL) {
                row[k] = (struct cell){.type = CELL_NULL};
            } else {
                c->bad = 1;
            }
        }
    }
    return c->bad ? NULL : t;
}

static int read_plain_tables(const struct htxs_section *s, const char *name, struct arena *a,
                             int *semantics, int *analysis, struct table_list *l,
                             struct err *e)
{
    struct htxs_cur c;
    htxs_cur_init(&c, s);
    uint32_t sem = htxs_get_u32(&c), an = htxs_get_u32(&c), n = htxs_get_u32(&c);
    bool nomem = false;
    if (c.bad || sem > 1 || n > TABLE_LIST_MAX)
        return err_set(e, ERR_PARSE, "%s: malformed tables section", name);
    *semantics = (int)sem;
    *analysis = (int)an;
    for (uint32_t i = 0; i < n; i++) {
        struct table *t = get_table(&c, a, &nomem);
        if (nomem)
            return err_set(e, ERR_NOMEM, "%s: out of memory", name);
        if (!t || table_list_add(l, t))
            return err_set(e, ERR_PARSE, "%s: malformed table %u of a tables section", name, i);
    }
    if (c.p != c.end)
        return err_set(e, ERR_PARSE, "%s: bytes after the tables of a section", name);
    return 0;
}

int htxs_tables_read(const struct htxs_section *s, const char *name, struct arena *a,
                     int *semantics, int *analysis, struct table_list *l, struct err *e)
{
    if (s->kind != HTXS_TABLES_Z)
        return read_plain_tables(s, name, a, semantics, analysis, l, e);
    uint8_t *raw;
    struct htxs_section plain;
    int rc = htxs_inflate_section(s, name, "tables", UINT64_MAX, &raw, &plain, e);
    if (rc)
        return rc;
    plain.kind = HTXS_TABLES;
    rc = read_plain_tables(&plain, name, a, semantics, analysis, l, e);
    free(raw);
    return rc;
}

void htxs_rank_write(struct htxs_writer *w, const struct htxs_rank *r)
{
    htxs_begin_section(w, HTXS_RANK);
    htxs_put_i64(w, r->rank);
    htxs_put_u64(w, r->events);
    htxs_put_str(w, r->path, strlen(r->path));
    htxs_end_section(w);
}

static int read_rank_section(const struct htxs_section *s, const char *name,
                             struct htxs_rank *r, struct err *e)
{
    struct htxs_cur c;
    htxs_cur_init(&c, s);
    r->rank = htxs_get_i64(&c);
    r->events = htxs_get_u64(&c);
    size_t n;
    const char *p = htxs_get_str(&c, &n);
    if (c.bad || n >= sizeof r->path || c.p != c.end || memchr(p, 0, n))
        return err_set(e, ERR_PARSE, "%s: malformed rank section", name);
    memcpy(r->path, p, n);
    r->path[n] = 0;
    return 0;
}

int htxs_rank_read(const struct htxs_doc *doc, const char *name, struct htxs_rank *r,
                   struct err *e)
{
    const struct htxs_section *s = htxs_find(doc, HTXS_RANK);
    if (!s)
        return err_set(e, ERR_PARSE, "%s: no rank section", name);
    return read_rank_section(s, name, r, e);
}

int htxs_rank_peek(const char *path, struct htxs_rank *r, struct err *e)
{
    uint8_t *data;
    uint64_t len;
    int rc = htxs_peek_section(path, HTXS_RANK, &data, &len, e);
    if (rc == ERR_EMPTY)
        return err_set(e, ERR_PARSE, "%s: no rank section", path);
    if (rc)
        return rc;
    struct htxs_section s = {HTXS_RANK, data, len, 0};
    rc = read_rank_section(&s, path, r, e);
    free(data);
    return rc;
}
