#ifndef HTX_UTIL_ERR_H
#define HTX_UTIL_ERR_H

/* Error reporting for every layer below ui/ and cli/: functions return 0 or a
 * negative ERR_* code (or NULL) and describe the problem in a caller-owned
 * struct err. Nothing below main.c prints or exits. */

enum err_code {
    ERR_OK = 0,
    ERR_IO = -1,       /* cannot open/read/write a file */
    ERR_PARSE = -2,    /* input is not what we expect (JSON, gzip, fields) */
    ERR_NOMEM = -3,    /* allocation failed or a size overflowed */
    ERR_USAGE = -4,    /* bad option or argument */
    ERR_LIMIT = -5,    /* a configured limit was exceeded (size, depth) */
    ERR_CANCEL = -6,   /* the user cancelled */
    ERR_EMPTY = -7,    /* nothing to work on */
    ERR_INTERNAL = -8, /* a bug: an invariant did not hold */
};

#define ERR_MSG_MAX 256

struct err {
    int code;
    char msg[ERR_MSG_MAX];
};

/* Sets code and a printf-style message; returns code so callers can
 * `return err_set(e, ERR_IO, ...)`. e may be NULL. */
int err_set(struct err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends "prefix: " to an existing message (e.g. the file name), cut to
 * ERR_MSG_MAX. e may be NULL. */
void err_prefix(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Resets e to ERR_OK with an empty message. Everything lives in *e. */
void err_clear(struct err *e);

/* Maps a code to the process exit status of DESIGN.md (0 ok, 1 bad input, 2 bad usage). */
int err_exit_status(int code);

#endif
