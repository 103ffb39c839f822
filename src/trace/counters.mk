# counters writer (htx counters)
libcore_a_SOURCES += src/trace/counters_write.c src/trace/counters_write.h
