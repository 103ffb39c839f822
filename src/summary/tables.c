#include "config.h"
#include "summary/tables.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kernels.h"
#include "summary/deflated.h"

/* Section SUMMARY_FILE_TABLES:
 *   u32 semantics | u32 analysis | u32 ntables, then per table:
 *   str name | opt title | opt note | u32 ncols | per column: str name, opt unit, u32 flags
 *   u64 nrows | per cell: u32 type, then i64 (int, bool) or f64 (double) or str (string)
 * where opt is u32 present (0/1) followed by a str when present.
 * Section SUMMARY_FILE_TABLES_Z: u64 length of such contents, then their deflate
 * stream (zlib format). Section SUMMARY_FILE_TABLES_VZ (what summarize writes): the
 * same with every count a varint, a cell's type a byte and its integer a
 * zigzag varint, deflated as SUMMARY_FILE_TABLES_Z (about a tenth smaller
 * deflated than SUMMARY_FILE_TABLES_Z). */

const enum analysis_id summary_file_stored_analyses[SUMMARY_FILE_NSTORED] = {
    ANALYSIS_TEMPORAL, ANALYSIS_IDLE, ANALYSIS_OVERLAP, ANALYSIS_KERNELS,
};

analysis_fn summary_file_stored_run(enum analysis_id id)
{
    if (id == ANALYSIS_KERNELS)
        return kernels_parts_run;
    const struct analysis_info *a = analysis_get(id);
    return a ? a->run : NULL;
}

bool summary_file_answers(enum analysis_id id, int semantics)
{
    for (size_t i = 0; i < SUMMARY_FILE_NSTORED; i++)
        if (summary_file_stored_analyses[i] == id)
            return true;
    return semantics == 0 && (id == ANALYSIS_UTILIZATION || id == ANALYSIS_COLLECTIVES ||
                              id == ANALYSIS_STRAGGLERS || id == ANALYSIS_FINDINGS);
}

/* The encodings: plain (u32/u64 counts, u32 cell types, 8-byte numbers)
 * or compact (varints, a byte a cell type, zigzag varint integers). */
static void put_n(struct summary_file_writer *w, bool compact, uint64_t v, bool wide)
{
    if (compact)
        summary_file_put_varint(w, v);
    else if (wide)
        summary_file_put_u64(w, v);
    else
        summary_file_put_u32(w, (uint32_t)v);
}

static void put_s(struct summary_file_writer *w, bool compact, const char *s, size_t n)
{
    if (compact) {
        summary_file_put_varint(w, n);
        summary_file_put_bytes(w, s, n);
    } else {
        summary_file_put_str(w, s, n);
    }
}

static void put_opt(struct summary_file_writer *w, bool compact, const char *s)
{
    put_n(w, compact, s != NULL, false);
    if (s)
        put_s(w, compact, s, strlen(s));
}

static void put_cell(struct summary_file_writer *w, bool compact, const struct cell *c)
{
    if (compact) {
        uint8_t type = (uint8_t)c->type;
        summary_file_put_bytes(w, &type, 1);
    } else {
        summary_file_put_u32(w, (uint32_t)c->type);
    }
    if (c->type == CELL_INT && compact)
        summary_file_put_svarint(w, c->v.i);
    else if (c->type == CELL_INT)
        summary_file_put_i64(w, c->v.i);
    else if (c->type == CELL_BOOL)
        put_n(w, compact, (uint64_t)c->v.b, true);
    else if (c->type == CELL_DOUBLE)
        summary_file_put_f64(w, c->v.d);
    else if (c->type == CELL_STR)
        put_s(w, compact, c->v.s ? c->v.s : "", c->v.s ? strlen(c->v.s) : 0);
}

static void put_table(struct summary_file_writer *w, bool compact, const struct table *t)
{
    put_s(w, compact, t->name, strlen(t->name));
    put_opt(w, compact, t->title);
    put_opt(w, compact, t->note);
    put_n(w, compact, t->ncols, false);
    for (size_t c = 0; c < t->ncols; c++) {
        put_s(w, compact, t->cols[c].name, strlen(t->cols[c].name));
        put_opt(w, compact, t->cols[c].unit);
        put_n(w, compact, t->cols[c].flags, false);
    }
    put_n(w, compact, t->nrows, true);
    for (size_t i = 0; i < t->nrows * t->ncols; i++)
        put_cell(w, compact, &t->cells[i]);
}

