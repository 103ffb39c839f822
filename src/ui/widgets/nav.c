#include "config.h"
#include "ui/widgets/nav.h"

#include <stdio.h>
#include <string.h>

#include "util/sort.h"

/* ---- a time typed by the user ---- */

#define NAV_MAX_NS (INT64_MAX / 2)

static int fail(char *why, size_t n, const char *text)
{
    snprintf(why, n, "%s", text);
    return -1;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* The unit at s (ns per unit), its length in *len; 0 when none. */
static int64_t unit_at(const char *s, size_t *len)
{
    static const struct {
        const char *name;
        int64_t ns;
    } units[] = {{"ns", 1}, {"us", 1000}, {"\xc2\xb5s", 1000}, {"ms", 1000000},
                 {"s", 1000000000}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t l = strlen(units[i].name);
        if (strncmp(s, units[i].name, l) == 0) {
            *len = l;
            return units[i].ns;
        }
    }
    return 0;
}

int ui_parse_time(const char *text, int64_t now, int64_t *out, char *why, size_t n)
{
    const char *s = skip_space(text);
    int sign = 0;
    int64_t ip = 0, frac = 0, scale = 1;
    size_t digits = 0, decimals = 0, ulen = 0;

    if (*s == '+' || *s == '-')
        sign = *s++ == '+' ? 1 : -1;
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
        if (ip > NAV_MAX_NS / 10)
            return fail(why, n, "the time is too large");
        ip = ip * 10 + (*s - '0');
    }
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++, decimals++) {
            if (decimals == 9)
                return fail(why, n, "at most 9 decimals");
            frac = frac * 10 + (*s - '0');
            scale *= 10;
        }
    if (digits + decimals == 0)
        return fail(why, n, "a time is a number and a unit: 12.5ms, +3us, -1s");
    int64_t unit = unit_at(skip_space(s), &ulen);
    if (unit == 0)
        return fail(why, n, "give a unit: ns, us, ms or s (12.5ms, +3us, -1s)");
    if (*skip_space(skip_space(s) + ulen) != 0)
        return fail(why, n, "a time is a number and a unit: 12.5ms, +3us, -1s");
    if (ip > NAV_MAX_NS / unit)
        return fail(why, n, "the time is too large");
    int64_t t = ip * unit + frac * unit / scale;   // frac < scale <= 1e9: no overflow
    if (sign != 0) {
        if (now < -NAV_MAX_NS || now > NAV_MAX_NS)
            return fail(why, n, "the cursor is out of range");
        t = now + sign * t;
    }
    if (t < 0)
        return fail(why, n, "that is before the trace starts");
    if (t > NAV_MAX_NS)
        return fail(why, n, "the time is too large");
    *out = t;
    if (n)
        why[0] = 0;
    return 0;
}

/* ---- events on a lane ---- */

size_t ui_ts_next(const int64_t *ts, size_t n, int64_t t)
{
    return i64_lower_bound(ts, n, t);
}

size_t ui_ts_prev(const int64_t *ts, size_t n, int64_t t)
{
    size_t i = i64_lower_bound(ts, n, t);
    return i > 0 ? i - 1 : n;
}

/* ---- measuring between two marks ---- */

void ui_span_init(struct ui_span_acc *s, int64_t a, int64_t b)
{
    s->a = a;
    s->b = b > a ? b : a;
    s->covered = a;
    s->busy = 0;
    s->events = 0;
}

void ui_span_add(struct ui_span_acc *s, int64_t ts, int64_t end)
{
    if (end < ts)
        end = ts;
    // An instant at a counts; an interval ending at a does not reach it.
    if (ts >= s->b || end < s->a || (end == s->a && end > ts))
        return;
    s->events++;
    int64_t from = ts > s->covered ? ts : s->covered;
    int64_t to = end < s->b ? end : s->b;
    if (to > from) {
        s->busy += to - from;
        s->covered = to;
    }
}

/* ---- back and forward ---- */

void ui_history_init(struct ui_history *h, const struct ui_place *here)
{
    h->places[0] = *here;
    h->n = 1;
    h->cur = 0;
}

void ui_history_visit(struct ui_history *h, const struct ui_place *here,
                      const struct ui_place *to)
{
    if (h->n == 0)
        ui_history_init(h, here);
    h->places[h->cur] = *here;
    h->n = h->cur + 1;
    if (h->n == UI_HISTORY_MAX) {   // forget the oldest place
        memmove(h->places, h->places + 1, (UI_HISTORY_MAX - 1) * sizeof h->places[0]);
        h->n--;
    }
    h->places[h->n++] = *to;
    h->cur = h->n - 1;
}

bool ui_history_step(struct ui_history *h, const struct ui_place *here, int dir,
                     struct ui_place *out)
{
    if (h->n == 0 || (dir < 0 && h->cur == 0) || (dir > 0 && h->cur + 1 >= h->n))
        return false;
    h->places[h->cur] = *here;
    h->cur = dir < 0 ? h->cur - 1 : h->cur + 1;
    *out = h->places[h->cur];
    return true;
}
