#!/usr/bin/env bash
# make bench: how fast htx loads a big trace and how much memory it keeps,
# against `gzip -dc` of the same file, with DESIGN.md's "Performance
# targets" beside each figure: .json.gz at most 0.5x gzip -dc's wall time
# and 1.0x its CPU, plain JSON at 1 GB/s, 48 bytes an event for info and 72
# for report, report at most 1.2x info, a first screen within 1 s at 1 GB,
# a reopen from the cache within 0.2 s even after a quick quit.
#
# Generates once, cached under BENCH_CACHE, a job of 2 ranks of about 1 GB of
# JSON each (.json.gz), then prints in one run, for 1 rank and for 2 ranks on
# 2 threads: gzip -dc time, htx info time, their ratio, peak RSS, RSS per
# event and events per second. The bench_* hooks below add the analysis,
# timeline and diff lines.
#
# Single runs on a shared 2-core machine are noise: each load and
# analysis figure is BENCH_RUNS runs alternating htx and its reference, printed
# as median [min-max], with its target next to it. A missed target is named
# again at the end ("missed: ...") and makes the exit status 1.
#
# Usage: tests/bench.sh [BUILD_DIR]     (default build)
# Environment: BENCH_SIZE (default 256M: JSON bytes per rank; 1G for the
# figures the targets are set for), BENCH_SEED (1), BENCH_RUNS (3, at least 1),
# BENCH_CACHE (where the generated traces are kept: $TMPDIR/htx-bench-cache).
set -euo pipefail

build=${1:-build}
htx=$build/src/htx
gen=$build/tests/gen/htx-gen
size=${BENCH_SIZE:-256M}
runs=${BENCH_RUNS:-3}
seed=${BENCH_SEED:-1}
src=$(cd "$(dirname "$0")/.." && pwd)
cache=${BENCH_CACHE:-${TMPDIR:-/tmp}/htx-bench-cache}   # big traces stay out of the tree
gnu_time=/usr/bin/time
tmp=$(mktemp -d "${TMPDIR:-/tmp}/htx-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

die() {
    echo "bench: $*" >&2
    exit 1
}

[ -x "$gen" ] || die "$gen is not built (make -C $build tests/gen/htx-gen)"
[ -x "$gnu_time" ] || die "$gnu_time (GNU time) is missing: make deps"

# ---- measuring ------------------------------------------------------------------

# measure CMD...: runs CMD with stdout to $tmp/out; sets `secs` (wall),
# `cpu` (user + system seconds) and `rss_kb` (peak resident set); returns
# CMD's exit status.
measure() {
    local status=0 user sys
    "$gnu_time" -f '%e %M %U %S' -o "$tmp/time" "$@" > "$tmp/out" 2> "$tmp/err" || status=$?
    read -r secs rss_kb user sys < <(tail -n 1 "$tmp/time")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    return "$status"
}

# check_target WHAT VALUE OP LIMIT: records WHAT as missed unless VALUE OP
# LIMIT (OP is <= or >=); the run names what it missed at its end.
missed=()
check_target() {
    if ! awk -v v="$2" -v l="$4" -v op="$3" 'BEGIN { exit (op == "<=" ? v <= l : v >= l) ? 0 : 1 }'; then
        missed+=("$1 ($2, target $3 $4)")
    fi
}

# at_full_size: whether the traces are of the size the absolute targets
# (1 GB/s, a first screen within 1 s) are stated at.
at_full_size() {
    [ "$(numfmt --from=si "$size" 2> /dev/null || echo 0)" -ge 1000000000 ]
}

# measure_gzip FILE...: gzip -dc of the files, one process per file, in parallel.
measure_gzip() {
    # shellcheck disable=SC2016 # $f expands in the inner bash
    measure bash -c 'for f; do gzip -dc "$f" > /dev/null & done; wait' _ "$@"
}

# The sum of every "events" count in htx info --format=json output.
count_events() {
    grep -o '"events": *[0-9]*' "$1" | grep -o '[0-9]*$' | awk '{ n += $1 } END { print n + 0 }'
}

mb() {
    awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'
}

div() {
    awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN { if (b > 0) printf f, a / b; else printf "-" }'
}

# spread VALUES...: "median [min-max]" of the numbers.
spread() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "%.3f [%.3f-%.3f]", m, v[1], v[NR] }'
}

# median VALUES...: the median alone.
median() {
    spread "$@" | cut -d' ' -f1
}

