# summary layer: the .htxs container, its source record and its writer.
check_PROGRAMS += tests/check_summary
tests_check_summary_SOURCES = tests/check_summary.c
tests_check_summary_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_summary_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/check_summary
