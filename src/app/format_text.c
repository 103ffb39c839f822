#include "config.h"
#include "app/format.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/classify.h"
#include "analysis/tiles.h"

/* Aligned text tables for people: numbers right-aligned with as many
 * decimals as the column needs (at most 3), strings left-aligned and
 * escaped, units in the headers, and a bar after every percentage or ratio.
 * Two passes over the rows (widths, then output) so no cell text is kept. */

#define TEXT_DECIMALS_MAX 3
#define CELL_TEXT_MAX 1100

static const char *const eighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};

void format_bar(double v, double full, int width, bool ascii, char *out, size_t outsz)
{
    size_t used = 0;
    out[0] = '\0';
    if (width <= 0 || outsz == 0)
        return;
    double frac = isnan(v) || v <= 0 || full <= 0 ? 0 : (v >= full ? 1 : v / full);
    long units = ascii ? lround(frac * width) : lround(frac * width * 8);
    int cells = 0;
    for (; cells < width; cells++) {
        const char *piece;
        if (ascii)
            piece = units > cells ? "#" : " ";
        else if (units >= (long)(cells + 1) * 8)
            piece = "█";
        else if (units > (long)cells * 8)
            piece = eighths[units - (long)cells * 8];
        else
            piece = " ";
        size_t n = strlen(piece);
        if (used + n + 1 > outsz)
            break;
        memcpy(out + used, piece, n + 1);
        used += n;
    }
}

const char *format_level(double v, double full, bool ascii)
{
    static const char *const blocks[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                         "\u2585", "\u2586", "\u2587", "\u2588"};
    static const char *const shades[] = {".", ":", "-", "=", "+", "*", "#", "@"};
    int level = full > 0 && v > 0 ? (int)(v / full * 7.999) : 0;
    level = level < 0 ? 0 : level > 7 ? 7 : level;
    return ascii ? shades[level] : blocks[level];
}

bool format_is_utilization(const struct table *t)
{
    return strcmp(t->name, "gpu_utilization_over_time") == 0 &&
           table_col_index(t, "rank") >= 0 && table_col_index(t, "busy_pctg") >= 0;
}

struct table *format_utilization_strips(const struct table *t, bool ascii, struct arena *a)
{
    int rc_col = table_col_index(t, "rank"), busy_col = table_col_index(t, "busy_pctg");
    if (rc_col < 0 || busy_col < 0)
        return NULL;
    static const struct table_col cols[] = {
        {"rank", NULL, COL_KEY},
        {"busy_pctg", "%", COL_PERCENT},
        {"busy over time", NULL, 0},
    };
    struct table *out = table_new(a, t->name, NULL, cols, sizeof cols / sizeof cols[0]);
    if (!out)
        return NULL;
    char title[256];
    snprintf(title, sizeof title, "%s: busy share by bucket, one line per rank",
             t->title ? t->title : t->name);
    out->title = arena_strndup(a, title, strlen(title));
    out->note = t->note;
    char strip[TILES_TABLE_BUCKETS * 4 + 8];
    for (size_t i = 0; i < t->nrows && out->title;) {
        int64_t rank = table_cell(t, i, (size_t)rc_col)->v.i;
        size_t len = 0, n = 0;
        double sum = 0;
        strip[0] = 0;
        for (; i < t->nrows && table_cell(t, i, (size_t)rc_col)->v.i == rank; i++, n++) {
            double v = cell_as_double(table_cell(t, i, (size_t)busy_col));
            sum += v;
            const char *g = format_level(v, 100, ascii);
            size_t gl = strlen(g);
            if (len + gl < sizeof strip) {
                memcpy(strip + len, g, gl + 1);
                len += gl;
            }
        }
        struct cell *row = table_add_row(out);
        if (!row)
            return NULL;
        row[0] = cell_int(rank);
        row[1] = cell_double(sum / (double)n);
        row[2] = cell_str(out, strip);
        if (!row[2].v.s)
            return NULL;
    }
    return out->title ? out : NULL;
}

struct col_layout {
    bool numeric;          /* right-aligned */
    bool shorten;          /* kernel names: --short-names */
    int decimals;          /* for CELL_DOUBLE */
    double bar_full;       /* 100, 1, or 0 for no bar */
    size_t width;          /* display cells of the widest cell or header */
    char header[160];
};

static int decimals_needed(double x)
{
    if (!isfinite(x))
        return 0;
    for (int k = 0; k < TEXT_DECIMALS_MAX; k++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*f", k, x);
        if (fabs(strtod(buf, NULL) - x) <= 1e-9 * fmax(1.0, fabs(x)))
            return k;
    }
    return TEXT_DECIMALS_MAX;
}

static bool is_name_column(const char *name)
{
    size_t n = strlen(name);
    return strcmp(name, "name") == 0 || (n > 5 && strcmp(name + n - 5, "_name") == 0);
}

/* The text of a cell before escaping (strings point into the table). */
static const char *cell_text(const struct cell *c, const struct col_layout *l,
                             const struct format_opts *o, char *buf, size_t bufsz)
{
    if (c->type == CELL_STR) {
        if (l->shorten && o->short_names) {
            shorten_name(c->v.s, buf, bufsz);
            return buf;
        }
        return c->v.s;
    }
    struct cell_style st = {l->decimals, "NaN", "-"};
    format_cell(c, &st, buf, bufsz);
    return buf;
}

static size_t text_width(const char *s, const struct format_opts *o)
{
    size_t w = format_display_width(s);
    return o->max_text_width && w > o->max_text_width ? o->max_text_width : w;
}

