#include "config.h"
#include "ui/widgets/keys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/widgets/text.h"
#include "util/vec.h"

static const struct {
    const char *name;
    int key;
} named[] = {
    {"Enter", UI_KEY_ENTER}, {"Esc", UI_KEY_ESC}, {"Tab", UI_KEY_TAB},
    {"S-Tab", UI_KEY_BTAB}, {"Space", UI_KEY_SPACE}, {"Up", UI_KEY_UP},
    {"Down", UI_KEY_DOWN}, {"Left", UI_KEY_LEFT}, {"Right", UI_KEY_RIGHT},
    {"PgUp", UI_KEY_PGUP}, {"PgDn", UI_KEY_PGDN}, {"Home", UI_KEY_HOME},
    {"End", UI_KEY_END}, {"BS", UI_KEY_BACKSPACE}, {"Del", UI_KEY_DELETE},
    {"lt", '<'}, {"WheelUp", UI_KEY_WHEEL_UP}, {"WheelDown", UI_KEY_WHEEL_DOWN},
    {"Resize", UI_KEY_RESIZE}, {"Interrupt", UI_KEY_INTERRUPT},
};

#define NNAMED (sizeof named / sizeof named[0])

const char *ui_key_name(int key, char *buf, size_t n)
{
    for (size_t i = 0; i < NNAMED; i++) {
        if (named[i].key == key && key != '<') {
            snprintf(buf, n, "%s", named[i].name);
            return buf;
        }
    }
    if (key > 0 && key < 32) {
        snprintf(buf, n, "C-%c", key + 'a' - 1);
    } else if (key > 32 && key < UI_KEY_BASE) {
        char u[5] = {0};
        utf8_encode((uint32_t)key, u);
        snprintf(buf, n, "%s", u);
    } else {
        snprintf(buf, n, "?");
    }
    return buf;
}

static int lookup_name(const char *s, size_t len)
{
    if (len == 3 && s[0] == 'C' && s[1] == '-' && s[2] >= 'a' && s[2] <= 'z')
        return UI_KEY_CTRL(s[2]);
    for (size_t i = 0; i < NNAMED; i++)
        if (strlen(named[i].name) == len && memcmp(named[i].name, s, len) == 0)
            return named[i].key;
    return -1;
}

static int push(struct ui_script_step **steps, size_t *n, size_t *cap, struct ui_script_step s)
{
    if (VEC_PUSH_SLOT(*steps, *n, *cap) != 0)
        return ERR_NOMEM;
    (*steps)[(*n)++] = s;
    return 0;
}

static int parse_resize(const char *line, size_t len, struct ui_script_step *s)
{
    char buf[64];
    int rows, cols, used = 0;

    if (len >= sizeof buf)
        return -1;
    memcpy(buf, line, len);
    buf[len] = 0;
    if (sscanf(buf, ":resize %dx%d%n", &rows, &cols, &used) != 2 || buf[used] != 0)
        return -1;
    if (rows < 1 || cols < 1 || rows > 1000 || cols > 1000)
        return -1;
    s->key = UI_KEY_RESIZE;
    s->rows = rows;
    s->cols = cols;
    return 0;
}

static int parse_line(const char *line, size_t len, size_t lineno, struct ui_script_step **steps,
                      size_t *n, size_t *cap, struct err *e)
{
    struct ui_script_step s = {0, 0, 0};

    if (len > 0 && line[0] == '#')
        return 0;
    if (len > 0 && line[0] == ':') {
        if (parse_resize(line, len, &s) != 0)
            return err_set(e, ERR_PARSE, "script line %zu: expected \":resize ROWSxCOLS\"",
                           lineno);
        return push(steps, n, cap, s);
    }
    for (size_t i = 0; i < len;) {
        if (line[i] == '<') {
            const char *end = memchr(line + i, '>', len - i);
            int key = end ? lookup_name(line + i + 1, (size_t)(end - line - i - 1)) : -1;
            if (key < 0)
                return err_set(e, ERR_PARSE, "script line %zu: unknown key name at column %zu",
                               lineno, i + 1);
            /* A resize needs its size: only ":resize ROWSxCOLS" gives one (a
             * bare <Resize> would shrink the screen to 0 x 0). */
            if (key == UI_KEY_RESIZE)
                return err_set(e, ERR_PARSE, "script line %zu: <Resize> has no size: use "
                               "\":resize ROWSxCOLS\"", lineno);
            s.key = key;
            i = (size_t)(end - line) + 1;
        } else {
            uint32_t cp;
            i += utf8_decode_lossy(line + i, len - i, &cp);
            s.key = (int)cp;
        }
        if (push(steps, n, cap, s) != 0)
            return err_set(e, ERR_NOMEM, "script: out of memory");
    }
    return 0;
}

int ui_script_parse(const char *text, size_t len, struct ui_script_step **steps, size_t *n,
                    struct err *e)
{
    size_t cap = 0, lineno = 1;

    *steps = NULL;
    *n = 0;
    for (size_t i = 0; i < len; lineno++) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - text) : len;
        size_t l = end - i;
        if (l > 0 && text[i + l - 1] == '\r')
            l--;
        int rc = parse_line(text + i, l, lineno, steps, n, &cap, e);
        if (rc != 0) {
            free(*steps);
            *steps = NULL;
            *n = 0;
            return rc;
        }
        i = end + 1;
    }
    return 0;
}
