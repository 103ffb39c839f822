#ifndef HTX_UI_CURSES_H
#define HTX_UI_CURSES_H

/* The one way into curses (htop's ProvideCurses.h): wide-character ncurses.
 * Only ui/term.c and ui/draw.c include this; everything else in the UI
 * works on plain data (ui/grid.h) so that it can be tested without a
 * terminal. */

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

#endif
