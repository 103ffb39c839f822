# Reliability tests (issue 6): the fuzz target replayed over its seed corpus
# and every crash it ever found (no libFuzzer needed: a small main feeds it
# the saved inputs), and the hostile-input suite.
check_PROGRAMS += tests/fuzz/replay
tests_fuzz_replay_SOURCES = tests/fuzz/replay_main.c tests/fuzz/fuzz_load.c tests/fuzz/fuzz.h
tests_fuzz_replay_CPPFLAGS = $(AM_CPPFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_fuzz_replay_LDADD = $(CORE_LIBS)
TESTS += tests/fuzz/replay

HOSTILE_TESTS = tests/hostile/truncated.sh tests/hostile/gzip.sh tests/hostile/json.sh \
	tests/hostile/files.sh
TESTS += $(HOSTILE_TESTS)
EXTRA_DIST += $(HOSTILE_TESTS) tests/hostile/lib.sh \
	tests/fuzz/corpus tests/fuzz/regressions tests/fuzz/fuzz.dict tests/fuzz/fuzz.sh
