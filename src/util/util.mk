# util layer: libc only (and xxHash, in content_hash.c alone).
libcore_a_SOURCES += \
	src/util/err.c src/util/err.h \
	src/util/arena.c src/util/arena.h \
	src/util/vec.c src/util/vec.h \
	src/util/strtab.c src/util/strtab.h \
	src/util/hmap.c src/util/hmap.h \
	src/util/sort.c src/util/sort.h \
	src/util/utf8.c src/util/utf8.h \
	src/util/json_escape.c src/util/json_escape.h \
	src/util/outfile.c src/util/outfile.h \
	src/util/memory.c src/util/memory.h \
	src/util/str.c src/util/str.h src/util/pool.c src/util/pool.h src/util/clock.h \
	src/util/ring.c src/util/ring.h \
	src/util/le.h src/util/summary_file.c src/util/summary_file.h src/util/summary_file_sparse.c \
	src/util/summary_file_source.c src/util/summary_file_source.h \
	src/util/content_hash.c src/util/content_hash.h
