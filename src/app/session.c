#include "config.h"
#include "app/session.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/clocks.h"
#include "app/format.h"
#include "app/options.h"
#include "util/summary_file.h"
#include "util/memory.h"
#include "util/str.h"

/* Messages quote file names from directory listings and trace metadata:
 * their control characters are escaped as on stdout, so a hostile name
 * cannot drive the terminal. */
static void write_message(const char *prefix, const char *msg)
{
    // Composed first and written at once: stderr is unbuffered, and a
    // character at a time made a thousand skipped files cost 150,000 writes.
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        fputs(prefix, f);
        format_write_escaped(f, msg);
        fputc('\n', f);
    }
    if (f && fclose(f) == 0) {
        fwrite(text, 1, len, stderr);
    } else {
        fputs(prefix, stderr);
        format_write_escaped(stderr, msg);
        fputc('\n', stderr);
    }
    free(text);
}

void app_warn(const char *fmt, ...)
{
    char msg[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    write_message("htx: warning: ", msg);
}

int app_fail(const struct err *e)
{
    write_message("htx: ", e->msg[0] ? e->msg : "unknown error");
    int status = err_exit_status(e->code);
    return status ? status : 1;
}

/* Discovery notes are one per line: each becomes one warning. */
static void warn_notes(const char *notes)
{
    while (notes && *notes) {
        const char *nl = strchr(notes, '\n');
        int len = (int)(nl ? (size_t)(nl - notes) : strlen(notes));
        if (len > 0)
            app_warn("%.*s", len, notes);
        notes = nl ? nl + 1 : NULL;
    }
}

bool app_parse_size(const char *text, uint64_t *bytes)
{
    /* strtoull would also take leading spaces and a sign (" -1" as 2^64-1) */
    if (text[0] < '0' || text[0] > '9')
        return false;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || errno)
        return false;
    unsigned shift = 0;
    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    case 'T': case 't': shift = 40; end++; break;
    default: break;
    }
    if (shift && *end == 'i')
        end++;
    if (*end == 'B')
        end++;
    if (*end != '\0' || v > (UINT64_MAX >> shift))
        return false;
    *bytes = (uint64_t)v << shift;
    return true;
}

int app_load_opts_init(struct load_opts *lo, const struct htx_options *opts, struct err *e)
{
    memset(lo, 0, sizeof *lo);
    lo->threads = opts->threads;
    lo->rows_only = opts->cmd == HTX_CMD_INFO;   // it prints no stream or thread index
    const char *limit = getenv("HTX_MAX_INPUT_SIZE");
    if (limit && limit[0] && !app_parse_size(limit, &lo->limits.max_uncompressed))
        return err_set(e, ERR_USAGE, "HTX_MAX_INPUT_SIZE: bad value '%.64s': expected a size "
                       "such as 512M or 4G (0 = no limit)", limit);
    /* The memory guard: 3/4 of physical memory unless HTX_MAX_MEMORY says. */
    lo->limits.max_memory = util_default_memory_limit();
    const char *mem = getenv("HTX_MAX_MEMORY");
    if (mem && mem[0] && !app_parse_size(mem, &lo->limits.max_memory))
        return err_set(e, ERR_USAGE, "HTX_MAX_MEMORY: bad value '%.64s': expected a size "
                       "such as 512M or 4G (0 = no limit)", mem);
    return 0;
}

int app_refuse_failed_summaries(const struct model *m, struct err *e)
{
    for (size_t i = 0; i < m->nfailed; i++) {
        const struct failed_file *f = &m->failed[i];
        if (str_ends_with(f->path, SUMMARY_FILE_SUFFIX))
            return err_set(e, ERR_PARSE, "%s%s%s (summarize that rank again)",
                           strstr(f->message, f->path) ? "" : f->path,
                           strstr(f->message, f->path) ? "" : ": ", f->message);
    }
    return 0;
}

static struct model *load(const struct htx_options *opts, const struct semantics *sem,
                          struct err *e)
{
    struct load_opts lo;
    if (app_load_opts_init(&lo, opts, e) < 0)
        return NULL;
    struct model *m = model_load(opts->paths, opts->npaths, sem, &lo, e);
    if (!m)
        return NULL;
    if (app_refuse_failed_summaries(m, e)) {
        model_free(m);
        return NULL;
    }
    if (app_align_clocks(m, opts, e) < 0) {
        model_free(m);
        return NULL;
    }
    warn_notes(m->notes);
    for (size_t i = 0; i < m->nfailed; i++) {
        const struct failed_file *f = &m->failed[i];
        if (strstr(f->message, f->path))
            app_warn("skipped %s", f->message);
        else
            app_warn("skipped %s: %s", f->path, f->message);
    }
    return m;
}

int app_align_clocks(struct model *m, const struct htx_options *opts, struct err *e)
{
    if (!opts->align_collectives)
        return 0;
    size_t n;
    return clock_align(m, NULL, &n, e);
}

static bool has_iteration(const struct model *m, int64_t n)
{
    for (size_t r = 0; r < m->nranks; r++)
        for (size_t i = 0; i < m->ranks[r].niterations; i++)
            if (m->ranks[r].iterations[i].number == n)
                return true;
    return false;
}

