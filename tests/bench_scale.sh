#!/usr/bin/env bash
# make bench-scale: the map step over a 1024-rank job of small
# ranks made by the generator, run with GNU parallel, with and without
# --with-events; then, alternating summaries and traces, the report of the
# tables' analyses, the report of every analysis and the TUI opened
# headless (--script with q, no cache). Prints the map times, summary bytes
# per rank, and the time and peak RSS of each (median [min-max] of
# BENCH_RUNS runs, default 3), and checks that the reports agree byte for
# byte.
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
# what summaries answer without events (--events=skip on them makes sure)
what=--analysis=temporal,kernels,idle,overlap,collectives,stragglers,utilization

spread() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "%.2f [%.2f-%.2f]", m, v[1], v[NR] }'
}
measure() {   # sets secs, kb
    /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >"$tmp/out" 2>/dev/null
    read -r secs kb <"$tmp/time"
}

maps=() maps_ev=() sums=() traces=() sum_kb=0 trace_kb=0
hta_sums=() hta_traces=() hta_sum_kb=0 hta_trace_kb=0
hta_what=--analysis=temporal,kernels,idle,overlap   # what the summaries answer under HTA's semantics
all_sums=() all_traces=() all_sum_kb=0 all_trace_kb=0 all_ev=() all_ev_kb=0
tui_sums=() tui_traces=() tui_sum_kb=0 tui_trace_kb=0 tui_summary=() tui_summary_kb=0 tui_ev=() tui_ev_kb=0
echo q >"$tmp/q.keys"
for _ in $(seq "$runs"); do
    rm -rf "$tmp/sum" "$tmp/sum-ev"
    measure bash -c 'ls "$1"/*.json* | parallel --will-cite -j "$(nproc)" -X "$2" summarize -o "$3"' \
        _ "$cache" "$htx" "$tmp/sum"
    maps+=("$secs")
    measure bash -c 'ls "$1"/*.json* | parallel --will-cite -j "$(nproc)" -X "$2" summarize --with-events -o "$3"' \
        _ "$cache" "$htx" "$tmp/sum-ev"
    maps_ev+=("$secs")
    measure "$htx" report --events=skip --format=json $what "$tmp/sum"
    sums+=("$secs"); sum_kb=$kb
    cp "$tmp/out" "$tmp/from-summaries.json"
    measure "$htx" report --format=json $what "$cache"
    traces+=("$secs"); trace_kb=$kb
    cmp -s "$tmp/out" "$tmp/from-summaries.json" || { echo "bench-scale: the reports differ" >&2; exit 1; }
    measure "$htx" report --events=skip --semantics=hta --format=json $hta_what "$tmp/sum"
    hta_sums+=("$secs"); hta_sum_kb=$kb
    cp "$tmp/out" "$tmp/from-summaries.json"
    measure "$htx" report --semantics=hta --format=json $hta_what "$cache"
    hta_traces+=("$secs"); hta_trace_kb=$kb
    cmp -s "$tmp/out" "$tmp/from-summaries.json" || { echo "bench-scale: the HTA reports differ" >&2; exit 1; }
    measure "$htx" report --format=json "$tmp/sum"
    all_sums+=("$secs"); all_sum_kb=$kb
    cp "$tmp/out" "$tmp/from-summaries.json"
    measure "$htx" report --format=json "$tmp/sum-ev"
    all_ev+=("$secs"); all_ev_kb=$kb
    cmp -s "$tmp/out" "$tmp/from-summaries.json" || { echo "bench-scale: the full reports differ" >&2; exit 1; }
    measure "$htx" report --format=json "$cache"
    all_traces+=("$secs"); all_trace_kb=$kb
    cmp -s "$tmp/out" "$tmp/from-summaries.json" || { echo "bench-scale: the full reports differ" >&2; exit 1; }
    measure "$htx" --no-cache --script="$tmp/q.keys" --dump-screen="$tmp/s.screen" --force "$tmp/sum"
    tui_sums+=("$secs"); tui_sum_kb=$kb
    measure "$htx" --no-cache --script="$tmp/q.keys" --dump-screen="$tmp/s.screen" --force "$tmp/sum-ev"
    tui_ev+=("$secs"); tui_ev_kb=$kb
    measure "$htx" --no-cache --script="$tmp/q.keys" --dump-screen="$tmp/t.screen" --force "$cache"
    tui_traces+=("$secs"); tui_trace_kb=$kb
    measure "$htx" --events=skip --script="$tmp/q.keys" --dump-screen="$tmp/l.screen" --force "$tmp/sum"
    tui_summary+=("$secs"); tui_summary_kb=$kb
