#include "config.h"
#include "ui/term/term.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <pthread.h>
#include <unistd.h>

#include "ui/term/curses.h"
#include "util/outfile.h"
#include "ui/term/draw.h"
#include "ui/widgets/keys.h"

static SCREEN *screen;
static FILE *null_in, *null_out;
static bool active, headless;
static enum ui_colors colors;
static volatile sig_atomic_t caught;

static void on_leave_signal(int sig)
{
    caught = sig;
}

/* Ctrl-Z. The terminal must be given back before the shell takes it (it
 * does as soon as it sees the job stop), so the handler does it itself with
 * async-signal-safe calls only: the bytes endwin would write, computed when
 * the terminal opened, and the shell's terminal modes. ncurses' own handler
 * calls endwin here, which allocates and deadlocks when the signal lands in
 * the middle of an allocation. On fg the key reader repaints. */
static char leave_bytes[256];
static size_t leave_len;
static struct termios shell_modes;
static bool have_shell_modes;
static volatile sig_atomic_t resumed;

static void on_suspend_signal(int sig)
{
    int saved = errno;
    struct sigaction dfl, mine;
    sigset_t tstp;

    if (active && !headless) {
        // The shell may have taken the terminal back already (it does as
        // soon as it sees the job stop): SIGTTOU is blocked so that the
        // writes still happen instead of stopping us, once now and once
        // more after fg.
        sigset_t ttou, old;
        sigemptyset(&ttou);
        sigaddset(&ttou, SIGTTOU);
        pthread_sigmask(SIG_BLOCK, &ttou, &old);
        if (leave_len && write(STDOUT_FILENO, leave_bytes, leave_len) < 0) {
            // nothing to do: the shell repaints its own prompt
        }
        if (have_shell_modes)
            tcsetattr(STDIN_FILENO, TCSADRAIN, &shell_modes);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        resumed = 1;
    }
    memset(&dfl, 0, sizeof dfl);
    sigemptyset(&dfl.sa_mask);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, &mine);
    sigemptyset(&tstp);
    sigaddset(&tstp, sig);
    raise(sig);   // pending until unblocked below, then stops until SIGCONT
    pthread_sigmask(SIG_UNBLOCK, &tstp, NULL);
    sigaction(sig, &mine, NULL);
    errno = saved;
}

/* A terminfo string capability, or NULL when the terminal has none. */
static const char *capability(const char *name)
{
    const char *v = tigetstr(name);
    return v && v != (const char *)-1 ? v : NULL;
}

static void append_leave(const char *bytes)
{
    size_t n = bytes ? strlen(bytes) : 0;
    if (n && leave_len + n < sizeof leave_bytes) {
        memcpy(leave_bytes + leave_len, bytes, n);
        leave_len += n;
    }
}

/* What endwin writes to leave the screen, for the suspend handler. */
static void compute_leave_bytes(bool mouse)
{
    const char *xm = capability("XM"), *cup = capability("cup");
    leave_len = 0;
    if (mouse && capability("kmous"))
        append_leave(xm ? tiparm(xm, 0) : "\033[?1000l");
    append_leave(capability("sgr0"));
    if (cup)
        append_leave(tiparm(cup, LINES - 1, 0));
    append_leave(capability("rmkx"));
    append_leave(capability("cnorm"));
    append_leave(capability("rmcup"));
}

/* A crash: put the terminal back before the default action (htop does the
 * same); endwin is not async-signal-safe, but the process is dying anyway
 * and a raw terminal is worse. */
