#include "config.h"
#include "analysis/collectives.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* The names, kinds and sizes collectives are reported with (collectives.h). */

const char *coll_rule_name(enum coll_match_rule r)
{
    return r == COLL_MATCH_SEQ ? "group+seq" : "group+name+order";
}

const char *coll_issue_text(enum coll_issue i)
{
    switch (i) {
    case COLL_ISSUE_ALONE: return "no instance with the same key on another rank";
    case COLL_ISSUE_DUPLICATE: return "one rank has the same group and sequence number twice";
    case COLL_ISSUE_NAME_MISMATCH: return "same group and sequence number, different collectives";
    case COLL_ISSUE_SIZE_MISMATCH: return "ranks disagree on the group's size or members";
    case COLL_ISSUE_NOT_MEMBER: return "a rank outside its own Process Group Ranks";
    case COLL_ISSUE_MISSING_RANK: return "a loaded rank of the group never called it";
    default: return "?";
    }
}

const char *coll_kind_name(enum coll_kind k)
{
    static const char *const names[] = {"other", "allreduce", "allgather", "reducescatter",
                                        "alltoall", "broadcast", "reduce", "sendrecv"};
    return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "other";
}

/* Lower-case letters and digits of s only: "All_Reduce" and "allreduce"
 * compare equal. */
static void squash(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        if (isalnum((unsigned char)*s))
            out[n++] = (char)tolower((unsigned char)*s);
    out[n] = '\0';
}

enum coll_kind coll_kind_of(const char *s)
{
    char k[128];
    squash(s, k, sizeof k);
    /* Longest names first: "allreduce" contains "reduce". */
    if (strstr(k, "allreduce"))
        return COLL_KIND_ALLREDUCE;
    if (strstr(k, "reducescatter"))
        return COLL_KIND_REDUCESCATTER;
    if (strstr(k, "allgather"))
        return COLL_KIND_ALLGATHER;
    if (strstr(k, "alltoall"))
        return COLL_KIND_ALLTOALL;
    if (strstr(k, "broadcast"))
        return COLL_KIND_BROADCAST;
    if (strstr(k, "sendrecv") || strcmp(k, "send") == 0 || strcmp(k, "recv") == 0 ||
        strstr(k, "kernelsend") || strstr(k, "kernelrecv"))
        return COLL_KIND_SENDRECV;
    if (strstr(k, "reduce"))
        return COLL_KIND_REDUCE;
    return COLL_KIND_OTHER;
}

int coll_dtype_size(const char *s)
{
    static const struct {
        const char *name;
        int size;
    } sizes[] = {
        {"Byte", 1}, {"Char", 1}, {"Bool", 1}, {"QInt8", 1}, {"QUInt8", 1},
        {"Float8_e5m2", 1}, {"Float8_e4m3fn", 1}, {"Float8_e5m2fnuz", 1},
        {"Float8_e4m3fnuz", 1}, {"Short", 2}, {"Half", 2}, {"BFloat16", 2},
        {"UInt16", 2}, {"Int", 4}, {"Float", 4}, {"QInt32", 4}, {"UInt32", 4},
        {"ComplexHalf", 4}, {"Long", 8}, {"Double", 8}, {"ComplexFloat", 8},
        {"UInt64", 8}, {"ComplexDouble", 16},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(s, sizes[i].name) == 0)
            return sizes[i].size;
    return 0;
}

double coll_busbw_factor(enum coll_kind k, int64_t n)
{
    if (n < 1)
        return NAN;
    double dn = (double)n;
    switch (k) {
    case COLL_KIND_ALLREDUCE: return 2.0 * (dn - 1.0) / dn;
    case COLL_KIND_ALLGATHER:
    case COLL_KIND_REDUCESCATTER:
    case COLL_KIND_ALLTOALL: return (dn - 1.0) / dn;
    case COLL_KIND_BROADCAST:
    case COLL_KIND_REDUCE:
    case COLL_KIND_SENDRECV: return 1.0;
    default: return NAN;
    }
}
