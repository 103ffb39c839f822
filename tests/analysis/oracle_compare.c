#include "config.h"
#include "oracle_compare.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../memcheck.h"
#include "model/model.h"

static const char *shared_dir(const char *sub, char *buf, size_t size)
{
    const char *src = getenv("HTX_SRCDIR");
    struct stat st;
    if (!src || !*src)
        return NULL;
    int n = snprintf(buf, size, "%s/../shared/%s", src, sub);
    if (n < 0 || (size_t)n >= size || stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
        return NULL;
    return buf;
}

const char *oracle_root(char *buf, size_t size)
{
    return shared_dir("oracle", buf, size);
}

const char *oracle_traces_root(char *buf, size_t size)
{
    return shared_dir("traces", buf, size);
}

/* The bytes of the files in dir (not below it). */
static long long set_bytes(const char *dir)
{
    long long total = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    for (struct dirent *de; (de = readdir(d));) {
        char p[1400];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
            total += st.st_size;
    }
    closedir(d);
    return total;
}

int oracle_each_trace(const char *test, const char *const *dirs, size_t n, bool both_semantics,
                      void (*fn)(struct model *m, void *ctx), void *ctx)
{
    char root[512];
    if (!oracle_traces_root(root, sizeof root)) {
        fprintf(stderr, "%s: ../shared/traces absent, real traces skipped\n", test);
        return -1;
    }
    int visited = 0;
    for (size_t i = 0; i < n; i++) {
        char path[1100];
        snprintf(path, sizeof path, "%s/%s", root, dirs[i]);
        if (access(path, R_OK) != 0 || (under_memcheck() && set_bytes(path) > MEMCHECK_TRACE_BYTES))
            continue;
        for (int mode = 0; mode < (both_semantics ? 2 : 1); mode++) {
            const char *paths[] = {path};
            struct semantics sem;
            semantics_init(&sem, mode ? SEMANTICS_HTA : SEMANTICS_HTX);
            struct load_opts lo = {.threads = 1};
            struct err e = {0, ""};
            struct model *m = model_load(paths, 1, &sem, &lo, &e);
            if (!m)
                continue;
            fn(m, ctx);
            model_free(m);
            visited++;
        }
    }
    return visited;
}

cJSON *oracle_load(const char *path, char *msg, size_t msgsz)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msgsz, "%s: cannot open", path);
        return NULL;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 65536 + 1 > cap) {
            cap = (len + 65536 + 1) * 2;
            char *p = realloc(text, cap);
            if (!p)
                break;
            text = p;
        }
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    if (!text) {
        snprintf(msg, msgsz, "%s: out of memory", path);
        return NULL;
    }
    text[len] = '\0';
    cJSON *doc = cJSON_ParseWithLength(text, len);
    free(text);
    if (!doc)
        snprintf(msg, msgsz, "%s: not JSON", path);
    return doc;
}

const char *oracle_status(const cJSON *manifest, const char *analysis)
{
    const cJSON *entries = cJSON_GetObjectItemCaseSensitive(manifest, "entries");
    const cJSON *en;
    cJSON_ArrayForEach(en, entries) {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(en, "analysis");
        if (cJSON_IsString(a) && strcmp(a->valuestring, analysis) == 0) {
            const cJSON *s = cJSON_GetObjectItemCaseSensitive(en, "status");
            return cJSON_IsString(s) ? s->valuestring : NULL;
        }
    }
    return NULL;
}

const cJSON *oracle_frame(const cJSON *doc, const char *key)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(doc, "result");
    if (key)
        r = cJSON_GetObjectItemCaseSensitive(r, key);
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(r, "__type__");
    if (!cJSON_IsString(type) || strcmp(type->valuestring, "DataFrame") != 0)
        return NULL;
    return r;
}

/* Collects mismatch descriptions into msg while there is room. */
struct report {
    char *msg;
    size_t size, len;
    int count;
};