static void put_tables(struct summary_file_writer *w, bool compact, int semantics, int analysis,
                       const struct table_list *l)
{
    put_n(w, compact, (uint32_t)semantics, false);
    put_n(w, compact, (uint32_t)analysis, false);
    put_n(w, compact, (uint32_t)l->count, false);
    for (size_t i = 0; i < l->count; i++)
        put_table(w, compact, l->tables[i]);
}

/* Deflated (SUMMARY_FILE_TABLES_Z): column names and keys repeat, and a
 * small rank's tables are a large share of its summary. Written plain
 * (SUMMARY_FILE_TABLES) when memory is short for the deflating. */
uint32_t summary_file_tables_tag(int semantics, int analysis)
{
    return 1u + (uint32_t)(analysis & 0xffff) + ((uint32_t)(semantics & 0xff) << 16);
}

void summary_file_tables_deflate(int semantics, int analysis, const struct table_list *l,
                                 struct summary_file_deflated *d)
{
    struct summary_file_writer raw;
    summary_file_writer_init(&raw);
    put_tables(&raw, true, semantics, analysis, l);
    summary_file_deflate_section(SUMMARY_FILE_TABLES_VZ, summary_file_tables_tag(semantics, analysis), &raw, d);
    summary_file_writer_fini(&raw);
}

void summary_file_tables_put(struct summary_file_writer *w, int semantics, int analysis,
                             const struct table_list *l, struct summary_file_deflated *d)
{
    if (summary_file_put_deflated_section(w, d) != 0)
        summary_file_tables_write_plain(w, semantics, analysis, l);
}

void summary_file_tables_deflate_pair(int analysis, const struct table_list *htx,
                                      const struct table_list *hta, struct summary_file_deflated *d)
{
    struct summary_file_writer raw;
    summary_file_writer_init(&raw);
    put_tables(&raw, true, 0, analysis, htx);
    put_tables(&raw, true, 1, analysis, hta);
    summary_file_deflate_section(SUMMARY_FILE_TABLES_PAIR, summary_file_tables_tag(SUMMARY_FILE_BOTH_SEMANTICS, analysis), &raw,
                                 d);
    summary_file_writer_fini(&raw);
}

void summary_file_tables_put_pair(struct summary_file_writer *w, int analysis, const struct table_list *htx,
                                  const struct table_list *hta, struct summary_file_deflated *d)
{
    if (summary_file_put_deflated_section(w, d) == 0)
        return;
    summary_file_tables_write_plain(w, 0, analysis, htx);
    summary_file_tables_write_plain(w, 1, analysis, hta);
}

void summary_file_tables_write(struct summary_file_writer *w, int semantics, int analysis,
                               const struct table_list *l)
{
    struct summary_file_deflated d;
    summary_file_tables_deflate(semantics, analysis, l, &d);
    summary_file_tables_put(w, semantics, analysis, l, &d);
}

void summary_file_tables_write_plain(struct summary_file_writer *w, int semantics, int analysis,
                                     const struct table_list *l)
{
    summary_file_begin_section_tagged(w, SUMMARY_FILE_TABLES, summary_file_tables_tag(semantics, analysis));
    put_tables(w, false, semantics, analysis, l);
    summary_file_end_section(w);
}

bool summary_file_is_tables(const struct summary_file_section *s)
{
    return s->kind == SUMMARY_FILE_TABLES || s->kind == SUMMARY_FILE_TABLES_Z || s->kind == SUMMARY_FILE_TABLES_VZ ||
           s->kind == SUMMARY_FILE_TABLES_PAIR;
}

/* A count as put_n wrote it; past max is bad. */
static uint64_t get_n(struct summary_file_cur *c, bool compact, bool wide, uint64_t max)
{
    uint64_t v = compact ? summary_file_get_varint(c) : wide ? summary_file_get_u64(c) : summary_file_get_u32(c);
    if (v > max)
        c->bad = 1;
    return c->bad ? 0 : v;
}