static void on_fatal_signal(int sig)
{
    if (active && !headless)
        endwin();
    outfile_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void at_exit(void)
{
    ui_term_close();
}

static void install_signals(void)
{
    static const int leave[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_leave_signal;  // no SA_RESTART: the key read returns
    for (size_t i = 0; i < sizeof leave / sizeof leave[0]; i++)
        sigaction(leave[i], &sa, NULL);
    // Installed before newterm, so ncurses keeps its own handler out: that
    // one calls endwin (malloc, stdio) inside the signal, which deadlocks
    // when the signal lands in the middle of an allocation.
    sa.sa_handler = on_suspend_signal;
    sigaction(SIGTSTP, &sa, NULL);
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        sigaction(fatal[i], &sa, NULL);
}

static SCREEN *open_headless(int rows, int cols, struct err *e)
{
    static const char *terms[] = {NULL, "xterm-256color", "xterm", "vt100"};
    SCREEN *s = NULL;

    null_out = fopen("/dev/null", "w");
    null_in = fopen("/dev/null", "r");
    if (!null_out || !null_in) {
        err_set(e, ERR_IO, "/dev/null: %s", strerror(errno));
        return NULL;
    }
    terms[0] = getenv("TERM");
    for (size_t i = 0; i < sizeof terms / sizeof terms[0] && !s; i++)
        if (terms[i] && terms[i][0])
            s = newterm(terms[i], null_out, null_in);
    if (s)
        resizeterm(rows, cols);
    else
        err_set(e, ERR_IO, "cannot start curses on /dev/null (no usable TERM)");
    return s;
}

static void setup_colors(bool no_color)
{
    colors = UI_COLORS_NONE;
    if (!no_color && has_colors() && start_color() == OK) {
        use_default_colors();
        colors = COLORS >= 256 ? UI_COLORS_256 : (COLORS >= 8 ? UI_COLORS_8 : UI_COLORS_NONE);
    }
    ui_draw_styles(colors);
}

int ui_term_open(const struct ui_term_opts *o, struct err *e)
{
    if (active)
        return 0;
    headless = o->headless;
    if (headless) {
        screen = open_headless(o->rows, o->cols, e);
    } else {
        install_signals();
        // The real window size, not LINES/COLUMNS: with those set, ncurses
        // keeps using them and never sees a resize.
        unsetenv("LINES");
        unsetenv("COLUMNS");
        use_tioctl(TRUE);
        have_shell_modes = tcgetattr(STDIN_FILENO, &shell_modes) == 0;
        screen = newterm(NULL, stdout, stdin);
        if (!screen)
            err_set(e, ERR_IO, "cannot start curses: is TERM (%s) a known terminal?",
                    getenv("TERM") ? getenv("TERM") : "unset");
    }
    if (!screen)
        return ERR_IO;
    set_term(screen);
    active = true;
    static bool registered;
    if (!registered)
        atexit(at_exit);
    registered = true;
    cbreak();  // not raw(): Ctrl-C and Ctrl-Z keep their signals
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    setup_colors(o->no_color);
    if (!o->no_mouse && !headless) {
        mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
        mouseinterval(0);
    }
    if (!headless)
        compute_leave_bytes(!o->no_mouse);
    return 0;
}

void ui_term_close(void)
{
    if (!active)
        return;
    active = false;
    if (!headless) {
        curs_set(1);
        endwin();
    } else {
        endwin();
    }
    delscreen(screen);
    screen = NULL;
    if (null_out)
        fclose(null_out);
    if (null_in)
        fclose(null_in);
    null_out = null_in = NULL;
}

void ui_term_size(int *rows, int *cols)
{
    getmaxyx(stdscr, *rows, *cols);
}

void ui_term_resize(int rows, int cols)
{
    resizeterm(rows, cols);
}

static int map_function_key(wint_t k)
{
    switch (k) {
    case KEY_UP: return UI_KEY_UP;
    case KEY_DOWN: return UI_KEY_DOWN;
    case KEY_LEFT: return UI_KEY_LEFT;
    case KEY_RIGHT: return UI_KEY_RIGHT;
    case KEY_PPAGE: return UI_KEY_PGUP;
    case KEY_NPAGE: return UI_KEY_PGDN;
    case KEY_HOME: return UI_KEY_HOME;
    case KEY_END: return UI_KEY_END;
    case KEY_BTAB: return UI_KEY_BTAB;
    case KEY_BACKSPACE: return UI_KEY_BACKSPACE;
    case KEY_DC: return UI_KEY_DELETE;
    case KEY_ENTER: return UI_KEY_ENTER;
    case KEY_RESIZE: return UI_KEY_RESIZE;
    case KEY_MOUSE: return UI_KEY_MOUSE;
    default: return UI_KEY_NONE;
    }
}

static int read_mouse(struct ui_mouse_event *mouse)
{
    MEVENT ev;

    if (getmouse(&ev) != OK)
        return UI_KEY_NONE;
    mouse->y = ev.y;
    mouse->x = ev.x;
    if (ev.bstate & BUTTON4_PRESSED)
        mouse->button = UI_KEY_WHEEL_UP;
    else if (ev.bstate & BUTTON5_PRESSED)
        mouse->button = UI_KEY_WHEEL_DOWN;
    else if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
        mouse->button = 1;
    else
        return UI_KEY_NONE;
    return UI_KEY_MOUSE;
}

/* A read that failed before its timeout may be a terminal that went away
 * without a SIGHUP reaching us (an SSH link or a tmux server killed hard):
 * every later read fails at once, and the loop would spin. poll says so. */
static bool terminal_gone(void)
{
    struct pollfd p = {STDIN_FILENO, POLLIN, 0};
    return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

/* Back from a stop: ncurses still believes it owns the terminal, so it is
 * told it left (endwin) and comes back with a full repaint. */
static void resume(void)
{
    resumed = 0;
    endwin();
    refresh();
}

int ui_term_read(int timeout_ms, struct ui_mouse_event *mouse)
{
    wint_t ch;

    if (caught)
        return UI_KEY_INTERRUPT;
    if (resumed) {
        resume();
        return UI_KEY_RESIZE;   // the caller redraws everything
    }
    wtimeout(stdscr, timeout_ms);
    int rc = wget_wch(stdscr, &ch);
    if (caught)
        return UI_KEY_INTERRUPT;
    if (resumed) {
        resume();
        return UI_KEY_RESIZE;
    }
    if (rc == ERR && !headless && terminal_gone()) {
        caught = SIGHUP;   // as if the hangup had been delivered: leave cleanly
        return UI_KEY_INTERRUPT;
    }
    if (rc == ERR)
        return UI_KEY_NONE;
    if (rc == KEY_CODE_YES) {
        int k = map_function_key(ch);
        return k == UI_KEY_MOUSE ? read_mouse(mouse) : k;
    }
    if (ch == '\r')
        return UI_KEY_ENTER;
    return (int)ch;
}

int ui_term_signal(void)
{
    return caught;
}

void ui_term_reraise(void)
{
    int sig = caught;

    if (!sig)
        return;
    outfile_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}
