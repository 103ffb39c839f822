#ifndef HTX_UI_KEYS_H
#define HTX_UI_KEYS_H

#include <stddef.h>

#include "util/err.h"

/* Key codes seen by the actions, independent of curses: printable keys are
 * their Unicode code point, control keys their ASCII code (UI_KEY_CTRL('l')),
 * and the named keys below sit above the Unicode range. ui/term.c translates
 * curses codes into these; test scripts name them as <Up>, <PgDn>, ... */

enum ui_key {
    UI_KEY_NONE = 0,
    UI_KEY_TAB = 9,
    UI_KEY_ENTER = 10,
    UI_KEY_ESC = 27,
    UI_KEY_SPACE = 32,
    UI_KEY_BASE = 0x110000,
    UI_KEY_UP = UI_KEY_BASE,
    UI_KEY_DOWN,
    UI_KEY_LEFT,
    UI_KEY_RIGHT,
    UI_KEY_PGUP,
    UI_KEY_PGDN,
    UI_KEY_HOME,
    UI_KEY_END,
    UI_KEY_BTAB,        /* Shift-Tab */
    UI_KEY_BACKSPACE,
    UI_KEY_DELETE,
    UI_KEY_RESIZE,      /* the terminal changed size */
    UI_KEY_MOUSE,       /* a mouse event is waiting (term.c) */
    UI_KEY_WHEEL_UP,
    UI_KEY_WHEEL_DOWN,
    UI_KEY_INTERRUPT,   /* Ctrl-C, SIGTERM, SIGHUP: leave now */
    UI_KEY_LAST
};

#define UI_KEY_CTRL(c) ((c) & 0x1f)

/* Writes the display name of a key ("q", "Enter", "PgUp", "C-l", "S-Tab")
 * into buf (always terminated) and returns buf. */
const char *ui_key_name(int key, char *buf, size_t n);

/* One step of a test script: a key, or a resize to rows x cols
 * (key = UI_KEY_RESIZE). */
struct ui_script_step {
    int key;
    int rows, cols;
};

/* Parses a key script: every character is a key, except <Name> (Enter, Esc,
 * Tab, S-Tab, Space, Up, Down, Left, Right, PgUp, PgDn, Home, End, BS, Del,
 * C-x, lt for '<', WheelUp, WheelDown), line ends, and lines that start with
 * '#' (comments). A line ":resize ROWSxCOLS" resizes the screen. Text is
 * UTF-8. Caller owns *steps (free()). Returns 0 or ERR_PARSE/ERR_NOMEM with
 * the line number in e. */
int ui_script_parse(const char *text, size_t len, struct ui_script_step **steps, size_t *n,
                    struct err *e);

#endif
