#include "config.h"
#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int err_set(struct err *e, int code, const char *fmt, ...)
{
    if (!e)
        return code;
    e->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return code;
}

void err_prefix(struct err *e, const char *fmt, ...)
{
    if (!e)
        return;
    char prefix[ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    char old[ERR_MSG_MAX];
    memcpy(old, e->msg, sizeof old);
    /* Truncation is acceptable: the message stays NUL-terminated. */
    size_t n = strlen(prefix);
    if (n > sizeof e->msg - 3)
        n = sizeof e->msg - 3;
    memcpy(e->msg, prefix, n);
    memcpy(e->msg + n, ": ", 2);
    size_t room = sizeof e->msg - n - 3;
    size_t olen = strnlen(old, room);
    memcpy(e->msg + n + 2, old, olen);
    e->msg[n + 2 + olen] = '\0';
}

void err_clear(struct err *e)
{
    if (!e)
        return;
    e->code = 0;
    e->msg[0] = '\0';
}

int err_exit_status(int code)
{
    switch (code) {
    case ERR_OK:
        return 0;
    case ERR_USAGE:
        return 2;
    default:
        return 1;
    }
}
