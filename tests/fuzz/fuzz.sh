#!/bin/bash
# Builds the fuzz targets with clang's libFuzzer, ASan and UBSan, and runs
# them for a while over their seed corpora and saved regressions.
#
#   tests/fuzz/fuzz.sh CONFIGURED_BUILD_DIR OUT_DIR SECONDS
#
# Targets (FUZZ_TARGETS, default "load number"):
#   load    tests/fuzz/fuzz_load.c: trace bytes (plain and gzip) through the
#           reader, the model, every analysis and every output format;
#           seeds tests/fuzz/corpus, crashes kept in tests/fuzz/regressions
#   number  tests/fuzz/fuzz_number.c: number text against reference code;
#           seeds and crashes in tests/fuzz/number
# load gets three quarters of SECONDS, number the rest.
#
# The compile line is explicit (util, trace, model, analysis and the output
# writers, plus the harness) so it needs nothing from the autotools build but
# its config.h. New interesting inputs accumulate in OUT_DIR/corpus-TARGET
# between runs; a crash leaves OUT_DIR/crash-* and fails. make check replays
# the regression directories, so keep each crash there once it is fixed.
set -euo pipefail

build=${1:?usage: fuzz.sh BUILD_DIR OUT_DIR SECONDS}
out=${2:?usage: fuzz.sh BUILD_DIR OUT_DIR SECONDS}
seconds=${3:-60}
targets=${FUZZ_TARGETS:-load number}
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
CC=${FUZZ_CC:-clang}

[ -f "$build/config.h" ] || { echo "fuzz: $build/config.h missing: configure first" >&2; exit 1; }
case $($CC -print-file-name=libclang_rt.fuzzer-$(uname -m).a 2>/dev/null) in
/*) ;;
*) echo "fuzz: clang's libFuzzer runtime is missing: apt-get install clang libclang-rt-dev" >&2
   exit 1 ;;
esac
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)
build=$(cd "$build" && pwd)

sanitize="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
cflags="-std=c11 -g -O1 -fno-omit-frame-pointer $sanitize -I$srcdir/src -I$build -I$srcdir/tests/fuzz
        $(pkg-config --cflags libcjson zlib)"
newest_header=$(cd "$srcdir" && ls -t src/*/*.h tests/fuzz/*.h | head -1)

# compile SOURCE...: one object per source, rebuilt when the source or any
# header is newer; prints the object names.
compile() {
    local s o
    for s in "$@"; do
        o="$out/obj/$(echo "${s%.c}" | tr / _).o"
        if [ ! -f "$o" ] || [ "$srcdir/$s" -nt "$o" ] || [ "$srcdir/$newest_header" -nt "$o" ]; then
            echo "  CC $s" >&2
            # shellcheck disable=SC2086
            $CC $cflags -c "$srcdir/$s" -o "$o"
        fi
        echo "$o"
    done
}

core=$(cd "$srcdir" && ls src/util/*.c src/trace/*.c src/model/*.c src/analysis/*.c src/cli/format_*.c)
# shellcheck disable=SC2086
core_objs=$(compile $core)

# run TARGET SECONDS KEEP_DIR [SEED_DIR...]: builds and runs one target;
# KEEP_DIR (where its crashes are kept) is read as seeds too.
run() {
    local target=$1 secs=$2 keep=$3 harness_obj status
    shift 2
    harness_obj=$(compile "tests/fuzz/fuzz_$target.c")
    # shellcheck disable=SC2086
    $CC -fsanitize=fuzzer,address,undefined $harness_obj $core_objs -o "$out/fuzz_$target" \
        $(pkg-config --libs libcjson zlib) -lm -pthread
    mkdir -p "$out/corpus-$target"
    echo "fuzz: $target for $secs s"
    set +e
    (cd "$out" && "./fuzz_$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len="${FUZZ_MAX_LEN:-65536}" -dict="$srcdir/tests/fuzz/fuzz.dict" -print_final_stats=1 \
        -artifact_prefix="$out/" "corpus-$target" "$@" 2>&1) | tee "$out/fuzz-$target.log" |
        grep --line-buffered -v -E '^#[0-9]+.*(NEW|REDUCE)|^".*" # Uses: |NEW_FUNC'
    status=${PIPESTATUS[0]}
    set -e
    if [ "$status" != 0 ]; then
        echo "fuzz: $target FAILED (status $status): $(ls "$out"/crash-* "$out"/leak-* \
            "$out"/timeout-* "$out"/oom-* 2>/dev/null | tr '\n' ' ')" >&2
        echo "fuzz: once fixed, keep each input as a regression test: cp INPUT $keep/NAME" >&2
        return 1
    fi
}

status=0
for target in $targets; do
    case $target in
    load) secs=$((seconds - seconds / 4))
          run load "$secs" "$srcdir/tests/fuzz/regressions" "$srcdir/tests/fuzz/corpus" || status=1 ;;
    number) secs=$((seconds / 4 > 0 ? seconds / 4 : 1))
            FUZZ_MAX_LEN=256 run number "$secs" "$srcdir/tests/fuzz/number" || status=1 ;;
    *) echo "fuzz: unknown target $target" >&2; status=1 ;;
    esac
done
exit $status
