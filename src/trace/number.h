#ifndef HTX_TRACE_NUMBER_H
#define HTX_TRACE_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/event.h"

/* JSON numbers taken from their text, so that no digit is lost on the way
 * to int64 nanoseconds (a µs timestamp like 1682725898236567.123 keeps its
 * .123). Every function reads exactly len bytes of s (no NUL needed) and
 * borrows s until return. */

/* Length of the strict JSON number (RFC 8259 grammar) that starts at s, or 0
 * when s does not start with one. Stops at the first byte that cannot extend
 * the number; the caller checks what follows. */
size_t trace_number_scan(const char *s, size_t len);

/* The value times 10^scale as an int64: rounded half away from zero when
 * round_half is true, else truncated toward zero. Accepts
 * [-]digits[.digits][(e|E)[+-]digits] with either digit run possibly empty.
 * Returns false when the result does not fit int64 (or s is not a number);
 * *exact tells whether no non-zero digit was dropped (may be NULL). */
bool trace_number_scaled(const char *s, size_t len, int scale, bool round_half,
                         int64_t *out, bool *exact);

/* The nearest double of the text, as strtod would give it (C locale). */
double trace_number_double(const char *s, size_t len);

/* A plain number: [-]digits[.digits] in JSON's grammar, 19 digits at most,
 * value = (neg ? -1 : 1) * D / 10^nfrac. */
struct trace_number_plain {
    uint64_t D;
    int nfrac;
    bool neg;
};

/* Reads a plain number at s in one pass, over at most avail bytes. Returns
 * its length, or 0 when s does not start with a plain number or no byte
 * follows that ends it (the caller then takes trace_number_scan's path,
 * which gives the same values). */
size_t trace_number_plain(const char *s, size_t avail, struct trace_number_plain *pl);

/* trace_number_plain, then t as trace_number_time fills it. Returns the
 * length, or 0 (t untouched) when the number is not plain, ns does not fit
 * or us needs strtod. */
size_t trace_number_plain_time(const char *s, size_t avail, struct trace_time *t);

/* trace_number_plain, then *out as trace_number_scaled(scale 0, truncated)
 * gives it. Returns the length, or 0 (*out untouched) when not plain or out
 * of range. */
size_t trace_number_plain_int(const char *s, size_t avail, int64_t *out);

/* Fills t from a number that is a time in microseconds: ns = round(value *
 * 1000) computed from the digits, us = the nearest double, is_float when the
 * text has a fraction or an exponent. Returns false (t->present false) when
 * ns does not fit int64. */
bool trace_number_time(const char *s, size_t len, struct trace_time *t);

/* Whether the text already is canonical decimal text: [-](0|[1-9]digits),
 * at most 18 digits, not "-0". Such text can be used as it is. */
bool trace_number_is_canonical(const char *s, size_t len);

/* Writes the number as canonical decimal text into out (cap bytes, no NUL;
 * 32 bytes are always enough): an integral value that fits int64 is printed
 * plainly ("3.0e2" -> "300"), anything else as the shortest "%.*g" that
 * reads back as the same double ("1.50" -> "1.5", "1e999" -> "inf").
 * Returns the length. */
size_t trace_number_canonical(const char *s, size_t len, char *out, size_t cap);

/* The same text for a double (as cJSON gives numbers). */
size_t trace_number_format_double(double d, char *out, size_t cap);

#endif
