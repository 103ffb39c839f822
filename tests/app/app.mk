# tests of src/app: the option parser and the output writers.
if HAVE_CHECK
check_PROGRAMS += tests/app/check_app
tests_app_check_app_SOURCES = tests/app/check_app.c tests/app/check_app_format.c tests/app/check_app.h
tests_app_check_app_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_app_check_app_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/app/check_app
endif
# the config file ($XDG_CONFIG_HOME/htx/config) against hostile lines
if HAVE_CHECK
check_PROGRAMS += tests/app/check_prefs
tests_app_check_prefs_SOURCES = tests/app/check_prefs.c
tests_app_check_prefs_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_app_check_prefs_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/app/check_prefs
endif
# kernel names fitted to a column, kept apart
if HAVE_CHECK
check_PROGRAMS += tests/app/check_name_fit
tests_app_check_name_fit_SOURCES = tests/app/check_name_fit.c
tests_app_check_name_fit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_app_check_name_fit_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/app/check_name_fit
endif
