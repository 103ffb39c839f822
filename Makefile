# The committed top-level Makefile. It installs what the build needs (Debian
# packages) and drives autotools out of tree: build/ for the program and the
# tests, build-asan/ and build-valgrind/ for the checked variants.
# configure never runs in the source directory: it would overwrite this file.
#
#   make run             install deps, build, open htx on assets/sample
#   make check           install deps, build, run every test
#   make check-asan      the tests under AddressSanitizer + UBSan (build-asan/)
#   make check-valgrind  the test programs of build/ under valgrind memcheck, and htx
#                        over a sample of real and generated traces (CI runs this)
#   make check-valgrind-full  the whole suite under memcheck in build-valgrind/ (asserts on),
#                        htx over every trace (long)
#   make check-slurm     htx summarize under a real one-node Slurm (tests/summary/slurm.sh)
#   make distcheck       build and test the release tarball
#   make bench           load-time and memory benchmark (tests/bench.sh); writes docs/performance.md
#   make bench-scale     htx summarize over a 1024-rank job with GNU parallel (tests/bench_scale.sh)
#   make fuzz            libFuzzer targets for FUZZ_SECONDS in all (default 60; tests/fuzz/fuzz.sh)
#   make fuzz-long       each libFuzzer target for FUZZ_SECONDS (default 600) in turn
#   make bigtrace        >4 GiB and >2^31-element traces (tests/hostile/bigtrace.sh; minutes, GBs)
#   make install         install htx and its man page (PREFIX=/usr/local)
#   make assets          regenerate assets/ with the trace generator
#   make clean           remove the build directories

BUILD ?= build
ASAN_BUILD ?= build-asan
VALGRIND_BUILD ?= build-valgrind
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local
CONFIGURE_FLAGS ?= --enable-werror
SHELL := /bin/bash

# Serialise autoreconf with anyone else regenerating this tree.
AUTORECONF := $(shell command -v flock >/dev/null 2>&1 && echo flock /tmp/htx-autoreconf.lock) autoreconf -fi

.PHONY: all deps run check check-asan check-valgrind check-valgrind-full check-slurm distcheck bench bench-scale install \
	assets clean
.PHONY: fuzz fuzz-long bigtrace

all: deps $(BUILD)/Makefile
	$(MAKE) -C $(BUILD) -j$(JOBS)

# ---- dependencies ---------------------------------------------------------------

# Debian package = how to tell it is installed: cmd:PROG (on PATH),
# pc:MODULE (pkg-config), file:PATH, or fuzzer (clang's libFuzzer runtime).
DEBIAN_DEPS = \
	build-essential=cmd:gcc,cmd:make \
	autoconf=cmd:autoreconf \
	automake=cmd:automake \
	pkg-config=cmd:pkg-config \
	libncurses-dev=pc:ncursesw \
	libcjson-dev=pc:libcjson \
	zlib1g-dev=pc:zlib \
	libisal-dev=pc:libisal \
	libxxhash-dev=pc:libxxhash \
	check=pc:check \
	tmux=cmd:tmux \
	groff-base=cmd:groff \
	valgrind=cmd:valgrind \
	clang=cmd:clang \
	libclang-rt-dev=fuzzer \
	time=file:/usr/bin/time \
	gzip=cmd:gzip \
	parallel=cmd:parallel \
	procps=cmd:ps,cmd:pgrep

# Only for make check-slurm: a real Slurm and munge on this machine.
SLURM_DEPS = \
	slurm-wlm=file:/usr/sbin/slurmctld,file:/usr/sbin/slurmd,cmd:sbatch \
	munge=file:/usr/sbin/munged

