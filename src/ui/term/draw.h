#ifndef HTX_UI_DRAW_H
#define HTX_UI_DRAW_H

#include <stdbool.h>
#include <stdio.h>

#include "ui/widgets/grid.h"
#include "ui/term/term.h"

/* Paints grids with curses: the only code that turns a style id into
 * colours and attributes (tig's view_column_draw). */

/* Sets up the colour pairs and attributes of every style for the colours
 * the terminal has (after start_color, or with UI_COLORS_NONE). */
void ui_draw_styles(enum ui_colors colors);

/* Paints g onto the screen and refreshes; clear forces a full repaint
 * (Ctrl-L, resize). */
void ui_draw_grid(const struct ui_grid *g, bool clear);

/* Writes the screen as curses holds it (read back with mvwinnstr), one
 * line per row with trailing spaces trimmed. Returns 0 or ERR_IO. */
int ui_draw_dump(FILE *f, int rows, int cols);

#endif
