# analysis tests, one fragment per owner
include $(srcdir)/tests/analysis-breakdown.mk
include $(srcdir)/tests/analysis-gpu.mk
include $(srcdir)/tests/analysis-attribution.mk
include $(srcdir)/tests/analysis-diff.mk
include $(srcdir)/tests/analysis-collectives.mk
