# analysis files of the attribution owner
libcore_a_SOURCES += \
	src/analysis/topn.c \
	src/analysis/annotations.c src/analysis/annotations.h \
	src/analysis/annotation_tables.c \
	src/analysis/callgraph.c src/analysis/callgraph.h \
	src/analysis/sequences.c
