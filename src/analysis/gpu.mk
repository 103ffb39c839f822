# analysis files of the gpu owner: launch statistics, queue length, memory
# bandwidth, their time series and counter tracks
libcore_a_SOURCES += \
	src/analysis/launch.c src/analysis/queue.c src/analysis/membw.c \
	src/analysis/counters.c src/analysis/series.h \
	src/analysis/gpu_util.c src/analysis/gpu_util.h \
	src/analysis/weighted.c src/analysis/weighted.h
