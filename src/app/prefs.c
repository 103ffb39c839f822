#include "config.h"
#include "app/prefs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *htx_config_path(char *buf, size_t size)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    int n;
    /* the XDG spec: a relative XDG_CONFIG_HOME is invalid and ignored */
    if (xdg && xdg[0] == '/')
        n = snprintf(buf, size, "%s/htx/config", xdg);
    else if (home && home[0])
        n = snprintf(buf, size, "%s/.config/htx/config", home);
    else
        return NULL;
    return n > 0 && (size_t)n < size ? buf : NULL;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static char *trim(char *s, char *end)
{
    while (s < end && is_space(*s))
        s++;
    while (end > s && is_space(end[-1]))
        end--;
    *end = '\0';
    return s;
}

static int yes_no(const char *v, bool *yes)
{
    if (strcmp(v, "yes") == 0 || strcmp(v, "true") == 0 || strcmp(v, "on") == 0)
        *yes = true;
    else if (strcmp(v, "no") == 0 || strcmp(v, "false") == 0 || strcmp(v, "off") == 0)
        *yes = false;
    else
        return -1;
    return 0;
}

/* One `key = value`; the message without the NAME:LINE prefix. */
static int apply_pair(struct htx_options *o, const char *key, const char *val, struct err *e)
{
    static const char *const as_option[] = {"sort", "view", "comm-patterns", "memory-patterns"};
    for (size_t i = 0; i < sizeof as_option / sizeof as_option[0]; i++)
        if (strcmp(key, as_option[i]) == 0)
            return htx_options_apply(o, key, val, e);
    bool yes;
    static const char *const switches[][2] = {
        {"color", "no-color"}, {"mouse", "no-mouse"}, {"osc52", "no-osc52"}};
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++) {
        if (strcmp(key, switches[i][0]) != 0)
            continue;
        if (yes_no(val, &yes) < 0)
            return err_set(e, ERR_USAGE, "%s: bad value '%.64s': expected yes or no", key, val);
        return yes ? 0 : htx_options_apply(o, switches[i][1], NULL, e);
    }
    return err_set(e, ERR_USAGE,
                   "unknown key '%.64s' (known: sort, view, comm-patterns, memory-patterns, "
                   "color, mouse, osc52)", key);
}

int htx_config_apply(struct htx_options *o, const char *name, char *text, size_t len,
                     struct err *e)
{
    if (memchr(text, '\0', len))
        return err_set(e, ERR_USAGE, "%s: a NUL byte: not a text file", name);
    size_t lineno = 0;
    char *p = text, *end = text + len;
    while (p < end) {
        lineno++;
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *eol = nl ? nl : end;
        if (eol - p > HTX_CONFIG_MAX_LINE)
            return err_set(e, ERR_USAGE, "%s:%zu: line longer than %d bytes", name, lineno,
                           HTX_CONFIG_MAX_LINE);
        char *line = trim(p, eol);
        p = nl ? nl + 1 : end;
        if (line[0] == '\0' || line[0] == '#')
            continue;
        char *eq = strchr(line, '=');
        if (!eq)
            return err_set(e, ERR_USAGE, "%s:%zu: expected 'key = value'", name, lineno);
        char *key = trim(line, eq);
        char *val = trim(eq + 1, eq + 1 + strlen(eq + 1));
        struct err inner = {0, ""};
        if (key[0] == '\0')
            return err_set(e, ERR_USAGE, "%s:%zu: expected 'key = value'", name, lineno);
        if (apply_pair(o, key, val, &inner) < 0)
            return err_set(e, ERR_USAGE, "%s:%zu: %s", name, lineno, inner.msg);
    }
    return 0;
}

/* Opens the config file for reading into *out (NULL when there is none):
 * without waiting (a FIFO there must not hang htx), and only when it is a
 * regular file. 0, or an ERR_* with e set. */
static int open_config(const char *path, FILE **out, struct err *e)
{
    *out = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT || errno == ENOTDIR
                   ? 0
                   : err_set(e, ERR_USAGE, "%s: %s", path, strerror(errno));
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) != 0)
        rc = err_set(e, ERR_USAGE, "%s: %s", path, strerror(errno));
    else if (!S_ISREG(st.st_mode))
        rc = err_set(e, ERR_USAGE, "%s: not a regular file: not read as a config file", path);
    else if ((*out = fdopen(fd, "rb")) == NULL)
        rc = err_set(e, ERR_NOMEM, "%s: %s", path, strerror(errno));
    if (rc)
        close(fd);
    return rc;
}

int htx_config_load(struct htx_options *o, const char *path, struct err *e)
{
    FILE *f;
    int rc = open_config(path, &f, e);
    if (rc || !f)
        return rc;
    char *text = malloc(HTX_CONFIG_MAX_SIZE + 1);
    if (!text) {
        fclose(f);
        return err_set(e, ERR_NOMEM, "out of memory");
    }
    size_t len = fread(text, 1, HTX_CONFIG_MAX_SIZE + 1, f);
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad || len > HTX_CONFIG_MAX_SIZE) {
        free(text);
        return err_set(e, ERR_USAGE, "%s: %s", path,
                       bad ? "cannot read it" : "larger than 64 KiB: not a config file");
    }
    text[len] = '\0';
    free(o->config_text);
    o->config_text = text;
    return htx_config_apply(o, path, text, len, e);
}

int htx_config_before_argv(struct htx_options *o, int argc, char **argv, struct err *e)
{
    // --help and --version work whatever the config file holds.
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") ||
            !strcmp(argv[i], "--version") || !strcmp(argv[i], "-V"))
            return 0;
    char path[4096];
    return htx_config_path(path, sizeof path) ? htx_config_load(o, path, e) : 0;
}
