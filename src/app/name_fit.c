#include "config.h"
#include "app/name_fit.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

#define ELLIPSIS "\u2026"   /* one column, three bytes */

static bool is_memory_name(const char *name)
{
    return strncmp(name, "Memcpy", 6) == 0 || strncmp(name, "Memset", 6) == 0 ||
           strncmp(name, "hipMemcpy", 9) == 0 || strncmp(name, "hipMemset", 9) == 0;
}

size_t name_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

/* Where the name proper starts: after the last space outside <> and ()
 * that comes before the first '(' or '<' outside them ("void ", "int4* "). */
static size_t name_start(const char *s, size_t len)
{
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '<' || c == '(') {
            if (depth == 0 && i > 0)
                break;
            depth++;
        } else if ((c == '>' || c == ')') && depth > 0) {
            depth--;
        } else if (c == ' ' && depth == 0) {
            start = i + 1;
        }
    }
    return start;
}

/* Length without the trailing parameter list: the '(' matching a final
 * ')', when that '(' is not the first character. */
static size_t without_params(const char *s, size_t len)
{
    size_t end = len;
    while (end > 0 && s[end - 1] == ' ')
        end--;
    if (end == 0 || s[end - 1] != ')')
        return len;
    int depth = 0;
    for (size_t i = end; i-- > 0;) {
        if (s[i] == ')')
            depth++;
        else if (s[i] == '(' && --depth == 0)
            return i > 0 ? i : len;
    }
    return len;   // unbalanced: keep it all
}

static void put(char *out, size_t outsz, size_t *k, const char *s, size_t n)
{
    for (size_t i = 0; i < n && *k + 1 < outsz; i++)
        out[(*k)++] = s[i];
}

void name_form(const char *name, enum name_form f, char *out, size_t outsz)
{
    if (outsz == 0)
        return;
    if (!name)
        name = "";
    size_t len = strlen(name), k = 0;
    bool plain = is_memory_name(name) || (!strchr(name, '<') && !strchr(name, '('));
    if (f == NAME_FULL || plain) {
        put(out, outsz, &k, name, len);
        out[k] = 0;
        return;
    }
    size_t start = name_start(name, len);
    const char *s = name + start;
    len -= start;
    if (f >= NAME_NO_PARAMS)
        len = without_params(s, len);
    if (f < NAME_NO_TEMPLATES) {
        put(out, outsz, &k, s, len);
        out[k] = 0;
        return;
    }
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '<') {
            if (depth++ == 0)
                put(out, outsz, &k, "<" ELLIPSIS ">", 5);
        } else if (s[i] == '>' && depth > 0) {
            depth--;
        } else if (depth == 0) {
            put(out, outsz, &k, s + i, 1);
        }
    }
    out[k] = 0;
}

/* Byte offset of code point `cp` in s (or its end). */
static size_t byte_at(const char *s, size_t cp)
{
    size_t i = 0, n = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (n == cp)
                return i;
            n++;
        }
    }
    return i;
}

/* s cut to width columns in the middle: head…tail. */
static char *cut_middle(const char *s, size_t width)
{
    size_t w = name_width(s), len = strlen(s);
    char *out = malloc(len + 4);
    if (!out)
        return NULL;
    if (w <= width) {
        memcpy(out, s, len + 1);
        return out;
    }
    if (width == 0) {
        out[0] = 0;
        return out;
    }
    size_t head = (width - 1 + 1) / 2, tail = width - 1 - head;
    size_t hb = byte_at(s, head), tb = byte_at(s, w - tail);
    memcpy(out, s, hb);
    memcpy(out + hb, ELLIPSIS, 3);
    memcpy(out + hb + 3, s + tb, len - tb + 1);
    return out;
}

/* s as its first columns, then a window from column `at`: head…window(…). */
static char *cut_window(const char *s, size_t at, size_t width)
{
    size_t w = name_width(s), len = strlen(s);
    if (w <= width || width < 8)
        return cut_middle(s, width);
    char *out = malloc(len + 7);
    if (!out)
        return NULL;
    size_t head = width / 3, room = width - head - 1;   // after head and its …
    size_t from = at > room / 3 ? at - room / 3 : 0;
    if (from < head)
        from = head;
    bool more = w - from > room;
    if (more)
        room--;   // the closing …
    size_t hb = byte_at(s, head), fb = byte_at(s, from), eb = byte_at(s, from + room);
    size_t k = 0;
    memcpy(out, s, hb);
    k = hb;
    if (from > head) {
        memcpy(out + k, ELLIPSIS, 3);
        k += 3;
    }
    memcpy(out + k, s + fb, eb - fb);
    k += eb - fb;
    if (more) {
        memcpy(out + k, ELLIPSIS, 3);
        k += 3;
    }
    out[k] = 0;
    return out;
}

