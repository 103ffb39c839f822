#include "config.h"
#include "ui/widgets/tree_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/name_fit.h"
#include "util/err.h"

#define ELLIPSIS "\u2026"

unsigned ui_tree_indent_levels(int width)
{
    int levels = width / (4 * UI_TREE_INDENT);
    return levels < 2 ? 2 : (unsigned)levels;
}

int ui_tree_row_width(const struct ui_tree_row *r)
{
    size_t w = (size_t)r->level * UI_TREE_INDENT + name_width(r->mark);
    for (size_t i = 0; i < r->nnames; i++)
        w += name_width(r->names[i]) + (i ? 3 : 0);   // " › " before each link
    return w > 100000 ? 100000 : (int)w;
}

/* The width of level's indentation: spaces, or past the cap its number
 * right-aligned in the capped indentation and a space. */
static int indent_width(unsigned level, unsigned cap)
{
    if (level <= cap)
        return (int)(level * UI_TREE_INDENT);
    int digits = snprintf(NULL, 0, "%u", level) + 1;
    int w = (int)(cap * UI_TREE_INDENT);
    return digits > w ? digits : w;
}

/* The row's cell: its indentation, mark and fitted name (malloc'd). */
static char *compose(unsigned level, unsigned cap, const char *mark, const char *name)
{
    int iw = indent_width(level, cap);
    size_t len = (size_t)iw + strlen(mark) + strlen(name) + 1;
    char *s = malloc(len);
    if (!s)
        return NULL;
    int k = level <= cap ? snprintf(s, len, "%*s", iw, "")
                         : snprintf(s, len, "%*u ", iw - 1, level);
    snprintf(s + k, len - (size_t)k, "%s%s", mark, name);
    return s;
}

static char *join(const char *a, const char *b, const char *c)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    char *s = malloc(la + lb + lc + 1);
    if (s) {
        memcpy(s, a, la);
        memcpy(s + la, b, lb);
        memcpy(s + la + lb, c, lc + 1);
    }
    return s;
}

/* names[from..k) joined by sep; "" when from == k. */
static char *chain_text(const char *const *names, size_t from, size_t k, const char *sep)
{
    size_t len = 1;
    for (size_t i = from; i < k; i++)
        len += strlen(names[i]) + strlen(sep);
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = 0;
    for (size_t i = from; i < k; i++) {
        if (i > from)
            strcat(s, sep);
        strcat(s, names[i]);
    }
    return s;
}

/* s fitted to `room` columns (app/name_fit.h); NULL on ENOMEM. */
static char *fit_one_name(const char *s, size_t room)
{
    char *out = NULL;
    return names_fit(&s, 1, room, &out) == 0 ? out : NULL;
}

/* The first and last links of a chain sharing `room` columns, the shorter
 * whole when it takes at most half, joined by mid. */
static char *share_room(const char *head, const char *mid, const char *tail, size_t room)
{
    size_t hw = name_width(head), tw = name_width(tail), hroom = room / 2;
    if (tw <= room / 2)
        hroom = room - tw;
    else if (hw <= room / 2)
        hroom = hw;
    char *h = fit_one_name(head, hroom), *t = fit_one_name(tail, room - hroom);
    char *s = h && t ? join(h, mid, t) : NULL;
    free(h);
    free(t);
    return s;
}

/* A chain in `avail` columns: whole; else its first link, "…" and as many
 * of its last links as fit; else its first and last links sharing the
 * room, each fitted. */
