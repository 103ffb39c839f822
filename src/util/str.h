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

#endif
