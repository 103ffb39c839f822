#ifndef HTX_TESTS_CHECK_APP_H
#define HTX_TESTS_CHECK_APP_H

#include <check.h>
#include <stdio.h>

/* Shared by the cli tests (check_cli*.c). */

/* Output written to a memory stream: capture_open, write to c->f, then
 * capture_close gives the text (the caller frees c->buf). */
struct capture {
    char *buf;
    size_t len;
    FILE *f;
};
void capture_open(struct capture *c);
const char *capture_close(struct capture *c);

/* A two-row table (a name column, a us column, a percentage, a count) with
 * a quote, a comma, CR LF, NaN and NULL cells, in a. */
struct arena;
struct table *sample_table(struct arena *a);

/* The writers: text, CSV, JSON and UTF-8 handling (check_cli_format.c). */
Suite *cli_format_suite(void);

#endif
