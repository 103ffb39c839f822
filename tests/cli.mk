# cli tests: the option parser and output writers (Check), and shell tests of the htx binary.
if HAVE_CHECK
check_PROGRAMS += tests/check_cli
tests_check_cli_SOURCES = tests/check_cli.c tests/check_cli_format.c tests/check_cli.h
tests_check_cli_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_check_cli_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/check_cli
check_PROGRAMS += tests/check_prefs
tests_check_prefs_SOURCES = tests/check_prefs.c
tests_check_prefs_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_prefs_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/check_prefs
endif

# json_valid: parses the JSON the shell tests capture (no python needed).
check_PROGRAMS += tests/json_valid
tests_json_valid_SOURCES = tests/json_valid.c
tests_json_valid_CFLAGS = $(AM_CFLAGS) $(CJSON_CFLAGS)
tests_json_valid_LDADD = $(CJSON_LIBS)

CLI_SHELL_TESTS = tests/cli/usage.sh tests/cli/input_errors.sh tests/cli/info.sh \
	tests/cli/counters.sh tests/cli/escape.sh tests/cli/report.sh
TESTS += $(CLI_SHELL_TESTS) tests/man.sh
EXTRA_DIST += $(CLI_SHELL_TESTS) tests/man.sh tests/cli/lib.sh tests/data/cli tests/expected/cli

# htx report --semantics=hta against HTA's oracle, end to end
if HAVE_CHECK
check_PROGRAMS += tests/check_report_oracle
tests_check_report_oracle_SOURCES = tests/check_report_oracle.c tests/oracle_compare.c tests/oracle_compare.h
tests_check_report_oracle_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_check_report_oracle_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS)
TESTS += tests/check_report_oracle
endif
