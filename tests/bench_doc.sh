#!/usr/bin/env bash
# make bench: runs tests/bench.sh, shows its output, and writes it to
# docs/performance.md with the date, the machine and the command, so the
# figures a user reads are the ones a run printed, never typed by hand.
# Exits with bench.sh's status (the document is written either way, saying
# so when a figure failed or missed its target).
#
# Usage: tests/bench_doc.sh BUILD_DIR OUT.md
# Environment: bench.sh's (BENCH_SIZE, BENCH_RUNS, BENCH_SEED,
# BENCH_COLL_SIZE, BENCH_CACHE), recorded in the command the document shows.
set -uo pipefail

build=${1:?usage: bench_doc.sh BUILD_DIR OUT.md}
out=${2:?usage: bench_doc.sh BUILD_DIR OUT.md}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/htx-bench-doc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

size=${BENCH_SIZE:-256M}
runs=${BENCH_RUNS:-3}
command="BENCH_SIZE=$size BENCH_RUNS=$runs"
[ -z "${BENCH_SEED:-}" ] || command="$command BENCH_SEED=$BENCH_SEED"
[ -z "${BENCH_COLL_SIZE:-}" ] || command="$command BENCH_COLL_SIZE=$BENCH_COLL_SIZE"
command="$command make bench"

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
[ -n "$cpu" ] || cpu=$(sed -n 's/^\(Hardware\|CPU part\)[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
memory=$(awk '/^MemTotal:/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
t0=$(date +%s)

"$src/tests/bench.sh" "$build" | tee "$tmp/figures"
status=${PIPESTATUS[0]}
minutes=$(( ($(date +%s) - t0 + 30) / 60 ))

# The size against the default and against the targets' size.
bytes=$(numfmt --from=si "$size" 2>/dev/null || echo 0)
case $bytes in
1000000000) scale="the size DESIGN.md's targets are stated at" ;;
256000000) scale="the default; DESIGN.md's targets are stated at 1G (\`BENCH_SIZE=1G make bench\`)" ;;
*)
    if [ "$bytes" -lt 256000000 ]; then
        scale="a reduced size (the default is 256M; DESIGN.md's targets are stated at 1G)"
    else
        scale="DESIGN.md's targets are stated at 1G"
    fi ;;
esac
if [ "$status" = 0 ]; then
    verdict="every step ran and every checked target was met"
else
    verdict="exit status $status: a step failed (FAILED) or a checked target was missed; see below"
fi

{
    echo "# Performance"
    echo
    echo "Written by \`make bench\` (\`tests/bench_doc.sh\`) from the benchmark's own output: do not edit"
    echo "by hand, run it again. Figures from another machine, or the same one under another load, do not"
    echo "compare; ratios measured in one run (htx against \`gzip -dc\`, a report against a load) do better."
    echo
    echo "- Date: $started, $minutes min"
    echo "- Machine: $(uname -m), $(nproc) cores, ${cpu:-CPU model unknown}, ${memory:-memory unknown}"
    echo "- Load average when it started: $load"
    echo "- Command: \`$command\`"
    echo "- Traces: generated, 2 ranks of $size of JSON each (gzip); $scale"
    echo "- $($build/src/htx --version 2>/dev/null | head -n 1); result: $verdict"
    echo
    echo '```text'
    cat "$tmp/figures"
    echo '```'
    echo
    cat <<'EOF'
## How to read it

- The traces are generated once by `tests/gen` and kept outside the tree (`$TMPDIR/htx-bench-cache`);
  `BENCH_SIZE` sets the JSON bytes a rank, `BENCH_RUNS` the runs of each figure.
- Single runs on a shared machine are noise, so each load and analysis figure is `BENCH_RUNS` runs
  alternating htx and its reference, printed as median [min-max], and ratios are taken per run.
- `gzip -dc` is the floor for reading a `.json.gz`; `htx info` is a full load (every event parsed
  into the model), with its wall and CPU time against gzip's, its peak resident memory and bytes
  per event.
- Plain JSON: the same rank decompressed, read by one thread and by htx's default, in MB of JSON
  a second.
- `htx report`: every analysis, against `htx info` of the same paths per round, on the big rank
  and on an 8-rank job; the analyses' own time inside the one process (`--timings`) beside it.
- `htx summarize`: the map step of a cluster job against `htx info` of the same file, and the
  summary's share of the JSON, without and with `--with-events`.
- Timeline redraw (`tests/ui/bench_ui`): the whole screen composed headless at 200 columns and
  60 lanes over 1 and 10 million synthetic events, and over the loaded traces.
- First screen: in script mode (no terminal) from the JSON and from the cache, with the peak of
  each, then on a real terminal (tmux) until the first screen (the lanes filling as the file
  is read) and until every view is ready; last, with a fresh cache, htx quit as soon as its
  first screen shows, the time until its entry is whole, and the reopen then.
- A target missed is named again under "missed:" at the end of the figures.
- Collectives and stragglers over 64 generated ranks, against their load; `htx diff --report` on
  a generated control/test pair against loading both sides.
EOF
} >"$tmp/doc.md"
mkdir -p "$(dirname "$out")"
mv "$tmp/doc.md" "$out"
echo "bench: wrote $out"
exit "$status"