/* "0, 2-5": the loaded ranks, for messages (cut short when long). */
static void loaded_ranks(const struct model *m, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < m->nranks && used + 1 < size;) {
        size_t j = i;
        while (j + 1 < m->nranks && m->ranks[j + 1].rank == m->ranks[j].rank + 1)
            j++;
        int n = j > i ? snprintf(buf + used, size - used, "%s%lld-%lld", i ? ", " : "",
                                 (long long)m->ranks[i].rank, (long long)m->ranks[j].rank)
                      : snprintf(buf + used, size - used, "%s%lld", i ? ", " : "",
                                 (long long)m->ranks[i].rank);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
        i = j + 1;
    }
}

static int select_checked(struct model *m, const struct htx_options *opts, struct err *e)
{
    struct selection sel;
    htx_options_selection(opts, &sel);
    char have[96];
    for (size_t i = 0; i < sel.nranks; i++)
        if (!model_find_rank(m, sel.ranks[i])) {
            loaded_ranks(m, have, sizeof have);
            return err_set(e, ERR_USAGE, "--rank: no rank %lld in the loaded traces (ranks %s)",
                           (long long)sel.ranks[i], have);
        }
    for (size_t i = 0; i < sel.niterations; i++)
        if (!has_iteration(m, sel.iterations[i]))
            return err_set(e, ERR_USAGE, "--iteration: no ProfilerStep#%lld in the loaded traces",
                           (long long)sel.iterations[i]);
    return model_select(m, &sel, e);
}

struct model *app_open(const struct htx_options *opts, struct err *e)
{
    struct semantics sem;
    htx_options_semantics(opts, &sem);
    struct model *m = load(opts, &sem, e);
    if (m && select_checked(m, opts, e) < 0) {
        model_free(m);
        return NULL;
    }
    return m;
}

/* The output waits in an unlinked temporary file rather than in memory: a
 * report of every launch of a big trace is tens of MB, which would sit in
 * memory beside the analyses' tables (memory only where no temporary file
 * can be made). */
int app_out_open(struct app_out *o, struct err *e)
{
    o->buf = NULL;
    o->len = 0;
    o->in_file = (o->f = tmpfile()) != NULL;
    // A launch table is hundreds of MB of JSON at 10 M events: a write a
    // MiB, not a write a 4 KiB.
    if (o->f)
        (void)setvbuf(o->f, NULL, _IOFBF, (size_t)1 << 20);
    if (!o->f)
        o->f = open_memstream(&o->buf, &o->len);
    if (!o->f)
        return err_set(e, ERR_NOMEM, "out of memory for the output");
    return 0;
}

/* The kernel copies file to file (or to a pipe) without the bytes passing
 * through here; 1 when it cannot for these two (then copy_out reads). */
static int send_out(FILE *from, FILE *dst)
{
    if (fflush(dst) != 0)
        return ERR_IO;
    int in = fileno(from), out = fileno(dst);
    off_t at = 0;
    for (;;) {
        ssize_t n = sendfile(out, in, &at, (size_t)1 << 30);
        if (n > 0)
            continue;
        if (n == 0)
            return 0;
        if (errno == EINTR)
            continue;
        return at == 0 && (errno == EINVAL || errno == ENOSYS) ? 1 : ERR_IO;
    }
}

static int copy_out(FILE *from, FILE *dst)
{
    if (fflush(from) != 0)
        return ERR_IO;
    int rc = send_out(from, dst);
    if (rc <= 0)
        return rc;
    char chunk[1 << 16];
    size_t n;
    rewind(from);
    while ((n = fread(chunk, 1, sizeof chunk, from)) > 0)
        if (fwrite(chunk, 1, n, dst) != n)
            return ERR_IO;
    return ferror(from) ? ERR_IO : 0;
}

int app_out_commit(struct app_out *o, FILE *dst, struct err *e)
{
    bool bad = fflush(o->f) != 0 || ferror(o->f) != 0;
    int rc = 0;
    if (o->in_file) {
        if (bad) {
            rc = err_set(e, ERR_IO, "cannot hold the output in a temporary file (disk full?)");
        } else if (copy_out(o->f, dst) || fflush(dst) != 0) {
            rc = err_set(e, ERR_IO, "cannot write the output");
        }
        fclose(o->f);
        o->f = NULL;
        return rc;
    }
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (bad) {
        free(o->buf);
        o->buf = NULL;
        return err_set(e, ERR_NOMEM, "out of memory for the output");
    }
    size_t n = fwrite(o->buf, 1, o->len, dst);
    free(o->buf);
    o->buf = NULL;
    if (n != o->len || fflush(dst) != 0)
        return err_set(e, ERR_IO, "cannot write the output");
    return 0;
}

void app_out_discard(struct app_out *o)
{
    if (o->f)
        fclose(o->f);
    free(o->buf);
    o->f = NULL;
    o->buf = NULL;
}

int app_check_paths(const struct htx_options *opts)
{
    for (size_t i = 0; i < opts->npaths; i++) {
        struct stat st;
        if (stat(opts->paths[i], &st) == 0)
            continue;
        int err = errno;
        const char *near = i == 0 ? htx_nearest_command(opts->paths[0]) : NULL;
        struct err e = {0, ""};
        if (near) {
            err_set(&e, ERR_USAGE, "'%s' is not a file or a command; did you mean 'htx %s'?",
                    opts->paths[0], near);
            return app_fail(&e);
        }
        err_set(&e, ERR_IO, "%s: %s", opts->paths[i], strerror(err));
        app_fail(&e);
        return 1;   // bad input, whatever ERR_IO maps to
    }
    return 0;
}
