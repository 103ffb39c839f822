#ifndef HTX_TESTS_TRACE_DOC_H
#define HTX_TESTS_TRACE_DOC_H

#include <stddef.h>

#include "model/model.h"

/* Tiny hand-written Kineto traces for the analysis tests: events written
 * one by one into a buffer, then loaded as ranks. A failure (document too
 * long, load error) fails the calling Check test. */

struct doc {
    char text[16384];
    size_t len;
    int n;
};

void doc_raw(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void doc_begin(struct doc *d);

/* One complete event; stream/corr < 0 leave the arg out. name is written
 * as given (JSON escapes allowed). */
void ev(struct doc *d, const char *cat, const char *name, int tid, int ts, int dur, int stream,
        int corr);

/* A runtime launch on thread tid at ts and its kernel (1 µs later, dur),
 * named "k" or `kernel`. */
void launch(struct doc *d, int tid, int ts, int dur, int corr);
void launch_named(struct doc *d, int tid, int ts, int dur, int corr, const char *kernel);

/* Closes d and loads it as rank 0 (htx semantics). */
struct model *load_doc(struct doc *d);

/* Closes n documents and loads them as ranks 0..n-1 (htx semantics). */
struct model *load_docs(struct doc *d, size_t n);

#endif