# Installs the missing packages (apt-get, through sudo when not root);
# does nothing, and needs no network, when everything is there.
deps:
	@have() { \
	    case $$1 in \
	    cmd:*) command -v "$${1#cmd:}" >/dev/null 2>&1 ;; \
	    pc:*) pkg-config --exists "$${1#pc:}" 2>/dev/null ;; \
	    file:*) test -e "$${1#file:}" ;; \
	    fuzzer) case $$(clang -print-file-name=libclang_rt.fuzzer-$$(uname -m).a 2>/dev/null) in \
	            /*) true ;; *) false ;; esac ;; \
	    esac; \
	}; \
	missing=; \
	for dep in $(DEBIAN_DEPS); do \
	    pkg=$${dep%%=*}; ok=1; \
	    IFS=, read -ra tests <<< "$${dep#*=}"; \
	    for t in "$${tests[@]}"; do have "$$t" || ok=0; done; \
	    [ $$ok = 1 ] || missing="$$missing $$pkg"; \
	done; \
	[ -z "$$missing" ] && exit 0; \
	echo "deps: installing:$$missing"; \
	command -v apt-get >/dev/null || { echo "deps: no apt-get; install:$$missing" >&2; exit 1; }; \
	sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing

# ---- configure and build ------------------------------------------------------------

configure: configure.ac Makefile.am $(wildcard src/*/*.mk tests/*.mk m4/*.m4)
	$(AUTORECONF)
	@touch configure

# $(1) = build directory, $(2) = configure flags
define configure_in
	mkdir -p $(1) && cd $(1) && ../configure $(2)
endef

$(BUILD)/Makefile: configure
	$(call configure_in,$(BUILD),$(CONFIGURE_FLAGS) --prefix=$(PREFIX))

# The checked variants keep assertions on and leave -Werror to build/:
# their optimisation level and instrumentation change what GCC warns about.
$(ASAN_BUILD)/Makefile: configure
	$(call configure_in,$(ASAN_BUILD),--enable-asan --enable-debug CFLAGS="-O1 -g")

$(VALGRIND_BUILD)/Makefile: configure
	$(call configure_in,$(VALGRIND_BUILD),--enable-valgrind --enable-debug)

run: all
	$(BUILD)/src/htx assets/sample

# ---- tests ----------------------------------------------------------------------

# $(1) = build directory: runs its test suite, then prints every Check summary
# line and each shell test's result; on failure, the failing tests' logs.
define run_suite
	@status=0; $(MAKE) -C $(1) -j$(JOBS) check || status=$$?; \
	tests/summary.sh $(1) $$status
endef

check: all
	$(call run_suite,$(BUILD))

check-asan: export ASAN_OPTIONS = detect_leaks=1
check-asan: export UBSAN_OPTIONS = print_stacktrace=1:halt_on_error=1
check-asan: deps $(ASAN_BUILD)/Makefile
	$(MAKE) -C $(ASAN_BUILD) -j$(JOBS)
	$(call run_suite,$(ASAN_BUILD))

# Memcheck runs build/'s own programs (a build of its own would cost CI
# another compile of everything for what ASan's build already checks).
check-valgrind: all
	@status=0; $(MAKE) -C $(BUILD) -j$(JOBS) check-memcheck \
	    LOG_COMPILER=$(CURDIR)/tests/valgrind-wrap.sh || status=$$?; \
	tests/summary.sh $(BUILD) $$status

check-valgrind-full: export HTX_VALGRIND_FULL = 1
check-valgrind-full: deps $(VALGRIND_BUILD)/Makefile
	$(MAKE) -C $(VALGRIND_BUILD) -j$(JOBS)
	$(call run_suite,$(VALGRIND_BUILD))

# The tarball builds, installs and passes the tests that read what it ships
# (sources, goldens, the sample, the man page, the README): the whole suite
# has run on the tree already. A failed distcheck leaves its build tree: its
# failing tests' logs are printed, as for the other suites (a CI log is all
# there is of a clean clone).
DISTCHECK_TESTS = tests/util/check_util tests/gen.sh tests/layering.sh tests/man.sh \
    tests/readme.sh tests/cli/report.sh tests/ui/screens.sh
distcheck: all
	@status=0; $(MAKE) -C $(BUILD) -j$(JOBS) distcheck DISTCHECK_CONFIGURE_FLAGS="$(CONFIGURE_FLAGS)" \
	    TESTS="$(DISTCHECK_TESTS)" || status=$$?; \
	if [ $$status != 0 ]; then \
	    for sub in $(BUILD)/htx-*/_build/sub; do [ -d "$$sub" ] && tests/summary.sh "$$sub" $$status; done; \
	fi; exit $$status

# The map step under a real one-node Slurm (slurm-wlm and munge; started and
# stopped by the test, which skips with the reason where they cannot run).
check-slurm: all
	$(MAKE) deps DEBIAN_DEPS="$(SLURM_DEPS)" || echo "check-slurm: cannot install Slurm here"
	$(MAKE) -C $(BUILD) -j$(JOBS) tests/gen/htx-gen
	HTX_SRCDIR=$(CURDIR) HTX_BUILDDIR=$(CURDIR)/$(BUILD) HTX=$(CURDIR)/$(BUILD)/src/htx \
	    tests/summary/slurm.sh; status=$$?; [ $$status = 77 ] || exit $$status

# The figures, with the date, the machine and the command, go to
# docs/performance.md (tests/bench_doc.sh): that file is never edited by hand.
bench: all
	$(MAKE) -C $(BUILD) tests/gen/htx-gen
	tests/bench_doc.sh $(BUILD) docs/performance.md

bench-scale: all
	$(MAKE) -C $(BUILD) tests/gen/htx-gen
	tests/bench_scale.sh $(BUILD)

install: all
	$(MAKE) -C $(BUILD) install

assets: all
	rm -rf assets/sample assets/diff
	tests/gen/assets.sh $(BUILD)/tests/gen/htx-gen assets


# ---- reliability (tests/fuzz, tests/hostile) ------------------------------------------

FUZZ_SECONDS ?= 60
FUZZ_BUILD ?= build-fuzz

# The libFuzzer targets (clang, ASan, UBSan), compiled outside autotools with
# $(BUILD)'s config.h, run for FUZZ_SECONDS in all; a crash fails.
fuzz: deps $(BUILD)/Makefile
	tests/fuzz/fuzz.sh $(BUILD) $(FUZZ_BUILD) $(FUZZ_SECONDS)

# The long run: FUZZ_SECONDS for each target (six of them), one after the
# other on one core; the last lines give each target's executions.
fuzz-long: FUZZ_SECONDS = 600
fuzz-long: deps $(BUILD)/Makefile
	FUZZ_PER_TARGET=1 tests/fuzz/fuzz.sh $(BUILD) $(FUZZ_BUILD) $(FUZZ_SECONDS)

# Traces past the 32-bit sizes: generated once under $(BUILD)/bigtrace
# (~600 MB of disk), then timed; several minutes. Never part of make check.
bigtrace: all
	$(MAKE) -C $(BUILD) tests/gen/htx-gen
	tests/hostile/bigtrace.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(VALGRIND_BUILD)
