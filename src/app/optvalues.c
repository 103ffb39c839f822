#include "config.h"
#include "app/options.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/vec.h"

/* Value parsers for the command line. Every one is strict: the whole text
 * must be consumed, numbers are plain decimal (no sign unless the range
 * allows negatives, no spaces, no hex), and every failure is ERR_USAGE with
 * a message naming the option and the value. */

static int bad_value(struct err *e, const char *what, const char *text, const char *expected)
{
    return err_set(e, ERR_USAGE, "%s: bad value '%s': expected %s", what, text, expected);
}

/* Reads decimal digits at *p into *v; false on none or overflow. */
static bool read_u64(const char **p, uint64_t *v)
{
    const char *s = *p;
    uint64_t x = 0;
    if (*s < '0' || *s > '9')
        return false;
    for (; *s >= '0' && *s <= '9'; s++) {
        unsigned d = (unsigned)(*s - '0');
        if (x > (UINT64_MAX - d) / 10)
            return false;
        x = x * 10 + d;
    }
    *p = s;
    *v = x;
    return true;
}

int htx_parse_int(const char *what, const char *text, int64_t min, int64_t max, int64_t *v,
                  struct err *e)
{
    char expected[96];
    snprintf(expected, sizeof expected, "an integer from %lld to %lld", (long long)min,
             (long long)max);
    const char *p = text;
    bool neg = *p == '-';
    if (neg)
        p++;
    uint64_t u;
    if (!read_u64(&p, &u) || *p != '\0' || u > (uint64_t)INT64_MAX)
        return bad_value(e, what, text, expected);
    int64_t x = neg ? -(int64_t)u : (int64_t)u;
    if (x < min || x > max)
        return bad_value(e, what, text, expected);
    *v = x;
    return 0;
}

int htx_parse_double(const char *what, const char *text, double min, double max, double *v,
                     struct err *e)
{
    char expected[96];
    snprintf(expected, sizeof expected, "a number from %g to %g", min, max);
    const char *p = text;
    if (*p == '-')
        p++;
    /* strtod would also take "inf", "nan", hex and leading spaces. */
    if (!((*p >= '0' && *p <= '9') || (*p == '.' && p[1] >= '0' && p[1] <= '9')))
        return bad_value(e, what, text, expected);
    for (const char *q = p; *q; q++)
        if (!strchr("0123456789.eE+-", *q))
            return bad_value(e, what, text, expected);
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (*end != '\0' || errno == ERANGE || !isfinite(x) || x < min || x > max)
        return bad_value(e, what, text, expected);
    *v = x;
    return 0;
}

struct time_unit {
    const char *suffix;
    int64_t ns;
    int digits;  /* fraction digits that still give whole ns */
};

static const struct time_unit time_units[] = {
    {"ns", 1, 0}, {"us", 1000, 3}, {"ms", 1000000, 6}, {"s", 1000000000, 9}, {"", 1, 0},
};

/* Finds the unit suffix at p, or NULL. */
static const struct time_unit *find_unit(const char *p)
{
    for (size_t i = 0; i < sizeof time_units / sizeof time_units[0]; i++)
        if (strcmp(p, time_units[i].suffix) == 0)
            return &time_units[i];
    return NULL;
}

int htx_parse_duration_ns(const char *what, const char *text, int64_t *ns, struct err *e)
{
    static const char expected[] = "a duration in ns, or with a unit ns, us, ms, s (2.5us)";
    const char *p = text, *frac = "";
    size_t nfrac = 0;
    uint64_t whole;
    if (!read_u64(&p, &whole))
        return bad_value(e, what, text, expected);
    if (*p == '.') {
        frac = ++p;
        while (*p >= '0' && *p <= '9')
            p++;
        nfrac = (size_t)(p - frac);
        if (nfrac == 0)
            return bad_value(e, what, text, expected);
    }
    const struct time_unit *u = find_unit(p);
    if (!u)
        return bad_value(e, what, text, expected);
    /* Digits beyond the unit's ns resolution must be zeros. */
    for (size_t i = (size_t)u->digits; i < nfrac; i++)
        if (frac[i] != '0')
            return err_set(e, ERR_USAGE, "%s: bad value '%s': not a whole number of ns", what,
                           text);
    uint64_t frac_ns = 0;
    for (size_t i = 0; i < (size_t)u->digits; i++)
        frac_ns = frac_ns * 10 + (i < nfrac ? (uint64_t)(frac[i] - '0') : 0);
    if (whole > ((uint64_t)INT64_MAX - frac_ns) / (uint64_t)u->ns)
        return bad_value(e, what, text, "a duration below 2^63 ns");
    *ns = (int64_t)(whole * (uint64_t)u->ns + frac_ns);
    return 0;
}

