# tests of the attribution analyses
if HAVE_CHECK
check_PROGRAMS += tests/check_attribution
tests_check_attribution_SOURCES = tests/check_attribution.c tests/check_attribution.h \
	tests/attribution_oracle.c tests/oracle_compare.c tests/oracle_compare.h
tests_check_attribution_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_check_attribution_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS)
TESTS += tests/check_attribution
endif
