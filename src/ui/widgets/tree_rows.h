#ifndef HTX_UI_TREE_ROWS_H
#define HTX_UI_TREE_ROWS_H

#include <stdbool.h>
#include <stddef.h>

/* The name cells of an indented tree (ncdu-style) fitted to a column:
 * indentation that never takes more than a quarter of the column (rows
 * deeper than that show their level as a number instead), a mark, then
 * the row's name, or a chain of nodes that are each their parent's only
 * child as one row "a › b › c" (middle links left out first when too
 * long). Single names are fitted by the kernels screen's rule
 * (app/name_fit.h): rows at one level whose names differ read
 * differently. Curses-free. */

#define UI_TREE_INDENT 2

struct ui_tree_row {
    const char *const *names;  /* the chain, outermost first (one name: no chain) */
    size_t nnames;
    unsigned level;            /* nesting: 0 under the root */
    const char *mark;          /* two columns: expanded, collapsed or a leaf */
};

/* The columns row r takes whole (its indentation uncapped). */
int ui_tree_row_width(const struct ui_tree_row *r);

/* How many levels get indentation in a column `width` wide. */
unsigned ui_tree_indent_levels(int width);

/* out[i]: row i's cell text, at most width columns (malloc'd; the caller
 * frees each). Borrows rows until return. 0 or ERR_NOMEM (out then holds
 * NULLs). */
int ui_tree_row_texts(const struct ui_tree_row *rows, size_t n, int width, bool ascii,
                      char **out);

#endif
