# tests of the gpu analyses (launch, queue, membw) and the counters writer
if HAVE_CHECK
check_PROGRAMS += tests/check_gpu
tests_check_gpu_SOURCES = tests/check_gpu.c tests/check_gpu.h tests/oracle_compare.c \
	tests/check_gpu_counters.c tests/check_gpu_oracle.c
tests_check_gpu_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_check_gpu_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/check_gpu
endif
