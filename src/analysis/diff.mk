# analysis files of the diff owner
libcore_a_SOURCES += \
	src/analysis/diff.c src/analysis/diff.h \
	src/analysis/diff_table.c \
	src/analysis/diff_triage.c src/analysis/diff_triage.h
