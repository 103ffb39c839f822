#include "config.h"
#include "breakdown_test.h"

#include <stdio.h>
#include <string.h>

static char doc_buf[65536];

struct model *bd_load_with(const char *events, const struct semantics *sem)
{
    int n = snprintf(doc_buf, sizeof doc_buf,
                     "{\"distributedInfo\": {\"rank\": 0}, \"traceEvents\": [%s"
                     "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":0,\"args\":{}}]}",
                     events);
    ck_assert_int_lt(n, (int)sizeof doc_buf);
    const char *names[] = {"rank0.json"};
    const void *bufs[] = {doc_buf};
    size_t lens[] = {(size_t)n};
    struct err e = {0, ""};
    struct model *m = model_load_buffers(names, bufs, lens, 1, sem, &e);
    ck_assert_msg(m != NULL, "load failed: %s", e.msg);
    return m;
}

struct model *bd_load(const char *events, enum semantics_mode mode)
{
    struct semantics sem;
    semantics_init(&sem, mode);
    return bd_load_with(events, &sem);
}

struct arena bd_scratch;

struct table *bd_run(analysis_fn fn, const struct model *m, const struct analysis_opts *o,
                     const char *name)
{
    struct analysis_opts def;
    if (!o) {
        analysis_opts_default(&def);
        o = &def;
    }
    struct table_list out = {{NULL}, 0};
    struct err e = {0, ""};
    ck_assert_msg(fn(m, o, &bd_scratch, &out, &e) == 0, "analysis failed: %s", e.msg);
    for (size_t i = 0; i < out.count; i++)
        if (strcmp(out.tables[i]->name, name) == 0)
            return out.tables[i];
    ck_abort_msg("no table %s", name);
    return NULL;
}

double bd_num(const struct table *t, size_t row, const char *col)
{
    int c = table_col_index(t, col);
    ck_assert_msg(c >= 0, "no column %s", col);
    ck_assert_uint_lt(row, t->nrows);
    return cell_as_double(table_cell(t, row, (size_t)c));
}

const char *bd_str(const struct table *t, size_t row, const char *col)
{
    int c = table_col_index(t, col);
    ck_assert_msg(c >= 0, "no column %s", col);
    ck_assert_uint_lt(row, t->nrows);
    const struct cell *cell = table_cell(t, row, (size_t)c);
    ck_assert_int_eq(cell->type, CELL_STR);
    return cell->v.s;
}

void bd_setup(void)
{
    arena_init(&bd_scratch, 1 << 16);
}

void bd_teardown(void)
{
    arena_fini(&bd_scratch);
}

