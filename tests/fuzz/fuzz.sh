#!/bin/bash
# Builds the fuzz targets with clang's libFuzzer, ASan and UBSan, and runs
# them over their seeds and saved regressions.
#
#   tests/fuzz/fuzz.sh CONFIGURED_BUILD_DIR OUT_DIR SECONDS
#
# Targets (FUZZ_TARGETS, default all seven), each a tests/fuzz/fuzz_NAME.c:
#   load      trace bytes (plain and gzip) through the reader, the model,
#             every analysis and every output format (the slow, deep one)
#   reader    the scanner, field parser and string decoder alone
#   number    number text against reference code (seeds in tests/fuzz/number)
#   model     model building and selection, no analysis
#   analysis  one analysis per input (first byte), with its output formats
#   text      the TUI's text sanitiser, fake screen (grid) and layout, the
#             CLI escapers and the test-mode script parser (tests/fuzz/text)
#   summary   rank summaries, whole (checksum mended) and section by section
#             (contents deflated by the harness), through every reader
#             (seeds: tests/fuzz/summary, and summaries of htx-gen output)
# Crashes of every target are kept in tests/fuzz/regressions (text, number
# and summary: their own directories) and replayed by make check.
#
# SECONDS is the whole run, shared by the targets (load 25%, analysis 18%,
# reader, model and summary 13% each, text and number 9% each: CI's make fuzz),
# or, with FUZZ_PER_TARGET=1 (make fuzz-long), each target's own time.
#
# Seeds: the committed corpora, plus small documents cut at run time
# (tests/fuzz/seed_slices.c) from htx-gen output and, when present, from the
# real traces in ../shared/traces (read in place, never copied into the
# repository). A dictionary of JSON and Kineto keys (tests/fuzz/fuzz.dict)
# guides the mutations. Each target runs in one process (one core); at the
# end a line per target gives its executions and rate (FUZZ_OUT/summary).
set -euo pipefail

build=${1:?usage: fuzz.sh BUILD_DIR OUT_DIR SECONDS}
out=${2:?usage: fuzz.sh BUILD_DIR OUT_DIR SECONDS}
seconds=${3:-60}
targets=${FUZZ_TARGETS:-load reader model analysis text number summary}
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
        $(pkg-config --cflags libcjson zlib libxxhash)"
