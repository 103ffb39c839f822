#include "config.h"

/* The vector string search against its scalar reference, and the
 * one-pass plain-number reader against the general number path: both must
 * give the same answers on every input, hostile ones included. */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check_trace.h"
#include "trace/bytescan.h"
#include "trace/number.h"
#include "trace/source.h"
#include "../memcheck.h"

/* The forms the search can take on this CPU: 16 bytes a step, and 32
 * where AVX2 is there. Each test runs once per form. */
static int forms(void)
{
#ifdef TRACE_BYTESCAN_AVX2
    return __builtin_cpu_supports("avx2") ? 2 : 1;
#else
    return 1;
#endif
}

static void use_form(int form)
{
#ifdef TRACE_BYTESCAN_AVX2
    trace_bytescan_avx2 = form == 1;
#else
    (void)form;
#endif
}

/* Every search from every start in buf[0 .. len) (buf holds exactly len
 * bytes, so a load past it is caught under ASan and valgrind), in each form. */
static void check_every_start(const char *buf, size_t len)
{
    const char *end = buf + len;
    for (int form = 0; form < forms(); form++) {
        use_form(form);
        for (const char *p = buf; p <= end; p++) {
            if (trace_bytescan_special(p, end) != trace_bytescan_special_scalar(p, end))
                ck_abort_msg("form %d, %zu bytes from %td: the scans differ", form, len, p - buf);
        }
    }
    use_form(forms() - 1);
}

START_TEST(bytescan_should_find_what_the_scalar_scan_finds)
{
    static const char alphabet[] = {'a', ' ', '"', '\\', '\n', '\t', '\r', '\0', (char)0x80,
                                    (char)0xff, '{', ':', '\v', '\f', '!', '}', 0x02};
    uint64_t x = 88172645463325252u;   /* xorshift: the same inputs every run */
    for (size_t len = 0; len <= 112; len++) {
        for (int round = 0; round < 40; round++) {
            char *buf = malloc(len ? len : 1);
            ck_assert_ptr_nonnull(buf);
            /* Long runs of one byte, as in pretty-printed JSON, and mixes. */
            char run = alphabet[round % sizeof alphabet];
            for (size_t i = 0; i < len; i++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                buf[i] = round & 1 ? alphabet[x % sizeof alphabet] : (x % 23 ? run : '"');
            }
            check_every_start(buf, len);
            free(buf);
        }
    }
    /* One hit (or none, k == len) at every place of a plain run: every
     * step of every form ends there once. */
    for (size_t len = 0; len <= 112; len++) {
        for (size_t k = 0; k <= len; k++) {
            char *buf = malloc(len ? len : 1);
            ck_assert_ptr_nonnull(buf);
            memset(buf, 'a', len);
            if (k < len)
                buf[k] = k % 2 ? '"' : '\\';
            check_every_start(buf, len);
            free(buf);
        }
    }
}
END_TEST

/* The chain of hits a reader follows through a whole document, from 32
 * starts so that every alignment of the vector loads is taken. (A plain
 * test, not ck_assert: Check reports every passing assertion to its parent.) */
static void check_document(const char *path, const char *doc, size_t len)
{
    const char *end = doc + len;
    for (int form = 0; form < forms(); form++) {
        use_form(form);
        for (size_t start = 0; start < 32 && start <= len; start++) {
            for (const char *p = doc + start; p < end;) {
                const char *q = trace_bytescan_special(p, end);
                if (q != trace_bytescan_special_scalar(p, end))
                    ck_abort_msg("%s: form %d, byte %td: the scans differ", path, form, p - doc);
                p = q + 1;
            }
        }
    }
    use_form(forms() - 1);
}

static char *read_document(const char *path, size_t *len)
{
    struct err e = {0};
    struct trace_source *src = trace_source_open_file(path, NULL, &e);
    ck_assert_msg(src != NULL, "%s: %s", path, e.msg);
    size_t cap = 1 << 20, n = 0, got;
    char *doc = malloc(cap);
    ck_assert_ptr_nonnull(doc);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            doc = realloc(doc, cap);
            ck_assert_ptr_nonnull(doc);
        }
        ck_assert_msg(trace_source_read(src, doc + n, cap - n, &got, &e) == 0, "%s", e.msg);
        if (got == 0)
            break;
        n += got;
    }
    trace_source_close(src);
    *len = n;
    return doc;
}

