#ifndef HTX_UI_EXPAND_H
#define HTX_UI_EXPAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strtab.h"

/* Which rows of a tree-like table are expanded, by a key that survives the
 * table being rebuilt (a path, a kernel name): the annotation tree and the
 * kernel summary keep their open rows across selections with it. */
struct ui_expand {
    struct strtab keys;   /* every key ever set; on[id] says whether it is open */
    uint8_t *on;
    size_t cap;
};

int ui_expand_init(struct ui_expand *x);   /* 0 or ERR_NOMEM */
void ui_expand_fini(struct ui_expand *x);
bool ui_expand_is(const struct ui_expand *x, const char *key, size_t len);
int ui_expand_set(struct ui_expand *x, const char *key, size_t len, bool open);   /* 0, ERR_NOMEM */

#endif
