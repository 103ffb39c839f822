#ifndef HTX_UTIL_STR_H
#define HTX_UTIL_STR_H

#include <stdbool.h>
#include <string.h>

/* Whether s ends with suffix (file name rules: ".json.gz", ".htxs"). */
static inline bool str_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Appends printf-style text to the string in buf[0..n), cutting what does
 * not fit; buf stays a terminated string. For one-line messages built in
 * fixed buffers. */
void str_appendf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
