#include "config.h"
#include "ui/widgets/text.h"

#include <stdio.h>
#include <wchar.h>

static struct ui_unit unit_for(uint32_t cp, bool ascii)
{
    struct ui_unit u = {{cp, 0}, 1, 1};

    if (cp < 0x20 || cp == 0x7F) {
        // Caret notation: visible, and never an escape sequence.
        u.cp[0] = '^';
        u.cp[1] = cp == 0x7F ? '?' : cp + 0x40;
        u.ncp = 2;
        u.width = 2;
        return u;
    }
    if (cp < 0x7F)
        return u;
    if (ascii && cp == 0xB7) {
        u.cp[0] = '|';  // the UI's own separator, "·"
        return u;
    }
    if (ascii || (cp >= 0x80 && cp < 0xA0)) {
        u.cp[0] = ascii ? '?' : UI_CP_REPLACEMENT;
        return u;
    }
    int w = wcwidth((wchar_t)cp);
    if (w == 2)
        u.width = 2;
    else if (w != 1)
        u.cp[0] = UI_CP_REPLACEMENT;  // zero-width or unprintable
    return u;
}

size_t ui_text_units(const char *s, size_t len, bool ascii, struct ui_unit *out, size_t max)
{
    size_t i = 0, n = 0;

    while (i < len) {
        uint32_t cp;
        i += utf8_decode_lossy(s + i, len - i, &cp);
        if (n < max)
            out[n] = unit_for(cp, ascii);
        n++;
    }
    return n;
}

int ui_text_width(const char *s, size_t len, bool ascii)
{
    size_t i = 0;
    int w = 0;

    while (i < len) {
        uint32_t cp;
        i += utf8_decode_lossy(s + i, len - i, &cp);
        w += unit_for(cp, ascii).width;
    }
    return w;
}

static size_t take_from_head(const struct ui_unit *u, size_t n, int budget, int *used)
{
    size_t k = 0;

    *used = 0;
    while (k < n && *used + u[k].width <= budget)
        *used += u[k++].width;
    return k;
}

bool ui_text_fit(const struct ui_unit *u, size_t n, int maxw, bool middle, size_t *head,
                 size_t *tail)
{
    int total = 0, used;

    for (size_t i = 0; i < n; i++)
        total += u[i].width;
    *tail = 0;
    if (total <= maxw) {
        *head = n;
        return false;
    }
    *head = 0;
    if (maxw <= 1)
        return maxw == 1;
    int avail = maxw - 1;  // one column for the ellipsis
    if (!middle) {
        *head = take_from_head(u, n, avail, &used);
        return true;
    }
    // Two thirds to the head: a name's start says more than its argument list.
    *head = take_from_head(u, n, (avail * 2 + 2) / 3, &used);
    int left = avail - used;
    size_t k = 0;
    while (k < n - *head && u[n - 1 - k].width <= left)
        left -= u[n - 1 - k++].width;
    *tail = k;
    return true;
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

bool ui_text_contains(const char *hay, const char *needle)
{
    if (!needle[0])
        return true;
    for (const char *h = hay; *h; h++) {
        size_t k = 0;
        while (needle[k] && h[k] && lower((unsigned char)h[k]) == lower((unsigned char)needle[k]))
            k++;
        if (!needle[k])
            return true;
    }
    return false;
}

void ui_format_duration(int64_t ns, char *buf, size_t n)
{
    double a = ns < 0 ? -(double)ns : (double)ns;

    if (a < 1e3)
        snprintf(buf, n, "%lld ns", (long long)ns);
    else if (a < 1e6)
        snprintf(buf, n, "%.3g us", (double)ns / 1e3);
    else if (a < 1e9)
        snprintf(buf, n, "%.3g ms", (double)ns / 1e6);
    else
        snprintf(buf, n, "%.3f s", (double)ns / 1e9);
}

void ui_format_axis_time(int64_t ns, int64_t tick, int64_t ref, char *buf, size_t n)
{
    static const struct { int64_t div; const char *unit; } units[] = {
        {1, "ns"}, {1000, "us"}, {1000000, "ms"}, {1000000000, "s"},
    };
    size_t u = 0;

    if (ns == 0) {
        snprintf(buf, n, "0");
        return;
    }
    if (ref < 0)   // INT64_MIN has no positive: the largest magnitude will do
        ref = ref == INT64_MIN ? INT64_MAX : -ref;
    while (u + 1 < sizeof units / sizeof units[0] && ref >= units[u + 1].div)
        u++;
    // Enough decimals that neighbouring ticks differ.
    int decimals = 0;
    for (int64_t step = units[u].div; step > tick && step > 1 && decimals < 6; step /= 10)
        decimals++;
    snprintf(buf, n, "%.*f%s", decimals, (double)ns / (double)units[u].div, units[u].unit);
}

void ui_format_time(int64_t ns, int64_t tick, char *buf, size_t n)
{
    ui_format_axis_time(ns, tick, tick, buf, n);
}

void ui_format_bytes(uint64_t bytes, char *buf, size_t n)
{
    double b = (double)bytes;

    if (b < 1e3)
        snprintf(buf, n, "%llu B", (unsigned long long)bytes);
    else if (b < 1e6)
        snprintf(buf, n, "%.1f KB", b / 1e3);
    else if (b < 1e9)
        snprintf(buf, n, "%.1f MB", b / 1e6);
    else
        snprintf(buf, n, "%.2f GB", b / 1e9);
}