static void layout_column(const struct table *t, size_t c, const struct format_opts *o,
                          struct col_layout *l)
{
    const struct table_col *col = &t->cols[c];
    memset(l, 0, sizeof *l);
    l->numeric = true;
    l->shorten = is_name_column(col->name);
    if (o->bar_width > 0 && (col->flags & (COL_PERCENT | COL_RATIO)))
        l->bar_full = col->flags & COL_PERCENT ? 100.0 : 1.0;
    if (col->unit && col->unit[0] && !strstr(col->name, col->unit))
        snprintf(l->header, sizeof l->header, "%s (%s)", col->name, col->unit);
    else
        snprintf(l->header, sizeof l->header, "%s", col->name);
    for (size_t r = 0; r < t->nrows; r++) {
        const struct cell *cell = table_cell(t, r, c);
        if (cell->type == CELL_STR || cell->type == CELL_BOOL)
            l->numeric = false;
        if (cell->type == CELL_DOUBLE && decimals_needed(cell->v.d) > l->decimals)
            l->decimals = decimals_needed(cell->v.d);
    }
    char buf[CELL_TEXT_MAX];
    l->width = text_width(l->header, o);
    for (size_t r = 0; r < t->nrows; r++) {
        size_t w = text_width(cell_text(table_cell(t, r, c), l, o, buf, sizeof buf), o);
        if (l->bar_full > 0)
            w += 1 + (size_t)o->bar_width;
        if (w > l->width)
            l->width = w;
    }
}

static void pad(FILE *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fputc(' ', f);
}

/* Writes s escaped, cut to at most max cells with an ellipsis; returns the
 * cells written. */
static size_t write_clipped(FILE *f, const char *s, size_t max, bool ascii)
{
    size_t w = format_display_width(s);
    if (max == 0 || w <= max) {
        format_write_escaped(f, s);
        return w;
    }
    const char *ell = ascii ? "..." : "…";
    size_t ell_w = ascii ? 3 : 1, used = 0;
    while (*s) {
        uint32_t cp;
        size_t n = utf8_decode(s, SIZE_MAX, &cp);
        char piece[5] = {0};
        memcpy(piece, s, n ? n : 1);
        size_t pw = format_display_width(piece);
        if (used + pw + ell_w > max)
            break;
        format_write_escaped(f, piece);
        used += pw;
        s += n ? n : 1;
    }
    fputs(ell, f);
    return used + ell_w;
}

static void write_field(FILE *f, const char *text, const struct col_layout *l, bool last,
                        const struct format_opts *o)
{
    size_t w = format_display_width(text);
    if (o->max_text_width && w > o->max_text_width)
        w = o->max_text_width;
    if (l->numeric && l->bar_full == 0)
        pad(f, l->width - w);
    write_clipped(f, text, o->max_text_width, o->ascii);
    if (!l->numeric && !last)
        pad(f, l->width - w);
}

static void write_row(FILE *f, const struct table *t, size_t r, const struct col_layout *ls,
                      const struct format_opts *o)
{
    char buf[CELL_TEXT_MAX], bar[128];
    for (size_t c = 0; c < t->ncols; c++) {
        const struct col_layout *l = &ls[c];
        bool last = c + 1 == t->ncols;
        if (c)
            fputs("  ", f);
        const struct cell *cell = table_cell(t, r, c);
        const char *text = cell_text(cell, l, o, buf, sizeof buf);
        if (l->bar_full == 0) {
            write_field(f, text, l, last, o);
            continue;
        }
        /* the width was measured clipped to max_text_width: a longer
         * number (1e300 as %.2f) is written whole, unpadded */
        size_t numw = l->width - 1 - (size_t)o->bar_width, tw = format_display_width(text);
        pad(f, numw > tw ? numw - tw : 0);
        format_write_escaped(f, text);
        format_bar(cell_as_double(cell), l->bar_full, o->bar_width, o->ascii, bar, sizeof bar);
        if (last) {
            size_t n = strlen(bar);
            while (n > 0 && bar[n - 1] == ' ')
                bar[--n] = '\0';
        }
        if (bar[0] || !last) {
            fputc(' ', f);
            fputs(bar, f);
        }
    }
    fputc('\n', f);
}

static void write_header(FILE *f, const struct table *t, const struct col_layout *ls,
                         const struct format_opts *o)
{
    for (size_t c = 0; c < t->ncols; c++) {
        const struct col_layout *l = &ls[c];
        size_t w = text_width(l->header, o);
        if (c)
            fputs("  ", f);
        bool left = !l->numeric || l->bar_full > 0;
        if (!left)
            pad(f, l->width - w);
        write_clipped(f, l->header, o->max_text_width, o->ascii);
        if (left && c + 1 < t->ncols)
            pad(f, l->width - w);
    }
    fputc('\n', f);
}

int format_table_text(FILE *f, const struct table *t, const struct format_opts *o)
{
    format_write_escaped(f, t->title ? t->title : t->name);
    fputc('\n', f);
    struct col_layout *ls = calloc(t->ncols ? t->ncols : 1, sizeof *ls);
    if (!ls)
        return -1;
    for (size_t c = 0; c < t->ncols; c++)
        layout_column(t, c, o, &ls[c]);
    write_header(f, t, ls, o);
    for (size_t r = 0; r < t->nrows; r++)
        write_row(f, t, r, ls, o);
    free(ls);
    if (t->nrows == 0)
        fputs("(no rows)\n", f);
    if (t->note && t->note[0]) {
        fputs("note: ", f);
        format_write_escaped(f, t->note);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
