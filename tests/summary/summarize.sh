#!/bin/bash
# htx summarize: a report made from per-rank summaries is byte for
# byte the report made from the traces, for every analysis (the summaries'
# packed events) and for the analyses read from their tables alone
# (temporal, idle, overlap, the kernel parts' reduce; --events=skip proves
# no event is read), under both semantics, in json, csv and text;
# so are diff --report, info and the TUI's screens; however the map ran:
# one process, --shard, xargs -P or GNU parallel. Stale, duplicate, corrupt
# and existing summaries are named.
. "$(dirname "$0")/../lib.sh"
keep_going=1

gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"
. "$(dirname "$0")/compare.sh"

# Generated jobs: a DDP job (gzip and plain ranks), and a collectives job
# with a planted straggler. Run from $tmp so recorded paths are relative.
cd "$tmp"
"$gen" -q -o ddp -r 4 -i 3 -l 2 --plain-ranks=1,3
"$gen" -q -o coll --collectives -r 8 --straggler=5:2:1:1500
for job in ddp coll; do
    expect 0 "$HTX" summarize -o "sum-$job" "$job" && empty out
    [ "$(ls "sum-$job" | wc -l)" = "$(ls "$job" | grep -c json)" ] || fail "$job: not one summary per rank"
    same_report "$job" "sum-$job"
done
same_report ddp sum-ddp --rank=1,3
# HTA's tables of a rank are its job's only where the ranks agree on
# dropping the last step (§1.10): float times (rounded by HTA), and a job
# whose rank 1 has one step where rank 0 has three (HTA drops the last step
# of both) is read from its traces, or refused under --events=skip.
"$gen" -q -o frac -r 2 -i 3 -l 2 --frac
"$gen" -q -o onestep -r 2 -i 1 -l 2 --seed=3
cp onestep/rank-1.pt.trace.json.gz frac/
expect 0 "$HTX" summarize -o sum-frac frac && empty out
for sem in hta htx; do
    same_output frac sum-frac report --format=json --semantics=$sem $hta_what
done
expect 1 "$HTX" report --events=skip --semantics=hta $hta_what sum-frac &&
    has err "under HTA's semantics, the ranks' tables depend on each other's steps (HTA drops every rank's last step when the job has 2+ step names; a summary knows its rank's only): leave out --events=skip, or use --semantics=htx"
rm frac/rank-1.pt.trace.json.gz
"$gen" -q -o frac1 -r 2 -i 3 -l 2 --frac --seed=5
cp frac1/rank-1.pt.trace.json.gz frac/
expect 0 "$HTX" summarize -o sum-frac3 frac && empty out
same_hta_tables frac sum-frac3
expect 2 "$HTX" report --events=skip --semantics=hta --analysis=utilization sum-frac3 &&
    has err "utilization is not answered from the summaries' tables"
