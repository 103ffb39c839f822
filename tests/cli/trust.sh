#!/bin/sh
# The job's trust checks end to end: generated jobs that plant a missing
# rank or a rank of another job raise them in every report format, in
# `htx info` and from rank summaries; clean generated jobs and the real
# traces of ../shared raise nothing they should not.
. "$(dirname "$0")/../lib.sh"
keep_going=1
gen=$HTX_BUILDDIR/tests/gen/htx-gen
[ -x "$gen" ] || fail "$gen is not built"

job() {   # job DIR [htx-gen options]: a small 4-rank job
    dir=$1
    shift
    "$gen" -q -r 4 -i 2 -l 1 "$@" -o "$tmp/$dir"
}

lacks() {   # lacks out|err TEXT
    if grep -q -F -- "$2" "$tmp/$1"; then
        fail "$1 has '$2'"
        sed "s/^/  $1: /" "$tmp/$1" >&2
    fi
}

echo "# a clean job raises nothing"
job clean
expect 0 "$HTX" report --analysis=temporal "$tmp/clean" && lacks out "trust"
expect 0 "$HTX" report --semantics=hta --analysis=temporal "$tmp/clean" && lacks out "trust"
expect 0 "$HTX" report --format=json --analysis=temporal "$tmp/clean" && valid_json
has out '"trust": []'
expect 0 "$HTX" report --format=csv --analysis=temporal "$tmp/clean" && lacks out "trust"
expect 0 "$HTX" info "$tmp/clean" && lacks out "trust"
expect 0 "$HTX" info --format=json "$tmp/clean" && valid_json && has out '"trust": []'

echo "# a missing rank is named in every format"
job missing --omit-ranks=2
msg="3 of 4 ranks: rank 2 missing"
msg_missing=$msg
expect 0 "$HTX" report --analysis=temporal "$tmp/missing" && has out "! missing_ranks: $msg"
expect 0 "$HTX" report --format=json --analysis=temporal "$tmp/missing" && valid_json
has out "{\"check\": \"missing_ranks\", \"severe\": true, \"count\": 1, \"ranks\": \"2\", \"message\": \"$msg\"}"
expect 0 "$HTX" report --format=csv --analysis=temporal "$tmp/missing" && has out "# trust"
has out "missing_ranks,True,1,2,$msg"
has out "# temporal_breakdown"
expect 0 "$HTX" info "$tmp/missing" && has out "missing_ranks          severe: $msg"
expect 0 "$HTX" info --format=json "$tmp/missing" && valid_json && has out "$msg"

