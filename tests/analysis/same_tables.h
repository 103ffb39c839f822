#ifndef HTX_TESTS_SAME_TABLES_H
#define HTX_TESTS_SAME_TABLES_H

#include "analysis/table.h"

/* Fails the running Check test unless a and b hold the same tables: names,
 * titles, notes, columns, and every cell bit for bit (a stored table read
 * back, an analysis made two ways). */
void assert_same_tables(const struct table_list *a, const struct table_list *b);

#endif
