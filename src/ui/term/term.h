#ifndef HTX_UI_TERM_H
#define HTX_UI_TERM_H

#include <stdbool.h>

#include "ui/widgets/grid.h"
#include "util/err.h"

/* The terminal: curses set-up and tear-down, colours, keys and mouse, and
 * the signals that must never leave a terminal in raw mode. The terminal is
 * restored on every way out: normal exit (ui_term_close, also from an atexit
 * handler), Ctrl-C, SIGTERM and SIGHUP (a flag the key reader turns into
 * UI_KEY_INTERRUPT; the caller closes the terminal and re-raises with
 * ui_term_reraise), and fatal signals (the handler calls endwin before the
 * default action). Ctrl-Z (SIGTSTP) sets a flag too: the key reader restores
 * the terminal, stops the process, and on fg returns UI_KEY_RESIZE so the
 * caller repaints. */

enum ui_colors { UI_COLORS_NONE = 0, UI_COLORS_8, UI_COLORS_256 };

struct ui_term_opts {
    bool no_color;       /* --no-color or NO_COLOR */
    bool no_mouse;
    bool headless;       /* test mode: output and input on /dev/null */
    int rows, cols;      /* headless size */
};

/* Starts curses on the controlling terminal (or headless on /dev/null).
 * Returns 0 or ERR_IO with e set. One terminal per process. */
int ui_term_open(const struct ui_term_opts *o, struct err *e);

/* Restores the terminal (idempotent). */
void ui_term_close(void);

/* Current size of the terminal. */
void ui_term_size(int *rows, int *cols);

/* Resizes the headless screen. */
void ui_term_resize(int rows, int cols);

/* A mouse event read by ui_term_read. */
struct ui_mouse_event {
    int y, x;
    int button;          /* 1 = left press/click, UI_KEY_WHEEL_UP/DOWN */
};

/* Waits up to timeout_ms (-1: forever) for a key; returns a ui key code
 * (ui/keys.h), UI_KEY_NONE on timeout, UI_KEY_INTERRUPT after SIGINT,
 * SIGTERM or SIGHUP, UI_KEY_RESIZE after a resize, or UI_KEY_MOUSE with
 * *mouse filled. */
int ui_term_read(int timeout_ms, struct ui_mouse_event *mouse);

/* The signal that asked us to leave (0 = none): after ui_term_close, call
 * ui_term_reraise so the parent sees how we ended. */
int ui_term_signal(void);
void ui_term_reraise(void);

#endif
