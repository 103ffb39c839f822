# diff command
libcore_a_SOURCES += src/cli/diff_cmd.c src/cli/diff_cmd.h src/cli/diff_out.c src/cli/diff_out.h \
	src/cli/diff_fit.c src/cli/diff_fit.h