row() {   # row LABEL SECONDS RSS_KB NOTES
    printf '%-40s %8s s %9s MB  %s\n' "$1" "$2" "$(div "$3" 1000 %.1f)" "${4:-}"
}

# ---- the cached traces ---------------------------------------------------------------

# generate DIR HTX-GEN-OPTIONS...: writes the job once; reuses it while the
# generator binary is older than the finished stamp.
generate() {
    local dir=$1
    shift
    if [ -f "$dir/.done" ] && [ "$dir/.done" -nt "$gen" ]; then
        return 0
    fi
    rm -rf "$dir"
    echo "bench: generating $dir (once; cached)" >&2
    "$gen" --seed="$seed" --size="$size" --stats "$@" -o "$dir" > "$tmp/stats"
    mv "$tmp/stats" "$dir/.done"
}

job=$cache/job-$size-seed$seed
generate "$job" --ranks=2
file=$job/rank-0.pt.trace.json.gz
json_bytes=$(sed -n 's/.*"bytes": \([0-9]*\).*/\1/p' "$job/.done" | head -n 1)

# ---- load: 1 rank, then 2 ranks on 2 threads ------------------------------------------

# bench_load LABEL THREADS GZIP-FILES... -- HTX-PATHS...   (THREADS "": htx's default)
# BENCH_RUNS rounds of gzip -dc then htx info; the ratios (wall and CPU) are
# taken per round. Targets for one file: 0.5x gzip's wall, 1.0x its CPU.
bench_load() {
    local label=$1 threads=() cmd
    [ -z "$2" ] || threads=(--threads="$2")
    shift 2
    local files=() paths=()
    while [ "$1" != -- ]; do files+=("$1"); shift; done
    shift
    paths=("$@")
    cmd="htx info${threads[*]:+ ${threads[*]}} ($label)"
    local gz=() hx=() ratio=() cpu_ratio=() rss=() events=0 i gz_cpu
    for ((i = 0; i < runs; i++)); do
        measure_gzip "${files[@]}"
        gz+=("$secs")
        gz_cpu=$cpu
        if ! measure "$htx" info --format=json "${threads[@]}" "${paths[@]}"; then
            row "$cmd" "$secs" "$rss_kb" "FAILED: $(head -c 200 "$tmp/err")"
            return 1
        fi
        hx+=("$secs")
        rss+=("$rss_kb")
        ratio+=("$(div "$secs" "${gz[-1]}" %.4f)")
        cpu_ratio+=("$(div "$cpu" "$gz_cpu" %.4f)")
        events=$(count_events "$tmp/out")
    done
    local rss_med gz_med per_event
    rss_med=$(median "${rss[@]}")
    gz_med=$(median "${gz[@]}")
    per_event=$(div "$(( ${rss_med%.*} * 1024 ))" "$events" %.0f)
    printf '%-34s %s s  %s MB/s of JSON\n' "gzip -dc ($label)" "$(spread "${gz[@]}")" \
        "$(div "$(( json_bytes * ${#files[@]} ))" "$(awk -v s="$gz_med" 'BEGIN{print s*1e6}')" %.0f)"
    printf '%-34s %s s  %s MB peak; %s events\n' "$cmd" "$(spread "${hx[@]}")" "$(div "$rss_med" 1000 %.1f)" "$events"
    if [ "${#files[@]}" -eq 1 ]; then
        printf '%-34s %sx gzip wall (target <= 0.50), %sx its CPU (target <= 1.00); %s B/event (target <= 48)\n' \
            "  $runs runs:" "$(spread "${ratio[@]}")" "$(spread "${cpu_ratio[@]}")" "$per_event"
        check_target "info .gz against gzip -dc, wall" "$(median "${ratio[@]}")" "<=" 0.50
        check_target "info .gz against gzip -dc, CPU" "$(median "${cpu_ratio[@]}")" "<=" 1.00
        check_target "info .gz bytes an event" "$per_event" "<=" 48
    else
        # With a file a core, each gzip -dc has a core of its own too: no target.
        printf '%-34s %sx gzip wall, %sx its CPU (a core a file for both); %s B/event\n' "  $runs runs:" \
            "$(spread "${ratio[@]}")" "$(spread "${cpu_ratio[@]}")" "$per_event"
    fi
    printf '%-34s %s events/s\n' "" "$(div "$events" "$(median "${hx[@]}")" %.0f)"
}

# bench_plain FILE.json.gz: the same rank as plain JSON (written once into the
# cache, beside the job: in it, it would be a second rank 0), read by one
# thread (--threads=1) and by htx's default, alternating. Target: 1 GB/s of
# JSON with the default, 48 bytes an event.
bench_plain() {
    local plain=$cache/plain-$size-seed$seed.json
    if ! [ "$plain" -nt "$1" ]; then
        gzip -dc "$1" > "$plain.tmp" && mv "$plain.tmp" "$plain" ||
            { echo "bench: cannot write $plain" >&2; return 1; }
    fi
    local one=() two=() speed=() rss=() cpus=() events=0 i
    for ((i = 0; i < runs; i++)); do
        measure "$htx" info --format=json --threads=1 "$plain" || return 1
        one+=("$secs")
        measure "$htx" info --format=json "$plain" || return 1
        two+=("$secs")
        cpus+=("$cpu")
        rss+=("$rss_kb")
        events=$(count_events "$tmp/out")
        speed+=("$(div "${one[-1]}" "$secs" %.4f)")
    done
    local rss_med per_event rate
    rss_med=$(median "${rss[@]}")
    per_event=$(div "$(( ${rss_med%.*} * 1024 ))" "$events" %.0f)
    rate=$(div "$json_bytes" "$(awk -v s="$(median "${two[@]}")" 'BEGIN { print s * 1e6 }')" %.0f)
    printf '%-34s %s s\n' "htx info --threads=1 (plain JSON)" "$(spread "${one[@]}")"
    printf '%-34s %s s  %s MB peak; %s s CPU\n' "htx info (plain JSON)" "$(spread "${two[@]}")" \
        "$(div "$rss_med" 1000 %.1f)" "$(median "${cpus[@]}")"
    printf '%-34s %s MB/s of JSON (target >= 1000); %s B/event (target <= 48); %sx one thread\n' \
        "  $runs runs:" "$rate" "$per_event" "$(spread "${speed[@]}")"
    check_target "info plain JSON, MB/s" "$rate" ">=" 1000
    check_target "info plain JSON bytes an event" "$per_event" "<=" 48
}

# ---- hooks: add more timing lines here ------------------------------------------------
# Each hook gets the 1-rank file ($1) and the 2-rank directory ($2) and prints
# lines with `row`. Fill one in when its feature can be timed from the shell.

# HOOK bench_analysis: every analysis (htx report) against a plain load (htx
# info) of the same paths, per round, on the big rank and on an 8-rank job
# (target: at most 1.2x; 72 bytes an event). The analyses' own time against
# the load's, as the report measures both in one process (--timings), is
# printed beside it.
bench_analysis_one() {   # bench_analysis_one LABEL PATH
    local info=() rep=() ratio=() inproc=() rss=() events=0 i
    for ((i = 0; i < runs; i++)); do
        measure "$htx" info --format=json "$2" || return 1
        info+=("$secs")
        events=$(count_events "$tmp/out")
        if ! measure "$htx" report --timings --format=json "$2"; then
            row "htx report --format=json ($1)" "$secs" "$rss_kb" "FAILED: $(head -c 200 "$tmp/err")"
            return 1
        fi
        rep+=("$secs")
        rss+=("$rss_kb")
        ratio+=("$(div "$secs" "${info[-1]}" %.4f)")
        inproc+=("$(sed -n 's/^htx: timings: analyses \([0-9.]*\) s, .*/\1/p' "$tmp/err")")
    done
    local rss_med per_event
    rss_med=$(median "${rss[@]}")
    per_event=$(div "$(( ${rss_med%.*} * 1024 ))" "$events" %.0f)
    printf '%-34s %s s  %s MB peak (info %s s)\n' "htx report --format=json ($1)" "$(spread "${rep[@]}")" \
        "$(div "$rss_med" 1000 %.1f)" "$(spread "${info[@]}")"
    printf '%-34s %sx info (target <= 1.20); analyses %s s in the process; %s B/event (target <= 72)\n' \
        "  $runs runs:" "$(spread "${ratio[@]}")" "$(median "${inproc[@]}")" "$per_event"
    check_target "report against info ($1)" "$(median "${ratio[@]}")" "<=" 1.20
    check_target "report bytes an event ($1)" "$per_event" "<=" 72
}

bench_analysis() {
    local status=0
    bench_analysis_one "1 rank" "$1" || status=1
    bench_analysis_one "8 ranks" "$(job8)" || status=1
    return "$status"
}

# HOOK bench_summarize: `htx summarize` of one rank against `htx info` of it
# (target: <= 1.10x), per round, and the summary's share of the JSON
# (target < 2 %); then the same with --with-events. Three times the rounds
# of the other figures: on a shared machine one command's time ranges over
# +-30 %.
bench_summarize() {
    local with label target
    for with in "" --with-events; do
        local info=() sum=() ratio=() i bytes=0 rounds=$((3 * runs))
        label="htx summarize${with:+ $with} (1 rank)"
        target=" (target <= 1.10)"
        [ -z "$with" ] || target=""
        for ((i = 0; i < rounds; i++)); do
            measure "$htx" info --format=json "$1" || return 1
            info+=("$secs")
            rm -rf "$tmp/sums"
            # shellcheck disable=SC2086
            if ! measure "$htx" summarize $with -o "$tmp/sums" "$1"; then
                row "$label" "$secs" "$rss_kb" "FAILED: $(head -c 200 "$tmp/err")"
                return 1
            fi
            sum+=("$secs")
            ratio+=("$(div "$secs" "${info[-1]}" %.4f)")
            bytes=$(cat "$tmp"/sums/*.htxs | wc -c)
        done
        printf '%-34s %s s (info %s s)\n' "$label" "$(spread "${sum[@]}")" "$(spread "${info[@]}")"
        printf '%-34s %sx info%s; summary %s MB = %s %% of the JSON (target < 2)\n' \
            "  $rounds runs:" "$(spread "${ratio[@]}")" "$target" "$(mb "$bytes")" \
            "$(div "$(( bytes * 100 ))" "$json_bytes" %.4f)"
    done
    rm -rf "$tmp/sums"
}

# HOOK bench_annotation_stacks: the annotations analysis, kernels_by_annotation_stack
# included (target: less than the load), as the report's time less a plain load.
bench_annotation_stacks() {
    measure "$htx" info --format=json "$1" || return 1
    local load=$secs
    if ! measure "$htx" report --format=json --analysis=annotations "$1"; then
        row "htx report annotations (1 rank)" "$secs" "$rss_kb" "FAILED: $(head -c 200 "$tmp/err")"
        return 1
    fi
    local own
    own=$(awk -v r="$secs" -v l="$load" 'BEGIN { d = r - l; printf "%.3f", d < 0 ? 0 : d }')
    row "htx report annotations (1 rank)" "$secs" "$rss_kb" \
        "load $load s + annotations with stacks $own s = $(div "$own" "$load")x the load"
    # At 1 M and 10 M events (synthetic, in memory): the TUI's tree and the
    # headless tables, median of 3 against the load.
    local b=$build/tests/ui/bench_ui
    [ -x "$b" ] || die "$b is not built (make -C $build tests/ui/bench_ui)"
    "$b" --events 1e6 --annotations 2> /dev/null || return 1
    "$b" --events 1e7 --annotations 2> /dev/null || return 1
}

# HOOK bench_timeline: timeline redraw at 200x60 cells (target: < 16 ms at 1M and 10M events).
# tests/ui/bench_ui composes the whole screen headless with a 200-column x
# 60-lane cell area and prints the best of 20 redraws, with the whole
# selection fitted and zoomed in 1024x; it exits 2 above the target.
bench_timeline() {
    local b=$build/tests/ui/bench_ui rc=0
    [ -x "$b" ] || die "$b is not built (make -C $build tests/ui/bench_ui)"
    "$b" --events 1e6 2> /dev/null || rc=1
    "$b" --events 1e6 --ranks 8 --streams 8 2> /dev/null || rc=1
    "$b" --events 1e7 2> /dev/null || rc=1
    "$b" --events 1e7 --ranks 8 --streams 8 2> /dev/null || rc=1
    "$b" --load "$1" 2> /dev/null || rc=1
    "$b" --load "$2" 2> /dev/null || rc=1
    # The TUI's first screen on the big file: load, analyses of view 1, the
    # first frame (script mode with no key, so no terminal: a lower bound
    # of what a user waits), timed to the dump of the screen (the process
    # then waits for the cache entry it writes). From the JSON (--no-cache),
    # then from the cache (app/cache.h) written by a first open. Target:
    # < 3 s at 1 GB.
    local keys=$tmp/none.keys times=() warm=() rss_cold=() rss_warm=() start source
    : > "$keys"
    export XDG_CACHE_HOME=$tmp/xdg-cache
    rm -rf "$XDG_CACHE_HOME"
    "$htx" --script "$keys" --dump-screen "$tmp/first.screen" --force --size 45x160 "$1" || rc=1
    for _ in $(seq "$runs"); do
        for source in --no-cache ""; do   # (not $cache: the bench's directory)
            rm -f "$tmp/first.screen"
            start=$(date +%s.%N)
            measure "$htx" $source --script "$keys" --dump-screen "$tmp/first.screen" --size 45x160 "$1" ||
                rc=1
            secs=$(awk -v a="$start" -v b="$(stat -c %.9Y "$tmp/first.screen")" 'BEGIN { printf "%.3f", b - a }')
            if [ -n "$source" ]; then
                times+=("$secs")
                rss_cold+=("$rss_kb")
            else
                warm+=("$secs")
                rss_warm+=("$rss_kb")
            fi
        done
    done
    row "TUI first screen (1 rank, script mode)" "$(median "${times[@]}")" "$(median "${rss_cold[@]}")" \
        "$(spread "${times[@]}") s (the whole load: a lower bound of the TUI's load end)"
    row "TUI first screen from the cache" "$(median "${warm[@]}")" "$(median "${rss_warm[@]}")" \
        "$(spread "${warm[@]}") s (the trace unchanged since a first open wrote the entry; peak target: <= the above)"
    check_target "TUI peak from the cache against without, KB" "$(median "${rss_warm[@]}")" "<=" \
        "$(median "${rss_cold[@]}")"
    return "$rc"
}

# two_marks OPTIONS FILE EARLY LATE: htx on a real terminal (tmux), the
# seconds until the screen first shows EARLY and until it shows LATE, as
# "early late" (early = late when it was never seen before). The screen is
# polled every 10 ms until EARLY shows, then every 100 ms (polling takes
# CPU from htx on 2 cores), so the figures are late by up to that much.
two_marks() {
    local opts=$1 file=$2 early=$3 late=$4 session=htx-bench-$$ start t_early="" t_late=""
    start=$(date +%s%N)
    tmux new-session -d -s "$session" -x 160 -y 45 "'$htx' $opts --no-mouse '$file'"
    while tmux has-session -t "$session" 2> /dev/null; do
        local now screen
        now=$(date +%s%N)
        screen=$(tmux capture-pane -p -t "$session" 2> /dev/null || true)
        [ -z "$t_early" ] && [[ "$screen" == *"$early"* ]] && t_early=$now
        if [[ "$screen" == *"$late"* ]]; then
            t_late=$now
            break
        fi
        (( (now - start) > 120000000000 )) && break
        if [ -z "$t_early" ]; then sleep 0.01; else sleep 0.1; fi
    done
    tmux kill-session -t "$session" 2> /dev/null || true
    [ -n "$t_late" ] || return 1
    [ -n "$t_early" ] || t_early=$t_late   # before the first poll
    awk -v a="$start" -v b="$t_early" -v c="$t_late" 'BEGIN { printf "%.3f %.3f", (b - a) / 1e9, (c - a) / 1e9 }'
}

# HOOK bench_progress: on a real terminal (tmux), the time until the first
# screen (the loading screen with the lanes read so far: target 1 s at 1 GB)
# and until every view is ready (the whole load); and from the cache
# (the entry bench_timeline's runs wrote), the first screen, from the
# entry's tiles, and the events loaded behind it.
bench_progress() {
    command -v tmux > /dev/null || { echo "progress: tmux is not installed (make deps)"; return 0; }
    local i t boxes=() firsts=() cached=() loaded=()
    export TMUX_TMPDIR=$tmp   # a server of its own, even when make bench runs in a tmux
    unset TMUX TMUX_PANE
    export XDG_CACHE_HOME=$tmp/xdg-cache
    for ((i = 0; i < runs; i++)); do
        t=$(two_marks "" "$1" " iteration" "events loaded") ||
            { echo "progress: the cached first screen never came"; return 1; }
        cached+=("${t% *}")
        loaded+=("${t#* }")
        t=$(two_marks --no-cache "$1" "lanes fill as the file" " iteration") ||
            { echo "progress: the first screen never came"; return 1; }
        boxes+=("${t% *}")
        firsts+=("${t#* }")
    done
    row "TUI on a terminal: first screen from the cache" "$(median "${cached[@]}")" 0 \
        "$(spread "${cached[@]}") s (target <= 0.2 s; from the entry's tiles)"
    check_target "TUI first screen from the cache, s" "$(median "${cached[@]}")" "<=" 0.2
    row "TUI on a terminal: events loaded behind it" "$(median "${loaded[@]}")" 0 \
        "$(spread "${loaded[@]}") s"
    row "TUI on a terminal: first screen" "$(median "${boxes[@]}")" 0 \
        "$(spread "${boxes[@]}") s (no cache: the lanes filling as the file is read; target <= 1 s at 1 GB)"
    ! at_full_size || check_target "TUI first screen at 1 GB, s" "$(median "${boxes[@]}")" "<=" 1.0
    row "TUI on a terminal: every view ready" "$(median "${firsts[@]}")" 0 \
        "$(spread "${firsts[@]}") s (no cache: the whole load, the first screen of its view)"
    bench_quick_quit "$1"
}

# quit_at_first OPTIONS FILE MARK: htx on a real terminal (tmux), quit with q
# as soon as the screen shows MARK; returns when the process has ended.
quit_at_first() {
    local session=htx-bench-q$$ start
    start=$(date +%s)
    tmux new-session -d -s "$session" -x 160 -y 45 "'$htx' $1 --no-mouse '$2'"
    until tmux capture-pane -p -t "$session" 2> /dev/null | grep -qF "$3"; do
        tmux has-session -t "$session" 2> /dev/null || return 1
        (( $(date +%s) - start < 120 )) || { tmux kill-session -t "$session"; return 1; }
        sleep 0.01
    done
    tmux send-keys -t "$session" q
    while tmux has-session -t "$session" 2> /dev/null; do sleep 0.01; done
}

# bench_quick_quit FILE: a fresh cache, htx opened and quit as soon as its
# first screen shows; the seconds until the entry is whole (its tables are
# made by a detached, low-priority htx cache-complete after the quit), then
# the reopen's first screen (target: within 0.2 s, as from any whole entry).
bench_quick_quit() {
    local i t quit done_at whole=() reopen=()
    for ((i = 0; i < runs; i++)); do
        rm -rf "$XDG_CACHE_HOME"
        quit_at_first "" "$1" " iteration" || { echo "progress: the first screen never came"; return 1; }
        quit=$(date +%s%N)
        while pgrep -f "^htx cache-complete " > /dev/null; do
            (( $(date +%s%N) - quit < 120000000000 )) || break
            sleep 0.05
        done
        done_at=$(date +%s%N)
        whole+=("$(awk -v a="$quit" -v b="$done_at" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')")
        t=$(two_marks "" "$1" " iteration" " iteration") ||
            { echo "progress: the reopened first screen never came"; return 1; }
        reopen+=("${t% *}")
    done
    row "TUI quit at its first screen: entry whole" "$(median "${whole[@]}")" 0 \
        "$(spread "${whole[@]}") s after the quit (made by a detached htx at nice 19)"
    row "TUI reopened then" "$(median "${reopen[@]}")" 0 \
        "$(spread "${reopen[@]}") s (target <= 0.2 s)"
    check_target "TUI reopen after a quick quit, s" "$(median "${reopen[@]}")" "<=" 0.2
}

# HOOK bench_diff: htx diff --report on a control/test pair of this size.
bench_diff() {
    if ! "$htx" diff --report "$src/assets/diff/control" "$src/assets/diff/test" > /dev/null 2>&1; then
        echo "diff: htx diff --report does not run yet"
        return 0
    fi
    local pair=$cache/pair-$size-seed$seed
    generate "$pair" --ranks=1 --pair
    measure "$htx" info --format=json "$pair/control" || return 1
    local load=$secs
    measure "$htx" info --format=json "$pair/test" || return 1
    load=$(awk -v a="$load" -v b="$secs" 'BEGIN { printf "%.3f", a + b }')
    if ! measure "$htx" diff --report "$pair/control" "$pair/test"; then
        row "htx diff --report (1 rank each)" "$secs" "$rss_kb" "FAILED: $(head -c 200 "$tmp/err")"
        return 1
    fi
    row "htx diff --report (1 rank each)" "$secs" "$rss_kb" \
        "loading both sides alone: $load s ($(div "$secs" "$load")x)"
}

# HOOK bench_collectives: collectives and stragglers over 64 generated ranks
# (target: less than 10 % of the load). BENCH_COLL_SIZE (default 5M)
# is the JSON bytes per rank of that job.
bench_collectives() {
    local job64=$cache/job64-${BENCH_COLL_SIZE:-5M}-seed$seed
    local size_saved=$size
    size=${BENCH_COLL_SIZE:-5M}
    generate "$job64" --ranks=64
    size=$size_saved
    measure "$htx" info --format=json "$job64" || return 1
    local load=$secs
    if ! measure "$htx" report --format=json --analysis=collectives,stragglers "$job64"; then
        row "htx report collectives,stragglers (64 ranks)" "$secs" "$rss_kb" \
            "FAILED: $(head -c 200 "$tmp/err")"
        return 1
    fi
    local extra share
    extra=$(awk -v r="$secs" -v l="$load" 'BEGIN { d = r - l; printf "%.3f", d < 0 ? 0 : d }')
    share=$(awk -v e="$extra" -v l="$load" 'BEGIN { printf "%.1f", (l > 0 ? 100 * e / l : 0) }')
    row "htx report collectives,stragglers (64 ranks)" "$secs" "$rss_kb" \
        "load $load s + analyses $extra s = $share % of the load (target < 10 %)"
    awk -v p="$share" 'BEGIN { exit p < 10 ? 0 : 1 }'
}

# HOOK bench_findings: htx report with and without the findings, on the big
# rank and on an 8-rank job (target: findings add at most 10 %).
# BENCH_ONLY=findings runs this line alone.
bench_findings_one() {   # bench_findings_one LABEL PATH
    local without=temporal,kernels,idle,overlap,launch,queue,membw,annotations,sequences
    without=$without,collectives,stragglers,utilization
    local a=() b=() ratio=() i
    for ((i = 0; i < runs; i++)); do
        measure "$htx" report --format=json --no-cache --analysis="$without" "$2" || return 1
        a+=("$secs")
        if ! measure "$htx" report --format=json --no-cache --analysis="$without,findings" "$2"; then
            row "htx report + findings ($1)" "$secs" "$rss_kb" "FAILED: $(head -c 200 "$tmp/err")"
            return 1
        fi
        b+=("$secs")
        ratio+=("$(div "$secs" "${a[-1]}" %.4f)")
    done
    printf '%-40s %s s without, %s s with: %sx (target <= 1.10)\n' "htx report + findings ($1)" \
        "$(median "${a[@]}")" "$(median "${b[@]}")" "$(spread "${ratio[@]}")"
    awk -v r="$(median "${ratio[@]}")" 'BEGIN { exit r <= 1.10 ? 0 : 1 }'
}

# job8: the directory of an 8-rank job of BENCH_FINDINGS_SIZE (default 20M)
# of JSON a rank, generated once.
job8() {
    local dir=$cache/job8-${BENCH_FINDINGS_SIZE:-20M}-seed$seed
    local size_saved=$size
    size=${BENCH_FINDINGS_SIZE:-20M}
    generate "$dir" --ranks=8 >&2
    size=$size_saved
    echo "$dir"
}

bench_findings() {
    local status=0
    bench_findings_one "1 rank" "$1" || status=1
    bench_findings_one "8 ranks" "$(job8)" || status=1
    return "$status"
}

# ---- the run ---------------------------------------------------------------------------

echo "htx bench: $runs runs per figure, alternating; $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "trace: $job: 2 ranks, $(mb "$json_bytes") MB of JSON each ($(mb "$(stat -c %s "$file")") MB gzip)"
[ -x "$htx" ] || die "$htx is not built"
status=0
if [ "${BENCH_ONLY:-}" = findings ]; then
    bench_findings "$file"
    exit
fi
bench_load "1 rank" "" "$file" -- "$file" || status=1
bench_load "2 ranks" 2 "$job"/rank-*.json.gz -- "$job" || status=1
bench_plain "$file" || status=1
bench_analysis "$file" "$job" || status=1
bench_summarize "$file" || status=1
bench_annotation_stacks "$file" "$job" || status=1
bench_timeline "$file" "$job" || status=1
bench_progress "$file" || status=1
bench_diff "$file" "$job" || status=1
bench_collectives || status=1
bench_findings "$file" || status=1
if [ "${#missed[@]}" -gt 0 ]; then
    echo "missed:"
    printf '  %s\n' "${missed[@]}"
    status=1
fi
exit "$status"
