#include "config.h"
#include "ui/widgets/expand.h"

#include <stdlib.h>
#include <string.h>

#include "util/err.h"

int ui_expand_init(struct ui_expand *x)
{
    memset(x, 0, sizeof *x);
    return strtab_init(&x->keys) ? ERR_NOMEM : 0;
}

void ui_expand_fini(struct ui_expand *x)
{
    strtab_fini(&x->keys);
    free(x->on);
    memset(x, 0, sizeof *x);
}

bool ui_expand_is(const struct ui_expand *x, const char *key, size_t len)
{
    uint32_t id = strtab_find(&x->keys, key, len);
    return id != STRTAB_NONE && id < x->cap && x->on[id];
}

int ui_expand_set(struct ui_expand *x, const char *key, size_t len, bool open)
{
    uint32_t id = strtab_intern(&x->keys, key, len);
    if (id == STRTAB_NONE)
        return ERR_NOMEM;
    if (id >= x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 64;
        while (cap <= id)
            cap *= 2;
        uint8_t *on = realloc(x->on, cap);
        if (!on)
            return ERR_NOMEM;
        memset(on + x->cap, 0, cap - x->cap);
        x->on = on;
        x->cap = cap;
    }
    x->on[id] = open;
    return 0;
}
