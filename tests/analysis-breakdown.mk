# tests of the breakdown analyses (and the shared analysis building blocks)
if HAVE_CHECK
check_PROGRAMS += tests/check_common tests/check_breakdown
tests_check_common_SOURCES = tests/check_common.c
tests_check_common_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_common_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
# oracle_compare.[ch]: HTA oracle comparison, reusable by the other analysis suites
tests_check_breakdown_SOURCES = tests/check_breakdown.c tests/breakdown_test.c \
	tests/breakdown_test.h tests/breakdown_props.c tests/breakdown_oracle.c \
	tests/oracle_compare.c tests/oracle_compare.h
tests_check_breakdown_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_check_breakdown_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS)
TESTS += tests/check_common tests/check_breakdown
check_PROGRAMS += tests/check_kernel_summary
tests_check_kernel_summary_SOURCES = tests/check_kernel_summary.c
tests_check_kernel_summary_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_kernel_summary_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/check_kernel_summary
endif
