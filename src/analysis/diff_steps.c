#include "config.h"
#include "analysis/diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ProfilerStep#N rows of a diff matched by position: two runs number their
 * steps differently (a resumed job, a profiler started later), and a diff
 * by name would list every step as deleted and added, each as large as the
 * step itself, above the ops that really changed. */

bool diff_step_number(const char *s, size_t len, int64_t *out)
{
    static const char prefix[] = "ProfilerStep#";
    size_t plen = sizeof prefix - 1;
    if (len <= plen || memcmp(s, prefix, plen) != 0)
        return false;
    size_t i = plen;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    int64_t v = 0;
    size_t digits = 0;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
        if (v > (INT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (s[i] - '0');
    }
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (digits == 0 || i != len)
        return false;
    *out = v;
    return true;
}

struct step {
    int64_t number;
    size_t entry;
};

static int by_number(const void *a, const void *b)
{
    const struct step *x = a, *y = b;
    if (x->number != y->number)
        return x->number < y->number ? -1 : 1;
    return (x->entry > y->entry) - (x->entry < y->entry);
}

/* The step entries of s in step order; *n of them. Caller frees. */
static struct step *steps_of(const struct diff_summary *s, size_t *n)
{
    struct step *v = malloc((s->n ? s->n : 1) * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < s->n; i++) {
        int64_t number;
        if (diff_step_number(s->entries[i].key, s->entries[i].len, &number))
            v[(*n)++] = (struct step){number, i};
    }
    if (*n > 1)
        qsort(v, *n, sizeof *v, by_number);
    return v;
}

int diff_pair_steps(struct diff_summary *control, struct diff_summary *test, struct arena *a,
                    bool *renamed)
{
    size_t nc, nt;
    struct step *cs = steps_of(control, &nc), *ts = steps_of(test, &nt);
    int rc = cs && ts ? 0 : ERR_NOMEM;
    *renamed = false;
    for (size_t k = 0; rc == 0 && k < nc && k < nt; k++) {
        if (cs[k].number == ts[k].number)
            continue;
        char buf[64];
        int len = snprintf(buf, sizeof buf, "ProfilerStep#%lld vs #%lld",
                           (long long)cs[k].number, (long long)ts[k].number);
        char *key = arena_strndup(a, buf, (size_t)len);
        if (!key) {
            rc = ERR_NOMEM;
            break;
        }
        struct diff_entry *c = &control->entries[cs[k].entry], *t = &test->entries[ts[k].entry];
        c->key = t->key = key;
        c->len = t->len = (size_t)len;
        *renamed = true;
    }
    free(cs);
    free(ts);
    return rc;
}

bool diff_step_side(const char *key, size_t len, bool test, char *buf, size_t n)
{
    static const char sep[] = " vs #";
    size_t slen = sizeof sep - 1;
    for (size_t i = 0; i + slen < len; i++) {
        if (memcmp(key + i, sep, slen) != 0)
            continue;
        int64_t c, t;
        const char *tail = key + i + slen;
        size_t tlen = len - i - slen;
        char tnum[64];
        if (tlen + 13 >= sizeof tnum || !diff_step_number(key, i, &c))
            return false;
        snprintf(tnum, sizeof tnum, "ProfilerStep#%.*s", (int)tlen, tail);
        if (!diff_step_number(tnum, strlen(tnum), &t))
            return false;
        snprintf(buf, n, "ProfilerStep#%lld", (long long)(test ? t : c));
        return true;
    }
    return false;
}
