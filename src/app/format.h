#ifndef HTX_APP_FORMAT_H
#define HTX_APP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/table.h"
#include "util/arena.h"
#include "util/utf8.h"

/* Writers that turn analysis tables into text, CSV (RFC 4180) or JSON.
 * They write to a caller-owned FILE (the CLI gives them a memory stream and
 * copies it to stdout only when everything succeeded, so an error never
 * leaves half a report on stdout). They borrow every argument until return
 * and allocate nothing that outlives the call. */

struct format_opts {
    bool ascii;            /* '#' bars and "..." instead of block characters and '…' */
    bool short_names;      /* text: shorten kernel names (spec §2.2) */
    int bar_width;         /* text: cells per bar; 0 = no bars */
    size_t max_text_width; /* text: truncate longer strings; 0 = no limit */
};

void format_opts_default(struct format_opts *o);

/* ---- numbers and strings shared by the writers ---- */

/* Shortest decimal text that reads back as exactly x ("%.15g" .. "%.17g").
 * x must be finite. Writes at most 32 bytes into out. */
void format_double_roundtrip(double x, char out[32]);
/* The same text; returns its length. */
size_t format_double_text(double x, char out[32]);

/* v in decimal, as printf's %lld and %llu write it, with unlocked stdio:
 * the caller's FILE is written by one thread at a time. */
void format_int(FILE *f, long long v);
void format_uint(FILE *f, unsigned long long v);
/* The same text into out (not terminated); returns its length (at most 20). */
size_t format_int_text(long long v, char out[24]);

/* Writes s for a terminal: control characters (C0, DEL, C1), the
 * bidirectional controls (utf8_needs_escape) and bytes that are not valid
 * UTF-8 become \n, \t, \xNN or \u{NN} escapes, so no escape sequence or
 * reordering from a trace ever reaches the terminal raw. */
void format_write_escaped(FILE *f, const char *s);

/* Display cells of s as format_write_escaped would print it (one per code
 * point, escapes counted by their length). */
size_t format_display_width(const char *s);

/* ---- text ---- */

/* Writes one table: title, aligned header with units, rows, the note. */
int format_table_text(FILE *f, const struct table *t, const struct format_opts *o);

/* A bar for v in [0, full] (full = 100 for percentages, 1 for ratios), width
 * cells wide, padded with spaces; NaN and negative values give spaces.
 * Writes into out (size outsz, always terminated). */
void format_bar(double v, double full, int width, bool ascii, char *out, size_t outsz);

/* One cell of a strip chart: v on [0, full] as one of eight levels, the
 * block characters \u2581..\u2588 (ascii: ".:-=+*#@"); NaN, 0 and below
 * are the lowest. A static string. */
const char *format_level(double v, double full, bool ascii);

/* The utilization table (analysis/tiles.h: a row per rank and bucket) as a
 * row per rank, for people: its mean busy share and a strip of its
 * buckets' (format_level), so 1024 ranks read as 1024 lines. The new table
 * is in a; NULL on ENOMEM or when t is not that table
 * (format_is_utilization). */
bool format_is_utilization(const struct table *t);
struct table *format_utilization_strips(const struct table *t, bool ascii, struct arena *a);

/* ---- CSV ---- */

/* Header row then data rows, CRLF line ends, fields quoted when they hold a
 * comma or quote; NaN and NULL are empty fields (as pandas writes). Control
 * characters and invalid UTF-8 are always escaped as format_write_escaped
 * does (so CR and LF inside a field become \r and \n). */
int format_table_csv(FILE *f, const struct table *t, const struct format_opts *o);

/* Writes one CSV field (quoted when needed, controls escaped). */
void format_csv_field(FILE *f, const char *s);

/* ---- JSON ---- */

/* A small streaming JSON writer: pretty-printed up to depth `compact_depth`,
 * single-line below (one table row per line). Hand-rolled rather than cJSON's
 * printer because cJSON builds the whole document in memory first (a
 * report's launch table has a row per kernel launch: millions) and prints
 * doubles in its own format, while HTA parity needs the shortest
 * round-tripping text of each number (format_double_roundtrip). Keys and strings are escaped
 * (control characters as \u00XX; invalid UTF-8 bytes become U+FFFD), NaN and
 * infinities become null, so the output is always valid JSON. The writer
 * borrows f from jsonw_init to the last call and allocates nothing. */
#define JSONW_MAX_DEPTH 32

struct jsonw {
    FILE *f;
    int depth;
    int compact_depth;
    bool first[JSONW_MAX_DEPTH];
    bool after_key;
};

void jsonw_init(struct jsonw *w, FILE *f, int compact_depth);
void jsonw_begin_object(struct jsonw *w);
void jsonw_end_object(struct jsonw *w);
void jsonw_begin_array(struct jsonw *w);
void jsonw_end_array(struct jsonw *w);
void jsonw_key(struct jsonw *w, const char *key);
void jsonw_string(struct jsonw *w, const char *s);
void jsonw_int(struct jsonw *w, long long v);
void jsonw_uint(struct jsonw *w, unsigned long long v);
void jsonw_double(struct jsonw *w, double v);
void jsonw_bool(struct jsonw *w, bool v);
void jsonw_null(struct jsonw *w);
/* Ends the document with a newline. */
void jsonw_finish(struct jsonw *w);

struct rank_model;
struct failed_file;
/* The keys of one "inputs" entry (path, rank, file, events), written into
 * the object the caller has open. Borrows r until return. */
void jsonw_input_fields(struct jsonw *w, const struct rank_model *r);
/* The same from its parts (a rank read from a summary). */
void jsonw_input_record(struct jsonw *w, const char *path, int64_t rank, uint64_t events);
/* The keys of one "failed" entry (path, error) into the open object. */
void jsonw_failed_fields(struct jsonw *w, const struct failed_file *f);

/* Writes s as a JSON string literal (with quotes). */
void format_json_string(FILE *f, const char *s);

/* Writes the rows of t as a JSON array of objects keyed by column name. */
void format_table_json_rows(struct jsonw *w, const struct table *t);

/* The one cell formatter of text tables (the TUI's and text reports).
 * decimals: fixed places, or -1 for the views' adaptive rule (whole numbers
 * without decimals, else 2 decimals, 3 significant digits below 0.01); nan
 * and null: the text of NaN and of an empty cell. The two front ends differ
 * only in those: text reports print NaN as pandas prints a DataFrame
 * ("NaN") and an empty cell as "-"; the views and CSV leave both blank.
 * Writes into buf (always terminated). */
struct cell_style {
    int decimals;
    const char *nan, *null;
};
extern const struct cell_style FORMAT_CELL_VIEW;
void format_cell(const struct cell *c, const struct cell_style *st, char *buf, size_t n);

#endif
