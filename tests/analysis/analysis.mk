# tests of src/analysis: the building blocks, each analysis against
# hand-made traces, properties over generated ones and HTA's own outputs
# (oracle_compare.[ch] reads ../shared/oracle; shared with tests/cli).
if HAVE_CHECK
check_PROGRAMS += tests/analysis/check_blocks tests/analysis/check_breakdown \
	tests/analysis/check_gpu tests/analysis/check_attribution tests/analysis/check_diff
tests_analysis_check_blocks_SOURCES = tests/analysis/check_blocks.c
tests_analysis_check_blocks_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_analysis_check_blocks_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
tests_analysis_check_breakdown_SOURCES = tests/analysis/check_breakdown.c \
	tests/analysis/breakdown_test.c tests/analysis/breakdown_test.h \
	tests/analysis/breakdown_props.c tests/analysis/breakdown_oracle.c \
	tests/analysis/oracle_compare.c tests/analysis/oracle_compare.h
tests_analysis_check_breakdown_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_analysis_check_breakdown_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS)
tests_analysis_check_gpu_SOURCES = tests/analysis/check_gpu.c tests/analysis/check_gpu.h \
	tests/analysis/oracle_compare.c tests/analysis/check_gpu_counters.c \
	tests/analysis/check_gpu_oracle.c
tests_analysis_check_gpu_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_analysis_check_gpu_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
tests_analysis_check_attribution_SOURCES = tests/analysis/check_attribution.c \
	tests/analysis/check_attribution.h tests/analysis/attribution_oracle.c \
	tests/analysis/oracle_compare.c tests/analysis/oracle_compare.h
tests_analysis_check_attribution_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_analysis_check_attribution_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS)
tests_analysis_check_diff_SOURCES = tests/analysis/check_diff.c
tests_analysis_check_diff_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_analysis_check_diff_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS)
TESTS += tests/analysis/check_blocks tests/analysis/check_breakdown tests/analysis/check_gpu \
	tests/analysis/check_attribution tests/analysis/check_diff
endif
# the kernel summary of the report: one row per kernel over the ranks
if HAVE_CHECK
check_PROGRAMS += tests/analysis/check_kernel_summary
tests_analysis_check_kernel_summary_SOURCES = tests/analysis/check_kernel_summary.c
tests_analysis_check_kernel_summary_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_analysis_check_kernel_summary_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/analysis/check_kernel_summary
endif