static int walk(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            n += walk(path);
        } else if (strstr(de->d_name, ".json")) {
            size_t len;
            char *doc = read_document(path, &len);
            check_document(path, doc, len);
            free(doc);
            n++;
        }
    }
    closedir(d);
    return n;
}

START_TEST(bytescan_should_agree_on_every_shared_trace)
{
    char *dir = srcdir_path("../shared/traces");
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("../shared not found: skipping the real-trace byte-scan test (%s)\n", dir);
        free(dir);
        return;
    }
    ck_assert_int_gt(walk(dir), 0);
    free(dir);
    char *small = srcdir_path("tests/data/trace/small.json");
    size_t len;
    char *doc = read_document(small, &len);
    check_document(small, doc, len);
    free(doc);
    free(small);
}
END_TEST

static bool ends_number(char ch)
{
    return !((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
             ch == '-' || ch == '+' || ch == '.');
}

/* The one-pass reader on s followed by tail: when it takes the number, the
 * general path (scan, then trace_number_time / _scaled) must take the same
 * bytes and give the same values. Returns whether the one-pass reader took it. */
static bool check_plain(const char *num, const char *tail)
{
    char text[96];
    int avail = snprintf(text, sizeof text, "%s%s", num, tail);
    ck_assert_int_lt(avail, (int)sizeof text);
    struct trace_time fast = {.ns = 7}, slow;
    size_t k = trace_number_plain_time(text, (size_t)avail, &fast);
    size_t n = trace_number_scan(text, (size_t)avail);
    bool general = n > 0 && n < (size_t)avail && ends_number(text[n]);
    if (k == 0) {
        ck_assert_int_eq(fast.ns, 7);    /* untouched */
    } else {
        ck_assert_msg(general && n == k, "%s: %zu bytes against %zu", text, k, n);
        ck_assert(trace_number_time(text, n, &slow));
        ck_assert_int_eq(fast.ns, slow.ns);
        ck_assert_msg(memcmp(&fast.us, &slow.us, sizeof fast.us) == 0, "%s: us", text);
        ck_assert_int_eq(fast.present, slow.present);
        ck_assert_int_eq(fast.is_float, slow.is_float);
    }
    int64_t vi = 7, si;
    size_t ki = trace_number_plain_int(text, (size_t)avail, &vi);
    if (ki == 0) {
        ck_assert_int_eq(vi, 7);
    } else {
        ck_assert_msg(general && n == ki, "%s: int", text);
        ck_assert(trace_number_scaled(text, n, 0, false, &si, NULL));
        ck_assert_int_eq(vi, si);
    }
    return k != 0;
}

START_TEST(number_plain_should_agree_with_the_general_path)
{
    static const char *const plain[] = {
        "0", "-0", "7", "123", "1.5", "-1.5", "0.000123", "3541234568391",
        "3541234568391.123", "0.0005", "-0.0005", "0.0004999",
        "9007199254740993", "9007199254740.992", "-9223372036854775",
    };
    /* Not read in one pass (the general path takes them): too many digits,
     * out of range, not JSON, or past 2^53 with a fraction (us needs strtod). */
    static const char *const other[] = {
        "3541234568391.1235", "900719925474099.35", "9.999999999999999999", "1234567890123456789",
        "9223372036854775.807", "-9223372036854775.808",
        "12345678901234567890", "9223372036854775.808", "9223372036854776", "01", "-01",
        "1.", "-", "-.5", "1e3", "1.5E-2", "00", "18446744073709551616", "922337203685477580.7",
    };
    static const char *const tails[] = {",", "}", " ", "]", "\n", "e", "x", ".", "-", "0", ""};
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) {
        ck_assert_msg(check_plain(plain[i], ","), "%s: not read in one pass", plain[i]);
        for (size_t t = 0; t < sizeof tails / sizeof *tails; t++)
            check_plain(plain[i], tails[t]);
    }
    for (size_t i = 0; i < sizeof other / sizeof *other; i++)
        for (size_t t = 0; t < sizeof tails / sizeof *tails; t++)
            check_plain(other[i], tails[t]);
    struct trace_time t;
    ck_assert_uint_eq(trace_number_plain_time("0.0005}", 7, &t), 6);
    ck_assert_int_eq(t.ns, 1);    /* half a nanosecond rounds away from zero */
    ck_assert_uint_eq(trace_number_plain_time("-3541234568391.1235,", 20, &t), 0);
    ck_assert_uint_eq(trace_number_plain_time("-3541234568391.123,", 19, &t), 18);
    ck_assert_int_eq(t.ns, -3541234568391123);
    ck_assert(t.is_float);
    ck_assert(!check_plain("12", ""));    /* the text may go on */
    ck_assert(!check_plain("12", "e5,"));
}
END_TEST

