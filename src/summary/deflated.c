#include "config.h"
#include "summary/deflated.h"

#include <stdio.h>
#include <stdlib.h>

#include "trace/zbuf.h"

void summary_file_deflate_section(uint32_t kind, uint32_t tag, const struct summary_file_writer *raw,
                                  struct summary_file_deflated *d)
{
    size_t len = 0;
    const uint8_t *bytes = summary_file_writer_body(raw, &len);
    *d = (struct summary_file_deflated){kind, tag, len, NULL, 0};
    // (the tiles are numbers: trace_deflate_buffer)
    if (!bytes || trace_deflate_buffer(bytes, len, kind == SUMMARY_FILE_TILES, &d->z, &d->zlen) != 0) {
        free(d->z);
        d->z = NULL;
    }
}

int summary_file_put_deflated_section(struct summary_file_writer *w, struct summary_file_deflated *d)
{
    if (!d->z)
        return -1;
    summary_file_begin_section_tagged(w, d->kind, d->tag);
    summary_file_put_u64(w, d->len);
    summary_file_put_bytes(w, d->z, d->zlen);
    summary_file_end_section(w);
    free(d->z);
    d->z = NULL;
    return 0;
}

int summary_file_put_deflated(struct summary_file_writer *w, uint32_t kind, uint32_t tag,
                              const struct summary_file_writer *raw)
{
    struct summary_file_deflated d;
    summary_file_deflate_section(kind, tag, raw, &d);
    return summary_file_put_deflated_section(w, &d);
}

int summary_file_inflate_section(const struct summary_file_section *s, const char *name, const char *what,
                                 uint64_t max, uint8_t **raw, struct summary_file_section *plain, struct err *e)
{
    *raw = NULL;
    struct summary_file_cur c;
    summary_file_cur_init(&c, s);
    uint64_t raw_len = summary_file_get_u64(&c);
    if (c.bad || raw_len > max)
        return err_set(e, ERR_PARSE, "%s: malformed %s section", name, what);
    char deflated[64];
    snprintf(deflated, sizeof deflated, "deflated %s", what);
    int rc = trace_inflate_exact(name, deflated, s->data + 8, (size_t)(s->len - 8), raw_len, raw,
                                 e);
    if (rc == 0)
        *plain = (struct summary_file_section){s->kind, *raw, raw_len, s->tag};
    return rc;
}
