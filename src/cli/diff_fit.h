#ifndef HTX_CLI_DIFF_FIT_H
#define HTX_CLI_DIFF_FIT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/table.h"
#include "app/format.h"

/* The text diff for a terminal: its tables fitted to the terminal's width. */

#define DIFF_TEXT_DEFAULT_WIDTH 100
#define DIFF_TEXT_MIN_NAME 16

/* COLUMNS when it is a number from 40 to 1000, else the terminal's width
 * when stdout is one, else DIFF_TEXT_DEFAULT_WIDTH. */
int diff_text_width(void);

/* Writes one diff table as text. Under htx the compare tables keep the
 * columns that say what changed (counts, totals, Δ total, the two markers,
 * Δ per call) under short headers, and names are cut (never below
 * DIFF_TEXT_MIN_NAME cells) so that lines fit width; under hta the table is
 * written whole, as format_table_text writes any table. 0 or -1. */
int diff_write_text_table(FILE *f, const struct table *t, const struct format_opts *fo, bool hta,
                          int width);

#endif
