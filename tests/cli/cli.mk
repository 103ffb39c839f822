# tests of src/cli: shell tests of the headless commands (they run htx),
# and htx report --semantics=hta against HTA's oracle end to end.
# json_valid: parses the JSON the shell tests capture (no python needed).
check_PROGRAMS += tests/json_valid
tests_json_valid_SOURCES = tests/json_valid.c
tests_json_valid_CFLAGS = $(AM_CFLAGS) $(CJSON_CFLAGS)
tests_json_valid_LDADD = $(CJSON_LIBS)

CLI_SHELL_TESTS = tests/cli/usage.sh tests/cli/input_errors.sh tests/cli/info.sh \
	tests/cli/counters.sh tests/cli/escape.sh tests/cli/report.sh \
	tests/cli/diff_report.sh tests/cli/diff_gate.sh tests/cli/diff_errors.sh \
	tests/cli/trust.sh tests/cli/check.sh
TESTS += $(CLI_SHELL_TESTS) tests/man.sh
EXTRA_DIST += $(CLI_SHELL_TESTS) tests/man.sh tests/data/cli tests/expected/cli \
	tests/data/diff tests/expected/diff

# htx report --semantics=hta against HTA's oracle, end to end
if HAVE_CHECK
check_PROGRAMS += tests/cli/check_report_oracle
tests_cli_check_report_oracle_SOURCES = tests/cli/check_report_oracle.c \
	tests/analysis/oracle_compare.c tests/analysis/oracle_compare.h
tests_cli_check_report_oracle_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_cli_check_report_oracle_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS)
TESTS += tests/cli/check_report_oracle
endif
