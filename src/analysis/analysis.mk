# analysis layer: pure functions over the model, one analysis per file.
libcore_a_SOURCES += \
	src/analysis/analysis.h src/analysis/opts.c src/analysis/registry.c \
	src/analysis/table.c src/analysis/table.h \
	src/analysis/argsort.c src/analysis/argsort.h src/analysis/stats.c src/analysis/stats.h \
	src/analysis/intervals.c src/analysis/intervals.h \
	src/analysis/classify.c src/analysis/classify.h \
	src/analysis/busy.c src/analysis/busy.h \
	src/analysis/tiles.c src/analysis/tiles.h src/analysis/lane_fill.c src/analysis/lane_fill.h \
	src/analysis/temporal.c src/analysis/kernels.c src/analysis/kernels.h \
	src/analysis/overlap.c src/analysis/idle.c src/analysis/idle.h \
	src/analysis/launch.c src/analysis/queue.c src/analysis/membw.c \
	src/analysis/counters.c src/analysis/series.h \
	src/analysis/gpu_util.c src/analysis/gpu_util.h \
	src/analysis/weighted.c src/analysis/weighted.h \
	src/analysis/topn.c src/analysis/topn.h \
	src/analysis/annotations.c src/analysis/annotations.h \
	src/analysis/annotation_tables.c \
	src/analysis/annotation_stacks.c src/analysis/annotation_stacks.h \
	src/analysis/annotation_stack_tables.c \
	src/analysis/annotation_tree.c src/analysis/annotation_tree.h \
	src/analysis/callgraph.c src/analysis/callgraph.h \
	src/analysis/sequences.c \
	src/analysis/ranks.c src/analysis/ranks.h \
	src/analysis/collectives.c src/analysis/collectives.h src/analysis/collective_names.c \
	src/analysis/collective_tables.c \
	src/analysis/stragglers_hta.c src/analysis/stragglers_hta.h \
	src/analysis/diff.c src/analysis/diff.h src/analysis/diff_steps.c src/analysis/diff_table.c \
	src/analysis/diff_triage.c src/analysis/diff_triage.h \
	src/analysis/comm_check.c src/analysis/kernel_summary.c src/analysis/kernel_summary.h \
	src/analysis/trust.c src/analysis/trust.h \
	src/analysis/findings.c src/analysis/findings.h src/analysis/findings_rules.h \
	src/analysis/findings_comm.c src/analysis/findings_host.c \
	src/analysis/findings_ranks.c src/analysis/findings_hot.c src/analysis/findings_facts.c \
	src/analysis/clocks.c src/analysis/clocks.h
