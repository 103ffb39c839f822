# tests of src/ui: Check suites on the curses-free core, screen dumps and tmux.
if HAVE_CHECK
check_PROGRAMS += tests/ui/check_ui
tests_ui_check_ui_SOURCES = tests/ui/check_ui.c tests/ui/check_ui.h \
	tests/ui/check_actions.c tests/ui/check_screen.c tests/ui/check_nav.c \
	tests/ui/check_columns.c
tests_ui_check_ui_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_ui_check_ui_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSESW_CFLAGS)
tests_ui_check_ui_LDADD = libui.a $(CORE_LIBS) $(CHECK_LIBS) $(NCURSESW_LIBS)
TESTS += tests/ui/check_ui
# the diff view without a terminal (libui.a: no curses symbols needed)
check_PROGRAMS += tests/ui/check_view_diff
tests_ui_check_view_diff_SOURCES = tests/ui/check_view_diff.c
tests_ui_check_view_diff_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_ui_check_view_diff_LDADD = libui.a $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/ui/check_view_diff
endif
# Screen dumps (tests/ui/*.keys -> *.screen) and the tmux end-to-end test;
# both run htx itself, so they are not Check programs.
TESTS += tests/ui/screens.sh tests/ui/tmux.sh tests/ui/diff_screens.sh tests/ui/diff_tmux.sh \
	tests/ui/loading_tmux.sh
EXTRA_DIST += tests/ui tests/data/ui tests/lsan.supp
# make bench: timeline redraw time (tests/bench.sh, hook bench_timeline)
noinst_PROGRAMS += tests/ui/bench_ui
tests_ui_bench_ui_SOURCES = tests/ui/bench_ui.c
tests_ui_bench_ui_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSESW_CFLAGS)
tests_ui_bench_ui_LDADD = libui.a $(CORE_LIBS) $(NCURSESW_LIBS)
