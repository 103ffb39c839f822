#!/bin/bash
# htx summarize (issue 12): a report made from per-rank summaries is byte for
# byte the report made from the traces (for what summaries hold: temporal,
# idle, overlap; both semantics; json, csv and text), however the map ran:
# one process, --shard, xargs -P or GNU parallel. Stale, duplicate, corrupt
# and existing summaries are named.
. "$(dirname "$0")/../lib.sh"
keep_going=1

gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"
what=--analysis=temporal,idle,overlap

# same_report TRACES SUMMARIES [OPTIONS]: every format and semantics agree.
same_report() {
    local traces=$1 sums=$2 sem fmt
    shift 2
    for sem in htx hta; do
        for fmt in json csv text; do
            "$HTX" report --format=$fmt --semantics=$sem $what "$@" "$traces" >"$tmp/t.out" 2>/dev/null ||
                fail "report on $traces failed"
            if ! "$HTX" report --format=$fmt --semantics=$sem $what "$@" "$sums" >"$tmp/s.out" 2>"$tmp/s.err"; then
                fail "report on the summaries of $traces failed: $(cat "$tmp/s.err")"
                continue
            fi
            cmp -s "$tmp/t.out" "$tmp/s.out" ||
                fail "$traces $sem $fmt $*: the report from summaries differs: $(diff "$tmp/t.out" "$tmp/s.out" | head -5)"
        done
    done
}

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

# The real multi-rank sets of ../shared, when present.
if [ -d "$HTX_SHARED/traces/two_ranks" ]; then
    cp -r "$HTX_SHARED/traces/two_ranks" shared2
    expect 0 "$HTX" summarize -o sum-shared2 shared2
    same_report shared2 sum-shared2
else
    echo "summarize.sh: ../shared/traces absent, real traces skipped"
fi

# The map under existing engines: shards, xargs -P and GNU parallel give the
# same summaries, byte for byte, as one process.
for i in 0 1 2; do
    expect 0 "$HTX" summarize --shard=$i/3 -o sharded ddp
done
ls ddp/* | xargs -P 2 -n 1 "$HTX" summarize -o by-xargs || fail "xargs -P failed"
if command -v parallel >/dev/null; then
    parallel --will-cite -j 2 "$HTX" summarize -o by-parallel ::: ddp/* || fail "GNU parallel failed"
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

# Bad cases, each named. A broken rank file fails alone: the others are
# summarized, and the exit status says one failed.
mkdir broken && cp ddp/* broken/ && printf '{"traceEvents": [' >broken/rank-9.json
expect 1 "$HTX" summarize -o sum-broken broken && has err "broken/rank-9.json: byte 17"
[ "$(ls sum-broken | wc -l)" = 4 ] || fail "the good ranks of broken/ were not all summarized"
expect 2 "$HTX" summarize -o sum-ddp ddp && has err "--force"
expect 0 "$HTX" summarize --force -o sum-ddp ddp
expect 2 "$HTX" summarize ddp && has err "missing -o DIR"
expect 2 "$HTX" report -o x ddp && has err "belong to htx summarize"
cp sum-ddp/rank-00002.htxs sum-ddp/copy-of-2.htxs
expect 2 "$HTX" report "$what" sum-ddp && has err "rank 2 has two summaries"
rm sum-ddp/copy-of-2.htxs
head -c 100 sum-ddp/rank-00001.htxs >"$tmp/cut.htxs"
mkdir cut && cp sum-ddp/rank-00000.htxs "$tmp/cut.htxs" cut/
expect 1 "$HTX" report "$what" cut && has err "cut.htxs"
sleep 1
printf ' ' >>ddp/rank-0.pt.trace.json.gz
expect 0 "$HTX" report "$what" sum-ddp && has err "stale"
expect 0 "$HTX" report sum-ddp && has err "not in the summaries: kernels"
expect 1 "$HTX" info sum-ddp && has err "rank summaries (.htxs), not traces: htx report reads them"
finish