/* A string of the section copied into a (NUL-terminated); NULL when the
 * cursor is bad or memory is short (*nomem says which). */
static char *get_str(struct summary_file_cur *c, bool compact, struct arena *a, bool *nomem)
{
    size_t n = 0;
    const char *s;
    if (compact) {
        uint64_t len = summary_file_get_varint(c);   // then the bytes left are known
        c->bad |= len > (uint64_t)(c->end - c->p);
        n = c->bad ? 0 : (size_t)len;
        s = c->bad ? NULL : (const char *)c->p;
        c->p += n;
    } else {
        s = summary_file_get_str(c, &n);
    }
    if (c->bad)
        return NULL;
    char *copy = arena_strndup(a, s ? s : "", s ? n : 0);
    *nomem |= copy == NULL;
    return copy;
}

static char *get_opt(struct summary_file_cur *c, bool compact, struct arena *a, bool *nomem)
{
    return get_n(c, compact, false, 1) == 1 ? get_str(c, compact, a, nomem) : NULL;
}

static void get_cell(struct summary_file_cur *c, bool compact, struct arena *a, bool *nomem,
                     struct cell *cell)
{
    uint32_t type = compact ? (uint32_t)get_n(c, true, false, 0xff) : summary_file_get_u32(c);
    if (compact && type > 0x7f)   // one byte, as written
        c->bad = 1;
    if (type == CELL_INT) {
        *cell = cell_int(compact ? summary_file_get_svarint(c) : summary_file_get_i64(c));
    } else if (type == CELL_BOOL) {
        uint64_t b = get_n(c, compact, true, 1);
        *cell = (struct cell){.type = CELL_BOOL, .v.b = b != 0};
    } else if (type == CELL_DOUBLE) {
        *cell = cell_double(summary_file_get_f64(c));
    } else if (type == CELL_STR) {
        char *s = get_str(c, compact, a, nomem);
        *cell = (struct cell){.type = CELL_STR, .v.s = s};
        c->bad |= !s && !*nomem;
    } else if (type == CELL_NULL) {
        *cell = (struct cell){.type = CELL_NULL};
    } else {
        c->bad = 1;
    }
}

