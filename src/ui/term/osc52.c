#include "config.h"
#include "ui/term/osc52.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t ui_osc52_encode(const char *text, char *out, size_t outsz)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t len = strlen(text);
    if (len > UI_OSC52_MAX_TEXT)
        len = UI_OSC52_MAX_TEXT;
    size_t need = 4 * ((len + 2) / 3) + 9;   // ESC ] 5 2 ; c ; ... BEL NUL
    if (outsz < need)
        return 0;
    const unsigned char *s = (const unsigned char *)text;
    size_t k = 0;
    memcpy(out, "\033]52;c;", 7);
    k = 7;
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)s[i] << 16;
        if (i + 1 < len)
            v |= (unsigned)s[i + 1] << 8;
        if (i + 2 < len)
            v |= s[i + 2];
        out[k++] = b64[v >> 18 & 63];
        out[k++] = b64[v >> 12 & 63];
        out[k++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
        out[k++] = i + 2 < len ? b64[v & 63] : '=';
    }
    out[k++] = '\a';
    out[k] = 0;
    return k;
}

int ui_term_osc52(const char *text)
{
    size_t size = 4 * ((UI_OSC52_MAX_TEXT + 2) / 3) + 9;
    char *seq = malloc(size);
    if (!seq)
        return -1;
    size_t n = ui_osc52_encode(text, seq, size);
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(STDOUT_FILENO, seq + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    free(seq);
    return done == n ? 0 : -1;
}
