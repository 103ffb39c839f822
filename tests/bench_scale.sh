#!/usr/bin/env bash
# make bench-scale (issue 12): the map step over a 1024-rank job of small
# ranks made by the generator, run with GNU parallel; then the report from
# the summaries against the report from the traces. Prints the map time,
# summary bytes per rank, and the time and peak RSS of both reports (median
# [min-max] of BENCH_RUNS runs, default 3), and checks the two agree.
# Usage: tests/bench_scale.sh BUILD_DIR   (BENCH_RANKS: 1024)
set -euo pipefail
build=$(cd "${1:?usage: bench_scale.sh BUILD_DIR}" && pwd)
htx=$build/src/htx
gen=$build/tests/gen/htx-gen
ranks=${BENCH_RANKS:-1024}
runs=${BENCH_RUNS:-3}
command -v parallel >/dev/null || { echo "bench-scale: GNU parallel is not installed" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/htx-bench-scale.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cache=${TMPDIR:-/tmp}/htx-bench-cache/scale-$ranks
if [ ! -f "$cache/.done" ] || [ "$gen" -nt "$cache/.done" ]; then
    rm -rf "$cache"
    echo "generating a $ranks-rank job in $cache"
    "$gen" -q -o "$cache" -r "$ranks" -i 2 -l 1
    touch "$cache/.done"
fi
what=--analysis=temporal,idle,overlap

spread() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "%.2f [%.2f-%.2f]", m, v[1], v[NR] }'
}
measure() {   # sets secs, kb
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$tmp/out" 2>/dev/null
    read -r secs kb <"$tmp/time"
}

maps=() sums=() traces=() sum_kb=0 trace_kb=0
for _ in $(seq "$runs"); do
    rm -rf "$tmp/sum"
    measure bash -c 'ls "$1"/*.json* | parallel --will-cite -j "$(nproc)" -X "$2" summarize -o "$3"' \
        _ "$cache" "$htx" "$tmp/sum"
    maps+=("$secs")
    measure "$htx" report --format=json $what "$tmp/sum"
    sums+=("$secs"); sum_kb=$kb
    cp "$tmp/out" "$tmp/from-summaries.json"
    measure "$htx" report --format=json $what "$cache"
    traces+=("$secs"); trace_kb=$kb
    cmp -s "$tmp/out" "$tmp/from-summaries.json" || { echo "bench-scale: the reports differ" >&2; exit 1; }
done
bytes=$(cat "$tmp"/sum/*.htxs | wc -c)
json=$(for f in "$cache"/*.json*; do gzip -dc -f "$f"; done | wc -c)
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
printf '%d ranks, %d MB of JSON (%.0f KB a rank)\n' "$ranks" $((json / 1000000)) "$(calc "$json / $ranks / 1000")"
printf '  map (GNU parallel, %d jobs):       %s s\n' "$(nproc)" "$(spread "${maps[@]}")"
printf '  summaries:                      %d bytes a rank (%.3f %% of the JSON)\n' \
    $((bytes / ranks)) "$(calc "100 * $bytes / $json")"
printf '  report from summaries:          %s s, %.0f MB RSS\n' "$(spread "${sums[@]}")" "$(calc "$sum_kb / 1000")"
printf '  report from traces:             %s s, %.0f MB RSS (same JSON)\n' "$(spread "${traces[@]}")" "$(calc "$trace_kb / 1000")"
