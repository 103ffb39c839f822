# tests of src/util
if HAVE_CHECK
check_PROGRAMS += tests/util/check_util
tests_util_check_util_SOURCES = tests/util/check_util.c
tests_util_check_util_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_util_check_util_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/util/check_util
endif
