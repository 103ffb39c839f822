# tests of collectives matching, waits, blame and stragglers (issue 13); the
# planted stragglers come from the generator's collectives job (tests/gen/gen_coll.c)
if HAVE_CHECK
check_PROGRAMS += tests/check_collectives
tests_check_collectives_SOURCES = tests/check_collectives.c tests/oracle_compare.c \
	tests/oracle_compare.h tests/gen/gen_coll.c tests/gen/gen_coll.h \
	tests/gen/gen_out.c tests/gen/gen_out.h
tests_check_collectives_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_check_collectives_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS) $(ZLIB_LIBS)
TESTS += tests/check_collectives
endif