# --with-events: the events too (what needs them is then read from the
# summary, not its trace), the same answers, in a larger summary.
expect 0 "$HTX" summarize --with-events -o sum-ev-ddp ddp && empty out
same_report ddp sum-ev-ddp
for f in sum-ddp/*.htxs; do
    [ "$(stat -c %s "$f")" -lt "$(stat -c %s "sum-ev-ddp/$(basename "$f")")" ] ||
        fail "$f is not smaller than its summary with the events"
done
expect 2 "$HTX" report --with-events ddp && has err "--with-events belongs to htx summarize"
# Options under which the stored tables would be wrong (a selection of
# iterations or time, other kernel classes, another idle rule, another last
# step) take the events instead; summaries made under such options store
# tables and tiles made under the defaults all the same.
for opt in --iteration=1 --window=0:2ms --comm-patterns=gemm --memory-patterns=elementwise \
    --consecutive-kernel-delay=5us --drop-last-step --num-kernels=2 --duration-ratio=0.5 \
    --no-include-memory-kernels; do
    for fmt in csv json; do
        same_output coll sum-coll report --format=$fmt $what "$opt"
    done
    expect 2 "$HTX" report --events=skip $what "$opt" sum-coll &&
        has err "these options change what the summaries' tables hold"
done
# --events=skip never reads an event: what needs them is refused, saying why.
expect 2 "$HTX" report --events=skip --analysis=kernels,launch sum-coll &&
    has err "launch is not answered from the summaries' tables"
expect 2 "$HTX" report --events=skip $what coll && has err "these paths name traces"
expect 0 "$HTX" summarize -o sum-odd --comm-patterns=gemm --drop-last-step --semantics=hta \
    --consecutive-kernel-delay=5us coll
same_output coll sum-odd report --format=json $what

"$gen" -q -o ddp2 -r 4 -i 3 -l 2 --seed=7
expect 0 "$HTX" summarize -o sum-ddp2 ddp2
same_diff ddp ddp2 sum-ddp sum-ddp2

# The TUI on summaries draws what it draws on the traces (every view but the
# title line, which names the path given).
printf '1\n2\n3\n4\n5\n6\n7\nR\nC\nq\n' >keys
for where in coll sum-coll; do
    expect 0 "$HTX" --script=keys --dump-screen="screen-$where" --size=40x140 "$where"
done
cmp -s <(tail -n +2 screen-coll) <(tail -n +2 screen-sum-coll) ||
    fail "the TUI on summaries differs: $(diff screen-coll screen-sum-coll | head -5)"

# The map under existing engines: shards, xargs -P and GNU parallel give the
# same summaries, byte for byte, as one process. xargs and parallel in the
# forms docs/scale-out.md recommends: several files a process (-n, -X).
for i in 0 1 2; do
    expect 0 "$HTX" summarize --shard=$i/3 -o sharded ddp
done
ls ddp/* | xargs -P 2 -n 2 "$HTX" summarize -o by-xargs || fail "xargs -P failed"
if command -v parallel >/dev/null; then
    parallel --will-cite -X -j 2 "$HTX" summarize -o by-parallel ::: ddp/* || fail "GNU parallel failed"
else
    fail "GNU parallel is not installed (make check installs it)"
fi
for dir in sharded by-xargs by-parallel; do
    for f in sum-ddp/*.htxs; do
        cmp -s "$f" "$dir/$(basename "$f")" || fail "$dir/$(basename "$f") differs from one process's"
    done
done
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2 "$HTX" summarize --shard=auto -o by-array ddp ||
    fail "--shard=auto from a Slurm array failed"
[ "$(ls by-array)" = "$(printf 'rank-00001.htxs\nrank-00003.htxs')" ] ||
    fail "array task 1 of 2 made $(ls by-array | tr '\n' ' ')"

# One process summarizes --jobs files at once: the same summaries, byte for
# byte, whatever the number. Two files of one rank end as a run in the
# files' order would: the first one's summary kept and the later refused,
# or with --force the later one's; a slow first file, finished last,
# changes nothing.
for jobs in 1 2 3; do
    expect 0 "$HTX" summarize --jobs=$jobs -o "jobs-$jobs" ddp && empty err
    for f in sum-ddp/*.htxs; do
        cmp -s "$f" "jobs-$jobs/$(basename "$f")" || fail "--jobs=$jobs: $(basename "$f") differs"
    done
done
"$gen" -q -o big -r 2 -s 16M
mkdir dup && cp big/rank-1.pt.trace.json.gz dup/a-rank-1.json.gz && cp ddp/rank-1.pt.trace.json dup/b-rank-1.json
for jobs in 1 2; do
    expect 2 "$HTX" summarize --jobs=$jobs -o "dup-$jobs" dup &&
        has err "htx: dup-$jobs/rank-00001.htxs: already exists (use --force to replace it)" &&
        has err "  written: dup/a-rank-1.json.gz -> dup-$jobs/rank-00001.htxs" &&
        has err "  not written: dup/b-rank-1.json"
    grep -q -a a-rank-1 "dup-$jobs/rank-00001.htxs" || fail "--jobs=$jobs: the first file's summary was not kept"
    expect 0 "$HTX" summarize --force --jobs=$jobs -o "dup-$jobs" dup
    grep -q -a b-rank-1 "dup-$jobs/rank-00001.htxs" || fail "--jobs=$jobs --force: the last file's summary was not kept"
done
expect 2 "$HTX" report --jobs=2 ddp && has err "--jobs belong to htx summarize"

# Bad cases, each named. A broken rank file fails alone: the others are
# summarized, and the exit status says one failed.
mkdir broken && cp ddp/* broken/ && printf '{"traceEvents": [' >broken/rank-9.json
expect 1 "$HTX" summarize -o sum-broken broken && has err "broken/rank-9.json: byte 17"
[ "$(ls sum-broken | wc -l)" = 4 ] || fail "the good ranks of broken/ were not all summarized"
has err "htx: warning: 4 of 5 summaries written:" && has err "not written: broken/rank-9.json"
# An output refused (a symbolic link there) fails alone, and the run says
# exactly which summaries it wrote and which it did not.
mkdir sum-link && ln -s /nonexistent sum-link/rank-00001.htxs
expect 2 "$HTX" summarize -o sum-link ddp && has err "sum-link/rank-00001.htxs" &&
    has err "htx: warning: 3 of 4 summaries written:" &&
    has err "  written: ddp/rank-0.pt.trace.json.gz -> sum-link/rank-00000.htxs" &&
    has err "  not written: ddp/rank-1.pt.trace.json"
[ "$(ls sum-link | wc -l)" = 4 ] || fail "the other ranks were not summarized: $(ls sum-link)"
[ -L sum-link/rank-00001.htxs ] || fail "the symbolic link was replaced"
expect 2 "$HTX" summarize -o sum-ddp ddp && has err "--force"
expect 0 "$HTX" summarize --force -o sum-ddp ddp
expect 2 "$HTX" summarize ddp && has err "missing -o DIR"
expect 2 "$HTX" summarize -o again sum-ddp && has err "sum-ddp/rank-00000.htxs: already a rank summary"
expect 2 "$HTX" report -o x ddp && has err "belong to htx summarize"
cp sum-ddp/rank-00002.htxs sum-ddp/copy-of-2.htxs
expect 2 "$HTX" report "$what" sum-ddp && has err "rank 2 has two summaries"
expect 1 "$HTX" report sum-ddp && has err "sum-ddp/copy-of-2.htxs and sum-ddp/rank-00002.htxs both claim rank 2"
rm sum-ddp/copy-of-2.htxs
head -c 100 sum-ddp/rank-00001.htxs >"$tmp/cut.htxs"
mkdir cut && cp sum-ddp/rank-00000.htxs "$tmp/cut.htxs" cut/
expect 1 "$HTX" report "$what" cut && has err "cut.htxs"
expect 1 "$HTX" report cut && has err "cut.htxs: truncated summary"
"$gen" -q -o wide -r 1 -s 30M
expect 0 "$HTX" summarize --with-events -o sum-wide wide
expect 1 env HTX_MAX_MEMORY=8M "$HTX" info sum-wide && has err "rank-00000.htxs: stopped: htx uses"
expect 0 "$HTX" summarize -o sum-wide-no-events wide   # its trace is read instead: both named
expect 1 env HTX_MAX_MEMORY=8M "$HTX" info sum-wide-no-events &&
    has err "rank-00000.htxs: wide/rank-0.pt.trace.json.gz: stopped: htx uses"
printf 'HTXSUMM\0\011\0' | cat - <(tail -c +11 sum-ddp/rank-00001.htxs) >cut/cut.htxs
expect 1 "$HTX" info cut && has err "cut.htxs"
sleep 1
printf ' ' >>ddp/rank-0.pt.trace.json.gz
expect 0 "$HTX" report "$what" sum-ddp && has err "sum-ddp/rank-00000.htxs: stale: ddp/rank-0.pt.trace.json.gz changed"
# What needs the events is read from a summary's trace only while that is
# the file summarized; a summary with its events answers alone, saying it
# is stale.
expect 1 "$HTX" report sum-ddp &&
    has err "sum-ddp/rank-00000.htxs: made without its events (htx summarize --with-events keeps them), and its trace ddp/rank-0.pt.trace.json.gz changed since (summarize that rank again)"
expect 0 "$HTX" report sum-ev-ddp && has err "sum-ev-ddp/rank-00000.htxs: stale: ddp/rank-0.pt.trace.json.gz changed"
mkdir moved moved-ev && cp sum-ddp/* moved/ && cp sum-ev-ddp/* moved-ev/ && rm -r ddp
expect 0 "$HTX" report "$what" moved && empty err
expect 1 "$HTX" report moved &&
    has err "moved/rank-00000.htxs: its trace is not found (tried ddp/rank-0.pt.trace.json.gz here and beside the summary, then $(pwd)/ddp/rank-0.pt.trace.json.gz)"
expect 0 "$HTX" report --semantics=hta moved-ev && empty err
# The TUI shows such summaries without their events, saying why.
printf '6\nq\n' >away.keys
expect 0 "$HTX" --script=away.keys --dump-screen=away.screen --size=30x160 moved
grep -q "made without their .* events (htx summarize --with-events keeps them)" away.screen ||
    fail "the TUI on summaries away from their traces: $(head -8 away.screen)"
printf 'q\n' >q.keys   # and so does its diff view, from the stored ops
expect 0 "$HTX" diff --script=q.keys --dump-screen=away-diff.screen --size=30x160 moved moved
grep -q "unchanged" away-diff.screen || fail "the diff of summaries away from their traces: $(head -8 away-diff.screen)"
finish