/* trace_number_plain a byte at a time: the reference for its eight-byte
 * steps. */
static size_t plain_reference(const char *s, size_t avail, struct trace_number_plain *pl)
{
    size_t i = avail > 0 && s[0] == '-', lead = i;
    uint64_t D = 0;
    for (; i < avail && s[i] >= '0' && s[i] <= '9'; i++)
        D = D * 10 + (uint64_t)(s[i] - '0');
    size_t int_n = i - lead;
    if (int_n == 0 || (int_n > 1 && s[lead] == '0'))
        return 0;
    int nfrac = 0;
    if (i < avail && s[i] == '.') {
        size_t f = ++i;
        for (; i < avail && s[i] >= '0' && s[i] <= '9'; i++)
            D = D * 10 + (uint64_t)(s[i] - '0');
        nfrac = (int)(i - f);
        if (nfrac == 0)
            return 0;
    }
    if (int_n + (size_t)nfrac > 19 || i >= avail || !ends_number(s[i]))
        return 0;
    *pl = (struct trace_number_plain){D, nfrac, lead > 0};
    return i;
}

START_TEST(number_plain_should_read_digits_as_the_byte_loop_does)
{
    /* Digits, and the bytes around them that a word-wide digit test could
     * take for digits ('/', ':', bytes whose +6 carries). */
    static const char alphabet[] = {'0', '1', '5', '9', '9', '0', '.', '-', '/', ':', ',', 'e',
                                    (char)0xfa, (char)0xff, (char)0xf9, ' ', '}', 0x06};
    uint64_t x = 88172645463325252u;
    const int rounds = memcheck_rounds(4000);
    for (size_t len = 0; len <= 40; len++) {
        char *buf = malloc(len ? len : 1);
        ck_assert_ptr_nonnull(buf);
        for (int round = 0; round < rounds; round++) {
            for (size_t i = 0; i < len; i++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                /* Mostly digits, so that long runs and every run length come up. */
                buf[i] = x % 4 ? (char)('0' + (x >> 8) % 10) : alphabet[(x >> 8) % sizeof alphabet];
            }
            for (size_t from = 0; from <= len && from < 3; from++) {
                struct trace_number_plain a = {0, 0, false}, b = {0, 0, false};
                size_t ka = trace_number_plain(buf + from, len - from, &a);
                size_t kb = plain_reference(buf + from, len - from, &b);
                if (ka != kb || (ka && (a.D != b.D || a.nfrac != b.nfrac || a.neg != b.neg)))
                    ck_abort_msg("%.*s: %zu bytes against %zu", (int)(len - from), buf + from, ka,
                                 kb);
            }
        }
        free(buf);
    }
}
END_TEST

Suite *trace_bytescan_suite(void)
{
    Suite *s = suite_create("trace_bytescan");
    TCase *t = tcase_create("bytescan");
    tcase_add_test(t, bytescan_should_find_what_the_scalar_scan_finds);
    tcase_add_test(t, bytescan_should_agree_on_every_shared_trace);
    tcase_add_test(t, number_plain_should_agree_with_the_general_path);
    tcase_add_test(t, number_plain_should_read_digits_as_the_byte_loop_does);
    tcase_set_timeout(t, 60);
    suite_add_tcase(s, t);
    return s;
}
