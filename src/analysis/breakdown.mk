# analysis files of the breakdown owner
libcore_a_SOURCES += \
	src/analysis/common.c \
	src/analysis/busy.c src/analysis/busy.h \
	src/analysis/temporal.c \
	src/analysis/kernels.c \
	src/analysis/overlap.c \
	src/analysis/idle.c \
	src/analysis/comm_check.c \
	src/analysis/kernel_summary.c src/analysis/kernel_summary.h
