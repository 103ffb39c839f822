# trace layer: add this layer's sources here.
include $(srcdir)/src/trace/counters.mk
