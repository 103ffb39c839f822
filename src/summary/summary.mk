# summary layer: the result tables a rank summary holds and the
# shards of the map, below cli and ui; the container and its source record
# are util/summary_file and util/summary_file_source (the trace layer reads summaries).
libcore_a_SOURCES += \
	src/summary/shard.c src/summary/shard.h \
	src/summary/write.c src/summary/write.h \
	src/summary/tables.c src/summary/tables.h \
	src/summary/deflated.c src/summary/deflated.h \
	src/summary/tiles_io.c src/summary/tiles_io.h \
	src/summary/colls_io.c src/summary/colls_io.h
