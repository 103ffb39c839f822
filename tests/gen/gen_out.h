#ifndef HTX_GEN_OUT_H
#define HTX_GEN_OUT_H

/* Buffered output of the trace generator: a plain file, a gzip stream, or
 * nothing at all (a counting sink used to size traces before writing them).
 * The document is streamed: memory use does not grow with the output. */

#include <stddef.h>
#include <stdint.h>

#define GEN_OUT_BUFSZ (1u << 16)

struct gen_out {
    void *fp;           /* FILE * for plain output, NULL otherwise */
    void *gz;           /* gzFile for gzip output, NULL otherwise */
    uint64_t total;     /* bytes of (uncompressed) JSON written so far */
    int failed;         /* set once a write failed; later writes are dropped */
    int compact;        /* drop whitespace outside strings (one-line JSON) */
    int in_str, esc;    /* compact mode: inside a string, after a backslash */
    size_t len;
    char buf[GEN_OUT_BUFSZ];
};

/* Opens `path` for writing (gzip at `level` 1-9 when `gzip`, else plain), or
 * a counting sink when `path` is NULL. Returns 0, or -1 with errno set.
 * The caller owns `o` and must call gen_out_close. */
int gen_out_open(struct gen_out *o, const char *path, int gzip, int level);

/* From now on, writes JSON without whitespace outside strings (as
 * json.dumps(separators=(",", ":")) would) when `on`, else as given. */
void gen_out_set_compact(struct gen_out *o, int on);

/* Flushes and closes; returns 0 if every write succeeded, else -1. */
int gen_out_close(struct gen_out *o);

void gen_out_mem(struct gen_out *o, const char *s, size_t n);
void gen_out_str(struct gen_out *o, const char *s);          /* raw text */
void gen_out_json_str(struct gen_out *o, const char *s);     /* quoted, escaped */
void gen_out_i64(struct gen_out *o, int64_t v);
/* Writes ns as microseconds: "12" when `frac` is 0 (ns must then be a whole
 * number of µs), else "12.345" with trailing zeros dropped, as Kineto does. */
void gen_out_us(struct gen_out *o, int64_t ns, int frac);
void gen_out_f64(struct gen_out *o, double v);               /* %.17g */
void gen_out_fmt(struct gen_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
