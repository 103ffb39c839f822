# util tests
if HAVE_CHECK
check_PROGRAMS += tests/check_util
tests_check_util_SOURCES = tests/check_util.c
tests_check_util_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_util_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/check_util
endif
