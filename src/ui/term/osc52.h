#ifndef HTX_UI_OSC52_H
#define HTX_UI_OSC52_H

#include <stddef.h>

/* Copying text to the user's clipboard through the terminal (OSC 52), which
 * works over SSH and inside tmux (set-clipboard on). The text is sent as
 * base64, so nothing in it (a kernel name is untrusted) can reach the
 * terminal as a control sequence. */

#define UI_OSC52_MAX_TEXT 8192   /* longer text is cut: terminals cap the payload */

/* Writes ESC ] 52 ; c ; BASE64 BEL for text (cut to UI_OSC52_MAX_TEXT bytes)
 * into out (NUL-terminated); returns its length, or 0 when out is too small
 * (it needs 4 * ceil(len / 3) + 9 bytes). */
size_t ui_osc52_encode(const char *text, char *out, size_t outsz);

/* Sends it to the terminal (after curses' own output). 0, or -1 when the
 * write failed. */
int ui_term_osc52(const char *text);

#endif
