# Tests: each layer's Check suite and shell tests live in their own fragment.
include $(srcdir)/tests/util.mk
include $(srcdir)/tests/trace.mk
include $(srcdir)/tests/model.mk
include $(srcdir)/tests/analysis.mk
include $(srcdir)/tests/summary.mk
include $(srcdir)/tests/cli.mk
include $(srcdir)/tests/ui.mk
include $(srcdir)/tests/gen.mk
include $(srcdir)/tests/hostile.mk
