#include "config.h"
#include "trace/meta.h"

#include <cjson/cJSON.h>
#include <stdint.h>
#include <string.h>

#include "trace/fields.h"
#include "trace/number.h"

enum {
    SEEN_DIST = 1 << 0,
    SEEN_BASE = 1 << 1,
    SEEN_UNIT = 1 << 2,
    SEEN_DEV = 1 << 3,
};

void trace_meta_init(struct trace_meta_state *st)
{
    memset(st, 0, sizeof *st);
}

/* Copies s into a fixed field, cut at a UTF-8 character boundary. */
static void copy_text(char *dst, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static bool integer_of(const cJSON *it, int64_t *out)
{
    if (!it || !cJSON_IsNumber(it))
        return false;
    double d = it->valuedouble;
    if (!(d >= -9007199254740992.0 && d <= 9007199254740992.0) || (double)(int64_t)d != d)
        return false;
    *out = (int64_t)d;
    return true;
}

/* FNV-1a over the values of an array of integers, in order. */
static uint64_t ranks_hash(const cJSON *ranks)
{
    uint64_t h = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, ranks) {
        int64_t v;
        if (!integer_of(it, &v))
            v = INT64_MIN;
        if (h == 0)
            h = 14695981039346656037ULL;
        for (int b = 0; b < 8; b++) {
            h ^= (uint64_t)v >> (8 * b) & 0xff;
            h *= 1099511628211ULL;
        }
    }
    return h;
}

static void read_pgs(struct trace_meta *m, const cJSON *v)
{
    const cJSON *pg;
    cJSON_ArrayForEach(pg, v) {
        if (m->npgs == TRACE_MAX_PGS)
            break;
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(pg, "pg_name");
        if (!cJSON_IsObject(pg) || !cJSON_IsString(name))
            continue;
        struct trace_pg *p = &m->pgs[m->npgs++];
        copy_text(p->name, sizeof p->name, name->valuestring);
        if (!integer_of(cJSON_GetObjectItemCaseSensitive(pg, "pg_size"), &p->size))
            p->size = -1;
        const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(pg, "ranks");
        p->ranks_hash = cJSON_IsArray(ranks) ? ranks_hash(ranks) : 0;
    }
}

static void read_distributed(struct trace_meta *m, const cJSON *v)
{
    if (!cJSON_IsObject(v))
        return;
    m->has_rank = integer_of(cJSON_GetObjectItemCaseSensitive(v, "rank"), &m->rank);
    m->has_world_size =
        integer_of(cJSON_GetObjectItemCaseSensitive(v, "world_size"), &m->world_size);
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(v, "backend");
    if (cJSON_IsString(b))
        copy_text(m->backend, sizeof m->backend, b->valuestring);
    const cJSON *pgs = cJSON_GetObjectItemCaseSensitive(v, "pg_config");
    if (cJSON_IsArray(pgs))
        read_pgs(m, pgs);
}

static void read_devices(struct trace_meta *m, const cJSON *v)
{
    if (!cJSON_IsArray(v))
        return;
    int n = cJSON_GetArraySize(v);
    m->device_properties = n;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(v, 0), "name");
    if (n > 0 && cJSON_IsString(name))
        copy_text(m->device_name, sizeof m->device_name, name->valuestring);
}

/* Which fact a key holds (first occurrence only), 0 for none. */
static unsigned key_kind(struct trace_meta_state *st, const char *key, size_t len)
{
    static const struct {
        const char *name;
        unsigned bit;
    } keys[] = {
        {"distributedInfo", SEEN_DIST}, {"baseTimeNanoseconds", SEEN_BASE},
        {"displayTimeUnit", SEEN_UNIT}, {"deviceProperties", SEEN_DEV},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (len == strlen(keys[i].name) && memcmp(key, keys[i].name, len) == 0) {
            if (st->seen & keys[i].bit)
                return 0;
            st->seen |= keys[i].bit;
            return keys[i].bit;
        }
    }
    return 0;
}

static void read_fact(struct trace_meta *m, unsigned kind, const cJSON *v, const char *text,
                      size_t len)
{
    switch (kind) {
    case SEEN_DIST:
        read_distributed(m, v);
        break;
    case SEEN_BASE:
        /* From the text: nanoseconds since 1970 need more digits than a double. */
        if (cJSON_IsNumber(v))
            m->has_base_time = trace_number_scaled(text, len, 0, false, &m->base_time_ns, NULL);
        break;
    case SEEN_UNIT:
        if (cJSON_IsString(v))
            copy_text(m->display_time_unit, sizeof m->display_time_unit, v->valuestring);
        break;
    case SEEN_DEV:
        read_devices(m, v);
        break;
    default:
        break;
    }
}

int trace_meta_add(struct trace_meta_state *st, const char *key, size_t key_len, uint64_t offset,
                   const char *text, size_t len, struct err *e)
{
    unsigned kind = key_kind(st, key, key_len);
    /* Values htx does not read only need to be JSON: the strict check builds
     * no tree; cJSON (as lenient as the element reader) is asked otherwise. */
    if (!kind && trace_fields_is_json(text, len))
        return 0;
    if (len > TRACE_CJSON_MAX_BYTES)
        return err_set(e, ERR_LIMIT, "byte %llu: a top-level value of %zu bytes is %s",
                       (unsigned long long)offset, len,
                       kind ? "too large to read" : "not strict JSON, and too large to check");
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    size_t stop = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
    if (!v || stop != len) {
        cJSON_Delete(v);
        return err_set(e, ERR_PARSE, "byte %llu: invalid JSON in a top-level value",
                       (unsigned long long)(offset + stop));
    }
    read_fact(&st->meta, kind, v, text, len);
    cJSON_Delete(v);
    return 0;
}
