# model layer: per-rank model built from the trace sink.
libcore_a_SOURCES += \
	src/model/model.h src/model/build.h \
	src/model/semantics.c src/model/semantics.h \
	src/model/builder.c src/model/load.c src/model/finish.c src/model/graphs.c \
	src/model/select.c src/model/query.c src/model/from_summaries.c src/model/hta_model.c
