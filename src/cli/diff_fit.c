#include "config.h"
#include "cli/diff_fit.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/arena.h"

/* The text diff of HTA's columns plus the means is over 300 columns wide.
 * For reading it in a terminal, the compare tables keep the columns that
 * answer "what changed" under short headers, and the names are cut so that
 * every line fits the width. CSV and JSON keep every column. */

int diff_text_width(void)
{
    const char *cols = getenv("COLUMNS");
    if (cols && cols[0]) {
        char *end = NULL;
        long v = strtol(cols, &end, 10);
        if (end && *end == '\0' && v >= 40 && v <= 1000)
            return (int)v;
    }
    struct winsize ws;
    if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
        return ws.ws_col;
    return DIFF_TEXT_DEFAULT_WIDTH;
}

/* The columns kept, by HTA's name, and their short text headers. */
static const struct {
    const char *name, *header;
} kept[] = {
    {"control_rank", "ctl rank"},
    {"test_rank", "test rank"},
    {"name", "name"},
    {"short_name", "short_name"},
    {"Control_counts", "ctl calls"},
    {"Test_counts", "test calls"},
    {"Control_total_duration", "ctl"},
    {"Test_total_duration", "test"},
    {"diff_duration", "Δ"},
    {"counts_change_categories", "calls"},
    {"diff_mean_change", "Δ/call"},
    {"time_change_categories", "time"},
};
#define NKEPT (sizeof kept / sizeof kept[0])

/* The legend of the narrowed table's markers. */
static const char LEGEND[] =
    "calls (HTA's category): + more calls, - fewer, = same count; time: slower/faster = "
    "time per call (Δ/call) changed by more than 10%, = within 10%";

/* with_counts: keep the two call-count columns (dropped when even cut names
 * do not make the lines fit). */
static struct table *narrow(const struct table *t, bool with_counts, struct arena *a)
{
    struct table_col cols[NKEPT];
    int src[NKEPT];
    size_t n = 0;
    for (size_t k = 0; k < NKEPT; k++) {
        int c = table_col_index(t, kept[k].name);
        bool count_col = strcmp(kept[k].header, "ctl calls") == 0 ||
                         strcmp(kept[k].header, "test calls") == 0;
        if (c < 0 || (count_col && !with_counts))
            continue;
        cols[n] = t->cols[c];
        cols[n].name = kept[k].header;
        src[n++] = c;
    }
    struct table *out = table_new(a, t->name, t->title, cols, n);
    for (size_t r = 0; out && r < t->nrows; r++) {
        struct cell *row = table_add_row(out);
        if (!row)
            return NULL;
        for (size_t c = 0; c < n; c++) {
            const struct cell *s = table_cell(t, r, (size_t)src[c]);
            row[c] = s->type == CELL_STR ? cell_str(out, s->v.s) : *s;
        }
    }
    if (out)
        table_set_note(out, "%s", t->nrows ? LEGEND : t->note ? t->note : "");
    return out;
}

/* Display width of the widest line of text[0..len), notes excepted (they
 * are prose that the terminal wraps). */
static size_t widest_line(char *text, size_t len)
{
    size_t best = 0;
    char *p = text, *end = text + len;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *eol = nl ? nl : end;
        char save = *eol;
        *eol = '\0';
        size_t w = strncmp(p, "note: ", 6) == 0 ? 0 : format_display_width(p);
        *eol = save;
        if (w > best)
            best = w;
        p = nl ? nl + 1 : end;
    }
    return best;
}

static int render(const struct table *t, const struct format_opts *fo, char **buf, size_t *len)
{
    *buf = NULL;
    FILE *m = open_memstream(buf, len);
    if (!m)
        return -1;
    int rc = format_table_text(m, t, fo) < 0 ? -1 : 0;
    if (fclose(m) != 0)
        rc = -1;
    return rc;
}

/* The widest name cell (or header) of t's key column named `name`. */
static size_t name_width(const struct table *t)
{
    size_t w = 0;
    for (size_t c = 0; c < t->ncols; c++) {
        if (strcmp(t->cols[c].name, "name") != 0 && strcmp(t->cols[c].name, "short_name") != 0)
            continue;
        for (size_t r = 0; r < t->nrows; r++) {
            const struct cell *s = table_cell(t, r, c);
            size_t x = s->type == CELL_STR && s->v.s ? format_display_width(s->v.s) : 0;
            w = x > w ? x : w;
        }
    }
    return w;
}

/* Renders t so that its lines fit `width` when cutting names (down to
 * DIFF_TEXT_MIN_NAME cells) can do it; *fits says whether they do. The
 * caller frees *buf. */
static int render_fitted(const struct table *t, const struct format_opts *fo, int width,
                         char **buf, size_t *len, bool *fits)
{
    struct format_opts o = *fo;
    int rc = render(t, &o, buf, len);
    size_t wide = rc == 0 ? widest_line(*buf, *len) : 0;
    if (rc == 0 && wide > (size_t)width) {
        size_t names = name_width(t), excess = wide - (size_t)width;
        if (o.max_text_width && names > o.max_text_width)
            names = o.max_text_width;  /* already cut that far */
        size_t keep = names > excess + DIFF_TEXT_MIN_NAME ? names - excess : DIFF_TEXT_MIN_NAME;
        if (keep < names) {
            free(*buf);
            o.max_text_width = keep;
            rc = render(t, &o, buf, len);
            wide = rc == 0 ? widest_line(*buf, *len) : 0;
        }
    }
    *fits = wide <= (size_t)width;
    return rc;
}

static int emit(FILE *f, char *buf, size_t len, int rc)
{
    if (rc == 0 && len && fwrite(buf, 1, len, f) != len)
        rc = -1;
    free(buf);
    return rc;
}

int diff_write_text_table(FILE *f, const struct table *t, const struct format_opts *fo, bool hta,
                          int width)
{
    bool compare = strcmp(t->name, "compare_traces") == 0 ||
                   strcmp(t->name, "compare_traces_by_rank") == 0;
    char *buf = NULL;
    size_t len = 0;
    bool fits;
    if (hta)
        return format_table_text(f, t, fo) < 0 ? -1 : 0;
    if (!compare) {
        int rc = render_fitted(t, fo, width, &buf, &len, &fits);
        return emit(f, buf, len, rc);
    }
    struct arena a;
    arena_init(&a, 1 << 16);
    struct table *n = narrow(t, true, &a);
    int rc = n ? render_fitted(n, fo, width, &buf, &len, &fits) : -1;
    if (rc == 0 && !fits) {
        free(buf);
        buf = NULL;
        n = narrow(t, false, &a);
        rc = n ? render_fitted(n, fo, width, &buf, &len, &fits) : -1;
    }
    arena_fini(&a);
    return emit(f, buf, len, rc);
}
