# Reliability tests: the fuzz target replayed over its seed corpus
# and every crash it ever found (no libFuzzer needed: a small main feeds it
# the saved inputs), and the hostile-input suite.
check_PROGRAMS += tests/fuzz/replay
tests_fuzz_replay_SOURCES = tests/fuzz/replay_main.c tests/fuzz/fuzz_load.c tests/fuzz/fuzz.h \
	tests/fuzz/fuzz_common.c
tests_fuzz_replay_CPPFLAGS = $(AM_CPPFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_fuzz_replay_LDADD = $(CORE_LIBS)
TESTS += tests/fuzz/replay

# The number target over its seeds and regressions (tests/fuzz/number).
check_PROGRAMS += tests/fuzz/replay-number
tests_fuzz_replay_number_SOURCES = tests/fuzz/replay_main.c tests/fuzz/fuzz_number.c \
	tests/fuzz/fuzz.h tests/fuzz/fuzz_common.c
tests_fuzz_replay_number_CPPFLAGS = $(AM_CPPFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS) \
	'-DFUZZ_REPLAY_DIRS="tests/fuzz/number"'
tests_fuzz_replay_number_LDADD = $(CORE_LIBS)
TESTS += tests/fuzz/replay-number

# The split fuzz targets over the same saved inputs: the reader, the
# model and one analysis at a time (its first byte picks it) over the
# regressions and the seed corpus; the text target (TUI sanitiser, grid,
# layout, CLI escapers, script parser) over tests/fuzz/text.
FUZZ_SPLIT_SOURCES = tests/fuzz/replay_main.c tests/fuzz/fuzz.h tests/fuzz/fuzz_common.c
check_PROGRAMS += tests/fuzz/replay-reader tests/fuzz/replay-model tests/fuzz/replay-analysis \
	tests/fuzz/replay-text
tests_fuzz_replay_reader_SOURCES = $(FUZZ_SPLIT_SOURCES) tests/fuzz/fuzz_reader.c \
	tests/trace/event_log.c tests/trace/event_log.h
tests_fuzz_replay_reader_CPPFLAGS = $(AM_CPPFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_fuzz_replay_reader_LDADD = $(CORE_LIBS)
tests_fuzz_replay_model_SOURCES = $(FUZZ_SPLIT_SOURCES) tests/fuzz/fuzz_model.c
tests_fuzz_replay_model_CPPFLAGS = $(AM_CPPFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_fuzz_replay_model_LDADD = $(CORE_LIBS)
tests_fuzz_replay_analysis_SOURCES = $(FUZZ_SPLIT_SOURCES) tests/fuzz/fuzz_analysis.c
tests_fuzz_replay_analysis_CPPFLAGS = $(AM_CPPFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_fuzz_replay_analysis_LDADD = $(CORE_LIBS)
tests_fuzz_replay_text_SOURCES = $(FUZZ_SPLIT_SOURCES) tests/fuzz/fuzz_text.c
tests_fuzz_replay_text_CPPFLAGS = $(AM_CPPFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS) \
	'-DFUZZ_REPLAY_DIRS="tests/fuzz/text"'
tests_fuzz_replay_text_LDADD = libui.a $(CORE_LIBS)
TESTS += tests/fuzz/replay-reader tests/fuzz/replay-model tests/fuzz/replay-analysis \
	tests/fuzz/replay-text

# The summary target (rank summaries, whole and by section) over its seeds
# and regressions (tests/fuzz/summary).
check_PROGRAMS += tests/fuzz/replay-summary
tests_fuzz_replay_summary_SOURCES = $(FUZZ_SPLIT_SOURCES) tests/fuzz/fuzz_summary.c
tests_fuzz_replay_summary_CPPFLAGS = $(AM_CPPFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS) \
	'-DFUZZ_REPLAY_DIRS="tests/fuzz/summary"'
tests_fuzz_replay_summary_LDADD = $(CORE_LIBS)
TESTS += tests/fuzz/replay-summary

# valgrind.sh skips unless make check-valgrind runs it (HTX_VALGRIND=1).
HOSTILE_TESTS = tests/hostile/truncated.sh tests/hostile/gzip.sh tests/hostile/json.sh \
	tests/hostile/files.sh tests/hostile/outputs.sh tests/hostile/edges.sh \
	tests/hostile/valgrind.sh
TESTS += $(HOSTILE_TESTS)
EXTRA_DIST += $(HOSTILE_TESTS) tests/hostile/bigtrace.sh \
	tests/fuzz/corpus tests/fuzz/regressions tests/fuzz/number tests/fuzz/text \
	tests/fuzz/summary tests/fuzz/summary_seeds.c \
	tests/fuzz/fuzz.dict tests/fuzz/fuzz.sh tests/fuzz/seed_slices.c
