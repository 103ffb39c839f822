#!/bin/bash
# `make bigtrace`: traces past the 32-bit sizes, as a benchmark (minutes,
# gigabytes), never in make check.
#
#   tests/hostile/bigtrace.sh BUILD_DIR
#
# 1. A real-shaped rank file of more than 4 GiB uncompressed (tests/gen
#    htx-gen, gzip level 1, cached in BUILD_DIR/bigtrace): htx info must count
#    exactly what the generator wrote, and htx report must run over it.
# 2. A file whose traceEvents holds more than 2^31 elements: 2^31 + 2^24
#    empty objects (tiny when compressed, 6.4 GB uncompressed), then a real
#    launch, kernel, memcpy and ProfilerStep at element indices beyond 2^31,
#    and distributedInfo after the array. They must load with their right
#    rank, counts and CPU-GPU link.
# Prints, for each: uncompressed size, elements, time, MB/s, peak RSS and
# RSS per kept event. Exit 1 when a check fails.
set -euo pipefail

build=${1:?usage: bigtrace.sh BUILD_DIR}
htx=$build/src/htx
gen=$build/tests/gen/htx-gen
dir=$build/bigtrace
size=${BIGTRACE_SIZE:-4400M}
if [ ! -x "$htx" ] || [ ! -x "$gen" ]; then
    echo "bigtrace: build $htx and $gen first" >&2
    exit 1
fi
command -v /usr/bin/time >/dev/null || { echo "bigtrace: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
mkdir -p "$dir"
export LC_ALL=C
failed=0

check() {
    if [ "$2" = "$3" ]; then
        printf '  ok    %-28s %s\n' "$1" "$2"
    else
        printf '  FAIL  %-28s %s, expected %s\n' "$1" "$2" "$3"
        failed=1
    fi
}

# measure LABEL BYTES CMD...: runs CMD (stdout to $dir/out), prints its time
# and peak RSS; sets $secs and $rss_kb.
measure() {
    local label=$1 bytes=$2
    shift 2
    /usr/bin/time -f '%e %M' -o "$dir/time" "$@" >"$dir/out" 2>"$dir/err" || {
        echo "bigtrace: $label failed:" >&2
        cat "$dir/err" >&2
        failed=1
    }
    read -r secs rss_kb <"$dir/time"
    awk -v l="$label" -v s="$secs" -v r="$rss_kb" -v b="$bytes" 'BEGIN {
        printf "  %-28s %7.1f s  %7.1f MB/s  peak RSS %6.0f MB\n", l, s, b / 1e6 / (s > 0 ? s : 1e-9), r / 1024 }'
}

# field NAME: a number of the one-line JSON object in $dir/out or a stats line.
field() {
    tr -d ' ' <"${2:-$dir/out}" | grep -o "\"$1\":[-0-9]*" | head -1 | cut -d: -f2
}

echo "== 1. a real-shaped rank file of more than 4 GiB uncompressed ($size)"
big=$dir/big/rank-0.pt.trace.json.gz
if [ ! -f "$big" ] || [ ! -s "$dir/big.stats" ]; then
    echo "  generating (once; cached in $dir)"
    rm -rf "$dir/big" "$dir/big.stats"
    "$gen" -q -r 1 -s "$size" --level=1 --stats -o "$dir/big" >"$dir/big.stats.tmp"
    mv "$dir/big.stats.tmp" "$dir/big.stats"
fi
# (gzip -l shows sizes modulo 4 GiB; the generator's stats have it whole.)
bytes=$(field bytes "$dir/big.stats")
echo "  file $(du -h "$big" | cut -f1) compressed, $bytes bytes uncompressed"
[ "$bytes" -gt 4294967296 ] || { echo "  FAIL: not more than 4 GiB"; failed=1; }
measure "gzip -dc" "$bytes" sh -c 'gzip -dc "$1" >/dev/null' sh "$big"
gz_secs=$secs
measure "htx info" "$bytes" "$htx" info --format=json "$big"
events=$(field events)
for k in kernels memcpy memset cpu_ops runtime user_annotations gpu_user_annotations; do
    check "$k" "$(field "$k")" "$(field "$k" "$dir/big.stats")"
done
awk -v e="$events" -v r="$rss_kb" -v s="$secs" -v g="$gz_secs" 'BEGIN {
    printf "  %d events, %.0f bytes of RSS per event, %.0f events/s, %.2fx the gzip -dc time\n",
           e, r * 1024 / e, e / s, s / g }'
measure "htx report (all analyses)" "$bytes" "$htx" report --format=json "$big"
check "report has temporal_breakdown" "$(grep -c '"temporal_breakdown"' "$dir/out")" 1

echo "== 2. more than 2^31 traceEvents elements"
many=$dir/elements.json.gz
fill=$((1 << 24))
copies=129
head_text='{"schemaVersion":1,"traceEvents":['
tail_text='{"ph":"X","cat":"user_annotation","name":"ProfilerStep#7","pid":1,"tid":1,"ts":1000,"dur":500},
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1010,"dur":100},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1020,"dur":10,"args":{"correlation":5}},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":1100,"dur":50,"args":{"stream":7,"correlation":5}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH","pid":0,"tid":7,"ts":1200,"dur":5,"args":{"stream":7,"correlation":6,"bytes":1048576}}
],"distributedInfo":{"backend":"nccl","rank":3,"world_size":4}}'
if [ ! -s "$many" ]; then
    echo "  generating (once; cached in $dir)"
    # (yes dies of SIGPIPE when head has enough: not a failure here)
    (set +o pipefail; yes '{},' | head -n "$fill" | tr -d '\n') | gzip -9 >"$dir/fill.gz"
    {
        printf '%s' "$head_text" | gzip
        for ((i = 0; i < copies; i++)); do cat "$dir/fill.gz"; done
        printf '%s' "$tail_text" | gzip
    } >"$many.tmp"
    mv "$many.tmp" "$many"
    rm -f "$dir/fill.gz"
fi
elements=$((fill * copies + 5))
bytes=$((${#head_text} + 3 * fill * copies + ${#tail_text}))
echo "  file $(du -h "$many" | cut -f1) compressed, $bytes bytes uncompressed, $elements elements (2^31 = 2147483648)"
measure "htx info" "$bytes" "$htx" info --format=json "$many"
check "rank (after the array)" "$(field rank)" 3
check "events kept" "$(field events)" 5
check "kernels" "$(field kernels)" 1
check "memcpy" "$(field memcpy)" 1
check "cpu_ops" "$(field cpu_ops)" 1
check "runtime" "$(field runtime)" 1
check "iterations" "$(tr -d ' ' <"$dir/out" | grep -o '"iterations":\[[^]]*\]')" '"iterations":[7]'
awk -v n="$elements" -v s="$secs" 'BEGIN { printf "  %.0f M elements/s\n", n / s / 1e6 }'
measure "htx report --analysis=launch" "$bytes" "$htx" report --analysis=launch --format=csv "$many"
check "launch row: rank 3, correlation 5" "$(grep -c '^3,5,10,50,70' "$dir/out" || true)" 1

rm -f "$dir/out"
if [ "$failed" = 0 ]; then
    echo "bigtrace: ok"
else
    echo "bigtrace: FAILED"
fi
exit "$failed"
