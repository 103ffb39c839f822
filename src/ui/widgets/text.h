#ifndef HTX_UI_TEXT_H
#define HTX_UI_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/utf8.h"

/* Text as the terminal will show it, without curses: UTF-8 decoding,
 * display widths (wcwidth, so the locale's LC_CTYPE matters), and the
 * escaping that keeps hostile trace names harmless. Every string from a
 * trace goes through ui_text_units before it reaches the screen: control
 * characters become caret notation (^[ for ESC), invalid UTF-8 and
 * unprintable code points become U+FFFD ('?' in ASCII mode), so no escape
 * sequence from a file is ever sent raw. */

#define UI_CP_REPLACEMENT UTF8_REPLACEMENT
#define UI_CP_ELLIPSIS 0x2026u

/* One displayed cell sequence for one source character. */
struct ui_unit {
    uint32_t cp[2];   /* code points shown; cp[1] only for caret notation */
    uint8_t ncp;      /* 1 or 2 */
    uint8_t width;    /* display columns: 1 or 2 (wide), 2 for caret */
};

/* Converts s[0..len) into display units; writes at most max units and
 * returns how many the whole string has (so a caller can size a buffer).
 * In ascii mode every non-ASCII character becomes '?'. */
size_t ui_text_units(const char *s, size_t len, bool ascii, struct ui_unit *out, size_t max);

/* Display width of s[0..len) after escaping. */
int ui_text_width(const char *s, size_t len, bool ascii);

/* Picks which units to show in at most maxw columns: either all of them,
 * or head units + an ellipsis + tail units. middle = false keeps the head
 * only (end ellipsis); middle = true keeps about two thirds head and one
 * third tail (for long kernel names whose template arguments matter less
 * than their ends). Sets *head,
 * *tail (unit counts) and returns true when an ellipsis is needed (it takes
 * one column). */
bool ui_text_fit(const struct ui_unit *u, size_t n, int maxw, bool middle, size_t *head,
                 size_t *tail);

/* Case-insensitive (ASCII) substring test; an empty needle matches. */
bool ui_text_contains(const char *hay, const char *needle);

/* Formats a duration in ns as "812 ns", "12.3 us", "4.56 ms", "1.23 s". */
void ui_format_duration(int64_t ns, char *buf, size_t n);

/* Formats a time offset in ns for an axis label with the given resolution
 * (the span of one tick), in the unit of the tick: "0", "1500us", "12.25s". */
void ui_format_time(int64_t ns, int64_t tick, char *buf, size_t n);

/* The same in the unit that suits ref (the axis' largest time), so every
 * label of an axis shares one unit: "0.8ms", "1.2ms". */
void ui_format_axis_time(int64_t ns, int64_t tick, int64_t ref, char *buf, size_t n);

/* Formats a byte count as "812 B", "12.3 KB", "4.56 MB", "1.23 GB". */
void ui_format_bytes(uint64_t bytes, char *buf, size_t n);

#endif