static char *fit_chain(const struct ui_tree_row *r, int avail, bool ascii)
{
    const char *sep = ascii ? " > " : " \u203A ";
    size_t k = r->nnames;
    avail = avail < 0 ? 0 : avail;
    char *whole = chain_text(r->names, 0, k, sep);
    if (!whole || name_width(whole) <= (size_t)avail)
        return whole;
    free(whole);
    char *mid = k > 2 ? join(sep, ELLIPSIS, sep) : join(sep, "", "");
    if (!mid)
        return NULL;
    size_t headw = name_width(r->names[0]) + name_width(mid);
    for (size_t from = 2; from < k; from++) {
        char *tail = chain_text(r->names, from, k, sep);
        if (!tail || headw + name_width(tail) <= (size_t)avail) {
            char *s = tail ? join(r->names[0], mid, tail) : NULL;
            free(tail);
            free(mid);
            return s;
        }
        free(tail);
    }
    size_t room = (size_t)avail > name_width(mid) ? (size_t)avail - name_width(mid) : 0;
    char *s = room >= 16 ? share_room(r->names[0], mid, r->names[k - 1], room)
                         : fit_one_name(r->names[k - 1], (size_t)avail);
    free(mid);
    return s;
}

struct by_room {
    int room;
    size_t row;
};

static int cmp_room(const void *pa, const void *pb)
{
    const struct by_room *a = pa, *b = pb;
    if (a->room != b->room)
        return a->room < b->room ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

/* The single names of rows e[0..n), all with `room` columns, fitted
 * together (names that differ stay apart) into fitted[row]. */
static int fit_group(const struct ui_tree_row *rows, const struct by_room *e, size_t n,
                     char **fitted)
{
    const char **names = malloc(n * sizeof *names);
    char **out = calloc(n, sizeof *out);
    int rc = names && out ? 0 : ERR_NOMEM;
    for (size_t i = 0; i < n && rc == 0; i++)
        names[i] = rows[e[i].row].names[0];
    if (rc == 0)
        rc = names_fit(names, n, e[0].room > 0 ? (size_t)e[0].room : 0, out);
    for (size_t i = 0; i < n && rc == 0; i++)
        fitted[e[i].row] = out[i];
    free(names);
    free(out);
    return rc;
}

/* Every row's name or chain fitted to the room its indentation and mark
 * leave (room[i]) into fitted[i]. */
static int fit_names(const struct ui_tree_row *rows, size_t n, const int *room, bool ascii,
                     char **fitted)
{
    struct by_room *e = malloc((n ? n : 1) * sizeof *e);
    size_t k = 0;
    int rc = e ? 0 : ERR_NOMEM;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (rows[i].nnames > 1) {
            fitted[i] = fit_chain(&rows[i], room[i], ascii);
            rc = fitted[i] ? 0 : ERR_NOMEM;
        } else {
            e[k++] = (struct by_room){room[i], i};
        }
    }
    if (rc == 0 && k > 1)
        qsort(e, k, sizeof *e, cmp_room);
    for (size_t i = 0; i < k && rc == 0;) {
        size_t j = i + 1;
        while (j < k && e[j].room == e[i].room)
            j++;
        rc = fit_group(rows, e + i, j - i, fitted);
        i = j;
    }
    free(e);
    return rc;
}

int ui_tree_row_texts(const struct ui_tree_row *rows, size_t n, int width, bool ascii,
                      char **out)
{
    unsigned cap = ui_tree_indent_levels(width);
    int *room = malloc((n ? n : 1) * sizeof *room);
    char **fitted = calloc(n ? n : 1, sizeof *fitted);
    int rc = room && fitted ? 0 : ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        out[i] = NULL;
    for (size_t i = 0; i < n && rc == 0; i++)
        room[i] = width - indent_width(rows[i].level, cap) - (int)name_width(rows[i].mark);
    if (rc == 0)
        rc = fit_names(rows, n, room, ascii, fitted);
    for (size_t i = 0; i < n && rc == 0; i++) {
        out[i] = compose(rows[i].level, cap, rows[i].mark, fitted[i] ? fitted[i] : "");
        rc = out[i] ? 0 : ERR_NOMEM;
    }
    for (size_t i = 0; fitted && i < n; i++)
        free(fitted[i]);
    for (size_t i = 0; rc && i < n; i++) {
        free(out[i]);
        out[i] = NULL;
    }
    free(room);
    free(fitted);
    return rc;
}