echo "# ... and from the job's summaries"
expect 0 "$HTX" summarize -o "$tmp/missing.s" "$tmp"/missing/*.json.gz
expect 0 "$HTX" report --events=skip --analysis=temporal "$tmp/missing.s" &&
    has out "! missing_ranks: $msg"
expect 0 "$HTX" summarize -o "$tmp/clean.s" "$tmp"/clean/*.json.gz
expect 0 "$HTX" report --events=skip --analysis=temporal "$tmp/clean.s" && lacks out "trust"

echo "# a rank of another job: world size, process group, time base"
for kind in world pg time; do
    case $kind in
    world) why="world size 8, not 4" ;;
    pg) why='process group "0" differs' ;;
    time) why="starts 24.0 h after the others" ;;
    esac
    job "mixed-$kind" --foreign=1:$kind
    expect 0 "$HTX" report --analysis=temporal "$tmp/mixed-$kind" &&
        has out "! mixed_job: rank 1 is of another job: $why"
    expect 0 "$HTX" info "$tmp/mixed-$kind" && has out "mixed_job"
    expect 0 "$HTX" summarize -o "$tmp/mixed-$kind.s" "$tmp/mixed-$kind"/*.json.gz
    expect 0 "$HTX" report --events=skip --analysis=temporal "$tmp/mixed-$kind.s" &&
        has out "! mixed_job: rank 1 is of another job: $why"
    # the summaries' events (packed with the document's metadata) say the same
    expect 0 "$HTX" report --events=load --analysis=temporal "$tmp/mixed-$kind.s" &&
        has out "! mixed_job: rank 1 is of another job: $why"
done

echo "# dropped events are counted in every format"
job dropped --bad-events=3
msg="3 events dropped (malformed or out of range) at load: rank 0"
expect 0 "$HTX" report --analysis=temporal "$tmp/dropped" && has out "- dropped_events: $msg"
lacks out "severe"
expect 0 "$HTX" report --format=json --analysis=temporal "$tmp/dropped" && valid_json
has out "{\"check\": \"dropped_events\", \"severe\": false, \"count\": 3, \"ranks\": \"0\", \"message\": \"$msg\"}"
expect 0 "$HTX" report --format=csv --analysis=temporal "$tmp/dropped" && has out "dropped_events,False,3,0,$msg"
expect 0 "$HTX" info "$tmp/dropped" && has out "dropped_events         $msg"
expect 0 "$HTX" info --format=json "$tmp/dropped" && valid_json && has out '"events_dropped": 3'
expect 0 "$HTX" summarize -o "$tmp/dropped.s" "$tmp"/dropped/*.json.gz
expect 0 "$HTX" report --events=skip --analysis=temporal "$tmp/dropped.s" &&
    has out "- dropped_events: $msg"
expect 0 "$HTX" report --events=load --analysis=temporal "$tmp/dropped.s" &&
    has out "- dropped_events: $msg"
# a lone CSV table stays one table when nothing fired
expect 0 "$HTX" report --format=csv --analysis=temporal "$tmp/clean" && has_match out '^rank,'
if head -n 1 "$tmp/out" | grep -q '^#'; then fail "a lone CSV table got a name line"; fi

echo "# overlapping kernels on one stream are counted in every format"
job overlaps --overlaps=2
msg="2 GPU events overlapping the one before on their stream (kept): rank 0"
expect 0 "$HTX" report --analysis=temporal "$tmp/overlaps" && has out "- overlapping_events: $msg"
lacks out "severe"
expect 0 "$HTX" report --format=json --analysis=temporal "$tmp/overlaps" && valid_json
has out "{\"check\": \"overlapping_events\", \"severe\": false, \"count\": 2, \"ranks\": \"0\", \"message\": \"$msg\"}"
expect 0 "$HTX" report --format=csv --analysis=temporal "$tmp/overlaps" &&
    has out "overlapping_events,False,2,0,$msg"
expect 0 "$HTX" report --semantics=hta --analysis=temporal "$tmp/overlaps" &&
    has out "- overlapping_events: $msg"
expect 0 "$HTX" info "$tmp/overlaps" && has out "overlapping_events     $msg"
expect 0 "$HTX" summarize -o "$tmp/overlaps.s" "$tmp"/overlaps/*.json.gz
expect 0 "$HTX" report --events=skip --analysis=temporal "$tmp/overlaps.s" &&
    has out "- overlapping_events: $msg"
expect 0 "$HTX" report --events=load --semantics=hta --analysis=temporal "$tmp/overlaps.s" &&
    has out "- overlapping_events: $msg"
# a fact of the job's files, whatever the selection
expect 0 "$HTX" report --rank=1 --analysis=temporal "$tmp/overlaps" &&
    has out "- overlapping_events: $msg"

echo "# graph launches: counted, flagged in the launch statistics, not delay outliers"
job graphs --graphs=3
msg="12 GPU events from 3 CUDA/HIP graph launches (launch delays are the graph's): rank 0"
expect 0 "$HTX" report --analysis=temporal "$tmp/graphs" && has out "- graph_launches: $msg"
lacks out "severe"
expect 0 "$HTX" report --format=json --analysis=temporal "$tmp/graphs" && valid_json
has out "{\"check\": \"graph_launches\", \"severe\": false, \"count\": 12, \"ranks\": \"0\", \"message\": \"$msg\"}"
expect 0 "$HTX" info "$tmp/graphs" && has out "graph kernels          12 in 3 launches"
has out "graph_launches         $msg"
expect 0 "$HTX" info --format=json "$tmp/graphs" && valid_json
has out '"graph_kernels": 12, "graph_launches": 3'
expect 0 "$HTX" report --analysis=launch --format=csv "$tmp/graphs" &&
    has out "rank,correlation,cpu_duration,gpu_duration,launch_delay,graph"
[ "$(grep -c '^0,800000[0-2],15,25,[0-9]*,True' "$tmp/out")" = 12 ] ||
    fail "the 12 graph kernels are not flagged in the launch statistics"
# their 2 ms delay is the graph's: never a delay outlier of their own
awk '/^# /{on=($2 ~ /^launch_delay_outliers/)} on' "$tmp/out" > "$tmp/delays"
grep -q '^rank,' "$tmp/delays" || fail "no delay outliers table"
if grep -q ',True' "$tmp/delays"; then fail "graph kernels among the delay outliers"; fi
# HTA knows no graph launch: its tables are HTA's
expect 0 "$HTX" report --semantics=hta --analysis=launch --format=csv "$tmp/graphs" &&
    lacks out ",launch_delay,graph" && lacks out ",800000"
# the annotation tree puts them under the launch call
expect 0 "$HTX" report --analysis=annotations "$tmp/graphs" && has out "/ cudaGraphLaunch "
expect 0 "$HTX" summarize -o "$tmp/graphs.s" "$tmp"/graphs/*.json.gz
expect 0 "$HTX" report --events=skip --analysis=temporal "$tmp/graphs.s" &&
    has out "- graph_launches: $msg"

echo "# clock skew: estimated from matched collectives, aligned by --align=collectives"
coll() {   # coll DIR [htx-gen options]: a 4-rank collectives job with a straggler
    dir=$1
    shift
    "$gen" -q -r 4 -i 2 --collectives --straggler=1:2:1:3000 "$@" -o "$tmp/$dir"
}
tables() {   # the report's tables but its trust table
    awk '/^# /{skip=($2 ~ /^trust/)} !skip && !/^\r?$/' "$tmp/out" > "$tmp/$1"
}
coll skew-none
coll skew-late --clock-offset=2:5000000
coll skew-early --clock-offset=3:-2000000
expect 0 "$HTX" report --analysis=collectives "$tmp/skew-none" && lacks out "clock_skew"
msg="rank 2's clock is 5.00 ms ahead of rank 0's (median over 6 matched collectives; one allows"
expect 0 "$HTX" report --analysis=collectives "$tmp/skew-late" && has out "- clock_skew: $msg"
has out "): --align=collectives aligns the clocks"
lacks out "severe"
expect 0 "$HTX" info "$tmp/skew-late" && has out "clock_skew             $msg"
expect 0 "$HTX" report --analysis=collectives --align=collectives "$tmp/skew-late" &&
    has out "- clock_skew: $msg" && has out "): aligned by --align=collectives"
expect 0 "$HTX" summarize -o "$tmp/skew-late.s" "$tmp"/skew-late/*.json.gz
expect 0 "$HTX" report --events=skip --analysis=collectives "$tmp/skew-late.s" &&
    has out "- clock_skew: $msg"
expect 0 "$HTX" report --analysis=collectives "$tmp/skew-early" &&
    has out "rank 3's clock is 2.00 ms behind rank 0's"
# aligned, the collectives and stragglers are those of the job without the offset
expect 0 "$HTX" report --analysis=collectives,stragglers --format=csv "$tmp/skew-none" &&
    tables none.csv
for k in late early; do
    expect 0 "$HTX" report --analysis=collectives,stragglers --format=csv "$tmp/skew-$k" &&
        tables raw.csv
    if cmp -s "$tmp/none.csv" "$tmp/raw.csv"; then fail "skew-$k: the offset changes nothing"; fi
    expect 0 "$HTX" report --analysis=collectives,stragglers --format=csv --align=collectives \
        "$tmp/skew-$k" && tables aligned.csv
    cmp -s "$tmp/none.csv" "$tmp/aligned.csv" ||
        fail "skew-$k: aligned, the collectives differ from the job without the offset"
done
# aligned on the clean job: nothing moves
expect 0 "$HTX" report --analysis=collectives,stragglers --format=csv --align=collectives \
    "$tmp/skew-none" && tables clean.csv && cmp -s "$tmp/none.csv" "$tmp/clean.csv" ||
    fail "--align=collectives moved a job without skew"
expect 2 "$HTX" report --semantics=hta --align=collectives "$tmp/skew-late" &&
    has err "not under --semantics=hta"
expect 2 "$HTX" report --align=hosts "$tmp/skew-late" && has err "none, collectives"
# the simulated training job: no false alarm, and a planted offset found
job skew-sim --clock-offset=1:3000000
expect 0 "$HTX" report --analysis=temporal "$tmp/skew-sim" &&
    has_match out "- clock_skew: rank 1's clock is 3\.[0-9]* ms ahead of rank 0's"
expect 0 "$HTX" report --analysis=temporal "$tmp/clean" && lacks out "clock_skew"

echo "# a diff report carries each side's checks"
expect 0 "$HTX" diff --report "$tmp/clean" "$tmp/missing" && has out "trust (test): 1 check fired"
has out "  ! missing_ranks: $msg_missing"
lacks out "trust (control)"
expect 0 "$HTX" diff --report --format=json "$tmp/clean" "$tmp/missing" && valid_json
has out '"control": []'
has out "{\"check\": \"missing_ranks\", \"severe\": true, \"count\": 1, \"ranks\": \"2\", \"message\": \"$msg_missing\"}"
expect 0 "$HTX" diff --report --format=csv "$tmp/clean" "$tmp/missing" && has out "# trust"
has out "test,missing_ranks,True,1,2,$msg_missing"
expect 0 "$HTX" diff --report --format=csv "$tmp/clean" "$tmp/clean" && lacks out "trust"

echo "# the real traces: a missing-ranks note on the partial jobs, overlaps where there are"
if [ -d "$HTX_SHARED/traces" ]; then
    for set in amd_mi250 cpu_only nccl rank_non_gpu rank_unavailable two_ranks \
        diff/control diff/test diff_small/control diff_small/test; do
        expect 0 "$HTX" report --analysis=temporal "$HTX_SHARED/traces/$set" || continue
        lacks out "mixed_job"
        case $set in
        cpu_only | nccl | two_ranks | diff/control) has out "trust: 1 check fired" ;;
        diff/test) has out "trust: 3 checks fired" ;;
        esac
        case $set in
        cpu_only) has out "1 of 300 ranks: ranks 0-33, 35-299 missing" ;;
        nccl) has out "1 of 2 ranks: rank 1 missing" ;;
        two_ranks) has out "2 of 128 ranks: ranks 2-127 missing" ;;
        diff/control) has out "1 of 8 ranks: ranks 0-2, 4-7 missing" ;;
        diff/test)   # real: kernels on stream 7 starting 2-13 us before the one before ends
            has out "1 of 2 ranks: rank 0 missing"
            has out "31 GPU events overlapping the one before on their stream (kept): rank 1"
            # real: 12 cudaGraphLaunch calls, each linked to hundreds of kernels
            has out "5046 GPU events from 12 CUDA/HIP graph launches"
            expect 0 "$HTX" report --semantics=hta --analysis=temporal "$HTX_SHARED/traces/$set" &&
                has out "31 GPU events overlapping" ;;
        *) lacks out "trust" ;;
        esac
    done
else
    echo "../shared not found: the real traces are not checked"
fi
finish
