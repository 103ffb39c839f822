#include "config.h"
#include "util/str.h"

#include <stdarg.h>
#include <stdio.h>

void str_appendf(char *buf, size_t n, const char *fmt, ...)
{
    size_t used = strnlen(buf, n);
    if (used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, n - used, fmt, ap);
    va_end(ap);
}
