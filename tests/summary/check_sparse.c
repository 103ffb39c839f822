#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "summary/tables.h"
#include "summary/write.h"
#include "util/summary_file.h"
#include "util/le.h"
#include "summary_test.h"
#include "../memcheck.h"

/* summary_file_load_file_sparse: a summary's small sections read and checked alone
 * (SUMMARY_FILE_CHECKS), the events left on disk; a damaged small section refused,
 * a damaged event not seen (the full read refuses it). */

enum { KIND_AFTER = 0x42 };

struct sample {
    char dir[32], path[64];
    uint8_t *bytes;      /* the file */
    size_t len;
    uint8_t big[5000];   /* the events' payload */
};

static void write_sample(struct sample *s, const uint8_t *bytes, size_t len)
{
    struct err e = {0, ""};
    ck_assert_int_eq(summary_file_write_file(s->path, bytes, len, 1, &e), 0);
}

/* source-like, rank, events (borrowed), a section after the events. */
static void make_sample(struct sample *s)
{
    strcpy(s->dir, "/tmp/htxs-sparse-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(s->dir));
    snprintf(s->path, sizeof s->path, "%s/rank-00003.htxs", s->dir);
    for (size_t i = 0; i < sizeof s->big; i++)
        s->big[i] = (uint8_t)(i * 2654435761u >> 11);
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    struct summary_file_rank r = {.rank = 3, .events = 77};
    snprintf(r.path, sizeof r.path, "traces/rank-3.json.gz");
    summary_file_rank_write(&w, &r);
    summary_file_begin_section(&w, SUMMARY_FILE_EVENTS);
    summary_file_put_u32(&w, 1);
    summary_file_put_borrowed(&w, s->big, sizeof s->big);
    summary_file_end_section(&w);
    summary_file_begin_section_tagged(&w, KIND_AFTER, 9);
    summary_file_put_str(&w, "after the events", 16);
    summary_file_end_section(&w);
    const uint8_t *buf;
    struct err e = {0, ""};
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &s->len, &e), 0);
    s->bytes = malloc(s->len);
    memcpy(s->bytes, buf, s->len);
    summary_file_writer_fini(&w);
    write_sample(s, s->bytes, s->len);
}

static void drop_sample(struct sample *s)
{
    unlink(s->path);
    rmdir(s->dir);
    free(s->bytes);
}

/* Offset of the payload of section i in the file, and its length. */
static size_t payload_at(const uint8_t *b, uint32_t i, uint64_t *len)
{
    size_t at = SUMMARY_FILE_HEADER_LEN;
    for (;; i--) {
        *len = le_load(b + at + 8, 8);
        if (i == 0)
            return at + SUMMARY_FILE_SECTION_HEADER_LEN;
        at += SUMMARY_FILE_SECTION_HEADER_LEN + (size_t)*len;
    }
}

START_TEST(sparse_read_should_leave_the_events_and_check_the_rest)
{
    struct sample s;
    make_sample(&s);
    struct summary_file_doc full, sparse;
    struct err e = {0, ""};
    ck_assert_int_eq(summary_file_parse(&full, s.bytes, s.len, s.path, &e), 0);
    ck_assert_uint_eq(full.nsections, 4);
    ck_assert_uint_eq(full.sections[3].kind, SUMMARY_FILE_CHECKS);
    ck_assert_uint_eq(full.sections[3].len, 4 + 3 * 8);   // the file header's, two a section

    ck_assert_int_eq(summary_file_load_file_sparse(&sparse, s.path, SUMMARY_FILE_EVENTS, &e), 0);
    ck_assert_uint_eq(sparse.nsections, full.nsections);
    ck_assert_uint_eq(sparse.minor, SUMMARY_FILE_MINOR);
    for (uint32_t i = 0; i < full.nsections; i++) {
        ck_assert_uint_eq(sparse.sections[i].kind, full.sections[i].kind);
        ck_assert_uint_eq(sparse.sections[i].tag, full.sections[i].tag);
        ck_assert_uint_eq(sparse.sections[i].len, full.sections[i].len);
        if (full.sections[i].kind == SUMMARY_FILE_EVENTS)
            ck_assert_ptr_null(sparse.sections[i].data);
        else
            ck_assert(memcmp(sparse.sections[i].data, full.sections[i].data,
                             (size_t)full.sections[i].len) == 0);
    }
    struct summary_file_rank r;
    ck_assert_int_eq(summary_file_rank_read(&sparse, s.path, &r, &e), 0);
    ck_assert_int_eq(r.rank, 3);
    summary_file_doc_fini(&sparse);
    /* skipping nothing reads every section, checked */
    ck_assert_int_eq(summary_file_load_file_sparse(&sparse, s.path, 0, &e), 0);
    ck_assert(memcmp(summary_file_find(&sparse, SUMMARY_FILE_EVENTS)->data + 4, s.big, sizeof s.big) == 0);
    summary_file_doc_fini(&sparse);
    summary_file_doc_fini(&full);
    drop_sample(&s);
}
END_TEST

