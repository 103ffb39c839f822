#include "config.h"

/* Seeds for the summary fuzz target (tests/fuzz/fuzz_summary.c) from rank
 * summaries made by htx summarize:
 *
 *   summary-seeds OUT_DIR SUMMARY...
 *
 * writes, for each summary, OUT_DIR/NAME-whole (mode 0 and the file) and,
 * for each of its deflated sections, the mode byte and the section's
 * contents inflated (tables 1, tiles 2, collectives 3, the events' raw
 * records 4, or 9 for a pack of version 6), which the target deflates
 * again. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary/deflated.h"
#include "summary/tables.h"
#include "trace/pack.h"
#include "trace/pack_format.h"
#include "trace/zbuf.h"
#include "util/summary_file.h"
#include "util/le.h"

static int write_seed(const char *dir, const char *base, const char *what, unsigned i,
                      uint8_t mode, const uint8_t *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%s%u", dir, base, what, i);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(&mode, 1, 1, f) != 1 || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
        fprintf(stderr, "summary-seeds: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

static int seeds_of(const char *dir, const char *file)
{
    const char *slash = strrchr(file, '/');
    char base[256];
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : file);
    char *dot = strchr(base, '.');
    if (dot)
        *dot = '\0';
    struct summary_file_doc doc;
    struct err e = {0, ""};
    if (summary_file_load_file(&doc, file, &e) != 0) {
        fprintf(stderr, "summary-seeds: %s\n", e.msg);
        return 1;
    }
    int status = write_seed(dir, base, "whole", 0, 0, doc.owned, (size_t)doc.len);
    for (uint32_t i = 0; i < doc.nsections; i++) {
        const struct summary_file_section *s = &doc.sections[i];
        uint8_t *raw = NULL;
        struct summary_file_section plain;
        uint8_t mode = s->kind == SUMMARY_FILE_TILES ? 2 : s->kind == SUMMARY_FILE_COLLS ? 3 : 1;
        if (s->kind == SUMMARY_FILE_TABLES_VZ || s->kind == SUMMARY_FILE_TILES || s->kind == SUMMARY_FILE_COLLS) {
            if (summary_file_inflate_section(s, file, "section", (uint64_t)1 << 26, &raw, &plain, &e) == 0)
                status |= write_seed(dir, base, "section", i, mode, raw, (size_t)plain.len);
        } else if (s->kind == SUMMARY_FILE_EVENTS) {
            size_t path_len;
            const char *path = trace_pack_source(s->data, (size_t)s->len, &path_len);
            const uint8_t *z = path ? (const uint8_t *)path + path_len : NULL;
            uint64_t raw_len = path ? le_load(s->data + 4, 8) : 0;
            if (z && trace_inflate_exact(file, "events", z, (size_t)(s->data + s->len - z),
                                         raw_len, &raw, &e) == 0)
                status |= write_seed(dir, base, "events", i,
                                     le_load(s->data, 4) >= PACK_STRINGS_FIRST_VERSION ? 9 : 4, raw,
                                     (size_t)raw_len);
        }
        free(raw);
    }
    summary_file_doc_fini(&doc);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: summary-seeds OUT_DIR SUMMARY...\n");
        return 2;
    }
    int status = 0;
    for (int i = 2; i < argc; i++)
        status |= seeds_of(argv[1], argv[i]);
    return status;
}
