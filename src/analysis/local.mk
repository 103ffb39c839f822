# analysis layer: pure functions over the model. Each owner lists files in its own fragment.
libcore_a_SOURCES += \
	src/analysis/table.c src/analysis/table.h \
	src/analysis/analysis.h src/analysis/common.h \
	src/analysis/opts.c src/analysis/registry.c
include $(srcdir)/src/analysis/breakdown.mk
include $(srcdir)/src/analysis/gpu.mk
include $(srcdir)/src/analysis/attribution.mk
include $(srcdir)/src/analysis/diff.mk
