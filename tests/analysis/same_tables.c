#include "config.h"
#include "same_tables.h"

#include <check.h>
#include <string.h>

void assert_same_tables(const struct table_list *a, const struct table_list *b)
{
    ck_assert_uint_eq(a->count, b->count);
    for (size_t i = 0; i < a->count; i++) {
        const struct table *x = a->tables[i], *y = b->tables[i];
        ck_assert_str_eq(x->name, y->name);
        ck_assert_str_eq(x->title, y->title);
        ck_assert_str_eq(x->note ? x->note : "(none)", y->note ? y->note : "(none)");
        ck_assert_uint_eq(x->ncols, y->ncols);
        ck_assert_uint_eq(x->nrows, y->nrows);
        for (size_t c = 0; c < x->ncols; c++) {
            ck_assert_str_eq(x->cols[c].name, y->cols[c].name);
            ck_assert_uint_eq(x->cols[c].flags, y->cols[c].flags);
        }
        for (size_t k = 0; k < x->nrows * x->ncols; k++) {
            ck_assert_int_eq(x->cells[k].type, y->cells[k].type);
            if (x->cells[k].type == CELL_STR)
                ck_assert_str_eq(x->cells[k].v.s, y->cells[k].v.s);
            else if (x->cells[k].type != CELL_NULL)
                ck_assert_int_eq(memcmp(&x->cells[k].v, &y->cells[k].v, 8), 0);
        }
    }
}
