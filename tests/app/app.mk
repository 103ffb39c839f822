# tests of src/app: the option parser and the output writers.
if HAVE_CHECK
check_PROGRAMS += tests/app/check_app
tests_app_check_app_SOURCES = tests/app/check_app.c tests/app/check_app_format.c tests/app/check_app.h
tests_app_check_app_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_app_check_app_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/app/check_app
endif