int htx_parse_window(const char *what, const char *text, int64_t *start, int64_t *end,
                     struct err *e)
{
    const char *colon = strchr(text, ':');
    if (!colon || strchr(colon + 1, ':'))
        return bad_value(e, what, text, "START:END in ns from the trace start");
    char first[64];
    size_t n = (size_t)(colon - text);
    if (n >= sizeof first)
        return bad_value(e, what, text, "START:END in ns from the trace start");
    memcpy(first, text, n);
    first[n] = '\0';
    int64_t s = 0, t = INT64_MAX;
    if ((n > 0 && htx_parse_duration_ns(what, first, &s, NULL) < 0) ||
        (colon[1] != '\0' && htx_parse_duration_ns(what, colon + 1, &t, NULL) < 0))
        return bad_value(e, what, text,
                         "START:END, each in whole ns or with a unit ns, us, ms, s");
    if (s >= t)
        return err_set(e, ERR_USAGE, "%s: bad value '%s': START must be before END", what, text);
    *start = s;
    *end = t;
    return 0;
}

/* Appends lo..hi to l, counting against HTX_LIST_MAX. */
static int list_append_range(struct htx_int_list *l, size_t *cap, int64_t lo, int64_t hi,
                             const char *what, const char *text, struct err *e)
{
    if ((uint64_t)(hi - lo) >= (uint64_t)HTX_LIST_MAX - l->n)
        return err_set(e, ERR_USAGE, "%s: bad value '%s': more than %d numbers", what, text,
                       HTX_LIST_MAX);
    size_t need = l->n + (size_t)(hi - lo) + 1;
    if (vec_reserve((void **)&l->v, cap, sizeof *l->v, need) < 0)
        return err_set(e, ERR_NOMEM, "%s: out of memory", what);
    for (int64_t x = lo;; x++) {
        l->v[l->n++] = x;
        if (x == hi)
            break;
    }
    return 0;
}

/* One item of a list: "N" or "A-B" with A <= B. */
static int parse_list_item(const char *item, size_t len, int64_t *lo, int64_t *hi)
{
    char buf[48];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, item, len);
    buf[len] = '\0';
    const char *p = buf;
    uint64_t a, b;
    if (!read_u64(&p, &a) || a > (uint64_t)INT64_MAX)
        return -1;
    b = a;
    if (*p == '-') {
        p++;
        if (!read_u64(&p, &b) || b > (uint64_t)INT64_MAX || b < a)
            return -1;
    }
    if (*p != '\0')
        return -1;
    *lo = (int64_t)a;
    *hi = (int64_t)b;
    return 0;
}

int htx_parse_int_list(const char *what, const char *text, struct htx_int_list *l,
                       struct err *e)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
    l->all = false;
    l->given = true;
    if (strcmp(text, "all") == 0) {
        l->all = true;
        return 0;
    }
    size_t cap = 0;
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        int64_t lo, hi;
        if (parse_list_item(p, len, &lo, &hi) < 0) {
            free(l->v);
            l->v = NULL;
            l->n = 0;
            return bad_value(e, what, text, "a list like 0,2-5 or all");
        }
        if (list_append_range(l, &cap, lo, hi, what, text, e) < 0) {
            free(l->v);
            l->v = NULL;
            l->n = 0;
            return e ? e->code : ERR_USAGE;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    l->n = sort_unique_i64(l->v, l->n);
    return 0;
}