static struct table *get_table(struct summary_file_cur *c, bool compact, struct arena *a, bool *nomem)
{
    char *name = get_str(c, compact, a, nomem), *title = get_opt(c, compact, a, nomem),
         *note = get_opt(c, compact, a, nomem);
    uint32_t ncols = (uint32_t)get_n(c, compact, false, SUMMARY_FILE_MAX_COLS);
    if (c->bad || *nomem || !name || ncols == 0) {
        c->bad |= !*nomem;
        return NULL;
    }
    struct table_col cols[SUMMARY_FILE_MAX_COLS];
    for (uint32_t i = 0; i < ncols && !c->bad && !*nomem; i++) {
        cols[i].name = get_str(c, compact, a, nomem);
        cols[i].unit = get_opt(c, compact, a, nomem);
        cols[i].flags = (unsigned)get_n(c, compact, false, UINT32_MAX);
        if (!cols[i].name)
            c->bad |= !*nomem;
    }
    // Every cell takes at least a byte (4 plain): more rows than that is a lie.
    uint64_t nrows = get_n(c, compact, true, UINT64_MAX);
    if (nrows > (uint64_t)(c->end - c->p) / (compact ? 1 : 4) / ncols)
        c->bad = 1;
    if (c->bad || *nomem) {
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
    for (uint64_t r = 0; r < nrows && !c->bad && !*nomem; r++) {
        struct cell *row = table_add_row(t);
        if (!row) {
            *nomem = true;
            return NULL;
        }
        for (uint32_t k = 0; k < ncols && !c->bad && !*nomem; k++)
            get_cell(c, compact, a, nomem, &row[k]);
    }
    return c->bad || *nomem ? NULL : t;
}

/* One analysis' tables from c (what put_tables wrote). */
static int read_list(struct summary_file_cur *c, bool compact, const char *name, struct arena *a,
                     int *semantics, int *analysis, struct table_list *l, struct err *e)
{
    uint32_t sem = (uint32_t)get_n(c, compact, false, 1);
    uint32_t an = (uint32_t)get_n(c, compact, false, UINT32_MAX);
    uint32_t n = (uint32_t)get_n(c, compact, false, TABLE_LIST_MAX);
    bool nomem = false;
    if (c->bad)
        return err_set(e, ERR_PARSE, "%s: malformed tables section", name);
    *semantics = (int)sem;
    *analysis = (int)an;
    for (uint32_t i = 0; i < n; i++) {
        struct table *t = get_table(c, compact, a, &nomem);
        if (nomem)
            return err_set(e, ERR_NOMEM, "%s: out of memory", name);
        if (!t || table_list_add(l, t))
            return err_set(e, ERR_PARSE, "%s: malformed table %u of a tables section", name, i);
    }
    return 0;
}

static int read_tables(const struct summary_file_section *s, bool compact, bool pair, int want,
                       const char *name, struct arena *a, int *semantics, int *analysis,
                       struct table_list *l, struct err *e)
{
    struct summary_file_cur c;
    summary_file_cur_init(&c, s);
    if (!pair) {
        int rc = read_list(&c, compact, name, a, semantics, analysis, l, e);
        if (rc == 0 && c.p != c.end)
            return err_set(e, ERR_PARSE, "%s: bytes after the tables of a section", name);
        return rc;
    }
    struct table_list both[2] = {{.count = 0}, {.count = 0}};   // htx's, then HTA's
    int sem[2], an[2];
    int rc = read_list(&c, compact, name, a, &sem[0], &an[0], &both[0], e);
    if (rc == 0)
        rc = read_list(&c, compact, name, a, &sem[1], &an[1], &both[1], e);
    if (rc == 0 && (sem[0] != 0 || sem[1] != 1 || an[0] != an[1]))
        rc = err_set(e, ERR_PARSE, "%s: malformed pair of tables", name);
    if (rc == 0 && c.p != c.end)
        rc = err_set(e, ERR_PARSE, "%s: bytes after the tables of a section", name);
    const struct table_list *chosen = &both[want == 1];
    for (size_t i = 0; rc == 0 && i < chosen->count; i++)
        if (table_list_add(l, chosen->tables[i]))
            rc = err_set(e, ERR_PARSE, "%s: too many tables", name);
    *semantics = want == 1;
    *analysis = an[0];
    return rc;
}

int summary_file_tables_read(const struct summary_file_section *s, const char *name, struct arena *a, int want,
                             int *semantics, int *analysis, struct table_list *l, struct err *e)
{
    if (s->kind == SUMMARY_FILE_TABLES)
        return read_tables(s, false, false, want, name, a, semantics, analysis, l, e);
    uint8_t *raw;
    struct summary_file_section plain;
    int rc = summary_file_inflate_section(s, name, "tables", UINT64_MAX, &raw, &plain, e);
    if (rc)
        return rc;
    rc = read_tables(&plain, s->kind != SUMMARY_FILE_TABLES_Z, s->kind == SUMMARY_FILE_TABLES_PAIR, want, name,
                     a, semantics, analysis, l, e);
    free(raw);
    return rc;
}

void summary_file_rank_write(struct summary_file_writer *w, const struct summary_file_rank *r)
{
    summary_file_begin_section(w, SUMMARY_FILE_RANK);
    summary_file_put_i64(w, r->rank);
    summary_file_put_u64(w, r->events);
    summary_file_put_str(w, r->path, strlen(r->path));
    summary_file_end_section(w);
}

static int read_rank_section(const struct summary_file_section *s, const char *name,
                             struct summary_file_rank *r, struct err *e)
{
    struct summary_file_cur c;
    summary_file_cur_init(&c, s);
    r->rank = summary_file_get_i64(&c);
    r->events = summary_file_get_u64(&c);
    size_t n;
    const char *p = summary_file_get_str(&c, &n);
    if (c.bad || n >= sizeof r->path || c.p != c.end || memchr(p, 0, n))
        return err_set(e, ERR_PARSE, "%s: malformed rank section", name);
    memcpy(r->path, p, n);
    r->path[n] = 0;
    return 0;
}

int summary_file_rank_read(const struct summary_file_doc *doc, const char *name, struct summary_file_rank *r,
                           struct err *e)
{
    const struct summary_file_section *s = summary_file_find(doc, SUMMARY_FILE_RANK);
    if (!s)
        return err_set(e, ERR_PARSE, "%s: no rank section", name);
    return read_rank_section(s, name, r, e);
}

int summary_file_rank_peek(const char *path, struct summary_file_rank *r, struct err *e)
{
    uint8_t *data;
    uint64_t len;
    int rc = summary_file_peek_section(path, SUMMARY_FILE_RANK, &data, &len, e);
    if (rc == ERR_EMPTY)
        return err_set(e, ERR_PARSE, "%s: no rank section", path);
    if (rc)
        return rc;
    struct summary_file_section s = {SUMMARY_FILE_RANK, data, len, 0};
    rc = read_rank_section(&s, path, r, e);
    free(data);
    return rc;
}

void summary_file_trust_write(struct summary_file_writer *w, const struct trust_rank *t)
{
    summary_file_begin_section(w, SUMMARY_FILE_TRUST);
    summary_file_put_i64(w, t->world_size);
    summary_file_put_u32(w, t->has_start);
    summary_file_put_i64(w, t->start_ns);
    summary_file_put_u64(w, t->dropped);
    summary_file_put_u64(w, t->repaired);
    summary_file_put_u64(w, t->overlapping);
    size_t npgs = t->npgs < TRACE_MAX_PGS ? t->npgs : TRACE_MAX_PGS;
    summary_file_put_u32(w, (uint32_t)npgs);
    for (size_t k = 0; k < npgs; k++) {
        summary_file_put_str(w, t->pgs[k].name, strnlen(t->pgs[k].name, sizeof t->pgs[k].name));
        summary_file_put_i64(w, t->pgs[k].size);
        summary_file_put_u64(w, t->pgs[k].ranks_hash);
    }
    // Appended: a reader that predates them stops before.
    summary_file_put_u64(w, t->graph_kernels);
    summary_file_put_u64(w, t->graph_launches);
    summary_file_end_section(w);
}

int summary_file_trust_read(const struct summary_file_doc *doc, const char *name, struct trust_rank *t,
                            struct trace_pg *pgs, bool *found, struct err *e)
{
    memset(t, 0, sizeof *t);
    t->world_size = -1;
    t->pgs = pgs;
    const struct summary_file_section *s = summary_file_find(doc, SUMMARY_FILE_TRUST);
    *found = s != NULL;
    if (!s)
        return 0;
    struct summary_file_cur c;
    summary_file_cur_init(&c, s);
    t->world_size = summary_file_get_i64(&c);
    t->has_start = summary_file_get_u32(&c) != 0;
    t->start_ns = summary_file_get_i64(&c);
    t->dropped = summary_file_get_u64(&c);
    t->repaired = summary_file_get_u64(&c);
    t->overlapping = summary_file_get_u64(&c);
    uint32_t npgs = summary_file_get_u32(&c);
    if (npgs > TRACE_MAX_PGS)
        c.bad = 1;
    for (uint32_t k = 0; k < npgs && !c.bad; k++) {
        size_t n;
        const char *p = summary_file_get_str(&c, &n);
        if (c.bad || n >= sizeof pgs[k].name || memchr(p, 0, n))
            c.bad = 1;
        else {
            memcpy(pgs[k].name, p, n);
            pgs[k].name[n] = '\0';
        }
        pgs[k].size = summary_file_get_i64(&c);
        pgs[k].ranks_hash = summary_file_get_u64(&c);
    }
    if (!c.bad && c.end - c.p >= 16) {   // absent from summaries that predate them
        t->graph_kernels = summary_file_get_u64(&c);
        t->graph_launches = summary_file_get_u64(&c);
    }
    if (c.bad) {
        *found = false;
        return err_set(e, ERR_PARSE, "%s: malformed trust section", name);
    }
    t->npgs = npgs;
    return 0;
}
