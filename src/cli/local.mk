# cli layer: add this layer's sources here.
include $(srcdir)/src/cli/diff.mk
