# tests of the diff analyses
if HAVE_CHECK
check_PROGRAMS += tests/check_diff
tests_check_diff_SOURCES = tests/check_diff.c
tests_check_diff_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_check_diff_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS)
TESTS += tests/check_diff
# the TUI diff view without a terminal (libui.a: no curses symbols needed)
check_PROGRAMS += tests/check_view_diff
tests_check_view_diff_SOURCES = tests/check_view_diff.c
tests_check_view_diff_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_view_diff_LDADD = libui.a $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/check_view_diff
endif
# shell tests of `htx diff` (they need the htx binary): the report, the
# regression gate, errors, screen dumps of the diff view and a tmux run
TESTS += tests/cli/diff_report.sh tests/cli/diff_gate.sh tests/cli/diff_errors.sh \
	tests/cli/diff_screens.sh tests/cli/diff_tmux.sh
EXTRA_DIST += tests/cli/diff_lib.sh tests/cli/diff_report.sh tests/cli/diff_gate.sh \
	tests/cli/diff_errors.sh tests/cli/diff_screens.sh tests/cli/diff_tmux.sh \
	tests/data/diff tests/expected/diff
