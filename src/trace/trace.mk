# trace layer: reading trace files (gzip/plain, JSON) into a sink, and the
# counters writer.
libcore_a_SOURCES += \
	src/trace/event.h src/trace/discover.h \
	src/trace/number.c src/trace/number.h \
	src/trace/jstring.c src/trace/jstring.h src/trace/bytescan.c src/trace/bytescan.h \
	src/trace/source.c src/trace/source.h \
	src/trace/scan.c src/trace/scan.h \
	src/trace/fields.c src/trace/fields_cjson.c src/trace/fields.h \
	src/trace/meta.c src/trace/meta.h \
	src/trace/read.c src/trace/read.h \
	src/trace/pack.c src/trace/unpack.c src/trace/pack.h src/trace/pack_format.h \
	src/trace/unpack_records.c src/trace/unpack_records.h \
	src/trace/pack_dict.c src/trace/pack_dict.h \
	src/trace/zbuf.c src/trace/zbuf.h \
	src/trace/deflater.c src/trace/deflater.h \
	src/trace/discover.c \
	src/trace/counters_write.c src/trace/counters_write.h
EXTRA_DIST += contrib/pack-dict/make_pack_dict.py
