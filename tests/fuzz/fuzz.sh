#!/bin/bash
# Builds the loader fuzz target with clang's libFuzzer, ASan and UBSan, and
# runs it for a while over the seed corpus and the saved regressions.
#
#   tests/fuzz/fuzz.sh CONFIGURED_BUILD_DIR OUT_DIR SECONDS
#
# The compile line is explicit (util, trace, model, analysis and the output
# writers, plus the harness) so it needs nothing from the autotools build but
# its config.h. New interesting inputs accumulate in OUT_DIR/corpus between
# runs; a crash leaves OUT_DIR/crash-* and fails. To keep a crash as a test:
# copy it to tests/fuzz/regressions/ (make check replays that directory).
set -euo pipefail

build=${1:?usage: fuzz.sh BUILD_DIR OUT_DIR SECONDS}
out=${2:?usage: fuzz.sh BUILD_DIR OUT_DIR SECONDS}
seconds=${3:-60}
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
CC=${FUZZ_CC:-clang}

[ -f "$build/config.h" ] || { echo "fuzz: $build/config.h missing: configure first" >&2; exit 1; }
case $($CC -print-file-name=libclang_rt.fuzzer-$(uname -m).a 2>/dev/null) in
/*) ;;
*) echo "fuzz: clang's libFuzzer runtime is missing: apt-get install clang libclang-rt-dev" >&2
   exit 1 ;;
esac

mkdir -p "$out/corpus" "$out/obj"
out=$(cd "$out" && pwd)
build=$(cd "$build" && pwd)
sanitize="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
cflags="-std=c11 -g -O1 -fno-omit-frame-pointer $sanitize -I$srcdir/src -I$build -I$srcdir/tests/fuzz
        $(pkg-config --cflags libcjson zlib)"
sources=$(cd "$srcdir" && ls src/util/*.c src/trace/*.c src/model/*.c src/analysis/*.c \
          src/cli/format_*.c tests/fuzz/fuzz_load.c)

# One object per source, rebuilt when the source or a header is newer.
objs=()
newest_header=$(cd "$srcdir" && ls -t src/*/*.h tests/fuzz/*.h | head -1)
for s in $sources; do
    o="$out/obj/$(echo "${s%.c}" | tr / _).o"
    objs+=("$o")
    if [ ! -f "$o" ] || [ "$srcdir/$s" -nt "$o" ] || [ "$srcdir/$newest_header" -nt "$o" ]; then
        echo "  CC $s"
        # shellcheck disable=SC2086
        $CC $cflags -c "$srcdir/$s" -o "$o"
    fi
done
# shellcheck disable=SC2086
$CC -fsanitize=fuzzer,address,undefined "${objs[@]}" -o "$out/fuzz_load" \
    $(pkg-config --libs libcjson zlib) -lm -pthread

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "fuzz: running $out/fuzz_load for $seconds s"
cd "$out"
set +e
./fuzz_load -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -dict="$srcdir/tests/fuzz/fuzz.dict" -print_final_stats=1 -artifact_prefix="$out/" \
    corpus "$srcdir/tests/fuzz/corpus" "$srcdir/tests/fuzz/regressions" 2>&1 | tee fuzz.log |
    grep --line-buffered -v -E '^#[0-9]+.*(NEW|REDUCE)|^".*" # Uses: '
status=${PIPESTATUS[0]}
set -e
if [ "$status" != 0 ]; then
    echo "fuzz: FAILED (status $status); inputs: $(ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* "$out"/oom-* 2>/dev/null | tr '\n' ' ')" >&2
    echo "fuzz: keep each as a regression: cp INPUT $srcdir/tests/fuzz/regressions/NAME" >&2
    exit 1
fi
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)' fuzz.log || true