done
bytes=$(cat "$tmp"/sum/*.htxs | wc -c)
bytes_ev=$(cat "$tmp"/sum-ev/*.htxs | wc -c)
json=$(for f in "$cache"/*.json*; do gzip -dc -f "$f"; done | wc -c)
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
printf '%d ranks, %d MB of JSON (%.0f KB a rank)\n' "$ranks" $((json / 1000000)) "$(calc "$json / $ranks / 1000")"
printf '  map (GNU parallel, %d jobs):       %s s\n' "$(nproc)" "$(spread "${maps[@]}")"
printf '  map --with-events:              %s s\n' "$(spread "${maps_ev[@]}")"
printf '  summaries:                      %d bytes a rank (%.3f %% of the JSON)\n' \
    $((bytes / ranks)) "$(calc "100 * $bytes / $json")"
printf '  summaries --with-events:        %d bytes a rank (%.3f %% of the JSON)\n' \
    $((bytes_ev / ranks)) "$(calc "100 * $bytes_ev / $json")"
printf '  (report: %s)\n' "${what#--analysis=}"
printf '  report from summaries:          %s s, %.0f MB RSS (--events=skip: no event read)\n' "$(spread "${sums[@]}")" "$(calc "$sum_kb / 1000")"
printf '  report from traces:             %s s, %.0f MB RSS (same JSON)\n' "$(spread "${traces[@]}")" "$(calc "$trace_kb / 1000")"
printf '  --semantics=hta (%s), summaries: %s s, %.0f MB RSS (--events=skip)\n' "${hta_what#--analysis=}" "$(spread "${hta_sums[@]}")" "$(calc "$hta_sum_kb / 1000")"
printf '  --semantics=hta, from traces:   %s s, %.0f MB RSS (same JSON)\n' "$(spread "${hta_traces[@]}")" "$(calc "$hta_trace_kb / 1000")"
printf '  every analysis, from summaries: %s s, %.0f MB RSS (their traces read)\n' "$(spread "${all_sums[@]}")" "$(calc "$all_sum_kb / 1000")"
printf '  ... from --with-events ones:    %s s, %.0f MB RSS (their events read)\n' "$(spread "${all_ev[@]}")" "$(calc "$all_ev_kb / 1000")"
printf '  every analysis, from traces:    %s s, %.0f MB RSS (same JSON)\n' "$(spread "${all_traces[@]}")" "$(calc "$all_trace_kb / 1000")"
printf '  TUI first screen, summaries:    %s s, %.0f MB RSS (target < 2 s, < 1 GB; their traces read)\n' "$(spread "${tui_sums[@]}")" "$(calc "$tui_sum_kb / 1000")"
printf '  ... --with-events ones:         %s s, %.0f MB RSS (their events read)\n' "$(spread "${tui_ev[@]}")" "$(calc "$tui_ev_kb / 1000")"
printf '  TUI first screen, traces:       %s s, %.0f MB RSS\n' "$(spread "${tui_traces[@]}")" "$(calc "$tui_trace_kb / 1000")"
printf '  TUI first screen, no events:    %s s, %.0f MB RSS (--events=skip)\n' "$(spread "${tui_summary[@]}")" "$(calc "$tui_summary_kb / 1000")"
