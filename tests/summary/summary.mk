# summary layer: the .htxs container, its source record and its writer;
# the TUI's cache of them.
check_PROGRAMS += tests/summary/check_summary
tests_summary_check_summary_SOURCES = tests/summary/check_summary.c tests/summary/check_tiles_io.c \
	tests/summary/check_colls_io.c tests/summary/check_sparse.c \
	tests/summary/check_cache.c \
	tests/summary/summary_test.h tests/analysis/same_tables.c tests/analysis/same_tables.h
tests_summary_check_summary_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(ZLIB_CFLAGS)
tests_summary_check_summary_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/summary/check_summary
# htx summarize and report on summaries: exactness, shards, xargs, GNU parallel
TESTS += tests/summary/summarize.sh tests/summary/summarize_shared.sh tests/summary/cache.sh \
	tests/summary/summary_job.sh tests/summary/trace_paths.sh
EXTRA_DIST += tests/summary/summarize.sh tests/summary/summarize_shared.sh tests/summary/compare.sh \
	tests/summary/cache.sh tests/summary/summary_job.sh \
	tests/summary/trace_paths.sh tests/summary/slurm.sh contrib/slurm/htx-summarize.sbatch
