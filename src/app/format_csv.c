#include "config.h"
#include "app/format.h"

#include <math.h>
#include <string.h>

/* CSV per RFC 4180: CRLF line ends, a field is quoted when it holds a comma
 * or a quote, and quotes inside are doubled. Control characters (C0, DEL,
 * C1) and invalid UTF-8 are always escaped as on a terminal (\n, \xNN,
 * \u{NN}), whether or not stdout is one: a CSV piped through head still
 * lands on a terminal, so no raw control byte is ever written. Numbers use the same
 * round-trip text as JSON; NaN and NULL are empty fields and booleans are
 * True/False, as pandas' to_csv writes them. Like the JSON writer, it uses
 * unlocked stdio: one thread writes a FILE at a time. */

/* Writes s with quotes doubled and control characters escaped. */
static void write_escaped_field(FILE *f, const char *s)
{
    while (*s) {
        uint32_t cp = 0;
        size_t n = utf8_decode(s, SIZE_MAX, &cp);
        size_t take = n ? n : 1;
        if (n && cp == '"') {
            fputs_unlocked("\"\"", f);
        } else if (n && !utf8_needs_escape(cp)) {
            fwrite_unlocked(s, 1, n, f);
        } else {
            char piece[5] = {0};
            memcpy(piece, s, take);
            format_write_escaped(f, piece);
        }
        s += take;
    }
}

void format_csv_field(FILE *f, const char *s)
{
    /* Escaped text has no CR or LF left, so only commas and quotes matter. */
    bool quote = strpbrk(s, ",\"") != NULL;
    if (quote)
        putc_unlocked('"', f);
    write_escaped_field(f, s);
    if (quote)
        putc_unlocked('"', f);
}

static void write_cell(FILE *f, const struct cell *c)
{
    char buf[32];
    switch (c->type) {
    case CELL_INT:
        format_int(f, (long long)c->v.i);
        break;
    case CELL_DOUBLE:
        if (isfinite(c->v.d)) {
            format_double_roundtrip(c->v.d, buf);
            fputs_unlocked(buf, f);
        } else if (isinf(c->v.d)) {
            fputs_unlocked(c->v.d > 0 ? "inf" : "-inf", f);
        }
        break;
    case CELL_STR:
        format_csv_field(f, c->v.s);
        break;
    case CELL_BOOL:
        fputs_unlocked(c->v.b ? "True" : "False", f);
        break;
    default:
        break;
    }
}

int format_table_csv(FILE *f, const struct table *t, const struct format_opts *o)
{
    (void)o;   /* CSV has no options: its escaping does not depend on the terminal */
    for (size_t c = 0; c < t->ncols; c++) {
        if (c)
            putc_unlocked(',', f);
        format_csv_field(f, t->cols[c].name);
    }
    fputs_unlocked("\r\n", f);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            if (c)
                putc_unlocked(',', f);
            write_cell(f, table_cell(t, r, c));
        }
        fputs_unlocked("\r\n", f);
    }
    return ferror(f) ? -1 : 0;
}