static void mismatch(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void mismatch(struct report *r, const char *fmt, ...)
{
    r->count++;
    if (r->count > 5 || r->len + 2 >= r->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->msg + r->len, r->size - r->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        r->len = r->len + (size_t)n < r->size - 2 ? r->len + (size_t)n : r->size - 2;
    r->msg[r->len++] = '\n';
    r->msg[r->len] = '\0';
}

static bool numbers_match(double want, double got, double abs_tol)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    double diff = fabs(want - got);
    return diff <= abs_tol || diff <= 1e-6 * fabs(want);
}

static void compare_cell(const cJSON *want, const struct cell *got, const char *col, size_t row,
                         double abs_tol, struct report *r)
{
    if (cJSON_IsNull(want)) {
        if (!(got->type == CELL_NULL || (got->type == CELL_DOUBLE && isnan(got->v.d))))
            mismatch(r, "row %zu %s: want null, got %g", row, col, cell_as_double(got));
    } else if (cJSON_IsString(want)) {
        if (got->type != CELL_STR || strcmp(got->v.s, want->valuestring) != 0)
            mismatch(r, "row %zu %s: want \"%.80s\", got \"%.80s\"", row, col, want->valuestring,
                     got->type == CELL_STR ? got->v.s : "(not a string)");
    } else if (cJSON_IsBool(want)) {
        if (got->type != CELL_BOOL || got->v.b != cJSON_IsTrue(want))
            mismatch(r, "row %zu %s: want %s", row, col, cJSON_IsTrue(want) ? "true" : "false");
    } else if (cJSON_IsNumber(want)) {
        double g = cell_as_double(got);
        if (got->type == CELL_BOOL)
            g = got->v.b;
        if (!numbers_match(want->valuedouble, g, abs_tol))
            mismatch(r, "row %zu %s: want %.15g, got %.15g", row, col, want->valuedouble, g);
    } else {
        mismatch(r, "row %zu %s: unexpected JSON value", row, col);
    }
}

/* The table column for a DataFrame column name ("a|b" -> "b"). */
static int column_for(const struct table *t, const char *name)
{
    const char *bar = strrchr(name, '|');
    return table_col_index(t, bar ? bar + 1 : name);
}

static void compare_index(const cJSON *index, const struct table *t, const char *const *names,
                          size_t n, double abs_tol, struct report *r)
{
    int cols[8];
    if (n > 8)
        n = 8;
    for (size_t k = 0; k < n; k++)
        if ((cols[k] = table_col_index(t, names[k])) < 0) {
            mismatch(r, "index column \"%s\" missing from table %s", names[k], t->name);
            return;
        }
    size_t row = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, index) {
        if (row >= t->nrows)
            break;
        for (size_t k = 0; k < n; k++) {
            const cJSON *w = cJSON_IsArray(v) ? cJSON_GetArrayItem(v, (int)k) : (k ? NULL : v);
            if (w)
                compare_cell(w, table_cell(t, row, (size_t)cols[k]), names[k], row, abs_tol, r);
        }
        row++;
    }
}

int oracle_compare(const cJSON *frame, const struct table *t, const char *const *index_cols,
                   size_t n_index, double abs_tol, char *msg, size_t msgsz)
{
    struct report r = {msg, msgsz, 0, 0};
    if (msgsz)
        msg[0] = '\0';
    const cJSON *split = cJSON_GetObjectItemCaseSensitive(frame, "split");
    const cJSON *columns = cJSON_GetObjectItemCaseSensitive(split, "columns");
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(split, "data");
    if (!cJSON_IsArray(columns) || !cJSON_IsArray(data) || !t) {
        mismatch(&r, "no DataFrame split or no table");
        return r.count;
    }
    size_t nrows = (size_t)cJSON_GetArraySize(data);
    if (nrows != t->nrows)
        mismatch(&r, "%s: want %zu rows, got %zu", t->name, nrows, t->nrows);
    int ncols = cJSON_GetArraySize(columns);
    int *map = calloc((size_t)(ncols > 0 ? ncols : 1), sizeof *map);
    if (!map) {
        mismatch(&r, "out of memory");
        return r.count;
    }
    for (int c = 0; c < ncols; c++) {
        const cJSON *name = cJSON_GetArrayItem(columns, c);
        map[c] = cJSON_IsString(name) ? column_for(t, name->valuestring) : -1;
        if (map[c] < 0)
            mismatch(&r, "%s: column \"%s\" missing", t->name,
                     cJSON_IsString(name) ? name->valuestring : "?");
    }
    size_t row = 0;
    const cJSON *line;
    cJSON_ArrayForEach(line, data) {
        if (row >= t->nrows)
            break;
        for (int c = 0; c < ncols; c++) {
            const cJSON *w = cJSON_GetArrayItem(line, c);
            if (map[c] >= 0 && w)
                compare_cell(w, table_cell(t, row, (size_t)map[c]), t->cols[map[c]].name, row,
                             abs_tol, &r);
        }
        row++;
    }
    free(map);
    if (n_index)
        compare_index(cJSON_GetObjectItemCaseSensitive(split, "index"), t, index_cols, n_index,
                      abs_tol, &r);
    return r.count;
}
