#include "config.h"
#include "summary/deflated.h"

#include <stdio.h>
#include <stdlib.h>

#include "trace/zbuf.h"

void htxs_deflate_section(uint32_t kind, uint32_t tag, const struct htxs_writer *raw,
                          struct htxs_deflated *d)
{
    size_t len = 0;
    const uint8_t *bytes = htxs_writer_body(raw, &len);
    *d = (struct htxs_deflated){kind, tag, len, NULL, 0};
    // (the tiles are numbers: trace_deflate_buffer)
    if (!bytes || trace_deflate_buffer(bytes, len, kind == HTXS_TILES, &d->z, &d->zlen) != 0) {
        free(d->z);
        d->z = NULL;
    }
}

int htxs_put_deflated_section(struct htxs_writer *w, struct htxs_deflated *d)
{
    if (!d->z)
        return -1;
    htxs_begin_section_tagged(w, d->kind, d->tag);
    htxs_put_u64(w, d->len);
    htxs_put_bytes(w, d->z, d->zlen);
    htxs_end_section(w);
    free(d->z);
    d->z = NULL;
    return 0;
}

int htxs_put_deflated(struct htxs_writer *w, uint32_t kind, uint32_t tag,
                      const struct htxs_writer *raw)
{
    struct htxs_deflated d;
    htxs_deflate_section(kind, tag, raw, &d);
    return htxs_put_deflated_section(w, &d);
}

int htxs_inflate_section(const struct htxs_section *s, const char *name, const char *what,
                         uint64_t max, uint8_t **raw, struct htxs_section *plain, struct err *e)
{
    *raw = NULL;
    struct htxs_cur c;
    htxs_cur_init(&c, s);
    uint64_t raw_len = htxs_get_u64(&c);
    if (c.bad || raw_len > max)
        return err_set(e, ERR_PARSE, "%s: malformed %s section", name, what);
    char deflated[64];
    snprintf(deflated, sizeof deflated, "deflated %s", what);
    int rc = trace_inflate_exact(name, deflated, s->data + 8, (size_t)(s->len - 8), raw_len, raw,
                                 e);
    if (rc == 0)
        *plain = (struct htxs_section){s->kind, *raw, raw_len, s->tag};
    return rc;
}
