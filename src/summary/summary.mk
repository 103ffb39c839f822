# summary layer (issue 12): the rank summary file format, below cli and ui,
# above util; libc only (its CRC-32 is hand-rolled, zlib stays in src/trace).
libcore_a_SOURCES += \
	src/summary/htxs.c src/summary/htxs.h \
	src/summary/source.c src/summary/source.h \
	src/summary/shard.c src/summary/shard.h \
	src/summary/write.c src/summary/write.h \
	src/summary/tables.c src/summary/tables.h