START_TEST(sparse_read_should_refuse_what_it_reads_damaged)
{
    struct sample s;
    make_sample(&s);
    uint8_t *copy = malloc(s.len);
    uint64_t ev_len, checks_len;
    size_t ev = payload_at(s.bytes, 1, &ev_len);
    size_t ev_check = payload_at(s.bytes, 3, &checks_len) + 4 + 8 + 4;   // the events' payload's
    for (size_t i = 0; i < s.len - SUMMARY_FILE_TRAILER_LEN; i++) {
        if (i >= ev + 64 && i < ev + ev_len - 64 && i % 97)   // inside the events: a sample
            continue;
        memcpy(copy, s.bytes, s.len);
        copy[i] ^= 0x10;
        write_sample(&s, copy, s.len);
        struct summary_file_doc doc;
        struct err e = {0, ""};
        int rc = summary_file_load_file_sparse(&doc, s.path, SUMMARY_FILE_EVENTS, &e);
        bool unread = (i >= ev && i < ev + ev_len) || (i >= ev_check && i < ev_check + 4);
        if (unread) {   // the events' bytes, and their checksum: a full read sees them
            ck_assert_msg(rc == 0, "byte %zu in the events: %s", i, e.msg);
            summary_file_doc_fini(&doc);
            ck_assert_int_eq(summary_file_load_file(&doc, s.path, &e), ERR_PARSE);
            ck_assert_ptr_nonnull(strstr(e.msg, "checksum"));
            continue;
        }
        ck_assert_msg(rc == ERR_PARSE, "byte %zu flipped: %d", i, rc);
        ck_assert_ptr_nonnull(strstr(e.msg, s.path));
        ck_assert_ptr_null(doc.sections);
    }
    /* every truncation */
    for (size_t cut = 1; cut <= s.len; cut++) {
        memcpy(copy, s.bytes, s.len);
        write_sample(&s, copy, cut);
        struct summary_file_doc doc;
        struct err e = {0, ""};
        ck_assert_int_eq(summary_file_load_file_sparse(&doc, s.path, SUMMARY_FILE_EVENTS, &e),
                         cut == s.len ? 0 : ERR_PARSE);
        summary_file_doc_fini(&doc);
    }
    free(copy);
    drop_sample(&s);
}
END_TEST

START_TEST(sparse_read_should_read_older_summaries_whole)
{
    struct sample s;
    make_sample(&s);
    /* minor 4, before the checks: read whole (and so checked whole) */
    le_store(s.bytes + 10, 4, 2);
    le_store(s.bytes + s.len - SUMMARY_FILE_TRAILER_LEN,
             summary_file_crc32(0, s.bytes, s.len - SUMMARY_FILE_TRAILER_LEN), 4);
    write_sample(&s, s.bytes, s.len);
    struct summary_file_doc doc;
    struct err e = {0, ""};
    ck_assert_int_eq(summary_file_load_file_sparse(&doc, s.path, SUMMARY_FILE_EVENTS, &e), 0);
    ck_assert_uint_eq(doc.minor, 4);
    ck_assert_ptr_nonnull(summary_file_find(&doc, SUMMARY_FILE_EVENTS)->data);
    summary_file_doc_fini(&doc);
    /* minor 5 whose last section is not the checks: refused */
    struct summary_file_writer w;
    summary_file_writer_init(&w);
    summary_file_begin_section(&w, KIND_AFTER);
    summary_file_end_section(&w);
    const uint8_t *buf;
    size_t len;
    ck_assert_int_eq(summary_file_writer_finish(&w, &buf, &len, &e), 0);
    uint8_t *odd = malloc(len);
    memcpy(odd, buf, len);
    le_store(odd + SUMMARY_FILE_HEADER_LEN + SUMMARY_FILE_SECTION_HEADER_LEN, KIND_AFTER, 4);   // checks' kind
    le_store(odd + len - SUMMARY_FILE_TRAILER_LEN, summary_file_crc32(0, odd, len - SUMMARY_FILE_TRAILER_LEN), 4);
    write_sample(&s, odd, len);
    ck_assert_int_eq(summary_file_load_file_sparse(&doc, s.path, SUMMARY_FILE_EVENTS, &e), ERR_PARSE);
    ck_assert_ptr_nonnull(strstr(e.msg, "no section checksums"));
    ck_assert_int_eq(summary_file_load_file_sparse(&doc, "/nonexistent/x.htxs", SUMMARY_FILE_EVENTS, &e), ERR_IO);
    free(odd);
    summary_file_writer_fini(&w);
    drop_sample(&s);
}
END_TEST

TCase *sparse_tcase(void)
{
    TCase *tc = tcase_create("sparse");
    tcase_add_test(tc, sparse_read_should_leave_the_events_and_check_the_rest);
    tcase_add_large_test(tc, sparse_read_should_refuse_what_it_reads_damaged);
    tcase_add_test(tc, sparse_read_should_read_older_summaries_whole);
    tcase_set_timeout(tc, 120);
    return tc;
}
