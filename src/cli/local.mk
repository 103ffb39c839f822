# cli layer: the command line, the headless commands and their output writers.
# cli.c calls ui_main (libui.a), so it is linked into the program itself.
src_htx_SOURCES += src/cli/cli.c
libcore_a_SOURCES += \
	src/cli/cli.h src/cli/commands.h \
	src/cli/options.c src/cli/optvalues.c src/cli/options.h \
	src/cli/prefs.c src/cli/prefs.h \
	src/cli/format.h src/cli/format_common.c src/cli/format_json.c \
	src/cli/format_csv.c src/cli/format_text.c \
	src/cli/session.c src/cli/session.h \
	src/cli/info.c src/cli/report.c src/cli/report_out.c src/cli/counters_cmd.c
include $(srcdir)/src/cli/diff.mk
