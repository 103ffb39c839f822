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
	tests/analysis/breakdown_tiles.c tests/analysis/breakdown_kernel_parts.c \
	tests/analysis/oracle_compare.c tests/analysis/oracle_compare.h \
	tests/analysis/same_tables.c tests/analysis/same_tables.h
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
# collectives matching, waits, blame and stragglers; the planted stragglers
# come from the generator's collectives job (tests/gen/gen_coll.c)
if HAVE_CHECK
check_PROGRAMS += tests/analysis/check_collectives
tests_analysis_check_collectives_SOURCES = tests/analysis/check_collectives.c \
	tests/analysis/oracle_compare.c tests/analysis/oracle_compare.h \
	tests/analysis/planted_job.c tests/analysis/planted_job.h \
	tests/gen/gen_coll.c tests/gen/gen_coll.h tests/gen/gen_plant.c tests/gen/gen_out.c \
	tests/gen/gen_out.h
tests_analysis_check_collectives_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_analysis_check_collectives_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS) $(ZLIB_LIBS)
TESTS += tests/analysis/check_collectives
endif
# the Ranks view's tables over the generator's planted-straggler job
if HAVE_CHECK
check_PROGRAMS += tests/analysis/check_ranks
tests_analysis_check_ranks_SOURCES = tests/analysis/check_ranks.c \
	tests/analysis/planted_job.c tests/analysis/planted_job.h \
	tests/gen/gen_coll.c tests/gen/gen_coll.h tests/gen/gen_plant.c tests/gen/gen_out.c \
	tests/gen/gen_out.h
tests_analysis_check_ranks_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_analysis_check_ranks_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS) $(ZLIB_LIBS)
TESTS += tests/analysis/check_ranks
endif
# the kernel summary of the report: one row per kernel over the ranks
if HAVE_CHECK
check_PROGRAMS += tests/analysis/check_kernel_summary
tests_analysis_check_kernel_summary_SOURCES = tests/analysis/check_kernel_summary.c
tests_analysis_check_kernel_summary_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_analysis_check_kernel_summary_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/analysis/check_kernel_summary
endif
# GPU time by CPU annotation stack: hand-made cases, invariants
# over a generated trace and ../shared/traces
if HAVE_CHECK
check_PROGRAMS += tests/analysis/check_annotation_stacks
tests_analysis_check_annotation_stacks_SOURCES = tests/analysis/check_annotation_stacks.c \
	tests/analysis/oracle_compare.c tests/analysis/oracle_compare.h \
	tests/analysis/trace_doc.c tests/analysis/trace_doc.h \
	tests/gen/gen_model.h tests/gen/gen_catalog.c tests/gen/gen_sim.h tests/gen/gen_sim.c \
	tests/gen/gen_rng.h tests/gen/gen_write.h tests/gen/gen_write.c \
	tests/gen/gen_out.c tests/gen/gen_out.h
tests_analysis_check_annotation_stacks_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_analysis_check_annotation_stacks_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS) $(ZLIB_LIBS)
TESTS += tests/analysis/check_annotation_stacks
check_PROGRAMS += tests/analysis/check_annotation_tree
tests_analysis_check_annotation_tree_SOURCES = tests/analysis/check_annotation_tree.c \
	tests/analysis/oracle_compare.c tests/analysis/oracle_compare.h \
	tests/analysis/trace_doc.c tests/analysis/trace_doc.h
tests_analysis_check_annotation_tree_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_analysis_check_annotation_tree_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS) $(ZLIB_LIBS)
TESTS += tests/analysis/check_annotation_tree
endif
# The gaps behind idle_time_breakdown (the Idle view's drill-down)
if HAVE_CHECK
check_PROGRAMS += tests/analysis/check_idle_gaps
tests_analysis_check_idle_gaps_SOURCES = tests/analysis/check_idle_gaps.c \
	tests/analysis/oracle_compare.c tests/analysis/oracle_compare.h \
	tests/analysis/trace_doc.c tests/analysis/trace_doc.h
tests_analysis_check_idle_gaps_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_analysis_check_idle_gaps_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS) $(ZLIB_LIBS)
TESTS += tests/analysis/check_idle_gaps
endif
# Times each analysis on a model loaded once (a developer's tool, like
# tests/trace/trace_speed): tests/analysis/analysis_speed [-r N] [report options] TRACE...
noinst_PROGRAMS += tests/analysis/analysis_speed
tests_analysis_analysis_speed_SOURCES = tests/analysis/analysis_speed.c
tests_analysis_analysis_speed_LDADD = $(CORE_LIBS)
# the job's trust checks: missing ranks, ranks of another job, dropped and overlapping events
if HAVE_CHECK
check_PROGRAMS += tests/analysis/check_trust
tests_analysis_check_trust_SOURCES = tests/analysis/check_trust.c
tests_analysis_check_trust_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_analysis_check_trust_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS) $(ZLIB_LIBS)
TESTS += tests/analysis/check_trust
endif
# the findings: each rule finds its planted problem and stays silent without it
if HAVE_CHECK
check_PROGRAMS += tests/analysis/check_findings
tests_analysis_check_findings_SOURCES = tests/analysis/check_findings.c \
	tests/analysis/trace_doc.c tests/analysis/trace_doc.h \
	tests/analysis/planted_job.c tests/analysis/planted_job.h \
	tests/gen/gen_coll.c tests/gen/gen_coll.h tests/gen/gen_plant.c tests/gen/gen_out.c \
	tests/gen/gen_out.h
tests_analysis_check_findings_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS) $(ZLIB_CFLAGS)
tests_analysis_check_findings_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS) $(ZLIB_LIBS)
TESTS += tests/analysis/check_findings
endif
# the lanes of a trace still loading (the TUI's loading screen)
if HAVE_CHECK
check_PROGRAMS += tests/analysis/check_lane_fill
tests_analysis_check_lane_fill_SOURCES = tests/analysis/check_lane_fill.c
tests_analysis_check_lane_fill_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_analysis_check_lane_fill_LDADD = $(CORE_LIBS) $(CHECK_LIBS)
TESTS += tests/analysis/check_lane_fill
endif