/* The most complete form of name that fits width, else its smallest form
 * cut in the middle. */
static char *fit_one(const char *name, size_t width)
{
    size_t len = strlen(name) + 8;
    char *buf = malloc(len);
    if (!buf)
        return NULL;
    for (enum name_form f = NAME_NO_RETURN; f <= NAME_NO_TEMPLATES; f++) {
        name_form(name, f, buf, len);
        if (name_width(buf) <= width)
            return buf;
    }
    char *out = cut_middle(buf, width);
    free(buf);
    return out;
}

struct entry {
    const char *text;   /* the fitted text */
    size_t index;
};

static int by_text(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    int c = strcmp(x->text, y->text);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static size_t common_prefix(const char *a, const char *b)
{
    size_t n = 0, cp = 0;
    while (a[n] && a[n] == b[n]) {
        cp += ((unsigned char)a[n] & 0xC0) != 0x80;
        n++;
    }
    return cp;
}

/* A group of names that fit to the same text although they differ: each
 * becomes its head and a window around where it parts from the others. */
static int split_group(const char *const *names, const struct entry *e, size_t n, size_t width,
                       char **out)
{
    char **forms = calloc(n, sizeof *forms);
    if (!forms)
        return ERR_NOMEM;
    int rc = 0;
    // Without parameters when that keeps them apart, else with them.
    for (enum name_form f = NAME_NO_PARAMS; f >= NAME_NO_RETURN && rc == 0; f--) {
        for (size_t i = 0; i < n && rc == 0; i++) {
            size_t len = strlen(names[e[i].index]) + 1;
            free(forms[i]);
            forms[i] = malloc(len);
            if (!forms[i])
                rc = ERR_NOMEM;
            else
                name_form(names[e[i].index], f, forms[i], len);
        }
        bool apart = true;
        for (size_t i = 0; i < n && apart; i++)
            for (size_t j = i + 1; j < n && apart; j++)
                apart = strcmp(forms[i], forms[j]) != 0 ||
                        strcmp(names[e[i].index], names[e[j].index]) == 0;
        if (apart)
            break;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        size_t at = 0;
        for (size_t j = 0; j < n; j++)
            if (j != i && strcmp(forms[i], forms[j]) != 0) {
                size_t p = common_prefix(forms[i], forms[j]);
                at = p > at ? p : at;
            }
        char *t = cut_window(forms[i], at, width);
        if (!t) {
            rc = ERR_NOMEM;
            break;
        }
        free(out[e[i].index]);
        out[e[i].index] = t;
    }
    for (size_t i = 0; i < n; i++)
        free(forms[i]);
    free(forms);
    return rc;
}

int names_fit(const char *const *names, size_t n, size_t width, char **out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = NULL;
    struct entry *e = malloc((n ? n : 1) * sizeof *e);
    int rc = e ? 0 : ERR_NOMEM;
    for (size_t i = 0; i < n && rc == 0; i++) {
        out[i] = fit_one(names[i] ? names[i] : "", width);
        if (!out[i])
            rc = ERR_NOMEM;
        else
            e[i] = (struct entry){out[i], i};
    }
    if (rc == 0)
        qsort(e, n, sizeof *e, by_text);
    for (size_t i = 0; rc == 0 && i < n;) {
        size_t j = i + 1;
        bool differ = false;
        while (j < n && strcmp(e[j].text, e[i].text) == 0) {
            differ |= strcmp(names[e[j].index] ? names[e[j].index] : "",
                             names[e[i].index] ? names[e[i].index] : "") != 0;
            j++;
        }
        // e[i..j) share a text; split it when the names behind it differ.
        if (differ && width >= 8) {
            struct entry *group = malloc((j - i) * sizeof *group);
            if (!group) {
                rc = ERR_NOMEM;
                break;
            }
            memcpy(group, e + i, (j - i) * sizeof *group);
            rc = split_group(names, group, j - i, width, out);
            free(group);
        }
        i = j;
    }
    free(e);
    if (rc)
        for (size_t i = 0; i < n; i++) {
            free(out[i]);
            out[i] = NULL;
        }
    return rc;
}
