# ui tests: Check suites on the curses-free core, screen dumps and tmux.
if HAVE_CHECK
check_PROGRAMS += tests/check_ui
tests_check_ui_SOURCES = tests/check_ui.c tests/ui/check_ui.h \
	tests/ui/check_actions.c tests/ui/check_screen.c
tests_check_ui_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_check_ui_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSESW_CFLAGS)
tests_check_ui_LDADD = libui.a $(CORE_LIBS) $(CHECK_LIBS) $(NCURSESW_LIBS)
TESTS += tests/check_ui
endif
# Screen dumps (tests/ui/*.keys -> *.screen) and the tmux end-to-end test;
# both run htx itself, so they are not Check programs.
TESTS += tests/ui/screens.sh tests/ui/tmux.sh
EXTRA_DIST += tests/ui tests/data/ui tests/lsan.supp
# make bench: timeline redraw time (tests/bench.sh, hook bench_timeline)
noinst_PROGRAMS += tests/ui/bench_ui
tests_ui_bench_ui_SOURCES = tests/ui/bench_ui.c
tests_ui_bench_ui_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSESW_CFLAGS)
tests_ui_bench_ui_LDADD = libui.a $(CORE_LIBS) $(NCURSESW_LIBS)
