#include "config.h"
#include "util/vec.h"

#include <stdint.h>
#include <stdlib.h>

#include "util/err.h"

int vec_reserve(void **items, size_t *cap, size_t elem_size, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t new_cap = *cap ? *cap : 16;
    while (new_cap < need) {
        if (new_cap > SIZE_MAX / 2)
            return ERR_NOMEM;
        new_cap *= 2;
    }
    if (elem_size && new_cap > SIZE_MAX / elem_size)
        return ERR_NOMEM;
    void *p = realloc(*items, new_cap * elem_size);
    if (!p)
        return ERR_NOMEM;
    *items = p;
    *cap = new_cap;
    return 0;
}
