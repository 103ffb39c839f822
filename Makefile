# The committed top-level Makefile: it drives autotools out of tree in build/.
# (configure is never run in the source directory: it would overwrite this file.)
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SHELL := /bin/bash

.PHONY: all deps run check check-asan check-valgrind distcheck bench fuzz clean install

all: $(BUILD)/Makefile
	$(MAKE) -C $(BUILD) -j$(JOBS)

configure: configure.ac Makefile.am $(wildcard src/*/local.mk tests/*.mk)
	autoreconf -fi
	@touch configure

$(BUILD)/Makefile: configure
	mkdir -p $(BUILD) && cd $(BUILD) && ../configure --enable-werror

check: all
	$(MAKE) -C $(BUILD) -j$(JOBS) check || { cat $(BUILD)/tests/*.log 2>/dev/null | tail -100; exit 1; }

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