# ISA-L when configure found it (config.h says so), else zlib alone.
isal_libs=""
grep -q '^#define HAVE_ISAL 1' "$build/config.h" && isal_libs=$(pkg-config --libs libisal 2>/dev/null || echo -lisal)
newest_header=$(cd "$srcdir" && ls -t src/*/*.h src/*/*/*.h tests/fuzz/*.h | head -1)

# compile SOURCE...: one object per source, rebuilt when the source or any
# header is newer, as many at once as there are cores; prints the object
# names, and fails when one of them does not compile.
jobs=$(nproc 2>/dev/null || echo 2)
compile() {
    local s o pids=()
    for s in "$@"; do
        o="$out/obj/$(echo "${s%.c}" | tr / _).o"
        if [ ! -f "$o" ] || [ "$srcdir/$s" -nt "$o" ] || [ "$srcdir/$newest_header" -nt "$o" ]; then
            echo "  CC $s" >&2
            # shellcheck disable=SC2086
            $CC $cflags -c "$srcdir/$s" -o "$o" &
            pids+=($!)
            if [ "${#pids[@]}" -ge "$jobs" ]; then
                wait "${pids[0]}" || exit 1
                pids=("${pids[@]:1}")
            fi
        fi
        echo "$o"
    done
    for p in "${pids[@]}"; do
        wait "$p" || exit 1
    done
}

core=$(cd "$srcdir" && ls src/util/*.c src/trace/*.c src/model/*.c src/analysis/*.c src/summary/tiles_io.c \
    src/summary/deflated.c src/summary/colls_io.c src/summary/tables.c \
    src/app/format_*.c)
# shellcheck disable=SC2086
core_objs=$(compile $core)
common_obj=$(compile tests/fuzz/fuzz_common.c)
# The curses-free part of the TUI, for the text target.
ui_objs=$(compile src/ui/widgets/text.c src/ui/widgets/grid.c src/ui/widgets/layout.c src/ui/widgets/keys.c)

# ---- seeds cut at run time ----
seeds=$out/seeds
if [ ! -d "$seeds" ]; then
    mkdir -p "$seeds.tmp"
    slicer_obj=$(compile tests/fuzz/seed_slices.c)
    # shellcheck disable=SC2086
    $CC -fsanitize=address,undefined $slicer_obj $core_objs -o "$out/seed-slices" \
        $(pkg-config --libs libcjson zlib libxxhash) $isal_libs -lm -pthread
    if make -s -C "$build" tests/gen/htx-gen >/dev/null 2>&1; then
        for seed in 1 2 3; do
            rm -rf "$out/gen"
            "$build/tests/gen/htx-gen" -q -o "$out/gen" -r 2 -i 2 -l 1 --plain --compact \
                --seed=$seed $([ $seed = 2 ] && echo --frac)
            for f in "$out"/gen/*.json; do
                ASAN_OPTIONS=detect_leaks=0 "$out/seed-slices" "$f" "$seeds.tmp" \
                    "gen$seed-$(basename "$f" .pt.trace.json)" 8 12 || true
            done
        done
        rm -rf "$out/gen"
    else
        echo "fuzz: htx-gen did not build: no generated seeds" >&2
    fi
    if [ -d "$srcdir/../shared/traces" ]; then
        n=0
        while IFS= read -r f; do
            n=$((n + 1))
            ASAN_OPTIONS=detect_leaks=0 "$out/seed-slices" "$f" "$seeds.tmp" "shared$n" 6 10 \
                2>/dev/null || true
        done < <(find "$srcdir/../shared/traces" -type f \( -name '*.json' -o -name '*.json.gz' \) | sort | head -40)
    else
        echo "fuzz: ../shared/traces absent: seeds from the generator only" >&2
    fi
    mv "$seeds.tmp" "$seeds"
fi
# The analysis target reads its first two bytes as analysis and options.
if [ ! -d "$out/seeds-analysis" ]; then
    mkdir -p "$out/seeds-analysis.tmp"
    i=0
    for f in "$seeds"/gen*.json; do
        [ -f "$f" ] || continue
        a=$((i % 32))
        printf "\\$(printf '%03o' "$a")\\$(printf '%03o' $((i * 7 % 256)))" >"$out/seeds-analysis.tmp/a$i"
        cat "$f" >>"$out/seeds-analysis.tmp/a$i"
        i=$((i + 1))
    done
    mv "$out/seeds-analysis.tmp" "$out/seeds-analysis"
fi
# The summary target's: summaries of a small generated job, whole and by section.
if [ ! -d "$out/seeds-summary" ]; then
    mkdir -p "$out/seeds-summary.tmp"
    seeder_obj=$(compile tests/fuzz/summary_seeds.c)
    # shellcheck disable=SC2086
    $CC -fsanitize=address,undefined $seeder_obj $core_objs -o "$out/summary-seeds" \
        $(pkg-config --libs libcjson zlib libxxhash) $isal_libs -lm -pthread
    if make -s -C "$build" src/htx tests/gen/htx-gen >/dev/null 2>&1; then
        for seed in 4 5; do
            rm -rf "$out/gen" "$out/sum"
            "$build/tests/gen/htx-gen" -q -o "$out/gen" -r 2 -i 2 -l 1 --seed=$seed
            "$build/src/htx" summarize --with-events "$out/gen" -o "$out/sum" >/dev/null
            for f in "$out"/sum/*.htxs; do
                cp "$f" "$out/sum/gen$seed-$(basename "$f")"
            done
            ASAN_OPTIONS=detect_leaks=0 "$out/summary-seeds" "$out/seeds-summary.tmp" \
                "$out"/sum/gen$seed-*.htxs || true
        done
        rm -rf "$out/gen" "$out/sum"
    else
        echo "fuzz: htx or htx-gen did not build: summary seeds from tests/fuzz/summary only" >&2
    fi
    mv "$out/seeds-summary.tmp" "$out/seeds-summary"
fi
echo "fuzz: $(ls "$seeds" | wc -l) seed documents in $seeds"

# run TARGET SECONDS KEEP_DIR [SEED_DIR...]: builds and runs one target;
# KEEP_DIR (where its crashes are kept) is read as seeds too.
run() {
    local target=$1 secs=$2 keep=$3 harness_obj status extra=
    shift 2
    harness_obj=$(compile "tests/fuzz/fuzz_$target.c")
    [ "$target" = text ] && extra=$ui_objs
    [ "$target" = reader ] && extra=$(compile tests/trace/event_log.c)
    # shellcheck disable=SC2086
    $CC -fsanitize=fuzzer,address,undefined $harness_obj $common_obj $extra $core_objs \
        -o "$out/fuzz_$target" $(pkg-config --libs libcjson zlib libxxhash) $isal_libs -lm -pthread
    mkdir -p "$out/corpus-$target"
    echo "fuzz: $target for $secs s"
    set +e
    (cd "$out" && "./fuzz_$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -max_len="${FUZZ_MAX_LEN:-65536}" -dict="$srcdir/tests/fuzz/fuzz.dict" -print_final_stats=1 \
        -artifact_prefix="$out/" "corpus-$target" "$@" 2>&1) | tee "$out/fuzz-$target.log" |
        grep --line-buffered -v -E '^#[0-9]+.*(NEW|REDUCE)|^".*" # Uses: |NEW_FUNC'
    status=${PIPESTATUS[0]}
    set -e
    local execs rate
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-$target.log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/fuzz-$target.log" | tail -1)
    echo "$target: ${execs:-?} executions in $secs s (${rate:-?}/s), status $status" |
        tee -a "$out/summary"
    if [ "$status" != 0 ]; then
        echo "fuzz: $target FAILED (status $status): $(ls "$out"/crash-* "$out"/leak-* \
            "$out"/timeout-* "$out"/oom-* 2>/dev/null | tr '\n' ' ')" >&2
        echo "fuzz: once fixed, keep each input as a regression test: cp INPUT $keep/NAME" >&2
        return 1
    fi
}

# share PERCENT: this target's part of the run.
share() {
    if [ "${FUZZ_PER_TARGET:-0}" = 1 ]; then
        echo "$seconds"
    else
        local s=$((seconds * $1 / 100))
        echo $((s > 0 ? s : 1))
    fi
}

: >"$out/summary"
status=0
for target in $targets; do
    case $target in
    load) run load "$(share 25)" "$srcdir/tests/fuzz/regressions" "$srcdir/tests/fuzz/corpus" \
              "$seeds" || status=1 ;;
    reader) run reader "$(share 13)" "$srcdir/tests/fuzz/regressions" "$srcdir/tests/fuzz/corpus" \
                "$seeds" || status=1 ;;
    model) run model "$(share 13)" "$srcdir/tests/fuzz/regressions" "$srcdir/tests/fuzz/corpus" \
               "$seeds" || status=1 ;;
    analysis) run analysis "$(share 18)" "$srcdir/tests/fuzz/regressions" \
                  "$out/seeds-analysis" || status=1 ;;
    text) FUZZ_MAX_LEN=4096 run text "$(share 9)" "$srcdir/tests/fuzz/text" || status=1 ;;
    number) FUZZ_MAX_LEN=256 run number "$(share 9)" "$srcdir/tests/fuzz/number" || status=1 ;;
    summary) run summary "$(share 13)" "$srcdir/tests/fuzz/summary" "$out/seeds-summary" || status=1 ;;
    *) echo "fuzz: unknown target $target" >&2; status=1 ;;
    esac
done
echo "fuzz: summary"
cat "$out/summary"
exit $status
