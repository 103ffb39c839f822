# Reliability tests (issue 6): the fuzz target replayed over its seed corpus
# and every crash it ever found (no libFuzzer needed: a small main feeds it
# the saved inputs), and the hostile-input suite.
check_PROGRAMS += tests/fuzz/replay
tests_fuzz_replay_SOURCES = tests/fuzz/replay_main.c tests/fuzz/fuzz_load.c tests/fuzz/fuzz.h
tests_fuzz_replay_CPPFLAGS = $(AM_CPPFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_fuzz_replay_LDADD = $(CORE_LIBS)
TESTS += tests/fuzz/replay

# The number target over its seeds and regressions (tests/fuzz/number).
check_PROGRAMS += tests/fuzz/replay-number
tests_fuzz_replay_number_SOURCES = tests/fuzz/replay_main.c tests/fuzz/fuzz_number.c \
	tests/fuzz/fuzz.h
tests_fuzz_replay_number_CPPFLAGS = $(AM_CPPFLAGS) '-DFUZZ_REPLAY_DIRS="tests/fuzz/number"'
tests_fuzz_replay_number_LDADD = $(CORE_LIBS)
TESTS += tests/fuzz/replay-number

# valgrind.sh skips unless make check-valgrind runs it (HTX_VALGRIND=1).
HOSTILE_TESTS = tests/hostile/truncated.sh tests/hostile/gzip.sh tests/hostile/json.sh \
	tests/hostile/files.sh tests/hostile/outputs.sh tests/hostile/edges.sh \
	tests/hostile/valgrind.sh
TESTS += $(HOSTILE_TESTS)
EXTRA_DIST += $(HOSTILE_TESTS) tests/hostile/lib.sh tests/hostile/bigtrace.sh \
	tests/fuzz/corpus tests/fuzz/regressions tests/fuzz/number tests/fuzz/fuzz.dict \
	tests/fuzz/fuzz.sh
