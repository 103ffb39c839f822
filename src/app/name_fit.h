#ifndef HTX_APP_NAME_FIT_H
#define HTX_APP_NAME_FIT_H

#include <stddef.h>

/* Kernel names that fit a column and still tell rows apart. A C++ kernel
 * name ("void cutlass::device_kernel<...>(Params)")
 * loses, in this order, what tells kernels apart least: its return type,
 * its parameter list, its template arguments ("<…>"). A column of width w
 * shows each name in the most complete form that fits; names that come
 * out equal although they differ are shown instead as their head and a
 * window around where they differ. HTA's --short-names
 * (analysis/classify.h, shorten_name) is a different thing: a grouping key.
 * Curses-free; widths count code points (kernel names are ASCII). */

enum name_form {
    NAME_FULL = 0,
    NAME_NO_RETURN,      /* without the return type */
    NAME_NO_PARAMS,      /* ... and without the trailing parameter list */
    NAME_NO_TEMPLATES,   /* ... and with every template argument list as <…> */
};

/* Writes form f of name into out (always NUL-terminated, cut to outsz).
 * Memcpy/Memset names and names without <> or () stay whole. Unbalanced
 * brackets are tolerated (the result is then best effort). */
void name_form(const char *name, enum name_form f, char *out, size_t outsz);

/* Display width of s (UTF-8 code points). */
size_t name_width(const char *s);

/* Fits names[0..n) to width columns: out[i] is a malloc'd string of at
 * most width columns (caller frees each and out). Two names that differ
 * get different texts whenever width leaves room for it (>= 8). Returns 0
 * or ERR_NOMEM (out then holds NULLs). */
int names_fit(const char *const *names, size_t n, size_t width, char **out);

#endif
