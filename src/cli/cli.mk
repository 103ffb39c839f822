# cli layer: the headless commands (info, report, counters, diff --report, summarize)
# and their writers. Never includes ui/.
libcore_a_SOURCES += \
	src/cli/cli.c src/cli/cli.h src/cli/commands.h \
	src/cli/info.c src/cli/report.c src/cli/report_out.c src/cli/counters_cmd.c \
	src/cli/diff_cmd.c src/cli/diff_cmd.h src/cli/diff_out.c src/cli/diff_out.h \
	src/cli/diff_fit.c src/cli/diff_fit.h \
	src/cli/summarize.c src/cli/report_summaries.c src/cli/summaries.h \
	src/cli/report_findings.c src/cli/check_cmd.c
