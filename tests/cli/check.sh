#!/bin/sh
# htx check: the findings, exit 3 when a problem costs more than --max-cost
# percent of the iteration, 0 otherwise, 1 bad input, 2 bad usage. The jobs
# come from htx-gen --plant (tests/gen/gen_plant.c): with nothing planted
# no problem fires; a sync costs 900 us of a 12 ms step (7.5%).
. "$(dirname "$0")/../lib.sh"
keep_going=1
gen=$HTX_BUILDDIR/tests/gen/htx-gen

"$gen" -q -r 2 --plant=none -o "$tmp/clean"
"$gen" -q -r 2 --plant=sync -o "$tmp/sync"
"$gen" -q -r 2 --plant=sync -o "$tmp/sums-src"
"$gen" -q -r 4 --plant=none --straggler=2:2:1:12000 -o "$tmp/late"

expect 0 "$HTX" check "$tmp/clean" && has_match out "Findings"
if grep -q "sync_stall\|host_bound\|exposed_communication" "$tmp/out"; then
    echo "FAIL: a problem fired on the clean job" >&2
    failures=$((failures + 1))
fi
# the default threshold is 5%: the 7.5% sync crosses it
expect 3 "$HTX" check "$tmp/sync" && has_match out "sync_stall" &&
    has_match err "finding beyond 5%: sync_stall: Host synchronizations stall the GPU: 900.0 us"
expect 3 "$HTX" check --max-cost=7% "$tmp/sync"
expect 0 "$HTX" check --max-cost=8 "$tmp/sync" && has_match out "sync_stall"
# hot spots never fail it
expect 0 "$HTX" check --max-cost=0 "$tmp/clean" && has_match out "hot_kernel"
# the same findings as the report, in every format
expect 3 "$HTX" check --format=json "$tmp/sync" && valid_json && has_match out '"findings": \['
expect 0 "$HTX" report --analysis=findings --format=csv "$tmp/sync" &&
    has_match out '^sync_stall,Host synchronizations stall the GPU: 900.0 us per iteration'
# summaries without events: the rules that need them say so
expect 0 "$HTX" summarize -o "$tmp/sums" "$tmp/sums-src"
expect 0 "$HTX" report --events=skip --analysis=findings "$tmp/sums" &&
    has_match out "sync_stall, pageable_copy, step_gap.* need the events"
# the straggler answers from summaries alone, with the cost found on the events
expect 3 "$HTX" check "$tmp/late" &&
    has_match err "finding beyond 5%: straggler: Rank 2 makes the others wait at collectives: 3.00 ms"
expect 0 "$HTX" summarize -o "$tmp/late-sums" "$tmp/late"
expect 0 "$HTX" report --events=skip --analysis=findings --format=csv "$tmp/late-sums" &&
    has_match out '^straggler,Rank 2 makes the others wait at collectives: 3.00 ms per iteration'
# check on summaries answers from what they hold: no trace is read
mv "$tmp/late" "$tmp/late-away"
expect 3 "$HTX" check "$tmp/late-sums" &&
    has_match err "finding beyond 5%: straggler: Rank 2 makes the others wait at collectives: 3.00 ms"
expect 3 "$HTX" check --events=skip --format=csv "$tmp/late-sums" &&
    has_match out '^straggler,Rank 2 makes the others wait at collectives: 3.00 ms per iteration'
expect 0 "$HTX" check --max-cost=30 "$tmp/late-sums"
mv "$tmp/late-away" "$tmp/late"
expect 2 "$HTX" check --events=skip "$tmp/sync" && has_match err "the check needs the events: these paths name traces"
# bad input, bad usage
expect 1 "$HTX" check "$tmp/nothing-here"
expect 2 "$HTX" check
expect 2 "$HTX" check --max-cost=much "$tmp/sync"
expect 2 "$HTX" check --max-cost=101 "$tmp/sync"
finish
