#ifndef HTX_TESTS_SUMMARY_TEST_H
#define HTX_TESTS_SUMMARY_TEST_H

#include <check.h>

/* The Check cases of tests/summary/check_summary's files besides its own. */
TCase *tiles_io_tcase(void);   /* check_tiles_io.c */
TCase *colls_io_tcase(void);   /* check_colls_io.c */
TCase *sparse_tcase(void);     /* check_sparse.c */
TCase *cache_tcase(void);      /* check_cache.c: the TUI's cache (app/cache.h) */

#endif
