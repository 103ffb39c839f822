# summary layer (issue 12): what a rank summary holds besides its events
# (source record, result tables, shards), below cli and ui; the container
# itself is util/htxs (the trace layer reads its events section).
libcore_a_SOURCES += \
	src/summary/source.c src/summary/source.h \
	src/summary/shard.c src/summary/shard.h \
	src/summary/write.c src/summary/write.h \
	src/summary/tables.c src/summary/tables.h
