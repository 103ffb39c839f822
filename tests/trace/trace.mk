# tests of src/trace
if HAVE_CHECK
check_PROGRAMS += tests/trace/check_trace
tests_trace_check_trace_SOURCES = tests/trace/check_trace.c tests/trace/check_trace_events.c \
	tests/trace/check_trace_files.c tests/trace/check_trace_pack.c tests/trace/check_trace.h \
	tests/trace/check_trace_deflater.c tests/trace/check_trace_bytescan.c \
	tests/trace/event_log.c tests/trace/event_log.h
tests_trace_check_trace_CPPFLAGS = $(AM_CPPFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_trace_check_trace_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_trace_check_trace_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(ZLIB_LIBS)
TESTS += tests/trace/check_trace
endif
EXTRA_DIST += \
	tests/data/trace/small.json tests/data/trace/small.json.gz \
	tests/data/trace/gzip-content.json tests/data/trace/plain-content.json.gz \
	tests/data/trace/truncated.json.gz tests/data/trace/badcrc.json.gz \
	tests/data/trace/concat.json.gz tests/data/trace/trailing.json.gz

# Times the reader alone (no model), -p with a pack recorded: tests/trace/trace_speed [-r N] [-p] FILE...
noinst_PROGRAMS += tests/trace/trace_speed
tests_trace_trace_speed_SOURCES = tests/trace/trace_speed.c
tests_trace_trace_speed_LDADD = $(CORE_LIBS)
