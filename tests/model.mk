# model tests
if HAVE_CHECK
check_PROGRAMS += tests/check_model
tests_check_model_SOURCES = tests/check_model.c
tests_check_model_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_check_model_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS)
TESTS += tests/check_model
endif
